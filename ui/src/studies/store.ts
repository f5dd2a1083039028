// A study's state and actions, without React (spec 14): how the next comparison is repeated (the
// repetitions, the A/A control), the study under way with its progress and what it has spent, its
// cancel, the finished report, and where the history keeps each repetition's runs, so any of them
// opens on the timeline. React reads it through `subscribe`/`getState`.
import type { ComparisonSettings, Platform, StudyProgress, StudyReport } from "../platform";
import { ExternalStore } from "../shared/ExternalStore";
import { failureOf, type Failure } from "../shared/failure";
import { STUDY_ANSWERED } from "./studyDrawnMark";

/** The most repetitions a study may ask for (the backend's `MAX_REPEAT`). */
export const MAX_REPEAT = 10_000;

/** The seed of a study's bootstrap intervals, as the command line's default. */
const SEED = 1;

export interface StudyState {
  /** How many times the next comparison runs: 1 is a single comparison, more a study. */
  repeat: number;
  /** The next study runs the first lane once more per repetition, as its own control. */
  aa: boolean;
  /** The study shown: none, under way, finished (or cancelled: the report says), or failed. */
  phase: "none" | "running" | "finished" | "failed";
  /** The study's id, for its cancel. */
  id: number;
  /** The repetitions ended, and planned. */
  done: number;
  planned: number;
  /** What it has spent so far, in US dollars (null: not priced). */
  spentUsd: number | null;
  /** A cancel was asked and is being honoured. */
  cancelling: boolean;
  report: StudyReport | null;
  /** Where the history keeps each run, by `runKey(lane, repetition)`. */
  kept: Readonly<Record<string, number>>;
  failure: Failure | null;
}

/** The key of lane `lane`'s run of repetition `repetition` in `StudyState.kept`. */
export function runKey(lane: string, repetition: number): string {
  return `${lane}#${repetition}`;
}

/** `repeat` as a study can ask for it: a whole number from 1 to `MAX_REPEAT`. */
export function boundedRepeat(repeat: number): number {
  if (!Number.isFinite(repeat)) return 1;
  return Math.min(MAX_REPEAT, Math.max(1, Math.round(repeat)));
}

export class StudyStore extends ExternalStore<StudyState> {
  private studies = 0;

  constructor(private readonly platform: Platform) {
    super({
      repeat: 1,
      aa: false,
      phase: "none",
      id: 0,
      done: 0,
      planned: 0,
      spentUsd: null,
      cancelling: false,
      report: null,
      kept: {},
      failure: null,
    });
  }

  /** Sets how many times the next comparison runs. */
  setRepeat(repeat: number): void {
    this.update({ repeat: boundedRepeat(repeat) });
  }

  /** Sets whether the next study has an A/A control. */
  setAa(aa: boolean): void {
    this.update({ aa });
  }

  /** Whether Run starts a study rather than one comparison. */
  repeats(): boolean {
    return this.state.repeat > 1;
  }

  /** Lets go of the study shown (a single comparison takes its place). */
  forget(): void {
    if (this.state.phase === "running") return;
    this.update({ phase: "none", report: null, kept: {}, failure: null });
  }

  /** Runs the comparison `settings` asks for on the open template and scenario as a study. */
  async run(templateId: number, scenarioId: number, settings: ComparisonSettings): Promise<void> {
    if (this.state.phase === "running") return;
    const id = ++this.studies;
    const { repeat, aa } = this.state;
    this.update({
      phase: "running",
      id,
      done: 0,
      planned: repeat,
      spentUsd: null,
      cancelling: false,
      report: null,
      kept: {},
      failure: null,
    });
    const study = { repeat, aa, seed: SEED, maxCostUsd: null, jobs: 1 };
    const result = await this.platform.runStudy(templateId, scenarioId, id, settings, study, (progress) => {
      if (this.state.id === id) this.progressed(progress);
    });
    if (this.state.id !== id) return;
    if (result.ok) {
      performance.mark(STUDY_ANSWERED);
      this.update({ phase: "finished", report: result.value, cancelling: false });
    } else
      this.update({
        phase: "failed",
        cancelling: false,
        failure: failureOf("The study did not run", result.error),
      });
  }

  private progressed(progress: StudyProgress): void {
    const kept = { ...this.state.kept };
    for (const run of progress.kept) {
      if (run.history_id !== null) kept[runKey(run.lane, progress.repetition)] = run.history_id;
    }
    this.update({ done: progress.done, planned: progress.planned, spentUsd: progress.spent_usd, kept });
  }

  /** Stops the study: no repetition starts after, those under way are left out. */
  async cancel(): Promise<void> {
    if (this.state.phase !== "running" || this.state.cancelling) return;
    this.update({ cancelling: true });
    const result = await this.platform.cancelStudy(this.state.id);
    if (!result.ok) this.update({ cancelling: false, failure: failureOf("The study was not cancelled", result.error) });
  }

  /** The history's id of lane `lane`'s run of repetition `repetition`; null when not kept. */
  historyId(lane: string, repetition: number): number | null {
    return this.state.kept[runKey(lane, repetition)] ?? null;
  }
}
