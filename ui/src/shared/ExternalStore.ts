// The state holder every store of the UI shares (workspace, editor, compare view, the deferred
// views' modules): immutable state replaced by `update`, read by React through
// `useSyncExternalStore(store.subscribe, store.getState)`; and a queue that runs a store's backend
// actions one after the other, each on the state the one before left.

export class ExternalStore<S> {
  private readonly listeners = new Set<() => void>();

  constructor(protected state: S) {}

  readonly getState = (): S => this.state;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  protected update(change: Partial<S>): void {
    this.state = { ...this.state, ...change };
    for (const listener of this.listeners) listener();
  }
}

/** Runs tasks one after the other, in the order they were queued; a failed task does not stop the next. */
export class TaskQueue {
  private tail: Promise<void> = Promise.resolve();

  /** Runs `task` after every task queued before it. */
  run<T>(task: () => Promise<T>): Promise<T> {
    const run = this.tail.then(task);
    this.tail = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /** Settles once every task queued so far has. */
  idle(): Promise<void> {
    return this.tail;
  }
}
