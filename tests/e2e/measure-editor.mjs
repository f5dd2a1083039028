// Measures the real app (not a test; prints figures): the binary's size, launch to the preview
// drawn, and keystroke to preview updated while typing into a section's template, for each
// template given. Use a release build:
//
//   CARGO_TARGET_DIR=target-release cargo build --release -p unfold-app
//   python3 ../shared/spec/bench_template.py 5000 plain read_section > /tmp/bench-5000.unfold.json
//   UNFOLD_APP=target-release/release/unfold-app node tests/e2e/measure-editor.mjs \
//     examples/task-executor.unfold.json /tmp/bench-5000.unfold.json
//
// Launch times include WebKitWebDriver's session start. Keystroke latency is taken in the page:
// from the keydown of each typed character to the first frame after the preview holds it.
import { copyFileSync, statSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { APP, click, openApp, closeApp, startHarness, stopHarness, waitUntil, webdriver, workDir, typeInto } from "./harness.mjs";

const SAMPLES = 15;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
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

async function measure(template) {
  const copy = join(workDir, basename(template));
  copyFileSync(template, copy);
  const launched = performance.now();
  const session = await openApp(copy);
  try {
    await waitUntil(session, "return document.querySelector('[data-testid=\"preview-markdown\"]') !== null;", Boolean, "the preview");
    const launchMs = performance.now() - launched;
    const path = await waitUntil(session, FIRST_FULL_ROW, (p) => typeof p === "string", "a FULL section");
    await click(session, `[data-testid="section-row"][data-path="${path}"] [data-testid="select-section"]`);
    await webdriver("POST", `/session/${session}/execute/sync`, { script: PROBE, args: [] });
    // Letters only: the renderer strips trailing white space, so a typed space shows no change.
    const marker = "Zq";
    for (let i = 0; i < SAMPLES; i++) {
      await typeInto(session, '[data-testid="field-template"]', marker[i % 2]);
      await waitUntil(session, "return window.__latencies.length;", (n) => n >= i + 1, "the preview following the key");
    }
    const latencies = await webdriver("POST", `/session/${session}/execute/sync`, { script: "return window.__latencies;", args: [] });
    return { launchMs, latencies };
  } finally {
    await closeApp(session);
  }
}

await startHarness();
try {
  console.log(`binary ${APP}: ${(statSync(APP).size / 1e6).toFixed(1)} MB`);
  for (const template of process.argv.slice(2).map((p) => resolve(p))) {
    const { launchMs, latencies } = await measure(template);
    const ms = (v) => `${v.toFixed(0)} ms`;
    console.log(
      `${basename(template)}: launch to preview ${ms(launchMs)}; keystroke to preview median ${ms(median(latencies))} ` +
        `(min ${ms(Math.min(...latencies))}, max ${ms(Math.max(...latencies))}, ${latencies.length} keys)`,
    );
  }
} finally {
  await stopHarness();
}
