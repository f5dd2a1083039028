// The toasts: short notices of what was done ("Exported to …"), each shown for TOAST_MS and then
// gone by itself, unless the pointer or the focus is on it (it waits until they leave, then shows a
// full TOAST_MS again) or it is dismissed first. A newer notice from the same place (its test id)
// takes the older one's place. Failures are not toasts: they wait for an answer (ActionOutcome.tsx).
// React reads it through `subscribe`/`getState`.
import { ExternalStore } from "./ExternalStore";

/** How long a toast shows, in milliseconds: long enough to read a path. */
export const TOAST_MS = 5000;

export interface Toast {
  id: number;
  text: string;
  /** Where it comes from, for tests (`export-notice`, …): one toast each. */
  testId: string;
}

export interface ToastState {
  toasts: readonly Toast[];
}

export class ToastStore extends ExternalStore<ToastState> {
  private lastId = 0;
  private readonly timers = new Map<number, ReturnType<typeof setTimeout>>();

  constructor() {
    super({ toasts: [] });
  }

  /** Shows `text` as the toast of `testId`, in place of the one it had. */
  show(text: string, testId: string): void {
    for (const old of this.state.toasts) if (old.testId === testId) this.stopTimer(old.id);
    const toast = { id: ++this.lastId, text, testId };
    this.update({ toasts: [...this.state.toasts.filter((old) => old.testId !== testId), toast] });
    this.release(toast.id);
  }

  dismiss(id: number): void {
    this.stopTimer(id);
    this.update({ toasts: this.state.toasts.filter((toast) => toast.id !== id) });
  }

  /** Keeps toast `id` while the user is on it (the pointer or the focus). */
  hold(id: number): void {
    this.stopTimer(id);
  }

  /** Lets toast `id` go after a full TOAST_MS from now. */
  release(id: number): void {
    if (!this.state.toasts.some((toast) => toast.id === id)) return;
    this.stopTimer(id);
    this.timers.set(
      id,
      setTimeout(() => {
        this.dismiss(id);
      }, TOAST_MS),
    );
  }

  /** Stops every timer (the toasts are no longer shown). */
  stop(): void {
    for (const id of this.timers.keys()) this.stopTimer(id);
  }

  private stopTimer(id: number): void {
    clearTimeout(this.timers.get(id));
    this.timers.delete(id);
  }
}
