// The dialog that gathers a promptfoo export: the scenario files that become its tests (added with
// the native dialog, each removable), the promptfoo provider they run on (empty: the backend's
// default), and why the last export from it was not done; Export… then asks where to write it.
//
// data-testids (tests select by them; keep them stable):
//   export-dialog                                  the dialog
//   export-scenario (data-path),                   a scenario file listed, and its Remove button
//     export-remove-scenario
//   export-add-scenario, export-provider           Add scenario…, the provider field
//   export-dialog-failure, export-dialog-problems  why the export was not done, each problem at its place
//   export-confirm, export-cancel                  Export…, Cancel
import { ModalDialog } from "../shared/ModalDialog";
import { ProblemItems } from "../shared/ProblemItems";
import type { Failure } from "../shared/failure";
import { FilePath } from "../shared/FilePath";
import { PROMPTFOO_DEFAULT_PROVIDER, type PromptfooDraft, type TemplateExportStore } from "./store";

export function PromptfooDialog({
  store,
  draft,
  failure,
}: {
  store: TemplateExportStore;
  draft: PromptfooDraft;
  failure: Failure | null;
}) {
  const close = () => {
    store.closePromptfoo();
  };
  return (
    <ModalDialog role="dialog" titleId="export-title" testId="export-dialog" className="export-dialog" onEscape={close}>
      {(focusFirst) => (
        <>
          <h2 id="export-title">Export as a promptfoo config</h2>
          <p className="notice">Each scenario becomes a test asserting the model&apos;s first answer.</p>
          {failure !== null && (
            <div className="error" role="alert" data-testid="export-dialog-failure">
              <strong>{failure.title}</strong> {failure.detail}
              {failure.problems.length > 0 && (
                <ProblemItems problems={failure.problems} whole="template" testId="export-dialog-problems" />
              )}
            </div>
          )}
          <ScenarioList store={store} scenarios={draft.scenarios} />
          <label className="export-provider">
            promptfoo provider
            <input
              type="text"
              data-testid="export-provider"
              value={draft.provider}
              placeholder={PROMPTFOO_DEFAULT_PROVIDER}
              spellCheck={false}
              onChange={(event) => {
                store.setProvider(event.target.value);
              }}
            />
          </label>
          <div className="dialog-actions">
            <button type="button" data-testid="export-cancel" onClick={close}>
              Cancel
            </button>
            <button
              type="button"
              ref={focusFirst}
              className="primary"
              data-testid="export-confirm"
              onClick={() => void store.exportPromptfoo()}
            >
              Export…
            </button>
          </div>
        </>
      )}
    </ModalDialog>
  );
}

function ScenarioList({ store, scenarios }: { store: TemplateExportStore; scenarios: readonly string[] }) {
  return (
    <section className="export-scenarios" aria-label="Scenarios">
      <h3>Scenarios</h3>
      {scenarios.length === 0 ? (
        <p className="notice">None yet: the config will have no tests.</p>
      ) : (
        <ul>
          {scenarios.map((path) => (
            <li key={path} data-testid="export-scenario" data-path={path}>
              <FilePath path={path} />
              <button
                type="button"
                data-testid="export-remove-scenario"
                aria-label={`Remove ${path}`}
                onClick={() => {
                  store.removeScenario(path);
                }}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <button type="button" data-testid="export-add-scenario" onClick={() => void store.addScenario()}>
        Add scenario…
      </button>
    </section>
  );
}
