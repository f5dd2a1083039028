// SuiteStore over the FakePlatform's suite files (testing/suites.ts: regressions, whose third case
// fails one expectation; broken, whose one case could not run): what the dialog and the backend are
// asked, the cases an open lists, a failed open that keeps the suite shown before, a run's results
// with the failed cases' lanes shown, a run whose suite was replaced meanwhile, and the words of the
// summary and of an expectation not met.
import { describe, expect, it } from "vitest";
import { FakePlatform } from "../testing/fakePlatform";
import { BROKEN_PATH, brokenSuite, REGRESSIONS_PATH, regressionsSuite } from "../testing/suites";
import { resultOf, SuiteStore, summaryText, unmetText } from "./store";

function withSuites(): FakePlatform {
  const platform = new FakePlatform();
  platform.suites.set(REGRESSIONS_PATH, regressionsSuite());
  platform.suites.set(BROKEN_PATH, brokenSuite());
  return platform;
}

async function opened(path = REGRESSIONS_PATH): Promise<{ platform: FakePlatform; store: SuiteStore }> {
  const platform = withSuites();
  const store = new SuiteStore(platform);
  platform.chosenPath = path;
  await store.open();
  return { platform, store };
}

const caseNames = (store: SuiteStore) => store.getState().cases.map((suiteCase) => suiteCase.name);

describe("SuiteStore", () => {
  it("asks for a suite file, starting at the one open, and lists its cases", async () => {
    const { platform, store } = await opened();
    expect(platform.argsOf("chooseFile")).toEqual([["open_suite", null]]);
    expect(platform.argsOf("openSuite")).toEqual([[REGRESSIONS_PATH]]);
    expect(store.getState().path).toBe(REGRESSIONS_PATH);
    expect(caseNames(store)).toEqual(["lookup-first", "lookup-first-deferred", "restart-budget"]);

    platform.chosenPath = BROKEN_PATH;
    await store.open();
    expect(platform.argsOf("chooseFile").at(-1)).toEqual(["open_suite", REGRESSIONS_PATH]);
    expect(caseNames(store)).toEqual(["gone"]);
  });

  it("does nothing when the dialog is cancelled", async () => {
    const { platform, store } = await opened();
    platform.chosenPath = null;
    await store.open();
    expect(platform.argsOf("openSuite")).toHaveLength(1);
    expect(store.getState().path).toBe(REGRESSIONS_PATH);
  });

  it("keeps the suite shown before when another cannot be opened, and says why with every problem", async () => {
    const { platform, store } = await opened();
    await store.run();
    const problems = [{ location: "/cases/0/scenario", message: "missing required field" }];
    platform.failures.set("openSuite", { code: "invalid_request", message: "bad.suite.json: 1 problem", problems });
    platform.chosenPath = "/t/bad.suite.json";
    await store.open();
    const state = store.getState();
    expect(state.failure).toEqual({ title: "The suite was not opened", detail: "1 problem, at its place:", problems });
    expect(state.path).toBe(REGRESSIONS_PATH);
    expect(caseNames(store)).toHaveLength(3);
    expect(state.results).toHaveLength(3);
  });

  it("runs the open suite and shows the lanes of the failed cases that ran", async () => {
    const { platform, store } = await opened();
    await store.run();
    expect(platform.argsOf("runSuite")).toEqual([[REGRESSIONS_PATH]]);
    const state = store.getState();
    expect(state.running).toBe(false);
    expect(state.results?.map((result) => result.passed)).toEqual([true, true, false]);
    expect(state.lanesShown).toEqual(["restart-budget"]);

    store.toggleLanes("lookup-first");
    store.toggleLanes("restart-budget");
    expect(store.getState().lanesShown).toEqual(["lookup-first"]);
  });

  it("shows no lanes for a failed case that has no comparison", async () => {
    const { store } = await opened(BROKEN_PATH);
    await store.run();
    expect(store.getState().results?.[0]?.error).toContain("gone.scenario.json");
    expect(store.getState().lanesShown).toEqual([]);
  });

  it("is running until the backend answers, and runs once at a time", async () => {
    const { platform, store } = await opened();
    platform.holdSuite = true;
    const run = store.run();
    expect(store.getState().running).toBe(true);
    await store.run();
    expect(platform.argsOf("runSuite")).toHaveLength(1);
    platform.releaseSuite();
    await run;
    expect(store.getState().running).toBe(false);
    expect(store.getState().results).toHaveLength(3);
  });

  it("drops the results of a run whose suite was replaced meanwhile", async () => {
    const { platform, store } = await opened();
    platform.holdSuite = true;
    const run = store.run();
    platform.chosenPath = BROKEN_PATH;
    await store.open();
    platform.releaseSuite();
    await run;
    const state = store.getState();
    expect(state.path).toBe(BROKEN_PATH);
    expect(state.running).toBe(false);
    expect(state.results).toBeNull();
  });

  it("forgets the results when another suite opens", async () => {
    const { platform, store } = await opened();
    await store.run();
    platform.chosenPath = BROKEN_PATH;
    await store.open();
    expect(store.getState().results).toBeNull();
    expect(store.getState().lanesShown).toEqual([]);
  });

  it("says why a run did not happen, keeping the cases", async () => {
    const { platform, store } = await opened();
    platform.failures.set("runSuite", {
      code: "unreadable_file",
      message: "regressions.suite.json: cannot read",
      problems: [],
    });
    await store.run();
    const state = store.getState();
    expect(state.running).toBe(false);
    expect(state.failure).toEqual({
      title: "The suite did not run",
      detail: "regressions.suite.json: cannot read",
      problems: [],
    });
    expect(caseNames(store)).toHaveLength(3);
  });
});

describe("suite words", () => {
  it("sums up a run", () => {
    const { results } = regressionsSuite();
    expect(summaryText(results)).toBe("3 cases: 2 passed, 1 failed");
    expect(summaryText(brokenSuite().results)).toBe("1 case: 0 passed, 1 failed");
  });

  it("says what was expected of a run and what it did", () => {
    expect(unmetText({ run: "restart", what: "model_calls", expected: "at most 3", seen: "4" })).toBe(
      "restart model_calls: expected at most 3, saw 4",
    );
  });

  it("finds a case's result by its suite and name", () => {
    const { cases, results } = regressionsSuite();
    const [first] = cases;
    if (first === undefined) throw new Error("the suite has cases");
    expect(resultOf(results, first)?.name).toBe("lookup-first");
    expect(resultOf(results, { ...first, suite: "other" })).toBeNull();
    expect(resultOf(null, first)).toBeNull();
  });
});
