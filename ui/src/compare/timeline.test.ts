// timeline.ts over the lookup-first report (dynamic 4 calls; restart 5 calls, restarting at call 2;
// baseline 3 calls) and tiny hand-made logs: blocks, alignment, the divergence's places, counters,
// the chart's geometry and each event's line in the command line's words.
import { describe, expect, it } from "vitest";
import type { ComparisonReport, RunEvent } from "../platform";
import { lookupFirstReport } from "../testing/fakeCompare";
import {
  alignByCall,
  chartGeometry,
  COUNTER_ROWS,
  counterRows,
  describeEvent,
  divergencePlaces,
  LANES,
  laneView,
  laneViews,
  promptTokenSeries,
  shortJson,
  signed,
} from "./timeline";

/** An event without its place in the log (`seq`) and, optionally, its attempt. */
type Kind = RunEvent extends infer E ? (E extends RunEvent ? Omit<E, "seq" | "attempt"> & { attempt?: number } : never) : never;
type KindOf<T extends RunEvent["type"]> = Extract<Kind, { type: T }>;

/** A run's log: each event numbered by its position, in attempt 1 unless it says otherwise. */
function log(...kinds: Kind[]): RunEvent[] {
  return kinds.map((kind, seq) => ({ attempt: 1, ...kind, seq }));
}

const started: KindOf<"run_started"> = { type: "run_started", adapter: "dynamic", template: "t" };
const call = (call_index: number, attempt = 1, prompt_tokens = 100): KindOf<"model_call"> => ({
  type: "model_call",
  call_index,
  tools_offered: ["lookup"],
  prompt_tokens,
  completion_tokens: 5,
  attempt,
});
const tool = (call_index: number, name: string, attempt = 1): KindOf<"tool_call"> => ({
  type: "tool_call",
  call_index,
  call_id: `c${String(call_index)}`,
  name,
  args: {},
  success: true,
  result: null,
  attempt,
});
const completed = (attempt = 1): KindOf<"run_completed"> => ({ type: "run_completed", status: "completed", final: "Done.", attempt });

function eventsOf(report: ComparisonReport, adapter: "dynamic" | "restart"): RunEvent[] {
  const run = report.runs.find((r) => r.adapter === adapter);
  if (run === undefined) throw new Error(`no ${adapter} run`);
  return run.events;
}

describe("laneView", () => {
  it("groups the restart run into call blocks, the restart's events under call 2, and attempt 2 marked", () => {
    const view = laneView(eventsOf(lookupFirstReport(), "restart"));
    expect(view.before).toEqual([]);
    expect(view.blocks.map((b) => [b.callIndex, b.attempt, b.newAttempt])).toEqual([
      [1, 1, false],
      [2, 1, false],
      [3, 2, true],
      [4, 2, false],
      [5, 2, false],
    ]);
    expect(view.blocks[1]?.after.map((e) => e.type)).toEqual(["tool_call", "visibility_changed", "restart"]);
    expect(view.end?.status).toBe("completed");
  });

  it("keeps events before the first call apart, and leaves the run's start out", () => {
    const change: Kind = { type: "tool_availability_changed", at_model_call: 1, added: ["x"], removed: [] };
    const view = laneView(log(started, change, call(1), tool(1, "lookup"), completed()));
    expect(view.before.map((e) => e.type)).toEqual(["tool_availability_changed"]);
    expect(view.blocks.map((b) => b.after.map((e) => e.type))).toEqual([["tool_call"]]);
  });

  it("has no end while the run streams", () => {
    const view = laneView(log(started, call(1)));
    expect(view.end).toBeNull();
    expect(view.blocks).toHaveLength(1);
    expect(laneView([])).toEqual({ before: [], blocks: [], end: null });
  });
});

describe("laneViews", () => {
  it("makes one view per lane, a block per model call", () => {
    const report = lookupFirstReport();
    const views = laneViews({
      dynamic: eventsOf(report, "dynamic"),
      restart: eventsOf(report, "restart"),
      baseline: report.baseline?.events ?? [],
    });
    expect(LANES.map((lane) => views[lane].blocks.length)).toEqual([4, 5, 3]);
  });
});

describe("alignByCall", () => {
  it("lines the lanes up call by call; the longer run has rows of its own", () => {
    const rows = alignByCall({
      dynamic: laneView(log(started, call(1), call(2), completed())),
      restart: laneView(log(started, call(1), call(2), call(3, 2), completed(2))),
    });
    expect(rows.map((row) => [row.callIndex, Object.keys(row.blocks)])).toEqual([
      [1, ["dynamic", "restart"]],
      [2, ["dynamic", "restart"]],
      [3, ["restart"]],
    ]);
  });

  it("gives no rows to lanes without calls", () => {
    expect(alignByCall({ dynamic: laneView(log(started)) })).toEqual([]);
  });
});

describe("divergencePlaces", () => {
  it("names the restart event for the example: only the restart lane has a step there", () => {
    expect(divergencePlaces(lookupFirstReport())).toEqual([{ lane: "restart", seq: 6 }]);
  });

  it("names both lanes' steps when both have one", () => {
    const report = lookupFirstReport();
    report.divergence = {
      left: "dynamic",
      right: "restart",
      first: {
        kind: "different_arguments",
        left_at: { seq: 2, attempt: 1, call_index: 1 },
        right_at: { seq: 4, attempt: 1, call_index: 1 },
        explanation: "at call 1 dynamic calls lookup(7), restart lookup(8)",
      },
    };
    expect(divergencePlaces(report)).toEqual([
      { lane: "dynamic", seq: 2 },
      { lane: "restart", seq: 4 },
    ]);
  });

  it("names nothing without a report, a divergence or a first difference", () => {
    expect(divergencePlaces(null)).toEqual([]);
    expect(divergencePlaces({ ...lookupFirstReport(), divergence: null })).toEqual([]);
    expect(divergencePlaces({ ...lookupFirstReport(), divergence: { left: "dynamic", right: "restart", first: null } })).toEqual([]);
  });
});

describe("counterRows", () => {
  it("puts each counter of the three runs side by side, restart minus dynamic beside them", () => {
    const rows = counterRows(lookupFirstReport());
    expect(rows.map((row) => row.key)).toEqual(COUNTER_ROWS.map((row) => row.key));
    const byKey = Object.fromEntries(rows.map((row) => [row.key, row]));
    expect(byKey.model_calls).toEqual({ key: "model_calls", label: "Model calls", values: { dynamic: 4, restart: 5, baseline: 3 }, delta: 1 });
    expect(byKey.prompt_tokens?.delta).toBe(151);
    expect(byKey.tools_injected?.delta).toBe(-2);
    expect(byKey.failed_tool_calls?.delta).toBe(0);
  });

  it("has no delta when only one adapter ran", () => {
    const report = lookupFirstReport();
    const rows = counterRows({ ...report, runs: report.runs.slice(0, 1), baseline: null });
    expect(rows[0]).toEqual({ key: "model_calls", label: "Model calls", values: { dynamic: 4 }, delta: null });
  });
});

describe("signed", () => {
  it("writes a sign on gains and losses, none on zero", () => {
    expect([signed(3), signed(-2), signed(0)]).toEqual(["+3", "-2", "0"]);
  });
});

describe("promptTokenSeries", () => {
  it("lists each lane's prompt tokens per call, only for the lanes given", () => {
    const report = lookupFirstReport();
    const series = promptTokenSeries({
      dynamic: laneView(eventsOf(report, "dynamic")),
      restart: laneView(eventsOf(report, "restart")),
    });
    expect(series).toEqual({ dynamic: [205, 221, 377, 394], restart: [205, 221, 291, 307, 324] });
  });
});

describe("chartGeometry", () => {
  it("spans call 1 to the longest run's last call, and 0 to the most tokens", () => {
    const geometry = chartGeometry({ dynamic: [100, 200], restart: [50] }, 100, 50);
    expect(geometry).toEqual({ lines: { dynamic: "0,25 100,0", restart: "0,37.5" }, maxTokens: 200, maxCalls: 2 });
  });

  it("centres a single call", () => {
    expect(chartGeometry({ dynamic: [10] }, 100, 50)).toEqual({ lines: { dynamic: "50,0" }, maxTokens: 10, maxCalls: 1 });
  });

  it("draws nothing without calls, on an axis that still has a height", () => {
    expect(chartGeometry({}, 100, 50)).toEqual({ lines: {}, maxTokens: 1, maxCalls: 1 });
    expect(chartGeometry({ dynamic: [] }, 100, 50).lines).toEqual({});
    expect(chartGeometry({ dynamic: [0, 0] }, 100, 50).lines).toEqual({ dynamic: "0,50 100,50" });
  });
});

describe("shortJson", () => {
  it("writes JSON on one line, cut with an ellipsis past the limit", () => {
    expect(shortJson({ id: 7 })).toBe('{"id":7}');
    expect(shortJson({ query: "a long query" }, 12)).toBe('{"query":"a…');
    expect(shortJson({ query: "a long query" }, 12)).toHaveLength(12);
  });
});

describe("describeEvent", () => {
  const check = (kind: Kind, expected: string) => {
    expect(describeEvent({ attempt: 1, seq: 0, ...kind })).toBe(expected);
  };

  it("says each event in the command line's words", () => {
    check(started, "run started (dynamic)");
    check({ ...call(3, 1, 1234), tools_offered: ["a", "b"] }, "model call 3 (2 tools, 1,234 tokens)");
    check({ ...call(1, 1, 1), tools_offered: ["a"] }, "model call 1 (1 tool, 1 token)");
    check({ ...tool(1, "lookup"), args: { id: 7 } }, 'lookup {"id":7} ok');
    check({ ...tool(1, "lookup"), args: { id: 8 }, success: false }, 'lookup {"id":8} failed');
    check({ type: "tools_injected", section_key: "context", tool_names: ["search", "cite"] }, "injected search, cite (context)");
    check({ type: "tools_injected", section_key: null, tool_names: ["plug"] }, "injected plug");
    check({ type: "tool_injection_skipped", section_key: "context", tool_name: "search" }, "not injected search: already offered");
    check({ type: "tools_removed", tool_names: ["cite"] }, "removed cite");
    check({ type: "visibility_changed", section_keys: ["context", "style"] }, "expanded context, style");
    check({ type: "restart", reason: "visibility_expansion", section_keys: ["context"] }, "RESTART visibility_expansion context");
    check({ type: "restart", reason: "tools_picked", section_keys: [] }, "RESTART tools_picked");
    check({ type: "tool_availability_changed", at_model_call: 2, added: ["x"], removed: ["y"] }, "tools changed at call 2: +x, -y");
    check({ type: "tool_availability_changed", at_model_call: 1, added: [], removed: [] }, "tools changed at call 1: none");
    check({ type: "limit_reached", limit: "max_model_calls", value: 32 }, "LIMIT max_model_calls (32)");
    check(completed(), "run completed");
    check({ type: "run_completed", status: "turn_limit", final: null }, "run ended: turn_limit");
  });
});
