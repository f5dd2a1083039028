// End-to-end tests of what a first-time user hit (issue 11), in the REAL app at 1024×700 in dark mode
// (GTK's dark Adwaita, which the page reads as `prefers-color-scheme: dark`): a key renamed keeps the
// focus and the keystrokes that follow; a key is checked as it is typed, at its field; the header stays
// one line with a long path; recovered work is offered where it is seen; the event detail closes and
// never squeezes the counters or the lanes; and the first start prints no error about the log folder.
// Screenshots of each state land in the harness's temp dir (docs/images with UNFOLD_SCREENSHOT=1 for
// the dark, narrow editor). Run: `node --test tests/e2e/` after `cargo build -p unfold-app`.
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import {
  click,
  diagnostics,
  EXAMPLE,
  ROOT,
  killApp,
  resizeWindow,
  saveScreenshot,
  startHarness,
  stopHarness,
  typeInto,
  waitFor,
  waitForRecovery,
  waitUntil,
  webdriver,
  withApp,
  workDir,
} from "./harness.mjs";

const WIDTH = 1024;
const HEIGHT = 700;
const rowButton = (path) => `[data-testid="section-row"][data-path="${path}"] [data-testid="select-section"]`;
const KEY_FIELD = '[data-testid="section-editor"] [data-testid="field-key"]';

/** Runs `script` in the page once and returns its result. */
function evaluate(session, script) {
  return webdriver("POST", `/session/${session}/execute/sync`, { script, args: [] });
}

/** A copy of the example under a folder path long enough to break a header that wraps. */
function deepCopy(name) {
  const folder = join(workDir, "a-long-folder-name-for-a-team", "prompt-templates", "customer-support", "v2");
  mkdirSync(folder, { recursive: true });
  const path = join(folder, name);
  copyFileSync(EXAMPLE, path);
  return path;
}

/** Opens the app narrow and checks it is dark. */
async function narrow(session) {
  await resizeWindow(session, WIDTH, HEIGHT);
  assert.equal(await evaluate(session, "return matchMedia('(prefers-color-scheme: dark)').matches;"), true);
}

describe("what a first-time user hit, at 1024×700 in dark mode", () => {
  before(() => startHarness({ dark: true }));
  after(stopHarness);

  it("starts without an error about the log folder", async (t) => {
    await withApp(t, EXAMPLE, async (session) => {
      await waitFor(session, '[data-testid="preview-markdown"]');
      assert.doesNotMatch(diagnostics(), /Error reading the log directory/);
    });
  });

  it("keeps the header one line with a long path, the file name readable", async (t) => {
    const path = deepCopy("support-triage.unfold.json");
    await withApp(t, path, async (session) => {
      await narrow(session);
      await waitFor(session, '[data-testid="preview-markdown"]');
      const header = await evaluate(
        session,
        `const header = document.querySelector('[data-testid="app-header"]');
         const path = header.querySelector('[data-testid="template-path"]');
         const name = path.querySelector('.file-path-name');
         return { height: header.getBoundingClientRect().height, title: path.title,
                  nameWidth: name.getBoundingClientRect().width, nameFits: name.scrollWidth <= name.clientWidth + 1,
                  overflow: header.scrollWidth - header.clientWidth };`,
      );
      assert.ok(header.height < 60, `the header is one line, not ${header.height} px`);
      assert.equal(header.title, path, "the full path is in the tooltip");
      assert.ok(header.nameFits && header.nameWidth > 0, "the file name is shown whole");
      assert.ok(header.overflow <= 1, `nothing spills out of the header (${header.overflow} px)`);
      await saveScreenshot(session, process.env.UNFOLD_SCREENSHOT === "1" ? "editor-narrow-dark" : "header-1024-dark");
    });
  });

  it("renames a key and keeps the focus and the keystrokes that follow", async (t) => {
    const path = deepCopy("rename.unfold.json");
    await withApp(t, path, async (session) => {
      await narrow(session);
      await click(session, rowButton("style"));
      const key = await waitFor(session, KEY_FIELD, "return arguments[0];");
      await webdriver("POST", `/session/${session}/element/${Object.values(key)[0]}/clear`, {});
      await typeInto(session, KEY_FIELD, "tone\uE004"); // Tab
      await waitUntil(
        session,
        `return document.querySelector('[data-testid="section-row"][data-path="tone"]') !== null;`,
        (renamed) => renamed === true,
        "the section renamed in the tree",
      );
      const focused = await waitUntil(
        session,
        "return document.activeElement?.getAttribute('data-testid');",
        (id) => id === "field-title",
        "the focus in the title field after Tab",
      );
      assert.equal(focused, "field-title");
      // Typed into whatever has the focus: it must land in the title, not open the help overlay.
      await webdriver("POST", `/session/${session}/actions`, {
        actions: [{ type: "key", id: "keys", actions: [..."?!"].flatMap((c) => [{ type: "keyDown", value: c }, { type: "keyUp", value: c }]) }],
      });
      await webdriver("DELETE", `/session/${session}/actions`);
      const title = await waitUntil(
        session,
        "return document.querySelector('[data-testid=\"field-title\"]')?.textContent ?? null;",
        (text) => text?.endsWith("?!"),
        "the keystrokes in the title",
      );
      assert.match(title, /\?!$/);
      assert.equal(await evaluate(session, "return document.querySelector('.shortcut-help, [data-testid=\"shortcut-help\"]') !== null;"), false);
    });
  });

  it("checks a key as it is typed, at its field, and puts the old key back when left invalid", async (t) => {
    const path = deepCopy("keys.unfold.json");
    await withApp(t, path, async (session) => {
      await narrow(session);
      await click(session, rowButton("style"));
      await typeInto(session, KEY_FIELD, "X");
      const problem = await waitUntil(
        session,
        `const field = document.querySelector('${KEY_FIELD.replaceAll("'", "\\'")}');
         return [field.getAttribute('aria-invalid'), document.querySelector('[data-testid="field-key-problem"]')?.textContent ?? ''];`,
        ([invalid, text]) => invalid === "true" && text !== "",
        "the key's problem at its field",
      );
      assert.match(problem[1], /lowercase/);
      assert.doesNotMatch(problem[1], /\[a-z/, "the rule in words, not a pattern");
      await saveScreenshot(session, "key-problem-1024-dark");
      await typeInto(session, KEY_FIELD, "\uE00C"); // Escape
      await waitUntil(
        session,
        `return document.querySelector('${KEY_FIELD.replaceAll("'", "\\'")}').value;`,
        (value) => value === "style",
        "the old key back",
      );
      assert.equal(await evaluate(session, "return document.querySelector('[data-testid=\"edit-failure\"]') === null;"), true, "no banner");
      assert.equal(await evaluate(session, `return document.querySelector('[data-testid="section-row"][data-path="style"]') !== null;`), true);
    });
  });

  it("offers recovered work under the header, in view, on a narrow window", async (t) => {
    const path = deepCopy("crash.unfold.json");
    const added = " Unsaved before the crash.";
    await withApp(t, path, async (session) => {
      await click(session, rowButton("task"));
      await typeInto(session, '[data-testid="field-template"]', added);
      await waitForRecovery(added.trim());
      await killApp(session, path);
    });
    await withApp(t, path, async (session) => {
      await narrow(session);
      const offer = `[data-testid="recovered-item"][data-path="${path}"]`;
      await waitFor(session, offer);
      const placed = await evaluate(
        session,
        `const header = document.querySelector('[data-testid="app-header"]').getBoundingClientRect();
         const restore = document.querySelector('${offer} [data-testid="restore-recovered"]').getBoundingClientRect();
         return { headerBottom: header.bottom, top: restore.top, bottom: restore.bottom, height: window.innerHeight };`,
      );
      assert.ok(placed.top >= placed.headerBottom - 1, "under the header");
      assert.ok(placed.bottom <= placed.height, `the Restore button is in view (${placed.bottom} of ${placed.height} px)`);
      await saveScreenshot(session, "recovery-1024-dark");
      await click(session, `${offer} [data-testid="restore-recovered"]`);
      await waitUntil(
        session,
        "return document.querySelector('[data-testid=\"preview-markdown\"]')?.textContent ?? '';",
        (markdown) => markdown.includes(added.trim()),
        "the restored edit in the preview",
      );
    });
  });

  it("closes the event detail with its button and with Escape, and never squeezes the counters or the lanes", async (t) => {
    const template = deepCopy("compare.unfold.json");
    const scenario = join(workDir, "lookup-first.scenario.json");
    copyFileSync(join(ROOT, "examples/lookup-first.scenario.json"), scenario);
    await withApp(
      t,
      template,
      async (session) => {
        await narrow(session);
        await waitUntil(session, "return document.querySelector('[data-testid=\"run-comparison\"]')?.disabled;", (d) => d === false, "Run enabled");
        await click(session, '[data-testid="run-comparison"]');
        await waitUntil(
          session,
          "return document.querySelector('[data-testid=\"run-status\"]')?.dataset.status ?? null;",
          (status) => status === "finished",
          "the comparison finished",
        );
        const LAYOUT = `const lane = document.querySelector('[data-testid="lane"][data-lane="restart"] > [data-testid="lane-head"]');
          const cells = [...document.querySelectorAll('[data-testid="counters"] th, [data-testid="counters"] td')];
          const box = document.querySelector('[data-testid="counters-box"]');
          const results = document.querySelector('[data-testid="compare-results"]');
          return { lane: lane.getBoundingClientRect().width,
                   tallestCell: Math.max(...cells.map((c) => c.getBoundingClientRect().height)),
                   boxSpill: box.scrollWidth - box.clientWidth, resultsSpill: results.scrollWidth - results.clientWidth,
                   detail: document.querySelector('[data-testid="event-detail-panel"]') !== null };`;
        const closed = await evaluate(session, LAYOUT);
        const event = '[data-testid="timeline-event"][data-lane="restart"][data-type="model_call"]';
        await click(session, event);
        await waitFor(session, '[data-testid="event-detail"]');
        const open = await evaluate(session, LAYOUT);
        assert.ok(open.detail, "the detail is open");
        assert.ok(open.lane >= 200 && Math.abs(open.lane - closed.lane) <= 1, `the lanes keep their width (${closed.lane} → ${open.lane})`);
        assert.ok(open.tallestCell <= 40, `no counters cell wraps past two lines (${open.tallestCell} px)`);
        assert.ok(open.boxSpill <= 1 && open.resultsSpill <= 1, "nothing spills sideways");
        await saveScreenshot(session, "event-detail-1024-dark");

        await click(session, '[data-testid="close-event-detail"]');
        await waitUntil(session, "return document.querySelector('[data-testid=\"event-detail\"]') === null;", (gone) => gone, "closed by its button");
        const focus = await evaluate(session, "return document.activeElement?.getAttribute('data-testid');");
        assert.equal(focus, "timeline-event", "the focus back on the picked event");

        await click(session, event);
        await waitFor(session, '[data-testid="event-detail"]');
        await webdriver("POST", `/session/${session}/actions`, {
          actions: [{ type: "key", id: "keys", actions: [{ type: "keyDown", value: "\uE00C" }, { type: "keyUp", value: "\uE00C" }] }],
        });
        await webdriver("DELETE", `/session/${session}/actions`);
        await waitUntil(session, "return document.querySelector('[data-testid=\"event-detail\"]') === null;", (gone) => gone, "closed by Escape");
      },
      scenario,
    );
  });
});
