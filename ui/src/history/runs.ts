// The run history as plain data, without React: the filter as typed and the RunFilter the backend is
// asked with, a kept run's row in words (when it started, what ran it, how long it took), how it
// ended, its counters alone or beside a baseline run's with the deltas, and one kept run or a pair
// as the lanes the compare view's Timeline draws (a pair's baseline in the "baseline" lane, the
// other run under its adapter) with the first divergence's events in them.
import type { AdapterKind, Counters, Lane, RunComparison, RunEvent, RunFilter, RunSource, RunStatus, RunSummary, StoredRun } from "../platform";
import type { RunState } from "../compare/store";
import { COUNTER_ROWS, type EventPlace, type LaneLabel } from "../compare/timeline";

/** The filter as the bar holds it: text as typed, and "" for any adapter, status or source. */
export interface HistoryFilter {
  /** A template's key. */
  template: string;
  /** A provider: a profile's name, or `scripted`. */
  provider: string;
  adapter: AdapterKind | "";
  status: RunStatus | "";
  source: RunSource | "";
}

/** The filter that lists every run. */
export const ANY_RUN: HistoryFilter = { template: "", provider: "", adapter: "", status: "", source: "" };

/** How many runs the list asks for: the newest, enough to scroll and find one without a filter. */
export const HISTORY_LIMIT = 200;

export const RUN_STATUSES: readonly RunStatus[] = ["completed", "turn_limit", "restart_limit", "loop_detected", "error"];
export const RUN_SOURCES: readonly RunSource[] = ["scripted", "live", "replay"];

/** Whether `filter` lists every run. */
export function isAnyRun(filter: HistoryFilter): boolean {
  const { template, provider, adapter, status, source } = filter;
  return [template, provider, adapter, status, source].every((value) => value.trim() === "");
}

/** What the backend is asked to list for `filter`: its fields that are set (text trimmed), the newest HISTORY_LIMIT. */
export function runFilterOf(filter: HistoryFilter): RunFilter {
  return {
    ...(filter.template.trim() === "" ? {} : { template: filter.template.trim() }),
    ...(filter.provider.trim() === "" ? {} : { provider: filter.provider.trim() }),
    ...(filter.adapter === "" ? {} : { adapter: filter.adapter }),
    ...(filter.status === "" ? {} : { status: filter.status }),
    ...(filter.source === "" ? {} : { source: filter.source }),
    limit: HISTORY_LIMIT,
  };
}

/** "run 12" (a run the backend sent without an id is just "run"). */
export function runName(run: Pick<RunSummary, "id">): string {
  return run.id === null ? "run" : `run ${String(run.id)}`;
}

/** When the run started, in the user's local time. */
export function startedText(ms: number | null): string {
  return ms === null ? "—" : new Date(ms).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "medium" });
}

/** "45 ms", "8.4 s", "2 min 5 s". */
export function durationText(ms: number | null): string {
  if (ms === null) return "—";
  if (ms < 1_000) return `${String(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1_000);
  return `${String(Math.floor(seconds / 60))} min ${String(seconds % 60)} s`;
}

/** What the run answered from: a scripted run's scenario and comparison lane, else the provider and model. */
export function ranWith(run: RunSummary): string {
  if (run.source === "scripted" && run.scenario !== null) return run.lane === null ? run.scenario : `${run.scenario} [${run.lane}]`;
  return run.model === null ? run.provider : `${run.provider} (${run.model})`;
}

/** "1,197 + 25": prompt and completion tokens. */
export function tokensText(counters: Counters): string {
  return `${counters.prompt_tokens.toLocaleString("en-US")} + ${counters.completion_tokens.toLocaleString("en-US")}`;
}

/** How a kept run ended: its final answer, what went wrong, or neither. */
export type Outcome = { kind: "final"; text: string } | { kind: "error"; text: string } | { kind: "none" };

/** The run's final answer, or the error its end recorded. */
export function outcomeOf(run: StoredRun): Outcome {
  if (run.report.final !== null) return { kind: "final", text: run.report.final };
  const end = run.report.events.find((event) => event.type === "run_completed");
  const error = end?.type === "run_completed" ? end.error : undefined;
  return error === undefined ? { kind: "none" } : { kind: "error", text: error };
}

/** One counter of a run beside the baseline run's, and run minus baseline. */
export interface PairRow {
  key: keyof Counters;
  label: string;
  baseline: number;
  run: number;
  delta: number;
}

/** The two runs' counters side by side, in the compare view's order. */
export function pairCounterRows(baseline: Counters, run: Counters): PairRow[] {
  return COUNTER_ROWS.map(({ key, label }) => ({ key, label, baseline: baseline[key], run: run[key], delta: run[key] - baseline[key] }));
}

/** Kept runs as the Timeline draws them: a finished comparison's state, and each lane's name. */
export interface KeptLanes {
  run: RunState;
  labels: Partial<Record<Lane, LaneLabel>>;
}

function keptLanes(lanes: readonly { lane: Lane; run: StoredRun; note: string }[]): KeptLanes {
  const events: Record<Lane, RunEvent[]> = { dynamic: [], restart: [], baseline: [] };
  const labels: Partial<Record<Lane, LaneLabel>> = {};
  for (const { lane, run, note } of lanes) {
    events[lane] = run.report.events;
    labels[lane] = { name: runName(run), note };
  }
  return {
    run: {
      id: 0,
      status: "finished",
      lanes: lanes.map(({ lane }) => lane),
      current: null,
      events,
      writing: { dynamic: "", restart: "", baseline: "" },
      report: null,
      failure: null,
    },
    labels,
  };
}

/** "dynamic adapter, scripted": what a lane's note says of its run. */
function laneNote(run: StoredRun): string {
  return `${run.adapter} adapter, ${run.source}`;
}

/** One kept run: a lane keyed by its adapter. */
export function runLanes(run: StoredRun): KeptLanes {
  return keptLanes([{ lane: run.adapter, run, note: laneNote(run) }]);
}

/** A run beside the baseline run: the baseline in the "baseline" lane (first), the run under its adapter. */
export function pairLanes(baseline: StoredRun, run: StoredRun): KeptLanes {
  return keptLanes([
    { lane: "baseline", run: baseline, note: `the baseline: ${laneNote(baseline)}` },
    { lane: run.adapter, run, note: laneNote(run) },
  ]);
}

/** The first divergence's events in pairLanes' lanes: the baseline's side, then the run's. */
export function pairDivergencePlaces(comparison: RunComparison): EventPlace[] {
  const first = comparison.divergence.first;
  if (first === null) return [];
  const places: EventPlace[] = [];
  if (first.left_at !== null) places.push({ lane: "baseline", seq: first.left_at.seq });
  if (first.right_at !== null) places.push({ lane: comparison.run.adapter, seq: first.right_at.seq });
  return places;
}

/** The first divergence's line, or why there is none. */
export function pairDivergenceText(comparison: RunComparison): string {
  const first = comparison.divergence.first;
  return first === null ? "none: the runs made the same calls with the same results and ended the same way" : first.explanation;
}
