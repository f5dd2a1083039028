// The study's figures as geometry: each lane's runs on one shared axis (the dots of equal values
// stacked, not drawn over each other; a lane of more than 300 runs drawn as columns of counts),
// the quartiles as numpy computes them, round ticks, and each pair's difference set against the
// A/A control's band (beyond it only when its interval leaves the band).
import { describe, expect, it } from "vitest";
import type { StudyPair, StudyReport, StudyRun } from "../platform";
import { differencePlot, DOTS_UP_TO, niceTicks, quantile, runMetric, stripPlot } from "./studyPlot";

function run(repetition: number, prompt: number, status: StudyRun["status"] = "completed"): StudyRun {
  return {
    repetition,
    status,
    counters: {
      model_calls: 2,
      restarts: 0,
      tools_injected: 0,
      dynamic_expansions: 0,
      tool_calls: 1,
      failed_tool_calls: 0,
      prompt_tokens: prompt,
      completion_tokens: 10,
    },
    cost_usd: prompt / 1e6,
    cached_tokens: 0,
    wall_ms: 100 * repetition,
  };
}

function pair(a: string, b: string, relative: [number, number, number] | null): StudyPair {
  return {
    a,
    b,
    metrics: {
      prompt_tokens: {
        mean_diff: 0,
        relative: relative?.[1] ?? null,
        ci95: [0, 0],
        relative_ci95: relative === null ? null : [relative[0], relative[2]],
      },
    },
    success: { discordant: [0, 0], mcnemar_p: 1 },
    verdict: "",
  };
}

function report(lanes: Record<string, StudyRun[]>, pairs: StudyPair[] = [], aa: StudyPair | null = null): StudyReport {
  return {
    schema_version: 1,
    kind: "unfold.study",
    template: "t",
    scenario: "s",
    repeat: 3,
    cache_fairness: "nonce",
    seed: 1,
    order: [],
    lanes: Object.entries(lanes).map(([lane, runs]) => ({
      lane,
      runs,
      summary: {
        success: { count: 0, n: runs.length, wilson95: [0, 1] },
        metrics: {},
        pass_at_k: {},
        pass_hat_k: {},
      },
    })),
    pairs,
    aa,
  };
}

describe("a study's strip plot", () => {
  it("puts every lane's runs on one axis, the greater value further right", () => {
    const plot = stripPlot(
      report({ dynamic: [run(1, 100), run(2, 300)], restart: [run(1, 600)] }),
      "prompt_tokens",
      720,
    );
    expect(plot.rows.map((row) => row.lane)).toEqual(["dynamic", "restart"]);
    const [dynamic, restart] = plot.rows;
    const x = (row: typeof dynamic, repetition: number) => row?.dots.find((d) => d.repetition === repetition)?.x ?? NaN;
    expect(x(dynamic, 1)).toBeLessThan(x(dynamic, 2));
    expect(x(dynamic, 2)).toBeLessThan(x(restart, 1));
    // The axis starts at zero and reaches the greatest value.
    expect(plot.ticks[0]?.value).toBe(0);
    expect(plot.ticks[plot.ticks.length - 1]?.value).toBeGreaterThanOrEqual(600);
  });

  it("stacks equal values instead of drawing them over each other, and marks runs that did not complete", () => {
    const plot = stripPlot(
      report({ dynamic: [run(1, 500), run(2, 500, "max_tokens"), run(3, 500)] }),
      "prompt_tokens",
      720,
    );
    const dots = plot.rows[0]?.dots ?? [];
    expect(new Set(dots.map((d) => d.x)).size).toBe(1);
    expect(new Set(dots.map((d) => d.y)).size).toBe(3);
    expect(dots.map((d) => d.completed)).toEqual([true, false, true]);
  });

  it("draws a lane of many runs as columns of counts that add up to its runs", () => {
    const many = Array.from({ length: DOTS_UP_TO + 1 }, (_, i) => run(i + 1, 100 + (i % 7)));
    const row = stripPlot(report({ dynamic: many }), "prompt_tokens", 720).rows[0];
    expect(row?.dots).toEqual([]);
    expect(row?.columns.reduce((sum, column) => sum + column.count, 0)).toBe(DOTS_UP_TO + 1);
  });

  it("leaves out runs with no value of the metric (an unpriced cost)", () => {
    const unpriced = { ...run(1, 100), cost_usd: null };
    expect(runMetric(unpriced, "cost_usd")).toBeNull();
    expect(stripPlot(report({ dynamic: [unpriced, run(2, 200)] }), "cost_usd", 720).rows[0]?.dots).toHaveLength(1);
  });
});

describe("the plot's numbers", () => {
  it("take quantiles as numpy's default does", () => {
    // numpy.quantile([1, 2, 3, 4], [0.25, 0.5, 0.75]) == [1.75, 2.5, 3.25]
    expect([0.25, 0.5, 0.75].map((p) => quantile([1, 2, 3, 4], p))).toEqual([1.75, 2.5, 3.25]);
  });

  it("choose round ticks", () => {
    expect(niceTicks(0, 780)).toEqual([0, 200, 400, 600, 800]);
    expect(niceTicks(-0.3, 0.3)).toEqual([-0.4, -0.2, 0, 0.2, 0.4]);
    expect(niceTicks(0.25, 0.25)).toEqual([0.25]);
  });
});

describe("a study's differences", () => {
  it("call a difference beyond the noise only when its interval leaves the A/A band", () => {
    const plot = differencePlot(
      report(
        {},
        [pair("restart", "dynamic", [0.05, 0.1, 0.15]), pair("deferred", "dynamic", [-0.01, 0.01, 0.03])],
        pair("dynamic", "dynamic", [-0.02, 0, 0.02]),
      ),
      "prompt_tokens",
      720,
    );
    expect(plot.bars.map((bar) => bar.beyondNoise)).toEqual([true, false]);
    expect(plot.band).not.toBeNull();
    const [from, to] = plot.band ?? [0, 0];
    expect(from).toBeLessThan(plot.zero);
    expect(to).toBeGreaterThan(plot.zero);
  });

  it("without a control, call beyond the noise an interval that leaves zero", () => {
    const plot = differencePlot(report({}, [pair("restart", "dynamic", [-0.2, -0.1, -0.05])]), "prompt_tokens", 720);
    expect(plot.band).toBeNull();
    expect(plot.bars[0]?.beyondNoise).toBe(true);
    expect(plot.bars[0]?.hi ?? Infinity).toBeLessThan(plot.zero);
  });

  it("says when a pair has no relative difference", () => {
    const plot = differencePlot(report({}, [pair("restart", "dynamic", null)]), "prompt_tokens", 720);
    expect(plot.bars[0]?.relative).toBeNull();
  });
});
