// The run history page's state and actions, without React: the filter and the kept runs it lists
// (newest first), the selected run read whole, the run chosen as the baseline, the selected run
// compared with it (both runs whole, for their events), the event picked on a timeline, and the last
// action that failed. It lives in the workspace, so the page finds its selection again when it shows.
// React reads it through `subscribe`/`getState`.
import type { Lane, Platform, RunComparison, RunEvent, RunSummary, StoredRun } from "../platform";
import { failureOf, type Failure, type PickedEvent } from "../compare/store";
import { ExternalStore } from "../state/ExternalStore";
import { ANY_RUN, runFilterOf, type HistoryFilter } from "./runs";

/** The selected run beside the baseline: what the backend compared, and both runs whole. */
export interface HistoryComparison {
  comparison: RunComparison;
  baseline: StoredRun;
  run: StoredRun;
}

export interface HistoryState {
  filter: HistoryFilter;
  /** The runs the filter lists, newest first (null until first read). */
  runs: RunSummary[] | null;
  /** The selected run's id. */
  selected: number | null;
  /** The selected run, whole, once read. */
  run: StoredRun | null;
  /** The run chosen as the baseline (kept when a filter no longer lists it). */
  baseline: RunSummary | null;
  /** The selected run compared with the baseline, until another run is selected. */
  comparison: HistoryComparison | null;
  picked: PickedEvent | null;
  /** The last action that was not done, until the next one succeeds or it is dismissed. */
  failure: Failure | null;
}

/** Whether the selected run can be compared with the baseline: both are there, and they differ. */
export function comparable(state: Pick<HistoryState, "baseline" | "run">): boolean {
  const baseline = state.baseline?.id ?? null;
  const run = state.run?.id ?? null;
  return baseline !== null && run !== null && baseline !== run;
}

export class HistoryStore extends ExternalStore<HistoryState> {
  /** Counts the lists asked for: only the newest one's answer is shown. */
  private loads = 0;

  constructor(private readonly platform: Platform) {
    super({ filter: ANY_RUN, runs: null, selected: null, run: null, baseline: null, comparison: null, picked: null, failure: null });
  }

  /** Changes the filter and lists the runs it matches. */
  setFilter(change: Partial<HistoryFilter>): Promise<void> {
    this.update({ filter: { ...this.state.filter, ...change } });
    return this.load();
  }

  /** Lists the runs the filter matches; the selection stays while the run is still listed. */
  async load(): Promise<void> {
    const load = ++this.loads;
    const listed = await this.platform.runHistory(runFilterOf(this.state.filter));
    if (load !== this.loads) return;
    if (!listed.ok) {
      this.update({ failure: failureOf("The run history was not read", listed.error) });
      return;
    }
    const runs = listed.value;
    const { selected } = this.state;
    const kept = selected !== null && runs.some((run) => run.id === selected);
    this.update(kept ? { runs, failure: null } : { runs, failure: null, selected: null, run: null, comparison: null, picked: null });
  }

  /** Selects a run and reads it whole. */
  async select(id: number): Promise<void> {
    if (this.state.selected === id) return;
    this.update({ selected: id, run: null, comparison: null, picked: null });
    const read = await this.platform.historyRun(id);
    if (this.state.selected !== id) return;
    if (read.ok) this.update({ run: read.value, failure: null });
    else this.update({ failure: failureOf(`Run ${String(id)} was not read`, read.error) });
  }

  /** Chooses the run `id` (a listed one, or the selected one) as the baseline the others are compared with. */
  useAsBaseline(id: number): void {
    const baseline = this.state.runs?.find((run) => run.id === id) ?? (this.state.run?.id === id ? this.state.run : null);
    if (baseline === null) return;
    this.update({ baseline, comparison: null });
  }

  /** Forgets the baseline. */
  clearBaseline(): void {
    this.update({ baseline: null, comparison: null });
  }

  /** Compares the selected run with the baseline, and reads the baseline whole for its events. */
  async compareWithBaseline(): Promise<void> {
    const { baseline, run } = this.state;
    const baselineId = baseline?.id ?? null;
    const runId = run?.id ?? null;
    if (run === null || baselineId === null || runId === null || baselineId === runId) return;
    const [compared, base] = await Promise.all([this.platform.compareHistoryRuns(baselineId, runId), this.platform.historyRun(baselineId)]);
    // Another run or baseline was chosen meanwhile: this comparison is no longer asked for.
    if (this.state.run !== run || this.state.baseline !== baseline) return;
    const title = `${runName(run)} was not compared with the baseline`;
    if (!compared.ok) this.update({ failure: failureOf(title, compared.error) });
    else if (!base.ok) this.update({ failure: failureOf(title, base.error) });
    else this.update({ comparison: { comparison: compared.value, baseline: base.value, run }, picked: null, failure: null });
  }

  /** Shows the selected run alone again. */
  closeComparison(): void {
    this.update({ comparison: null, picked: null });
  }

  /** Picks an event on a timeline. */
  pick(lane: Lane, event: RunEvent): void {
    this.update({ picked: { lane, event } });
  }

  dismiss(): void {
    this.update({ failure: null });
  }
}

/** "Run 12". */
function runName(run: StoredRun): string {
  return run.id === null ? "The run" : `Run ${String(run.id)}`;
}
