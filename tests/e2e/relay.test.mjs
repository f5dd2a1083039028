// End-to-end test of the plugin relay in the REAL app (issue 13), at 1024×700 in dark mode: the
// Sources tab starts the app's relay, the example plugin (examples/relay-plugin, plain Python)
// opens a session and registers its tool, the app lists the session and logs the update, and a
// comparison attached to the session sees the plugin add a tool mid-run: its lanes run side by side,
// so the one change is an injection in the dynamic lane and a restart in the restart lane. Run: `node --test
// tests/e2e/` after `cargo build -p unfold-app`.
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { after, before, describe, it } from "node:test";
import { click, ROOT, resizeWindow, runComparison, saveScreenshot, sleep, startAppRelay, startHarness, stopHarness, timelineEvents, waitFor, waitUntil, withApp } from "./harness.mjs";

const TEMPLATE = join(ROOT, "examples/relay-plugin/tables.unfold.json");
const SCENARIO = join(ROOT, "examples/relay-plugin/plot.scenario.json");

/** Starts the example plugin against `relay`; its session code once it is ready, and the process. */
async function startPlugin(t, relay) {
  const plugin = spawn("python3", [join(ROOT, "examples/relay-plugin/table_plugin.py"), relay], { stdio: ["ignore", "pipe", "inherit"] });
  t.after(() => plugin.kill());
  const line = await new Promise((resolve, reject) => {
    createInterface({ input: plugin.stdout }).once("line", resolve);
    plugin.once("exit", (code) => reject(new Error(`the plugin exited (${String(code)})`)));
  });
  return JSON.parse(line).code;
}

describe("the plugin relay in the real app", () => {
  before(() => startHarness({ dark: true }));
  after(stopHarness);

  it("starts the relay, lists a plugin's session with a live log, and attaches a comparison to it", async (t) => {
    await withApp(
      t,
      TEMPLATE,
      async (session) => {
        await resizeWindow(session, 1024, 700);
        const relay = await startAppRelay(session);
        // The panel's "Connect a plugin" commands, pasted into a shell as a user would: a session
        // opened, its tool registered, and the session listed with its plugin.
        const commands = (await waitFor(session, '[data-testid="relay-snippet"]')).split("\n").filter((line) => !line.startsWith("#"));
        const opened = JSON.parse(execFileSync("bash", ["-c", commands[0]], { encoding: "utf8" }));
        const register = commands.slice(1).join("\n").replace("CODE", opened.code).replace("TOKEN", opened.token);
        const registered = JSON.parse(execFileSync("bash", ["-c", register], { encoding: "utf8" }));
        assert.deepEqual(registered.registeredTools, ["open_table"]);
        await waitUntil(
          session,
          `return document.querySelector('[data-testid="relay-session"][data-code="${opened.code}"]')?.textContent ?? "";`,
          (text) => text.includes("my-plugin"),
          "the pasted session listed with its plugin",
        );
        const code = await startPlugin(t, relay);
        const logged = await waitUntil(
          session,
          `return [...document.querySelectorAll('[data-testid="relay-log-entry"]')].map((e) => e.textContent).join(" | ");`,
          (text) => text.includes(code) && text.includes("open_table"),
          "the plugin's registration in the live log",
        );
        assert.match(logged, /open_table/);
        await waitUntil(
          session,
          `return document.querySelector('[data-testid="relay-session"][data-code="${code}"]')?.textContent ?? "";`,
          (text) => text.includes("tables"),
          "the session listed with its plugin",
        );
        await sleep(300); // a frame for WebKit to paint into the screenshot
        await saveScreenshot(session, "relay-1024-dark");

        await click(session, '[data-testid="page-compare"]');
        await waitUntil(
          session,
          `const picker = document.querySelector('[data-testid="relay-session-picker"]');
           if (!picker) return false;
           picker.value = ${JSON.stringify(code)};
           picker.dispatchEvent(new Event("change", { bubbles: true }));
           return picker.value;`,
          (value) => value === code,
          "the session picked",
        );
        await runComparison(session);
        const events = await timelineEvents(session);
        const of = (lane, type) => events.filter((e) => e.startsWith(`${lane} ${type}`));
        assert.match(of("dynamic", "tools_discovered")[0] ?? "", /tools from tables \(listed live\)/, events.join("\n"));
        assert.match(of("dynamic", "tool_availability_changed")[0] ?? "", /\(tables\).*\+plot_column/, events.join("\n"));
        assert.match(of("dynamic", "tools_injected")[0] ?? "", /plot_column/, events.join("\n"));
        // The lanes ran side by side on the one session: the plugin's one change reached both.
        assert.match(of("restart", "tool_availability_changed")[0] ?? "", /\(tables\).*\+plot_column/, events.join("\n"));
        assert.match(of("restart", "restart")[0] ?? "", /restarted for a change of the tool list/, events.join("\n"));
        assert.deepEqual([of("dynamic", "restart"), of("restart", "tools_injected")], [[], []], events.join("\n"));
        await sleep(300);
        await saveScreenshot(session, "relay-compare-1024-dark");
      },
      SCENARIO,
    );
  });
});
