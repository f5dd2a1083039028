// End-to-end tests of what a first-time user hit (issue 11), in the REAL app at 1024×700 in dark mode
// (GTK's dark Adwaita, which the page reads as `prefers-color-scheme: dark`): a key renamed keeps the
// focus and the keystrokes that follow; a key is checked as it is typed, at its field; a parameter is
// named and renamed, and an unknown `${param}` is defined from its warning; the header stays one line
// with a long path; recovered work is offered where it is seen; the event detail closes and never
// squeezes the counters or the lanes; the chart and the counters say what happened in words; the
// history shows a comparison as one group with its all-FULL baseline named so; every problem (the
// template's, the preview's, a tool not applied, the scenario's calls that will fail) is listed in one
// place on both pages, and a run whose tool calls failed ends as a warning; and the first start
// prints no error about the log folder, its preview splitting the prompt's tokens; and a first
// comparison under all four adapters reads at that width: a lane, a difference column and a first
// divergence for each run against the first.
// Screenshots of each state land in the harness's temp dir (kept with UNFOLD_E2E_KEEP=1). Run:
// `node --test tests/e2e/` after `cargo build -p unfold-app`.
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, beforeEach, describe, it } from "node:test";
import {
  addHostLane,
  click,
  diagnostics,
  EXAMPLE,
  ROOT,
  killApp,
  recoveryDir,
  resizeWindow,
  runComparison,
  saveScreenshot,
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

/** Replaces what the field `selector` holds with `text`: its text selected, then typed over. */
async function retype(session, selector, text) {
  await waitFor(session, selector, "arguments[0].focus(); arguments[0].select(); return true;");
  await typeInto(session, selector, text);
}

/** Replaces the text of the code field `selector` (CodeMirror) with `text`: all selected, deleted, typed. */
async function replaceCode(session, selector, text) {
  await click(session, selector);
  const press = (value) => [{ type: "keyDown", value }, { type: "keyUp", value }];
  await webdriver("POST", `/session/${session}/actions`, {
    actions: [{ type: "key", id: "keys", actions: [{ type: "keyDown", value: "\uE009" }, ...press("a"), { type: "keyUp", value: "\uE009" }, ...press("\uE003")] }],
  });
  await webdriver("DELETE", `/session/${session}/actions`);
  await typeInto(session, selector, text);
}

/** Opens the app narrow and checks it is dark. */
async function narrow(session) {
  await resizeWindow(session, WIDTH, HEIGHT);
  assert.equal(await evaluate(session, "return matchMedia('(prefers-color-scheme: dark)').matches;"), true);
}

describe("what a first-time user hit, at 1024×700 in dark mode", () => {
  before(() => startHarness({ dark: true }));
  after(stopHarness);
  // Each test starts with no unsaved work of another's to offer: the offer, appearing a moment
  // after the window, moves what a test clicks (the event detail's test once clicked beside it).
  beforeEach(() => rmSync(recoveryDir(), { recursive: true, force: true }));

  it("starts without an error about the log folder, the preview's tokens split", async (t) => {
    await withApp(t, EXAMPLE, async (session) => {
      await waitFor(session, '[data-testid="preview-markdown"]');
      assert.doesNotMatch(diagnostics(), /Error reading the log directory/);
      // The preview splits the prompt's tokens (`unfold render --json`: 199, of which 107 are tools).
      assert.equal(await waitFor(session, '[data-testid="token-split"]'), "92 in the text, 107 in the 2 tool definitions");
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
      await saveScreenshot(session, "header-1024-dark");
    });
  });

  it("renames a key and keeps the focus and the keystrokes that follow", async (t) => {
    const path = deepCopy("rename.unfold.json");
    await withApp(t, path, async (session) => {
      await narrow(session);
      await click(session, rowButton("style"));
      await retype(session, KEY_FIELD, "tone\uE004"); // then Tab
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

  it("names a parameter, and defines an unknown one from its warning", async (t) => {
    const path = deepCopy("params.unfold.json");
    await withApp(t, path, async (session) => {
      await narrow(session);
      // An unknown placeholder offers to define it.
      await click(session, rowButton("task"));
      await typeInto(session, '[data-testid="field-template"]', " in a ${tone} tone");
      const define = '[data-testid="field-template-warnings"] [data-testid="define-param"][data-name="tone"]';
      assert.equal(await waitFor(session, define), "Define tone");
      await click(session, define);
      await waitUntil(session, `return document.querySelector('${define.replaceAll("'", "\\'")}') === null;`, (gone) => gone, "the warning gone");

      // The parameter list has it, and a name is edited and checked at its field.
      await click(session, '[data-testid="tab-template"]');
      const names = "return [...document.querySelectorAll('[data-testid=\"param-row\"]')].map((row) => row.dataset.name);";
      await waitUntil(session, names, (shown) => shown?.includes("tone"), "tone among the parameters");
      const nameField = '[data-testid="param-row"][data-name="objective"] [data-testid="param-name"]';
      await retype(session, nameField, "my goal");
      const problem = await waitFor(session, '[data-testid="param-row"][data-name="objective"] [data-testid="param-name-problem"]');
      assert.match(problem, /space/);
      await saveScreenshot(session, "param-problem-1024-dark");
      await retype(session, nameField, "goal\uE004");
      // The rename keeps the parameter's place: goal where objective was.
      await waitUntil(session, names, (shown) => JSON.stringify(shown) === '["goal","project_name","tone"]', "objective renamed to goal");
      await click(session, '[data-testid="save-button"]');
      await waitUntil(session, "return document.querySelector('[data-testid=\"dirty-marker\"]') === null;", (clean) => clean, "saved");
      const saved = JSON.parse(readFileSync(path, "utf8"));
      assert.deepEqual(Object.keys(saved.params), ["goal", "project_name", "tone"]);
    });
  });

  it("lists every problem in one place on both pages, and a run whose tool calls failed ends as a warning", async (t) => {
    const path = deepCopy("problems.unfold.json");
    const scenario = join(workDir, "failing-calls.scenario.json");
    const lookupFirst = JSON.parse(readFileSync(join(ROOT, "examples/lookup-first.scenario.json"), "utf8"));
    lookupFirst.script[0].args = { id: "seven" };
    lookupFirst.script.splice(1, 0, { call: "lokup", args: { id: 7 } });
    writeFileSync(scenario, JSON.stringify(lookupFirst, null, 2));
    const groups = `return [...document.querySelectorAll('[data-testid="problem-group"]')]
      .map((group) => [group.dataset.group, [...group.querySelectorAll('li')].map((li) => li.textContent)]);`;
    const byKind = (shown) => Object.fromEntries(shown ?? []);
    await withApp(
      t,
      path,
      async (session) => {
        await narrow(session);
        // The compare page: the script's calls that will fail, each at its place, before any run.
        const onCompare = byKind(await waitUntil(session, groups, (shown) => byKind(shown).script !== undefined, "the script's warnings"));
        assert.deepEqual(onCompare.script.map((line) => line.split(" ")[0]), ["/script/0/args/id", "/script/1/call"]);
        assert.match(onCompare.script[0], /'lookup' will refuse these arguments: "seven" is not of type "integer"/);
        // Warnings do not stop a run; its failed tool calls make it end under a warning, not a success.
        await click(session, '[data-testid="run-comparison"]');
        const outcome = await waitUntil(
          session,
          "return document.querySelector('[data-testid=\"run-status\"]')?.dataset.outcome ?? null;",
          (shown) => shown === "warning" || shown === "success",
          "the comparison finished",
        );
        assert.equal(outcome, "warning");
        assert.match(await waitFor(session, '[data-testid="run-status"]'), /tool calls? failed/);
        await saveScreenshot(session, "problems-compare-1024-dark");

        // The edit page lists the same, with what the template itself has.
        await click(session, '[data-testid="page-edit"]');
        await click(session, rowButton("task"));
        await typeInto(session, '[data-testid="field-template"]', " in a ${tone} tone");
        const withRender = byKind(await waitUntil(session, groups, (shown) => byKind(shown).render !== undefined, "the render problem"));
        assert.match(withRender.render[0], /^\/params missing parameter 'tone'/);
        assert.equal(withRender.script.length, 2, "the scenario's warnings are listed on the edit page too");

        // A tool whose schema is not valid is not applied, and is listed at the place of the mistake.
        await click(session, rowButton("context"));
        await click(session, '[data-testid="section-tool"][data-name="search"] [data-testid="edit-tool"]');
        const schema = '{"type": "object", "properties": {"query": {"type": "strin"}}}';
        await replaceCode(session, '[data-testid="tool-parameters"]', schema);
        const withTool = byKind(await waitUntil(session, groups, (shown) => byKind(shown).tool !== undefined, "the unapplied tool"));
        assert.deepEqual(withTool.tool, [
          '/parameters/properties/query/type "strin" is not a JSON Schema type: use array, boolean, integer, null, number, object or string',
        ]);
        assert.match(await waitFor(session, '[data-testid="tool-parameters-problems"]'), /\/parameters\/properties\/query\/type/);
        assert.match(await waitFor(session, '[data-testid="problems-summary"]'), /^1 problem, 3 warnings$/);
        const apply = await waitFor(session, '[data-testid="tool-apply"]', "return [arguments[0].textContent, arguments[0].disabled, arguments[0].title];");
        assert.deepEqual(apply, ["Apply", true, "Fix the tool's problems first"]);
        // The header counts them, on one line, and takes the user to the list wherever it is.
        assert.equal(await waitFor(session, '[data-testid="problems-button"]'), "1 problem, 3 warnings");
        await click(session, '[data-testid="problems-button"]');
        const shown = await evaluate(
          session,
          `const panel = document.getElementById("problems-panel").getBoundingClientRect();
           return { inView: panel.top >= 0 && panel.top < innerHeight, focused: document.activeElement?.id === "problems-panel",
                    header: document.querySelector('[data-testid="app-header"]').getBoundingClientRect().height };`,
        );
        assert.deepEqual([shown.inView, shown.focused], [true, true]);
        assert.ok(shown.header < 60, `the header is one line, not ${shown.header} px`);
        await saveScreenshot(session, "problems-edit-1024-dark");
      },
      scenario,
    );
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

  it("opens an example's comparison from the start page in one click: the verdict in money, as the command line says", async (t) => {
    await withApp(t, null, async (session) => {
      await narrow(session);
      await waitFor(session, '[data-testid="example-list"]');
      await saveScreenshot(session, "start-page-1024");
      await click(
        session,
        '[data-testid="example"][data-template="coding-agent.unfold.json"] [data-testid="open-example-comparison"][data-scenario="coding-agent-fix-test.scenario.json"]',
      );
      const headline = await waitUntil(
        session,
        `return document.querySelector('[data-testid="verdict-headline"]')?.textContent ?? null;`,
        (text) => text !== null,
        "the verdict",
      );
      // The example's files, written where the app keeps its data, opened as saved files.
      const folder = join(workDir, "data", "dev.unfold.studio", "examples");
      const [template, scenario] = [join(folder, "coding-agent.unfold.json"), join(folder, "coding-agent-fix-test.scenario.json")];
      const adapters = "dynamic,restart,allowed_tools,deferred,tool_addition";
      const report = unfoldJson(["compare", template, scenario, "--json", "--adapters", adapters]);
      assert.equal(headline, report.verdict.headline);
      assert.match(headline, /^deferred wins: .* and cost \$[0-9.]+ \([0-9.]+ %\) less with the prompt cache/);
      const shown = await evaluate(
        session,
        `return { path: document.querySelector('[data-testid="template-path"]')?.textContent ?? null,
                  dirty: document.querySelector('[data-testid="dirty-marker"]') !== null };`,
      );
      assert.deepEqual(shown, { path: template, dirty: false }, "a saved file, not an untitled copy");
      await saveScreenshot(session, "example-comparison-1024");
      // The Edit page says what disclosure saves on the first prompt (README's figures).
      await click(session, '[data-testid="page-edit"]');
      const first = await waitUntil(
        session,
        `return document.querySelector('[data-testid="first-prompt"]')?.textContent ?? null;`,
        (text) => text !== null,
        "the economics",
      );
      assert.equal(first, "1,236 of 18,854 tokens shown first (−93.4 %)");
    });
  });

  it("compares under every adapter: a lane, a difference column and a divergence each, as the command line reports", async (t) => {
    const template = deepCopy("four.unfold.json");
    const scenario = join(workDir, "read-context-then-search.scenario.json");
    copyFileSync(join(ROOT, "examples/read-context-then-search.scenario.json"), scenario);
    const adapters = ["dynamic", "restart", "allowed_tools", "deferred", "tool_addition"];
    const report = unfoldJson(["compare", template, scenario, "--json", "--adapters", adapters.join(",")]);
    await withApp(
      t,
      template,
      async (session) => {
        await narrow(session);
        for (const adapter of ["allowed_tools", "deferred", "tool_addition"]) await click(session, `[data-testid="adapter-${adapter}"]`);
        await runComparison(session);
        const lanes = await evaluate(session, `return [...document.querySelectorAll('[data-testid="lane"]')].map((lane) => lane.dataset.lane);`);
        assert.deepEqual(lanes, [...adapters, "baseline"]);
        // The answer first: the command line's verdict, word for word, each lane by its standing.
        const verdict = await evaluate(
          session,
          `return { headline: document.querySelector('[data-testid="verdict-headline"]')?.textContent ?? null,
                    lanes: [...document.querySelectorAll('[data-testid="verdict-lane"]')].map((item) => [item.dataset.lane, item.dataset.standing]) };`,
        );
        assert.equal(verdict.headline, report.verdict.headline);
        assert.deepEqual(verdict.lanes, report.verdict.lanes.map((lane) => [lane.lane, lane.standing]));
        // Each run's prompt tokens are the command line's, each difference is against the first run.
        const shown = await evaluate(
          session,
          `const row = document.querySelector('[data-testid="counter-row"][data-counter="prompt_tokens"]');
           const number = (cell) => Number((cell?.textContent ?? 'NaN').replace(/[,+\\s]/g, '').replace('\u2212', '-'));
           return { runs: ${JSON.stringify(adapters)}.map((lane) => number(row.querySelector('[data-testid="counter-' + lane + '"] .value'))),
                    deltas: [...row.querySelectorAll('[data-testid="counter-delta"]')].map((cell) => [cell.dataset.lane, cell.dataset.against, number(cell)]) };`,
        );
        const tokens = report.runs.map((run) => run.counters.prompt_tokens);
        assert.deepEqual(shown.runs, tokens);
        assert.deepEqual(shown.deltas, adapters.slice(1).map((lane, i) => [lane, "dynamic", tokens[i + 1] - tokens[0]]));
        const divergences = await evaluate(
          session,
          `return [...document.querySelectorAll('[data-testid="divergence"]')].map((line) => [line.dataset.right, line.textContent]);`,
        );
        assert.deepEqual(
          divergences.map(([right]) => right),
          ["restart", "allowed_tools", "deferred", "tool_addition"],
        );
        for (const [index, [, text]] of divergences.entries()) {
          const first = report.divergences[index].first;
          assert.ok(text.includes(first ? first.explanation : "none"), `${text} says the command line's divergence`);
        }
        // The injections say how the tools arrived.
        const injected = await evaluate(
          session,
          `return [...document.querySelectorAll('[data-testid="timeline-event"][data-type="tools_injected"]')].map((e) => e.dataset.lane + ": " + e.textContent);`,
        );
        assert.ok(injected.some((line) => /^allowed_tools: tools allowed/.test(line)), JSON.stringify(injected));
        assert.ok(injected.some((line) => /^deferred: tools loaded by reference/.test(line)), JSON.stringify(injected));
        assert.ok(injected.some((line) => /^tool_addition: tools added by a system message/.test(line)), JSON.stringify(injected));
        const spill = await evaluate(
          session,
          `const results = document.querySelector('[data-testid="compare-results"]');
           return results.scrollWidth - results.clientWidth;`,
        );
        assert.ok(spill <= 1, `nothing spills sideways (${spill} px)`);
        await saveScreenshot(session, "compare-five-adapters-1024-dark");
        await evaluate(session, `document.querySelector('[data-testid="timeline-lanes"]').scrollIntoView(); return true;`);
        await saveScreenshot(session, "compare-five-lanes-1024-dark");
      },
      scenario,
    );
  });

  it("compares the two-turn example under an adapter and a host lane: each lane shows where the second turn starts", async (t) => {
    const template = join(workDir, "two-turns.unfold.json");
    copyFileSync(join(ROOT, "examples/coding-agent.unfold.json"), template);
    const scenario = join(workDir, "two-turns.scenario.json");
    copyFileSync(join(ROOT, "examples/coding-agent-two-turns.scenario.json"), scenario);
    const asked = "dynamic,restart,tool_addition,host:copilot-cli";
    const report = unfoldJson(["compare", template, scenario, "--json", "--adapters", asked]);
    await withApp(
      t,
      template,
      async (session) => {
        await narrow(session);
        await click(session, '[data-testid="adapter-tool_addition"]');
        await addHostLane(session, "copilot-cli");
        await runComparison(session);
        const verdict = await evaluate(
          session,
          `return [...document.querySelectorAll('[data-testid="verdict-lane"]')].map((item) => [item.dataset.lane, item.dataset.standing]);`,
        );
        assert.deepEqual(verdict, report.verdict.lanes.map((lane) => [lane.lane, lane.standing]));
        const turns = await evaluate(
          session,
          `return [...document.querySelectorAll('[data-testid="timeline-event"][data-type="user_turn"]')].map((e) => e.dataset.lane);`,
        );
        assert.deepEqual([...new Set(turns)].sort(), ["baseline", "dynamic", "host:copilot-cli", "restart", "tool_addition"]);
        await saveScreenshot(session, "compare-two-turns-1024-dark");
        await evaluate(session, `document.querySelector('[data-testid="timeline-lanes"]').scrollIntoView(); return true;`);
        await saveScreenshot(session, "compare-two-turns-lanes-1024-dark");
      },
      scenario,
    );
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
        await runComparison(session);
        // How many lines a cell's text takes: a text range's line boxes, whatever the padding.
        const LINES = `const lines = (cell) => { const range = document.createRange(); range.selectNodeContents(cell);
          return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size; };`;
        const LAYOUT = LINES + `const lane = document.querySelector('[data-testid="lane"][data-lane="restart"] > [data-testid="lane-head"]');
          const cells = [...document.querySelectorAll('[data-testid="counters"] th, [data-testid="counters"] td')];
          const box = document.querySelector('[data-testid="counters-box"]');
          const results = document.querySelector('[data-testid="compare-results"]');
          return { lane: lane.getBoundingClientRect().width,
                   mostLines: Math.max(...cells.map(lines)),
                   wrapped: cells.filter((c) => lines(c) > 2).map((c) => c.textContent),
                   boxSpill: box.scrollWidth - box.clientWidth, resultsSpill: results.scrollWidth - results.clientWidth,
                   detail: document.querySelector('[data-testid="event-detail-panel"]') !== null };`;
        const closed = await evaluate(session, LAYOUT);
        const event = '[data-testid="timeline-event"][data-lane="restart"][data-type="model_call"]';
        await click(session, event);
        await waitFor(session, '[data-testid="event-detail"]');
        const open = await evaluate(session, LAYOUT);
        assert.ok(open.detail, "the detail is open");
        assert.ok(open.lane >= 200 && Math.abs(open.lane - closed.lane) <= 1, `the lanes keep their width (${closed.lane} → ${open.lane})`);
        assert.ok(open.mostLines <= 2, `no counters cell wraps past two lines: ${JSON.stringify(open.wrapped)}`);
        assert.ok(open.boxSpill <= 1 && open.resultsSpill <= 1, `nothing spills sideways (${open.boxSpill}, ${open.resultsSpill} px)`);
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

        // The chart and the counters in words: every point with its tooltip, the restart marked,
        // the restart's thrown-away call marked discarded, savings without a double negative, no raw enum.
        const words = await evaluate(
          session,
          `const points = [...document.querySelectorAll('[data-testid="chart-point"]')];
           return { points: points.length, titled: points.filter((p) => (p.querySelector('title')?.textContent ?? '') !== '').length,
                    restarts: document.querySelectorAll('[data-testid="chart-restart"]').length,
                    discarded: document.querySelectorAll('[data-testid="call-block"][data-discarded="true"]').length,
                    savings: document.querySelector('[data-testid="savings-restart"]')?.textContent ?? '',
                    page: document.body.innerText };`,
        );
        assert.ok(words.points > 0 && words.titled === words.points, `every chart point has a tooltip (${words.titled}/${words.points})`);
        assert.ok(words.restarts >= 1, "the restart is marked on the chart");
        assert.ok(words.discarded >= 1, "the call the restart threw away is marked");
        assert.match(words.savings, /^[\d,]+ (more|fewer) \([+−-][\d.]+%\)$|^the same/);
        assert.doesNotMatch(words.page, /saved −|visibility_expansion|turn_limit|restart_limit/);
        // The lanes are aligned by the work each call did: a row of the same work holds the same tool
        // calls in every lane, at the same height (a discarded one marked so); the legend names every lane.
        const rows = await evaluate(
          session,
          `const rows = {};
           for (const block of document.querySelectorAll('[data-testid="call-block"]')) {
             const top = Math.round(block.getBoundingClientRect().top);
             const calls = [...block.querySelectorAll('[data-testid="timeline-event"][data-type="tool_call"]')].map((e) => e.textContent.replace(/discarded$/, "")).join(" | ");
             (rows[top] ??= []).push({ lane: block.dataset.lane, work: block.dataset.work, calls });
           }
           return { rows: Object.values(rows), legend: document.querySelectorAll('[data-testid="token-chart"] .legend li').length };`,
        );
        const same = rows.rows.filter((row) => row.length > 1 && row.every((block) => block.work === "same"));
        assert.ok(same.length >= 2, `rows of the same work side by side: ${JSON.stringify(rows.rows)}`);
        for (const row of same) assert.equal(new Set(row.map((block) => block.calls)).size, 1, `one row, one work: ${JSON.stringify(row)}`);
        assert.equal(rows.legend, 3, "the legend names the three lanes");
        // Every call of this short comparison is labelled on the axis, and lanes that coincide are said so.
        const ticks = await evaluate(session, `return [...document.querySelectorAll('[data-testid="chart-tick"]')].map((tick) => tick.dataset.call);`);
        assert.deepEqual(ticks, ["1", "2", "3", "4", "5"]);
        assert.match(await waitFor(session, '[data-testid="chart-coincide"]'), /^dynamic, restart and baseline coincide at calls 1–2: drawn side by side\.$/);
        await click(session, '[data-testid="chart-cumulative"]');
        await waitUntil(session, "return document.querySelector('[data-testid=\"token-chart\"]')?.dataset.mode;", (mode) => mode === "cumulative", "the cumulative chart");
        await saveScreenshot(session, "chart-1024-dark");

        // The history shows the comparison as one group, its all-FULL baseline named so.
        await click(session, '[data-testid="page-history"]');
        const group = await waitUntil(
          session,
          `const group = document.querySelector('[data-testid="history-group"]');
           return group && [...group.querySelectorAll('[data-testid="history-row"]')].map((row) => row.dataset.lane + ":" + (row.querySelector('[data-testid="history-run-kind"]')?.textContent ?? ''));`,
          (rows) => Array.isArray(rows) && rows.length === 3,
          "the comparison's three runs in one group",
        );
        assert.deepEqual(group.map((row) => row.split(":")[0]), ["dynamic", "restart", "baseline"]);
        assert.equal(group[2].split(":")[1], "all-FULL baseline");
        await saveScreenshot(session, "history-1024-dark");
      },
      scenario,
    );
  });
});
