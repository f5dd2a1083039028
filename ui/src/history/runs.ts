// The run history as plain data, without React: the filter as typed and the RunFilter the backend is
// asked with, the kept runs grouped by comparison, a kept run's row in words (what it is — an
// adapter's run or the all-FULL baseline —, when it started, what ran it, how long it took), how it
// ended, its counters alone or beside the reference run's with the deltas, and one kept run or a pair
// as the lanes the compare view's Timeline draws (a pair's reference run in the Timeline's
// "baseline" slot, named after its run, the other run under its adapter) with the first divergence's
// events in them.
//
// Two words, never mixed: the **all-FULL baseline** is the run a comparison makes with every section
// FULL (kept with lane "baseline"); the **reference run** is the kept run the user picks to compare
// other runs with (any run, an all-FULL baseline included).
import type {
  AdapterKind,
  Counters,
  Lane,
  RunComparison,
  RunEvent,
  RunFilter,
  RunOrigin,
  RunStatus,
  RunSummary,
  StoredRun,
} from "../platform";
import { COUNTER_ROWS, counterRowShown, LANES, type EventPlace, type LaneLabel } from "../runs/timeline";
import { laneName, moneyText, pricedText } from "../shared/words";
import type { RunState } from "../runs/run";

/** The filter as the bar holds it: text as typed, and "" for any adapter, status or source. */
export interface HistoryFilter {
  /** A template's key. */
  template: string;
  /** A provider: a profile's name, or `scripted`. */
  provider: string;
  adapter: AdapterKind | "";
  status: RunStatus | "";
  source: RunOrigin | "";
}

/** The filter that lists every run. */
export const ANY_RUN: HistoryFilter = { template: "", provider: "", adapter: "", status: "", source: "" };

/** How many runs the list asks for: the newest, enough to scroll and find one without a filter. */
export const HISTORY_LIMIT = 200;

export const RUN_STATUSES: readonly RunStatus[] = [
  "completed",
  "turn_limit",
  "restart_limit",
  "loop_detected",
  "max_tokens",
  "error",
];
export const RUN_ORIGINS: readonly RunOrigin[] = ["scripted", "live", "replay"];

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

/** The all-FULL baseline's name, wherever a run is named. */
export const ALL_FULL_BASELINE = "all-FULL baseline";

/** The name of the run the user picks to compare other runs with. */
export const REFERENCE_RUN = "reference run";

/** Whether `run` is a comparison's all-FULL baseline (every section FULL, under the dynamic adapter). */
export function isAllFullBaseline(run: Pick<RunSummary, "lane">): boolean {
  return run.lane === "baseline";
}

/** Whether the run was a host lane of a comparison (`host:claude-code`). */
function isHostLane(run: Pick<RunSummary, "lane">): run is { lane: string } {
  return run.lane?.startsWith("host:") === true;
}

/** Whether the run was a real agent host's (`real:openai-agents`): no adapter ran it. */
function isRealHostLane(run: Pick<RunSummary, "lane">): run is { lane: string } {
  return run.lane?.startsWith("real:") === true;
}

/** What the run is: "all-FULL baseline", a (real) host lane's name, else its adapter's run, "restart adapter". */
export function runKind(run: Pick<RunSummary, "lane" | "adapter">): string {
  if (isAllFullBaseline(run)) return ALL_FULL_BASELINE;
  return isHostLane(run) || isRealHostLane(run) ? run.lane : `${laneName(run.adapter)} adapter`;
}

/** What the run is, at length, for a tooltip. */
export function runKindTitle(run: Pick<RunSummary, "lane" | "adapter">): string {
  if (isAllFullBaseline(run)) {
    return "The comparison's run with every section FULL and every tool described in full, under the dynamic adapter";
  }
  if (isRealHostLane(run)) return `Run by the real agent host ${run.lane.slice("real:".length)}`;
  return isHostLane(run)
    ? `Run as the agent host of ${run.lane} shows new tools, under the ${laneName(run.adapter)} adapter`
    : `Run under the ${laneName(run.adapter)} adapter`;
}

/** "run 3, all-FULL baseline", "run 2, restart adapter": a run named with what it is. */
export function runTitle(run: Pick<RunSummary, "id" | "lane" | "adapter">): string {
  return `${runName(run)}, ${runKind(run)}`;
}

/** What the run answered from: a scripted run's scenario, else the provider and model. */
export function ranWith(run: RunSummary): string {
  if (run.source === "scripted" && run.scenario !== null) return run.scenario;
  return run.model === null ? run.provider : `${run.provider} (${run.model})`;
}

/**
 * The kept runs of one comparison (any number: one per adapter it ran), in lane order (dynamic,
 * restart, allowed_tools, deferred, all-FULL baseline), or one run of its own.
 */
export type RunGroup =
  { kind: "comparison"; key: string; runs: RunSummary[] } | { kind: "single"; key: string; run: RunSummary };

/**
 * What the runs of one comparison share, or null for a run of its own (a live run or a replay, kept
 * without a lane). A comparison keeps each of its runs with its lane and the same start time,
 * source, template, scenario, provider and model.
 */
function comparisonOf(run: RunSummary): string | null {
  if ((run.lane ?? null) === null) return null;
  return JSON.stringify([
    run.started_at_ms,
    run.source,
    run.template_hash,
    run.template,
    run.scenario,
    run.provider,
    run.model,
  ]);
}

const laneOrder = (lane: string | null | undefined) => {
  const index = LANES.findIndex((known) => known === lane);
  return index === -1 ? LANES.length : index;
};

/**
 * The listed runs as the page shows them, in the list's order (newest first): the runs of one
 * comparison together, in lane order, where its newest run is listed; every other run alone. A lane
 * met twice with the same start time and origin starts another comparison (two cannot share a lane).
 */
export function groupRuns(runs: readonly RunSummary[]): RunGroup[] {
  const groups: RunGroup[] = [];
  const open = new Map<string, RunSummary[]>();
  runs.forEach((run, index) => {
    const comparison = comparisonOf(run);
    const key = run.id === null ? `row-${String(index)}` : String(run.id);
    if (comparison === null) {
      groups.push({ kind: "single", key, run });
      return;
    }
    const members = open.get(comparison);
    if (members !== undefined && !members.some((member) => member.lane === run.lane)) {
      members.push(run);
      return;
    }
    const started: RunSummary[] = [run];
    open.set(comparison, started);
    groups.push({ kind: "comparison", key: `comparison-${key}`, runs: started });
  });
  for (const group of groups) {
    if (group.kind === "comparison")
      group.runs.sort((a, b) => laneOrder(a.lane) - laneOrder(b.lane) || (a.id ?? 0) - (b.id ?? 0));
  }
  return groups;
}

/** "comparison, 3 runs": a comparison's heading in the list. */
export function comparisonText(runs: readonly RunSummary[]): string {
  const counted = `${String(runs.length)} ${runs.length === 1 ? "run" : "runs"}`;
  // A fork's runs all leave the same parent at the same event.
  const from = runs[0]?.forked_from ?? null;
  return from === null
    ? `comparison, ${counted}`
    : `fork of run ${String(from.run)} at event ${String(from.at_seq)}, ${counted}`;
}

/** What a comparison's runs cost together, and how they were priced. */
export interface ComparisonCost {
  /** "$0.1234 in all". */
  text: string;
  /** "priced as claude-sonnet-4-5: USD per million tokens, taken …". */
  title: string;
}

/**
 * What `runs` cost together, when each was priced alike (one model, one currency); null when one
 * was not priced, so that a part is never shown as the whole.
 */
export function comparisonCost(runs: readonly RunSummary[]): ComparisonCost | null {
  const [first] = runs;
  const priced = first?.cost ?? null;
  if (priced === null) return null;
  let total = 0;
  for (const { cost } of runs) {
    if (cost === null || cost.total === null || cost.currency !== priced.currency || cost.model !== priced.model)
      return null;
    total += cost.total;
  }
  return {
    text: `${moneyText(total, priced.currency)} in all`,
    title: `What its runs cost together, ${pricedText(priced)}`,
  };
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

/** One counter of a run beside the reference run's, and run minus reference. */
export interface PairRow {
  key: keyof Counters;
  label: string;
  reference: number;
  run: number;
  delta: number;
}

/** The two runs' counters side by side, in the compare view's order. */
export function pairCounterRows(reference: Counters, run: Counters): PairRow[] {
  // A counter a report may leave out (tools never shown) is none, and its row is left out when both are.
  const shown = COUNTER_ROWS.filter(({ key }) => counterRowShown(key, [reference[key], run[key]]));
  return shown.map(({ key, label }) => {
    const [before, after] = [reference[key] ?? 0, run[key] ?? 0];
    return { key, label, reference: before, run: after, delta: after - before };
  });
}

/** Kept runs as the Timeline draws them: a finished comparison's state, and each lane's name. */
export interface KeptLanes {
  run: RunState;
  labels: Partial<Record<Lane, LaneLabel>>;
}

function keptLanes(lanes: readonly { lane: Lane; run: StoredRun; note: string }[]): KeptLanes {
  const events: Partial<Record<Lane, RunEvent[]>> = {};
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
      started: lanes.map(({ lane }) => lane),
      events,
      writing: {},
      report: null,
      failure: null,
      // Kept runs are not compared with what is open now.
      inputs: "",
    },
    labels,
  };
}

/** "dynamic adapter, scripted", "all-FULL baseline, scripted": what a lane's note says of its run. */
function laneNote(run: StoredRun): string {
  return `${runKind(run)}, ${run.source}`;
}

/** One kept run: a lane keyed by its adapter. */
export function runLanes(run: StoredRun): KeptLanes {
  return keptLanes([{ lane: run.adapter, run, note: laneNote(run) }]);
}

/**
 * A run beside the reference run: the reference run first, in the Timeline's "baseline" slot (the
 * one lane free whatever the two adapters; a named lane is never taken for the all-FULL baseline),
 * the run under its adapter.
 */
export function pairLanes(reference: StoredRun, run: StoredRun): KeptLanes {
  return keptLanes([
    { lane: "baseline", run: reference, note: `${REFERENCE_RUN}: ${laneNote(reference)}` },
    { lane: run.adapter, run, note: laneNote(run) },
  ]);
}

/** The first divergence's events in pairLanes' lanes: the reference run's side (the core's "baseline", left), then the run's. */
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
  return first === null
    ? "none: the runs made the same calls with the same results and ended the same way"
    : first.explanation;
}
