// Measures the real app (not a test; prints figures): how long the Compare page takes to draw a
// finished study once its report has reached the page (its verdicts, lanes and plots), and the
// study itself, for a template and a scenario repeated N times (by default the task-executor
// example's lookup-first, 1,000 repetitions of dynamic and restart):
//
//   UNFOLD_APP=target/release/unfold-app node tests/e2e/measure-study.mjs [--repeat N] [--runs R] \
//     [--json] [TEMPLATE SCENARIO]
//
// The app marks both ends (ui/src/studies/studyDrawnMark.ts): the report arriving
// (`unfold:study-answered`) and the first frame painted after it (`unfold:study-drawn`), so
// WebDriver's polling is not counted. The study runs --runs times (default 3) in one window; the
// median and the slowest are given.
import { basename, resolve } from "node:path";
import { parseArgs } from "node:util";
import { ms, percentile } from "./figures.mjs";
import {
  APP,
  ROOT,
  closeApp,
  openApp,
  pressRun,
  startHarness,
  stopHarness,
  typeInto,
  waitFor,
  waitUntil,
  webdriver,
} from "./harness.mjs";

const { values: options, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    repeat: { type: "string", default: "1000" },
    runs: { type: "string", default: "3" },
    json: { type: "boolean", default: false },
  },
});
const REPEAT = Math.max(2, Number(options.repeat));
const RUNS = Math.max(1, Number(options.runs));
const [template, scenario] =
  positionals.length === 2
    ? positionals.map((path) => resolve(path))
    : [resolve(ROOT, "examples/task-executor.unfold.json"), resolve(ROOT, "examples/lookup-first.scenario.json")];

/** Forgets the marks of the study before, so that the next one's are the only ones. */
const FORGET_MARKS = `
  performance.clearMarks("unfold:study-answered");
  performance.clearMarks("unfold:study-drawn");
  performance.clearMarks("unfold:run-pressed");
  performance.mark("unfold:run-pressed");
  return true;`;

/** The study's marks once it is drawn (null before): when Run was pressed, answered, drawn. */
const MARKS = `
  const at = (name) => performance.getEntriesByName(name)[0]?.startTime ?? null;
  const drawn = at("unfold:study-drawn");
  if (drawn === null) return null;
  const shapes = document.querySelectorAll('[data-testid="study-strip"] *').length;
  return { pressed: at("unfold:run-pressed"), answered: at("unfold:study-answered"), drawn, shapes };`;

async function measure() {
  const session = await openApp(template, scenario);
  try {
    await waitFor(session, '[data-testid="study-repeat"]');
    await webdriver("POST", `/session/${session}/execute/sync`, {
      script: "document.querySelector('[data-testid=\"study-repeat\"]').select(); return true;",
      args: [],
    });
    await typeInto(session, '[data-testid="study-repeat"]', String(REPEAT));
    const runs = [];
    for (let i = 0; i < RUNS; i++) {
      await webdriver("POST", `/session/${session}/execute/sync`, { script: FORGET_MARKS, args: [] });
      await pressRun(session);
      runs.push(await waitUntil(session, MARKS, (marks) => marks !== null, "the study drawn", 600_000));
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
    repeat: REPEAT,
    plot_shapes: runs[0].shapes,
    runs: runs.length,
    answered_to_drawn_p50_ms: percentile(drawn, 0.5),
    answered_to_drawn_max_ms: Math.max(...drawn),
    study_p50_ms: percentile(ran, 0.5),
  };
  console.log(
    options.json
      ? JSON.stringify(figures)
      : `${figures.template} on ${figures.scenario}, ${REPEAT} repetitions (${figures.plot_shapes} shapes in the plot, ${runs.length} studies): ` +
          `report to page drawn p50 ${ms(figures.answered_to_drawn_p50_ms)} (max ${ms(figures.answered_to_drawn_max_ms)}); ` +
          `Run pressed to report p50 ${ms(figures.study_p50_ms)}`,
  );
} finally {
  await stopHarness();
}
