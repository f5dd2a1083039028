// End-to-end test of a study in the REAL app binary under Xvfb (spec 14): the Compare page's
// Repeat turns Run into a study of the open scenario with the A/A control; its answer (each pair's
// verdict in words, the A/A line, each lane's success and its runs as dots) is the command line's
// for the same study, every run is kept in the history, and a dot opens its run on the History's
// timeline. The time from the study's answer to the page drawn is printed (the figure for
// a 1,000-repetition study is benches/study-view.mjs's). Run: `node --test tests/e2e/` after
// `cargo build -p unfold-app`.
import assert from "node:assert/strict";
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import {
  click,
  EXAMPLE,
  pressRun,
  ROOT,
  saveScreenshot,
  startHarness,
  stopHarness,
  typeInto,
  unfoldJson,
  waitFor,
  waitUntil,
  webdriver,
  withApp,
  workDir,
} from "./harness.mjs";

const REPEAT = 20;

/** What the study view answers: the verdicts, the A/A line and each lane's dots. */
const STUDY_SHOWN = `const text = (id) => [...document.querySelectorAll('[data-testid="' + id + '"]')].map((e) => e.textContent);
  return {
    verdicts: text("study-verdict"),
    aa: text("study-aa"),
    lanes: [...document.querySelectorAll('[data-testid="study-lane"]')].map((row) => row.dataset.lane),
    dots: Object.fromEntries([...document.querySelectorAll('[data-testid="study-row"]')]
      .map((row) => [row.dataset.lane, row.querySelectorAll('[data-testid="study-dot"]').length])),
  };`;

describe("a study in the app (real binary under Xvfb)", () => {
  before(startHarness);

  after(stopHarness);

  it("repeats the comparison with an A/A control and answers as the command line does; a dot opens its run", async (t) => {
    const template = join(workDir, "study.unfold.json");
    copyFileSync(EXAMPLE, template);
    const scenario = join(workDir, "study.scenario.json");
    copyFileSync(join(ROOT, "examples/lookup-first.scenario.json"), scenario);
    const expected = unfoldJson([
      "compare", template, scenario, "--adapters", "dynamic,restart", "--repeat", String(REPEAT), "--aa", "--json",
    ]);
    await withApp(
      t,
      template,
      async (session) => {
        await waitFor(session, '[data-testid="compare-view"]');
        // What Repeat holds is selected, so the typing replaces it.
        await webdriver("POST", `/session/${session}/execute/sync`, {
          script: "document.querySelector('[data-testid=\"study-repeat\"]').select(); return true;",
          args: [],
        });
        await typeInto(session, '[data-testid="study-repeat"]', String(REPEAT));
        await waitUntil(
          session,
          "return document.querySelector('[data-testid=\"run-comparison\"]').textContent;",
          (text) => text === `Run ×${REPEAT}`,
          "Run says it repeats",
        );
        await click(session, '[data-testid="study-aa-toggle"]');
        await pressRun(session);
        const shown = await waitUntil(
          session,
          STUDY_SHOWN,
          (value) => value.verdicts.length > 0,
          "the study's verdicts",
        );
        const drawnMs = await waitUntil(
          session,
          `const at = (name) => performance.getEntriesByName(name).at(-1)?.startTime ?? null;
           const answered = at("unfold:study-answered"), drawn = at("unfold:study-drawn");
           return answered === null || drawn === null ? null : drawn - answered;`,
          (value) => value !== null,
          "the study drawn",
        );
        t.diagnostic(`study of ${REPEAT} repetitions x 2 lanes + A/A drawn in ${drawnMs.toFixed(1)} ms after its answer`);
        assert.deepEqual(
          shown.verdicts,
          expected.pairs.map((pair) => `${pair.a} against ${pair.b}: ${pair.verdict}`),
        );
        assert.deepEqual(shown.aa, [`A/A control, ${expected.aa.b} run again: ${expected.aa.verdict}`]);
        assert.deepEqual(shown.lanes, ["dynamic", "restart"]);
        assert.deepEqual(shown.dots, { dynamic: REPEAT, restart: REPEAT });
        await saveScreenshot(session, "study");

        // The dot of restart's 7th repetition opens that run on the History's timeline.
        await click(session, '[data-testid="study-row"][data-lane="restart"] [data-testid="study-dot"][data-repetition="7"]');
        const selected = await waitUntil(
          session,
          `const row = document.querySelector('[data-testid="history-row"][aria-selected="true"]');
           return row === null ? null : { lane: row.dataset.lane, detail: document.querySelector('[data-testid="history-detail"]') !== null };`,
          (value) => value !== null && value.detail,
          "the run selected on the History page",
        );
        assert.equal(selected.lane, "restart");
        // Every run of the study is in the history: 20 repetitions of two lanes and the control.
        const rows = await waitUntil(
          session,
          "return document.querySelectorAll('[data-testid=\"history-row\"]').length;",
          (count) => count >= REPEAT * 3,
          "the study's runs in the history",
        );
        assert.equal(rows, REPEAT * 3);
      },
      scenario,
    );
  });
});
