// chart.ts over the lookup-first report (dynamic 205, 221, 377, 394; restart 205, 221, 291, 307,
// 324, restarting after call 2; baseline 205, 221, 238) and small hand-made series: the points and
// restarts, per call and cumulative, the layout (every call on the axis or a round step of them,
// lanes drawn apart), where lanes coincide, and the words of a point, a restart and the chart; and
// the same report priced at $1 per million prompt tokens (each call costs its tokens in millionths
// of a dollar): each call's cost matched by its index, the cost drawn only when every drawn lane's
// calls were priced, its axis, tooltips and words as money.
import { describe, expect, it } from "vitest";
import type { ComparisonReport, Lane, RunEvent } from "../platform";
import { pricedAtAMillionth, pricedLookupFirst } from "../testing/costs";
import { lookupFirstReport } from "../testing/fakeCompare";
import {
  axisTitle,
  labelledRestarts,
  andList,
  callsText,
  chartDescription,
  chartLayout,
  chartSeries,
  chartTitle,
  chartTop,
  coincidences,
  coincidenceText,
  labelledCalls,
  MAX_DODGE,
  MIN_LABEL_GAP,
  pointText,
  restartMarkText,
  valueText,
  type ChartPoint,
  type ChartSeries,
} from "./chart";
import { laneCosts, laneViews } from "./timeline";

function laneEvents(report: ComparisonReport, lane: Lane): RunEvent[] {
  return (
    (lane === "baseline" ? report.baseline?.events : report.runs.find((run) => run.adapter === lane)?.events) ?? []
  );
}

function lookupFirstSeries(report = lookupFirstReport()): ChartSeries {
  const events = (lane: Lane) => laneEvents(report, lane);
  return chartSeries(
    laneViews({ dynamic: events("dynamic"), restart: events("restart"), baseline: events("baseline") }),
    laneCosts(report),
  );
}

/** A lane's points from its prompt tokens per call, in attempt 1, none discarded, without a cost. */
function points(lane: Lane, tokens: number[]): ChartPoint[] {
  let total = 0;
  return tokens.map((t, i) => {
    total += t;
    return { lane, call: i + 1, attempt: 1, tokens: t, total, cost: null, costSoFar: null, discarded: false };
  });
}

/** A lane's points with each call's cost (the tokens made up), in attempt 1, none discarded. */
function costed(lane: Lane, costs: number[]): ChartPoint[] {
  let soFar = 0;
  return points(
    lane,
    costs.map(() => 1),
  ).map((point, i) => {
    const cost = costs[i] ?? 0;
    soFar += cost;
    return { ...point, cost, costSoFar: soFar };
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
    expect(chartSeries({})).toEqual({ points: {}, restarts: [], currency: null });
  });
});

describe("the cost of a priced comparison", () => {
  it("takes each run's cost from the report, the baseline's too, and none from a running comparison's (no report)", () => {
    const report = pricedLookupFirst();
    expect(Object.keys(laneCosts(report))).toEqual(["dynamic", "restart", "baseline"]);
    expect(laneCosts(lookupFirstReport())).toEqual({});
    expect(laneCosts(null)).toEqual({});
  });

  it("gives each call its cost, matched by call index (the discarded ones too), and the lane's cost so far", () => {
    const series = lookupFirstSeries(pricedLookupFirst());
    expect(series.currency).toBe("USD");
    const restart = series.points.restart ?? [];
    expect(restart.map((p) => [p.call, p.discarded, p.cost])).toEqual([
      [1, true, 0.000205],
      [2, true, 0.000221],
      [3, false, 0.000291],
      [4, false, 0.000307],
      [5, false, 0.000324],
    ]);
    expect(restart.at(-1)?.costSoFar).toBeCloseTo(0.001348, 12);
  });

  it("matches by call index, not by place: a call the report did not price has no cost, nor has the lane so far", () => {
    const report = pricedLookupFirst();
    const [dynamic] = report.runs;
    if (dynamic?.cost == null) throw new Error("the fixture's dynamic run is priced");
    dynamic.cost.calls = dynamic.cost.calls.filter((call) => call.call_index !== 2).reverse();
    const points = lookupFirstSeries(report).points.dynamic ?? [];
    expect(points.map((p) => [p.call, p.cost, p.costSoFar])).toEqual([
      [1, 0.000205, 0.000205],
      [2, null, null],
      [3, 0.000377, null],
      [4, 0.000394, null],
    ]);
  });

  it("has no currency to draw in unless every drawn lane was priced, each call, in one currency", () => {
    expect(lookupFirstSeries().currency).toBeNull();
    const unpricedBaseline = pricedLookupFirst();
    if (unpricedBaseline.baseline === null) throw new Error("the fixture has a baseline");
    delete unpricedBaseline.baseline.cost;
    expect(lookupFirstSeries(unpricedBaseline).currency).toBeNull();
    const callsUnpriced = pricedLookupFirst();
    const [, restart] = callsUnpriced.runs;
    if (restart?.cost == null) throw new Error("the fixture's restart run is priced");
    restart.cost.calls = [];
    expect(lookupFirstSeries(callsUnpriced).currency).toBeNull();
    const twoCurrencies = pricedLookupFirst();
    if (twoCurrencies.baseline === null) throw new Error("the fixture has a baseline");
    twoCurrencies.baseline.cost = pricedAtAMillionth(twoCurrencies.baseline.events, "EUR");
    expect(lookupFirstSeries(twoCurrencies).currency).toBeNull();
    // A live run without a baseline: the lanes drawn are the priced ones.
    const live = pricedLookupFirst();
    const events = (lane: Lane) => laneEvents(live, lane);
    const lanes = laneViews({ dynamic: events("dynamic"), restart: events("restart"), baseline: [] });
    live.baseline = null;
    expect(chartSeries(lanes, laneCosts(live)).currency).toBe("USD");
  });

  it("draws each call's cost, or the cost so far, topped by the most, with no whole-token floor", () => {
    const series = lookupFirstSeries(pricedLookupFirst());
    const perCall = chartLayout(series, "per_call", 400, 100, "cost");
    expect(perCall.maxValue).toBe(0.000394);
    expect(perCall.points.dynamic?.at(-1)?.y).toBe(0);
    expect(perCall.points.restart?.map((p) => p.value)).toEqual([0.000205, 0.000221, 0.000291, 0.000307, 0.000324]);
    const cumulative = chartLayout(series, "cumulative", 400, 100, "cost");
    expect(cumulative.maxValue).toBeCloseTo(0.001348, 12);
    expect(cumulative.points.restart?.at(-1)?.y).toBe(0);
    expect(chartTop(series, "cumulative", "cost")).toBe(cumulative.maxValue);
    // Tokens stay the default.
    expect(chartLayout(series, "per_call", 400, 100).maxValue).toBe(394);
    const free = { points: { dynamic: costed("dynamic", [0, 0]) }, restarts: [], currency: "USD" };
    expect(chartLayout(free, "per_call", 100, 50, "cost")).toMatchObject({
      maxValue: 0,
      lines: { dynamic: "0,50 100,50" },
    });
  });

  it("finds where lanes coincide in cost", () => {
    const series = {
      points: { dynamic: costed("dynamic", [0.1, 0.2]), restart: costed("restart", [0.1, 0.3]) },
      restarts: [],
      currency: "USD",
    };
    expect(coincidences(series, "per_call", "cost")).toEqual([{ lanes: ["dynamic", "restart"], calls: [1] }]);
    // Their tokens (1 a call) meet at every call.
    expect(coincidences(series, "per_call")).toEqual([{ lanes: ["dynamic", "restart"], calls: [1, 2] }]);
  });

  it("writes the cost as money: the axis, each point, the title and the chart in words", () => {
    expect(valueText(0.000394, "cost", "USD")).toBe("$0.000394");
    expect(valueText(0.12, "cost", "EUR")).toBe("0.120000 EUR");
    expect(valueText(1348, "tokens", null)).toBe("1,348");
    const series = lookupFirstSeries(pricedLookupFirst());
    const [first, , third] = series.points.restart ?? [];
    if (first === undefined || third === undefined) throw new Error("the restart lane has 5 calls");
    expect(pointText(first, "cost", "USD")).toBe(
      "restart, call 1, attempt 1 (discarded): $0.000205 (205 prompt tokens); $0.000205 so far",
    );
    expect(pointText(third, "cost", "USD")).toBe(
      "restart, call 3, attempt 2: $0.000291 (291 prompt tokens); $0.000717 so far",
    );
    expect(pointText(third)).toBe("restart, call 3, attempt 2: 291 prompt tokens; 717 so far");
    expect(pointText({ ...third, cost: null, costSoFar: null }, "cost", "USD")).toBe(
      "restart, call 3, attempt 2: no cost (291 prompt tokens)",
    );
    expect([chartTitle("per_call", "cost"), chartTitle("cumulative", "cost"), chartTitle("per_call")]).toEqual([
      "Cost per model call",
      "Cost so far, call by call",
      "Prompt tokens per model call",
    ]);
    expect(chartDescription(series, "per_call", "cost")).toBe(
      "Cost per model call. dynamic: $0.000205, $0.000221, $0.000377, $0.000394; restart: $0.000205, $0.000221, $0.000291, $0.000307, $0.000324 (restarted after call 2; calls 1–2 discarded); baseline: $0.000205, $0.000221, $0.000238.",
    );
    expect(chartDescription(series, "cumulative", "cost")).toContain(
      "Cost so far, call by call. dynamic: $0.000205, $0.000426, $0.000803, $0.001197;",
    );
  });
});

describe("chartLayout", () => {
  it("spans call 1 to the longest lane's last call, 0 to the most tokens, one lane undodged", () => {
    const layout = chartLayout(
      { points: { dynamic: points("dynamic", [100, 200]) }, restarts: [] },
      "per_call",
      100,
      50,
    );
    expect(layout.lines).toEqual({ dynamic: "0,25 100,0" });
    expect([layout.maxValue, layout.maxCalls]).toEqual([200, 2]);
    expect(layout.ticks).toEqual([
      { call: 1, x: 0, labelled: true },
      { call: 2, x: 100, labelled: true },
    ]);
  });

  it("draws equal lanes apart: each a dodge to the side, so equal values never hide each other", () => {
    const series = {
      points: {
        dynamic: points("dynamic", [10, 20]),
        restart: points("restart", [10, 20]),
        baseline: points("baseline", [10, 20]),
      },
      restarts: [],
    };
    const layout = chartLayout(series, "per_call", 100, 50);
    expect(layout.lines).toEqual({ dynamic: "-3,25 97,0", restart: "0,25 100,0", baseline: "3,25 103,0" });
    const crowded = chartLayout(
      { points: { dynamic: points("dynamic", ones(101)), restart: points("restart", ones(101)) }, restarts: [] },
      "per_call",
      100,
      50,
    );
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
    expect(
      chartLayout({ points: { dynamic: points("dynamic", [0, 0]) }, restarts: [] }, "per_call", 100, 50).lines,
    ).toEqual({ dynamic: "0,50 100,50" });
  });

  it("keeps a restart after the last call that has arrived inside the plot", () => {
    const series: ChartSeries = {
      points: { restart: points("restart", [1, 2]) },
      restarts: [{ lane: "restart", afterCall: 2, attempt: 1, reason: "tools_picked", sectionKeys: [] }],
    };
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
    expect(coincidenceText({ lanes: ["dynamic", "restart", "baseline"], calls: [1, 2] })).toBe(
      "dynamic, restart and baseline coincide at calls 1–2",
    );
  });

  it("groups calls by the lanes that meet there, and finds none when no values meet", () => {
    const series = {
      points: {
        dynamic: points("dynamic", [1, 2, 3]),
        restart: points("restart", [1, 2, 4]),
        baseline: points("baseline", [1, 5, 4]),
      },
      restarts: [],
    };
    expect(coincidences(series, "per_call")).toEqual([
      { lanes: ["dynamic", "restart", "baseline"], calls: [1] },
      { lanes: ["dynamic", "restart"], calls: [2] },
      { lanes: ["restart", "baseline"], calls: [3] },
    ]);
    expect(
      coincidences(
        { points: { dynamic: points("dynamic", [1]), restart: points("restart", [2]) }, restarts: [] },
        "per_call",
      ),
    ).toEqual([]);
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

describe("the chart's labels", () => {
  it("labels a restart only where its label does not run into the last one's", () => {
    expect(labelledRestarts([])).toEqual([]);
    expect(labelledRestarts([10, 40, 80, 200])).toEqual([true, false, true, true]);
  });

  it("titles the y axis by what it draws", () => {
    expect(axisTitle("tokens", "per_call")).toBe("prompt tokens");
    expect(axisTitle("cost", "cumulative")).toBe("cost so far");
  });
});
