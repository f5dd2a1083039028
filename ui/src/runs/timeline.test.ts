// timeline.ts over the lookup-first report (dynamic 4 calls; restart 5 calls, restarting at call 2;
// baseline 3 calls) and tiny hand-made logs: blocks, the calls a restart discarded, the alignment by
// work, the divergence's places, counters and each event's line in words.
import { describe, expect, it } from "vitest";
import type { ComparisonReport, RunEvent } from "../platform";
import { lookupFirstReport, reportUnder } from "../testing/fakeCompare";
import {
  alignByWork,
  callText,
  COUNTER_ROWS,
  counterRows,
  describeEvent,
  discards,
  discardText,
  divergencePlaces,
  deltaPairs,
  laneView,
  laneViews,
  orderedLanes,
  reportLanes,
  runLane,
  shortJson,
  signed,
  workKey,
  workText,
  type LaneView,
} from "./timeline";

/** An event without its place in the log (`seq`) and, optionally, its attempt. */
type Kind = RunEvent extends infer E
  ? E extends RunEvent
    ? Omit<E, "seq" | "attempt"> & { attempt?: number }
    : never
  : never;
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
const tool = (
  call_index: number,
  name: string,
  attempt = 1,
  args: KindOf<"tool_call">["args"] = {},
): KindOf<"tool_call"> => ({
  type: "tool_call",
  call_index,
  call_id: `c${String(call_index)}`,
  name,
  args,
  success: true,
  result: null,
  attempt,
});
const completed = (attempt = 1): KindOf<"run_completed"> => ({
  type: "run_completed",
  status: "completed",
  final: "Done.",
  attempt,
});

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

  it("marks the calls of the attempt the restart threw away as discarded, and the later ones not", () => {
    const view = laneView(eventsOf(lookupFirstReport(), "restart"));
    expect(view.blocks.map((b) => [b.callIndex, b.discarded?.afterCall ?? null])).toEqual([
      [1, 2],
      [2, 2],
      [3, null],
      [4, null],
      [5, null],
    ]);
    expect(view.blocks[0]?.discarded).toMatchObject({ attempt: 1, restart: { type: "restart", seq: 6 } });
    expect(laneView(eventsOf(lookupFirstReport(), "dynamic")).blocks.every((b) => b.discarded === null)).toBe(true);
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
    expect(Object.keys(views)).toEqual(["dynamic", "restart", "baseline"]);
    expect((["dynamic", "restart", "baseline"] as const).map((lane) => views[lane]?.blocks.length)).toEqual([4, 5, 3]);
  });

  it("makes views only for the lanes it is given, whichever they are", () => {
    const report = reportUnder(lookupFirstReport(), ["allowed_tools", "deferred"], false);
    const views = laneViews({ allowed_tools: report.runs[0]?.events ?? [], deferred: report.runs[1]?.events ?? [] });
    expect(Object.keys(views)).toEqual(["allowed_tools", "deferred"]);
    expect(views.deferred?.blocks).toHaveLength(4);
  });
});

describe("discards", () => {
  it("lists every call of the attempt a restart ended, each discarded tool call with the call that made it again", () => {
    const found = discards(eventsOf(lookupFirstReport(), "restart"));
    expect([...found.entries()].map(([seq, d]) => [seq, d.attempt, d.afterCall, d.redoneAt])).toEqual([
      [1, 1, 2, null],
      [2, 1, 2, 3],
      [3, 1, 2, null],
      [4, 1, 2, null],
    ]);
  });

  it("discards nothing without a restart, nor an attempt a limit ended", () => {
    expect(discards(eventsOf(lookupFirstReport(), "dynamic")).size).toBe(0);
    const limit: Kind = { type: "limit_reached", limit: "max_model_calls", value: 1 };
    expect(discards(log(started, call(1), tool(1, "lookup"), limit)).size).toBe(0);
  });

  it("matches each discarded call once, with the first later call of the same tool and arguments (keys in any order)", () => {
    const restart: Kind = { type: "restart", reason: "visibility_expansion", section_keys: ["a"] };
    const events = log(
      started,
      call(1),
      tool(1, "lookup", 1, { a: 1, b: 2 }),
      tool(1, "lookup", 1, { a: 1, b: 2 }),
      restart,
      call(2, 2),
      tool(2, "lookup", 2, { b: 2, a: 1 }),
      completed(2),
    );
    const found = discards(events);
    expect([found.get(2)?.redoneAt, found.get(3)?.redoneAt]).toEqual([2, null]);
  });
});

describe("discardText", () => {
  it("says which restart threw the attempt away, and for a tool call whether it was made again", () => {
    const found = discards(eventsOf(lookupFirstReport(), "restart"));
    const at = (seq: number) => {
      const discard = found.get(seq);
      if (discard === undefined) throw new Error(`seq ${String(seq)} is not discarded`);
      return discard;
    };
    expect(discardText(at(1), "model_call")).toBe(
      "the restart after call 2 threw attempt 1 away; its prompt tokens still count",
    );
    expect(discardText(at(2), "tool_call")).toBe("the restart after call 2 threw attempt 1 away; made again at call 3");
    expect(discardText(at(4), "tool_call")).toBe("the restart after call 2 threw attempt 1 away; not made again");
  });
});

describe("alignByWork", () => {
  function lookupFirstViews(): Record<"dynamic" | "restart" | "baseline", LaneView> {
    const report = lookupFirstReport();
    const views = laneViews({
      dynamic: eventsOf(report, "dynamic"),
      restart: eventsOf(report, "restart"),
      baseline: report.baseline?.events ?? [],
    });
    const { dynamic, restart, baseline } = views;
    if (dynamic === undefined || restart === undefined || baseline === undefined)
      throw new Error("every lane given has its view");
    return { dynamic, restart, baseline };
  }

  /** Each row as "lane:call …" and its work. */
  const shape = (lanes: Parameters<typeof alignByWork>[0]) =>
    alignByWork(lanes).map((row) => `${row.key} (${row.work})`);

  it("lines up the calls that did the same work: the restart's redone lookup gets a row of its own", () => {
    const views = lookupFirstViews();
    expect(shape(views)).toEqual([
      "dynamic:1 restart:1 baseline:1 (same)",
      "dynamic:2 restart:2 (unmatched)",
      "restart:3 (unmatched)",
      "dynamic:3 restart:4 baseline:2 (same)",
      "dynamic:4 restart:5 baseline:3 (same)",
    ]);
  });

  it("adds the lanes in the order given: the first run's lane first", () => {
    const { dynamic, restart } = lookupFirstViews();
    expect(alignByWork({ dynamic, restart }, ["restart", "dynamic"]).map((row) => row.key)).toEqual([
      "restart:1 dynamic:1",
      "restart:2 dynamic:2",
      "restart:3",
      "restart:4 dynamic:3",
      "restart:5 dynamic:4",
    ]);
  });

  it("pairs dynamic's search with restart's search, never with the redone lookup beside it", () => {
    const views = lookupFirstViews();
    const rows = alignByWork({ dynamic: views.dynamic, restart: views.restart });
    const search = rows.find((row) => row.blocks.dynamic?.callIndex === 3);
    expect(search?.blocks.restart?.callIndex).toBe(4);
    expect(rows.every((row) => row.work !== "different")).toBe(true);
  });

  it("puts different calls side by side where neither lane has a match, and says they differ", () => {
    const rows = alignByWork({
      dynamic: laneView(log(started, call(1), tool(1, "lookup", 1, { id: 1 }), call(2), completed())),
      restart: laneView(
        log(started, call(1), tool(1, "lookup", 1, { id: 2 }), call(2), tool(2, "search"), call(3), completed()),
      ),
    });
    expect(rows.map((row) => `${row.key} (${row.work})`)).toEqual([
      "dynamic:1 restart:1 (different)",
      "restart:2 (unmatched)",
      "dynamic:2 restart:3 (same)",
    ]);
  });

  it("leaves the new lane's call unpaired first when two alignments are as long", () => {
    // dynamic: a, b; restart: b, a. Either pair is as long: dynamic's a stays, restart's b goes first.
    const rows = alignByWork({
      dynamic: laneView(log(started, call(1), tool(1, "a"), call(2), tool(2, "b"))),
      restart: laneView(log(started, call(1), tool(1, "b"), call(2), tool(2, "a"))),
    });
    expect(rows.map((row) => `${row.key} (${row.work})`)).toEqual([
      "restart:1 (unmatched)",
      "dynamic:1 restart:2 (same)",
      "dynamic:2 (unmatched)",
    ]);
  });

  it("gives one row per call to a lane alone, and no rows to lanes without calls", () => {
    expect(alignByWork({ dynamic: laneView(log(started)) })).toEqual([]);
    expect(shape({ restart: laneView(log(started, call(1), call(2))) })).toEqual([
      "restart:1 (same)",
      "restart:2 (same)",
    ]);
  });
});

describe("workKey and workText", () => {
  it("says what a block did: its calls with their arguments, or that it answered", () => {
    const [first, second, , , last] = laneView(eventsOf(lookupFirstReport(), "restart")).blocks;
    if (first === undefined || second === undefined || last === undefined)
      throw new Error("the restart run has 5 calls");
    expect(workText(first)).toBe("called lookup(7)");
    expect(workText(second)).toBe('called read_section("context")');
    expect(workText(last)).toBe("answered");
    expect(workKey(last)).toBe("");
    expect(workKey(first)).toBe('lookup{"id":7}');
  });

  it("writes a call's argument values as the divergence does", () => {
    expect(callText("search", { query: "login", limit: 3 })).toBe('search("login", 3)');
    expect(callText("ping", {})).toBe("ping()");
    expect(callText("raw", "text")).toBe('raw("text")');
  });
});

describe("divergencePlaces", () => {
  it("names the restart event for the example: only the restart lane has a step there", () => {
    expect(divergencePlaces(lookupFirstReport())).toEqual([{ lane: "restart", seq: 6 }]);
  });

  it("names both lanes' steps when both have one", () => {
    const report = lookupFirstReport();
    report.divergences = [
      {
        left: "dynamic",
        right: "restart",
        first: {
          kind: "different_arguments",
          left_at: { seq: 2, attempt: 1, call_index: 1 },
          right_at: { seq: 4, attempt: 1, call_index: 1 },
          explanation: "at call 1 dynamic calls lookup(7), restart lookup(8)",
        },
      },
    ];
    expect(divergencePlaces(report)).toEqual([
      { lane: "dynamic", seq: 2 },
      { lane: "restart", seq: 4 },
    ]);
  });

  it("puts each pair's places in its own two lanes: left in the first run's, right in the pair's other", () => {
    const report = reportUnder(lookupFirstReport(), ["deferred", "restart", "allowed_tools"], false);
    const at = (seq: number) => ({ seq, attempt: 1, call_index: 2 });
    report.divergences = [
      {
        left: "deferred",
        right: "restart",
        first: { kind: "extra_call", run: "restart", left_at: null, right_at: at(6), explanation: "" },
      },
      {
        left: "deferred",
        right: "allowed_tools",
        first: { kind: "different_call", left_at: at(5), right_at: at(7), explanation: "" },
      },
    ];
    expect(divergencePlaces(report)).toEqual([
      { lane: "restart", seq: 6 },
      { lane: "deferred", seq: 5 },
      { lane: "allowed_tools", seq: 7 },
    ]);
    // Two pairs pointing at the same step of the first run mark it once.
    report.divergences.push({
      left: "deferred",
      right: "dynamic",
      first: { kind: "different_call", left_at: at(5), right_at: at(8), explanation: "" },
    });
    expect(divergencePlaces(report).filter((place) => place.lane === "deferred")).toEqual([
      { lane: "deferred", seq: 5 },
    ]);
  });

  it("names nothing without a report, a divergence or a first difference", () => {
    expect(divergencePlaces(null)).toEqual([]);
    expect(divergencePlaces({ ...lookupFirstReport(), divergences: [] })).toEqual([]);
    expect(
      divergencePlaces({ ...lookupFirstReport(), divergences: [{ left: "dynamic", right: "restart", first: null }] }),
    ).toEqual([]);
  });
});

describe("counterRows", () => {
  it("puts each counter of the three runs side by side, restart minus dynamic beside them", () => {
    const rows = counterRows(lookupFirstReport());
    // No run has a tool never shown nor a call not made: those rows are left out.
    const always = COUNTER_ROWS.map((row) => row.key).filter(
      (key) => key !== "tools_never_shown" && key !== "calls_not_made",
    );
    expect(rows.map((row) => row.key)).toEqual(always);
    const byKey = Object.fromEntries(rows.map((row) => [row.key, row]));
    expect(byKey.model_calls).toEqual({
      key: "model_calls",
      label: "Model calls",
      values: { dynamic: 4, restart: 5, baseline: 3 },
      deltas: { restart: 1 },
    });
    expect(byKey.prompt_tokens?.deltas.restart).toBe(151);
    expect(byKey.tools_injected?.deltas.restart).toBe(-2);
    expect(byKey.failed_tool_calls?.deltas.restart).toBe(0);
  });

  it("shows the calls a real host made impossible, 0 in the runs that made them all", () => {
    const report = lookupFirstReport();
    const [dynamic] = report.runs;
    if (dynamic === undefined) throw new Error("the example has a dynamic run");
    const cached = {
      ...dynamic,
      real_host: { name: "openai-agents-cached" },
      counters: { ...dynamic.counters, calls_not_made: 2 },
    };
    const byKey = Object.fromEntries(counterRows({ ...report, runs: [dynamic, cached] }).map((row) => [row.key, row]));
    expect(byKey.calls_not_made).toEqual({
      key: "calls_not_made",
      label: "Calls not made (tool not shown)",
      values: { dynamic: 0, "real:openai-agents-cached": 2, baseline: 0 },
      deltas: { "real:openai-agents-cached": 2 },
    });
    expect(byKey.tools_never_shown).toBeUndefined();
  });

  it("has no delta when only one adapter ran", () => {
    const report = lookupFirstReport();
    const rows = counterRows({ ...report, runs: report.runs.slice(0, 1), baseline: null });
    expect(rows[0]).toEqual({ key: "model_calls", label: "Model calls", values: { dynamic: 4 }, deltas: {} });
  });

  it("gives each run after the first its difference from the first, whichever ran first", () => {
    const four = reportUnder(lookupFirstReport(), ["dynamic", "restart", "allowed_tools", "deferred"], true);
    expect(reportLanes(four)).toEqual(["dynamic", "restart", "allowed_tools", "deferred", "baseline"]);
    expect(deltaPairs(four).map(({ left, right }) => `${right} − ${left}`)).toEqual([
      "restart − dynamic",
      "allowed_tools − dynamic",
      "deferred − dynamic",
    ]);
    const calls = counterRows(four).find((row) => row.key === "model_calls");
    expect(calls?.values).toEqual({ dynamic: 4, restart: 5, allowed_tools: 4, deferred: 4, baseline: 3 });
    expect(calls?.deltas).toEqual({ restart: 1, allowed_tools: 0, deferred: 0 });
    const restartFirst = reportUnder(lookupFirstReport(), ["restart", "dynamic"], false);
    expect(reportLanes(restartFirst)).toEqual(["restart", "dynamic"]);
    expect(counterRows(restartFirst).find((row) => row.key === "model_calls")?.deltas).toEqual({ dynamic: -1 });
  });
});

describe("signed", () => {
  it("writes a sign on gains and losses, none on zero", () => {
    expect([signed(3), signed(-2), signed(0), signed(91008)]).toEqual(["+3", "−2", "0", "+91,008"]);
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

  it("says each event in words, its enums worded", () => {
    check(started, "run started (dynamic)");
    check({ type: "user_turn", turn: 2 }, "the user's turn 2");
    check({ type: "tools_modified", tool_names: ["lookup"] }, "redefined lookup");
    check(
      { type: "tools_pending", section_key: "docs", added: ["search"], shows: { at_model_call: 3 } },
      "tools pending +search: shown from call 3",
    );
    check(
      { type: "tools_pending", section_key: null, removed: ["grep"], shows: { at_turn: 2 } },
      "tools pending -grep: shown from turn 2",
    );
    check(
      { type: "tools_pending", section_key: null, added: ["deploy"], shows: "never" },
      "tools pending +deploy: never shown in this conversation",
    );
    check(
      {
        type: "adapter_substituted",
        requested: "dynamic",
        adapter: "restart",
        reason: "provider 'harness' takes its tools once",
      },
      "runs as the restart adapter: provider 'harness' takes its tools once",
    );
    check(
      { type: "tools_discovered", source: "ide", tier: "snapshot", tools: ["grep", "open"] },
      "tools from ide (its snapshot): grep, open",
    );
    check(
      { type: "tools_discovered", source: "docs", tier: "none", tools: [], error: "not started" },
      "tools from docs (none): no tools",
    );
    check(
      { type: "tools_discovered", source: "ide", tier: "live", tools: ["grep"] },
      "tools from ide (listed live): grep",
    );
    check({ ...call(3, 1, 1234), tools_offered: ["a", "b"] }, "model call 3 (2 tools, 1,234 tokens)");
    check({ ...call(1, 1, 1), tools_offered: ["a"] }, "model call 1 (1 tool, 1 token)");
    const prefix = {
      tools_tokens: 90,
      system_tokens: 600,
      shared_tokens: 0,
      previous_tokens: 700,
      broke: "tools_changed",
    } as const;
    check(
      { ...call(3, 1, 800), tools_offered: ["a"], prefix },
      "model call 3 (1 tool, 800 tokens); cache prefix broken: the tools changed",
    );
    check(
      { ...call(3, 1, 800), tools_offered: ["a"], prefix: { ...prefix, shared_tokens: 700, broke: null } },
      "model call 3 (1 tool, 800 tokens)",
    );
    check({ ...tool(1, "lookup"), args: { id: 7 } }, 'lookup {"id":7} ok');
    check({ ...tool(1, "lookup"), args: { id: 8 }, success: false }, 'lookup {"id":8} failed');
    check(
      { type: "tools_injected", section_key: "context", tool_names: ["search", "cite"] },
      "injected search, cite (context)",
    );
    check({ type: "tools_injected", section_key: null, tool_names: ["plug"] }, "injected plug");
    check(
      { type: "tools_injected", section_key: "context", tool_names: ["search"], delivery: "listed" },
      "injected search (context)",
    );
    check(
      { type: "tools_injected", section_key: "context", tool_names: ["search", "cite"], delivery: "allowed" },
      "tools allowed: search, cite (context)",
    );
    check(
      { type: "tools_injected", section_key: "context", tool_names: ["search"], delivery: "referenced" },
      "tools loaded by reference: search (context)",
    );
    check(
      { type: "tool_injection_skipped", section_key: "context", tool_name: "search" },
      "not injected search: already offered",
    );
    check({ type: "tools_removed", tool_names: ["cite"] }, "removed cite");
    check({ type: "tools_listed", tool_names: ["lookup", "search"] }, "the host listed 2 tools");
    check(
      { type: "tool_not_shown", call_index: 3, tool_name: "search" },
      "search not called: the host did not offer it",
    );
    check({ type: "visibility_changed", section_keys: ["context", "style"] }, "expanded context, style");
    check(
      { type: "restart", reason: "visibility_expansion", section_keys: ["context"] },
      "restarted to expand a section (context)",
    );
    check(
      { type: "restart", reason: "visibility_expansion", section_keys: ["a", "b"] },
      "restarted to expand sections (a, b)",
    );
    check(
      { type: "restart", reason: "tools_picked", section_keys: [] },
      "restarted to describe the picked tools in full",
    );
    check(
      { type: "restart", reason: "tool_availability_changed", section_keys: [] },
      "restarted for a change of the tool list",
    );
    check(
      { type: "tool_availability_changed", at_model_call: 2, added: ["x"], removed: ["y"] },
      "tools changed at call 2: +x, -y",
    );
    check(
      { type: "tool_availability_changed", at_model_call: 1, added: [], removed: [] },
      "tools changed at call 1: none",
    );
    check(
      {
        type: "tool_availability_changed",
        at_model_call: 3,
        added: ["deploy"],
        removed: [],
        source: "ide",
        modified: ["grep"],
      },
      "tools changed at call 3 (ide): +deploy, ~grep",
    );
    check({ type: "limit_reached", limit: "max_model_calls", value: 32 }, "reached the limit of 32 model calls");
    check({ type: "limit_reached", limit: "max_restarts", value: 1 }, "reached the limit of 1 restart");
    check(
      { type: "limit_reached", limit: "repeated_tool_call", value: 4 },
      "stopped a loop: the same tool call 4 times within 10 calls, after a warning",
    );
    check(
      {
        type: "loop_warning",
        call_id: "call_3_0",
        kind: "exact_repeat",
        tool: "lookup",
        times: 3,
        message: "Loop warning: …",
      },
      "loop warning: lookup 3 times within 10 calls",
    );
    check(completed(), "run completed");
    check({ type: "run_completed", status: "turn_limit", final: null }, "run stopped at the model call limit");
    check({ type: "run_completed", status: "loop_detected", final: null }, "run stopped in a loop");
    check({ type: "run_completed", status: "error", final: null, error: "down" }, "run ended: error");
  });
});

describe("host lanes (a run of a host profile, spec 12)", () => {
  /** The lookup-first report with its restart run made a host lane: host:codex, under the dynamic adapter. */
  function withHostLane(): ComparisonReport {
    const report = lookupFirstReport();
    const [dynamic, restart] = report.runs;
    if (dynamic === undefined || restart === undefined) throw new Error("the fixture has two runs");
    return { ...report, runs: [dynamic, { ...restart, adapter: "dynamic", host: "codex" }] };
  }

  it("names the run by its host, not its adapter, in the lanes, counters and deltas", () => {
    const report = withHostLane();
    expect(report.runs.map(runLane)).toEqual(["dynamic", "host:codex"]);
    expect(reportLanes(report)).toEqual(["dynamic", "host:codex", "baseline"]);
    expect(deltaPairs(report)).toEqual([{ left: "dynamic", right: "host:codex" }]);
    const modelCalls = counterRows(report).find((row) => row.key === "model_calls");
    expect(modelCalls?.values).toEqual({ dynamic: 4, "host:codex": 5, baseline: 3 });
    expect(modelCalls?.deltas).toEqual({ "host:codex": 1 });
  });

  it("draws a host lane after the adapters' lanes and before the baseline", () => {
    expect(orderedLanes(["baseline", "host:codex", "restart", "host:gemini-cli", "dynamic"])).toEqual([
      "dynamic",
      "restart",
      "host:codex",
      "host:gemini-cli",
      "baseline",
    ]);
    const report = withHostLane();
    const views = laneViews({ dynamic: eventsOf(report, "dynamic"), "host:codex": report.runs[1]?.events ?? [] });
    expect(Object.keys(views)).toEqual(["dynamic", "host:codex"]);
  });
});
