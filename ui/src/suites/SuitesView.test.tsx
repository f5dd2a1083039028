// Renders SuitesView in happy-dom over the FakePlatform's suite files (testing/suites.ts): the empty
// state and its Open suite…, the cases an open lists (name, template → scenario, adapters), a failed
// open's problems with the suite shown before kept, Run suite while it runs, and after it the
// summary, each case's result in words, its time, its expectations not met, why it could not run,
// and its lanes' counters behind Show lanes (open for a failed case); a second run replaces the
// results and another suite forgets them.
import { act } from "react";
import type { Root } from "react-dom/client";
import { describe, expect, it } from "vitest";
import { FakePlatform } from "../testing/fakePlatform";
import { BROKEN_PATH, brokenSuite, REGRESSIONS_PATH, regressionsSuite } from "../testing/suites";
import { mountEachTest } from "../testing/testRoot";
import { SuiteStore } from "./store";
import { SuitesView } from "./SuitesView";
import { all, byTestId, click, none, settle } from "../testing/dom";

let container: HTMLDivElement;
let root: Root;

mountEachTest((mounted) => {
  ({ container, root } = mounted);
});

function render(): FakePlatform {
  const platform = new FakePlatform();
  platform.suites.set(REGRESSIONS_PATH, regressionsSuite());
  platform.suites.set(BROKEN_PATH, brokenSuite());
  const store = new SuiteStore(platform);
  act(() => {
    root.render(<SuitesView store={store} />);
  });
  return platform;
}

function suiteCase(name: string): HTMLElement {
  return byTestId(`suite-case"][data-case="${name}`);
}

/** Opens the suite at `path` as the user does: Open suite…, then the file in the dialog. */
async function openSuite(platform: FakePlatform, path: string): Promise<void> {
  platform.chosenPath = path;
  await click(byTestId("suite-open"));
}

async function openAndRun(): Promise<FakePlatform> {
  const platform = render();
  await openSuite(platform, REGRESSIONS_PATH);
  await click(byTestId("suite-run"));
  return platform;
}

describe("SuitesView", () => {
  it("says what a suite is until one is open, and opens one from the dialog", async () => {
    const platform = render();
    expect(container.textContent).toContain(
      "A suite (*.suite.json) lists cases: a template, a scenario, the adapters to compare and what to expect of each run",
    );
    expect(none("suite-run")).toBe(true);
    await openSuite(platform, REGRESSIONS_PATH);
    expect(platform.argsOf("chooseFile")).toEqual([["open_suite", null]]);
    expect(byTestId("suite-path").getAttribute("title")).toBe(REGRESSIONS_PATH);
    expect(all("suite-case").map((item) => item.dataset.case)).toEqual([
      "lookup-first",
      "lookup-first-deferred",
      "restart-budget",
    ]);
    const deferred = suiteCase("lookup-first-deferred");
    expect(deferred.textContent).toContain("../task.unfold.json → ../lookup-first.scenario.json");
    expect([...deferred.querySelectorAll(".suite-adapter")].map((tag) => tag.textContent)).toEqual([
      "dynamic",
      "deferred",
    ]);
    // Not run yet: no result, no summary.
    expect(deferred.dataset.passed).toBeUndefined();
    expect(none("suite-summary")).toBe(true);
  });

  it("lists a failed open's problems and keeps the suite shown before", async () => {
    const platform = render();
    await openSuite(platform, REGRESSIONS_PATH);
    const problems = [{ location: "/cases/1/adapters/0", message: '"fast" is not an adapter' }];
    platform.failures.set("openSuite", { code: "invalid_request", message: "bad.suite.json: 1 problem", problems });
    await openSuite(platform, "/t/bad.suite.json");
    expect(byTestId("suite-failure").textContent).toContain("The suite was not opened");
    expect(byTestId("suite-failure-problems").textContent).toBe('/cases/1/adapters/0 "fast" is not an adapter');
    expect(byTestId("suite-path").getAttribute("title")).toBe(REGRESSIONS_PATH);
    expect(all("suite-case")).toHaveLength(3);
  });

  it("says Running… and cannot run again until the run ends", async () => {
    const platform = render();
    await openSuite(platform, REGRESSIONS_PATH);
    platform.holdSuite = true;
    await click(byTestId("suite-run"));
    const run = byTestId("suite-run") as HTMLButtonElement;
    expect(run.textContent).toBe("Running…");
    expect(run.disabled).toBe(true);
    expect(byTestId("suite-running").textContent).toContain("cannot be stopped");
    act(() => {
      platform.releaseSuite();
    });
    await settle();
    expect(run.textContent).toBe("Run suite");
    expect(run.disabled).toBe(false);
    expect(none("suite-running")).toBe(true);
  });

  it("sums up a run, and gives each case its result in words and its time", async () => {
    await openAndRun();
    expect(byTestId("suite-summary").textContent).toBe("3 cases: 2 passed, 1 failed");
    const results = all("suite-case-result");
    expect(results.map((result) => [result.dataset.passed, result.textContent])).toEqual([
      ["true", "passed"],
      ["true", "passed"],
      ["false", "failed"],
    ]);
    expect(suiteCase("restart-budget").dataset.passed).toBe("false");
    expect(byTestId("suite-case-took", suiteCase("lookup-first")).textContent).toBe("41 ms");
  });

  it("lists every expectation of a case, and after a run whether each held", async () => {
    await openAndRun();
    const lines = (name: string) =>
      all("suite-expectation", suiteCase(name)).map((line) => [line.dataset.held, line.textContent]);
    expect(byTestId("suite-expectations", suiteCase("restart-budget")).querySelector("summary")?.textContent).toBe(
      "Expectations (3)",
    );
    expect(lines("restart-budget")).toEqual([
      ["true", "restart status: completed — held"],
      ["false", "restart model_calls: at most 3 — not held: saw 4"],
      ["true", "divergence: restart — held"],
    ]);
    expect(lines("lookup-first").map(([held]) => held)).toEqual(["true", "true", "true"]);
  });

  it("lists each expectation a case did not meet", async () => {
    await openAndRun();
    expect(all("suite-unmet", suiteCase("restart-budget")).map((line) => line.textContent)).toEqual([
      "restart model_calls: expected at most 3, saw 4",
    ]);
    expect(all("suite-unmet", suiteCase("lookup-first"))).toEqual([]);
  });

  it("shows a failed case's lanes from the start, and another's on Show lanes", async () => {
    await openAndRun();
    const failed = suiteCase("restart-budget");
    expect(byTestId("suite-case-lanes", failed).getAttribute("aria-expanded")).toBe("true");
    // The compare view's counters: a column per run, the baseline's too.
    const counters = byTestId("counters", byTestId("suite-case-counters", failed));
    expect(byTestId("status-restart", counters).textContent).toBeTruthy();

    const passed = suiteCase("lookup-first");
    const toggle = byTestId("suite-case-lanes", passed);
    expect(toggle.textContent).toBe("Show lanes");
    expect(none("suite-case-counters", passed)).toBe(true);
    await click(toggle);
    expect(toggle.textContent).toBe("Hide lanes");
    expect(byTestId("counters", passed)).toBeTruthy();
    await click(toggle);
    expect(none("suite-case-counters", passed)).toBe(true);
  });

  it("says why a case could not run, with no lanes to show", async () => {
    const platform = render();
    await openSuite(platform, BROKEN_PATH);
    await click(byTestId("suite-run"));
    const gone = suiteCase("gone");
    expect(byTestId("suite-case-error", gone).textContent).toContain("../gone.scenario.json: cannot read");
    expect(byTestId("suite-case-result", gone).textContent).toBe("failed");
    expect(none("suite-case-lanes", gone)).toBe(true);
    expect(none("suite-case-took", gone)).toBe(true);
  });

  it("replaces the results when it runs again, and forgets them when another suite opens", async () => {
    const platform = await openAndRun();
    const fixed = regressionsSuite();
    fixed.results = fixed.results.map((result) => ({ ...result, passed: true, unmet: [] }));
    platform.suites.set(REGRESSIONS_PATH, fixed);
    await click(byTestId("suite-run"));
    expect(byTestId("suite-summary").textContent).toBe("3 cases: 3 passed, 0 failed");
    expect(all("suite-unmet")).toEqual([]);

    await openSuite(platform, BROKEN_PATH);
    expect(none("suite-summary")).toBe(true);
    expect(none("suite-case-result")).toBe(true);
    expect(all("suite-case").map((item) => item.dataset.case)).toEqual(["gone"]);
  });
});
