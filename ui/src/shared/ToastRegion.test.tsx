// Renders ToastProvider in happy-dom, on fake timers: a page's "done" notice becomes a toast in a
// polite live region (keeping the notice's test id), taken from the page's store so that the same
// words said again show again; it goes by itself after about five seconds, stays while the pointer
// is on it, and goes at once when dismissed.
import { act } from "react";
import type { Root } from "react-dom/client";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { byTestId, none } from "../testing/dom";
import { mountEachTest } from "../testing/testRoot";
import { ExternalStore } from "./ExternalStore";
import { TOAST_MS } from "./toasts";
import { ToastProvider, useDoneToast } from "./ToastRegion";

let root: Root;

mountEachTest((mounted) => {
  ({ root } = mounted);
});

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

/** A page's store that says what was done, as the exports' and the history's do. */
class NoticeStore extends ExternalStore<{ notice: string | null }> {
  constructor() {
    super({ notice: null });
  }
  tell(notice: string): void {
    this.update({ notice });
  }
  dismiss(): void {
    this.update({ notice: null });
  }
}

function Page({ store }: { store: NoticeStore }) {
  const { notice } = store.getState();
  useDoneToast(notice, "export-notice", () => {
    store.dismiss();
  });
  return null;
}

/** A page over `store`, redrawn whenever the store changes. */
function renderPage(store: NoticeStore): void {
  const draw = () => {
    root.render(
      <ToastProvider>
        <Page store={store} />
      </ToastProvider>,
    );
  };
  store.subscribe(draw);
  act(draw);
}

function tell(store: NoticeStore, notice: string): void {
  act(() => {
    store.tell(notice);
  });
}

function pass(ms: number): void {
  act(() => {
    vi.advanceTimersByTime(ms);
  });
}

describe("ToastProvider", () => {
  it("says a page's notice in a polite live region, with the notice's test id, and takes it from the page", () => {
    const store = new NoticeStore();
    renderPage(store);
    const region = byTestId("toast-region");
    expect(region.getAttribute("role")).toBe("status");
    expect(region.getAttribute("aria-live")).toBe("polite");
    tell(store, "Exported to /out/a.json");
    expect(byTestId("export-notice", region).textContent).toContain("Exported to /out/a.json");
    expect(store.getState().notice).toBeNull();
  });

  it("lets the toast go after about five seconds, and shows the same words again when said again", () => {
    const store = new NoticeStore();
    renderPage(store);
    tell(store, "Exported to /out/a.json");
    pass(TOAST_MS - 1);
    expect(none("export-notice")).toBe(false);
    pass(1);
    expect(none("export-notice")).toBe(true);
    tell(store, "Exported to /out/a.json");
    expect(byTestId("export-notice").textContent).toContain("Exported to /out/a.json");
  });

  it("keeps the toast while the pointer is on it", () => {
    const store = new NoticeStore();
    renderPage(store);
    tell(store, "Exported to /out/a.json");
    const toast = byTestId("export-notice");
    act(() => {
      toast.dispatchEvent(new MouseEvent("mouseover", { bubbles: true }));
    });
    pass(TOAST_MS * 3);
    expect(none("export-notice")).toBe(false);
    act(() => {
      toast.dispatchEvent(new MouseEvent("mouseout", { bubbles: true }));
    });
    pass(TOAST_MS);
    expect(none("export-notice")).toBe(true);
  });

  it("lets the toast go at once when dismissed", () => {
    const store = new NoticeStore();
    renderPage(store);
    tell(store, "Exported to /out/a.json");
    act(() => {
      (byTestId("export-notice").querySelector('button[aria-label="Dismiss"]') as HTMLButtonElement).click();
    });
    expect(none("export-notice")).toBe(true);
  });
});
