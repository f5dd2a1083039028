// The harness of the end-to-end tests and measurements of the REAL app binary: its own Xvfb and
// WebKitWebDriver (hermetic: HOME and the XDG folders in a temp dir), raw W3C WebDriver over fetch
// (no npm packages), sessions that launch the app on a template, element helpers, SIGKILL of the
// app, and a cleanup that always runs, even when the runner is interrupted.
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
/** Where cargo builds: CARGO_TARGET_DIR when set, as cargo reads it. */
export const TARGET = process.env.CARGO_TARGET_DIR ? resolve(process.env.CARGO_TARGET_DIR) : join(ROOT, "target");
export const APP = process.env.UNFOLD_APP ?? join(TARGET, "debug/unfold-app");
export const EXAMPLE = join(ROOT, "examples/task-executor.unfold.json");
export const ELEMENT_KEY = "element-6066-11e4-a52e-4f735466cecf";
const REQUEST_TIMEOUT_MS = 30_000; // every WebDriver request: POST /session hangs forever when misconfigured
const SESSION_TIMEOUT_MS = 60_000; // launching the app under a cold cache can be slow on 2 cores
export const WAIT_TIMEOUT_MS = 20_000; // for React to render after load

/** Processes this test started (each leads its own process group) and output for diagnostics. */
const started = [];
export let workDir;
/** The API key the app's live runs take from the environment: a canary that must appear nowhere. */
export const E2E_KEY = "sk-e2e-canary-0b5d71f3";
/** Where the app finds its provider profiles (a test writes them). */
export const providersFile = () => join(workDir, "providers.json");
let baseUrl;
const sessions = new Set();

export function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

export function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

/** Spawns `command` as the leader of a new process group, so stopping it also stops its children. */
function startProcess(name, command, args, options = {}) {
  const child = spawn(command, args, { detached: true, ...options });
  const entry = { name, child, output: "" };
  for (const stream of [child.stdout, child.stderr]) {
    stream?.on("data", (chunk) => {
      entry.output = (entry.output + chunk.toString()).slice(-20_000);
    });
  }
  child.on("error", (error) => {
    entry.output += `\n[spawn error] ${error.message}`;
  });
  started.push(entry);
  return entry;
}

/** Stops every started process group (SIGTERM, then SIGKILL after 5 s), newest first. */
async function stopAll() {
  for (const { child } of started.reverse()) {
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) continue;
    const exited = new Promise((r) => child.once("exit", r));
    const signal = (name) => {
      try {
        process.kill(-child.pid, name);
      } catch {
        // already gone
      }
    };
    signal("SIGTERM");
    const kill = setTimeout(() => signal("SIGKILL"), 5_000);
    let giveUp;
    await Promise.race([exited, new Promise((r) => (giveUp = setTimeout(r, 10_000)))]);
    clearTimeout(kill);
    clearTimeout(giveUp);
  }
}

// If the test runner is interrupted, `after` does not run: stop the process groups synchronously
// and remove the temp dir.
function killAllNow() {
  for (const { child } of started) {
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) continue;
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  if (workDir !== undefined && process.env.UNFOLD_E2E_KEEP !== '1') rmSync(workDir, { recursive: true, force: true });
}
process.on("exit", killAllNow);
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.once(signal, () => {
    killAllNow();
    process.exit(128 + (signal === "SIGINT" ? 2 : signal === "SIGTERM" ? 15 : 1));
  });
}

export function diagnostics() {
  return started.map(({ name, output }) => `--- ${name} output ---\n${output.trim()}`).join("\n");
}

/** Starts Xvfb on a display it picks itself (-displayfd), returns ":N". */
async function startXvfb() {
  const xvfb = startProcess(
    "Xvfb",
    "Xvfb",
    ["-displayfd", "3", "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
    { stdio: ["ignore", "pipe", "pipe", "pipe"] },
  );
  const display = await new Promise((resolveDisplay, reject) => {
    let text = "";
    const timer = setTimeout(() => reject(new Error(`Xvfb did not start\n${diagnostics()}`)), 15_000);
    xvfb.child.stdio[3].on("data", (chunk) => {
      text += chunk.toString();
      if (text.includes("\n")) {
        clearTimeout(timer);
        resolveDisplay(`:${text.trim()}`);
      }
    });
    xvfb.child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`Xvfb exited with ${code}\n${diagnostics()}`));
    });
  });
  return display;
}

export async function webdriver(method, path, body) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(path === "/session" ? SESSION_TIMEOUT_MS : REQUEST_TIMEOUT_MS),
  });
  const json = await response.json();
  if (!response.ok) {
    const error = new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json.value)}`);
    error.webdriver = json.value;
    throw error;
  }
  return json.value;
}

async function waitForWebDriver() {
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      const status = await webdriver("GET", "/status");
      if (status.ready) return;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`WebKitWebDriver not ready: ${error}\n${diagnostics()}`);
    }
    await sleep(100);
  }
}

/** Launches the app on `template` (and a scenario, which opens the compare view); returns the session id. */
export async function openApp(template, scenario) {
  // No template (null): the start page.
  const args = [template, scenario].filter((arg) => arg !== undefined && arg !== null);
  const value = await webdriver("POST", "/session", {
    capabilities: {
      alwaysMatch: { "webkitgtk:browserOptions": { binary: APP, args } },
    },
  });
  sessions.add(value.sessionId);
  return value.sessionId;
}

/**
 * Keeps the page drawing frames for a second: without a GPU the app draws through WebKitGTK's
 * shared-memory renderer (src-tauri/src/webview_renderer.rs), which answers a WebDriver screenshot
 * only with the next frame it draws, and an idle page draws none. The frames come from a pixel at
 * the top left corner whose opacity flickers between 1 % and 2 % black, then goes away.
 */
const KEEP_DRAWING = `
  const pixel = document.createElement("div");
  pixel.style.cssText = "position: fixed; left: 0; top: 0; width: 1px; height: 1px; pointer-events: none; background: #000; opacity: 0.01";
  document.body.appendChild(pixel);
  const end = performance.now() + 1000;
  const flicker = () => {
    if (performance.now() > end) return pixel.remove();
    pixel.style.opacity = pixel.style.opacity === "0.01" ? "0.02" : "0.01";
    requestAnimationFrame(flicker);
  };
  requestAnimationFrame(flicker);
  return true;`;

/**
 * Takes a screenshot of the app's window into the temp dir; a `readme` one replaces README's
 * `docs/images/NAME.png` when UNFOLD_SCREENSHOT=1, after putting away the offer of work other tests'
 * killed apps left (as a user would with Later), which is not what README shows.
 */
export async function saveScreenshot(session, name = "editor", { readme = false } = {}) {
  const forReadme = readme && process.env.UNFOLD_SCREENSHOT === "1";
  if (forReadme) {
    await webdriver("POST", `/session/${session}/execute/sync`, {
      script: "document.querySelector('[data-testid=\"recovery-later\"]')?.click(); return true;",
      args: [],
    });
    await sleep(200);
  }
  await webdriver("POST", `/session/${session}/execute/sync`, { script: KEEP_DRAWING, args: [] });
  const png = Buffer.from(await webdriver("GET", `/session/${session}/screenshot`), "base64");
  assert.deepEqual([...png.subarray(1, 4)], [0x50, 0x4e, 0x47], "the screenshot is a PNG");
  writeFileSync(forReadme ? join(ROOT, `docs/images/${name}.png`) : join(workDir, `${name}.png`), png);
}

export async function closeApp(session) {
  sessions.delete(session);
  await webdriver("DELETE", `/session/${session}`).catch(() => {});
}

/**
 * Opens the app on `template` (and `scenario`, if given), runs `body(session)` and always closes
 * the app; when `body` fails, the test's diagnostics carry the output of the processes it started.
 */
export async function withApp(t, template, body, scenario) {
  const session = await openApp(template, scenario);
  try {
    return await body(session);
  } catch (error) {
    t.diagnostic(diagnostics());
    throw error;
  } finally {
    await closeApp(session);
  }
}

/** The pid of the app process started on `template` (WebKitWebDriver's child), or null. */
export function appPid(template) {
  const listing = execFileSync("ps", ["-eo", "pid=,args="], { encoding: "utf8" });
  for (const line of listing.split("\n")) {
    const [pid, ...args] = line.trim().split(/\s+/);
    if (args[0] === APP && args.includes(template)) return Number(pid);
  }
  return null;
}

/** Kills the app started on `template` with SIGKILL, as a crash or a power cut would end it. */
export async function killApp(session, template) {
  const pid = appPid(template);
  assert.ok(pid !== null, `no ${APP} process for ${template}`);
  process.kill(pid, "SIGKILL");
  for (let i = 0; i < 100 && appPid(template) !== null; i++) await sleep(50);
  assert.equal(appPid(template), null, "the app is gone");
  await closeApp(session);
}

/** The file of what the user allowed to start (sources, real hosts), as the app keeps it. */
export function consentsFile() {
  return join(workDir, "config", "dev.unfold.studio", "source-trust.json");
}

/** Where the app keeps unsaved work (the WebDriver's environment points XDG_DATA_HOME here). */
export function recoveryDir() {
  return join(workDir, "data", "dev.unfold.studio", "recovery");
}

/**
 * Waits until a recovery entry holds `text`. Only finished entries count: the temporary file a
 * write goes through holds the text first, and a kill before its rename leaves nothing to offer.
 */
export async function waitForRecovery(text) {
  const deadline = Date.now() + WAIT_TIMEOUT_MS;
  for (;;) {
    const dir = recoveryDir();
    const files = existsSync(dir) ? readdirSync(dir) : [];
    const entries = files.filter((file) => /^r-.*\.unfold-recovery\.json$/.test(file));
    if (entries.some((file) => readFileSync(join(dir, file), "utf8").includes(text))) return;
    if (Date.now() > deadline) throw new Error(`no recovery entry with ${JSON.stringify(text)} in ${dir}: ${files}`);
    await sleep(100);
  }
}

/**
 * Waits until `selector` matches, then returns `script(element)`'s result. The element is found and
 * the script run in one call to the page: found in one call and used in the next, it could be a
 * node React had replaced in between (WebDriver's "stale element reference").
 */
export async function waitFor(session, selector, script = "return arguments[0].textContent;") {
  const deadline = Date.now() + WAIT_TIMEOUT_MS;
  const found = `const element = document.querySelector(arguments[0]);
    return element === null ? { found: false } : { found: true, value: (function () { ${script} }).call(null, element) };`;
  for (;;) {
    const answer = await webdriver("POST", `/session/${session}/execute/sync`, { script: found, args: [selector] });
    if (answer.found) return answer.value;
    if (Date.now() > deadline) {
      const body = await webdriver("POST", `/session/${session}/execute/sync`, {
        script: "return document.body.innerText;",
        args: [],
      }).catch((e) => `(unavailable: ${e})`);
      throw new Error(`no ${selector} after ${WAIT_TIMEOUT_MS} ms; page shows:\n${body}`);
    }
    await sleep(100);
  }
}

export async function findElement(session, selector) {
  const element = await webdriver("POST", `/session/${session}/element`, { using: "css selector", value: selector });
  return element[ELEMENT_KEY];
}

/** Clicks the element `selector` matches (waiting for it to appear). */
export async function click(session, selector) {
  await waitFor(session, selector);
  const id = await findElement(session, selector);
  await webdriver("POST", `/session/${session}/element/${id}/click`, {});
}

/** Types `text` into the element `selector` matches, after what it holds (WebDriver Send Keys). */
export async function typeInto(session, selector, text) {
  await waitFor(session, selector);
  const id = await findElement(session, selector);
  await webdriver("POST", `/session/${session}/element/${id}/value`, { text });
}

/** Runs `script` in the page until `accept` takes its result (within `timeoutMs`); returns that result. */
export async function waitUntil(session, script, accept, what, timeoutMs = WAIT_TIMEOUT_MS) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await webdriver("POST", `/session/${session}/execute/sync`, { script, args: [] });
    if (accept(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)} after ${timeoutMs} ms`);
    await sleep(100);
  }
}


/** Sizes the app's window (the outer frame: Xvfb runs no window manager, so it is the viewport). */
export async function resizeWindow(session, width, height) {
  await webdriver("POST", `/session/${session}/window/rect`, { width, height });
  await waitUntil(session, "return [window.innerWidth, window.innerHeight];", ([w]) => w <= width, `a window ${width} wide`);
}

/**
 * Starts Xvfb and WebKitWebDriver with a fresh temp dir for the app's files; with `dark`, GTK's dark
 * Adwaita, which WebKit passes on to the page as `prefers-color-scheme: dark`; `env`, variables the
 * app gets besides (a test hook such as UNFOLD_OPEN_FOLDER_DIALOG_PATH, src-tauri/src/files.rs).
 */
export async function startHarness({ dark = false, env = {} } = {}) {
  assert.ok(existsSync(APP), `${APP} is missing: run \`cargo build -p unfold-app\` first`);
  workDir = mkdtempSync(join(tmpdir(), "unfold-e2e-"));
  mkdirSync(join(workDir, "saved"));
  const display = await startXvfb();
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  startProcess("WebKitWebDriver", "WebKitWebDriver", [`--port=${port}`], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      DISPLAY: display,
      TAURI_WEBVIEW_AUTOMATION: "true",
      // Hermetic: the app and WebKit write caches and settings under the temp dir only.
      HOME: workDir,
      XDG_CONFIG_HOME: join(workDir, "config"),
      XDG_DATA_HOME: join(workDir, "data"),
      XDG_CACHE_HOME: join(workDir, "cache"),
      RUST_LOG: "info",
      UNFOLD_PROVIDERS: join(workDir, "providers.json"),
      UNFOLD_E2E_KEY: E2E_KEY,
      // The app's save dialogs (and folder dialogs that write) answer here, with the name they suggest
      // (src-tauri/src/files.rs).
      UNFOLD_SAVE_DIALOG_FOLDER: join(workDir, "saved"),
      ...(dark ? { GTK_THEME: "Adwaita:dark" } : {}),
      ...env,
    },
  });
  await waitForWebDriver();
}

/** Closes every session, stops the processes and removes the temp dir. */
export async function stopHarness() {
  for (const session of [...sessions]) await closeApp(session);
  await stopAll();
  if (workDir !== undefined && process.env.UNFOLD_E2E_KEEP !== '1') rmSync(workDir, { recursive: true, force: true });
}

/** Waits until the comparison under way has finished. */
/** `unfold ARGS` through cargo with no run history kept, its JSON output parsed. */
export function unfoldJson(args) {
  return JSON.parse(
    execFileSync("cargo", ["run", "-q", "-p", "unfold-cli", "--", ...args], {
      cwd: ROOT,
      encoding: "utf8",
      env: { ...process.env, UNFOLD_HISTORY: "off" },
    }),
  );
}

/** Chooses `value` in the Compare page's lane picker `picker` until the lane's box `box` shows. */
async function pickLane(session, picker, value, box, what) {
  await waitUntil(
    session,
    `const picker = document.querySelector('[data-testid="${picker}"]');
     if (!picker || !picker.querySelector('option[value="${value}"]')) return false;
     const setValue = Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, "value").set;
     setValue.call(picker, "${value}");
     picker.dispatchEvent(new Event("change", { bubbles: true }));
     return document.querySelector('[data-testid="${box}"]') !== null;`,
    (added) => added === true,
    what,
  );
}

/** Chooses `value` in the `<select>` at `selector`, as a user's pick does (React hears a change). */
export async function chooseOption(session, selector, value) {
  await waitFor(session, selector);
  await webdriver("POST", `/session/${session}/execute/sync`, {
    script: `const select = document.querySelector(arguments[0]);
      Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, "value").set.call(select, arguments[1]);
      select.dispatchEvent(new Event("change", { bubbles: true }));
      return true;`,
    args: [selector, value],
  });
}

/** Adds the host lane of the preset `host` with the Compare page's "Add a host…" picker. */
export function addHostLane(session, host) {
  return pickLane(session, "host-picker", host, `host-${host}`, `the ${host} host lane added`);
}

/** Adds the installed real host `host` (`real-host-picker`) as a lane of the comparison. */
export function addRealHostLane(session, host) {
  return pickLane(session, "real-host-picker", host, `real-host-${host}`, `the real host ${host}'s lane added`);
}

/** Clicks Run once it is enabled (a launch scenario opens after the view). */
export async function pressRun(session) {
  await waitUntil(session, "return document.querySelector('[data-testid=\"run-comparison\"]')?.disabled;", (d) => d === false, "Run enabled");
  await click(session, '[data-testid="run-comparison"]');
}

/** Clicks Run once it is enabled and waits for the comparison's end. */
export async function runComparison(session) {
  await pressRun(session);
  await waitForComparison(session);
}

export async function waitForComparison(session) {
  await waitUntil(
    session,
    "return document.querySelector('[data-testid=\"run-status\"]')?.dataset.status ?? null;",
    (status) => status === "finished",
    "the comparison finished",
  );
}

/** Every event the timeline shows, as "lane type text", in the page's order. */
/** `unfold ARGS` as JSON, on the history the app keeps (its data folder is the harness's). */
export function appHistoryJson(args) {
  const env = { ...process.env, XDG_DATA_HOME: join(workDir, "data") };
  delete env.UNFOLD_HISTORY;
  return JSON.parse(execFileSync("cargo", ["run", "-q", "-p", "unfold-cli", "--", ...args], { cwd: ROOT, encoding: "utf8", env }));
}

export async function timelineEvents(session) {
  return waitUntil(
    session,
    `return [...document.querySelectorAll('[data-testid="timeline-event"]')]
       .map((e) => e.dataset.lane + " " + e.dataset.type + " " + e.textContent.trim());`,
    (list) => list.length > 0,
    "the timeline's events",
  );
}

/** Starts the app's relay from the edit page's Sources tab; where it listens (`http://127.0.0.1:PORT`). */
export async function startAppRelay(session) {
  await click(session, '[data-testid="page-edit"]');
  await click(session, '[data-testid="tab-sources"]');
  await click(session, '[data-testid="relay-start"]');
  // The panel's failure, if any, rides along so a relay that did not start says why.
  const listening = await waitUntil(
    session,
    `const failure = document.querySelector('[data-testid="relay-panel"] [role="alert"]')?.textContent ?? "";
     return (document.querySelector('[data-testid="relay-listening"]')?.textContent ?? "") + (failure ? " | " + failure : "");`,
    (text) => text.includes("http://"),
    "the relay listening",
  );
  const relay = /http:\/\/127\.0\.0\.1:\d+/.exec(listening)?.[0];
  assert.ok(relay, listening);
  return relay;
}
