// The compare view's timeline as plain data, without React: a run's events grouped into model-call
// blocks (the call, the tool calls it asked for, and the markers that came before it), the lanes
// aligned call by call, the first divergence's place in each lane, the counters side by side with
// their deltas and the baseline, the prompt tokens per call for the chart, and one line per event
// in the words the command line uses.
import type { ComparisonReport, Counters, JsonValue, Lane, RunEvent } from "../platform";

/** The lanes of a comparison, in the order they run and are drawn. */
export const LANES: readonly Lane[] = ["dynamic", "restart", "baseline"];

type EventOf<T extends RunEvent["type"]> = Extract<RunEvent, { type: T }>;

/** One model call of a run and what followed it until the next call. */
export interface CallBlock {
  callIndex: number;
  attempt: number;
  call: EventOf<"model_call">;
  /** The tool calls it asked for and the markers after them (injections, restarts, tool changes, …), in order. */
  after: RunEvent[];
  /** This call starts a new attempt of the run (the one before it restarted). */
  newAttempt: boolean;
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
  for (const event of events) {
    const last = view.blocks.at(-1);
    if (event.type === "model_call") {
      const newAttempt = last !== undefined && last.attempt !== event.attempt;
      view.blocks.push({ callIndex: event.call_index, attempt: event.attempt, call: event, after: [], newAttempt });
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

/** Every lane's events grouped into blocks. */
export function laneViews(events: Record<Lane, readonly RunEvent[]>): Record<Lane, LaneView> {
  return { dynamic: laneView(events.dynamic), restart: laneView(events.restart), baseline: laneView(events.baseline) };
}

/** One row of the timeline: the block of each lane with this call index (null: that run made no such call). */
export interface TimelineRow {
  callIndex: number;
  blocks: Partial<Record<Lane, CallBlock>>;
}

/** The lanes side by side, call by call: row k holds each lane's model call k. */
export function alignByCall(lanes: Partial<Record<Lane, LaneView>>): TimelineRow[] {
  const byIndex = new Map<number, TimelineRow>();
  for (const lane of LANES) {
    for (const block of lanes[lane]?.blocks ?? []) {
      const row = byIndex.get(block.callIndex) ?? { callIndex: block.callIndex, blocks: {} };
      row.blocks[lane] = block;
      byIndex.set(block.callIndex, row);
    }
  }
  return [...byIndex.values()].sort((a, b) => a.callIndex - b.callIndex);
}

/** An event's place: its lane and its `seq` in that run's log. */
export interface EventPlace {
  lane: Lane;
  seq: number;
}

/** The events the first divergence points at, one per lane that has a step there. */
export function divergencePlaces(report: ComparisonReport | null): EventPlace[] {
  const divergence = report?.divergence;
  const first = divergence?.first;
  if (divergence === undefined || divergence === null || first === undefined || first === null) return [];
  const places: EventPlace[] = [];
  if (first.left_at !== null) places.push({ lane: divergence.left, seq: first.left_at.seq });
  if (first.right_at !== null) places.push({ lane: divergence.right, seq: first.right_at.seq });
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
  { key: "prompt_tokens", label: "Prompt tokens" },
  { key: "completion_tokens", label: "Completion tokens" },
];

/** One counter of the report: each lane's value and restart minus dynamic. */
export interface CounterRow {
  key: keyof Counters;
  label: string;
  values: Partial<Record<Lane, number>>;
  /** Restart minus dynamic; null unless both ran. */
  delta: number | null;
}

/** The report's counters side by side, the baseline last. */
export function counterRows(report: ComparisonReport): CounterRow[] {
  const counters: Partial<Record<Lane, Counters>> = {};
  for (const run of report.runs) counters[run.adapter] = run.counters;
  if (report.baseline !== null) counters.baseline = report.baseline.counters;
  return COUNTER_ROWS.map(({ key, label }) => {
    const values: Partial<Record<Lane, number>> = {};
    for (const lane of LANES) {
      const value = counters[lane]?.[key];
      if (value !== undefined) values[lane] = value;
    }
    const { dynamic, restart } = values;
    return { key, label, values, delta: dynamic === undefined || restart === undefined ? null : restart - dynamic };
  });
}

/** "+3", "-2", "0". */
export function signed(n: number): string {
  return n > 0 ? `+${String(n)}` : String(n);
}

/** Each lane's prompt tokens per model call, in call order. */
export function promptTokenSeries(lanes: Partial<Record<Lane, LaneView>>): Partial<Record<Lane, number[]>> {
  const series: Partial<Record<Lane, number[]>> = {};
  for (const lane of LANES) {
    const view = lanes[lane];
    if (view !== undefined) series[lane] = view.blocks.map((block) => block.call.prompt_tokens);
  }
  return series;
}

/** A line chart's geometry: one SVG polyline `points` per lane, and the axis' top value. */
export interface ChartGeometry {
  lines: Partial<Record<Lane, string>>;
  maxTokens: number;
  maxCalls: number;
}

/**
 * Lays out `series` in a `width` x `height` box: call 1 at the left, the last call of the longest
 * run at the right, 0 tokens at the bottom and the most tokens of any call at the top.
 */
export function chartGeometry(series: Partial<Record<Lane, number[]>>, width: number, height: number): ChartGeometry {
  const all = LANES.flatMap((lane) => series[lane] ?? []);
  const maxTokens = Math.max(1, ...all);
  const maxCalls = Math.max(1, ...LANES.map((lane) => series[lane]?.length ?? 0));
  const x = (i: number) => (maxCalls === 1 ? width / 2 : (i * width) / (maxCalls - 1));
  const y = (tokens: number) => height - (tokens * height) / maxTokens;
  const lines: Partial<Record<Lane, string>> = {};
  for (const lane of LANES) {
    const points = series[lane];
    if (points === undefined || points.length === 0) continue;
    lines[lane] = points.map((tokens, i) => `${round(x(i))},${round(y(tokens))}`).join(" ");
  }
  return { lines, maxTokens, maxCalls };
}

function round(n: number): string {
  return String(Math.round(n * 10) / 10);
}

/** JSON on one line, cut to `max` characters. */
export function shortJson(value: JsonValue, max = 60): string {
  const text = JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** One line for an event, in the command line's words ("lookup {"id":7} ok", "RESTART …"). */
export function describeEvent(event: RunEvent): string {
  switch (event.type) {
    case "run_started":
      return `run started (${event.adapter})`;
    case "model_call":
      return `model call ${String(event.call_index)} (${plural(event.tools_offered.length, "tool")}, ${plural(event.prompt_tokens, "token")})`;
    case "tool_call":
      return `${event.name} ${shortJson(event.args)} ${event.success ? "ok" : "failed"}`;
    case "tools_injected":
      return `injected ${event.tool_names.join(", ")}${event.section_key === null ? "" : ` (${event.section_key})`}`;
    case "tool_injection_skipped":
      return `not injected ${event.tool_name}: already offered`;
    case "tools_removed":
      return `removed ${event.tool_names.join(", ")}`;
    case "visibility_changed":
      return `expanded ${event.section_keys.join(", ")}`;
    case "restart":
      return `RESTART ${event.reason}${event.section_keys.length > 0 ? ` ${event.section_keys.join(", ")}` : ""}`;
    case "tool_availability_changed":
      return `tools changed at call ${String(event.at_model_call)}: ${changeList(event.added, event.removed)}`;
    case "limit_reached":
      return `LIMIT ${event.limit} (${String(event.value)})`;
    case "run_completed":
      return `run ${event.status === "completed" ? "completed" : `ended: ${event.status}`}`;
  }
}

function plural(n: number, word: string): string {
  return `${n.toLocaleString("en-US")} ${word}${n === 1 ? "" : "s"}`;
}

function changeList(added: string[], removed: string[]): string {
  const parts = [...added.map((name) => `+${name}`), ...removed.map((name) => `-${name}`)];
  return parts.length === 0 ? "none" : parts.join(", ");
}
