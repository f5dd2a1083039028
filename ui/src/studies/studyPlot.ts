// A study's figures as geometry, without React: each lane's runs of one metric as a strip of dots
// (one per repetition, stacked where values meet) over a box of its quartiles, on one shared
// axis; and each pair's difference as an interval around zero beside the A/A control's, the noise
// band a difference must leave to count. Past `DOTS_UP_TO` runs a lane is drawn as columns of
// counts instead, so a 1,000-repetition study stays a few hundred shapes.
import type { StudyLane, StudyPair, StudyReport, StudyRun } from "../platform";

/** The metrics a study reports, as the plot's picker names them; `null` scale: counted as is. */
export const STUDY_METRICS: readonly { id: string; label: string }[] = [
  { id: "cost_usd", label: "Cost" },
  { id: "prompt_tokens", label: "Prompt tokens" },
  { id: "completion_tokens", label: "Completion tokens" },
  { id: "cached_tokens", label: "Cached tokens" },
  { id: "model_calls", label: "Model calls" },
  { id: "restarts", label: "Restarts" },
  { id: "failed_tool_calls", label: "Failed tool calls" },
  { id: "wall_ms", label: "Wall time (ms)" },
];

/** The most runs per lane drawn as dots; more are drawn as columns of counts. */
export const DOTS_UP_TO = 300;

/** The plot's left margin (lane names) and right margin, in pixels. */
const LEFT = 120;
const RIGHT = 40;
/** One lane's row, and the gap between dots stacked in it. */
export const ROW_HEIGHT = 56;
const DOT_STEP = 4;

/** The value of `metric` for `run`, as the backend's `StudyRun::metric` reads it; null: none (an unpriced cost). */
export function runMetric(run: StudyRun, metric: string): number | null {
  const c = run.counters;
  switch (metric) {
    case "completed":
      return run.status === "completed" ? 1 : 0;
    case "prompt_tokens":
      return c.prompt_tokens;
    case "completion_tokens":
      return c.completion_tokens;
    case "cached_tokens":
      return run.cached_tokens;
    case "cost_usd":
      return run.cost_usd ?? null;
    case "model_calls":
      return c.model_calls;
    case "restarts":
      return c.restarts;
    case "failed_tool_calls":
      return c.failed_tool_calls;
    case "wall_ms":
      return run.wall_ms;
    default:
      return null;
  }
}

/** One run on the plot. */
export interface PlotDot {
  repetition: number;
  value: number;
  x: number;
  y: number;
  completed: boolean;
}

/** A column of runs too many to draw one by one: how many fall at `x`. */
export interface PlotColumn {
  x: number;
  count: number;
  height: number;
}

/** One lane's row. */
export interface PlotRow {
  lane: string;
  /** The middle of the row. */
  y: number;
  dots: PlotDot[];
  columns: PlotColumn[];
  /** The quartiles, the median and the whiskers (least, greatest), in pixels; null with no values. */
  box: { min: number; q1: number; median: number; q3: number; max: number } | null;
  /** The mean, in pixels. */
  mean: number | null;
}

/** A labelled place on the axis. */
export interface Tick {
  x: number;
  value: number;
}

/** Each lane's runs of one metric on one axis. */
export interface StripPlot {
  width: number;
  height: number;
  rows: PlotRow[];
  ticks: Tick[];
}

/** The `p` quantile of sorted `values` (linear between order statistics, as numpy's default). */
export function quantile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const at = (sorted.length - 1) * p;
  const low = Math.floor(at);
  const high = Math.ceil(at);
  const a = sorted[low] ?? 0;
  const b = sorted[high] ?? a;
  return a + (b - a) * (at - low);
}

/** About five round values, the first at or below `lo` and the last at or above `hi`. */
export function niceTicks(lo: number, hi: number): number[] {
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return [];
  if (hi === lo) return [lo];
  const rough = (hi - lo) / 4;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= rough) ?? rough;
  const ticks: number[] = [];
  const last = Math.ceil(hi / step - 1e-9) * step;
  for (let v = Math.floor(lo / step + 1e-9) * step; v <= last + step * 1e-9; v += step) {
    ticks.push(Number(v.toPrecision(12)));
  }
  return ticks;
}

/** A linear scale from [lo, hi] to [left, right] (the middle when they are equal). */
function scale(lo: number, hi: number, left: number, right: number): (value: number) => number {
  if (hi === lo) return () => (left + right) / 2;
  return (value) => left + ((value - lo) / (hi - lo)) * (right - left);
}

/** The runs of `lane` with a value of `metric`, in the order of their repetitions. */
function valued(lane: StudyLane, metric: string): { run: StudyRun; value: number }[] {
  return lane.runs.flatMap((run) => {
    const value = runMetric(run, metric);
    return value === null ? [] : [{ run, value }];
  });
}

/** The plot of `metric` over every lane of `report` (and the A/A control's runs, if any), `width` pixels wide. */
export function stripPlot(report: StudyReport, metric: string, width: number): StripPlot {
  const lanes = report.lanes.map((lane) => ({ lane: lane.lane, runs: valued(lane, metric) }));
  const all = lanes.flatMap((lane) => lane.runs.map((run) => run.value));
  const lo = Math.min(0, ...all);
  const hi = all.length === 0 ? 1 : Math.max(...all);
  const ticks = niceTicks(lo, hi);
  const axisLo = Math.min(lo, ticks[0] ?? lo);
  const axisHi = Math.max(hi, ticks[ticks.length - 1] ?? hi);
  const x = scale(axisLo, axisHi, LEFT, width - RIGHT);
  const rows = lanes.map((lane, index) => row(lane.lane, lane.runs, x, ROW_HEIGHT * index + ROW_HEIGHT / 2));
  return {
    width,
    height: ROW_HEIGHT * lanes.length + 24,
    rows,
    ticks: ticks.map((value) => ({ x: x(value), value })),
  };
}

/** One lane's row at `y`: dots stacked where they meet (or columns of counts past `DOTS_UP_TO`), its box and mean. */
function row(lane: string, runs: { run: StudyRun; value: number }[], x: (value: number) => number, y: number): PlotRow {
  const sorted = runs.map((run) => run.value).sort((a, b) => a - b);
  const box =
    sorted.length === 0
      ? null
      : {
          min: x(sorted[0] ?? 0),
          q1: x(quantile(sorted, 0.25)),
          median: x(quantile(sorted, 0.5)),
          q3: x(quantile(sorted, 0.75)),
          max: x(sorted[sorted.length - 1] ?? 0),
        };
  const mean = sorted.length === 0 ? null : x(sorted.reduce((a, b) => a + b, 0) / sorted.length);
  // Runs at the same pixel column stack above and below the row's middle, in turn.
  const taken = new Map<number, number>();
  const column = (value: number) => Math.round(x(value) / DOT_STEP) * DOT_STEP;
  if (runs.length > DOTS_UP_TO) {
    for (const { value } of runs) taken.set(column(value), (taken.get(column(value)) ?? 0) + 1);
    const most = Math.max(...taken.values());
    const columns = [...taken].map(([at, count]) => ({ x: at, count, height: (count / most) * (ROW_HEIGHT - 16) }));
    return { lane, y, dots: [], columns, box, mean };
  }
  const dots = runs.map(({ run, value }) => {
    const at = column(value);
    const k = taken.get(at) ?? 0;
    taken.set(at, k + 1);
    const offset = Math.min(Math.ceil(k / 2) * DOT_STEP, ROW_HEIGHT / 2 - 6) * (k % 2 === 0 ? 1 : -1);
    return { repetition: run.repetition, value, x: x(value), y: y + offset, completed: run.status === "completed" };
  });
  return { lane, y, dots, columns: [], box, mean };
}

/** One pair's difference of a metric, relative to the lane it is set against, as an interval around zero. */
export interface DifferenceBar {
  label: string;
  /** The interval and the mean difference, in pixels; null: no relative difference (the other lane's mean is 0). */
  lo: number | null;
  hi: number | null;
  mean: number | null;
  /** The same, as fractions (0.1 = +10 %). */
  relative: [number, number, number] | null;
  /** The interval leaves the A/A band: a difference more than noise. */
  beyondNoise: boolean;
}

/** Each pair's relative difference in `metric`, with the A/A control's interval as the noise band. */
export interface DifferencePlot {
  width: number;
  zero: number;
  bars: DifferenceBar[];
  /** The A/A control's interval, in pixels; null without a control. */
  band: [number, number] | null;
  ticks: Tick[];
}

function relativeOf(pair: StudyPair, metric: string): [number, number, number] | null {
  const difference = pair.metrics[metric];
  const ci = difference?.relative_ci95;
  const mean = difference?.relative;
  if (ci == null || mean == null || ci[0] === null || ci[1] === null) return null;
  return [ci[0], mean, ci[1]];
}

/** The differences of `metric` between the pairs of `report`, `width` pixels wide. */
export function differencePlot(report: StudyReport, metric: string, width: number): DifferencePlot {
  const pairs = report.pairs.map((pair) => ({ label: `${pair.a} − ${pair.b}`, relative: relativeOf(pair, metric) }));
  const aa = report.aa == null ? null : relativeOf(report.aa, metric);
  const values = [0, ...pairs.flatMap((pair) => pair.relative ?? []), ...(aa ?? [])];
  const reach = Math.max(...values.map(Math.abs), 0.01);
  const ticks = niceTicks(-reach, reach);
  const edge = Math.max(reach, ...ticks.map(Math.abs));
  const x = scale(-edge, edge, LEFT, width - RIGHT);
  const bars = pairs.map(({ label, relative }) => ({
    label,
    lo: relative === null ? null : x(relative[0]),
    mean: relative === null ? null : x(relative[1]),
    hi: relative === null ? null : x(relative[2]),
    relative,
    beyondNoise:
      relative !== null &&
      (aa === null ? relative[0] > 0 || relative[2] < 0 : relative[0] > aa[2] || relative[2] < aa[0]),
  }));
  return {
    width,
    zero: x(0),
    bars,
    band: aa === null ? null : [x(aa[0]), x(aa[2])],
    ticks: ticks.map((value) => ({ x: x(value), value })),
  };
}
