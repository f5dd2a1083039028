// A study as the fake platform runs it: the report a test sets (else the study of the
// support-agent example's refund scenario the command line wrote, fixtures/support-agent.study.json:
// `unfold compare … --adapters dynamic,restart --repeat 5 --aa --json`), played back repetition by
// repetition to the listener with its runs kept under ids from 701, cut to the repetitions asked
// for. A test may hold the study after its first repetition (`hold`), to see its progress and
// cancel it; a cancelled study answers the repetitions that ended, `stopped` saying so.
import type { ComparisonSettings, Outcome, StudyProgress, StudyReport, StudySettings } from "../platform";
import recorded from "./fixtures/support-agent.study.json?raw";

/** The recorded study, as the backend answered it. */
export const RECORDED_STUDY = JSON.parse(recorded) as StudyReport;

export class FakeStudy {
  /** The report a study answers (cut to the repetitions asked for). */
  report: StudyReport = RECORDED_STUDY;
  /** Hold the study after its first repetition until `release`. */
  hold = false;
  /** What each run asked, in order. */
  readonly asked: { settings: ComparisonSettings; study: StudySettings }[] = [];
  private held: (() => void) | null = null;
  private cancelled = false;
  private nextRunId = 701;

  /** Lets a held study go on. */
  release(): void {
    this.held?.();
    this.held = null;
  }

  async runStudy(
    settings: ComparisonSettings,
    study: StudySettings,
    onProgress: (progress: StudyProgress) => void,
  ): Promise<Outcome<StudyReport>> {
    this.asked.push({ settings, study });
    this.cancelled = false;
    const repeat = Math.min(study.repeat, this.report.repeat);
    let spent = 0;
    let done = 0;
    for (let repetition = 1; repetition <= repeat; repetition++) {
      if (this.wasCancelled()) break;
      const runs = this.report.lanes.flatMap((lane) => lane.runs.filter((run) => run.repetition === repetition));
      spent += runs.reduce((sum, run) => sum + (run.cost_usd ?? 0), 0);
      const kept = this.report.lanes.map((lane) => ({ lane: lane.lane, history_id: this.nextRunId++ }));
      done = repetition;
      onProgress({ repetition, done, planned: repeat, spent_usd: spent, kept });
      if (this.hold) await new Promise<void>((resolve) => (this.held = resolve));
    }
    const cut = (runs: StudyReport["lanes"][number]["runs"]) => runs.filter((run) => run.repetition <= done);
    const report: StudyReport = {
      ...this.report,
      repeat: study.repeat,
      lanes: this.report.lanes.map((lane) => ({ ...lane, runs: cut(lane.runs) })),
      stopped: this.wasCancelled()
        ? { reason: "cancelled", after: done, spent_usd: spent, next_usd: null, max_cost_usd: null }
        : this.report.stopped,
    };
    return { ok: true, value: report };
  }

  /** Read through a method: a cancel comes while the study awaits. */
  private wasCancelled(): boolean {
    return this.cancelled;
  }

  cancelStudy(): Promise<Outcome<null>> {
    this.cancelled = true;
    this.release();
    return Promise.resolve({ ok: true, value: null });
  }
}
