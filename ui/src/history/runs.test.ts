// runs.ts over the example history (lookup-first's dynamic, restart and all-FULL baseline runs kept as
// scripted runs 1 to 3; a live dynamic run 4 and a live restart run 5 that could not reach its
// provider) and over a history kept as the backend keeps comparisons (testHistory.ts): the filter the
// backend is asked with, the runs grouped by comparison, a row's words (the all-FULL baseline named
// as such), how a run ended, counters beside the reference run's, and kept runs as the Timeline's
// lanes with the first divergence in them.
import { describe, expect, it } from "vitest";
import type { RunComparison, StoredRun } from "../platform";
import { exampleHistory, lookupFirstReport } from "../testing/fakeCompare";
import { pricedAtAMillionth } from "../testing/costs";
import {
  ANY_RUN,
  comparisonCost,
  comparisonText,
  durationText,
  groupRuns,
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
  runKind,
  runKindTitle,
  runName,
  runTitle,
  tokensText,
  type RunGroup,
} from "./runs";
import { FIRST_COMPARISON_MS, keptHistory, listed } from "../testing/history";

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
    const filter = {
      template: " task-executor ",
      provider: "  ",
      adapter: "restart",
      status: "error",
      source: "live",
    } as const;
    expect(runFilterOf(filter)).toEqual({
      template: "task-executor",
      adapter: "restart",
      status: "error",
      source: "live",
      limit: 200,
    });
    expect(isAnyRun(filter)).toBe(false);
    expect(isAnyRun({ ...ANY_RUN, provider: "   " })).toBe(true);
  });
});

/** A group as the ids of its runs: `[8]` alone, `["comparison", 5, 6, 7]`. */
const shape = (groups: RunGroup[]) =>
  groups.map((group) =>
    group.kind === "single" ? [group.run.id] : ["comparison", ...group.runs.map((run) => run.id)],
  );

describe("comparisonCost", () => {
  const priced = (run: StoredRun, total: number | null, model = "claude-sonnet-4-5"): StoredRun => ({
    ...run,
    cost: { ...pricedAtAMillionth([]), model, priced_as: model, taken: "2026-11-01", prompt: total, total },
  });
  const runs = keptHistory().filter((run) => (run.id ?? 0) <= 3);

  it("says what a comparison's runs cost together, and how they were priced", () => {
    const cost = comparisonCost(runs.map((run, index) => priced(run, [0.0349, 0.0544, 0.1207][index] ?? 0)));
    expect(cost?.text).toBe("$0.210000 in all");
    expect(cost?.title).toBe(
      "What its runs cost together, priced as claude-sonnet-4-5: USD per million tokens, taken 2026-11-01",
    );
  });

  it("says nothing when a run was not priced, or priced otherwise: a part is not the whole", () => {
    expect(comparisonCost(runs.map((run) => ({ ...run, cost: null })))).toBeNull();
    const [first, second, third] = runs;
    if (first === undefined || second === undefined || third === undefined) throw new Error("three runs");
    expect(comparisonCost([priced(first, 0.1), priced(second, null), priced(third, 0.1)])).toBeNull();
    expect(comparisonCost([priced(first, 0.1), priced(second, 0.1, "gpt-4o-mini"), priced(third, 0.1)])).toBeNull();
  });
});

describe("groupRuns", () => {
  it("puts a comparison's three runs in one group, in lane order: dynamic, restart, all-FULL baseline", () => {
    const first = listed(keptHistory().filter((run) => (run.id ?? 0) <= 3));
    expect(first.map((run) => run.id)).toEqual([3, 2, 1]);
    const groups = groupRuns(first);
    expect(shape(groups)).toEqual([["comparison", 1, 2, 3]]);
    const [group] = groups;
    if (group?.kind !== "comparison") throw new Error("one comparison");
    expect(group.runs.map((run) => run.lane)).toEqual(["dynamic", "restart", "baseline"]);
    expect(comparisonText(group.runs)).toBe("comparison, 3 runs");
    const forked = group.runs.map((run) => ({ ...run, forked_from: { run: 12, at_seq: 4 } }));
    expect(comparisonText(forked)).toBe("fork of run 12 at event 4, 3 runs");
  });

  it("puts a comparison of any number of runs in one group: the four adapters in their order, then the all-FULL baseline", () => {
    const first = keptHistory().filter((run) => (run.id ?? 0) <= 3);
    const dynamic = first.find((run) => run.lane === "dynamic");
    if (dynamic === undefined) throw new Error("the first comparison has a dynamic run");
    const deferred: StoredRun = { ...dynamic, id: 21, lane: "deferred", adapter: "deferred" };
    const allowed: StoredRun = { ...dynamic, id: 22, lane: "allowed_tools", adapter: "allowed_tools" };
    const groups = groupRuns(listed([...first, deferred, allowed]));
    expect(shape(groups)).toEqual([["comparison", 1, 2, 22, 21, 3]]);
    const [group] = groups;
    if (group?.kind !== "comparison") throw new Error("one comparison");
    expect(group.runs.map((run) => runKind(run))).toEqual([
      "dynamic adapter",
      "restart adapter",
      "allowed tools adapter",
      "deferred adapter",
      "all-FULL baseline",
    ]);
    expect(comparisonText(group.runs)).toBe("comparison, 5 runs");
  });

  it("makes two groups of two comparisons started at different times, and leaves a live run and a replay alone, newest first", () => {
    expect(shape(groupRuns(listed(keptHistory())))).toEqual([
      [8],
      ["comparison", 5, 6, 7],
      [4],
      ["comparison", 1, 2, 3],
    ]);
  });

  it("keeps a run without a lane alone, even started with a comparison and from the same scenario", () => {
    const first = kept(1);
    const runs = keptHistory().map((run) =>
      run.id === 4
        ? { ...first, id: 4, lane: null, started_at_ms: FIRST_COMPARISON_MS, duration_ms: first.duration_ms }
        : run,
    );
    expect(shape(groupRuns(listed(runs)))).toEqual([[8], ["comparison", 5, 6, 7], [4], ["comparison", 1, 2, 3]]);
  });

  it("groups only runs that share the start, source, template, scenario and provider, each lane once", () => {
    const [dynamic, restart, baseline] = listed(keptHistory().filter((run) => (run.id ?? 0) <= 3)).reverse();
    if (dynamic === undefined || restart === undefined || baseline === undefined) throw new Error("three runs");
    const otherTemplate = { ...restart, id: 10, template_hash: "0000000000000000" };
    const otherScenario = { ...restart, id: 11, scenario: "another" };
    const live = { ...restart, id: 12, source: "live" as const, provider: "local", model: "qwen3" };
    const twice = { ...dynamic, id: 13 };
    expect(shape(groupRuns([baseline, otherTemplate, restart, otherScenario, live, twice, dynamic]))).toEqual([
      ["comparison", 13, 2, 3],
      ["comparison", 10],
      ["comparison", 11],
      ["comparison", 12],
      ["comparison", 1],
    ]);
    expect(comparisonText([dynamic])).toBe("comparison, 1 run");
    expect(groupRuns([])).toEqual([]);
  });
});

describe("a run's row", () => {
  it("names the all-FULL baseline as such, never by its adapter, and the other runs by their adapter", () => {
    const baseline = kept(3);
    expect(baseline.adapter).toBe("dynamic");
    expect(runKind(baseline)).toBe("all-FULL baseline");
    expect(runTitle(baseline)).toBe("run 3, all-FULL baseline");
    expect(runKind(kept(1))).toBe("dynamic adapter");
    expect(runTitle(kept(2))).toBe("run 2, restart adapter");
    expect(runKind({ ...kept(4), lane: null })).toBe("dynamic adapter");
    // A real host's run was not an adapter's, whatever its report's adapter field says.
    const real = { ...kept(1), lane: "real:openai-agents" };
    expect(runTitle(real)).toBe("run 1, real:openai-agents");
    expect(runKindTitle(real)).toBe("Run by the real agent host openai-agents");
    expect(runLanes(baseline).labels).toEqual({ dynamic: { name: "run 3", note: "all-FULL baseline, scripted" } });
  });

  it("names a scripted run by its scenario, a live one by its provider and model", () => {
    expect(ranWith(kept(3))).toBe("lookup-first");
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
  it("puts each counter of the run beside the reference run's, with run minus reference", () => {
    const rows = pairCounterRows(kept(3).counters, kept(2).counters);
    expect(rows.find((row) => row.key === "model_calls")).toEqual({
      key: "model_calls",
      label: "Model calls",
      reference: 3,
      run: 5,
      delta: 2,
    });
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

  it("draws a pair as the reference run first (in the Timeline's baseline slot, named as the reference run), then the run under its adapter", () => {
    const { run, labels } = pairLanes(kept(1), kept(2));
    expect(run.lanes).toEqual(["baseline", "restart"]);
    expect(run.events.baseline).toHaveLength(kept(1).report.events.length);
    expect(labels).toEqual({
      baseline: { name: "run 1", note: "reference run: dynamic adapter, scripted" },
      restart: { name: "run 2", note: "restart adapter, scripted" },
    });
    expect(pairLanes(kept(3), kept(1)).labels).toEqual({
      baseline: { name: "run 3", note: "reference run: all-FULL baseline, scripted" },
      dynamic: { name: "run 1", note: "dynamic adapter, scripted" },
    });
  });

  it("finds the first divergence's events in those lanes, or says there is none", () => {
    const report = lookupFirstReport();
    const [divergence] = report.divergences;
    if (divergence === undefined) throw new Error("the report has a divergence");
    const comparison: RunComparison = { baseline: kept(1), run: kept(2), divergence };
    expect(pairDivergencePlaces(comparison)).toEqual([{ lane: "restart", seq: 6 }]);
    expect(pairDivergenceText(comparison)).toBe("restart at call 2 discarded lookup(7); it was redone at call 3");
    const first = divergence.first;
    if (first === null) throw new Error("the report has a first divergence");
    const both = {
      ...comparison,
      divergence: { ...divergence, first: { ...first, left_at: { seq: 3, attempt: 1, call_index: 2 } } },
    };
    expect(pairDivergencePlaces(both)).toEqual([
      { lane: "baseline", seq: 3 },
      { lane: "restart", seq: 6 },
    ]);
    const none = { ...comparison, divergence: { ...divergence, first: null } };
    expect(pairDivergencePlaces(none)).toEqual([]);
    expect(pairDivergenceText(none)).toMatch(/^none/);
  });
});
