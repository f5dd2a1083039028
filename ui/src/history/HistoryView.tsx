// The run history page: a filter bar (template, provider, adapter, status, source; Refresh), the
// kept runs newest first in a table, and the selected run's detail (its user message, final answer
// or error, counters and events on the compare view's timeline), with the run chosen as the
// baseline and the selected run compared with it (both runs' counters with the deltas, the first
// divergence, both runs' lanes side by side); an empty state while no run is kept. Model text is
// shown as text. All state and actions live in HistoryStore.
//
// data-testids (tests select by them; keep them stable):
//   history-view                                   the page
//   history-filter-template, history-filter-provider, history-filter-adapter,
//     history-filter-status, history-filter-source, history-refresh   the filter bar
//   history-failure                                why the last action was not done
//   history-empty                                  no run kept (or none the filter matches)
//   history-table, history-row (data-id,           the runs; the selected row is aria-selected, the
//     data-baseline)                                 baseline's row data-baseline="true"
//   history-baseline, history-clear-baseline       the run chosen as the baseline
//   history-detail, history-user, history-final,   the selected run: its user message, final answer
//     history-error, history-counters                or error, and counters
//   history-use-baseline, history-compare,         its actions
//     history-close-compare
//   history-comparison, history-pair-counters,     the comparison: counters side by side (a row per
//     history-pair-row (data-counter), history-delta,  counter, run minus baseline), the first
//     history-divergence                             divergence's line
//   history-event                                  the picked event, as JSON text
import { useEffect, useSyncExternalStore } from "react";
import type { Counters, RunSummary, StoredRun } from "../platform";
import { ADAPTERS } from "../compare/store";
import { COUNTER_ROWS, laneViews, signed } from "../compare/timeline";
import { Timeline } from "../compare/Timeline";
import "../compare/compare.css";
import "./history.css";
import { comparable, type HistoryComparison, type HistoryState, type HistoryStore } from "./store";
import {
  durationText,
  isAnyRun,
  outcomeOf,
  pairCounterRows,
  pairDivergencePlaces,
  pairDivergenceText,
  pairLanes,
  ranWith,
  RUN_SOURCES,
  RUN_STATUSES,
  runLanes,
  runName,
  startedText,
  tokensText,
  type HistoryFilter,
  type KeptLanes,
} from "./runs";

export function HistoryView({ store }: { store: HistoryStore }) {
  const state = useSyncExternalStore(store.subscribe, store.getState);

  // Each time the page shows, it lists the runs kept until now (a comparison may have added some).
  useEffect(() => {
    void store.load();
  }, [store]);

  const { runs } = state;
  return (
    <div className="history-view" data-testid="history-view">
      <FilterBar store={store} filter={state.filter} />
      {state.failure !== null && (
        <div className="error failure" role="alert" data-testid="history-failure">
          <strong>{state.failure.title}</strong>
          <span>{state.failure.detail}</span>
          <button
            type="button"
            onClick={() => {
              store.dismiss();
            }}
          >
            Dismiss
          </button>
        </div>
      )}
      {runs === null ? (
        <p className="notice history-empty">Reading the run history…</p>
      ) : runs.length === 0 ? (
        <EmptyState filtered={!isAnyRun(state.filter)} />
      ) : (
        <div className={state.selected === null ? "history-panes" : "history-panes with-detail"}>
          <section className="pane history-list" aria-label="Runs">
            <BaselineLine store={store} baseline={state.baseline} />
            <RunTable store={store} runs={runs} state={state} />
          </section>
          {state.selected !== null && (
            <section className="pane history-detail" data-testid="history-detail" aria-label={`Run ${String(state.selected)}`}>
              {state.run === null ? <p className="notice">Reading run {state.selected}…</p> : <RunDetail store={store} state={state} run={state.run} />}
            </section>
          )}
        </div>
      )}
    </div>
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
        options={RUN_SOURCES}
        onChange={(source) => {
          set({ source });
        }}
      />
      <button type="button" data-testid="history-refresh" title="List the runs kept until now" onClick={() => void store.load()}>
        Refresh
      </button>
    </div>
  );
}

/** A select of `options` with "any" first (the empty value). */
function Choice<T extends string>({
  label,
  testId,
  value,
  options,
  onChange,
}: {
  label: string;
  testId: string;
  value: T | "";
  options: readonly T[];
  onChange: (value: T | "") => void;
}) {
  return (
    <label>
      {label}{" "}
      <select
        data-testid={testId}
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
            Runs appear here once you run a comparison on the Compare page, or a live run, here or with the unfold command: each
            run is kept with its events, counters and timings, to reopen and compare with a baseline run.
          </p>
        </>
      )}
    </section>
  );
}

function BaselineLine({ store, baseline }: { store: HistoryStore; baseline: RunSummary | null }) {
  if (baseline === null) {
    return <p className="notice history-baseline">No baseline chosen: select a run and use it as the baseline to compare others with it.</p>;
  }
  return (
    <p className="history-baseline" data-testid="history-baseline">
      <strong>Baseline:</strong> {runName(baseline)} · {ranWith(baseline)} · {baseline.adapter} · {startedText(baseline.started_at_ms)}{" "}
      <button
        type="button"
        data-testid="history-clear-baseline"
        onClick={() => {
          store.clearBaseline();
        }}
      >
        Clear
      </button>
    </p>
  );
}

function RunTable({ store, runs, state }: { store: HistoryStore; runs: RunSummary[]; state: HistoryState }) {
  return (
    <table className="history-table" data-testid="history-table">
      <thead>
        <tr>
          <th scope="col">Started</th>
          <th scope="col">Source</th>
          <th scope="col">Template</th>
          <th scope="col">Scenario [lane] or provider (model)</th>
          <th scope="col">Adapter</th>
          <th scope="col">Status</th>
          <th scope="col">Model calls</th>
          <th scope="col">Tokens (prompt + completion)</th>
          <th scope="col">Duration</th>
        </tr>
      </thead>
      <tbody>
        {runs.map((run, index) => {
          const { id } = run;
          const select = () => {
            if (id !== null) void store.select(id);
          };
          const baseline = id !== null && state.baseline?.id === id;
          return (
            <tr
              key={id ?? `row-${String(index)}`}
              data-testid="history-row"
              data-id={id ?? undefined}
              data-baseline={baseline ? "true" : undefined}
              className={run.status === "completed" ? "" : "ended-early"}
              aria-selected={id !== null && state.selected === id}
              tabIndex={0}
              onClick={select}
              onKeyDown={(event) => {
                if (event.key !== "Enter" && event.key !== " ") return;
                event.preventDefault();
                select();
              }}
            >
              <td>
                {startedText(run.started_at_ms)}
                {baseline && <span className="baseline-badge">baseline</span>}
              </td>
              <td>{run.source}</td>
              <td title={run.template_path ?? undefined}>{run.template}</td>
              <td title={run.scenario_path ?? undefined}>{ranWith(run)}</td>
              <td>{run.adapter}</td>
              <td className={`status-${run.status}`}>{run.status.replace(/_/g, " ")}</td>
              <td className="number">{run.counters.model_calls}</td>
              <td className="number">{tokensText(run.counters)}</td>
              <td className="number">{durationText(run.duration_ms)}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** The selected run: what it was asked and answered, its counters, its actions and its lane (or the comparison). */
function RunDetail({ store, state, run }: { store: HistoryStore; state: HistoryState; run: StoredRun }) {
  const outcome = outcomeOf(run);
  const { comparison } = state;
  const isBaseline = run.id !== null && state.baseline?.id === run.id;
  return (
    <>
      <div className="history-detail-head">
        <h2>{runName(run)}</h2>
        <span className="notice">
          {run.template} · {ranWith(run)} · {run.adapter} adapter · {run.status.replace(/_/g, " ")} · {startedText(run.started_at_ms)} ·{" "}
          {durationText(run.duration_ms)}
        </span>
      </div>
      <div className="history-actions">
        <button
          type="button"
          data-testid="history-use-baseline"
          disabled={run.id === null || isBaseline}
          title={isBaseline ? "This run is the baseline" : "Compare other runs with this one"}
          onClick={() => {
            if (run.id !== null) store.useAsBaseline(run.id);
          }}
        >
          Use as baseline
        </button>
        {comparable(state) && state.baseline !== null && (
          <button
            type="button"
            data-testid="history-compare"
            className="primary"
            title={`Compare ${runName(run)} with the baseline, ${runName(state.baseline)}`}
            onClick={() => void store.compareWithBaseline()}
          >
            Compare with baseline ({runName(state.baseline)})
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
      {outcome.kind === "none" && <p className="notice">It ended without a final answer ({run.status.replace(/_/g, " ")}).</p>}
      {comparison === null ? (
        <>
          <RunCounters counters={run.counters} />
          <KeptTimeline store={store} state={state} lanes={runLanes(run)} />
        </>
      ) : (
        <Comparison store={store} state={state} comparison={comparison} />
      )}
      <PickedEvent state={state} />
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

/** The selected run beside the baseline: counters with the deltas, the first divergence, both lanes. */
function Comparison({ store, state, comparison }: { store: HistoryStore; state: HistoryState; comparison: HistoryComparison }) {
  const { baseline, run } = comparison;
  const summaries = comparison.comparison;
  return (
    <section className="history-comparison" data-testid="history-comparison" aria-label="Comparison with the baseline">
      <p className="divergence-line">
        <strong>First divergence:</strong> <span data-testid="history-divergence">{pairDivergenceText(summaries)}</span>
      </p>
      <table className="counters" data-testid="history-pair-counters">
        <caption>Counters</caption>
        <thead>
          <tr>
            <th scope="col">Counter</th>
            <th scope="col">{runName(summaries.baseline)} (baseline)</th>
            <th scope="col">{runName(summaries.run)}</th>
            <th scope="col">run − baseline</th>
          </tr>
        </thead>
        <tbody>
          <tr className="status-row">
            <th scope="row">Status</th>
            <td>{summaries.baseline.status}</td>
            <td>{summaries.run.status}</td>
            <td />
          </tr>
          {pairCounterRows(summaries.baseline.counters, summaries.run.counters).map((row) => (
            <tr key={row.key} data-testid="history-pair-row" data-counter={row.key}>
              <th scope="row">{row.label}</th>
              <td>{row.baseline}</td>
              <td>{row.run}</td>
              <td data-testid="history-delta" className={row.delta === 0 ? "delta" : "delta changed"}>
                {signed(row.delta)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <KeptTimeline store={store} state={state} lanes={pairLanes(baseline, run)} divergence={pairDivergencePlaces(summaries)} />
    </section>
  );
}

function KeptTimeline({
  store,
  state,
  lanes,
  divergence = [],
}: {
  store: HistoryStore;
  state: HistoryState;
  lanes: KeptLanes;
  divergence?: ReturnType<typeof pairDivergencePlaces>;
}) {
  return (
    <Timeline
      run={lanes.run}
      views={laneViews(lanes.run.events)}
      picked={state.picked}
      labels={lanes.labels}
      divergence={divergence}
      onPick={(lane, event) => {
        store.pick(lane, event);
      }}
    />
  );
}

/** The picked event whole: its arguments and results are what a reader looks for. */
function PickedEvent({ state }: { state: HistoryState }) {
  if (state.picked === null) return null;
  return (
    <>
      <h3>Picked event</h3>
      <pre data-testid="history-event">{JSON.stringify(state.picked.event, null, 2)}</pre>
    </>
  );
}
