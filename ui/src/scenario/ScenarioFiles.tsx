// The open scenario's file actions as the Compare page shows them: New, Open, the recent scenarios
// and Save as in its toolbar's Scenario menu (Save, Undo and Redo are the header's: one set per
// page), folded so the toolbar fits one row; and while
// no scenario is open, New, Open and the recent scenarios to start from. All state and actions live
// in ScenarioStore.
//
// data-testids:
//   scenario-menu, scenario-menu-button             the toolbar's Scenario menu, holding
//   new-scenario, open-scenario, recent-scenarios,  its scenario file actions
//     recent-scenario (data-path), save-scenario-as
import { useSyncExternalStore } from "react";
import type { RecentFile } from "../platform";
import { DropDownMenu } from "../shared/DropDownMenu";
import { fileName } from "../shared/view";
import type { ScenarioStore } from "./store";

/** The toolbar's scenario file actions. */
export function ScenarioFileActions({ store }: { store: ScenarioStore }) {
  const { scenario, recent } = useSyncExternalStore(store.subscribe, store.getState);
  return (
    <DropDownMenu
      className="file-menu-fold scenario-menu"
      testId="scenario-menu"
      label="Scenario"
      buttonTestId="scenario-menu-button"
      title="New, open, recent scenarios, save as"
      keepsOpen={(target) => target.closest(".recent-files") !== null}
    >
      <button type="button" data-testid="new-scenario" onClick={() => void store.newScenario()}>
        New scenario
      </button>
      <button type="button" data-testid="open-scenario" onClick={() => void store.openChosen()}>
        Open scenario…
      </button>
      {/* Without a scenario the empty state lists the recent ones: one list at a time. */}
      {scenario !== null && recent.length > 0 && (
        <details className="recent-menu" data-testid="recent-scenarios">
          <summary>Recent</summary>
          <RecentScenarios store={store} recent={recent} />
        </details>
      )}
      <button
        type="button"
        data-testid="save-scenario-as"
        disabled={scenario === null}
        onClick={() => void store.saveAs()}
      >
        Save as…
      </button>
    </DropDownMenu>
  );
}

/** What starts a scenario while none is open: New, Open, and the recent scenarios. */
export function ScenarioStart({ store }: { store: ScenarioStore }) {
  const { recent } = useSyncExternalStore(store.subscribe, store.getState);
  return (
    <>
      <div className="start-actions">
        <button type="button" onClick={() => void store.newScenario()}>
          New scenario
        </button>
        <button type="button" onClick={() => void store.openChosen()}>
          Open scenario…
        </button>
      </div>
      {recent.length > 0 && (
        <>
          <h3>Recent scenarios</h3>
          <RecentScenarios store={store} recent={recent} />
        </>
      )}
    </>
  );
}

function RecentScenarios({ store, recent }: { store: ScenarioStore; recent: RecentFile[] }) {
  return (
    <ul className="recent-files">
      {recent.map((file) => (
        <li key={file.path}>
          <button
            type="button"
            data-testid="recent-scenario"
            data-path={file.path}
            title={file.path}
            disabled={!file.exists}
            onClick={(event) => {
              event.currentTarget.closest("details")?.removeAttribute("open");
              void store.openPath(file.path);
            }}
          >
            {fileName(file.path)}
          </button>
          <code className="recent-path">{file.path}</code>
          {!file.exists && <span className="notice">missing</span>}
        </li>
      ))}
    </ul>
  );
}
