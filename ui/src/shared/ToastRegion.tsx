// The toast region, bottom right, where what was done is said (the toasts of toasts.ts): a polite
// live region, so a screen reader says each toast without taking the user from their work; and
// `useDoneToast`, by which a page hands the notice its store holds ("Exported to …") to the toasts.
//
// data-testids: toast-region; each toast the test id of the notice it says (export-notice,
// history-notice, compare-notice).
import { createContext, useContext, useEffect, useState, useSyncExternalStore, type ReactNode } from "react";
import { ToastStore } from "./toasts";
import "./toasts.css";

const Toasts = createContext<ToastStore | null>(null);

/** Gives `children` the toasts, drawn after them. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [store] = useState(() => new ToastStore());
  useEffect(
    () => () => {
      store.stop();
    },
    [store],
  );
  return (
    <Toasts.Provider value={store}>
      {children}
      <ToastRegion store={store} />
    </Toasts.Provider>
  );
}

function ToastRegion({ store }: { store: ToastStore }) {
  const { toasts } = useSyncExternalStore(store.subscribe, store.getState);
  // Always there, empty or not: a live region says what is added to it, not what arrives with it.
  return (
    <div className="toast-region" role="status" aria-live="polite" data-testid="toast-region">
      {toasts.map((toast) => (
        <div
          key={toast.id}
          className="toast"
          data-testid={toast.testId}
          onMouseEnter={() => {
            store.hold(toast.id);
          }}
          onMouseLeave={() => {
            store.release(toast.id);
          }}
          onFocus={() => {
            store.hold(toast.id);
          }}
          onBlur={() => {
            store.release(toast.id);
          }}
        >
          <span>{toast.text}</span>
          <button
            type="button"
            aria-label="Dismiss"
            title="Dismiss"
            onClick={() => {
              store.dismiss(toast.id);
            }}
          >
            ×
          </button>
        </div>
      ))}
    </div>
  );
}

/**
 * Shows `notice` (what a page's store says was done, or null) as a toast of `testId` once it is
 * said, then has the store let it go with `taken`, so that the same words said again show again.
 */
export function useDoneToast(notice: string | null, testId: string, taken: () => void): void {
  const toasts = useContext(Toasts);
  useEffect(() => {
    if (notice === null || toasts === null) return;
    toasts.show(notice, testId);
    taken();
  }, [notice, testId, taken, toasts]);
}
