// runs.ts over the example history (lookup-first's dynamic, restart and baseline runs kept as scripted
// runs 1 to 3; a live dynamic run 4 and a live restart run 5 that could not reach its provider): the
// filter the backend is asked with, a row's words, how a run ended, counters beside a baseline's,
// and kept runs as the Timeline's lanes with the first divergence in them.
import { describe, expect, it } from "vitest";
import type { RunComparison, StoredRun } from "../platform";
import { exampleHistory, lookupFirstReport } from "../testing/fakeCompare";
import {
  ANY_RUN,
  durationText,
  HISTORY_LIMIT,
  isAnyRun,
  outcomeOf,
  pairCounterRows,
  pairDivergencePlaces,
  pairDivergenceText,
  pairLanes,
  ranWith,
  runFilterOf,
  runLanes,
  runName,
  tokensText,
} from "./runs";

function kept(id: number): StoredRun {
  const run = exampleHistory().find((r) => r.id === id);
  if (run === undefined) throw new Error(`no run ${String(id)}`);
  return run;
}

describe("runFilterOf", () => {
  it("asks for every run, the newest HISTORY_LIMIT, when nothing is set", () => {
    expect(runFilterOf(ANY_RUN)).toEqual({ limit: HISTORY_LIMIT });
    expect(HISTORY_LIMIT).toBe(200);
    expect(isAnyRun(ANY_RUN)).toBe(true);
  });

  it("sends the fields that are set, text trimmed; blank text is any", () => {
    const filter = { template: " task-executor ", provider: "  ", adapter: "restart", status: "error", source: "live" } as const;
    expect(runFilterOf(filter)).toEqual({ template: "task-executor", adapter: "restart", status: "error", source: "live", limit: 200 });
    expect(isAnyRun(filter)).toBe(false);
    expect(isAnyRun({ ...ANY_RUN, provider: "   " })).toBe(true);
  });
});

describe("a run's row", () => {
  it("names a scripted run by its scenario and lane, a live one by its provider and model", () => {
    expect(ranWith(kept(3))).toBe("lookup-first [baseline]");
    expect(ranWith(kept(4))).toBe("local (qwen3)");
    expect(ranWith({ ...kept(4), model: null })).toBe("local");
    expect(ranWith({ ...kept(1), lane: null })).toBe("lookup-first");
  });

  it("writes durations, tokens and the run's name", () => {
    expect(durationText(45)).toBe("45 ms");
    expect(durationText(8_420)).toBe("8.4 s");
    expect(durationText(125_000)).toBe("2 min 5 s");
    expect(durationText(null)).toBe("—");
    expect(tokensText(kept(1).counters)).toBe("1,197 + 25");
    expect(runName(kept(2))).toBe("run 2");
    expect(runName({ id: null })).toBe("run");
  });
});

describe("outcomeOf", () => {
  it("is the final answer, else the error the run's end recorded, else none", () => {
    expect(outcomeOf(kept(1))).toEqual({ kind: "final", text: "Fixed the login flow." });
    expect(outcomeOf(kept(5))).toEqual({ kind: "error", text: "http://127.0.0.1:11434/v1: connection refused" });
    const stopped = kept(1);
    const events = stopped.report.events.filter((event) => event.type !== "run_completed");
    expect(outcomeOf({ ...stopped, report: { ...stopped.report, final: null, events } })).toEqual({ kind: "none" });
  });
});

describe("pairCounterRows", () => {
  it("puts each counter of the run beside the baseline's, with run minus baseline", () => {
    const rows = pairCounterRows(kept(3).counters, kept(2).counters);
    expect(rows.find((row) => row.key === "model_calls")).toEqual({ key: "model_calls", label: "Model calls", baseline: 3, run: 5, delta: 2 });
    expect(rows.find((row) => row.key === "prompt_tokens")?.delta).toBe(1348 - 664);
    expect(rows).toHaveLength(8);
  });
});

describe("kept runs as lanes", () => {
  it("draws one run in the lane of its adapter, named after the run", () => {
    const { run, labels } = runLanes(kept(2));
    expect(run.lanes).toEqual(["restart"]);
    expect(run.events.restart).toEqual(kept(2).report.events);
    expect(run.status).toBe("finished");
    expect(labels).toEqual({ restart: { name: "run 2", note: "restart adapter, scripted" } });
  });

  it("draws a pair as the baseline lane first, then the run under its adapter", () => {
    const { run, labels } = pairLanes(kept(1), kept(2));
    expect(run.lanes).toEqual(["baseline", "restart"]);
    expect(run.events.baseline).toHaveLength(kept(1).report.events.length);
    expect(labels.baseline?.name).toBe("run 1");
    expect(labels.restart?.name).toBe("run 2");
  });

  it("finds the first divergence's events in those lanes, or says there is none", () => {
    const report = lookupFirstReport();
    const divergence = report.divergence;
    if (divergence === null) throw new Error("the report has a divergence");
    const comparison: RunComparison = { baseline: kept(1), run: kept(2), divergence };
    expect(pairDivergencePlaces(comparison)).toEqual([{ lane: "restart", seq: 6 }]);
    expect(pairDivergenceText(comparison)).toBe("restart at call 2 discarded lookup(7); it was redone at call 3");
    const first = divergence.first;
    if (first === null) throw new Error("the report has a first divergence");
    const both = { ...comparison, divergence: { ...divergence, first: { ...first, left_at: { seq: 3, attempt: 1, call_index: 2 } } } };
    expect(pairDivergencePlaces(both)).toEqual([
      { lane: "baseline", seq: 3 },
      { lane: "restart", seq: 6 },
    ]);
    const none = { ...comparison, divergence: { ...divergence, first: null } };
    expect(pairDivergencePlaces(none)).toEqual([]);
    expect(pairDivergenceText(none)).toMatch(/^none/);
  });
});
