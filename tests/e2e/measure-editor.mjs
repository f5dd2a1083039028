// Measures the real app (not a test; prints figures): the binary's size, its start to the preview
// drawn, and keystroke to preview updated while typing into a section's template, for each
// template given. `scripts/bench.sh` runs it on a release build:
//
//   UNFOLD_APP=target/release/unfold-app node tests/e2e/measure-editor.mjs [--keys N] [--starts N] \
//     [--json] examples/task-executor.unfold.json target/bench/bench-5000.unfold.json
//
// Start to preview is from the app process's start (from /proc, in clock ticks) to the frame that
// first shows a preview, as the app marks it (`unfold:preview-drawn`, ui/src/editor/previewDrawnMark.ts):
// WebKitWebDriver's own start is not counted, nor how long WebDriver takes to notice the preview (a
// poll of the page takes it 30-50 ms more here). The page's part of it, from the page's time origin,
// is given too: it is what the UI's script and drawing take, where the part before it is the
// platform's (the libraries' loading, GTK, WebKit's processes) and moves by hundreds of
// milliseconds from start to start. The app is started --starts times (default 5) per
// template and the median is given: one start varies by a few hundred milliseconds on a busy
// machine. Keystroke
// latency is taken in the page: from the keydown of each typed character to the first frame after
// the preview holds it. With --json, one JSON object per template instead of a line of words.
import { execFileSync } from "node:child_process";
import { copyFileSync, readFileSync, statSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { ms, percentile } from "./figures.mjs";
import { APP, appPid, click, openApp, closeApp, sleep, startHarness, stopHarness, waitUntil, webdriver, workDir, typeInto } from "./harness.mjs";

const { values: options, positionals: templates } = parseArgs({
  allowPositionals: true,
  options: {
    keys: { type: "string", default: "100" },
    starts: { type: "string", default: "5" },
    json: { type: "boolean", default: false },
  },
});
const KEYS = Number(options.keys);
const STARTS = Math.max(1, Number(options.starts));
const CLOCK_TICKS = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }));

/** When process `pid` started, in milliseconds since the epoch (to the clock tick, 10 ms). */
function processStartMs(pid) {
  const uptime = Number(readFileSync("/proc/uptime", "utf8").split(" ")[0]);
  // The command name (field 2) may hold spaces: the fields after its closing parenthesis count from 3.
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const startTicks = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]);
  return Date.now() - (uptime - startTicks / CLOCK_TICKS) * 1000;
}

/**
 * When the page marked its first preview drawn: since the page's own start (its time origin), and
 * in milliseconds since the epoch; null before.
 */
const PREVIEW_DRAWN = `
  const mark = performance.getEntriesByName("unfold:preview-drawn")[0];
  return mark === undefined ? null : { inPage: mark.startTime, at: performance.timeOrigin + mark.startTime };`;

/**
 * Polls every few milliseconds until the app marks the preview drawn; the app's age then, and the
 * page's (the part the UI's own script and drawing take, without WebKit's start before it).
 */
async function startToPreviewMs(session, template) {
  for (;;) {
    const drawn = await webdriver("POST", `/session/${session}/execute/sync`, { script: PREVIEW_DRAWN, args: [] });
    if (drawn !== null) return { app: drawn.at - processStartMs(appPid(template)), page: drawn.inPage };
    await sleep(5);
  }
}

/**
 * Installs the probe: each keydown starts a timer; it stops at the first animation frame after
 * the preview's DOM holds the typed text. Only the mutated nodes are read, so the probe does not
 * itself pay for reading a 0.6 MB prompt on every frame.
 */
const PROBE = `
  window.__latencies = [];
  let typed = "";
  let pending = null;
  document.addEventListener("keydown", (event) => {
    if (event.key.length !== 1) return; // Shift and other keys that type nothing
    typed += event.key;
    pending = { started: performance.now(), typed };
  }, true);
  new MutationObserver((records) => {
    const waiting = pending;
    if (waiting === null) return;
    if (!records.some((record) => (record.target.textContent ?? "").includes(waiting.typed))) return;
    pending = null;
    requestAnimationFrame(() => window.__latencies.push(performance.now() - waiting.started));
  }).observe(document.querySelector('[aria-label="Preview"]'), { childList: true, subtree: true, characterData: true });
  return true;`;

/** The first FULL row's select button (typing into a summarized section does not change the prompt). */
const FIRST_FULL_ROW = `
  const row = [...document.querySelectorAll('[data-testid="section-row"]')]
    .find((r) => r.querySelector('[data-testid="toggle-visibility"]')?.textContent === "FULL");
  return row?.dataset.path ?? null;`;

/**
 * The medians of `STARTS` starts of the app on `copy` to its preview, from the process's start and
 * from the page's; the last one's session stays open.
 */
async function startsToPreview(copy) {
  const starts = [];
  for (;;) {
    const session = await openApp(copy);
    try {
      starts.push(await startToPreviewMs(session, copy));
    } catch (error) {
      await closeApp(session);
      throw error;
    }
    if (starts.length === STARTS) {
      const median = (part) => percentile(starts.map((start) => start[part]), 0.5);
      return { session, launchMs: median("app"), pageMs: median("page") };
    }
    await closeApp(session);
  }
}

async function measure(template) {
  const copy = join(workDir, basename(template));
  copyFileSync(template, copy);
  const { session, launchMs, pageMs } = await startsToPreview(copy);
  try {
    const path = await waitUntil(session, FIRST_FULL_ROW, (p) => typeof p === "string", "a FULL section");
    await click(session, `[data-testid="section-row"][data-path="${path}"] [data-testid="select-section"]`);
    await webdriver("POST", `/session/${session}/execute/sync`, { script: PROBE, args: [] });
    // Letters only: the renderer strips trailing white space, so a typed space shows no change.
    const marker = "Zq";
    for (let i = 0; i < KEYS; i++) {
      await typeInto(session, '[data-testid="field-template"]', marker[i % 2]);
      await waitUntil(session, "return window.__latencies.length;", (n) => n >= i + 1, "the preview following the key");
    }
    const latencies = await webdriver("POST", `/session/${session}/execute/sync`, { script: "return window.__latencies;", args: [] });
    return { launchMs, pageMs, latencies };
  } finally {
    await closeApp(session);
  }
}

await startHarness();
try {
  const size = statSync(APP).size / 1e6;
  if (!options.json) console.log(`binary ${APP}: ${size.toFixed(1)} MB`);
  for (const template of templates.map((p) => resolve(p))) {
    const { launchMs, pageMs, latencies } = await measure(template);
    const figures = {
      template: basename(template),
      binary_mb: size,
      start_to_preview_ms: launchMs,
      page_start_to_preview_ms: pageMs,
      keystroke_p50_ms: percentile(latencies, 0.5),
      keystroke_p99_ms: percentile(latencies, 0.99),
      keystroke_max_ms: Math.max(...latencies),
      keys: latencies.length,
    };
    console.log(
      options.json
        ? JSON.stringify(figures)
        : `${figures.template}: start to preview ${ms(launchMs)} (the page's part ${ms(pageMs)}); keystroke to preview p50 ${ms(figures.keystroke_p50_ms)}, ` +
            `p99 ${ms(figures.keystroke_p99_ms)} (max ${ms(figures.keystroke_max_ms)}, ${latencies.length} keys)`,
    );
  }
} finally {
  await stopHarness();
}
