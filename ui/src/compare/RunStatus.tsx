// Where the comparison is (running which of its lanes with how many events so far, finished with
// how each run ended in words, cancelled, or failed and why) and, once it finished, its first
// divergence in the report's own words (none when one adapter ran live).
import type { ComparisonReport } from "../platform";
import type { RunState } from "./store";
import { LANES } from "./timeline";
import { statusText } from "./words";

/** The run status in words. */
export function runStatusText(run: RunState): string {
  switch (run.status) {
    case "running": {
      const total = LANES.reduce((sum, lane) => sum + run.events[lane].length, 0);
      const events = `${String(total)} ${total === 1 ? "event" : "events"} so far`;
      if (run.current === null) return `Starting the comparison… ${events}`;
      return `Running the ${run.current} run (${String(run.lanes.indexOf(run.current) + 1)} of ${String(run.lanes.length)}): ${events}`;
    }
    case "finished": {
      const report = run.report;
      const ends = report === null ? [] : [...report.runs, ...(report.baseline === null ? [] : [{ ...report.baseline, adapter: "baseline" }])];
      return `Finished: ${ends.map((end) => `${end.adapter} ${statusText(end.status)}`).join(", ")}`;
    }
    case "cancelled":
      return "Cancelled: the lanes keep the events from before the cancel";
    case "failed":
      return run.failure === null ? "The comparison failed" : `${run.failure.title}: ${run.failure.detail}`;
  }
}

export function RunStatus({ run }: { run: RunState }) {
  return (
    <p
      className={`run-status ${run.status}`}
      data-testid="run-status"
      data-status={run.status}
      role={run.status === "failed" ? "alert" : "status"}
    >
      {runStatusText(run)}
    </p>
  );
}

/** The first divergence's one line, or why there is none. */
export function divergenceText(report: ComparisonReport): string {
  const divergence = report.divergence;
  if (divergence === null) return "none: only one adapter ran";
  const first = divergence.first;
  return first === null
    ? "none: the runs made the same calls with the same results and ended the same way"
    : first.explanation;
}

export function DivergenceLine({ report }: { report: ComparisonReport }) {
  return (
    <p className="divergence-line">
      <strong>First divergence:</strong> <span data-testid="divergence">{divergenceText(report)}</span>
    </p>
  );
}
