// End-to-end test of Agent Skills in the REAL app (spec 16): "Open skills folder…" opens
// tests/fixtures/skills/anthropic as a new, untitled template whose tree shows the four skills and
// their files, and Export › "Agent Skills folder…" writes it back, byte for byte (compared here
// file by file); a second export into the same folder asks first, then finds every file unchanged;
// a SKILL.md whose front matter is not YAML is shown at its file and line, and nothing opens.
// No WebDriver reaches a native dialog: the folder to open comes from UNFOLD_OPEN_FOLDER_DIALOG_PATH
// and the folder written to is the suggested one in the harness's `saved` folder
// (UNFOLD_SAVE_DIALOG_FOLDER), both read by src-tauri/src/files.rs. Screenshots (1440 and 1024 px)
// land in the harness's temp dir (kept with UNFOLD_E2E_KEEP=1). Run: `node --test
// tests/e2e/skills.test.mjs` after `cd ui && npm run build` and `cargo build -p unfold-app`.
import assert from "node:assert/strict";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { after, before, describe, it } from "node:test";
import {
  click,
  resizeWindow,
  ROOT,
  saveScreenshot,
  startHarness,
  stopHarness,
  waitFor,
  waitUntil,
  withApp,
  workDir,
} from "./harness.mjs";

const SKILLS = join(ROOT, "tests/fixtures/skills/anthropic");
/** A copy of SKILLS, the folder the app's dialog answers, which a test may break. */
const copies = mkdtempSync(join(tmpdir(), "unfold-e2e-skills-"));
const OPENED = join(copies, "anthropic");

/** Every file under `folder`, by its path relative to it, sorted. */
function filesUnder(folder, root = folder) {
  return readdirSync(folder, { withFileTypes: true })
    .flatMap((entry) => {
      const path = join(folder, entry.name);
      return entry.isDirectory() ? filesUnder(path, root) : [relative(root, path)];
    })
    .sort();
}

/** The text of the toast `testId` once it says `pattern`. */
function toast(session, testId, pattern, what) {
  return waitUntil(
    session,
    `return document.querySelector('[data-testid="${testId}"]')?.textContent ?? null;`,
    (text) => typeof text === "string" && pattern.test(text),
    what,
  );
}

describe("Agent Skills in the app", () => {
  before(() => {
    cpSync(SKILLS, OPENED, { recursive: true });
    return startHarness({ env: { UNFOLD_OPEN_FOLDER_DIALOG_PATH: OPENED } });
  });
  after(async () => {
    await stopHarness();
    rmSync(copies, { recursive: true, force: true });
  });

  it("opens a skills folder as a template and exports it back byte for byte", async (t) => {
    await withApp(t, null, async (session) => {
      await resizeWindow(session, 1440, 900);
      // Started with no template, the app shows the start page and its own open actions.
      await click(session, '[data-testid="start-open-skills"]');
      const skills = await waitUntil(
        session,
        `return [...document.querySelectorAll('[data-testid="section-row"][data-depth="0"]')].map((row) => row.dataset.path);`,
        (paths) => Array.isArray(paths) && paths.length === 7,
        "the four skills and their files' sections in the tree",
      );
      // A skill, and after each that names files a section holding them, beside it and not under
      // it: reading the skill shows its body alone (level 2), reading a file that file (level 3).
      assert.deepEqual(
        [...skills].sort(),
        [
          "brand-guidelines",
          "internal-comms",
          "internal-comms-files",
          "mcp-builder",
          "mcp-builder-files",
          "webapp-testing",
          "webapp-testing-files",
        ],
      );
      const files = await waitUntil(
        session,
        `return [...document.querySelectorAll('[data-testid="section-row"][data-depth="1"]')].map((row) => row.dataset.path);`,
        (paths) => Array.isArray(paths) && paths.length > 0,
        "the skills' files in the tree",
      );
      assert.ok(files.includes("internal-comms-files.examples-3p-updates-md"), files.join(" "));
      assert.match(await toast(session, "open-notice", /Opened 4 skills/, "the open's toast"), /from .*anthropic /);
      assert.equal(await waitFor(session, '[data-testid="template-path"]'), "Untitled");
      await saveScreenshot(session, "skills-1440");
      // At 1280 px, the width the window opens at, "Open skills folder…" is in the menu beside
      // Open… in the header, which holds every file action on one line.
      await resizeWindow(session, 1280, 800);
      const header = await waitFor(
        session,
        '[data-testid="app-header"]',
        `const header = arguments[0];
         return { folded: header.querySelector('[data-testid="file-menu"]') !== null,
                  inOpenMenu: header.querySelector('[data-testid="open-menu"] [data-testid="open-skills-button"]') !== null,
                  fits: header.scrollWidth <= header.clientWidth && document.documentElement.scrollWidth <= window.innerWidth };`,
      );
      assert.deepEqual(header, { folded: false, inOpenMenu: true, fits: true });
      await click(session, '[data-testid="open-menu-button"]');
      await saveScreenshot(session, "skills-1280-open-menu");
      await click(session, '[data-testid="open-menu-button"]');

      await resizeWindow(session, 1024, 700);
      await saveScreenshot(session, "skills-1024");
      // At 1024 px the file actions, Export among them, fold into the File menu.
      await click(session, '[data-testid="file-menu-button"]');
      await click(session, '[data-testid="export-menu-button"]');
      await click(session, '[data-testid="export-skills"]');
      const written = join(workDir, "saved", "anthropic");
      const notice = await toast(session, "export-notice", /Exported 4 skills/, "the export's toast");
      assert.ok(notice.includes(`to ${written}: 24 files written, 0 unchanged`), notice);
      assert.deepEqual(filesUnder(written), filesUnder(SKILLS));
      for (const file of filesUnder(SKILLS)) {
        assert.ok(readFileSync(join(written, file)).equals(readFileSync(join(SKILLS, file))), `${file} differs`);
        assert.equal(statSync(join(written, file)).mode & 0o111, statSync(join(SKILLS, file)).mode & 0o111, file);
      }

      // Into the same folder again: asked first, then every file found as it was.
      await click(session, '[data-testid="file-menu-button"]');
      await click(session, '[data-testid="export-menu-button"]');
      await click(session, '[data-testid="export-skills"]');
      const question = await waitFor(session, '[data-testid="skills-overwrite-dialog"]');
      assert.ok(question.includes(written), question);
      await click(session, '[data-testid="skills-overwrite"]');
      const again = await toast(session, "export-notice", /0 files written/, "the second export's toast");
      assert.ok(again.includes("24 unchanged"), again);
    });
  });

  it("shows a SKILL.md whose front matter is not YAML at its file and line, and opens nothing", async (t) => {
    const broken = join(OPENED, "brand-guidelines", "SKILL.md");
    writeFileSync(broken, readFileSync(broken, "utf8").replace(/^description: /m, "description: [not closed "));
    await withApp(t, null, async (session) => {
      await resizeWindow(session, 1024, 700);
      await click(session, '[data-testid="start-open-skills"]');
      const detail = await waitFor(session, '[data-testid="error-detail"]');
      // The flow sequence opened on line 3 runs into the `license:` line after it.
      assert.equal(detail, `${broken}: line 4, column 8: the front matter is not YAML: illegal placement of ':' indicator`);
      assert.match(await waitFor(session, '[data-testid="error"] h2'), /This skills folder cannot be opened/);
      assert.equal(await waitFor(session, '[data-testid="start-page"]', "return true;"), true);
      await saveScreenshot(session, "skills-error-1024");
    });
  });
});
