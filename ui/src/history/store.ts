// The run history page's state and actions, without React: the filter and the kept runs it lists
// (newest first), the selected run read whole, the reference run (the run the user picks to compare
// others with; never called the baseline, which is a comparison's all-FULL run), the selected run
// compared with it (both runs whole, for their events), the event picked on a timeline, the selected
// run's trace written where the user chooses, and the last action that failed or the last export's
// notice. It lives in the workspace, so the page finds its selection again when it shows.
// React reads it through `subscribe`/`getState`.
import type { ForkModel, Lane, Platform, RunComparison, RunEvent, RunSummary, StoredRun } from "../platform";
import { describeError, failureOf, type BriefFailure, type Failure } from "../shared/failure";
import type { ForkChoice } from "../runs/ForkDialog";
import { ExternalStore } from "../shared/ExternalStore";
import { ANY_RUN, REFERENCE_RUN, runFilterOf, type HistoryFilter } from "./runs";
import type { PickedEvent } from "../runs/run";

/** The selected run beside the reference run: what the backend compared (its `baseline` is the reference run), and both runs whole. */
export interface HistoryComparison {
  comparison: RunComparison;
  reference: StoredRun;
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
  /** The reference run: the run chosen to compare others with (kept when a filter no longer lists it). */
  reference: RunSummary | null;
  /** The selected run compared with the reference run, until another run is selected. */
  comparison: HistoryComparison | null;
  picked: PickedEvent | null;
  /** The last action that was not done, until the next one succeeds or it is dismissed. */
  failure: Failure | null;
  /** What the last export wrote, until the next export or it is dismissed. */
  notice: string | null;
  /** The fork asked of a kept run at its picked event, while its question is open. */
  fork: HistoryFork | null;
}

/** The provider of a kept run the scenario's script answered. */
const SCRIPTED = "scripted";

/** A fork of kept run `run` (its lane `lane`) at its event `seq`. */
export interface HistoryFork {
  run: number;
  lane: Lane;
  seq: number;
  /** Its events: what the question offers to change. */
  events: RunEvent[];
  /** The model that goes on from the event: the kept run's own (its provider profile, or the script). */
  model: ForkModel;
  busy: boolean;
  failure: BriefFailure | null;
}

/** Whether the selected run can be compared with the reference run: both are there, and they differ. */
export function comparable(state: Pick<HistoryState, "reference" | "run">): boolean {
  const reference = state.reference?.id ?? null;
  const run = state.run?.id ?? null;
  return reference !== null && run !== null && reference !== run;
}

export class HistoryStore extends ExternalStore<HistoryState> {
  /** Counts the lists asked for: only the newest one's answer is shown. */
  private loads = 0;

  constructor(private readonly platform: Platform) {
    super({
      filter: ANY_RUN,
      runs: null,
      selected: null,
      run: null,
      reference: null,
      comparison: null,
      picked: null,
      failure: null,
      notice: null,
      fork: null,
    });
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
    this.update(
      kept
        ? { runs, failure: null }
        : { runs, failure: null, selected: null, run: null, comparison: null, picked: null },
    );
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

  /**
   * Shows the fork `id` beside the run it is a fork of (spec 15): the list read again (a fork is
   * new), the fork selected, its parent the reference run, and the two compared, so the timeline
   * draws the fork as a branch of its parent.
   */
  async openBesideParent(id: number): Promise<void> {
    await this.load();
    await this.select(id);
    const parent = this.state.run?.forked_from?.run ?? null;
    if (parent === null || this.state.selected !== id) return;
    if (!this.state.runs?.some((run) => run.id === parent)) {
      // Older than the list: read whole, it serves as the reference run too.
      const read = await this.platform.historyRun(parent);
      if (!read.ok) {
        this.update({ failure: failureOf(`Run ${String(parent)} was not read`, read.error) });
        return;
      }
      this.update({ reference: read.value, comparison: null });
    } else {
      this.useAsReference(parent);
    }
    await this.compareWithReference();
  }

  /** Chooses the run `id` (a listed one, or the selected one) as the reference run the others are compared with. */
  useAsReference(id: number): void {
    const reference =
      this.state.runs?.find((run) => run.id === id) ?? (this.state.run?.id === id ? this.state.run : null);
    if (reference === null) return;
    this.update({ reference, comparison: null });
  }

  /** Forgets the reference run. */
  clearReference(): void {
    this.update({ reference: null, comparison: null });
  }

  /** Compares the selected run with the reference run (the backend's baseline), and reads the reference run whole for its events. */
  async compareWithReference(): Promise<void> {
    const { reference, run } = this.state;
    const referenceId = reference?.id ?? null;
    const runId = run?.id ?? null;
    if (run === null || referenceId === null || runId === null || referenceId === runId) return;
    const [compared, read] = await Promise.all([
      this.platform.compareHistoryRuns(referenceId, runId),
      this.platform.historyRun(referenceId),
    ]);
    // Another run or reference run was chosen meanwhile: this comparison is no longer asked for.
    if (this.state.run !== run || this.state.reference !== reference) return;
    const title = `${runName(run)} was not compared with the ${REFERENCE_RUN}`;
    if (!compared.ok) this.update({ failure: failureOf(title, compared.error) });
    else if (!read.ok) this.update({ failure: failureOf(title, read.error) });
    else
      this.update({
        comparison: { comparison: compared.value, reference: read.value, run },
        picked: null,
        failure: null,
      });
  }

  /** Shows the selected run alone again. */
  closeComparison(): void {
    this.update({ comparison: null, picked: null });
  }

  /**
   * Asks how to fork the kept run the picked event is of (the reference run's, when it is picked
   * on the reference run's side of a comparison) at that event.
   */
  openFork(): void {
    const { picked, run, comparison } = this.state;
    if (picked === null || run === null) return;
    const forked = comparison !== null && picked.lane === "baseline" ? comparison.reference : run;
    if (forked.id === null) return;
    const lane: Lane = forked.lane ?? forked.adapter;
    const model: ForkModel =
      forked.provider === SCRIPTED ? { scripted: { price_as: null } } : { live: { profile: forked.provider } };
    const fork = { run: forked.id, lane, seq: picked.event.seq, events: forked.report.events, model };
    this.update({ fork: { ...fork, busy: false, failure: null } });
  }

  /** Leaves the fork's question (not while it runs). */
  closeFork(): void {
    if (this.state.fork?.busy !== true) this.update({ fork: null });
  }

  /**
   * Runs the fork asked as `choice` says, on the files the kept run names and with its model, then
   * shows its first run beside its parent; a refusal stays in the question.
   */
  async runFork(choice: ForkChoice): Promise<void> {
    const { fork } = this.state;
    if (fork === null || fork.busy) return;
    this.update({ fork: { ...fork, busy: true, failure: null } });
    const answer = await this.platform.forkRun({
      parent: { kept: fork.run },
      at_seq: fork.seq,
      change: { results: choice.results, expand: choice.expand },
      lanes: choice.lanes,
      model: fork.model,
      documents: null,
      history: true,
      run_id: null,
    });
    if (!answer.ok) {
      this.update({ fork: { ...fork, busy: false, failure: describeError(answer.error) } });
      return;
    }
    this.update({ fork: null });
    const first = answer.value.kept.find((id) => id !== null);
    if (first !== undefined) await this.openBesideParent(first);
  }

  /** Picks an event on a timeline. */
  pick(lane: Lane, event: RunEvent): void {
    this.update({ picked: { lane, event } });
  }

  /** Asks where to write the selected run's trace (OTLP JSON lines), then writes it there. */
  async exportTrace(): Promise<void> {
    const id = this.state.run?.id ?? null;
    if (id === null) return;
    const title = `The trace of run ${String(id)} was not written`;
    const chosen = await this.platform.chooseFile("save_trace", `run-${String(id)}.otlp.jsonl`);
    if (!chosen.ok) {
      this.update({ failure: failureOf(title, chosen.error), notice: null });
      return;
    }
    const path = chosen.value;
    if (path === null) return;
    const written = await this.platform.exportRunTrace(id, path);
    if (written.ok) this.update({ notice: `Exported to ${path}`, failure: null });
    else this.update({ failure: failureOf(title, written.error), notice: null });
  }

  dismiss(): void {
    this.update({ failure: null, notice: null });
  }
}

/** "Run 12". */
function runName(run: StoredRun): string {
  return run.id === null ? "The run" : `Run ${String(run.id)}`;
}
