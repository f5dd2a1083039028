// promptfoo's provider for Unfold, written by `unfold export --to promptfoo --through-unfold`
// beside the config that names it. Each test runs its scenario's whole conversation through
// Unfold, in the provider's lane: `unfold compare TEMPLATE SCENARIO --adapters LANE --promptfoo`,
// which prints promptfoo's provider response itself (the final answer as `output`, the tool
// trajectory in `metadata`, `tokenUsage`, `cost`). The prompt promptfoo rendered is not sent
// anywhere: the scenario says what the user asks.
//
// Unfold is started with a list of arguments and no shell, so no path needs quoting, and with the
// environment promptfoo has: a live provider profile finds its key where Unfold always looks. A
// test of your own may name its scenario relative to this file's folder (the config's).
import { execFile } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));

export default class UnfoldProvider {
  constructor(options) {
    this.config = options.config;
  }

  id() {
    return `unfold:${this.config.lane}`;
  }

  async callApi(_prompt, context) {
    const { unfold, template, lane, profile, profiles } = this.config;
    const named = context?.vars?.unfold_scenario;
    if (!named) {
      return { error: "the test names no scenario: set its unfold_scenario variable to a scenario file" };
    }
    const scenario = resolve(HERE, named);
    const args = ["compare", template, scenario, "--adapters", lane, "--promptfoo"];
    if (profile) args.push("--provider", profile);
    if (profiles) args.push("--providers", profiles);
    return new Promise((resolve) => {
      execFile(unfold, args, { maxBuffer: 64 * 1024 * 1024 }, (failure, stdout, stderr) => {
        if (failure) {
          resolve({ error: `${unfold} ${args.join(" ")}: ${stderr.trim() || failure.message}` });
          return;
        }
        try {
          resolve(JSON.parse(stdout));
        } catch (notJson) {
          resolve({ error: `${unfold} printed no provider response: ${notJson.message}` });
        }
      });
    });
  }
}
