// README's screenshots of the editor and the compare view, taken from the real app on Unfold's own
// examples the way a first-time user meets them: the start page's coding-agent comparison (the
// verdict first), then its template on the Edit page (the economics of disclosure, the preview).
// Run `node tests/e2e/readme-screenshots.mjs` after `cargo build -p unfold-app`; it writes
// docs/images/compare.png and editor.png at 1440×900 in the light theme; with `hosts [RUNS]`, only
// docs/images/hosts-probe.png, the Hosts page after probing every installed host (minutes). Not a test: the e2e tests
// check what these pictures show. The Sources tab's picture is sources.test.mjs's (it needs a
// running MCP server).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  ROOT,
  click,
  closeApp,
  openApp,
  resizeWindow,
  saveScreenshot,
  sleep,
  startHarness,
  stopHarness,
  waitFor,
  waitUntil,
  webdriver,
} from "./harness.mjs";

/** Waits for the page to paint, then writes the window as docs/images/NAME.png. */
async function picture(session, name) {
  await sleep(600);
  const png = Buffer.from(await webdriver("GET", `/session/${session}/screenshot`), "base64");
  writeFileSync(join(ROOT, `docs/images/${name}.png`), png);
  console.log(`wrote docs/images/${name}.png`);
}

/**
 * The Hosts page after probing every installed host `runs` times (a few minutes): the picture of
 * README's host probe matrix.
 */
async function hostsPicture(session, runs) {
  await click(session, '[data-testid="page-hosts"]');
  await waitFor(session, '[data-testid="probe-runs"]');
  await webdriver("POST", `/session/${session}/execute/sync`, {
    script: `const runs = document.querySelector('[data-testid="probe-runs"]');
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value").set.call(runs, arguments[0]);
      runs.dispatchEvent(new Event("input", { bubbles: true }));
      return true;`,
    args: [String(runs)],
  });
  await click(session, '[data-testid="probe-start"]');
  // The hosts not allowed yet are asked about first (reading what each starts takes a moment).
  const asked = await waitUntil(
    session,
    `return document.querySelector('[data-testid="run-hosts-dialog"]') !== null ? "asked"
      : document.querySelector('[data-testid="probe-progress"]') !== null ? "probing" : null;`,
    (state) => state !== null,
    "the question or the probe",
  );
  if (asked === "asked") await click(session, '[data-testid="run-hosts-allow"]');
  // Every host's runs: minutes, not the harness's usual seconds.
  for (let waited = 0; waited < 900; waited += 5) {
    const done = await webdriver("POST", `/session/${session}/execute/sync`, {
      script: "return document.querySelector('[data-testid=\"probe-matrix\"]') !== null;",
      args: [],
    });
    if (done) break;
    await sleep(5000);
  }
  // An idle page draws no frame for the screenshot to take: the harness keeps it drawing.
  process.env.UNFOLD_SCREENSHOT = "1";
  await saveScreenshot(session, "hosts-probe", { readme: true });
  console.log("wrote docs/images/hosts-probe.png");
}

// `node tests/e2e/readme-screenshots.mjs hosts [RUNS]`: only the Hosts page's picture.
const only = process.argv[2];
await startHarness({ dark: false });
const session = await openApp(null);
try {
  await resizeWindow(session, 1440, 900);
  if (only === "hosts") await hostsPicture(session, Number(process.argv[3] ?? 5));
  else await editorPictures(session);
} finally {
  await closeApp(session);
  await stopHarness();
}

/** The start page's coding-agent comparison, then its template on the Edit page. */
async function editorPictures(session) {
  await waitFor(session, '[data-testid="example-list"]');
  await click(
    session,
    '[data-testid="example"][data-template="coding-agent.unfold.json"] [data-testid="open-example-comparison"][data-scenario="coding-agent-just-in-time.scenario.json"]',
  );
  await waitFor(session, '[data-testid="verdict-headline"]');
  await picture(session, "compare");
  await click(session, '[data-testid="page-edit"]');
  await click(session, '[data-testid="section-row"][data-path="editing"] [data-testid="select-section"]');
  await waitFor(session, '[data-testid="first-prompt"]');
  // The preview scrolls to the selected section; the picture shows its top, the economics first.
  await sleep(600);
  await webdriver("POST", `/session/${session}/execute/sync`, {
    script: `let pane = document.querySelector('[data-testid="first-prompt"]');
      while (pane !== null && pane.scrollHeight <= pane.clientHeight) pane = pane.parentElement;
      if (pane !== null) pane.scrollTop = 0;
      return true;`,
    args: [],
  });
  await picture(session, "editor");
}
