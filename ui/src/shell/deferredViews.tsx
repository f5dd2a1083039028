// The views a start does not show: the compare view, the run history, the suites, the Hosts page
// and the Sources panel, a seventh of the UI's script. Each is its own chunk of the build, loaded
// when first shown or once the first screen is drawn (`preloadDeferredViews`, from main.tsx, with
// the editor's parameter completion and its code editor, if not in yet), so that a start parses
// only what it shows and a switch to a view rarely waits for it. `Deferred` (shared/) draws them.
// The stores behind them are not deferred: the workspace keeps them from the start.
import { DeferredModule } from "../shared/DeferredModule";
import { codeEditorModule } from "../editor/CodeField";
import { completionModule } from "../editor/parameterCompletion";

export const compareView = new DeferredModule(() => import("../compare/CompareView"));
export const historyView = new DeferredModule(() => import("../history/HistoryView"));
export const suitesView = new DeferredModule(() => import("../suites/SuitesView"));
export const sourcesPanel = new DeferredModule(() => import("../sources/SourcesPanel"));
export const hostsView = new DeferredModule(() => import("../hosts/HostsView"));

/** Loads every deferred view ahead of its first showing. */
export function preloadDeferredViews(): Promise<unknown> {
  return Promise.all([
    compareView.load(),
    historyView.load(),
    suitesView.load(),
    sourcesPanel.load(),
    hostsView.load(),
    completionModule.load(),
    codeEditorModule.load(),
  ]);
}
