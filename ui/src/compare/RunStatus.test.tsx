// The run status of a finished comparison: how each run ended, with its failed tool calls (said once
// when every run ended alike, per lane when they differ), and a warning, not a success, when a run
// did not complete or a tool call failed; while it runs, the lanes under way (one, or several side by side).
import { act } from "react";
import type { Root } from "react-dom/client";
import { describe, expect, it } from "vitest";
import type { ComparisonReport } from "../platform";
import { lookupFirstReport, reportUnder } from "../testing/fakeCompare";
import { mountEachTest } from "../testing/testRoot";
import { DivergenceLine, divergenceLines, RunStatus, runStatusText } from "./RunStatus";
import type { RunState } from "../runs/run";

let container: HTMLDivElement;
let root: Root;

mountEachTest((mounted) => {
  ({ container, root } = mounted);
});

function finished(report: ComparisonReport): RunState {
  return {
    id: 1,
    status: "finished",
    lanes: ["dynamic", "restart", "baseline"],
    started: ["dynamic", "restart", "baseline"],
    events: { dynamic: [], restart: [], baseline: [] },
    writing: {},
    report,
    failure: null,
    inputs: "",
  };
}

/** The fixture's report with each run's (and then the baseline's) tool calls and failed ones. */
function withToolCalls(...calls: [number, number][]): ComparisonReport {
  const report = lookupFirstReport();
  const runs = [...report.runs, ...(report.baseline === null ? [] : [report.baseline])];
  runs.forEach((run, index) => {
    const [total, failed] = calls[index] ?? [run.counters.tool_calls, 0];
    run.counters = { ...run.counters, tool_calls: total, failed_tool_calls: failed };
  });
  return report;
}

function rendered(run: RunState, outOfDate = false): HTMLElement {
  act(() => {
    root.render(<RunStatus run={run} outOfDate={outOfDate} />);
  });
  const status = container.querySelector<HTMLElement>('[data-testid="run-status"]');
  if (status === null) throw new Error("no run-status");
  return status;
}

describe("the run status of a finished comparison", () => {
  it("says the results are out of date once what they ran on changed, but not while running", () => {
    const status = rendered(finished(withToolCalls([2, 0], [3, 0], [1, 0])), true);
    expect(status.textContent).toContain("Finished: dynamic completed");
    expect(status.querySelector('[data-testid="run-out-of-date"]')?.textContent).toMatch(
      /^Out of date: the scenario or the template changed/,
    );
    expect(status.classList.contains("out-of-date")).toBe(true);
    const running = rendered({ ...finished(lookupFirstReport()), status: "running", report: null }, true);
    expect(running.querySelector('[data-testid="run-out-of-date"]')).toBeNull();
  });

  it("is a success when every run completed and no tool call failed", () => {
    const status = rendered(finished(withToolCalls([2, 0], [3, 0], [1, 0])));
    expect(status.textContent).toBe("Finished: dynamic completed, restart completed, baseline completed");
    expect(status.dataset.outcome).toBe("success");
    expect(status.classList.contains("warning")).toBe(false);
  });

  it("says once that every tool call failed when the runs all ended alike, as a warning", () => {
    const status = rendered(finished(withToolCalls([3, 3], [3, 3], [3, 3])));
    expect(status.textContent).toBe("Finished: all 3 runs completed, but 3 of 3 tool calls failed in each");
    expect(status.dataset.status).toBe("finished");
    expect(status.dataset.outcome).toBe("warning");
    expect(status.classList.contains("warning")).toBe(true);
  });

  it("says per lane how many tool calls failed when the lanes differ", () => {
    const status = rendered(finished(withToolCalls([3, 3], [4, 1], [2, 0])));
    expect(status.textContent).toBe(
      "Finished: dynamic completed, but 3 of 3 tool calls failed; restart completed, but 1 of 4 tool calls failed; baseline completed",
    );
    expect(status.dataset.outcome).toBe("warning");
  });

  it("names a host lane by its host, not by the adapter it runs under", () => {
    const report = withToolCalls([3, 0], [4, 2], [2, 0]);
    const [dynamic, restart] = report.runs;
    if (dynamic === undefined || restart === undefined) throw new Error("the fixture has two runs");
    report.runs = [dynamic, { ...restart, adapter: "dynamic", host: "codex" }];
    expect(rendered(finished(report)).textContent).toBe(
      "Finished: dynamic completed; host:codex completed, but 2 of 4 tool calls failed; baseline completed",
    );
  });

  it("counts failed tool calls of a run that stopped, and one that did not complete is a warning", () => {
    const report = withToolCalls([1, 1], [1, 0], [1, 0]);
    const dynamic = report.runs[0];
    if (dynamic === undefined) throw new Error("the fixture has a dynamic run");
    report.runs[0] = { ...dynamic, status: "loop_detected" };
    expect(runStatusText(finished(report))).toBe(
      "Finished: dynamic stopped in a loop, and 1 of 1 tool call failed; restart completed; baseline completed",
    );
    const stopped = withToolCalls([1, 0], [1, 0], [1, 0]);
    const restart = stopped.runs[1];
    if (restart === undefined) throw new Error("the fixture has a restart run");
    stopped.runs[1] = { ...restart, status: "turn_limit" };
    expect(rendered(finished(stopped)).dataset.outcome).toBe("warning");
  });
});

describe("the run status while the comparison runs", () => {
  /** A running comparison whose `started` lanes have the fixture report's events, the `ended` ones all of them. */
  function running(started: RunState["started"], ended: RunState["started"] = []): RunState {
    const report = lookupFirstReport();
    const whole: RunState["events"] = {
      dynamic: report.runs[0]?.events ?? [],
      restart: report.runs[1]?.events ?? [],
      baseline: report.baseline?.events ?? [],
    };
    const events: RunState["events"] = { dynamic: [], restart: [], baseline: [] };
    for (const lane of started) {
      const all = whole[lane] ?? [];
      events[lane] = ended.includes(lane) ? all : all.filter((event) => event.type !== "run_completed");
    }
    return { ...finished(report), status: "running", report: null, started, events };
  }

  it("names the one lane under way and its place while the lanes run in turn", () => {
    expect(runStatusText(running([]))).toBe("Starting the comparison… 0 events so far");
    expect(runStatusText(running(["dynamic"]))).toMatch(/^Running the dynamic run \(1 of 3\): \d+ events so far$/);
    expect(runStatusText(running(["dynamic", "restart"], ["dynamic"]))).toMatch(/^Running the restart run \(2 of 3\)/);
  });

  it("names every lane under way when they run side by side, until each ends", () => {
    expect(runStatusText(running(["dynamic", "restart", "baseline"]))).toMatch(
      /^Running the dynamic, restart, and baseline runs side by side: \d+ events so far$/,
    );
    expect(runStatusText(running(["dynamic", "restart", "baseline"], ["dynamic"]))).toMatch(
      /^Running the restart and baseline runs side by side/,
    );
    expect(runStatusText(running(["dynamic", "restart", "baseline"], ["dynamic", "baseline"]))).toMatch(
      /^Running the restart run \(2 of 3\)/,
    );
  });
});

describe("the first divergences", () => {
  const same = "none: the runs made the same calls with the same results and ended the same way";

  function lines(report: ComparisonReport): { text: string | null; left?: string; right?: string }[] {
    act(() => {
      root.render(<DivergenceLine report={report} />);
    });
    return [...container.querySelectorAll<HTMLElement>('[data-testid="divergence"]')].map((line) => ({
      text: line.textContent,
      ...(line.dataset.left === undefined ? {} : { left: line.dataset.left, right: line.dataset.right }),
    }));
  }

  it("keeps one pair's line as it was, and says why there is none with one run", () => {
    const report = lookupFirstReport();
    const explanation = report.divergences[0]?.first?.explanation ?? "";
    expect(lines(report)).toEqual([{ text: explanation }]);
    expect(container.textContent).toBe(`First divergence: ${explanation}`);
    expect(lines({ ...report, divergences: [{ left: "dynamic", right: "restart", first: null }] })).toEqual([
      { text: same },
    ]);
    expect(lines(reportUnder(report, ["restart"], false))).toEqual([{ text: "none: only one adapter ran" }]);
  });

  it("gives each run after the first its line against the first, named by the pair, in the runs' order", () => {
    const report = reportUnder(lookupFirstReport(), ["dynamic", "restart", "allowed_tools", "deferred"], true);
    const explanation = lookupFirstReport().divergences[0]?.first?.explanation ?? "";
    expect(divergenceLines(report)).toEqual([
      `restart against dynamic: ${explanation}`,
      `allowed tools against dynamic: ${same}`,
      `deferred against dynamic: ${same}`,
    ]);
    expect(lines(report)).toEqual([
      { text: `restart against dynamic: ${explanation}`, left: "dynamic", right: "restart" },
      { text: `allowed tools against dynamic: ${same}`, left: "dynamic", right: "allowed_tools" },
      { text: `deferred against dynamic: ${same}`, left: "dynamic", right: "deferred" },
    ]);
    expect(container.textContent).toMatch(/^First divergences:/);
  });

  it("names the first run's pairs whichever adapter ran first", () => {
    const report = reportUnder(lookupFirstReport(), ["deferred", "allowed_tools"], false);
    expect(divergenceLines(report)).toEqual([same]);
    const three = reportUnder(lookupFirstReport(), ["deferred", "allowed_tools", "dynamic"], false);
    expect(divergenceLines(three)).toEqual([
      `allowed tools against deferred: ${same}`,
      `dynamic against deferred: ${same}`,
    ]);
  });
});

describe("the run status of four adapters", () => {
  it("names the lanes in words, and counts them out of all five", () => {
    const report = reportUnder(lookupFirstReport(), ["dynamic", "restart", "allowed_tools", "deferred"], true);
    const lanes: RunState["lanes"] = ["dynamic", "restart", "allowed_tools", "deferred", "baseline"];
    const run: RunState = { ...finished(report), lanes, started: lanes };
    expect(runStatusText(run)).toBe(
      "Finished: dynamic completed, restart completed, allowed tools completed, deferred completed, baseline completed",
    );
    const events = report.runs[2]?.events.filter((event) => event.type !== "run_completed") ?? [];
    const running: RunState = {
      ...run,
      status: "running",
      report: null,
      started: ["allowed_tools"],
      events: { allowed_tools: events },
    };
    expect(runStatusText(running)).toBe(
      `Running the allowed tools run (3 of 5): ${String(events.length)} events so far`,
    );
  });
});
