// Where the comparison is (running which of its lanes, or all side by side, with how many events so far, finished with
// how each run ended in words, with its failed tool calls, cancelled, or failed and why) and, once it
// finished, its first divergences in the report's own words: one per run after the first, against
// the first, each named by its pair when there are several (none when one adapter ran). A
// finished comparison in which a run did not complete, or a tool call failed, is shown as a warning,
// not as a success; results from before the last change to the scenario or template say so.
import type { ComparisonReport, Counters, Divergence, Lane, RunStatus as RunStatusKind } from "../platform";
import { count, laneName, listed, outcomeText } from "../shared/words";
import type { RunState } from "../runs/run";
import { runLane } from "../runs/timeline";

/** How each run of a finished comparison ended (the baseline last), with its counters. */
function runEnds(run: RunState): { lane: Lane; status: RunStatusKind; counters: Counters }[] {
  const report = run.report;
  if (report === null) return [];
  const runs = report.runs.map((end) => ({ lane: runLane(end), status: end.status, counters: end.counters }));
  const { baseline } = report;
  return baseline === null
    ? runs
    : [...runs, { lane: "baseline", status: baseline.status, counters: baseline.counters }];
}

/** Whether the comparison finished with a run that did not complete, or a failed tool call. */
export function finishedWithTrouble(run: RunState): boolean {
  return (
    run.status === "finished" &&
    runEnds(run).some((end) => end.status !== "completed" || end.counters.failed_tool_calls > 0)
  );
}

/** The run status in words. */
export function runStatusText(run: RunState): string {
  switch (run.status) {
    case "running": {
      const total = run.lanes.reduce((sum, lane) => sum + (run.events[lane]?.length ?? 0), 0);
      const events = `${String(total)} ${total === 1 ? "event" : "events"} so far`;
      const ended = (lane: Lane) => (run.events[lane] ?? []).some((event) => event.type === "run_completed");
      // Between two runs in turn, the one that just ended is still named.
      const unended = run.started.filter((lane) => !ended(lane));
      const running = unended.length > 0 ? unended : run.started.slice(-1);
      const [only] = running;
      if (only === undefined) return `Starting the comparison… ${events}`;
      if (running.length > 1) return `Running the ${listed(running.map(laneName))} runs side by side: ${events}`;
      return `Running the ${laneName(only)} run (${String(run.lanes.indexOf(only) + 1)} of ${String(run.lanes.length)}): ${events}`;
    }
    case "finished": {
      const ends = runEnds(run).map((end) => ({ lane: end.lane, outcome: outcomeText(end.status, end.counters) }));
      const failures = runEnds(run).some((end) => end.counters.failed_tool_calls > 0);
      const first = ends[0];
      // Every run ended the same way with the same failed tool calls: said once.
      if (failures && first !== undefined && ends.length > 1 && ends.every((end) => end.outcome === first.outcome)) {
        return `Finished: all ${count(ends.length, "run")} ${first.outcome} in each`;
      }
      // An outcome with failed tool calls has a comma of its own: the runs are then apart by "; ".
      return `Finished: ${ends.map((end) => `${laneName(end.lane)} ${end.outcome}`).join(failures ? "; " : ", ")}`;
    }
    case "cancelled":
      return "Cancelled: the lanes keep the events from before the cancel";
    case "failed":
      return run.failure === null ? "The comparison failed" : `${run.failure.title}: ${run.failure.detail}`;
  }
}

/**
 * The run's status; `outOfDate` when the scenario or the template changed since it ran, so its
 * results no longer say what running them now would do.
 */
export function RunStatus({ run, outOfDate }: { run: RunState; outOfDate: boolean }) {
  const warning = finishedWithTrouble(run);
  const stale = outOfDate && run.status !== "running";
  return (
    <p
      className={`run-status ${run.status}${warning ? " warning" : ""}${stale ? " out-of-date" : ""}`}
      data-testid="run-status"
      data-status={run.status}
      data-outcome={run.status === "finished" ? (warning ? "warning" : "success") : undefined}
      role={run.status === "failed" ? "alert" : "status"}
    >
      {runStatusText(run)}
      {stale && (
        <span className="out-of-date-note" data-testid="run-out-of-date">
          Out of date: the scenario or the template changed since this comparison ran. Run it again to see what they do
          now.
        </span>
      )}
    </p>
  );
}

/** One pair's first divergence in the report's words, or why there is none. */
export function pairText(divergence: Divergence): string {
  const first = divergence.first;
  return first === null
    ? "none: the runs made the same calls with the same results and ended the same way"
    : first.explanation;
}

/** "restart against dynamic": a pair named, the later run first. */
export function pairName(divergence: Pick<Divergence, "left" | "right">): string {
  return `${laneName(divergence.right)} against ${laneName(divergence.left)}`;
}

/**
 * The first divergences' lines: with one pair its line alone, with several each named by its pair
 * ("restart against dynamic: …"), with one run why there is none.
 */
export function divergenceLines(report: ComparisonReport): string[] {
  const { divergences } = report;
  if (divergences.length === 0) return ["none: only one adapter ran"];
  const [only] = divergences;
  if (divergences.length === 1 && only !== undefined) return [pairText(only)];
  return divergences.map((divergence) => `${pairName(divergence)}: ${pairText(divergence)}`);
}

/** The first divergence's line (one pair, or none), or a list of them, one per pair. */
export function DivergenceLine({ report }: { report: ComparisonReport }) {
  const lines = divergenceLines(report);
  if (lines.length === 1) {
    return (
      <p className="divergence-line">
        <strong>First divergence:</strong> <span data-testid="divergence">{lines[0]}</span>
      </p>
    );
  }
  return (
    <div className="divergence-line">
      <strong>First divergences:</strong>
      <ul className="divergence-list">
        {report.divergences.map((divergence, index) => (
          <li key={divergence.right} data-testid="divergence" data-left={divergence.left} data-right={divergence.right}>
            {lines[index]}
          </li>
        ))}
      </ul>
    </div>
  );
}
