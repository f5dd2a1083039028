// End-to-end test of a template's tool sources in the REAL app (issue 12), at 1024×700 in dark mode:
// the Sources tab lists a source that runs the Python SDK test server, starts nothing until the user
// allows it in a confirmation that names the command, then lists its tools live and writes them as
// the source's snapshot. Needs `scripts/mcp-servers.sh install` (run by scripts/test.sh). Run:
// `node --test tests/e2e/` after `cargo build -p unfold-app`.
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { click, EXAMPLE, pressRun, ROOT, resizeWindow, saveScreenshot, sleep, startHarness, stopHarness, timelineEvents, waitFor, waitUntil, waitForComparison, withApp, workDir } from "./harness.mjs";

const cache = process.env.UNFOLD_CACHE ?? join(homedir(), ".cache/unfold");
const PYTHON = process.env.UNFOLD_MCP_PYTHON ?? join(cache, "mcp-venv/bin/python");
const SERVER = join(ROOT, "crates/unfold-sources/tests/servers/changing_tools.py");

/** The example with an `ide` source on `context` that runs the test server. */
function templateWithSource() {
  const doc = JSON.parse(readFileSync(EXAMPLE, "utf8"));
  doc.sources = [{ name: "ide", section: "context", mcp: { command: [PYTHON, SERVER] } }];
  const path = join(workDir, "ide.unfold.json");
  writeFileSync(path, JSON.stringify(doc, null, 2));
  return path;
}

describe("tool sources in the real app", () => {
  before(() => startHarness({ dark: true }));
  after(stopHarness);

  it("asks before starting a source, naming its command, then lists its tools live and snapshots them", async (t) => {
    assert.ok(existsSync(PYTHON), `${PYTHON} is missing: run scripts/mcp-servers.sh install`);
    const path = templateWithSource();
    await withApp(t, path, async (session) => {
      await resizeWindow(session, 1024, 700);
      await click(session, '[data-testid="tab-sources"]');
      assert.match(await waitFor(session, '[data-testid="source-permission"]'), /Not allowed/);
      await click(session, '[data-testid="allow-source"]');
      const starts = await waitFor(session, '[data-testid="allow-starts"]');
      assert.ok(starts.includes(PYTHON) && starts.includes("changing_tools.py"), starts);
      const shown = await waitUntil(
        session,
        `const box = document.querySelector('[data-testid="allow-dialog"]')?.getBoundingClientRect();
         return box ? { width: box.width, height: box.height } : null;`,
        (box) => box !== null && box.width > 0 && box.height > 0,
        "the question shown",
      );
      assert.ok(shown.width <= 1024, `the question fits the window (${shown.width} px)`);
      await sleep(300); // a frame for WebKit to paint the dialog into the screenshot
      await saveScreenshot(session, "sources-allow-1024-dark");
      await click(session, '[data-testid="allow-confirm"]');
      await waitUntil(
        session,
        `return document.querySelector('[data-testid="source-permission"]')?.textContent ?? "";`,
        (text) => /^Allowed/.test(text),
        "the source allowed",
      );
      await click(session, '[data-testid="discover-sources"]');
      const tools = await waitUntil(
        session,
        `return [...document.querySelectorAll('[data-testid="source-tool"]')].map((e) => e.textContent).join(" | ");`,
        (text) => text.includes("unlock"),
        "the tools listed live",
      );
      assert.match(tools, /huge/);
      await saveScreenshot(session, "sources", { readme: true });
      await click(session, '[data-testid="snapshot-sources"]');
      await click(session, '[data-testid="save-button"]');
      const snapshot = () => JSON.parse(readFileSync(path, "utf8")).sources[0].snapshot?.map((tool) => tool.name) ?? [];
      await waitUntil(session, "return true;", () => snapshot().length > 0, "the snapshot saved to the file");
      // The snapshot keeps the list as the server gave it; a run leaves out `lookup` (the example has its own).
      assert.deepEqual(snapshot(), ["lookup", "unlock", "fail", "crash", "huge"]);
    });
  });

  it("asks before a comparison starts a source, then shows its list change as an injection in one lane and a restart in the other", async (t) => {
    const doc = JSON.parse(readFileSync(EXAMPLE, "utf8"));
    doc.sources = [{ name: "ide", section: null, mcp: { command: [PYTHON, SERVER] } }];
    const template = join(workDir, "compare-ide.unfold.json");
    writeFileSync(template, JSON.stringify(doc, null, 2));
    const scenario = join(workDir, "ship.scenario.json");
    const script = [{ call: "unlock", args: {} }, { call: "deploy", args: { target: "prod" } }, { say: "Shipped." }];
    writeFileSync(scenario, JSON.stringify({ schema_version: 1, kind: "unfold.scenario", name: "ship", user: "Ship it.", script }));
    await withApp(
      t,
      template,
      async (session) => {
        await resizeWindow(session, 1024, 700);
        // Run asks first: the source is named with its command, then allowed and run.
        await pressRun(session);
        const starts = await waitFor(session, '[data-testid="run-source-starts"]');
        assert.ok(starts.includes(PYTHON) && starts.includes("changing_tools.py"), starts);
        await sleep(300); // a frame for WebKit to paint the dialog into the screenshot
        await saveScreenshot(session, "sources-run-question-1024-dark");
        await click(session, '[data-testid="run-sources-allow"]');
        await waitForComparison(session);
        const events = await timelineEvents(session);
        const of = (lane, type) => events.filter((e) => e.startsWith(`${lane} ${type}`));
        for (const lane of ["dynamic", "restart"]) {
          assert.match(of(lane, "tools_discovered")[0] ?? "", /tools from ide \(listed live\)/, events.join("\n"));
          assert.match(of(lane, "tool_availability_changed")[0] ?? "", /\(ide\).*\+deploy/, events.join("\n"));
        }
        assert.match(of("dynamic", "tools_injected")[0] ?? "", /deploy/, events.join("\n"));
        assert.equal(of("restart", "tools_injected").length, 0, events.join("\n"));
        assert.match(of("restart", "restart")[0] ?? "", /tool/, events.join("\n"));
        const scrolled = `document.querySelector('[data-testid="timeline-lanes"]')?.scrollIntoView(); return true;`;
        await waitUntil(session, scrolled, (done) => done === true, "the timeline in view");
        await sleep(300); // a frame for WebKit to paint the scrolled view into the screenshot
        await saveScreenshot(session, "sources-compare-1024-dark");
      },
      scenario,
    );
  });
});
