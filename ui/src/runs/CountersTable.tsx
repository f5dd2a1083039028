// The comparison's counters side by side: one column per run in the order they ran, then, for two
// runs, a difference column (the second minus the first: "restart − dynamic"), then the all-FULL
// baseline; with more runs each later run's difference from the first is written under its values; each run's status above them in words, and below, the prompt tokens each
// adapter used against the baseline when there is one (a live comparison has none), said as more or
// fewer. Counters are written as the command line writes
// them, so QA can hold one beside the other.
//
// A priced comparison (a live one, as its model) has a Cost row too, its price said in its title,
// the cost with the prompt cache (estimated), and as the provider measured it when it said.
//
// data-testids: counters, counter-row (data-counter) with counter-<lane> cells (the value in its
// `.value` span) and counter-delta cells or, under a later run's value, spans (data-lane: the later
// run's lane, data-against: the first run's), cost-row, cost-cache-row and (a
// live run whose provider measured its cache) cost-measured-row with cost-<lane> and cost-delta cells
// (data-lane, data-against), status-<lane> (a run's status in words, data-status the raw one),
// savings (the row) with savings-<adapter> (data-saved: the report's saved_prompt_tokens).
import type { ComparisonReport, Lane, RunCost, RunStatus } from "../platform";
import { counterRows, deltaPairs, laneCosts, reportLanes, runLane, signed } from "./timeline";
import { laneName, moneyText, pricedText, savingsText, savingsTitle, statusText } from "../shared/words";
import "./runs.css";

function statuses(report: ComparisonReport): Partial<Record<Lane, RunStatus>> {
  const status: Partial<Record<Lane, RunStatus>> = {};
  for (const run of report.runs) status[runLane(run)] = run.status;
  if (report.baseline !== null) status.baseline = report.baseline.status;
  return status;
}

/**
 * A column of the table: a run's lane (with `against`, the first run's lane, when its difference
 * from the first is shown under each of its values), or a later run (`lane`) minus the first
 * (`against`) in a column of its own.
 */
export type Column = { kind: "lane"; lane: Lane; against?: Lane } | { kind: "delta"; lane: Lane; against: Lane };

/** A column's React key. */
const keyOf = (column: Column) => (column.kind === "lane" ? column.lane : `delta-${column.lane}`);

/**
 * The runs the report has in the order they ran, then the baseline. With two runs, the second minus
 * the first has a column of its own before the baseline; with more, each later run's difference
 * from the first is shown under its values, so the table still fits a narrow pane.
 */
export function counterColumns(report: ComparisonReport): Column[] {
  const lanes = reportLanes(report);
  const pairs = deltaPairs(report);
  const inline = pairs.length > 1;
  const against = (lane: Lane) => (inline ? pairs.find((pair) => pair.right === lane)?.left : undefined);
  const runs = lanes
    .filter((lane) => lane !== "baseline")
    .map((lane): Column => {
      const first = against(lane);
      return first === undefined ? { kind: "lane", lane } : { kind: "lane", lane, against: first };
    });
  const deltas = inline ? [] : pairs.map(({ left, right }): Column => ({ kind: "delta", lane: right, against: left }));
  return [...runs, ...deltas, ...(lanes.includes("baseline") ? [{ kind: "lane", lane: "baseline" } as const] : [])];
}

/** "517 more (+120.8%)" that breaks, when it must, only before its parenthesis. */
function WrapBeforeParenthesis({ text }: { text: string }) {
  const at = text.indexOf(" (");
  if (at < 0) return <span className="keep-together">{text}</span>;
  return (
    <>
      <span className="keep-together">{text.slice(0, at)}</span>{" "}
      <span className="keep-together">{text.slice(at + 1)}</span>
    </>
  );
}

/** A difference from the first run, as a cell of its own or under a later run's value. */
function DeltaText({
  testId,
  lane,
  against,
  text,
  changed,
  inline,
}: {
  testId: string;
  lane: Lane;
  against: Lane;
  text: string;
  changed: boolean;
  inline: boolean;
}) {
  const className = `delta${inline ? " inline" : ""}${changed ? " changed" : ""}`;
  const props = { "data-testid": testId, "data-lane": lane, "data-against": against, className };
  if (inline)
    return (
      <span {...props} title={`${laneName(lane)} − ${laneName(against)}`}>
        {text}
      </span>
    );
  return <td {...props}>{text}</td>;
}

/** "restart − dynamic", "baseline": a column's heading in words. */
export function columnHeading(column: Column): string {
  return column.kind === "lane" ? laneName(column.lane) : `${laneName(column.lane)} − ${laneName(column.against)}`;
}

function shown(value: number | undefined): string {
  return value === undefined ? "—" : value.toLocaleString("en-US");
}

export function CountersTable({ report }: { report: ComparisonReport }) {
  const status = statuses(report);
  const columns = counterColumns(report);
  const savings = new Map((report.baseline?.savings ?? []).map((entry) => [entry.adapter, entry]));
  const savingsCell = (lane: Lane) => {
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
        <WrapBeforeParenthesis text={savingsText(entry.saved_prompt_tokens, entry.saved_percent)} />
      </td>
    );
  };
  const first = columns.find((column) => column.kind === "lane" && column.against !== undefined)?.against;
  return (
    <table className="counters" data-testid="counters">
      <caption>
        Counters
        {first !== undefined && (
          <span className="caption-note"> · under each later run, its difference from {laneName(first)}</span>
        )}
      </caption>
      <thead>
        <tr>
          <th scope="col">Counter</th>
          {columns.map((column) => (
            <th
              key={keyOf(column)}
              scope="col"
              title={
                column.kind === "delta" ? `${columnHeading(column)}: the difference between the two runs` : undefined
              }
            >
              {column.kind === "delta" ? (
                // Two lines at most when the pane is narrow: "restart −" stays together.
                <>
                  <span className="keep-together">{laneName(column.lane)} −</span> {laneName(column.against)}
                </>
              ) : (
                columnHeading(column)
              )}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        <tr className="status-row">
          <th scope="row">Status</th>
          {columns.map((column) => {
            if (column.kind === "delta") return <td key={keyOf(column)} />;
            const value = status[column.lane];
            return (
              <td key={keyOf(column)} data-testid={`status-${column.lane}`} data-status={value}>
                {value === undefined ? "—" : statusText(value)}
              </td>
            );
          })}
        </tr>
        {counterRows(report).map((row) => (
          <tr key={row.key} data-testid="counter-row" data-counter={row.key}>
            <th scope="row">{row.label}</th>
            {columns.map((column) => {
              const delta = row.deltas[column.lane];
              const deltaText = (lane: Lane, against: Lane, inline: boolean) => (
                <DeltaText
                  key={keyOf(column)}
                  testId="counter-delta"
                  lane={lane}
                  against={against}
                  text={delta === undefined ? "—" : signed(delta)}
                  changed={delta !== undefined && delta !== 0}
                  inline={inline}
                />
              );
              if (column.kind === "delta") return deltaText(column.lane, column.against, false);
              return (
                <td key={keyOf(column)} data-testid={`counter-${column.lane}`}>
                  <span className="value">{shown(row.values[column.lane])}</span>
                  {column.against !== undefined && deltaText(column.lane, column.against, true)}
                </td>
              );
            })}
          </tr>
        ))}
        <CostRow report={report} columns={columns} />
      </tbody>
      {report.baseline !== null && (
        <tfoot>
          <tr data-testid="savings">
            <th
              scope="row"
              title="The run's prompt tokens against the all-FULL baseline's: fewer or more, and the change in percent of the baseline's"
            >
              Prompt tokens against the baseline
            </th>
            {columns.map((column) =>
              column.kind === "lane" && column.lane !== "baseline" ? (
                savingsCell(column.lane)
              ) : (
                <td key={keyOf(column)}>{column.kind === "lane" ? "—" : null}</td>
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
      <MoneyRow
        testId="cost-row"
        label={`Cost (${priced.priced_as})`}
        title={pricedText(priced)}
        cost={cost}
        amount={(run) => run.total}
        columns={columns}
      />
      <MoneyRow
        testId="cost-cache-row"
        label="With the prompt cache"
        title="Estimated: what each call's prompt shares with the previous call's, served by the model's prompt cache at its cache prices"
        cost={cost}
        amount={(run) => run.total_with_cache}
        columns={columns}
      />
      {/* What a live provider said its cache did, beside the estimate. */}
      {Object.values(cost).some((run) => run?.measured != null) && (
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

/** One amount of each run's cost, and each later run's minus the first's. */
function MoneyRow({ testId, label, title, cost, amount, columns }: MoneyRowProps) {
  const value = (lane: Lane) => {
    const run = cost[lane];
    return run === undefined ? null : (amount(run) ?? null);
  };
  const currency = Object.values(cost)[0]?.currency ?? "USD";
  return (
    <tr data-testid={testId} title={title}>
      <th scope="row">{label}</th>
      {columns.map((column) => {
        const deltaText = (lane: Lane, against: Lane, inline: boolean) => {
          const [from, to] = [value(against), value(lane)];
          const delta = from === null || to === null ? null : to - from;
          return (
            <DeltaText
              key={keyOf(column)}
              testId="cost-delta"
              lane={lane}
              against={against}
              text={delta === null ? "—" : moneyText(delta, currency, true)}
              changed={delta !== null && delta !== 0}
              inline={inline}
            />
          );
        };
        if (column.kind === "delta") return deltaText(column.lane, column.against, false);
        const shown = value(column.lane);
        return (
          <td key={keyOf(column)} data-testid={`cost-${column.lane}`}>
            <span className="value">{shown === null ? "—" : moneyText(shown, currency)}</span>
            {column.against !== undefined && deltaText(column.lane, column.against, true)}
          </td>
        );
      })}
    </tr>
  );
}
