// The prompt-token chart as plain data, without React: each lane's model calls as points (the
// call's prompt tokens, or the lane's tokens so far), their place in the plot, the calls labelled
// on the axis (every one, thinned to a round step when they would crowd), where each restart came,
// which lanes coincide at which calls, and the chart, a point and a restart in words.
//
// A priced comparison's report (spec 10) has each call's cost too, so the chart can draw money
// instead of tokens: each call's cost, or the lane's cost so far, written as the counters write it.
// Only a finished comparison has a report, and only when every drawn lane was priced, each of its
// calls, can the lanes be drawn against one money axis; otherwise the chart draws tokens alone.
//
// Equal series never hide each other: each lane is drawn a little to the side of the call's place
// (the lanes in the order the UI offers them, the dynamic lane left, the baseline right), with its
// own dash and marker, and the legend names the calls where lanes coincide.
import type { Lane, RunCost } from "../platform";
import { lanesIn, type LaneView } from "./timeline";
import { laneName, moneyText, restartText, type RestartReason } from "../shared/words";

/** What the chart shows: each call's prompt tokens (or cost), or the lane's so far. */
export type ChartMode = "per_call" | "cumulative";

/** What the chart draws: prompt tokens, or (a priced comparison) what the calls cost. */
export type ChartMeasure = "tokens" | "cost";

/** One model call of a lane. */
export interface ChartPoint {
  lane: Lane;
  call: number;
  attempt: number;
  /** This call's prompt tokens. */
  tokens: number;
  /** The lane's prompt tokens up to and including this call. */
  total: number;
  /** This call's cost (the report's, matched by call index); null when it has none. */
  cost: number | null;
  /** The lane's cost up to and including this call; null when some call so far has none. */
  costSoFar: number | null;
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
  /**
   * The currency the cost can be drawn in: every drawn lane priced in it, each of its calls with a
   * cost. Null (or absent) otherwise: the chart draws tokens alone then.
   */
  currency?: string | null;
}

/**
 * Each lane's calls in call order, with its running totals, and every restart, lane by lane; each
 * call's cost from `costs`, matched by call index (over the whole run, so a discarded call has its
 * own), and the currency the chart can draw them in.
 */
export function chartSeries(
  lanes: Partial<Record<Lane, LaneView>>,
  costs: Partial<Record<Lane, RunCost>> = {},
): ChartSeries {
  const points: Partial<Record<Lane, ChartPoint[]>> = {};
  const restarts: RestartMark[] = [];
  for (const lane of lanesIn(lanes)) {
    const view = lanes[lane];
    if (view === undefined) continue;
    const callCosts = new Map((costs[lane]?.calls ?? []).map((call) => [call.call_index, call.cost]));
    let total = 0;
    let costSoFar: number | null = 0;
    points[lane] = view.blocks.map((block) => {
      total += block.call.prompt_tokens;
      const cost = callCosts.get(block.callIndex) ?? null;
      costSoFar = cost === null || costSoFar === null ? null : costSoFar + cost;
      const point = {
        lane,
        call: block.callIndex,
        attempt: block.attempt,
        tokens: block.call.prompt_tokens,
        total,
        cost,
        costSoFar,
      };
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
  return { points, restarts, currency: pricedIn(points, costs) };
}

/**
 * The currency every drawn lane's calls were priced in, or null: a lane without a cost (a running
 * comparison, an unpriced one), a call without one (a report written before calls were priced has
 * none), or two currencies cannot share the axis.
 */
function pricedIn(points: Partial<Record<Lane, ChartPoint[]>>, costs: Partial<Record<Lane, RunCost>>): string | null {
  const drawn = lanesIn(points).filter((lane) => (points[lane]?.length ?? 0) > 0);
  const currencies = new Set(drawn.map((lane) => costs[lane]?.currency));
  const [currency] = currencies;
  if (drawn.length === 0 || currencies.size !== 1 || currency === undefined) return null;
  return drawn.every((lane) => (points[lane] ?? []).every((point) => point.cost !== null)) ? currency : null;
}

/** The value a point is drawn at in `mode`, of `measure` (a call without a cost at 0). */
export function valueOf(point: ChartPoint, mode: ChartMode, measure: ChartMeasure = "tokens"): number {
  if (measure === "cost") return (mode === "cumulative" ? point.costSoFar : point.cost) ?? 0;
  return mode === "cumulative" ? point.total : point.tokens;
}

/** A value of `measure` in words: "1,348" tokens, "$0.000394" in `currency`. */
export function valueText(value: number, measure: ChartMeasure, currency: string | null | undefined): string {
  return measure === "cost" ? moneyText(value, currency ?? "USD") : value.toLocaleString("en-US");
}

/** A point in the plot. */
export interface PlacedPoint extends ChartPoint {
  x: number;
  y: number;
  /** What it is drawn at: its tokens (or cost), or the lane's so far. */
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
  /** The top of the y axis: the most any point is drawn at (tokens: at least 1). */
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
 * The top of the y axis for `series` in `mode`, of `measure`: the most any point is drawn at, at
 * least 1 token (a whole token is the least a prompt grows by); a cost may be any fraction of a
 * cent, so it is its own top, 0 only when every call cost nothing.
 */
export function chartTop(series: ChartSeries, mode: ChartMode, measure: ChartMeasure = "tokens"): number {
  const values = lanesIn(series.points).flatMap((lane) =>
    (series.points[lane] ?? []).map((point) => valueOf(point, mode, measure)),
  );
  return Math.max(measure === "tokens" ? 1 : 0, ...values);
}

/**
 * Lays out `series` in `mode`, of `measure`, in a `width` x `height` plot: call 1 at the left, the
 * longest lane's last call at the right (one call: the middle), 0 at the bottom and the most any
 * point is drawn at on top. The k-th of n drawn lanes is drawn (k - (n - 1) / 2) × dodge px to the
 * side, the dodge a quarter of a call's spacing at most MAX_DODGE, so equal values stay apart.
 */
export function chartLayout(
  series: ChartSeries,
  mode: ChartMode,
  width: number,
  height: number,
  measure: ChartMeasure = "tokens",
): ChartLayout {
  const drawn = lanesIn(series.points).filter((lane) => (series.points[lane]?.length ?? 0) > 0);
  const maxValue = chartTop(series, mode, measure);
  const maxCalls = Math.max(1, ...drawn.flatMap((lane) => (series.points[lane] ?? []).map((point) => point.call)));
  const spacing = maxCalls === 1 ? width : width / (maxCalls - 1);
  const x = (call: number) => (maxCalls === 1 ? width / 2 : ((call - 1) * width) / (maxCalls - 1));
  // Calls that all cost nothing lie on the bottom (a 0 top would divide by 0).
  const y = (value: number) => height - (value * height) / (maxValue > 0 ? maxValue : 1);
  const dodge = drawn.length < 2 ? 0 : Math.min(MAX_DODGE, spacing / 4);
  const points: Partial<Record<Lane, PlacedPoint[]>> = {};
  const lines: Partial<Record<Lane, string>> = {};
  drawn.forEach((lane, k) => {
    const offset = (k - (drawn.length - 1) / 2) * dodge;
    const placed = (series.points[lane] ?? []).map((point) => {
      const value = valueOf(point, mode, measure);
      return { ...point, value, x: round(x(point.call) + offset), y: round(y(value)) };
    });
    points[lane] = placed;
    lines[lane] = placed.map((point) => `${String(point.x)},${String(point.y)}`).join(" ");
  });
  const labelled = new Set(labelledCalls(maxCalls, spacing));
  const ticks = Array.from({ length: maxCalls }, (_, i) => ({
    call: i + 1,
    x: round(x(i + 1)),
    labelled: labelled.has(i + 1),
  }));
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
 * Where lanes coincide in `mode`, of `measure`: for each call, the lanes drawn at the same value
 * there, grouped by the same set of lanes, in the order first met.
 */
export function coincidences(series: ChartSeries, mode: ChartMode, measure: ChartMeasure = "tokens"): Coincidence[] {
  const byCall = new Map<number, Map<number, Lane[]>>();
  for (const lane of lanesIn(series.points)) {
    for (const point of series.points[lane] ?? []) {
      const values = byCall.get(point.call) ?? new Map<number, Lane[]>();
      const value = valueOf(point, mode, measure);
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
    if (start !== undefined && end !== undefined)
      ranges.push(start === end ? String(start) : `${String(start)}–${String(end)}`);
    start = call;
    end = call;
  }
  return `${calls.length === 1 ? "call" : "calls"} ${andList(ranges)}`;
}

/** "dynamic, restart and baseline coincide at calls 1–2". */
export function coincidenceText(coincidence: Coincidence): string {
  return `${andList(coincidence.lanes.map(laneName))} coincide at ${callsText(coincidence.calls)}`;
}

/**
 * A point's tooltip: "restart, call 1, attempt 1 (discarded): 205 prompt tokens; 205 so far"; of
 * the cost, in `currency`: "restart, call 1, attempt 1 (discarded): $0.000031 (205 prompt
 * tokens); $0.000031 so far".
 */
export function pointText(point: ChartPoint, measure: ChartMeasure = "tokens", currency?: string | null): string {
  const discarded = point.discarded ? " (discarded)" : "";
  const tokens = `${point.tokens.toLocaleString("en-US")} prompt ${point.tokens === 1 ? "token" : "tokens"}`;
  const head = `${laneName(point.lane)}, call ${String(point.call)}, attempt ${String(point.attempt)}${discarded}`;
  if (measure === "cost") {
    const cost = point.cost === null ? "no cost" : valueText(point.cost, "cost", currency);
    const soFar = point.costSoFar === null ? "" : `; ${valueText(point.costSoFar, "cost", currency)} so far`;
    return `${head}: ${cost} (${tokens})${soFar}`;
  }
  return `${head}: ${tokens}; ${point.total.toLocaleString("en-US")} so far`;
}

/** A restart marker's tooltip: "restart, after call 2: restarted to expand a section (context)". */
export function restartMarkText(mark: RestartMark): string {
  const where = mark.afterCall === 0 ? "before call 1" : `after call ${String(mark.afterCall)}`;
  return `${laneName(mark.lane)}, ${where}: ${restartText(mark.reason, mark.sectionKeys)}`;
}

/** The chart's title in `mode`, of `measure`. */
export function chartTitle(mode: ChartMode, measure: ChartMeasure = "tokens"): string {
  if (measure === "cost") return mode === "cumulative" ? "Cost so far, call by call" : "Cost per model call";
  return mode === "cumulative" ? "Prompt tokens so far, call by call" : "Prompt tokens per model call";
}

/**
 * The chart in words, for assistive technology: "Prompt tokens per model call. dynamic: 205, 221,
 * 377, 394; restart: 205, 221, 291, 307, 324 (restarted after call 2; calls 1–2 discarded); …";
 * of the cost, each value as money in the series' currency: "Cost per model call. dynamic:
 * $0.000031, …".
 */
export function chartDescription(series: ChartSeries, mode: ChartMode, measure: ChartMeasure = "tokens"): string {
  const lanes = lanesIn(series.points).flatMap((lane) => {
    const points = series.points[lane] ?? [];
    if (points.length === 0) return [];
    const restarts = series.restarts
      .filter((mark) => mark.lane === lane)
      .map((mark) =>
        mark.afterCall === 0 ? "restarted before call 1" : `restarted after call ${String(mark.afterCall)}`,
      );
    const discarded = points.filter((point) => point.discarded).map((point) => point.call);
    const notes = discarded.length === 0 ? restarts : [...restarts, `${callsText(discarded)} discarded`];
    const values = points
      .map((point) =>
        measure === "cost"
          ? valueText(valueOf(point, mode, measure), measure, series.currency)
          : String(valueOf(point, mode)),
      )
      .join(", ");
    return [`${laneName(lane)}: ${values}${notes.length === 0 ? "" : ` (${notes.join("; ")})`}`];
  });
  return lanes.length === 0 ? "No model calls yet." : `${chartTitle(mode, measure)}. ${lanes.join("; ")}.`;
}

/** The room a restart mark's label takes ("↻ restarted", at 10px), so labels never overlap. */
export const RESTART_LABEL_WIDTH = 64;

/**
 * Which restart marks (by their x, in order) get a label: the first, then each at least
 * `RESTART_LABEL_WIDTH` right of the last labelled one. The others keep their line and tooltip.
 */
export function labelledRestarts(xs: readonly number[]): boolean[] {
  let last = Number.NEGATIVE_INFINITY;
  return xs.map((x) => {
    if (x - last < RESTART_LABEL_WIDTH) return false;
    last = x;
    return true;
  });
}

/** The y axis' title: what the chart measures. */
export function axisTitle(measure: ChartMeasure, mode: ChartMode): string {
  const what = measure === "cost" ? "cost" : "prompt tokens";
  return mode === "cumulative" ? `${what} so far` : what;
}
