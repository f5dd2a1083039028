// The comparison's counters side by side: dynamic, restart, restart minus dynamic, and the all-FULL
// baseline; each run's status above them, and below, the prompt tokens each adapter saved against the
// baseline. Numbers are written as the command line writes them, so QA can hold one beside the other.
import type { ComparisonReport, Lane, RunStatus } from "../platform";
import { counterRows, signed } from "./timeline";

/** "-533 (-80.3%)": tokens saved, and the percent of the baseline's when it has any. */
export function savingsText(saved: number, percent: number | null): string {
  return percent === null ? signed(saved) : `${signed(saved)} (${percent > 0 ? "+" : ""}${percent.toFixed(1)}%)`;
}

function statuses(report: ComparisonReport): Partial<Record<Lane, RunStatus>> {
  const status: Partial<Record<Lane, RunStatus>> = {};
  for (const run of report.runs) status[run.adapter] = run.status;
  if (report.baseline !== null) status.baseline = report.baseline.status;
  return status;
}

function shown(value: number | string | undefined): string {
  return value === undefined ? "—" : String(value);
}

export function CountersTable({ report }: { report: ComparisonReport }) {
  const status = statuses(report);
  const savings = new Map((report.baseline?.savings ?? []).map((entry) => [entry.adapter, entry]));
  const saved = (lane: Lane) => {
    const entry = lane === "baseline" ? undefined : savings.get(lane);
    return entry === undefined ? "—" : savingsText(entry.saved_prompt_tokens, entry.saved_percent);
  };
  return (
    <table className="counters" data-testid="counters">
      <caption>Counters</caption>
      <thead>
        <tr>
          <th scope="col">Counter</th>
          <th scope="col">dynamic</th>
          <th scope="col">restart</th>
          <th scope="col">restart − dynamic</th>
          <th scope="col">baseline</th>
        </tr>
      </thead>
      <tbody>
        <tr className="status-row">
          <th scope="row">Status</th>
          <td>{shown(status.dynamic)}</td>
          <td>{shown(status.restart)}</td>
          <td />
          <td>{shown(status.baseline)}</td>
        </tr>
        {counterRows(report).map((row) => (
          <tr key={row.key} data-testid="counter-row" data-counter={row.key}>
            <th scope="row">{row.label}</th>
            <td data-testid="counter-dynamic">{shown(row.values.dynamic)}</td>
            <td data-testid="counter-restart">{shown(row.values.restart)}</td>
            <td data-testid="counter-delta" className={row.delta === null || row.delta === 0 ? "delta" : "delta changed"}>
              {row.delta === null ? "—" : signed(row.delta)}
            </td>
            <td data-testid="counter-baseline">{shown(row.values.baseline)}</td>
          </tr>
        ))}
      </tbody>
      {report.baseline !== null && (
        <tfoot>
          <tr data-testid="savings">
            <th scope="row" title="The baseline's prompt tokens minus the run's: negative when the run used more">
              Prompt tokens saved against the baseline
            </th>
            <td data-testid="savings-dynamic">{saved("dynamic")}</td>
            <td data-testid="savings-restart">{saved("restart")}</td>
            <td />
            <td>—</td>
          </tr>
        </tfoot>
      )}
    </table>
  );
}
