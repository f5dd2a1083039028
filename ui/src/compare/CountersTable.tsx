// The comparison's counters side by side: one column per run (dynamic, restart, the all-FULL
// baseline), and restart minus dynamic when both ran; each run's status above them in words, and
// below, the prompt tokens each adapter used against the baseline when there is one (a live
// comparison has none), said as more or fewer. Counters are written as the command line writes
// them, so QA can hold one beside the other.
//
// A priced comparison (a live one, as its model) has a Cost row too, its price said in its title,
// the cost with the prompt cache (estimated), and as the provider measured it when it said.
//
// data-testids: counters, counter-row (data-counter) with counter-<lane> and counter-delta cells,
// cost-row, cost-cache-row and (a live run whose provider measured its cache) cost-measured-row
// with cost-<lane> and cost-delta cells,
// status-<lane> (a run's status in words, data-status the raw one), savings (the row) with
// savings-dynamic and savings-restart (data-saved: the report's saved_prompt_tokens).
import type { ComparisonReport, Lane, RunCost, RunStatus } from "../platform";
import { counterRows, laneCosts, LANES, signed } from "./timeline";
import { moneyText, pricedText, savingsText, savingsTitle, statusText } from "./words";

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

function shown(value: number | undefined): string {
  return value === undefined ? "—" : String(value);
}

export function CountersTable({ report }: { report: ComparisonReport }) {
  const status = statuses(report);
  const columns = counterColumns(report);
  const savings = new Map((report.baseline?.savings ?? []).map((entry) => [entry.adapter, entry]));
  const savingsCell = (lane: "dynamic" | "restart") => {
    const entry = savings.get(lane);
    if (entry === undefined) {
      return (
        <td key={lane} data-testid={`savings-${lane}`}>
          —
        </td>
      );
    }
    return (
      <td
        key={lane}
        data-testid={`savings-${lane}`}
        data-saved={entry.saved_prompt_tokens}
        title={savingsTitle(lane, entry.prompt_tokens, entry.saved_prompt_tokens)}
      >
        {savingsText(entry.saved_prompt_tokens, entry.saved_percent)}
      </td>
    );
  };
  return (
    <table className="counters" data-testid="counters">
      <caption>Counters</caption>
      <thead>
        <tr>
          <th scope="col">Counter</th>
          {columns.map((column) => (
            <th key={column} scope="col">
              {column === "delta" ? (
                // Two lines at most when the pane is narrow: "restart −" stays together.
                <>
                  <span className="keep-together">restart −</span> dynamic
                </>
              ) : (
                HEADINGS[column]
              )}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        <tr className="status-row">
          <th scope="row">Status</th>
          {columns.map((column) => {
            if (column === "delta") return <td key={column} />;
            const value = status[column];
            return (
              <td key={column} data-testid={`status-${column}`} data-status={value}>
                {value === undefined ? "—" : statusText(value)}
              </td>
            );
          })}
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
        <CostRow report={report} columns={columns} />
      </tbody>
      {report.baseline !== null && (
        <tfoot>
          <tr data-testid="savings">
            <th scope="row" title="The run's prompt tokens against the all-FULL baseline's: fewer or more, and the change in percent of the baseline's">
              Prompt tokens against the baseline
            </th>
            {columns.map((column) =>
              column === "dynamic" || column === "restart" ? (
                savingsCell(column)
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

/** What each run cost, when the comparison was priced (a live one, as its model): none otherwise. */
function CostRow({ report, columns }: { report: ComparisonReport; columns: Column[] }) {
  const cost = laneCosts(report);
  const priced = Object.values(cost)[0];
  if (priced === undefined) return null;
  return (
    <>
      <MoneyRow testId="cost-row" label={`Cost (${priced.priced_as})`} title={pricedText(priced)} cost={cost} amount={(run) => run.total} columns={columns} />
      <MoneyRow
        testId="cost-cache-row"
        label="With the prompt cache"
        title="Estimated: what each call's prompt shares with the previous call's, served by the model's prompt cache at its cache prices"
        cost={cost}
        amount={(run) => run.total_with_cache}
        columns={columns}
      />
      {/* What a live provider said its cache did, beside the estimate. */}
      {Object.values(cost).some((run) => run.measured != null) && (
        <MoneyRow
          testId="cost-measured-row"
          label="With the cache, as measured"
          title="The provider's own figures of what its prompt cache read and wrote, priced; a call it said nothing of at the plain price"
          cost={cost}
          amount={(run) => run.measured?.cost}
          columns={columns}
        />
      )}
    </>
  );
}

interface MoneyRowProps {
  testId: string;
  label: string;
  title: string;
  cost: Partial<Record<Lane, RunCost>>;
  /** The amount shown; absent in a report written before it existed. */
  amount: (cost: RunCost) => number | null | undefined;
  columns: Column[];
}

/** One amount of each run's cost, and restart minus dynamic. */
function MoneyRow({ testId, label, title, cost, amount, columns }: MoneyRowProps) {
  const value = (lane: Lane) => {
    const run = cost[lane];
    return run === undefined ? null : (amount(run) ?? null);
  };
  const [dynamic, restart] = [value("dynamic"), value("restart")];
  const delta = dynamic === null || restart === null ? null : restart - dynamic;
  const currency = Object.values(cost)[0]?.currency ?? "USD";
  return (
    <tr data-testid={testId} title={title}>
      <th scope="row">{label}</th>
      {columns.map((column) => {
        if (column === "delta") {
          return (
            <td key={column} data-testid="cost-delta" className={delta === null || delta === 0 ? "delta" : "delta changed"}>
              {delta === null ? "—" : moneyText(delta, currency, true)}
            </td>
          );
        }
        const shown = value(column);
        return (
          <td key={column} data-testid={`cost-${column}`}>
            {shown === null ? "—" : moneyText(shown, currency)}
          </td>
        );
      })}
    </tr>
  );
}
