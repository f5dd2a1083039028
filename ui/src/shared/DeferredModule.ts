// A module of the UI that is not in the first screen's script: its own chunk of the build,
// imported when first needed or once the first screen is drawn, and followed as a store so that
// what waits for it is drawn again when it is there.
import { ExternalStore } from "./ExternalStore";

/** Where a deferred module is: there, or could not be loaded; undefined before either. */
export type Loaded<M> = { module: M } | { failure: string } | undefined;

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

  /** The module if it is loaded; null before, or when it could not be. */
  loadedModule(): M | null {
    const loaded = this.getState().loaded;
    return loaded !== undefined && "module" in loaded ? loaded.module : null;
  }
}
