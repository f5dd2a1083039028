// The views a start does not show: the compare view, the run history, the suites, the Hosts page
// and the Sources panel, a seventh of the UI's script. Each is its own chunk of the build, loaded when first shown
// or once the first screen is drawn (`preloadDeferredViews`, from main.tsx), so that a start
// parses only what it shows and a switch to a view rarely waits for it. The stores behind them are
// not deferred: the workspace keeps them from the start.
import { useEffect, useSyncExternalStore, type ReactNode } from "react";
import { ExternalStore } from "../shared/ExternalStore";

/** Where a deferred module is: there, or could not be loaded; undefined before either. */
type Loaded<M> = { module: M } | { failure: string } | undefined;

/** A module of the UI that is imported when first needed. */
export class DeferredModule<M> extends ExternalStore<{ loaded: Loaded<M> }> {
  private loading: Promise<void> | undefined;

  constructor(private readonly importModule: () => Promise<M>) {
    super({ loaded: undefined });
  }

  /** Imports the module, once; resolves when it is there or could not be loaded. */
  load(): Promise<void> {
    this.loading ??= this.importModule().then(
      (module) => {
        this.update({ loaded: { module } });
      },
      (error: unknown) => {
        this.update({ loaded: { failure: String(error) } });
      },
    );
    return this.loading;
  }
}

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
  return Promise.all([compareView, historyView, suitesView, sourcesPanel, hostsView].map((module) => module.load()));
}
