// End-to-end test of a fork in the REAL app binary under Xvfb (spec 15): after a comparison, an
// event's "Fork from here" asks which lanes go on and what changes; the fork gives the lookup
// another result, runs dynamic and restart from there, and the History page draws the fork beside
// its parent, its lane marking where it left it. The fork's runs are kept as the parent's children
// (read back with the CLI). Run: `node --test tests/e2e/` after `cargo build -p unfold-app`.
import assert from "node:assert/strict";
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import {
  appHistoryJson,
  chooseOption,
  click,
  EXAMPLE,
  ROOT,
  resizeWindow,
  runComparison,
  saveScreenshot,
  sleep,
  startHarness,
  stopHarness,
  typeInto,
  waitFor,
  waitUntil,
  webdriver,
  withApp,
  workDir,
} from "./harness.mjs";

const LONG_ISSUE = JSON.stringify({ id: 7, title: "Login fails", log: "the session cookie is dropped ".repeat(60) });

describe("a fork in the app (real binary under Xvfb)", () => {
  before(() => startHarness());

  after(stopHarness);

  it("forks a lane at an event with another result and shows the fork beside its parent", async (t) => {
    const template = join(workDir, "fork.unfold.json");
    copyFileSync(EXAMPLE, template);
    const scenario = join(workDir, "fork.scenario.json");
    copyFileSync(join(ROOT, "examples/lookup-first.scenario.json"), scenario);
    await withApp(
      t,
      template,
      async (session) => {
        await resizeWindow(session, 1440, 900);
        await waitFor(session, '[data-testid="compare-view"]');
        await runComparison(session);
        await click(session, '[data-testid="timeline-event"][data-lane="dynamic"][data-seq="2"]');
        await click(session, '[data-testid="fork-from-here"]');
        await waitFor(session, '[data-testid="fork-dialog"]');
        await click(session, '[data-testid="fork-lane"][data-lane="restart"]');
        await chooseOption(session, '[data-testid="fork-call"]', "call_0_0");
        await waitFor(session, '[data-testid="fork-result"]');
        await webdriver("POST", `/session/${session}/execute/sync`, {
          script: "document.querySelector('[data-testid=\"fork-result\"]').select(); return true;",
          args: [],
        });
        await typeInto(session, '[data-testid="fork-result"]', LONG_ISSUE);
        await sleep(300); // a frame for WebKit to paint the question into the screenshot
        await saveScreenshot(session, "fork-question-1440-light");
        await click(session, '[data-testid="fork-run"]');

        // The History page: the fork beside its parent, marked where it left it.
        const shown = await waitUntil(
          session,
          `const fork = document.querySelector('[data-testid="history-fork"]');
           const marked = [...document.querySelectorAll('[data-fork-point="true"]')];
           return fork === null || document.querySelector('[data-testid="history-comparison"]') === null
             ? null
             : { fork: fork.textContent, marked: marked.map((e) => e.dataset.lane + ":" + e.dataset.seq),
                 divergence: document.querySelector('[data-testid="history-divergence"]')?.textContent ?? "" };`,
          (value) => value !== null && value.marked.length > 0,
          "the fork beside its parent",
        );
        assert.match(shown.fork, /^Fork of run \d+ at event 2/);
        assert.deepEqual(shown.marked, ["dynamic:2"]);
        await saveScreenshot(session, "fork-history-1440-light");
        await resizeWindow(session, 1024, 700);
        await sleep(300);
        await saveScreenshot(session, "fork-history-1024-light");
        const parent = Number(/^Fork of run (\d+)/.exec(shown.fork)[1]);

        // Kept as the parent's children: dynamic's and restart's runs from the event, the
        // lookup given the long issue in each.
        const kept = appHistoryJson(["history", "--json", "--limit", "20"]);
        const children = kept.filter((run) => run.forked_from?.run === parent);
        assert.deepEqual(children.map((run) => run.lane).sort(), ["dynamic", "restart"]);
        assert.ok(children.every((run) => run.forked_from.at_seq === 2));
        for (const child of children) {
          const run = appHistoryJson(["history", "show", String(child.id), "--json"]);
          const lookups = run.report.events.filter((e) => e.type === "tool_call" && e.name === "lookup");
          assert.ok(lookups.length > 0 && lookups.every((e) => JSON.stringify(e.result) === LONG_ISSUE), child.lane);
        }
      },
      scenario,
    );
  });
});
