// The Suites page: what a suite is and Open suite… while none is open; then the suite's file, Run
// suite and Open suite…, and its cases (name, template → scenario, adapters). After a run, a summary
// line and each case's result in words (passed or failed, not colour alone), its time, every
// expectation that did not hold, every expectation behind a disclosure (each held or not), why it
// could not run, and its lanes' counters (the runs' CountersTable) behind a disclosure, open for
// the failed cases. A run cannot be stopped; the rest
// of the app stays usable while it goes. All state and actions live in SuiteStore.
//
// data-testids (tests select by them; keep them stable):
//   suites-view                                    the page
//   suite-open, suite-run                          Open suite…, Run suite ("Running…" while it runs)
//   suite-path                                     the open suite's file
//   suite-failure, suite-failure-problems          why the last action was not done, each problem at its place
//   suite-running                                  the note while a run is under way
//   suite-summary                                  "3 cases: 2 passed, 1 failed"
//   suite-case (data-case, data-passed)            a case (data-passed once it ran: "true" or "false")
//   suite-case-result (data-passed), suite-case-took  its result in words, its time
//   suite-expectations, suite-expectation          every expectation (data-held once it ran: "true" or "false")
//   suite-unmet, suite-case-error                  an expectation that did not hold; why it could not run
//   suite-case-lanes, suite-case-counters          Show lanes / Hide lanes, and the lanes' counters
import { useSyncExternalStore } from "react";
import type { SuiteCase, SuiteCaseResult } from "../platform";
import { FailureAlert } from "../shared/ActionOutcome";
import { CountersTable } from "../runs/CountersTable";
import { laneName } from "../shared/words";
import { FilePath } from "../shared/FilePath";
import "../runs/runs.css";
import "./suites.css";
import {
  expectationLines,
  resultOf,
  summaryText,
  unmetText,
  type ExpectationLine,
  type SuitesState,
  type SuiteStore,
} from "./store";

export function SuitesView({ store }: { store: SuiteStore }) {
  const state = useSyncExternalStore(store.subscribe, store.getState);
  return (
    <div className="suites-view" data-testid="suites-view">
      <SuiteFailure store={store} state={state} />
      {state.path === null ? <EmptyState store={store} /> : <OpenSuite store={store} state={state} path={state.path} />}
    </div>
  );
}

function OpenButton({ store }: { store: SuiteStore }) {
  return (
    <button
      type="button"
      data-testid="suite-open"
      title="Open a suite file (*.suite.json)"
      onClick={() => void store.open()}
    >
      Open suite…
    </button>
  );
}

function EmptyState({ store }: { store: SuiteStore }) {
  return (
    <section className="compare-empty suites-empty" aria-label="No suite">
      <h2>No suite is open</h2>
      <p>
        A suite (*.suite.json) lists cases: a template, a scenario, the adapters to compare and what to expect of each
        run.
      </p>
      <OpenButton store={store} />
    </section>
  );
}

function SuiteFailure({ store, state }: { store: SuiteStore; state: SuitesState }) {
  const { failure } = state;
  if (failure === null) return null;
  return (
    <FailureAlert
      failure={failure}
      whole="suite"
      testId="suite-failure"
      onDismiss={() => {
        store.dismiss();
      }}
    />
  );
}

function OpenSuite({ store, state, path }: { store: SuiteStore; state: SuitesState; path: string }) {
  const { running, results } = state;
  return (
    <>
      <div className="toolbar suites-toolbar">
        <FilePath path={path} testId="suite-path" />
        <button
          type="button"
          className="primary"
          data-testid="suite-run"
          disabled={running}
          title={running ? "The suite is running: a run cannot be stopped" : "Run every case of the suite"}
          onClick={() => void store.run()}
        >
          {running ? "Running…" : "Run suite"}
        </button>
        <OpenButton store={store} />
      </div>
      {running && (
        <p className="notice suites-note" role="status" data-testid="suite-running">
          Running every case. A run cannot be stopped; the other pages stay usable meanwhile.
        </p>
      )}
      {results !== null && (
        <p className="suites-summary" role="status" data-testid="suite-summary">
          {summaryText(results)}
        </p>
      )}
      <ul className="suite-cases" aria-label="Cases">
        {state.cases.map((suiteCase) => (
          <CaseItem
            key={suiteCase.name}
            store={store}
            suiteCase={suiteCase}
            result={resultOf(results, suiteCase)}
            lanesShown={state.lanesShown.includes(suiteCase.name)}
          />
        ))}
      </ul>
    </>
  );
}

function CaseItem({
  store,
  suiteCase,
  result,
  lanesShown,
}: {
  store: SuiteStore;
  suiteCase: SuiteCase;
  /** How it went in the last run (null: not run yet). */
  result: SuiteCaseResult | null;
  lanesShown: boolean;
}) {
  const passed = result === null ? undefined : String(result.passed);
  return (
    <li className="suite-case" data-testid="suite-case" data-case={suiteCase.name} data-passed={passed}>
      <div className="suite-case-head">
        {result !== null && (
          <span
            className={result.passed ? "suite-result passed" : "suite-result failed"}
            data-testid="suite-case-result"
            data-passed={passed}
          >
            {result.passed ? "passed" : "failed"}
          </span>
        )}
        <strong className="suite-case-name">{suiteCase.name}</strong>
        <span className="suite-case-files">
          <code>{suiteCase.template}</code> → <code>{suiteCase.scenario}</code>
        </span>
        <span className="suite-adapters" aria-label="Adapters">
          {suiteCase.adapters.map((adapter) => (
            <span key={adapter} className="suite-adapter">
              {laneName(adapter)}
            </span>
          ))}
        </span>
        {result !== null && result.took_ms !== null && (
          <span className="suite-case-took" data-testid="suite-case-took">
            {Math.round(result.took_ms)} ms
          </span>
        )}
      </div>
      <Expectations lines={expectationLines(suiteCase, result)} />
      {result !== null && <CaseOutcome store={store} name={suiteCase.name} result={result} lanesShown={lanesShown} />}
    </li>
  );
}

/** Every expectation of a case, behind a disclosure; after a run, each held or not (in words, not colour alone). */
function Expectations({ lines }: { lines: ExpectationLine[] }) {
  if (lines.length === 0) return null;
  return (
    <details className="suite-expectations" data-testid="suite-expectations">
      <summary>Expectations ({lines.length})</summary>
      <ul>
        {lines.map(({ text, held }) => (
          <li
            key={text}
            data-testid="suite-expectation"
            data-held={held === null ? undefined : String(held.held)}
            className={held === null ? undefined : held.held ? "held" : "not-held"}
          >
            {text}
            {held !== null && (held.held ? " — held" : ` — not held: saw ${held.seen}`)}
          </li>
        ))}
      </ul>
    </details>
  );
}

/** What went wrong in a case that ran, and its lanes behind a disclosure. */
function CaseOutcome({
  store,
  name,
  result,
  lanesShown,
}: {
  store: SuiteStore;
  name: string;
  result: SuiteCaseResult;
  lanesShown: boolean;
}) {
  const { report } = result;
  const lanesId = `suite-lanes-${name}`;
  return (
    <>
      {result.unmet.length > 0 && (
        <ul className="suite-unmet" aria-label="Expectations not met">
          {result.unmet.map((unmet, index) => (
            <li key={index} data-testid="suite-unmet">
              {unmetText(unmet)}
            </li>
          ))}
        </ul>
      )}
      {result.error !== null && (
        <p className="error" data-testid="suite-case-error">
          <strong>It did not run:</strong> {result.error}
        </p>
      )}
      {report !== null && (
        <>
          <button
            type="button"
            className="suite-lanes-toggle"
            data-testid="suite-case-lanes"
            aria-expanded={lanesShown}
            aria-controls={lanesShown ? lanesId : undefined}
            onClick={() => {
              store.toggleLanes(name);
            }}
          >
            {lanesShown ? "Hide lanes" : "Show lanes"}
          </button>
          {lanesShown && (
            <div className="counters-box suite-lanes" id={lanesId} data-testid="suite-case-counters">
              <CountersTable report={report} />
            </div>
          )}
        </>
      )}
    </>
  );
}
