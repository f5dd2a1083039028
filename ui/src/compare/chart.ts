// The prompt-token chart as plain data, without React: each lane's model calls as points (the
// call's prompt tokens, or the lane's tokens so far), their place in the plot, the calls labelled
// on the axis (every one, thinned to a round step when they would crowd), where each restart came,
// which lanes coincide at which calls, and the chart, a point and a restart in words.
//
// Equal series never hide each other: each lane is drawn a little to the side of the call's place
// (the dynamic lane left, the baseline right), with its own dash and marker, and the legend names
// the calls where lanes coincide.
import type { Lane } from "../platform";
import { LANES, type LaneView } from "./timeline";
import { restartText, type RestartReason } from "./words";

/** What the chart shows: each call's prompt tokens, or the lane's prompt tokens so far. */
export type ChartMode = "per_call" | "cumulative";

/** One model call of a lane. */
export interface ChartPoint {
  lane: Lane;
  call: number;
  attempt: number;
  /** This call's prompt tokens. */
  tokens: number;
  /** The lane's prompt tokens up to and including this call. */
  total: number;
  /** A restart threw this call's attempt away. */
  discarded: boolean;
}

/** A restart of a lane, between two of its calls. */
export interface RestartMark {
  lane: Lane;
  /** The call it came after (0: before the first). */
  afterCall: number;
  /** The attempt it ended. */
  attempt: number;
  reason: RestartReason;
  sectionKeys: string[];
}

/** The lanes' calls and restarts, as the chart draws them. */
export interface ChartSeries {
  points: Partial<Record<Lane, ChartPoint[]>>;
  restarts: RestartMark[];
}

/** Each lane's calls in call order, with its running total, and every restart, lane by lane. */
export function chartSeries(lanes: Partial<Record<Lane, LaneView>>): ChartSeries {
  const points: Partial<Record<Lane, ChartPoint[]>> = {};
  const restarts: RestartMark[] = [];
  for (const lane of LANES) {
    const view = lanes[lane];
    if (view === undefined) continue;
    let total = 0;
    points[lane] = view.blocks.map((block) => {
      total += block.call.prompt_tokens;
      const point = { lane, call: block.callIndex, attempt: block.attempt, tokens: block.call.prompt_tokens, total };
      return { ...point, discarded: block.discarded !== null };
    });
    const marks = [
      ...view.before.map((event) => ({ event, afterCall: 0 })),
      ...view.blocks.flatMap((block) => block.after.map((event) => ({ event, afterCall: block.callIndex }))),
    ];
    for (const { event, afterCall } of marks) {
      if (event.type !== "restart") continue;
      restarts.push({ lane, afterCall, attempt: event.attempt, reason: event.reason, sectionKeys: event.section_keys });
    }
  }
  return { points, restarts };
}

/** The value a point is drawn at in `mode`. */
export function valueOf(point: ChartPoint, mode: ChartMode): number {
  return mode === "cumulative" ? point.total : point.tokens;
}

/** A point in the plot. */
export interface PlacedPoint extends ChartPoint {
  x: number;
  y: number;
  /** What it is drawn at: its tokens, or the lane's total so far. */
  value: number;
}

/** A call on the x axis: a tick at every call, a label on some. */
export interface CallTick {
  call: number;
  x: number;
  labelled: boolean;
}

/** The chart laid out in a `width` x `height` plot. */
export interface ChartLayout {
  /** Each drawn lane's points, and its line as an SVG `points` list. */
  points: Partial<Record<Lane, PlacedPoint[]>>;
  lines: Partial<Record<Lane, string>>;
  /** The top of the y axis: the most any point is drawn at (at least 1). */
  maxValue: number;
  /** The last call of the longest lane (at least 1). */
  maxCalls: number;
  ticks: CallTick[];
  /** Each restart at the x between the call it came after and the next. */
  restarts: (RestartMark & { x: number })[];
}

/** How far apart, at least, two call labels are (px): about a label's width. */
export const MIN_LABEL_GAP = 22;
/** How far, at most, a lane is drawn to the side of its call's place (px). */
export const MAX_DODGE = 3;

/** Round steps between labelled calls. */
const STEPS = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000];

/**
 * The calls the axis labels when `maxCalls` calls are `spacing` px apart: every call when they fit
 * `minGap` apart, else call 1, the multiples of the smallest round step that fits, and the last
 * call (a multiple too close to it gives way).
 */
export function labelledCalls(maxCalls: number, spacing: number, minGap = MIN_LABEL_GAP): number[] {
  if (maxCalls <= 1) return [1];
  const step = STEPS.find((candidate) => candidate * spacing >= minGap) ?? Math.ceil(minGap / spacing);
  const calls = [1];
  for (let call = step; call < maxCalls; call += step) {
    const previous = calls.at(-1) ?? 1;
    if ((call - previous) * spacing >= minGap) calls.push(call);
  }
  while (calls.length > 1 && (maxCalls - (calls.at(-1) ?? 1)) * spacing < minGap) calls.pop();
  calls.push(maxCalls);
  return calls;
}

/**
 * Lays out `series` in `mode` in a `width` x `height` plot: call 1 at the left, the longest lane's
 * last call at the right (one call: the middle), 0 at the bottom and the most any point is drawn at
 * on top. The k-th of n drawn lanes is drawn (k - (n - 1) / 2) × dodge px to the side, the dodge a
 * quarter of a call's spacing at most MAX_DODGE, so equal values stay apart.
 */
export function chartLayout(series: ChartSeries, mode: ChartMode, width: number, height: number): ChartLayout {
  const drawn = LANES.filter((lane) => (series.points[lane]?.length ?? 0) > 0);
  const values = drawn.flatMap((lane) => (series.points[lane] ?? []).map((point) => valueOf(point, mode)));
  const maxValue = Math.max(1, ...values);
  const maxCalls = Math.max(1, ...drawn.flatMap((lane) => (series.points[lane] ?? []).map((point) => point.call)));
  const spacing = maxCalls === 1 ? width : width / (maxCalls - 1);
  const x = (call: number) => (maxCalls === 1 ? width / 2 : ((call - 1) * width) / (maxCalls - 1));
  const y = (value: number) => height - (value * height) / maxValue;
  const dodge = drawn.length < 2 ? 0 : Math.min(MAX_DODGE, spacing / 4);
  const points: Partial<Record<Lane, PlacedPoint[]>> = {};
  const lines: Partial<Record<Lane, string>> = {};
  drawn.forEach((lane, k) => {
    const offset = (k - (drawn.length - 1) / 2) * dodge;
    const placed = (series.points[lane] ?? []).map((point) => {
      const value = valueOf(point, mode);
      return { ...point, value, x: round(x(point.call) + offset), y: round(y(value)) };
    });
    points[lane] = placed;
    lines[lane] = placed.map((point) => `${String(point.x)},${String(point.y)}`).join(" ");
  });
  const labelled = new Set(labelledCalls(maxCalls, spacing));
  const ticks = Array.from({ length: maxCalls }, (_, i) => ({ call: i + 1, x: round(x(i + 1)), labelled: labelled.has(i + 1) }));
  const restarts = series.restarts
    .filter((mark) => drawn.includes(mark.lane))
    .map((mark) => {
      // Half a call's spacing after the call it came after (x is linear in the call).
      const between = mark.afterCall >= maxCalls ? x(maxCalls) + spacing / 2 : x(Math.max(0.5, mark.afterCall + 0.5));
      return { ...mark, x: round(Math.min(width, Math.max(0, between))) };
    });
  return { points, lines, maxValue, maxCalls, ticks, restarts };
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}

/** Lanes drawn at the same value at some calls. */
export interface Coincidence {
  lanes: Lane[];
  calls: number[];
}

/**
 * Where lanes coincide in `mode`: for each call, the lanes drawn at the same value there, grouped
 * by the same set of lanes, in the order first met.
 */
export function coincidences(series: ChartSeries, mode: ChartMode): Coincidence[] {
  const byCall = new Map<number, Map<number, Lane[]>>();
  for (const lane of LANES) {
    for (const point of series.points[lane] ?? []) {
      const values = byCall.get(point.call) ?? new Map<number, Lane[]>();
      const value = valueOf(point, mode);
      values.set(value, [...(values.get(value) ?? []), lane]);
      byCall.set(point.call, values);
    }
  }
  const groups = new Map<string, Coincidence>();
  for (const call of [...byCall.keys()].sort((a, b) => a - b)) {
    for (const lanes of byCall.get(call)?.values() ?? []) {
      if (lanes.length < 2) continue;
      const key = lanes.join(" ");
      const group = groups.get(key) ?? { lanes, calls: [] };
      group.calls.push(call);
      groups.set(key, group);
    }
  }
  return [...groups.values()];
}

/** "a", "a and b", "a, b and c". */
export function andList(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items.at(-1) ?? ""}`;
}

/** "call 3", "calls 1–2", "calls 1–3, 5 and 7". */
export function callsText(calls: readonly number[]): string {
  const ranges: string[] = [];
  let start = calls[0];
  let end = start;
  for (const call of [...calls.slice(1), Number.NaN]) {
    if (end !== undefined && call === end + 1) {
      end = call;
      continue;
    }
    if (start !== undefined && end !== undefined) ranges.push(start === end ? String(start) : `${String(start)}–${String(end)}`);
    start = call;
    end = call;
  }
  return `${calls.length === 1 ? "call" : "calls"} ${andList(ranges)}`;
}

/** "dynamic, restart and baseline coincide at calls 1–2". */
export function coincidenceText(coincidence: Coincidence): string {
  return `${andList(coincidence.lanes)} coincide at ${callsText(coincidence.calls)}`;
}

/** A point's tooltip: "restart, call 1, attempt 1 (discarded): 205 prompt tokens; 205 so far". */
export function pointText(point: ChartPoint): string {
  const discarded = point.discarded ? " (discarded)" : "";
  const tokens = `${point.tokens.toLocaleString("en-US")} prompt ${point.tokens === 1 ? "token" : "tokens"}`;
  return `${point.lane}, call ${String(point.call)}, attempt ${String(point.attempt)}${discarded}: ${tokens}; ${point.total.toLocaleString("en-US")} so far`;
}

/** A restart marker's tooltip: "restart, after call 2: restarted to expand a section (context)". */
export function restartMarkText(mark: RestartMark): string {
  const where = mark.afterCall === 0 ? "before call 1" : `after call ${String(mark.afterCall)}`;
  return `${mark.lane}, ${where}: ${restartText(mark.reason, mark.sectionKeys)}`;
}

/** The chart's title in `mode`. */
export function chartTitle(mode: ChartMode): string {
  return mode === "cumulative" ? "Prompt tokens so far, call by call" : "Prompt tokens per model call";
}

/**
 * The chart in words, for assistive technology: "Prompt tokens per model call. dynamic: 205, 221,
 * 377, 394; restart: 205, 221, 291, 307, 324 (restarted after call 2; calls 1–2 discarded); …".
 */
export function chartDescription(series: ChartSeries, mode: ChartMode): string {
  const lanes = LANES.flatMap((lane) => {
    const points = series.points[lane] ?? [];
    if (points.length === 0) return [];
    const restarts = series.restarts
      .filter((mark) => mark.lane === lane)
      .map((mark) => (mark.afterCall === 0 ? "restarted before call 1" : `restarted after call ${String(mark.afterCall)}`));
    const discarded = points.filter((point) => point.discarded).map((point) => point.call);
    const notes = discarded.length === 0 ? restarts : [...restarts, `${callsText(discarded)} discarded`];
    const values = points.map((point) => String(valueOf(point, mode))).join(", ");
    return [`${lane}: ${values}${notes.length === 0 ? "" : ` (${notes.join("; ")})`}`];
  });
  return lanes.length === 0 ? "No model calls yet." : `${chartTitle(mode)}. ${lanes.join("; ")}.`;
}
