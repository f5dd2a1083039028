// Measures the real app (issue 13; not a test, prints figures): how long a plugin's `update-tools`
// takes to reach the app's UI. The app (under Xvfb, as the end-to-end tests run it) starts its
// relay from the Sources tab; this script opens SESSIONS sessions over HTTP, each registering a
// tool, then sends 10 updates per session round robin, one every PACE_MS, each adding a tool of
// its own name. In the page, a MutationObserver notes when each update's line enters the relay's
// live log (the DOM) and the frame after it (on screen). Prints p50, p99 and the worst of both,
// from the moment before each POST, and of the interval between the page's frames meanwhile (how
// busy drawing kept it). Timestamps on both sides are `performance.timeOrigin +
// performance.now()` (one machine, one clock). SESSIONS and PACE_MS in the environment change the
// load. Run it after `cd ui && npm run build && cargo build -p unfold-app`
// (UNFOLD_APP=target/release/unfold-app for a release build):
//
//   node tests/e2e/measure-relay.mjs
//
// The relay's limit of 10 updates a minute per session sets the shape: 100 sessions of 10 updates
// stay under it, so every update counts.
import assert from "node:assert/strict";
import { performance } from "node:perf_hooks";
import { join } from "node:path";
import { APP, openApp, closeApp, ROOT, sleep, startAppRelay, startHarness, stopHarness, waitUntil, webdriver } from "./harness.mjs";

const SESSIONS = Number(process.env.SESSIONS ?? 100);
const UPDATES_PER_SESSION = 10;
const PACE_MS = Number(process.env.PACE_MS ?? 20);
const TEMPLATE = join(ROOT, "examples/relay-plugin/tables.unfold.json");

const now = () => performance.timeOrigin + performance.now();

async function post(relay, path, body, token) {
  const headers = { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) };
  const response = await fetch(`${relay}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
  const text = await response.text();
  assert.ok(response.ok, `${path}: ${String(response.status)} ${text}`);
  return JSON.parse(text);
}

const tool = (name) => ({ name, description: `The ${name} tool.`, parameters: { type: "object", properties: {} } });

/** Notes in the page when each log line holding "+u<n>" appears, and the frame after. */
const OBSERVE = `
  window.__seen = {};
  const list = document.querySelector('[data-testid="relay-log"]') ?? document.body;
  new MutationObserver((records) => {
    const at = performance.timeOrigin + performance.now();
    for (const record of records) for (const node of record.addedNodes) {
      const match = /\\+(u\\d+)/.exec(node.textContent ?? "");
      if (match === null || window.__seen[match[1]] !== undefined) continue;
      const seen = { dom: at, frame: null };
      window.__seen[match[1]] = seen;
      requestAnimationFrame(() => { seen.frame = performance.timeOrigin + performance.now(); });
    }
  }).observe(list, { childList: true, subtree: true });
  window.__frames = [];
  let last = performance.now();
  const tick = (t) => { window.__frames.push(t - last); last = t; if (window.__frames.length < 100000) requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
  return true;`;

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function figures(name, latencies, over = "updates") {
  const sorted = [...latencies].sort((a, b) => a - b);
  const ms = (v) => `${v.toFixed(2)} ms`;
  console.log(`${name}: p50 ${ms(percentile(sorted, 50))}, p99 ${ms(percentile(sorted, 99))}, max ${ms(sorted.at(-1))} over ${String(sorted.length)} ${over}`);
}

await startHarness({});
const session = await openApp(TEMPLATE);
try {
  const relay = await startAppRelay(session);
  const sessions = [];
  for (let i = 0; i < SESSIONS; i++) {
    const created = await post(relay, "/api/sessions", {});
    await post(relay, `/api/sessions/${created.code}/register-tools`, { pluginType: "bench", tools: [tool("first")] }, created.token);
    sessions.push(created);
  }
  await sleep(1000); // the registrations' lines settle before the clock starts
  await webdriver("POST", `/session/${session}/execute/sync`, { script: OBSERVE, args: [] });
  const sent = {};
  const total = SESSIONS * UPDATES_PER_SESSION;
  for (let n = 0; n < total; n++) {
    const { code, token } = sessions[n % SESSIONS];
    const name = `u${String(n)}`;
    const at = now();
    sent[name] = at;
    await post(relay, `/api/sessions/${code}/update-tools`, { toolUpdates: { added: [tool(name)], removed: [], modified: [] }, reason: "bench" }, token);
    const next = at + PACE_MS - now();
    if (next > 0) await sleep(next);
  }
  const seen = await waitUntil(
    session,
    "return window.__seen;",
    (s) => Object.values(s).filter((v) => v.frame !== null).length === total,
    `all ${String(total)} updates in the log`,
  );
  const dom = Object.entries(sent).map(([name, at]) => seen[name].dom - at);
  const frame = Object.entries(sent).map(([name, at]) => seen[name].frame - at);
  console.log(`${APP}, ${String(SESSIONS)} sessions, an update every ${String(PACE_MS)} ms`);
  figures("update-tools POST → its line in the app's log (DOM)", dom);
  figures("update-tools POST → the frame that shows it", frame);
  const frames = await webdriver("POST", `/session/${session}/execute/sync`, { script: "return window.__frames;", args: [] });
  figures("the page's frame interval meanwhile", frames, "frames");
} finally {
  await closeApp(session);
  await stopHarness();
}
