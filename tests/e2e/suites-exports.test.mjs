// End-to-end tests of spec 11's app side in the REAL app, at 1024×700 in dark mode: a suite opened
// from the command line (`unfold-app SUITE`) lists its cases on the Suites page, runs, and shows
// what `unfold test` prints of the same file (the summary, each expectation that did not hold) with
// each case's lanes; the editor's Export menu opens the promptfoo dialog on the open scenario, and
// the export it sends writes what `unfold export` writes; the History exports a kept run's trace.
// Native dialogs cannot be driven: where one stands between a button and a command, the test calls
// the app's own command as the UI does after it. Screenshots land in the harness's temp dir (kept
// with UNFOLD_E2E_KEEP=1). Run: `node --test tests/e2e/` after `cargo build -p unfold-app`.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import {
  click,
  EXAMPLE,
  ROOT,
  TARGET,
  resizeWindow,
  runComparison,
  saveScreenshot,
  startHarness,
  stopHarness,
  waitFor,
  waitUntil,
  webdriver,
  withApp,
  workDir,
} from "./harness.mjs";

const UNFOLD = join(TARGET, "debug/unfold");

/** Runs `script` in the page, which calls its last argument with the answer. */
function evaluateAsync(session, script, args) {
  return webdriver("POST", `/session/${session}/execute/async`, { script, args });
}

/** `unfold ARGS…` in the repository; its standard output, whatever its exit code. */
function unfold(args) {
  try {
    return execFileSync(UNFOLD, args, { cwd: ROOT, encoding: "utf8", env: { ...process.env, UNFOLD_HISTORY: "off" } });
  } catch (error) {
    return error.stdout;
  }
}

/** A suite of two cases on the bundled examples, the second expecting fewer model calls than it makes. */
function writeSuite() {
  const example = (name) => join(ROOT, "examples", name);
  const suite = {
    schema_version: 1,
    kind: "unfold.suite",
    name: "app regressions",
    cases: [
      {
        name: "reading context restarts once",
        template: example("task-executor.unfold.json"),
        scenario: example("read-context-then-search.scenario.json"),
        expect: { restart: { restarts: 1 }, divergence: "any" },
      },
      {
        name: "one call is not enough",
        template: example("task-executor.unfold.json"),
        scenario: example("lookup-first.scenario.json"),
        adapters: ["dynamic", "deferred"],
        expect: { dynamic: { model_calls: { max: 2 } } },
      },
    ],
  };
  const path = join(workDir, "app.suite.json");
  writeFileSync(path, JSON.stringify(suite, null, 2));
  return path;
}

describe("suites, exports and traces in the app (1024×700, dark)", () => {
  before(() => startHarness({ dark: true }));
  after(stopHarness);

  it("opens a suite given on the command line, runs it and shows what `unfold test` says", async (t) => {
    const suite = writeSuite();
    const cli = unfold(["test", suite]).trim().split("\n");
    await withApp(t, suite, async (session) => {
      await resizeWindow(session, 1024, 700);
      const cases = await waitUntil(
        session,
        "return [...document.querySelectorAll('[data-testid=\"suite-case\"]')].map((c) => c.dataset.case);",
        (names) => Array.isArray(names) && names.length === 2,
        "the suite's cases",
      );
      assert.deepEqual(cases, ["reading context restarts once", "one call is not enough"]);
      await click(session, '[data-testid="suite-run"]');
      const summary = await waitFor(session, '[data-testid="suite-summary"]');
      assert.equal(summary, cli.at(-1), "the summary line `unfold test` prints");
      assert.equal(summary, "2 cases: 1 passed, 1 failed");
      const passed = await waitUntil(
        session,
        "return [...document.querySelectorAll('[data-testid=\"suite-case\"]')].map((c) => c.dataset.passed);",
        (flags) => flags.every((flag) => flag !== undefined),
        "each case's result",
      );
      assert.deepEqual(passed, ["true", "false"]);
      const unmet = await waitFor(
        session,
        '[data-testid="suite-case"][data-case="one call is not enough"] [data-testid="suite-unmet"]',
      );
      assert.ok(cli.some((line) => line.trim() === unmet.trim()), `${unmet} is one of:\n${cli.join("\n")}`);
      // A failed case shows its lanes at once: a column per run and the baseline.
      const columns = await waitUntil(
        session,
        `const table = document.querySelector('[data-testid="suite-case"][data-case="one call is not enough"] [data-testid="suite-case-counters"] table');
         return table === null ? null : [...table.querySelectorAll('thead th')].map((th) => th.textContent);`,
        (headings) => Array.isArray(headings) && headings.length > 0,
        "the failed case's counters",
      );
      assert.ok(columns.some((h) => /dynamic/i.test(h)) && columns.some((h) => /deferred/i.test(h)), columns.join(" | "));
      const fits = await webdriver("POST", `/session/${session}/execute/sync`, {
        script: "return document.documentElement.scrollWidth <= window.innerWidth;",
        args: [],
      });
      assert.equal(fits, true, "nothing overflows the window's width");
      await saveScreenshot(session, "suite-run-1024-dark");
    });
  });

  it("exports the open template as promptfoo and Langfuse, as `unfold export` does", async (t) => {
    const scenario = join(ROOT, "examples/lookup-first.scenario.json");
    await withApp(
      t,
      EXAMPLE,
      async (session) => {
        await resizeWindow(session, 1024, 700);
        // Started with a scenario, the app opens on the compare view; the Export menu is the editor's.
        await waitFor(session, '[data-testid="page-edit"]');
        await click(session, '[data-testid="page-edit"]');
        await waitFor(session, '[data-testid="preview-markdown"]');
        // At 1024 px the file actions, Export among them, fold into the File menu.
        await click(session, '[data-testid="file-menu-button"]');
        await click(session, '[data-testid="export-menu-button"]');
        await click(session, '[data-testid="export-promptfoo"]');
        const listed = await waitUntil(
          session,
          "return [...document.querySelectorAll('[data-testid=\"export-scenario\"]')].map((s) => s.dataset.path);",
          (paths) => Array.isArray(paths) && paths.length === 1,
          "the open scenario listed in the dialog",
        );
        assert.deepEqual(listed, [scenario]);
        await saveScreenshot(session, "export-promptfoo-1024-dark");
        const written = join(workDir, "app.promptfooconfig.json");
        const langfuse = join(workDir, "app.langfuse.json");
        const answer = await evaluateAsync(
          session,
          `const [template, scenario, written, langfuse, done] = arguments;
           const invoke = window.__TAURI_INTERNALS__.invoke;
           invoke("open_document", { path: template })
             .then(({ id }) => invoke("export_template", { id, request: { format: "promptfoo", scenarios: [scenario], provider: null }, path: written })
               .then(() => invoke("export_template", { id, request: { format: "langfuse", scenarios: [], provider: null }, path: langfuse })))
             .then(() => done("ok"), (error) => done("failed: " + JSON.stringify(error)));`,
          [EXAMPLE, scenario, written, langfuse],
        );
        assert.equal(answer, "ok");
        const expected = join(workDir, "cli.promptfooconfig.json");
        unfold(["export", EXAMPLE, "--to", "promptfoo", "--scenario", scenario, "-o", expected]);
        assert.equal(readFileSync(written, "utf8"), readFileSync(expected, "utf8"));
        const expectedLangfuse = join(workDir, "cli.langfuse.json");
        unfold(["export", EXAMPLE, "--to", "langfuse", "-o", expectedLangfuse]);
        assert.equal(readFileSync(langfuse, "utf8"), readFileSync(expectedLangfuse, "utf8"));
      },
      scenario,
    );
  });

  it("exports a kept run's trace from the History", async (t) => {
    const scenario = join(ROOT, "examples/read-context-then-search.scenario.json");
    await withApp(
      t,
      EXAMPLE,
      async (session) => {
        await runComparison(session);
        await click(session, '[data-testid="page-history"]');
        const restartId = await waitFor(
          session,
          '[data-testid="history-group"] [data-testid="history-row"][data-lane="restart"]',
          "return arguments[0].dataset.id;",
        );
        await click(session, `[data-testid="history-row"][data-id="${restartId}"] td`);
        await waitFor(session, '[data-testid="history-export-trace"]');
        const trace = join(workDir, "restart.otlp.jsonl");
        const answer = await evaluateAsync(
          session,
          `const [trace, done] = arguments;
           const invoke = window.__TAURI_INTERNALS__.invoke;
           const id = Number(document.querySelector('[data-testid="history-row"][aria-selected="true"]').dataset.id);
           invoke("export_run_trace", { id, path: trace }).then(() => done("ok"), (e) => done("failed: " + JSON.stringify(e)));`,
          [trace],
        );
        assert.equal(answer, "ok");
        const line = JSON.parse(readFileSync(trace, "utf8").trim());
        const spans = line.resourceSpans[0].scopeSpans[0].spans;
        assert.equal(spans[0].name, "invoke_agent task-executor");
        const lane = spans[0].attributes.find((a) => a.key === "unfold.lane");
        assert.equal(lane.value.stringValue, "restart");
        assert.ok(spans.some((s) => s.name.startsWith("chat ")));
        assert.ok(spans[0].events.some((e) => e.name === "unfold.restart"));
      },
      scenario,
    );
  });
});
