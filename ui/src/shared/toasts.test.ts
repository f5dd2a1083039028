// Tests for toasts.ts, on fake timers: a toast goes by itself after TOAST_MS, stays while held and
// shows a full TOAST_MS again once let go, goes at once when dismissed, and a newer notice from the
// same place takes the older one's place.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { TOAST_MS, ToastStore } from "./toasts";

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

const texts = (store: ToastStore) => store.getState().toasts.map((toast) => toast.text);
const idOf = (store: ToastStore, text: string) =>
  store.getState().toasts.find((toast) => toast.text === text)?.id ?? -1;

describe("ToastStore", () => {
  it("shows a toast for TOAST_MS, about five seconds, then lets it go", () => {
    const store = new ToastStore();
    store.show("Exported to /out/a.json", "export-notice");
    expect(TOAST_MS).toBe(5000);
    vi.advanceTimersByTime(TOAST_MS - 1);
    expect(texts(store)).toEqual(["Exported to /out/a.json"]);
    vi.advanceTimersByTime(1);
    expect(texts(store)).toEqual([]);
  });

  it("keeps a toast held however long, then shows it a full TOAST_MS once let go", () => {
    const store = new ToastStore();
    store.show("Exported to /out/a.json", "export-notice");
    const id = idOf(store, "Exported to /out/a.json");
    vi.advanceTimersByTime(TOAST_MS - 100);
    store.hold(id);
    vi.advanceTimersByTime(60_000);
    expect(texts(store)).toEqual(["Exported to /out/a.json"]);
    store.release(id);
    vi.advanceTimersByTime(TOAST_MS - 1);
    expect(texts(store)).toEqual(["Exported to /out/a.json"]);
    vi.advanceTimersByTime(1);
    expect(texts(store)).toEqual([]);
  });

  it("lets a toast go at once when dismissed, the others staying", () => {
    const store = new ToastStore();
    store.show("Exported to /out/a.json", "export-notice");
    store.show("Exported to /traces/run.otlp.jsonl", "history-notice");
    store.dismiss(idOf(store, "Exported to /out/a.json"));
    expect(texts(store)).toEqual(["Exported to /traces/run.otlp.jsonl"]);
  });

  it("puts a newer notice from the same place in the older one's place, with its own time", () => {
    const store = new ToastStore();
    store.show("Exported to /out/a.json", "export-notice");
    store.show("Wrote the comparison report to /out/r.json", "compare-notice");
    vi.advanceTimersByTime(TOAST_MS - 1000);
    store.show("Exported to /out/b.json", "export-notice");
    expect(texts(store)).toEqual(["Wrote the comparison report to /out/r.json", "Exported to /out/b.json"]);
    vi.advanceTimersByTime(1000);
    expect(texts(store)).toEqual(["Exported to /out/b.json"]);
    vi.advanceTimersByTime(TOAST_MS - 1000);
    expect(texts(store)).toEqual([]);
  });

  it("stops every timer when the toasts are no longer shown", () => {
    const store = new ToastStore();
    store.show("Exported to /out/a.json", "export-notice");
    store.stop();
    expect(vi.getTimerCount()).toBe(0);
  });
});
