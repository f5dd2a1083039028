// A comparison's timeline as plain data, without React (the Compare page draws it, the history
// too): a run's events grouped into model-call blocks (the call, the tool calls it asked for, and
// the markers that came before it), which calls a restart discarded, the lanes aligned by the work
// each block did, each first divergence's place in its two lanes (every run after the first against
// the first), the counters side by side with each later run's difference from the first and the
// baseline, and one line per event in words (the enums' words are words.ts's). A comparison runs
// any set of adapters: everything here is keyed by the lanes it has.
import type { AdapterKind, ComparisonReport, Counters, JsonValue, Lane, RunCost, RunEvent } from "../platform";
import { hostLane, realHostLane } from "../platform/lanes";
import {
  count,
  discoveryText,
  injectedText,
  limitText,
  loopWarningText,
  PREFIX_BREAK_WORDS,
  restartText,
  runEndText,
  pendingChangeText,
  pendingShowsText,
  toolChangeList,
} from "../shared/words";

/** Every lane a comparison can have, in the order the UI offers the adapters, the baseline last. */
export const LANES: readonly Lane[] = ["dynamic", "restart", "allowed_tools", "deferred", "tool_addition", "baseline"];

/** The lane a run of a report was: its real host's (`real:openai-agents`), its host profile's (`host:claude-code`), else its adapter's. */
export function runLane(run: {
  adapter: AdapterKind;
  host?: string | null;
  real_host?: { name: string } | null;
}): Lane {
  if (run.real_host != null) return realHostLane(run.real_host.name);
  return run.host == null ? run.adapter : hostLane(run.host);
}

/** The lanes of `report`, in the order its runs ran, then the baseline when it has one. */
export function reportLanes(report: ComparisonReport): Lane[] {
  return [...report.runs.map(runLane), ...(report.baseline === null ? [] : (["baseline"] as const))];
}

/**
 * `lanes` in the order the UI shows them: the adapters' in the order it offers them, then any
 * other (host lanes) in the order given, the baseline last.
 */
export function orderedLanes(lanes: Iterable<Lane>): Lane[] {
  const given = [...lanes];
  const known = LANES.filter((lane) => lane !== "baseline" && given.includes(lane));
  const others = given.filter((lane) => !LANES.includes(lane));
  return [...known, ...others, ...(given.includes("baseline") ? ["baseline"] : [])];
}

/** The lanes `record` has, in the order the UI shows them. */
export function lanesIn(record: Partial<Record<Lane, unknown>>): Lane[] {
  return orderedLanes(Object.keys(record).filter((lane) => record[lane] !== undefined));
}

type EventOf<T extends RunEvent["type"]> = Extract<RunEvent, { type: T }>;

/**
 * A model call or tool call whose attempt a restart threw away: the run started again from the
 * system prompt and the user message, so the model never saw it again (its tokens still count).
 */
export interface Discard {
  /** The attempt thrown away. */
  attempt: number;
  /** The restart that ended it. */
  restart: EventOf<"restart">;
  /** The model call the restart came after (0: before the first). */
  afterCall: number;
  /** For a tool call: the model call of a later attempt that made it again (same tool and arguments), if one did. */
  redoneAt: number | null;
}

/**
 * The discarded calls of a run's log, by `seq`: every model call and tool call of an attempt that
 * ended with a restart (an attempt ended by a limit is not discarded: the run ended there). A
 * discarded tool call is matched with the first later call of the same tool and arguments not
 * matched yet, as the core matches a restart's `redone` calls.
 */
export function discards(events: readonly RunEvent[]): Map<number, Discard> {
  const ended = new Map<number, { restart: EventOf<"restart">; afterCall: number }>();
  let lastCall = 0;
  for (const event of events) {
    if (event.type === "model_call") lastCall = event.call_index;
    if (event.type === "restart") ended.set(event.attempt, { restart: event, afterCall: lastCall });
  }
  const found = new Map<number, Discard>();
  if (ended.size === 0) return found;
  const redone = new Set<number>();
  for (const event of events) {
    const end = ended.get(event.attempt);
    if (end === undefined || (event.type !== "model_call" && event.type !== "tool_call")) continue;
    let redoneAt: number | null = null;
    if (event.type === "tool_call") {
      const key = `${event.name}${canonicalJson(event.args)}`;
      const again = events.find(
        (later): later is EventOf<"tool_call"> =>
          later.type === "tool_call" &&
          later.attempt > event.attempt &&
          !redone.has(later.seq) &&
          `${later.name}${canonicalJson(later.args)}` === key,
      );
      if (again !== undefined) {
        redone.add(again.seq);
        redoneAt = again.call_index;
      }
    }
    found.set(event.seq, { attempt: event.attempt, ...end, redoneAt });
  }
  return found;
}

/**
 * Why a call is discarded, in words: "the restart after call 2 threw attempt 1 away; its prompt
 * tokens still count" for a model call, "…; made again at call 3" (or "not made again") for a tool call.
 */
export function discardText(discard: Discard, kind: "model_call" | "tool_call"): string {
  const where = discard.afterCall === 0 ? "before the first call" : `after call ${String(discard.afterCall)}`;
  const thrown = `the restart ${where} threw attempt ${String(discard.attempt)} away`;
  if (kind === "model_call") return `${thrown}; its prompt tokens still count`;
  return discard.redoneAt === null
    ? `${thrown}; not made again`
    : `${thrown}; made again at call ${String(discard.redoneAt)}`;
}

/** One model call of a run and what followed it until the next call. */
export interface CallBlock {
  callIndex: number;
  attempt: number;
  call: EventOf<"model_call">;
  /** The tool calls it asked for and the markers after them (injections, restarts, tool changes, …), in order. */
  after: RunEvent[];
  /** This call starts a new attempt of the run (the one before it restarted). */
  newAttempt: boolean;
  /** A restart threw this call's attempt away (and with it the tool calls in `after`); null: it stands. */
  discarded: Discard | null;
}

/** A run as its lane draws it. */
export interface LaneView {
  /** Events before the first model call (a tool change at call 1, …). */
  before: RunEvent[];
  blocks: CallBlock[];
  /** How the run ended, once it has. */
  end: EventOf<"run_completed"> | null;
}

/** Groups a run's events (as many as have arrived) into blocks. */
export function laneView(events: readonly RunEvent[]): LaneView {
  const view: LaneView = { before: [], blocks: [], end: null };
  const discarded = discards(events);
  for (const event of events) {
    const last = view.blocks.at(-1);
    if (event.type === "model_call") {
      const newAttempt = last !== undefined && last.attempt !== event.attempt;
      view.blocks.push({
        callIndex: event.call_index,
        attempt: event.attempt,
        call: event,
        after: [],
        newAttempt,
        discarded: discarded.get(event.seq) ?? null,
      });
    } else if (event.type === "run_completed") {
      view.end = event;
    } else if (event.type !== "run_started") {
      (last?.after ?? view.before).push(event);
    }
  }
  return view;
}

/** A lane's heading and note when it draws a kept run ("run 12") rather than a comparison's lane. */
export interface LaneLabel {
  name: string;
  note: string;
}

/** Every lane's events grouped into blocks (the lanes `events` has). */
export function laneViews(events: Partial<Record<Lane, readonly RunEvent[]>>): Partial<Record<Lane, LaneView>> {
  const views: Partial<Record<Lane, LaneView>> = {};
  for (const lane of lanesIn(events)) {
    const laneEvents = events[lane];
    if (laneEvents !== undefined) views[lane] = laneView(laneEvents);
  }
  return views;
}

/** Whether the blocks of a row did the same work: the same tool calls, in the same order, with the same arguments. */
export type RowWork =
  /** Every lane shown has a block here, and they made the same calls. */
  | "same"
  /** Two lanes' blocks here made different calls. */
  | "different"
  /** The blocks here made the same calls, but some lane has no such call. */
  | "unmatched";

/** One row of the timeline: each lane's block that did this work (absent: that run made no such call). */
export interface TimelineRow {
  /** The row's blocks by lane and call, stable while later events arrive ("dynamic:1 restart:1"). */
  key: string;
  blocks: Partial<Record<Lane, CallBlock>>;
  work: RowWork;
}

/** JSON with every object's keys sorted, so `{"a":1,"b":2}` and `{"b":2,"a":1}` are the same call. */
function canonicalJson(value: JsonValue): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key] ?? null)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** The tool calls a block asked for (the calls of a halted turn that never ran are not in the log). */
export function toolCallsOf(block: CallBlock): EventOf<"tool_call">[] {
  return block.after.filter((event): event is EventOf<"tool_call"> => event.type === "tool_call");
}

/** What a block did, as a key: its tool calls with their arguments; "" for an answer without tool calls. */
export function workKey(block: CallBlock): string {
  return toolCallsOf(block)
    .map((call) => `${call.name}${canonicalJson(call.args)}`)
    .join("\n");
}

/** `called lookup(7), search("login")` or `answered`: what a block did, its calls in the divergence's words. */
export function workText(block: CallBlock): string {
  const calls = toolCallsOf(block);
  return calls.length === 0 ? "answered" : `called ${calls.map((call) => callText(call.name, call.args)).join(", ")}`;
}

/** A call with its argument values, as the core's explanations write it: `search("login")`. */
export function callText(name: string, args: JsonValue): string {
  const values = typeof args === "object" && args !== null && !Array.isArray(args) ? Object.values(args) : [args];
  return `${name}(${values.map((value) => shortJson(value ?? null, 40)).join(", ")})`;
}

/** Past this many cells of one alignment table, lanes are lined up call by call instead. */
const MAX_ALIGNMENT_CELLS = 1 << 20;

type Blocks = Partial<Record<Lane, CallBlock>>;

/**
 * Adds `lane`'s blocks to `rows`: a longest common subsequence of work (a block pairs with a row
 * holding a block that made the same calls), equal work at the front always paired, and of equally
 * long alignments the new lane's block left unpaired first (as the core aligns the first
 * divergence's steps). Between two pairs, the rows and blocks left over share rows in order, so
 * different work sits side by side only where neither run made the other's calls.
 */
function addLane(rows: readonly Blocks[], lane: Lane, blocks: readonly CallBlock[]): Blocks[] {
  const n = rows.length;
  const m = blocks.length;
  if (n * m > MAX_ALIGNMENT_CELLS) {
    return Array.from({ length: Math.max(n, m) }, (_, k) => {
      const block = blocks[k];
      return block === undefined ? { ...rows[k] } : { ...rows[k], [lane]: block };
    });
  }
  const rowKeys = rows.map(
    (row) => new Set(Object.values(row).flatMap((block) => (block === undefined ? [] : [workKey(block)]))),
  );
  const blockKeys = blocks.map(workKey);
  const pairs = (i: number, j: number) => rowKeys[i]?.has(blockKeys[j] ?? "") === true;
  // longest[i * (m + 1) + j]: the longest alignment of rows[i..] with blocks[j..].
  const longest = new Uint32Array((n + 1) * (m + 1));
  const at = (i: number, j: number) => longest[i * (m + 1) + j] ?? 0;
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      longest[i * (m + 1) + j] = pairs(i, j) ? at(i + 1, j + 1) + 1 : Math.max(at(i + 1, j), at(i, j + 1));
    }
  }
  const out: Blocks[] = [];
  let leftRows: number[] = [];
  let leftBlocks: number[] = [];
  const flush = () => {
    for (let k = 0; k < Math.max(leftRows.length, leftBlocks.length); k++) {
      const rowAt = leftRows[k];
      const blockAt = leftBlocks[k];
      const row: Blocks = rowAt === undefined ? {} : { ...rows[rowAt] };
      const block = blockAt === undefined ? undefined : blocks[blockAt];
      out.push(block === undefined ? row : { ...row, [lane]: block });
    }
    leftRows = [];
    leftBlocks = [];
  };
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (pairs(i, j) && at(i, j) === at(i + 1, j + 1) + 1) {
      flush();
      out.push({ ...rows[i], [lane]: blocks[j] });
      i++;
      j++;
    } else if (at(i, j + 1) >= at(i + 1, j)) {
      leftBlocks.push(j++);
    } else {
      leftRows.push(i++);
    }
  }
  while (i < n) leftRows.push(i++);
  while (j < m) leftBlocks.push(j++);
  flush();
  return out;
}

/**
 * The lanes side by side, by what each did: a row holds the blocks that made the same tool calls
 * with the same arguments (an answer pairs with an answer), in the runs' order, lanes added one by
 * one in `order` (the order they ran; the first run's lane first). A restart's redone calls get rows of their own, so after a restart the lanes
 * still meet at the same work; blocks that did different work share a row only where neither lane
 * has a match, and such a row says so (`work: "different"`).
 */
export function alignByWork(lanes: Partial<Record<Lane, LaneView>>, order: readonly Lane[] = LANES): TimelineRow[] {
  const shown = order.filter((lane) => lanes[lane] !== undefined);
  let rows: Blocks[] = [];
  for (const lane of shown) rows = addLane(rows, lane, lanes[lane]?.blocks ?? []);
  return rows.map((blocks) => {
    const present = shown.filter((lane) => blocks[lane] !== undefined);
    const keys = new Set(present.map((lane) => workKey(blocks[lane] as CallBlock)));
    const work: RowWork = keys.size > 1 ? "different" : present.length < shown.length ? "unmatched" : "same";
    const key = present.map((lane) => `${lane}:${String(blocks[lane]?.callIndex)}`).join(" ");
    return { key, blocks, work };
  });
}

/** An event's place: its lane and its `seq` in that run's log. */
export interface EventPlace {
  lane: Lane;
  seq: number;
}

/**
 * The events the first divergences point at: of each pair (the first run, `left`, against a later
 * one, `right`), one per lane that has a step there, in the pairs' order. The first run's lane may
 * have a place for each pair; a place two pairs share is given once.
 */
export function divergencePlaces(report: ComparisonReport | null): EventPlace[] {
  const places: EventPlace[] = [];
  const add = (lane: Lane, seq: number) => {
    if (!places.some((place) => place.lane === lane && place.seq === seq)) places.push({ lane, seq });
  };
  for (const { left, right, first } of report?.divergences ?? []) {
    if (first === null) continue;
    if (first.left_at !== null) add(left, first.left_at.seq);
    if (first.right_at !== null) add(right, first.right_at.seq);
  }
  return places;
}

/** The counters the view compares, with their labels, in the order shown. */
export const COUNTER_ROWS: readonly { key: keyof Counters; label: string }[] = [
  { key: "model_calls", label: "Model calls" },
  { key: "restarts", label: "Restarts" },
  { key: "tools_injected", label: "Tools injected" },
  { key: "dynamic_expansions", label: "Dynamic expansions" },
  { key: "tool_calls", label: "Tool calls" },
  { key: "failed_tool_calls", label: "Failed tool calls" },
  { key: "tools_never_shown", label: "Tools never shown" },
  { key: "calls_not_made", label: "Calls not made (tool not shown)" },
  { key: "prompt_tokens", label: "Prompt tokens" },
  { key: "completion_tokens", label: "Completion tokens" },
];

/** The counters a report leaves out where they are 0: their row shows only when a run has one. */
const ROWS_WHEN_ANY: ReadonlySet<keyof Counters> = new Set(["tools_never_shown", "calls_not_made"]);

/** Whether the row of counter `key` is shown for runs whose values are `values`. */
export function counterRowShown(key: keyof Counters, values: readonly (number | undefined)[]): boolean {
  return !ROWS_WHEN_ANY.has(key) || values.some((value) => (value ?? 0) > 0);
}

/** One counter of the report: each lane's value and each later run's difference from the first run's. */
export interface CounterRow {
  key: keyof Counters;
  label: string;
  values: Partial<Record<Lane, number>>;
  /** By the lane of each run after the first: its value minus the first run's (none with one run). */
  deltas: Partial<Record<Lane, number>>;
}

/** The runs whose difference from the first run is shown, each with the first: none with fewer than two runs. */
export function deltaPairs(report: ComparisonReport): { left: Lane; right: Lane }[] {
  const [first, ...later] = report.runs.map(runLane);
  return first === undefined ? [] : later.map((right) => ({ left: first, right }));
}

/** The report's counters side by side, the baseline last. */
export function counterRows(report: ComparisonReport): CounterRow[] {
  const counters: Partial<Record<Lane, Counters>> = {};
  for (const run of report.runs) counters[runLane(run)] = run.counters;
  if (report.baseline !== null) counters.baseline = report.baseline.counters;
  const lanes = lanesIn(counters);
  const shown = COUNTER_ROWS.filter(({ key }) =>
    counterRowShown(
      key,
      lanes.map((lane) => counters[lane]?.[key]),
    ),
  );
  return shown.map(({ key, label }) => {
    const values: Partial<Record<Lane, number>> = {};
    for (const lane of lanes) {
      const value = counters[lane]?.[key] ?? (ROWS_WHEN_ANY.has(key) ? 0 : undefined);
      if (value !== undefined) values[lane] = value;
    }
    const deltas: Partial<Record<Lane, number>> = {};
    for (const { left, right } of deltaPairs(report)) {
      const [from, to] = [values[left], values[right]];
      if (from !== undefined && to !== undefined) deltas[right] = to - from;
    }
    return { key, label, values, deltas };
  });
}

/** Each run's cost in `report`, by lane: none while the comparison runs (no report yet) or when it was not priced. */
export function laneCosts(report: ComparisonReport | null): Partial<Record<Lane, RunCost>> {
  const costs: Partial<Record<Lane, RunCost>> = {};
  for (const run of report?.runs ?? []) if (run.cost) costs[runLane(run)] = run.cost;
  if (report?.baseline?.cost) costs.baseline = report.baseline.cost;
  return costs;
}

/** "+3,000", "−2", "0": thousands grouped, one minus sign. */
export function signed(n: number): string {
  const size = Math.abs(n).toLocaleString("en-US");
  return n > 0 ? `+${size}` : n < 0 ? `\u2212${size}` : "0";
}

/** JSON on one line, cut to `max` characters. */
export function shortJson(value: JsonValue, max = 60): string {
  const text = JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** One line for an event ("lookup {"id":7} ok", "restarted to expand a section (context)"). */
export function describeEvent(event: RunEvent): string {
  switch (event.type) {
    case "run_started":
      return `run started (${event.adapter})`;
    case "adapter_substituted":
      return `runs as the ${event.adapter} adapter: ${event.reason}`;
    case "tools_discovered":
      return discoveryText(event.source, event.tier, event.tools);
    case "model_call": {
      const line = `model call ${String(event.call_index)} (${count(event.tools_offered.length, "tool")}, ${count(event.prompt_tokens, "token")})`;
      // Where the prompt's shared start broke is where a provider's cache stops serving it.
      const broke = event.prefix?.broke;
      return broke == null ? line : `${line}; cache prefix broken: ${PREFIX_BREAK_WORDS[broke]}`;
    }
    case "tool_call":
      return `${event.name} ${shortJson(event.args)} ${event.success ? "ok" : "failed"}`;
    case "tools_injected":
      return injectedText(event.delivery, event.tool_names, event.section_key);
    case "tool_injection_skipped":
      return `not injected ${event.tool_name}: already offered`;
    case "tools_removed":
      return `removed ${event.tool_names.join(", ")}`;
    case "tools_listed":
      return `the host listed ${count(event.tool_names.length, "tool")}`;
    case "tool_not_shown":
      return `${event.tool_name} not called: the host did not offer it`;
    case "tools_modified":
      return `redefined ${event.tool_names.join(", ")}`;
    case "user_turn":
      return `the user's turn ${String(event.turn)}`;
    case "tools_pending":
      return `${pendingChangeText(event)}: ${pendingShowsText(event.shows)}`;
    case "visibility_changed":
      return `expanded ${event.section_keys.join(", ")}`;
    case "restart":
      return restartText(event.reason, event.section_keys);
    case "tool_availability_changed": {
      const from = event.source == null ? "" : ` (${event.source})`;
      return `tools changed at call ${String(event.at_model_call)}${from}: ${toolChangeList(event.added, event.removed, event.modified ?? [])}`;
    }
    case "loop_warning":
      return loopWarningText(event);
    case "limit_reached":
      return limitText(event.limit, event.value);
    case "run_completed":
      return runEndText(event.status);
  }
}
