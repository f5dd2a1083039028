// End-to-end test of the REAL app binary (target/debug/unfold-app, a custom-protocol build): opens,
// previews, toggles, edits, restructures (add, delete, undo), changes the disclosure, imports tools
// and saves templates (edits only temp copies); kills it with SIGKILL to get unsaved edits of a
// template and of a scenario back and, many times during saves, to find no torn file; compares a
// scenario under both adapters against what `unfold compare --json` reports, and edits and saves
// a scenario. The harness (harness.mjs) starts its own Xvfb and WebKitWebDriver, drives the app
// over raw W3C WebDriver and always cleans up. Run:
// `node --test tests/e2e/` after `cargo build -p unfold-app`. README's screenshots of the editor and
// the compare view are readme-screenshots.mjs's, taken on the examples.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import {
  copyFileSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import {
  addHostLane,
  click,
  E2E_KEY,
  ELEMENT_KEY,
  EXAMPLE,
  freePort,
  providersFile,
  ROOT,
  pressRun,
  runComparison,
  findElement,
  killApp,
  saveScreenshot,
  sleep,
  startHarness,
  stopHarness,
  typeInto,
  waitFor,
  waitForRecovery,
  waitUntil,
  webdriver,
  unfoldJson,
  withApp,
  workDir,
} from "./harness.mjs";

const TOOL_NAMES = `const list = document.querySelector('[data-testid="tool-list"]');
  return list === null ? null : [...list.querySelectorAll('li')].map((li) => li.textContent);`;

const MARKDOWN =
  "return document.querySelector('[data-testid=\"preview-markdown\"]')?.textContent ?? null;";

const ROW_PATHS = `return [...document.querySelectorAll('[data-testid="section-row"]')].map((row) => row.dataset.path);`;

/** "path: N tools" for every row of the tree that shows a tool count. */
const TREE_TOOL_COUNTS = `return [...document.querySelectorAll('[data-testid="section-tree"] [data-testid="tool-count"]')]
  .map((count) => count.closest('[data-testid="section-row"]').dataset.path + ": " + count.textContent);`;

const rowButton = (path) =>
  `[data-testid="section-row"][data-path="${path}"] [data-testid="select-section"]`;

/** Clicks Save and waits until the modified marker is gone. */
async function save(session) {
  await click(session, '[data-testid="save-button"]');
  await waitUntil(
    session,
    "return document.querySelector('[data-testid=\"dirty-marker\"]') === null;",
    (clean) => clean === true,
    "the modified marker gone after saving",
  );
}

/**
 * Clicks Save on the Compare page (where the header's Save is the scenario's) and waits until the
 * scenario's modified marker is gone.
 */
async function saveScenario(session) {
  await click(session, '[data-testid="save-button"][data-document="scenario"]');
  await waitUntil(
    session,
    "return document.querySelector('[data-testid=\"scenario-dirty\"]') === null;",
    (clean) => clean === true,
    "the scenario saved",
  );
}

/** `unfold compare --json` of `template` and `scenario`, with each call's request body in `folder`. */
function cliComparison(template, scenario, folder) {
  return unfoldJson(["compare", template, scenario, "--json", "--requests", folder]);
}

/** Every event the timeline shows, as "lane seq type", in the page's order. */
const TIMELINE_EVENTS = `return [...document.querySelectorAll('[data-testid="timeline-event"]')]
  .map((e) => e.dataset.lane + " " + e.dataset.seq + " " + e.dataset.type);`;

/** The ids of the history's rows, in order (newest first). */
const HISTORY_ROWS = `return [...document.querySelectorAll('[data-testid="history-row"]')].map((row) => row.dataset.id);`;

/** The lanes the timeline shows, in order. */
const LANES = `return [...document.querySelectorAll('[data-testid="lane"]')].map((lane) => lane.dataset.lane);`;

/** The final answer at the end of each lane, in order. */
const LANE_FINALS = `return [...document.querySelectorAll('[data-testid="lane"] .run-end-final')].map((e) => e.textContent);`;

/**
 * The bytes of every file under `folder`, at any depth, as [path, bytes]. WebKit's own storage
 * files and folders come and go for a while after the app closed, so one that vanishes between
 * listing and reading is skipped rather than failing the walk.
 */
function filesUnder(folder) {
  const present = (read) => {
    try {
      return read();
    } catch (error) {
      if (error.code === "ENOENT") return null;
      throw error;
    }
  };
  const entries = present(() => readdirSync(folder, { withFileTypes: true })) ?? [];
  return entries.flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return filesUnder(path);
    const bytes = entry.isFile() ? present(() => readFileSync(path)) : null;
    return bytes === null ? [] : [[path, bytes]];
  });
}

/** A fresh copy of the example in the temp dir: tests that edit never touch the repository's file. */
function exampleCopy(name) {
  const path = join(workDir, name);
  copyFileSync(EXAMPLE, path);
  return path;
}

describe("unfold-app (real binary under Xvfb)", () => {
  before(startHarness);

  after(stopHarness);

  it("previews the example template: path, markdown, tool names, token count", async (t) => {
    await withApp(t, EXAMPLE, async (session) => {
      const markdown = await waitFor(
        session,
        '[data-testid="preview-markdown"]',
      );
      assert.match(markdown, /^## 1 Task$/m);
      const tools = await waitFor(
        session,
        '[data-testid="tool-list"]',
        "return [...arguments[0].querySelectorAll('li')].map((li) => li.textContent);",
      );
      assert.ok(tools.includes("lookup"), `tools: ${tools}`);
      assert.ok(tools.includes("read_section"), `tools: ${tools}`);
      assert.equal(
        await waitFor(session, '[data-testid="template-path"]'),
        EXAMPLE,
      );
      assert.match(
        await waitFor(session, '[data-testid="token-count"]'),
        /^[\d,]+ prompt tokens?$/,
      );
      // The page draws with the bundled faces, the same on every Linux: the prose in Inter, the
      // prompt in JetBrains Mono, each loaded from the app (not a family the machine happens to have).
      const faces = `return document.fonts.ready.then(() => [...document.fonts]
        .filter((face) => face.status === "loaded").map((face) => face.family.replaceAll('"', "")));`;
      const bundled = ["Inter Variable", "JetBrains Mono Variable"];
      await waitUntil(
        session,
        faces,
        (loaded) => bundled.every((family) => loaded.includes(family)),
        "both bundled fonts loaded",
      );
      const families = `return ["preview-markdown", "token-count"].map((id) =>
        getComputedStyle(document.querySelector(\`[data-testid="\${id}"]\`)).fontFamily.split(",")[0].replaceAll('"', ""));`;
      assert.deepEqual(await waitFor(session, "body", families), [
        "JetBrains Mono Variable",
        "Inter Variable",
      ]);
    });
  });

  it("offers a section's tools once it is toggled to full", async (t) => {
    await withApp(t, exampleCopy("toggle.unfold.json"), async (session) => {
      const before = await waitUntil(
        session,
        TOOL_NAMES,
        (names) => Array.isArray(names),
        "tool list",
      );
      assert.ok(
        !before.includes("search") && !before.includes("cite"),
        `tools: ${before}`,
      );
      await click(session, '[aria-label="Toggle context"]');
      const after = await waitUntil(
        session,
        TOOL_NAMES,
        (names) =>
          Array.isArray(names) &&
          names.includes("search") &&
          names.includes("cite"),
        "search and cite in the tool list",
      );
      assert.ok(after.includes("lookup"), `tools: ${after}`);
      assert.equal(
        await waitFor(session, '[aria-label="Toggle context"]'),
        "FULL",
      );
      assert.equal(
        await waitFor(session, '[data-testid="dirty-marker"]'),
        "modified",
      );
      await saveScreenshot(session, "editor");
    });
  });

  it("saves an edited section template to the file", async (t) => {
    const path = exampleCopy("edit.unfold.json");
    const added = " Then write the changelog.";
    await withApp(t, path, async (session) => {
      await click(
        session,
        '[data-testid="section-row"][data-path="task"] [data-testid="select-section"]',
      );
      await typeInto(session, '[data-testid="field-template"]', added);
      await waitUntil(
        session,
        "return document.querySelector('[data-testid=\"preview-markdown\"]')?.textContent ?? '';",
        (markdown) => markdown.includes("Then write the changelog."),
        "the preview showing the edit",
      );
      const title = await waitUntil(
        session,
        "return document.title;",
        (text) => text.includes(" •"),
        "the title marked",
      );
      assert.equal(title, `edit.unfold.json • — ${path}`);
      await save(session);
      const saved = JSON.parse(readFileSync(path, "utf8"));
      assert.equal(saved.kind, "unfold.template");
      const task = saved.sections.find((section) => section.key === "task");
      assert.equal(
        task.template,
        `Complete the following: \${objective}${added}`,
      );
      assert.equal(
        await waitFor(session, '[data-testid="template-path"]'),
        path,
      );
    });
  });

  it("adds a child section and deletes a section, each taken back by Undo", async (t) => {
    await withApp(t, exampleCopy("structure.unfold.json"), async (session) => {
      const original = await waitUntil(
        session,
        MARKDOWN,
        (markdown) => typeof markdown === "string",
        "the preview",
      );
      await click(session, rowButton("style"));
      await click(session, '[aria-label="Add child"]');
      await waitUntil(
        session,
        ROW_PATHS,
        (paths) => paths.includes("style.section"),
        "the new row style.section",
      );
      const added = await waitUntil(
        session,
        MARKDOWN,
        (markdown) => markdown !== original,
        "the preview changing",
      );
      assert.match(added, /including subsections: section/);
      assert.equal(
        await waitFor(
          session,
          '[data-testid="field-key"]',
          "return arguments[0].value;",
        ),
        "section",
      );
      await click(session, '[data-testid="undo-button"]');
      await waitUntil(
        session,
        ROW_PATHS,
        (paths) => !paths.includes("style.section"),
        "style.section gone after Undo",
      );
      await waitUntil(
        session,
        MARKDOWN,
        (markdown) => markdown === original,
        "the preview as it was",
      );

      assert.deepEqual(
        await waitUntil(
          session,
          TREE_TOOL_COUNTS,
          (counts) => counts.length > 0,
          "tool counts",
        ),
        ["context: 2 tools"],
      );
      await click(session, rowButton("context"));
      await click(session, '[aria-label="Delete section"]');
      await waitUntil(
        session,
        TREE_TOOL_COUNTS,
        (counts) => counts.length === 0,
        "context's tool count gone",
      );
      assert.deepEqual(
        await waitUntil(session, ROW_PATHS, () => true, "rows"),
        ["task", "style"],
      );
      await click(session, '[data-testid="undo-button"]');
      assert.deepEqual(
        await waitUntil(
          session,
          TREE_TOOL_COUNTS,
          (counts) => counts.length > 0,
          "context's tool count back",
        ),
        ["context: 2 tools"],
      );
      assert.deepEqual(
        await waitUntil(session, ROW_PATHS, () => true, "rows"),
        ["task", "context", "context.examples", "context.history", "style"],
      );
      await waitUntil(
        session,
        "return document.querySelector('[data-testid=\"dirty-marker\"]') === null;",
        (clean) => clean === true,
        "no unsaved changes once both are undone",
      );
    });
  });

  it("switches the disclosure to open_sections and the summary lines name it", async (t) => {
    await withApp(t, exampleCopy("disclosure.unfold.json"), async (session) => {
      const before = await waitUntil(
        session,
        MARKDOWN,
        (markdown) => typeof markdown === "string",
        "the preview",
      );
      assert.match(before, /`read_section` with key "context"/);
      await click(session, '[data-testid="tab-template"]');
      await waitFor(session, '[data-testid="setting-disclosure"]');
      // React listens for the select's change event; picking an option through WebDriver varies by driver.
      await webdriver("POST", `/session/${session}/execute/sync`, {
        script: `const select = document.querySelector('[data-testid="setting-disclosure"]');
          select.value = "open_sections";
          select.dispatchEvent(new Event("change", { bubbles: true }));`,
        args: [],
      });
      const after = await waitUntil(
        session,
        MARKDOWN,
        (markdown) =>
          typeof markdown === "string" && markdown.includes("`open_sections`"),
        "the summary lines naming open_sections",
      );
      assert.match(after, /`open_sections` with key "context"/);
      assert.doesNotMatch(after, /`read_section`/);
      const tools = await waitUntil(
        session,
        TOOL_NAMES,
        (names) => Array.isArray(names) && names.includes("open_sections"),
        "open_sections offered",
      );
      assert.ok(!tools.includes("read_section"), `tools: ${tools}`);
      assert.equal(
        await waitFor(session, '[data-testid="dirty-marker"]'),
        "modified",
      );
    });
  });

  it("imports an Anthropic tool into task and offers it", async (t) => {
    const pasted = JSON.stringify([
      {
        name: "fetch_issue",
        description: "Fetch an issue by number",
        input_schema: {
          type: "object",
          properties: { number: { type: "integer" } },
        },
      },
      {
        name: "lookup",
        description: "Already in the template",
        input_schema: { type: "object" },
      },
    ]);
    await withApp(t, exampleCopy("import.unfold.json"), async (session) => {
      const before = await waitUntil(
        session,
        TOOL_NAMES,
        (names) => Array.isArray(names),
        "tool list",
      );
      assert.ok(!before.includes("fetch_issue"), `tools: ${before}`);
      await click(session, rowButton("task"));
      await click(session, '[data-testid="import-tools"]');
      await typeInto(session, '[data-testid="import-text"]', pasted);
      await click(session, '[data-testid="import-read"]');
      assert.equal(
        await waitFor(session, '[data-testid="import-format"]'),
        "Anthropic Messages: fetch_issue, lookup",
      );
      assert.match(
        await waitFor(session, '[data-testid="import-conflicts"]'),
        /lookup/,
      );
      await click(session, '[data-testid="import-attach"]');
      const after = await waitUntil(
        session,
        TOOL_NAMES,
        (names) => Array.isArray(names) && names.includes("fetch_issue"),
        "fetch_issue in the preview's tool list",
      );
      assert.equal(
        after.filter((name) => name === "lookup").length,
        1,
        `tools: ${after}`,
      );
      assert.deepEqual(
        await waitUntil(
          session,
          `return [...document.querySelectorAll('[data-testid="section-tool"]')].map((li) => li.dataset.name);`,
          (names) => names.length > 0,
          "task's tools",
        ),
        ["fetch_issue"],
      );
    });
  });

  it("shows an error naming a broken template file", async (t) => {
    const broken = join(workDir, "broken.unfold.json");
    writeFileSync(broken, '{ "schema_version": 1, "kind": ');
    await withApp(t, broken, async (session) => {
      assert.equal(
        await waitFor(session, '[data-testid="error-path"]'),
        broken,
      );
      const problems = await waitFor(
        session,
        '[data-testid="error-problems"]',
        "return [...arguments[0].querySelectorAll('li')].map((li) => li.textContent);",
      );
      assert.equal(problems.length, 1, `one problem: ${problems}`);
      assert.match(problems[0], /^line 1, column \d+ /);
      // Listed once: the line over the list counts them instead of repeating them.
      assert.equal(
        await waitFor(session, '[data-testid="error-detail"]'),
        "1 problem, at its place:",
      );
      const page = await waitFor(
        session,
        "body",
        "return arguments[0].innerText;",
      );
      const message = problems[0].replace(/^line 1, column \d+ /, "");
      assert.equal(
        page.split(message).length - 1,
        1,
        `the problem is shown once: ${page}`,
      );
    });
  });

  it("highlights placeholders in the template field and warns about an unknown one", async (t) => {
    await withApp(
      t,
      exampleCopy("placeholders.unfold.json"),
      async (session) => {
        await click(session, rowButton("task"));
        const marks = `return [...document.querySelectorAll('[data-testid="field-template"] .cm-param')]
        .map((mark) => mark.textContent + (mark.classList.contains("cm-param-unknown") ? " unknown" : ""));`;
        assert.deepEqual(
          await waitUntil(
            session,
            marks,
            (found) => found.length > 0,
            "the highlighted ${objective}",
          ),
          ["${objective}"],
        );
        await typeInto(
          session,
          '[data-testid="field-template"]',
          " See ${ticket}.",
        );
        assert.deepEqual(
          await waitUntil(
            session,
            marks,
            (found) => found.length === 2,
            "the new placeholder marked",
          ),
          ["${objective}", "${ticket} unknown"],
        );
        assert.match(
          await waitFor(session, '[data-testid="field-template-warnings"]'),
          /Unknown parameter \$\{ticket\}/,
        );
        // Once the last keystroke is applied, the preview says why it cannot render, in its place.
        await waitUntil(
          session,
          "return document.querySelector('[data-testid=\"preview-error\"]')?.textContent ?? '';",
          (text) => text.includes("missing parameter 'ticket'"),
          "the render error naming ticket",
        );
      },
    );
  });

  it("moves a section by dragging it in the tree, and Undo puts it back", async (t) => {
    await withApp(t, exampleCopy("drag.unfold.json"), async (session) => {
      const before = await waitUntil(
        session,
        ROW_PATHS,
        (paths) => paths.length > 2,
        "the rows",
      );
      assert.equal(before[0], "task");
      const handle = await findElement(
        session,
        `[data-testid="section-row"][data-path="style"] [data-testid="drag-handle"]`,
      );
      const target = await findElement(
        session,
        '[data-testid="section-row"][data-path="task"]',
      );
      const [x, y, height] = await webdriver(
        "POST",
        `/session/${session}/execute/sync`,
        {
          script:
            "const r = arguments[0].getBoundingClientRect(); return [r.x + r.width / 2, r.y, r.height];",
          args: [{ [ELEMENT_KEY]: target }],
        },
      );
      // A real pointer drag: press on the grip, move past the threshold, release on the upper
      // third of the first row ("before task").
      await webdriver("POST", `/session/${session}/actions`, {
        actions: [
          {
            type: "pointer",
            id: "mouse",
            parameters: { pointerType: "mouse" },
            actions: [
              {
                type: "pointerMove",
                origin: { [ELEMENT_KEY]: handle },
                x: 0,
                y: 0,
              },
              { type: "pointerDown", button: 0 },
              {
                type: "pointerMove",
                duration: 150,
                origin: "viewport",
                x: Math.round(x),
                y: Math.round(y + height * 0.6),
              },
              {
                type: "pointerMove",
                duration: 150,
                origin: "viewport",
                x: Math.round(x),
                y: Math.round(y + height * 0.2),
              },
              { type: "pointerUp", button: 0 },
            ],
          },
        ],
      });
      const moved = await waitUntil(
        session,
        ROW_PATHS,
        (paths) => paths[0] === "style",
        "style moved first",
      );
      assert.deepEqual(
        moved.slice(1),
        before.filter((path) => path !== "style"),
      );
      assert.equal(
        await waitFor(session, '[data-testid="dirty-marker"]'),
        "modified",
      );
      await click(session, '[data-testid="undo-button"]');
      assert.deepEqual(
        await waitUntil(
          session,
          ROW_PATHS,
          (paths) => paths[0] === "task",
          "the order back",
        ),
        before,
      );
    });
  });

  it("edits a tool's description in the tool editor and saves it", async (t) => {
    const path = exampleCopy("tool-edit.unfold.json");
    await withApp(t, path, async (session) => {
      await click(session, rowButton("context"));
      await click(
        session,
        '[data-testid="section-tool"][data-name="search"] [data-testid="edit-tool"]',
      );
      await typeInto(session, '[data-testid="tool-description"]', " Fast.");
      await waitUntil(
        session,
        "return document.querySelector('[data-testid=\"tool-status\"]')?.textContent ?? '';",
        (status) => status.includes("Applied"),
        "the tool applied",
      );
      await save(session);
      const saved = JSON.parse(readFileSync(path, "utf8"));
      const search = saved.sections
        .find((s) => s.key === "context")
        .tools.find((tool) => tool.name === "search");
      assert.equal(
        search.description,
        "Search the project documentation. Fast.",
      );
    });
  });

  it("starts a new template and reopens a recent file from the toolbar", async (t) => {
    const first = exampleCopy("recent-first.unfold.json");
    const second = exampleCopy("recent-second.unfold.json");
    await withApp(t, first, (session) =>
      waitFor(session, '[data-testid="preview-markdown"]'),
    );
    await withApp(t, second, async (session) => {
      await waitFor(session, '[data-testid="preview-markdown"]');
      await click(session, '[data-testid="new-button"]');
      assert.equal(
        await waitUntil(
          session,
          "return document.querySelector('[data-testid=\"template-path\"]')?.textContent;",
          (p) => p === "Untitled",
          "a new template",
        ),
        "Untitled",
      );
      assert.deepEqual(
        await waitUntil(
          session,
          ROW_PATHS,
          (paths) => paths.length === 1,
          "the new template's rows",
        ),
        ["instructions"],
      );
      await click(session, '[data-testid="recent-menu"] summary');
      await click(
        session,
        `[data-testid="recent-file"][data-path="${first}"] button`,
      );
      // The new template has unsaved changes: the app asks first.
      await click(session, '[data-testid="unsaved-discard"]');
      await waitUntil(
        session,
        "return document.querySelector('[data-testid=\"template-path\"]')?.textContent;",
        (p) => p === first,
        "the recent file open",
      );
      assert.match(
        await waitUntil(
          session,
          MARKDOWN,
          (markdown) => typeof markdown === "string",
          "the preview",
        ),
        /^## 1 Task$/m,
      );
    });
  });

  it("brings unsaved edits back after the app is killed", async (t) => {
    const path = exampleCopy("crash.unfold.json");
    const original = readFileSync(path, "utf8");
    const added = " Unsaved before the crash.";
    await withApp(t, path, async (session) => {
      await click(session, rowButton("task"));
      await typeInto(session, '[data-testid="field-template"]', added);
      await waitUntil(
        session,
        MARKDOWN,
        (markdown) => markdown?.includes(added.trim()),
        "the preview showing the edit",
      );
      await waitForRecovery(added.trim());
      await killApp(session, path);
    });
    assert.equal(readFileSync(path, "utf8"), original, "nothing was saved");

    await withApp(t, path, async (session) => {
      const offered = `[data-testid="recovered-item"][data-path="${path}"]`;
      assert.match(await waitFor(session, offered), /crash\.unfold\.json/);
      await click(session, `${offered} [data-testid="restore-recovered"]`);
      await waitUntil(
        session,
        MARKDOWN,
        (markdown) => markdown?.includes(added.trim()),
        "the restored edit in the preview",
      );
      assert.equal(
        await waitFor(session, '[data-testid="dirty-marker"]'),
        "modified",
      );
      assert.equal(
        await waitFor(session, '[data-testid="template-path"]'),
        path,
      );
      await save(session);
      const task = JSON.parse(readFileSync(path, "utf8")).sections.find(
        (section) => section.key === "task",
      );
      assert.equal(
        task.template,
        `Complete the following: \${objective}${added}`,
      );
    });
  });

  it("brings a scenario's unsaved edits back after the app is killed", async (t) => {
    const template = exampleCopy("scenario-crash.unfold.json");
    const scenario = join(workDir, "crash.scenario.json");
    copyFileSync(join(ROOT, "examples/lookup-first.scenario.json"), scenario);
    const added = " Unsaved scenario words.";
    await withApp(
      t,
      template,
      async (session) => {
        await typeInto(session, '[data-testid="scenario-user"]', added);
        await waitForRecovery(added.trim());
        await killApp(session, template);
      },
      scenario,
    );
    await withApp(t, template, async (session) => {
      const offered = `[data-testid="recovered-item"][data-kind="scenario"][data-path="${scenario}"]`;
      assert.match(await waitFor(session, offered), /crash\.scenario\.json/);
      await click(session, `${offered} [data-testid="restore-recovered"]`);
      const user = await waitFor(
        session,
        '[data-testid="scenario-user"]',
        "return arguments[0].value;",
      );
      assert.equal(user, `Refactor the authentication module.${added}`);
      await waitFor(session, '[data-testid="scenario-dirty"]');
      await saveScenario(session);
      assert.equal(
        JSON.parse(readFileSync(scenario, "utf8")).user,
        `Refactor the authentication module.${added}`,
      );
    });
  });

  it("never leaves a torn template file when killed during saves, many times", async (t) => {
    const path = exampleCopy("saves.unfold.json");
    const original = readFileSync(path, "utf8");
    const rounds = 12;
    const seen = new Set();
    for (let round = 0; round < rounds; round++) {
      await withApp(t, path, async (session) => {
        await waitFor(session, '[data-testid="preview-markdown"]');
        // Edits and saves through the app's own commands as fast as it takes them; each save
        // writes ~256 KB so a kill often lands in the middle of one.
        await webdriver("POST", `/session/${session}/execute/sync`, {
          script: `const invoke = window.__TAURI_INTERNALS__.invoke;
            const [path, round, padding] = arguments;
            (async () => {
              const { id } = await invoke("open_document", { path });
              for (let i = 0; ; i++) {
                const fields = { title: "Task", template: "round " + round + " save " + i + " " + padding, summary: null, visibility: "full" };
                await invoke("apply_edit", { id, edit: { op: "set_section_fields", path: "task", fields }, group: null });
                await invoke("save_document", { id, path: null });
                window.__saves = i + 1;
              }
            })();
            return true;`,
          args: [path, round, "x".repeat(256 * 1024)],
        });
        // Each round kills after a save of its own, however slow the machine, so that the rounds
        // leave different saves; then at a random time, often in the middle of the next one.
        await waitUntil(session, "return window.__saves ?? 0;", (saves) => saves >= 1, `round ${round}'s first save`);
        await sleep(Math.floor(Math.random() * 600));
        await killApp(session, path);
      });
      const text = readFileSync(path, "utf8");
      let saved;
      try {
        saved = JSON.parse(text);
      } catch (error) {
        assert.fail(
          `round ${round}: torn file (${text.length} bytes): ${error.message}`,
        );
      }
      assert.equal(saved.kind, "unfold.template", `round ${round}`);
      const task = saved.sections.find((section) => section.key === "task");
      if (text !== original) {
        assert.match(
          task.template,
          /^round \d+ save \d+ x+$/,
          `round ${round}`,
        );
        assert.equal(
          task.template.length - task.template.indexOf(" x") - 1,
          256 * 1024,
          `round ${round}: whole`,
        );
      }
      seen.add(task.template.split(" x")[0]);
    }
    assert.ok(seen.size > 1, `saves happened between the kills: ${[...seen]}`);
    // Opening the folder's file again sweeps whatever temporary files interrupted saves left.
    await withApp(t, path, async (session) => {
      await waitFor(session, '[data-testid="preview-markdown"]');
      const left = readdirSync(workDir).filter((name) =>
        name.endsWith(".unfold-tmp"),
      );
      assert.deepEqual(
        left,
        [],
        "no temporary files are left once the file is opened again",
      );
    });
  });

  it("compares a scenario under both adapters: the lanes hold the events of the command line's report", async (t) => {
    const template = exampleCopy("compare.unfold.json");
    const scenario = join(workDir, "lookup-first.scenario.json");
    copyFileSync(join(ROOT, "examples/lookup-first.scenario.json"), scenario);
    const bodies = mkdtempSync(join(workDir, "bodies-"));
    const report = cliComparison(template, scenario, join(bodies, "requests"));
    await withApp(
      t,
      template,
      async (session) => {
        await waitFor(session, '[data-testid="compare-view"]');
        await runComparison(session);
        const shown = await waitUntil(
          session,
          TIMELINE_EVENTS,
          (events) => events.length > 0,
          "events on the timeline",
        );
        const runs = [
          ...report.runs,
          { ...report.baseline, adapter: "baseline" },
        ];
        const expected = runs.flatMap((run) =>
          run.events
            .filter(
              (event) =>
                event.type !== "run_started" && event.type !== "run_completed",
            )
            .map((event) => `${run.adapter} ${event.seq} ${event.type}`),
        );
        assert.deepEqual([...shown].sort(), [...expected].sort());

        assert.equal(
          await waitFor(session, '[data-testid="divergence"]'),
          report.divergences[0].first.explanation,
        );
        await saveScreenshot(session, "compare");
        const counter = (key, lane) =>
          `return document.querySelector('[data-testid="counter-row"][data-counter="${key}"] [data-testid="counter-${lane}"]')?.textContent ?? null;`;
        // The page writes thousands grouped and one minus sign (−).
        const number = (text) =>
          Number(text.replace(/[,+\s]/g, "").replace("\u2212", "-"));
        for (const [index, lane] of ["dynamic", "restart"].entries()) {
          const calls = await waitUntil(
            session,
            counter("model_calls", lane),
            (text) => text !== null,
            `${lane} model calls`,
          );
          assert.equal(number(calls), report.runs[index].counters.model_calls);
        }
        const delta = await waitUntil(
          session,
          counter("prompt_tokens", "delta"),
          (text) => text !== null,
          "the delta",
        );
        assert.equal(
          number(delta),
          report.runs[1].counters.prompt_tokens -
            report.runs[0].counters.prompt_tokens,
        );

        // The request the restart adapter sent at its third call: what the command line wrote.
        await click(
          session,
          '[data-testid="timeline-event"][data-lane="restart"][data-type="model_call"][data-seq="' +
            report.runs[1].events.find(
              (e) => e.type === "model_call" && e.call_index === 3,
            ).seq +
            '"]',
        );
        const sent = JSON.parse(
          readFileSync(
            join(bodies, "requests", "restart-call-003.json"),
            "utf8",
          ),
        );
        const system = await waitUntil(
          session,
          "return document.querySelector('[data-testid=\"detail-system\"]')?.textContent ?? null;",
          (text) => text !== null,
          "the request's system prompt",
        );
        assert.equal(system, sent.messages[0].content);

        // Priced from the first run as the prices' default model, then as the model chosen: each
        // lane's cost is the command line's, to the millionth of a dollar.
        const cost = (lane) =>
          `return document.querySelector('[data-testid="cost-row"] [data-testid="cost-${lane}"]')?.textContent ?? null;`;
        const costsAre = async (priced, what) => {
          for (const [index, lane] of ["dynamic", "restart"].entries()) {
            const expected = `$${priced.runs[index].cost.total.toFixed(6)}`;
            await waitUntil(
              session,
              cost(lane),
              (text) => text === expected,
              `${lane}'s cost ${what}`,
            );
          }
        };
        await costsAre(
          unfoldJson(["compare", template, scenario, "--json"]),
          "at the default model",
        );
        const priced = unfoldJson([
          "compare",
          template,
          scenario,
          "--json",
          "--price-as",
          "gpt-4o-mini",
        ]);
        await waitUntil(
          session,
          `const picker = document.querySelector('[data-testid="price-as-picker"]');
           if (!picker) return null;
           picker.value = "gpt-4o-mini";
           picker.dispatchEvent(new Event("change", { bubbles: true }));
           return picker.value;`,
          (value) => value === "gpt-4o-mini",
          "the model to price as",
        );
        await runComparison(session);
        await costsAre(priced, "as gpt-4o-mini");
        // The Markdown to paste into a pull request (the Export menu's, after the native dialog):
        // what `unfold compare --markdown` prints of the same comparison.
        const markdown = join(workDir, "comparison.md");
        const wrote = await webdriver(
          "POST",
          `/session/${session}/execute/async`,
          {
            script: `const [path, done] = arguments;
            window.__TAURI_INTERNALS__.invoke("export_comparison", { runId: 2, path, format: "markdown" })
              .then(() => done("ok"), (error) => done("failed: " + JSON.stringify(error)));`,
            args: [markdown],
          },
        );
        assert.equal(wrote, "ok");
        const printed = execFileSync(
          "cargo",
          [
            "run",
            "-q",
            "-p",
            "unfold-cli",
            "--",
            "compare",
            template,
            scenario,
            "--markdown",
            "--price-as",
            "gpt-4o-mini",
          ],
          { cwd: ROOT, encoding: "utf8" },
        );
        assert.equal(readFileSync(markdown, "utf8"), printed);
        assert.match(printed, /^\*\*Verdict:\*\* /m);
        // The chart draws what each call cost once the comparison is priced.
        await click(session, '[data-testid="chart-cost"]');
        const title = await waitFor(
          session,
          '[data-testid="token-chart"][data-measure="cost"] .chart-title',
        );
        assert.match(title, /^Cost per model call/);
        await sleep(300); // a frame for WebKit to paint into the screenshot
        await saveScreenshot(session, "chart-cost");

        // The chart saved from the Export menu as a PNG to paste into a pull request, and as an
        // SVG: WebKit draws it and the app writes it. The save dialog answers in the harness's
        // folder with the name it suggests (it cannot be driven here).
        const saveChart = async (format) => {
          const path = join(
            workDir,
            "saved",
            `task-executor-lookup-first.chart.${format}`,
          );
          await click(session, '[data-testid="export-report-button"]');
          await click(session, `[data-testid="export-chart-${format}"]`);
          await waitUntil(
            session,
            "return document.querySelector('[data-testid=\"compare-notice\"], [data-testid=\"compare-failure\"]')?.textContent ?? '';",
            (text) =>
              text.includes(
                `Saved the chart as ${format.toUpperCase()} to ${path}`,
              ),
            `the chart saved as ${format}`,
          );
          return readFileSync(path);
        };
        const png = await saveChart("png");
        assert.equal(
          png.subarray(0, 8).toString("latin1"),
          "\x89PNG\r\n\x1a\n",
        );
        // Twice the chart's size: its 640 px plot, its title above and its legend below.
        assert.deepEqual(
          [png.readUInt32BE(16), png.readUInt32BE(20)],
          [1280, 2 * (250 + 26 + 26)],
        );
        assert.ok(
          png.length > 10_000,
          `a drawn chart, not a blank one: ${png.length} bytes`,
        );
        const svg = (await saveChart("svg")).toString("utf8");
        assert.match(
          svg,
          /^<\?xml version="1.0" encoding="UTF-8"\?>\n<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/,
        );
        assert.match(svg, />Cost per model call</);
        assert.match(
          svg,
          /stroke:rgb\(/,
          "the lanes' colours written on the lines, not left to the app's CSS",
        );
      },
      scenario,
    );
  });

  it("runs a two-turn scenario live against a real server from the compare view: the lanes hold the command line's live events", async (t) => {
    const port = await freePort();
    execFileSync(join(ROOT, "scripts/fakellm.sh"), ["start", String(port)], {
      stdio: "ignore",
    });
    t.after(() =>
      execFileSync(join(ROOT, "scripts/fakellm.sh"), ["stop", String(port)], {
        stdio: "ignore",
      }),
    );
    const profile = {
      name: "fake",
      kind: "openai",
      base_url: `http://127.0.0.1:${port}/v1`,
      model: "fake-model",
      api_key_env: "UNFOLD_E2E_KEY",
    };
    writeFileSync(
      providersFile(),
      JSON.stringify({
        schema_version: 1,
        kind: "unfold.providers",
        profiles: [profile],
      }),
    );
    const template = exampleCopy("live.unfold.json");
    // Two user turns: the second is asked once the model has answered the first.
    const scenario = join(workDir, "live.scenario.json");
    const { user, script, ...rest } = JSON.parse(
      readFileSync(join(ROOT, "examples/lookup-first.scenario.json"), "utf8"),
    );
    const later = "Thanks. Is anything else broken?";
    writeFileSync(
      scenario,
      JSON.stringify({
        ...rest,
        turns: [
          { user, script },
          { user: later, script: [{ say: "No." }] },
        ],
      }),
    );
    const cli = (adapter) =>
      JSON.parse(
        execFileSync(
          "cargo",
          [
            "run",
            "-q",
            "-p",
            "unfold-cli",
            "--",
            "run",
            template,
            "--providers",
            providersFile(),
            "--provider",
            "fake",
            "--adapter",
            adapter,
            "--user",
            user,
            "--user",
            later,
            "--json",
          ],
          {
            cwd: ROOT,
            encoding: "utf8",
            env: {
              ...process.env,
              UNFOLD_E2E_KEY: E2E_KEY,
              UNFOLD_HISTORY: "off",
            },
          },
        ),
      ).run;
    const runs = { dynamic: cli("dynamic"), restart: cli("restart") };
    await withApp(
      t,
      template,
      async (session) => {
        await waitFor(session, '[data-testid="compare-view"]');
        await waitFor(
          session,
          '[data-testid="comparison-model"] option[value="live:fake"]',
        );
        await webdriver("POST", `/session/${session}/execute/sync`, {
          script: `const select = document.querySelector('[data-testid="comparison-model"]');
            const setValue = Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, "value").set;
            setValue.call(select, "live:fake");
            select.dispatchEvent(new Event("change", { bubbles: true }));
            return true;`,
          args: [],
        });
        await waitFor(session, '[data-testid="live-note"]');
        await runComparison(session);
        const lanes = await waitUntil(
          session,
          LANES,
          (shown) => shown.length > 0,
          "the lanes",
        );
        assert.deepEqual(
          lanes,
          ["dynamic", "restart"],
          "a live run has no baseline lane",
        );
        const shown = await waitUntil(
          session,
          TIMELINE_EVENTS,
          (events) => events.length > 0,
          "events on the timeline",
        );
        assert.ok(
          shown.some((event) => event.endsWith(" user_turn")),
          `the second turn is on the timeline: ${shown.join(", ")}`,
        );
        const expected = Object.entries(runs).flatMap(([lane, run]) =>
          run.events
            .filter(
              (event) =>
                event.type !== "run_started" && event.type !== "run_completed",
            )
            .map((event) => `${lane} ${event.seq} ${event.type}`),
        );
        assert.deepEqual([...shown].sort(), [...expected].sort());
        const finals = await waitUntil(
          session,
          LANE_FINALS,
          (texts) => texts.length === 2,
          "both answers",
        );
        assert.deepEqual(finals, [runs.dynamic.final, runs.restart.final]);
        const page = await webdriver(
          "POST",
          `/session/${session}/execute/sync`,
          {
            script: "return document.documentElement.outerHTML;",
            args: [],
          },
        );
        assert.ok(!page.includes(E2E_KEY), "the key never reaches the webview");
        // The exports of a live comparison, through the app's own commands (the UI's Export
        // buttons call them after the native dialog): the file scan below reads them too.
        const exported = await webdriver(
          "POST",
          `/session/${session}/execute/async`,
          {
            script: `const [report, folder, done] = arguments;
            const invoke = window.__TAURI_INTERNALS__.invoke;
            invoke("export_comparison", { runId: 1, path: report, format: "json" })
              .then(() => invoke("export_requests", { runId: 1, folder, api: "anthropic" }))
              .then((count) => done(count), (error) => done("failed: " + JSON.stringify(error)));`,
            args: [
              join(workDir, "live.comparison.json"),
              join(workDir, "live-requests"),
            ],
          },
        );
        assert.equal(
          typeof exported,
          "number",
          `the exports were written: ${exported}`,
        );
        assert.ok(
          readFileSync(join(workDir, "live.comparison.json"), "utf8").includes(
            '"kind": "unfold.comparison"',
          ),
        );
        // In Anthropic's shape, as asked: the system prompt apart from the messages.
        const first = JSON.parse(
          readFileSync(
            join(workDir, "live-requests", "dynamic-call-001.json"),
            "utf8",
          ),
        );
        assert.equal(typeof first.system, "string");
        assert.equal(first.messages[0].role, "user");
        // Ready to send to the profile's model, as Anthropic requires.
        assert.equal(first.model, "fake-model");
        assert.equal(typeof first.max_tokens, "number");
        // The last call of the dynamic lane asks the second turn after the first's answer.
        const bodies = readdirSync(join(workDir, "live-requests")).filter((name) =>
          name.startsWith("dynamic-"),
        );
        const last = JSON.parse(
          readFileSync(join(workDir, "live-requests", bodies.sort().at(-1)), "utf8"),
        );
        const asked = last.messages.filter(
          (message) =>
            message.role === "user" && typeof message.content === "string",
        );
        assert.deepEqual(
          asked.map((message) => message.content),
          [user, later],
        );

        // The history page lists both live runs as one comparison; the restart run compared with the
        // dynamic one as its reference run says what `unfold history compare` says of the same file.
        await click(session, '[data-testid="page-history"]');
        await typeInto(
          session,
          '[data-testid="history-filter-provider"]',
          "fake",
        );
        await waitUntil(
          session,
          HISTORY_ROWS,
          (ids) => ids.length === 2,
          "the two live runs",
        );
        const idOf = (lane) =>
          waitFor(
            session,
            `[data-testid="history-group"] [data-testid="history-row"][data-lane="${lane}"]`,
            "return arguments[0].dataset.id;",
          );
        const [dynamicId, restartId] = [
          await idOf("dynamic"),
          await idOf("restart"),
        ];
        // A table row is not interactable for WebKitWebDriver; its cell is, and the click reaches the row.
        await click(
          session,
          `[data-testid="history-row"][data-id="${dynamicId}"] td`,
        );
        await click(session, '[data-testid="history-use-reference"]');
        await click(
          session,
          `[data-testid="history-row"][data-id="${restartId}"] td`,
        );
        await click(session, '[data-testid="history-compare"]');
        const line = await waitFor(
          session,
          '[data-testid="history-divergence"]',
        );
        const history = join(
          workDir,
          "data",
          "dev.unfold.studio",
          "history.sqlite3",
        );
        const compared = JSON.parse(
          execFileSync(
            "cargo",
            [
              "run",
              "-q",
              "-p",
              "unfold-cli",
              "--",
              "history",
              "compare",
              dynamicId,
              restartId,
              "--json",
            ],
            {
              cwd: ROOT,
              encoding: "utf8",
              env: { ...process.env, UNFOLD_HISTORY: history },
            },
          ),
        );
        assert.equal(compared.run.provider, "fake");
        assert.ok(
          line.includes(compared.divergence.first.explanation),
          `${line} names the CLI's divergence`,
        );
        const pairLanes = await waitUntil(
          session,
          LANES,
          (shown) => shown.length === 2,
          "both runs' lanes",
        );
        assert.deepEqual(pairLanes, ["baseline", "restart"]);
        // The comparison's heading opens its files on the Compare page again.
        await click(
          session,
          '[data-testid="history-group"] [data-testid="history-open-comparison"]',
        );
        await waitUntil(
          session,
          `return document.querySelector('[data-testid="page-compare"]')?.getAttribute('aria-selected');`,
          (selected) => selected === "true",
          "the Compare page, from the history",
        );
      },
      scenario,
    );
    // Nothing the app wrote (logs, run history, recovery, settings) holds the key.
    for (const [file, bytes] of filesUnder(workDir)) {
      assert.ok(
        !bytes.toString("latin1").includes(E2E_KEY),
        `${file} holds the key`,
      );
    }
  });

  it("adds host lanes on the compare page: each named, and a host that never shows the revealed tools falls short", async (t) => {
    const template = join(workDir, "hosts.unfold.json");
    copyFileSync(join(ROOT, "examples/coding-agent.unfold.json"), template);
    const scenario = join(workDir, "hosts.scenario.json");
    copyFileSync(join(ROOT, "examples/coding-agent-two-turns.scenario.json"), scenario);
    await withApp(
      t,
      template,
      async (session) => {
        for (const host of ["claude-code", "codex"]) {
          // The picker offers the presets the backend ships; choosing one adds its lane.
          await addHostLane(session, host);
        }
        await pressRun(session);
        const lanes = await waitUntil(
          session,
          `return [...document.querySelectorAll('[data-testid="verdict-lane"]')].map((lane) => [lane.dataset.lane, lane.dataset.standing]);`,
          (found) => found.length === 4,
          "the verdict of every lane",
        );
        // The CLI's verdict of the same lanes: the app shows the same standings.
        const lanesAsked = "dynamic,restart,host:claude-code,host:codex";
        const report = unfoldJson(["compare", template, scenario, "--adapters", lanesAsked, "--json"]);
        assert.deepEqual(
          lanes,
          report.verdict.lanes.map((lane) => [lane.lane, lane.standing]),
        );
        assert.equal(Object.fromEntries(lanes)["host:codex"], "failed");
        await saveScreenshot(session, "compare-host-lanes");
      },
      scenario,
    );
  });

  it("edits and saves the scenario from the compare view", async (t) => {
    const scenario = join(workDir, "edited.scenario.json");
    copyFileSync(join(ROOT, "examples/lookup-first.scenario.json"), scenario);
    await withApp(
      t,
      exampleCopy("scenario-edit.unfold.json"),
      async (session) => {
        await waitFor(session, '[data-testid="scenario-user"]');
        await typeInto(session, '[data-testid="scenario-user"]', " Quickly.");
        await waitFor(session, '[data-testid="scenario-dirty"]');
        await saveScenario(session);
        const saved = JSON.parse(readFileSync(scenario, "utf8"));
        assert.equal(
          saved.user,
          "Refactor the authentication module. Quickly.",
        );
        assert.equal(saved.kind, "unfold.scenario");
      },
      scenario,
    );
  });
});
