// The panes' separators as a keyboard user and a pointer user meet them: a focusable separator that
// says the pane's width, moved by the arrow keys within the limits, collapsed by Enter or a
// double-click and restored by its rail's button, the layout kept for the next time the page shows.
import { act } from "react";
import type { Root } from "react-dom/client";
import { afterEach, describe, expect, it, vi } from "vitest";
import { byTestId, click, keyDown, none } from "../testing/dom";
import { mountEachTest } from "../testing/testRoot";
import type { SplitSpec } from "./paneLayout";
import { SplitPanes, useStoredPaneLayout } from "./SplitPanes";

const SPLIT: SplitSpec = {
  storageKey: "test.panes",
  panes: [
    { id: "tree", name: "sections", side: "before", min: 180, initial: 260 },
    { id: "preview", name: "preview", side: "after", min: 240, initial: 560 },
  ],
  flexMin: 320,
};

let root: Root;
mountEachTest((mounted) => {
  ({ root } = mounted);
});

afterEach(() => {
  vi.restoreAllMocks();
});

function Page() {
  const [layout, onLayout] = useStoredPaneLayout(SPLIT);
  return (
    <SplitPanes split={SPLIT} layout={layout} onLayout={onLayout} className="panes">
      <nav data-testid="tree">tree</nav>
      <div data-testid="editor">editor</div>
      <section data-testid="preview">preview</section>
    </SplitPanes>
  );
}

function show() {
  act(() => {
    root.render(<Page />);
  });
}

/** Lays the split out `width` pixels wide (happy-dom lays nothing out). */
function windowOf(width: number) {
  vi.spyOn(HTMLElement.prototype, "getBoundingClientRect").mockImplementation(function (this: HTMLElement) {
    return DOMRect.fromRect({ width: this.classList.contains("split-panes") ? width : 0, height: 700 });
  });
}

const width = (id: string) => Number(byTestId(`pane-handle-${id}`).getAttribute("aria-valuenow"));

describe("SplitPanes: the separators", () => {
  it("puts the panes in their order with a focusable separator that says each pane's width", () => {
    show();
    const order = [...(byTestId("editor").parentElement?.children ?? [])].map(
      (child) => child.getAttribute("data-testid") ?? child.querySelector("[data-testid]")?.getAttribute("data-testid"),
    );
    expect(order).toEqual(["tree", "pane-handle-tree", "editor", "pane-handle-preview", "preview"]);
    const handle = byTestId("pane-handle-tree");
    expect(handle.getAttribute("role")).toBe("separator");
    expect(handle.getAttribute("aria-label")).toBe("Resize the sections");
    expect(handle.tabIndex).toBe(0);
    expect(width("tree")).toBe(260);
  });

  it("resizes by the arrow keys, a larger step with Shift, and to the minimum with Home", () => {
    show();
    const tree = byTestId("pane-handle-tree");
    expect(keyDown(tree, "ArrowRight").defaultPrevented).toBe(true);
    expect(width("tree")).toBe(276);
    keyDown(tree, "ArrowLeft", { shiftKey: true });
    expect(width("tree")).toBe(212);
    keyDown(tree, "Home");
    expect(width("tree")).toBe(180);
    keyDown(tree, "ArrowLeft");
    expect(width("tree")).toBe(180);
    // The preview's separator moves the other way: left widens it.
    keyDown(byTestId("pane-handle-preview"), "ArrowLeft");
    expect(width("preview")).toBe(576);
  });

  it("stops at the width that leaves the other panes their minimum in a 1024 px window", () => {
    windowOf(1024);
    show();
    const tree = byTestId("pane-handle-tree");
    // The preview gives way for the editor at 1024 px; the tree keeps its readable width.
    expect(width("tree")).toBe(260);
    expect(width("preview")).toBe(1024 - 16 - 320 - 260);
    keyDown(tree, "End");
    expect(width("tree")).toBe(1024 - 16 - 320 - 240);
    expect(tree.getAttribute("aria-valuemax")).toBe(String(1024 - 16 - 320 - 240));
    keyDown(tree, "ArrowRight");
    expect(width("tree")).toBe(1024 - 16 - 320 - 240);
  });

  it("collapses a pane with Enter and restores it, at its width, with its rail's button", async () => {
    show();
    keyDown(byTestId("pane-handle-tree"), "ArrowRight");
    keyDown(byTestId("pane-handle-tree"), "Enter");
    expect(none("tree")).toBe(true);
    expect(byTestId("pane-toggle-tree").getAttribute("aria-expanded")).toBe("false");
    await click(byTestId("pane-restore-tree"));
    expect(byTestId("tree").textContent).toBe("tree");
    expect(width("tree")).toBe(276);
  });

  it("leaves the keys with Ctrl, Alt or Meta to the app's shortcuts", () => {
    show();
    const tree = byTestId("pane-handle-tree");
    expect(keyDown(tree, "Enter", { ctrlKey: true }).defaultPrevented).toBe(false);
    expect(keyDown(tree, "ArrowRight", { altKey: true }).defaultPrevented).toBe(false);
    expect(byTestId("tree").textContent).toBe("tree");
    expect(width("tree")).toBe(260);
  });

  it("collapses a pane on a double-click of its separator, and by its button", async () => {
    show();
    act(() => {
      byTestId("pane-handle-preview").dispatchEvent(new MouseEvent("dblclick", { bubbles: true }));
    });
    expect(none("preview")).toBe(true);
    await click(byTestId("pane-toggle-preview"));
    expect(byTestId("preview").textContent).toBe("preview");
    await click(byTestId("pane-toggle-tree"));
    expect(none("tree")).toBe(true);
  });

  it("keeps the sizes and what is collapsed for the next time the page shows", () => {
    show();
    keyDown(byTestId("pane-handle-tree"), "ArrowRight", { shiftKey: true });
    keyDown(byTestId("pane-handle-preview"), "Enter");
    act(() => {
      root.render(<></>);
    });
    show();
    expect(width("tree")).toBe(324);
    expect(none("preview")).toBe(true);
  });

  it("starts from the initial layout when what is kept is not a layout", () => {
    window.localStorage.setItem(SPLIT.storageKey, "{not json");
    show();
    expect(width("tree")).toBe(260);
    expect(width("preview")).toBe(560);
  });
});
