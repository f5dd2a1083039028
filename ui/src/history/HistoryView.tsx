// The run history page: a filter bar (template, provider, adapter, status, source; Refresh), the
// kept runs newest first in a table, the runs of one comparison grouped under a heading row (each
// named by what it is: an adapter's run, or the all-FULL baseline), and the selected run's detail
// (its user message, final answer or error, counters and events on the runs' timeline),
// with the reference run (the run the user picks to compare others with; never called a baseline)
// and the selected run compared with it (both runs' counters with the deltas, the first
// divergence, both runs' lanes side by side), the selected run's trace exported as OTLP JSON lines;
// an empty state while no run is kept. Model text is shown as text. All state and actions live in
// HistoryStore.
//
// data-testids (tests select by them; keep them stable):
//   history-view                                   the page
//   history-filter-template, history-filter-provider, history-filter-adapter,
//     history-filter-status, history-filter-source, history-refresh   the filter bar
//   history-failure, history-failure-problems      why the last action was not done (every problem
//                                                    at its place)
//   history-notice                                 what the last export wrote (a toast)
//   history-empty                                  no run kept (or none the filter matches)
//   history-table                                  the runs
//   history-group (data-started),                  a comparison's runs (a tbody): its heading row and
//     history-group-head                             its runs, in lane order; in the heading,
//     history-open-comparison, history-run-again     its files opened on the Compare page (and run)
//   history-single                                 a run of its own (a live run, a replay): a tbody
//   history-row (data-id, data-lane,               a run; the selected row is aria-selected, the
//     data-reference)                                reference run's row data-reference="true"
//   history-run-kind (data-kind)                   what the run is: "dynamic adapter", "restart
//                                                    adapter", "all-FULL baseline" (data-kind: the
//                                                    adapter, or "all-full-baseline")
//   history-fork, history-beside-parent            a fork: which run it is a fork of and where, and
//                                                  the action that shows it beside that run
//   history-fork-from-here                         forks the picked event's run there (fork-dialog)
//   history-reference, history-clear-reference     the reference run
//   history-detail, history-run-title,             the selected run: its name, user message, final
//     history-user, history-final,                   answer or error, and counters
//     history-error, history-counters
//   history-use-reference, history-compare,        its actions
//     history-close-compare, history-export-trace
//   history-comparison, history-pair-counters,     the comparison: counters side by side (a row per
//     history-pair-row (data-counter), history-delta,  counter, run minus reference run), the first
//     history-divergence                             divergence's line
//   history-event                                  the picked event, as JSON text
import { RefreshCw } from "lucide-react";
import { useEffect, useLayoutEffect, useRef, useSyncExternalStore } from "react";
import type { Counters, Lane, RunSummary, StoredRun } from "../platform";
import { COUNTER_ROWS, laneViews, signed } from "../runs/timeline";
import { Timeline } from "../runs/Timeline";
import { ForkDialog } from "../runs/ForkDialog";
import { FailureAlert } from "../shared/ActionOutcome";
import { useDoneToast } from "../shared/ToastRegion";
import "../runs/runs.css";
import "./history.css";
import { comparable, type HistoryComparison, type HistoryState, type HistoryStore } from "./store";
import {
  comparisonCost,
  comparisonText,
  durationText,
  groupRuns,
  isAllFullBaseline,
  isAnyRun,
  outcomeOf,
  pairCounterRows,
  pairDivergencePlaces,
  pairDivergenceText,
  pairLanes,
  ranWith,
  REFERENCE_RUN,
  RUN_ORIGINS,
  RUN_STATUSES,
  runKind,
  runKindTitle,
  runLanes,
  runName,
  runTitle,
  startedText,
  tokensText,
  type HistoryFilter,
  type KeptLanes,
} from "./runs";
import { ADAPTERS } from "../runs/run";

/** Opens a kept comparison's template and scenario on the Compare page, and with `run` runs it again. */
export type OpenComparison = (template: string, scenario: string, run: boolean) => void;

export function HistoryView({ store, onOpenComparison }: { store: HistoryStore; onOpenComparison?: OpenComparison }) {
  const state = useSyncExternalStore(store.subscribe, store.getState);

  // Each time the page shows, it lists the runs kept until now (a comparison may have added some).
  useEffect(() => {
    void store.load();
  }, [store]);

  // The selected row stays in view as the detail opens under the list (its pane gets shorter).
  const list = useRef<HTMLElement>(null);
  useLayoutEffect(() => {
    if (state.selected === null) return;
    list.current?.querySelector('tr[aria-selected="true"]')?.scrollIntoView({ block: "nearest" });
  }, [state.selected]);

  const { runs } = state;
  return (
    <div className="history-view" data-testid="history-view">
      <FilterBar store={store} filter={state.filter} />
      <HistoryNotices store={store} state={state} />
      {runs === null ? (
        <p className="notice history-empty">Reading the run history…</p>
      ) : runs.length === 0 ? (
        <EmptyState filtered={!isAnyRun(state.filter)} />
      ) : (
        <div className={state.selected === null ? "history-panes" : "history-panes with-detail"}>
          <section className="pane history-list" aria-label="Runs" ref={list}>
            <ReferenceLine store={store} reference={state.reference} />
            <RunTable store={store} runs={runs} state={state} onOpen={onOpenComparison} />
          </section>
          {state.selected !== null && (
            <section
              className="pane history-detail"
              data-testid="history-detail"
              aria-label={`Run ${String(state.selected)}`}
            >
              {state.run === null ? (
                <p className="notice">Reading run {state.selected}…</p>
              ) : (
                <RunDetail store={store} state={state} run={state.run} />
              )}
            </section>
          )}
        </div>
      )}
    </div>
  );
}

/** Why the last action was not done; what the last export wrote, as a toast. */
function HistoryNotices({ store, state }: { store: HistoryStore; state: HistoryState }) {
  const dismiss = () => {
    store.dismiss();
  };
  const { failure, notice } = state;
  useDoneToast(notice, "history-notice", dismiss);
  return failure === null ? null : (
    <FailureAlert failure={failure} whole="run" testId="history-failure" onDismiss={dismiss} />
  );
}

function FilterBar({ store, filter }: { store: HistoryStore; filter: HistoryFilter }) {
  const set = (change: Partial<HistoryFilter>) => void store.setFilter(change);
  return (
    <div className="toolbar history-toolbar" role="search" aria-label="Filter the runs">
      <label>
        Template{" "}
        <input
          data-testid="history-filter-template"
          placeholder="any"
          title="A template's key, exactly"
          value={filter.template}
          onChange={(event) => {
            set({ template: event.target.value });
          }}
        />
      </label>
      <label>
        Provider{" "}
        <input
          data-testid="history-filter-provider"
          placeholder="any"
          title="A provider profile's name, or scripted, exactly"
          value={filter.provider}
          onChange={(event) => {
            set({ provider: event.target.value });
          }}
        />
      </label>
      <Choice
        label="Adapter"
        testId="history-filter-adapter"
        title="The all-FULL baseline runs under the dynamic adapter: it is listed with dynamic"
        value={filter.adapter}
        options={ADAPTERS}
        onChange={(adapter) => {
          set({ adapter });
        }}
      />
      <Choice
        label="Status"
        testId="history-filter-status"
        value={filter.status}
        options={RUN_STATUSES}
        onChange={(status) => {
          set({ status });
        }}
      />
      <Choice
        label="Source"
        testId="history-filter-source"
        value={filter.source}
        options={RUN_ORIGINS}
        onChange={(source) => {
          set({ source });
        }}
      />
      <button
        type="button"
        data-testid="history-refresh"
        title="List the runs kept until now"
        onClick={() => void store.load()}
      >
        <RefreshCw aria-hidden="true" />
        Refresh
      </button>
    </div>
  );
}

/** A select of `options` with "any" first (the empty value). */
function Choice<T extends string>({
  label,
  testId,
  title,
  value,
  options,
  onChange,
}: {
  label: string;
  testId: string;
  title?: string;
  value: T | "";
  options: readonly T[];
  onChange: (value: T | "") => void;
}) {
  return (
    <label>
      {label}{" "}
      <select
        data-testid={testId}
        title={title}
        value={value}
        onChange={(event) => {
          const chosen = options.find((option) => option === event.target.value);
          onChange(chosen ?? "");
        }}
      >
        <option value="">any</option>
        {options.map((option) => (
          <option key={option} value={option}>
            {option.replace(/_/g, " ")}
          </option>
        ))}
      </select>
    </label>
  );
}

function EmptyState({ filtered }: { filtered: boolean }) {
  return (
    <section className="compare-empty history-empty" data-testid="history-empty" aria-label="No runs">
      {filtered ? (
        <>
          <h2>No kept run matches the filter</h2>
          <p>The template and provider match exactly. Set a field back to any to see more runs.</p>
        </>
      ) : (
        <>
          <h2>No run is kept yet</h2>
          <p>
            Runs appear here once you run a comparison on the Compare page, or a live run, here or with the unfold
            command: each run is kept with its events, counters and timings, to reopen and compare with a reference run
            of your choice.
          </p>
        </>
      )}
    </section>
  );
}

function ReferenceLine({ store, reference }: { store: HistoryStore; reference: RunSummary | null }) {
  if (reference === null) {
    return (
      <p className="notice history-reference">
        No reference run chosen: select a run and use it as the reference run to compare other runs with it.
      </p>
    );
  }
  return (
    <p className="history-reference" data-testid="history-reference">
      <strong>Reference run:</strong> {runTitle(reference)} · {ranWith(reference)} ·{" "}
      {startedText(reference.started_at_ms)}{" "}
      <button
        type="button"
        data-testid="history-clear-reference"
        title="Choose no reference run"
        onClick={() => {
          store.clearReference();
        }}
      >
        Clear
      </button>
    </p>
  );
}

function RunTable({
  store,
  runs,
  state,
  onOpen,
}: {
  store: HistoryStore;
  runs: RunSummary[];
  state: HistoryState;
  onOpen: OpenComparison | undefined;
}) {
  return (
    <table className="history-table" data-testid="history-table">
      <thead>
        <tr>
          <th scope="col">Started</th>
          <th scope="col">Source</th>
          <th scope="col">Template</th>
          <th scope="col">Scenario or provider (model)</th>
          <th scope="col">Run</th>
          <th scope="col">Status</th>
          <th scope="col">Model calls</th>
          <th scope="col">Tokens (prompt + completion)</th>
          <th scope="col">Duration</th>
        </tr>
      </thead>
      {groupRuns(runs).map((group) =>
        group.kind === "single" ? (
          <tbody key={group.key} data-testid="history-single">
            <RunRow store={store} state={state} run={group.run} inComparison={false} />
          </tbody>
        ) : (
          <ComparisonRows key={group.key} store={store} state={state} runs={group.runs} onOpen={onOpen} />
        ),
      )}
    </table>
  );
}

/** A comparison's runs under a heading row that says what they share: when, where from, what it took. */
function ComparisonRows({
  store,
  state,
  runs,
  onOpen,
}: {
  store: HistoryStore;
  state: HistoryState;
  runs: RunSummary[];
  onOpen: OpenComparison | undefined;
}) {
  const [first] = runs;
  if (first === undefined) return null;
  const { template_path: template, scenario_path: scenario } = first;
  const reopen = onOpen !== undefined && template !== null && scenario !== null;
  const started = startedText(first.started_at_ms);
  const cost = comparisonCost(runs);
  return (
    <tbody
      className="history-group"
      data-testid="history-group"
      data-started={first.started_at_ms}
      aria-label={`Comparison started ${started}`}
    >
      <tr className="history-group-head" data-testid="history-group-head">
        <td>{started}</td>
        <td>{first.source}</td>
        <td className="squeeze" title={first.template_path ?? undefined}>
          {first.template}
        </td>
        <td className="squeeze" title={first.scenario_path ?? undefined}>
          {ranWith(first)}
        </td>
        <th scope="rowgroup" colSpan={4}>
          {comparisonText(runs)}
          {cost !== null && (
            <span className="history-group-cost" data-testid="history-group-cost" title={cost.title}>
              {" · "}
              {cost.text}
            </span>
          )}
          {reopen && (
            <span className="history-group-actions">
              <button
                type="button"
                data-testid="history-open-comparison"
                title={`Open ${template} with ${scenario} on the Compare page`}
                onClick={() => {
                  onOpen(template, scenario, false);
                }}
              >
                Open in Compare
              </button>
              <button
                type="button"
                data-testid="history-run-again"
                title="Open them on the Compare page and run the comparison again, as the files are now"
                onClick={() => {
                  onOpen(template, scenario, true);
                }}
              >
                Run again
              </button>
            </span>
          )}
        </th>
        <td className="number" title="How long the whole comparison took">
          {durationText(first.duration_ms)}
        </td>
      </tr>
      {runs.map((run, index) => (
        <RunRow key={run.id ?? `row-${String(index)}`} store={store} state={state} run={run} inComparison />
      ))}
    </tbody>
  );
}

/** A run's row; under a comparison's heading it leaves what the heading says (when, where from, how long) to it. */
function RunRow({
  store,
  state,
  run,
  inComparison,
}: {
  store: HistoryStore;
  state: HistoryState;
  run: RunSummary;
  inComparison: boolean;
}) {
  const { id } = run;
  const select = () => {
    if (id !== null) void store.select(id);
  };
  const reference = id !== null && state.reference?.id === id;
  return (
    <tr
      data-testid="history-row"
      data-id={id ?? undefined}
      data-lane={run.lane ?? undefined}
      data-reference={reference ? "true" : undefined}
      className={[inComparison ? "in-comparison" : "", run.status === "completed" ? "" : "ended-early"]
        .join(" ")
        .trim()}
      aria-selected={id !== null && state.selected === id}
      tabIndex={0}
      onClick={select}
      onKeyDown={(event) => {
        if (event.key !== "Enter" && event.key !== " ") return;
        event.preventDefault();
        select();
      }}
    >
      {inComparison ? (
        <td colSpan={4} className="history-group-gap" />
      ) : (
        <>
          <td>{startedText(run.started_at_ms)}</td>
          <td>{run.source}</td>
          <td className="squeeze" title={run.template_path ?? undefined}>
            {run.template}
          </td>
          <td className="squeeze" title={run.scenario_path ?? undefined}>
            {ranWith(run)}
          </td>
        </>
      )}
      <td
        className={isAllFullBaseline(run) ? "run-kind all-full-baseline" : "run-kind"}
        data-testid="history-run-kind"
        data-kind={isAllFullBaseline(run) ? "all-full-baseline" : run.adapter}
        title={runKindTitle(run)}
      >
        {runKind(run)}
        {reference && <span className="reference-badge">{REFERENCE_RUN}</span>}
      </td>
      <td className={`status-${run.status}`}>{run.status.replace(/_/g, " ")}</td>
      <td className="number">{run.counters.model_calls}</td>
      <td className="number">{tokensText(run.counters)}</td>
      <td className="number">{inComparison ? "" : durationText(run.duration_ms)}</td>
    </tr>
  );
}

/** The selected run: what it was asked and answered, its counters, its actions and its lane (or the comparison). */
function RunDetail({ store, state, run }: { store: HistoryStore; state: HistoryState; run: StoredRun }) {
  const outcome = outcomeOf(run);
  const { comparison } = state;
  const isReference = run.id !== null && state.reference?.id === run.id;
  const duration =
    (run.lane ?? null) === null
      ? durationText(run.duration_ms)
      : `${durationText(run.duration_ms)} (the whole comparison)`;
  return (
    <>
      <div className="history-detail-head">
        <h2 data-testid="history-run-title" title={runKindTitle(run)}>
          {runTitle(run)}
        </h2>
        <span className="notice">
          {run.template} · {ranWith(run)} · {run.source} · {run.status.replace(/_/g, " ")} ·{" "}
          {startedText(run.started_at_ms)} · {duration}
        </span>
      </div>
      {run.forked_from != null && (
        <p className="history-fork" data-testid="history-fork">
          Fork of run {run.forked_from.run} at event {run.forked_from.at_seq}: the events before it are its
          parent&apos;s, replayed.{" "}
          {comparison?.reference.id !== run.forked_from.run && (
            <button
              type="button"
              data-testid="history-beside-parent"
              title="Draw this fork beside the run it is a fork of, from where it left it"
              onClick={() => {
                if (run.id !== null) void store.openBesideParent(run.id);
              }}
            >
              Beside its parent
            </button>
          )}
        </p>
      )}
      <div className="history-actions">
        <button
          type="button"
          data-testid="history-use-reference"
          disabled={run.id === null || isReference}
          title={isReference ? "This run is the reference run" : "Compare other runs with this one"}
          onClick={() => {
            if (run.id !== null) store.useAsReference(run.id);
          }}
        >
          Use as reference run
        </button>
        {comparable(state) && state.reference !== null && (
          <button
            type="button"
            data-testid="history-compare"
            className="primary"
            title={`Compare ${runName(run)} with the reference run, ${runTitle(state.reference)}`}
            onClick={() => void store.compareWithReference()}
          >
            Compare with the reference run ({runName(state.reference)})
          </button>
        )}
        {comparison !== null && (
          <button
            type="button"
            data-testid="history-close-compare"
            onClick={() => {
              store.closeComparison();
            }}
          >
            Show this run alone
          </button>
        )}
        <button
          type="button"
          data-testid="history-export-trace"
          disabled={run.id === null}
          title="Write this run as an OpenTelemetry trace (OTLP JSON lines)"
          onClick={() => void store.exportTrace()}
        >
          Export trace…
        </button>
      </div>
      <h3>User message</h3>
      <pre data-testid="history-user">{run.user}</pre>
      {outcome.kind === "final" && (
        <>
          <h3>Final answer</h3>
          <pre data-testid="history-final">{outcome.text}</pre>
        </>
      )}
      {outcome.kind === "error" && (
        <p className="error" data-testid="history-error">
          <strong>The run failed:</strong> {outcome.text}
        </p>
      )}
      {outcome.kind === "none" && (
        <p className="notice">It ended without a final answer ({run.status.replace(/_/g, " ")}).</p>
      )}
      {comparison === null ? (
        <>
          <RunCounters counters={run.counters} />
          <KeptTimeline store={store} state={state} lanes={runLanes(run)} />
        </>
      ) : (
        <Comparison store={store} state={state} comparison={comparison} />
      )}
      <PickedEvent store={store} state={state} />
    </>
  );
}

function RunCounters({ counters }: { counters: Counters }) {
  return (
    <table className="counters" data-testid="history-counters">
      <caption>Counters</caption>
      <tbody>
        {COUNTER_ROWS.map(({ key, label }) => (
          <tr key={key} data-counter={key}>
            <th scope="row">{label}</th>
            <td>{counters[key]}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The selected run beside the reference run: counters with the deltas, the first divergence, both lanes. */
function Comparison({
  store,
  state,
  comparison,
}: {
  store: HistoryStore;
  state: HistoryState;
  comparison: HistoryComparison;
}) {
  const { reference, run } = comparison;
  // The backend's `baseline` is the run it was asked to compare with: the reference run.
  const summaries = { reference: comparison.comparison.baseline, run: comparison.comparison.run };
  return (
    <section
      className="history-comparison"
      data-testid="history-comparison"
      aria-label="Comparison with the reference run"
    >
      <p className="divergence-line">
        <strong>First divergence:</strong>{" "}
        <span data-testid="history-divergence">{pairDivergenceText(comparison.comparison)}</span>
      </p>
      <table className="counters" data-testid="history-pair-counters">
        <caption>Counters beside the reference run</caption>
        <thead>
          <tr>
            <th scope="col">Counter</th>
            <th scope="col">
              {runTitle(summaries.reference)} ({REFERENCE_RUN})
            </th>
            <th scope="col">{runTitle(summaries.run)}</th>
            <th scope="col">run − reference</th>
          </tr>
        </thead>
        <tbody>
          <tr className="status-row">
            <th scope="row">Status</th>
            <td>{summaries.reference.status.replace(/_/g, " ")}</td>
            <td>{summaries.run.status.replace(/_/g, " ")}</td>
            <td />
          </tr>
          {pairCounterRows(summaries.reference.counters, summaries.run.counters).map((row) => (
            <tr key={row.key} data-testid="history-pair-row" data-counter={row.key}>
              <th scope="row">{row.label}</th>
              <td>{row.reference}</td>
              <td>{row.run}</td>
              <td data-testid="history-delta" className={row.delta === 0 ? "delta" : "delta changed"}>
                {signed(row.delta)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <KeptTimeline
        store={store}
        state={state}
        lanes={pairLanes(reference, run)}
        divergence={pairDivergencePlaces(comparison.comparison)}
        forkPoint={
          run.forked_from != null && run.forked_from.run === reference.id
            ? { lane: run.adapter, seq: run.forked_from.at_seq }
            : undefined
        }
      />
    </section>
  );
}

function KeptTimeline({
  store,
  state,
  lanes,
  divergence = [],
  forkPoint,
}: {
  store: HistoryStore;
  state: HistoryState;
  lanes: KeptLanes;
  divergence?: ReturnType<typeof pairDivergencePlaces>;
  /** Where the fork left its parent, when the reference run is its parent. */
  forkPoint?: { lane: Lane; seq: number };
}) {
  return (
    <Timeline
      run={lanes.run}
      views={laneViews(lanes.run.events)}
      picked={state.picked}
      labels={lanes.labels}
      divergence={divergence}
      forkPoint={forkPoint}
      onPick={(lane, event) => {
        store.pick(lane, event);
      }}
    />
  );
}

/** The picked event whole: its arguments and results are what a reader looks for. */
function PickedEvent({ store, state }: { store: HistoryStore; state: HistoryState }) {
  if (state.picked === null) return null;
  return (
    <>
      <div className="history-picked-head">
        <h3>Picked event</h3>
        <button
          type="button"
          data-testid="history-fork-from-here"
          title="Run this run's lanes again from this event, with a change: the events before it stay as recorded"
          onClick={() => {
            store.openFork();
          }}
        >
          Fork from here
        </button>
      </div>
      <pre data-testid="history-event">{JSON.stringify(state.picked.event, null, 2)}</pre>
      {state.fork !== null && (
        <ForkDialog
          lane={state.fork.lane}
          seq={state.fork.seq}
          events={state.fork.events}
          lanes={FORK_LANES.includes(state.fork.lane) ? FORK_LANES : [state.fork.lane, ...FORK_LANES]}
          sections={[]}
          model={state.fork.model}
          busy={state.fork.busy}
          failure={state.fork.failure}
          onRun={(choice) => void store.runFork(choice)}
          onCancel={() => {
            store.closeFork();
          }}
        />
      )}
    </>
  );
}

/** The lanes a kept run's fork may go on in: the adapters. */
const FORK_LANES: Lane[] = ["dynamic", "restart", "allowed_tools", "deferred"];
