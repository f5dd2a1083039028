// Measures the real app (not a test; prints figures): how long the Compare page takes to show a
// finished comparison once its report has reached the page, and the run itself, for a template and
// a scenario (by default the coding-agent example's tour, 46 model calls):
//
//   UNFOLD_APP=target/release/unfold-app node tests/e2e/measure-compare.mjs [--runs N] [--json] \
//     [TEMPLATE SCENARIO]
//
// The app marks both ends (ui/src/compare/comparisonDrawnMark.ts): the report arriving
// (`unfold:comparison-answered`) and the first frame painted after it (`unfold:comparison-drawn`),
// so WebDriver's polling is not counted. The comparison is run --runs times (default 10) in one
// window under the adapters the page ticks by default; the median and the slowest are given.
import { basename, resolve } from "node:path";
import { parseArgs } from "node:util";
import { ms, percentile } from "./figures.mjs";
import { APP, ROOT, closeApp, openApp, pressRun, startHarness, stopHarness, waitUntil, webdriver } from "./harness.mjs";

const { values: options, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    runs: { type: "string", default: "10" },
    json: { type: "boolean", default: false },
  },
});
const RUNS = Math.max(1, Number(options.runs));
const [template, scenario] =
  positionals.length === 2
    ? positionals.map((path) => resolve(path))
    : [resolve(ROOT, "examples/coding-agent.unfold.json"), resolve(ROOT, "examples/coding-agent-tour.scenario.json")];

/** Forgets the marks of the comparison before, so that the next run's are the only ones. */
const FORGET_MARKS = `
  performance.clearMarks("unfold:comparison-answered");
  performance.clearMarks("unfold:comparison-drawn");
  performance.clearMarks("unfold:run-pressed");
  performance.mark("unfold:run-pressed");
  return true;`;

/** The run's marks once it is drawn (null before): when Run was pressed, answered, drawn. */
const MARKS = `
  const at = (name) => performance.getEntriesByName(name)[0]?.startTime ?? null;
  const drawn = at("unfold:comparison-drawn");
  if (drawn === null) return null;
  const calls = document.querySelectorAll('[data-testid="timeline-event"][data-type="model_call"]').length;
  return { pressed: at("unfold:run-pressed"), answered: at("unfold:comparison-answered"), drawn, calls };`;

async function measure() {
  const session = await openApp(template, scenario);
  try {
    const runs = [];
    for (let i = 0; i < RUNS; i++) {
      await webdriver("POST", `/session/${session}/execute/sync`, { script: FORGET_MARKS, args: [] });
      await pressRun(session);
      runs.push(await waitUntil(session, MARKS, (marks) => marks !== null, "the comparison drawn"));
    }
    return runs;
  } finally {
    await closeApp(session);
  }
}

await startHarness();
try {
  const runs = await measure();
  const drawn = runs.map((run) => run.drawn - run.answered);
  const ran = runs.map((run) => run.answered - run.pressed);
  const figures = {
    template: basename(template),
    scenario: basename(scenario),
    binary: APP,
    model_calls: runs[0].calls,
    runs: runs.length,
    answered_to_drawn_p50_ms: percentile(drawn, 0.5),
    answered_to_drawn_max_ms: Math.max(...drawn),
    run_p50_ms: percentile(ran, 0.5),
    run_max_ms: Math.max(...ran),
  };
  console.log(
    options.json
      ? JSON.stringify(figures)
      : `${figures.template} on ${figures.scenario} (${figures.model_calls} model calls shown, ${runs.length} runs): ` +
          `report to page drawn p50 ${ms(figures.answered_to_drawn_p50_ms)} (max ${ms(figures.answered_to_drawn_max_ms)}); ` +
          `Run pressed to report p50 ${ms(figures.run_p50_ms)} (max ${ms(figures.run_max_ms)})`,
  );
} finally {
  await stopHarness();
}
