// The comparison's counters side by side: one column per run (dynamic, restart, the all-FULL
// baseline), and restart minus dynamic when both ran; each run's status above them, and below,
// the prompt tokens each adapter saved against the baseline when there is one (a live comparison
// has none). Numbers are written as the command line writes them, so QA can hold one beside the other.
import type { ComparisonReport, Lane, RunStatus } from "../platform";
import { counterRows, LANES, signed } from "./timeline";

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

/** A column of the table: a run's lane, or restart minus dynamic. */
type Column = Lane | "delta";

/** The runs the report has, in lane order, with restart minus dynamic after restart when both ran. */
export function counterColumns(report: ComparisonReport): Column[] {
  const status = statuses(report);
  const both = status.dynamic !== undefined && status.restart !== undefined;
  return LANES.filter((lane) => status[lane] !== undefined).flatMap((lane): Column[] =>
    lane === "restart" && both ? [lane, "delta"] : [lane],
  );
}

const HEADINGS: Record<Column, string> = { dynamic: "dynamic", restart: "restart", delta: "restart − dynamic", baseline: "baseline" };

function shown(value: number | string | undefined): string {
  return value === undefined ? "—" : String(value);
}

export function CountersTable({ report }: { report: ComparisonReport }) {
  const status = statuses(report);
  const columns = counterColumns(report);
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
          {columns.map((column) => (
            <th key={column} scope="col">
              {HEADINGS[column]}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        <tr className="status-row">
          <th scope="row">Status</th>
          {columns.map((column) => (
            <td key={column}>{column === "delta" ? null : shown(status[column])}</td>
          ))}
        </tr>
        {counterRows(report).map((row) => (
          <tr key={row.key} data-testid="counter-row" data-counter={row.key}>
            <th scope="row">{row.label}</th>
            {columns.map((column) =>
              column === "delta" ? (
                <td key={column} data-testid="counter-delta" className={row.delta === null || row.delta === 0 ? "delta" : "delta changed"}>
                  {row.delta === null ? "—" : signed(row.delta)}
                </td>
              ) : (
                <td key={column} data-testid={`counter-${column}`}>
                  {shown(row.values[column])}
                </td>
              ),
            )}
          </tr>
        ))}
      </tbody>
      {report.baseline !== null && (
        <tfoot>
          <tr data-testid="savings">
            <th scope="row" title="The baseline's prompt tokens minus the run's: negative when the run used more">
              Prompt tokens saved against the baseline
            </th>
            {columns.map((column) =>
              column === "dynamic" || column === "restart" ? (
                <td key={column} data-testid={`savings-${column}`}>
                  {saved(column)}
                </td>
              ) : (
                <td key={column}>{column === "baseline" ? "—" : null}</td>
              ),
            )}
          </tr>
        </tfoot>
      )}
    </table>
  );
}
