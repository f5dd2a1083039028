// End-to-end test of a real agent host in the REAL app (the host lab, spec 13), at 1440×900 in
// light mode: the Compare page offers the installed hosts with their versions, Run asks once what
// starting the host runs, then the host's run is a lane beside the adapters, with what it listed and
// the exact request it sent. Needs `scripts/hosts.sh install` (run by scripts/test.sh). Run:
// `node --test tests/e2e/` after `cargo build -p unfold-app`.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { after, before, beforeEach, describe, it } from "node:test";
import { addRealHostLane, appHistoryJson, chooseOption, click, consentsFile, E2E_KEY, freePort, providersFile, pressRun, webdriver, workDir, ROOT, resizeWindow, saveScreenshot, sleep, startHarness, stopHarness, timelineEvents, typeInto, waitFor, waitUntil, waitForComparison, withApp } from "./harness.mjs";

const cache = process.env.UNFOLD_CACHE ?? join(homedir(), ".cache/unfold");
const HOSTS = join(cache, "hosts");
const TEMPLATE = join(ROOT, "examples/coding-agent.unfold.json");
const SCENARIO = join(ROOT, "examples/coding-agent-fix-test.scenario.json");
const FAILING_TESTS = JSON.stringify({ run_id: "tr-9", passed: 11, failed: 1 });

describe("a real agent host in the real app", () => {
  before(() => {
    // The app finds the Python hosts here (the harness passes the environment on).
    process.env.UNFOLD_HOSTS_DIR = HOSTS;
    return startHarness();
  });
  after(stopHarness);

  // Each test starts with no host allowed: what one allowed must not spare another its question.
  beforeEach(() => rmSync(consentsFile(), { force: true }));

  it("runs openai-agents beside the adapters once allowed, and shows the request it sent", async (t) => {
    assert.ok(existsSync(join(HOSTS, "openai-agents/bin/python")), `${HOSTS} is missing: run scripts/hosts.sh install`);
    await withApp(
      t,
      TEMPLATE,
      async (session) => {
        await resizeWindow(session, 1440, 900);
        const offered = await waitUntil(
          session,
          `return [...document.querySelectorAll('[data-testid="real-host-picker"] option')].map((o) => o.textContent);`,
          (list) => list.length > 1,
          "the installed real hosts offered",
        );
        assert.ok(offered.includes("openai-agents 0.24.0"), offered.join(", "));
        await addRealHostLane(session, "openai-agents");
        await pressRun(session);
        const starts = await waitFor(session, '[data-testid="run-host-starts"]');
        assert.ok(starts.includes(join(HOSTS, "openai-agents/bin/python")), starts);
        assert.ok(starts.includes("env: HOME={run}/home"), starts);
        await sleep(300); // a frame for WebKit to paint the dialog into the screenshot
        await saveScreenshot(session, "real-host-question-1440-light");
        await click(session, '[data-testid="run-hosts-allow"]');
        await waitForComparison(session);
        const events = await timelineEvents(session);
        const of = (type) => events.filter((e) => e.startsWith(`real:openai-agents ${type}`));
        assert.ok(of("tools_listed").length >= 2, events.join("\n"));
        assert.equal(of("model_call").length, 6, events.join("\n"));
        assert.match(of("tools_injected")[0] ?? "", /apply_patch/, events.join("\n"));
        await saveScreenshot(session, "real-host-compare-1440-light");
        await resizeWindow(session, 1024, 700);
        await sleep(300); // a frame for WebKit to lay the narrower window out
        await saveScreenshot(session, "real-host-compare-1024-light");

        // Its first model call's detail is the Responses request openai-agents sent.
        await click(session, '[data-testid="timeline-event"][data-lane="real:openai-agents"][data-type="model_call"]');
        const system = await waitUntil(
          session,
          "return document.querySelector('[data-testid=\"detail-system\"]')?.textContent ?? null;",
          (text) => text !== null,
          "the host's request's system prompt",
        );
        assert.match(system, /^## 1 Task\n\nYou are a software engineer/, system);

        // Forked where it ran the tests, with a failing result: the host runs again, answered
        // as recorded up to there, and the fork is kept as the host run's child.
        const runTests = await waitUntil(
          session,
          `const event = [...document.querySelectorAll('[data-testid="timeline-event"][data-lane="real:openai-agents"][data-type="tool_call"]')]
             .find((e) => e.textContent.includes("run_tests"));
           return event === undefined ? null : event.dataset.seq;`,
          (seq) => seq !== null,
          "the host's run_tests call",
        );
        await click(session, `[data-testid="timeline-event"][data-lane="real:openai-agents"][data-seq="${runTests}"]`);
        await click(session, '[data-testid="fork-from-here"]');
        await waitFor(session, '[data-testid="fork-dialog"]');
        const callId = await waitUntil(
          session,
          "return document.querySelector('[data-testid=\"fork-call\"] option:nth-child(2)')?.value ?? null;",
          (value) => value !== null,
          "the run_tests call offered",
        );
        await chooseOption(session, '[data-testid="fork-call"]', callId);
        await waitFor(session, '[data-testid="fork-result"]');
        await webdriver("POST", `/session/${session}/execute/sync`, {
          script: "document.querySelector('[data-testid=\"fork-result\"]').select(); return true;",
          args: [],
        });
        await typeInto(session, '[data-testid="fork-result"]', FAILING_TESTS);
        await click(session, '[data-testid="fork-run"]');
        const fork = await waitFor(session, '[data-testid="history-fork"]');
        assert.match(fork, new RegExp(`^Fork of run \\d+ at event ${runTests}`), fork);
        await saveScreenshot(session, "real-host-fork-1024-light");
        const parent = Number(/^Fork of run (\d+)/.exec(fork)[1]);
        const child = appHistoryJson(["history", "--json", "--limit", "20"]).find((run) => run.forked_from?.run === parent);
        assert.equal(child?.lane, "real:openai-agents");
        const childEvents = appHistoryJson(["history", "show", String(child.id), "--json"]).report.events;
        const given = childEvents.find((e) => e.type === "tool_call" && e.name === "run_tests");
        assert.deepEqual(given.result, JSON.parse(FAILING_TESTS));
      },
      SCENARIO,
    );
  });

  it("repeats a comparison with openai-agents as a lane into a study, the host's runs dots like the adapters'", async (t) => {
    const REPEAT = 3;
    await withApp(
      t,
      TEMPLATE,
      async (session) => {
        await addRealHostLane(session, "openai-agents");
        // What Repeat holds is selected, so the typing replaces it.
        await webdriver("POST", `/session/${session}/execute/sync`, {
          script: "document.querySelector('[data-testid=\"study-repeat\"]').select(); return true;",
          args: [],
        });
        await typeInto(session, '[data-testid="study-repeat"]', String(REPEAT));
        await pressRun(session);
        // The host starts only once allowed, as for a single comparison.
        await waitFor(session, '[data-testid="run-host-starts"]');
        await click(session, '[data-testid="run-hosts-allow"]');
        const shown = await waitUntil(
          session,
          `const text = (id) => [...document.querySelectorAll('[data-testid="' + id + '"]')].map((e) => e.textContent);
           return {
             verdicts: text("study-verdict"),
             dots: Object.fromEntries([...document.querySelectorAll('[data-testid="study-row"]')]
               .map((row) => [row.dataset.lane, row.querySelectorAll('[data-testid="study-dot"]').length])),
           };`,
          (value) => value.verdicts.length > 0,
          "the study's verdicts",
        );
        assert.equal(shown.dots["real:openai-agents"], REPEAT, JSON.stringify(shown));
        assert.ok(Object.values(shown.dots).every((dots) => dots === REPEAT), JSON.stringify(shown));
        assert.ok(shown.verdicts.some((verdict) => verdict.includes("real:openai-agents")), shown.verdicts.join("\n"));
        await saveScreenshot(session, "study-real-host");
      },
      SCENARIO,
    );
  });

  it("probes hosts from the Hosts page, shows the matrix, and opens a probe run on the History page", async (t) => {
    await withApp(t, null, async (session) => {
      await resizeWindow(session, 1440, 900);
      await click(session, '[data-testid="page-hosts"]');
      await waitFor(session, '[data-testid="probe-host"][data-name="codex"]');
      // Probe two hosts, two runs each: the others are left out.
      await waitUntil(
        session,
        `for (const box of document.querySelectorAll('[data-testid="probe-host"] input')) {
           const wanted = ["openai-agents", "codex"].includes(box.closest('[data-testid="probe-host"]').dataset.name);
           if (box.checked !== wanted) box.click();
         }
         const runs = document.querySelector('[data-testid="probe-runs"]');
         Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value").set.call(runs, "2");
         runs.dispatchEvent(new Event("input", { bubbles: true }));
         return document.querySelector('[data-testid="probe-start"]').title;`,
        (title) => title === "Probe openai-agents, codex, 2 runs each",
        "two hosts chosen, two runs each",
      );
      await click(session, '[data-testid="probe-start"]');
      // No host is allowed yet (beforeEach): both are asked about first.
      await click(session, '[data-testid="run-hosts-allow"]');
      const visible = await waitUntil(
        session,
        `return [...document.querySelectorAll('[data-testid="probe-row"]')].map((row) => row.dataset.host + ": " + row.querySelector('[data-testid="probe-visible"]').textContent);`,
        (rows) => rows.length === 2,
        "the matrix",
      );
      assert.deepEqual(visible, ["openai-agents: next call 2", "codex: never 2"]);
      await saveScreenshot(session, "hosts-probe-1440-light");
      await resizeWindow(session, 1024, 700);
      await sleep(300); // a frame for WebKit to lay the narrower window out
      await saveScreenshot(session, "hosts-probe-1024-light");

      // Codex's second run, on the History page's timeline: it never saw open_vault.
      await click(session, '[data-testid="probe-row"][data-host="codex"] [data-testid="probe-run"]:last-child');
      const events = await waitUntil(
        session,
        `return [...document.querySelectorAll('[data-testid="timeline-event"]')].map((e) => e.dataset.type + " " + e.textContent);`,
        (list) => list.length > 0,
        "the probe run's timeline",
      );
      assert.ok(events.some((event) => event.includes("open_vault not called")), events.join("\n"));
    });
  });

  it("runs Claude Code against a live comparison's model: the model a real server, the key kept out", async (t) => {
    // The real model: a model server on this machine (Unfold's scripted one, in its own process).
    const port = await freePort();
    const server = spawn("cargo", ["run", "-q", "-p", "unfold-cli", "--", "model", "serve", SCENARIO, "--port", String(port)], {
      cwd: ROOT,
      detached: true,
      stdio: ["ignore", "pipe", "inherit"],
    });
    t.after(() => process.kill(-server.pid, "SIGKILL"));
    await new Promise((resolve, reject) => {
      server.stdout.on("data", (chunk) => String(chunk).includes("listening") && resolve());
      server.on("exit", (code) => reject(new Error(`unfold model serve exited with ${code}`)));
    });
    const profile = { name: "up", kind: "anthropic", base_url: `http://127.0.0.1:${port}/v1`, model: "real-model-7", api_key_env: "UNFOLD_E2E_KEY" };
    writeFileSync(providersFile(), JSON.stringify({ schema_version: 1, kind: "unfold.providers", profiles: [profile] }));
    await withApp(
      t,
      TEMPLATE,
      async (session) => {
        await waitFor(session, '[data-testid="comparison-model"] option[value="live:up"]');
        await webdriver("POST", `/session/${session}/execute/sync`, {
          script: `const select = document.querySelector('[data-testid="comparison-model"]');
            Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, "value").set.call(select, "live:up");
            select.dispatchEvent(new Event("change", { bubbles: true }));
            return true;`,
          args: [],
        });
        await waitFor(session, '[data-testid="live-note"]');
        await addRealHostLane(session, "claude-code");
        await pressRun(session);
        // No host is allowed yet (beforeEach): Claude Code is asked about first.
        await click(session, '[data-testid="run-hosts-allow"]');
        await waitForComparison(session);
        const events = await timelineEvents(session);
        const reads = events.filter((e) => e.startsWith("real:claude-code tool_call") && e.includes("read_section"));
        assert.equal(reads.length, 2, events.join("\n"));
        assert.ok(!readdirSync(workDir, { recursive: true }).some((file) => {
          const path = join(workDir, String(file));
          try {
            return statSync(path).isFile() && readFileSync(path).includes(E2E_KEY);
          } catch {
            return false;
          }
        }), "the key is in no file");
      },
      SCENARIO,
    );
  });

  it("runs Claude Code and Codex as lanes on the coding-agent example, each named with its version", async (t) => {
    for (const cli of ["claude-code", "codex"]) {
      assert.ok(existsSync(join(HOSTS, cli)), `${HOSTS}/${cli} is missing: run scripts/hosts.sh install`);
    }
    await withApp(
      t,
      TEMPLATE,
      async (session) => {
        await resizeWindow(session, 1440, 900);
        await addRealHostLane(session, "claude-code");
        await addRealHostLane(session, "codex");
        await pressRun(session);
        // One question for both hosts: what each starts.
        const asked = await waitUntil(
          session,
          `return [...document.querySelectorAll('[data-testid="run-host"]')].map((host) => host.dataset.name);`,
          (names) => names.length > 0,
          "the hosts asked about",
        );
        assert.deepEqual(asked, ["claude-code", "codex"]);
        assert.equal(await waitFor(session, "#run-hosts-title"), "Start 2 agent hosts?");
        await click(session, '[data-testid="run-hosts-allow"]');
        await waitForComparison(session);
        const events = await timelineEvents(session);
        for (const cli of ["claude-code", "codex"]) {
          const calls = events.filter((e) => e.startsWith(`real:${cli} model_call`));
          assert.ok(calls.length >= 3, `${cli}: ${events.join("\n")}`);
        }
        const notes = await waitUntil(
          session,
          `return [...document.querySelectorAll('[data-testid="lane"]')].map((lane) => lane.dataset.lane + ": " + lane.querySelector(".lane-note").textContent);`,
          (list) => list.some((line) => line.startsWith("real:codex")),
          "the lanes' notes",
        );
        assert.ok(notes.includes("real:claude-code: the real agent host, version 2.1.197"), notes.join("\n"));
        assert.ok(notes.includes("real:codex: the real agent host, version 0.171.0"), notes.join("\n"));
        await saveScreenshot(session, "real-cli-hosts-compare-1440-light");
      },
      SCENARIO,
    );
  });
});
