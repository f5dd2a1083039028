// chart.ts over the lookup-first report (dynamic 205, 221, 377, 394; restart 205, 221, 291, 307,
// 324, restarting after call 2; baseline 205, 221, 238) and small hand-made series: the points and
// restarts, per call and cumulative, the layout (every call on the axis or a round step of them,
// lanes drawn apart), where lanes coincide, and the words of a point, a restart and the chart.
import { describe, expect, it } from "vitest";
import type { Lane } from "../platform";
import { lookupFirstReport } from "../testing/fakeCompare";
import {
  andList,
  callsText,
  chartDescription,
  chartLayout,
  chartSeries,
  coincidences,
  coincidenceText,
  labelledCalls,
  MAX_DODGE,
  MIN_LABEL_GAP,
  pointText,
  restartMarkText,
  type ChartPoint,
  type ChartSeries,
} from "./chart";
import { laneViews } from "./timeline";

function lookupFirstSeries(): ChartSeries {
  const report = lookupFirstReport();
  const events = (lane: Lane) => (lane === "baseline" ? report.baseline?.events : report.runs.find((run) => run.adapter === lane)?.events) ?? [];
  return chartSeries(laneViews({ dynamic: events("dynamic"), restart: events("restart"), baseline: events("baseline") }));
}

/** A lane's points from its prompt tokens per call, in attempt 1, none discarded. */
function points(lane: Lane, tokens: number[]): ChartPoint[] {
  let total = 0;
  return tokens.map((t, i) => {
    total += t;
    return { lane, call: i + 1, attempt: 1, tokens: t, total, discarded: false };
  });
}

/** `n` calls of 1 token each. */
const ones = (n: number) => Array.from({ length: n }, () => 1);

describe("chartSeries", () => {
  it("gives each call its tokens, the lane's total so far, its attempt and whether it was discarded", () => {
    const series = lookupFirstSeries();
    expect(series.points.restart?.map((p) => [p.call, p.attempt, p.tokens, p.total, p.discarded])).toEqual([
      [1, 1, 205, 205, true],
      [2, 1, 221, 426, true],
      [3, 2, 291, 717, false],
      [4, 2, 307, 1024, false],
      [5, 2, 324, 1348, false],
    ]);
    expect(series.points.dynamic?.at(-1)?.total).toBe(1197);
    expect(series.points.baseline?.map((p) => p.tokens)).toEqual([205, 221, 238]);
  });

  it("finds the restart lane's restart, after call 2, with its reason and sections", () => {
    expect(lookupFirstSeries().restarts).toEqual([
      { lane: "restart", afterCall: 2, attempt: 1, reason: "visibility_expansion", sectionKeys: ["context"] },
    ]);
  });

  it("has no points for lanes it was not given", () => {
    expect(chartSeries({})).toEqual({ points: {}, restarts: [] });
  });
});

describe("chartLayout", () => {
  it("spans call 1 to the longest lane's last call, 0 to the most tokens, one lane undodged", () => {
    const layout = chartLayout({ points: { dynamic: points("dynamic", [100, 200]) }, restarts: [] }, "per_call", 100, 50);
    expect(layout.lines).toEqual({ dynamic: "0,25 100,0" });
    expect([layout.maxValue, layout.maxCalls]).toEqual([200, 2]);
    expect(layout.ticks).toEqual([
      { call: 1, x: 0, labelled: true },
      { call: 2, x: 100, labelled: true },
    ]);
  });

  it("draws equal lanes apart: each a dodge to the side, so equal values never hide each other", () => {
    const series = { points: { dynamic: points("dynamic", [10, 20]), restart: points("restart", [10, 20]), baseline: points("baseline", [10, 20]) }, restarts: [] };
    const layout = chartLayout(series, "per_call", 100, 50);
    expect(layout.lines).toEqual({ dynamic: "-3,25 97,0", restart: "0,25 100,0", baseline: "3,25 103,0" });
    const crowded = chartLayout({ points: { dynamic: points("dynamic", ones(101)), restart: points("restart", ones(101)) }, restarts: [] }, "per_call", 100, 50);
    // 1 px between calls: each lane a quarter of it to the side, never more.
    expect(crowded.points.dynamic?.[0]?.x).toBe(-0.1);
    expect(MAX_DODGE).toBe(3);
  });

  it("draws the lanes' totals so far in cumulative mode, the axis topped by the largest total", () => {
    const layout = chartLayout(lookupFirstSeries(), "cumulative", 400, 100);
    expect(layout.maxValue).toBe(1348);
    expect(layout.points.restart?.map((p) => p.value)).toEqual([205, 426, 717, 1024, 1348]);
    expect(layout.points.restart?.at(-1)?.y).toBe(0);
    expect(chartLayout(lookupFirstSeries(), "per_call", 400, 100).maxValue).toBe(394);
  });

  it("labels every call of the example and puts the restart between calls 2 and 3", () => {
    const layout = chartLayout(lookupFirstSeries(), "per_call", 400, 100);
    expect(layout.ticks.map((tick) => [tick.call, tick.x, tick.labelled])).toEqual([
      [1, 0, true],
      [2, 100, true],
      [3, 200, true],
      [4, 300, true],
      [5, 400, true],
    ]);
    expect(layout.restarts.map((mark) => [mark.lane, mark.afterCall, mark.x])).toEqual([["restart", 2, 150]]);
  });

  it("centres a single call, and draws nothing without calls on an axis that still has a height", () => {
    const single = chartLayout({ points: { dynamic: points("dynamic", [10]) }, restarts: [] }, "per_call", 100, 50);
    expect([single.lines, single.maxValue, single.maxCalls]).toEqual([{ dynamic: "50,0" }, 10, 1]);
    const none = chartLayout({ points: { dynamic: [] }, restarts: [] }, "per_call", 100, 50);
    expect([none.lines, none.maxValue, none.maxCalls]).toEqual([{}, 1, 1]);
    expect(chartLayout({ points: { dynamic: points("dynamic", [0, 0]) }, restarts: [] }, "per_call", 100, 50).lines).toEqual({ dynamic: "0,50 100,50" });
  });

  it("keeps a restart after the last call that has arrived inside the plot", () => {
    const series: ChartSeries = { points: { restart: points("restart", [1, 2]) }, restarts: [{ lane: "restart", afterCall: 2, attempt: 1, reason: "tools_picked", sectionKeys: [] }] };
    expect(chartLayout(series, "per_call", 100, 50).restarts[0]?.x).toBe(100);
  });
});

describe("labelledCalls", () => {
  it("labels every call while they are a label's width apart", () => {
    expect(labelledCalls(5, 100)).toEqual([1, 2, 3, 4, 5]);
    expect(labelledCalls(1, 100)).toEqual([1]);
    expect(labelledCalls(24, 22)).toHaveLength(24);
  });

  it("thins many calls to call 1, a round step and the last call, never two labels closer than a label's width", () => {
    const spacing = 500 / 31;
    const calls = labelledCalls(32, spacing);
    expect(calls).toEqual([1, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32]);
    const many = labelledCalls(200, 500 / 199);
    expect(many.slice(0, 3)).toEqual([1, 10, 20]);
    expect(many.at(-1)).toBe(200);
    for (const list of [calls, many]) {
      const gaps = list.slice(1).map((call, i) => (call - (list[i] ?? 0)) * (list === calls ? spacing : 500 / 199));
      expect(Math.min(...gaps)).toBeGreaterThanOrEqual(MIN_LABEL_GAP);
    }
  });
});

describe("coincidences", () => {
  it("names the lanes drawn at the same value, and the calls where they are", () => {
    const series = lookupFirstSeries();
    expect(coincidences(series, "per_call")).toEqual([{ lanes: ["dynamic", "restart", "baseline"], calls: [1, 2] }]);
    expect(coincidences(series, "cumulative")).toEqual([{ lanes: ["dynamic", "restart", "baseline"], calls: [1, 2] }]);
    expect(coincidenceText({ lanes: ["dynamic", "restart", "baseline"], calls: [1, 2] })).toBe("dynamic, restart and baseline coincide at calls 1–2");
  });

  it("groups calls by the lanes that meet there, and finds none when no values meet", () => {
    const series = { points: { dynamic: points("dynamic", [1, 2, 3]), restart: points("restart", [1, 2, 4]), baseline: points("baseline", [1, 5, 4]) }, restarts: [] };
    expect(coincidences(series, "per_call")).toEqual([
      { lanes: ["dynamic", "restart", "baseline"], calls: [1] },
      { lanes: ["dynamic", "restart"], calls: [2] },
      { lanes: ["restart", "baseline"], calls: [3] },
    ]);
    expect(coincidences({ points: { dynamic: points("dynamic", [1]), restart: points("restart", [2]) }, restarts: [] }, "per_call")).toEqual([]);
  });
});

describe("words", () => {
  it("lists calls as ranges", () => {
    expect(callsText([3])).toBe("call 3");
    expect(callsText([1, 2])).toBe("calls 1–2");
    expect(callsText([1, 2, 3, 5, 7])).toBe("calls 1–3, 5 and 7");
    expect(andList(["a", "b", "c"])).toBe("a, b and c");
  });

  it("gives each point's lane, call, attempt and tokens, and says when it was discarded", () => {
    const [first, , third] = lookupFirstSeries().points.restart ?? [];
    if (first === undefined || third === undefined) throw new Error("the restart lane has 5 calls");
    expect(pointText(first)).toBe("restart, call 1, attempt 1 (discarded): 205 prompt tokens; 205 so far");
    expect(pointText(third)).toBe("restart, call 3, attempt 2: 291 prompt tokens; 717 so far");
  });

  it("says where a lane restarted and why, in words", () => {
    const [mark] = lookupFirstSeries().restarts;
    if (mark === undefined) throw new Error("the restart lane restarts");
    expect(restartMarkText(mark)).toBe("restart, after call 2: restarted to expand a section (context)");
    expect(restartMarkText({ ...mark, afterCall: 0, reason: "tool_availability_changed", sectionKeys: [] })).toBe(
      "restart, before call 1: restarted for a change of the tool list",
    );
  });

  it("describes the chart per call and cumulative, with the restart and the discarded calls", () => {
    const series = lookupFirstSeries();
    expect(chartDescription(series, "per_call")).toBe(
      "Prompt tokens per model call. dynamic: 205, 221, 377, 394; restart: 205, 221, 291, 307, 324 (restarted after call 2; calls 1–2 discarded); baseline: 205, 221, 238.",
    );
    expect(chartDescription(series, "cumulative")).toContain("restart: 205, 426, 717, 1024, 1348 (");
    expect(chartDescription({ points: {}, restarts: [] }, "per_call")).toBe("No model calls yet.");
  });
});
