// The views a start does not show: the compare view, the run history, the suites, the Hosts page
// and the Sources panel, a seventh of the UI's script. Each is its own chunk of the build, loaded
// when first shown or once the first screen is drawn (`preloadDeferredViews`, from main.tsx, with
// the editor's parameter completion), so that a start parses only what it shows and a switch to a
// view rarely waits for it. The stores behind them are not deferred: the workspace keeps them from
// the start.
import { useEffect, useSyncExternalStore, type ReactNode } from "react";
import { DeferredModule } from "../shared/DeferredModule";
import { completionModule } from "../editor/parameterCompletion";

/** `show(module)` once `module` is loaded, loading it when shown before; nothing meanwhile. */
export function Deferred<M>({ module, show }: { module: DeferredModule<M>; show: (module: M) => ReactNode }) {
  const current = useSyncExternalStore(module.subscribe, module.getState).loaded;
  useEffect(() => {
    if (current === undefined) void module.load();
  }, [module, current]);
  if (current === undefined) return null;
  if ("failure" in current) {
    return (
      <p className="notice" role="alert" data-testid="view-load-failure">
        This view could not be loaded: {current.failure}
      </p>
    );
  }
  return show(current.module);
}

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
  ]);
}
