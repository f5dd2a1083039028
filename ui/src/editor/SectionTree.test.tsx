// Renders <SectionTree> over an EditorStore and the fake platform in happy-dom: tree semantics, a
// short tree wholly in the page, a 5,000-section tree rendered by the window in view with the
// selected row scrolled into view by the keyboard, and dragging rows with pointer events (the drop
// indicator, drops that are impossible, Escape, the one undoable move a drop makes).
import { act, useSyncExternalStore } from "react";
import type { Root } from "react-dom/client";
import { describe, expect, it } from "vitest";
import { mountEachTest } from "../testing/testRoot";
import type { Template } from "../platform";
import { broadTemplate } from "../testing/broadTemplate";
import { exampleTemplate, FakePlatform } from "../testing/fakePlatform";
import { RENDER_ALL_UP_TO } from "./rowWindow";
import { DRAG_THRESHOLD, SectionTree, TREE_ROW_HEIGHT } from "./SectionTree";
import { EditorStore } from "./store";
import { byTestId, settle } from "../testing/dom";

const ROW = TREE_ROW_HEIGHT;

let container: HTMLDivElement;
let root: Root;

mountEachTest((mounted) => {
  ({ container, root } = mounted);
});

/** The tree wired to the store the way the editor wires it. */
function TreeOverStore({ store }: { store: EditorStore }) {
  const state = useSyncExternalStore(store.subscribe, store.getState);
  return (
    <SectionTree
      rows={state.rows}
      template={state.document.template}
      selected={state.selected}
      onSelect={(path) => {
        store.select(path);
      }}
      onToggle={(path) => void store.toggleVisibility(path)}
      onKey={(action) => {
        if (action === "select_next") store.selectAdjacent(1);
        else if (action === "select_previous") store.selectAdjacent(-1);
      }}
      onMove={(path, target) => void store.moveTo(path, target)}
    />
  );
}

async function renderTree(
  template: Template = exampleTemplate(),
): Promise<{ platform: FakePlatform; store: EditorStore }> {
  const platform = new FakePlatform("/t/task.unfold.json", template);
  const store = new EditorStore(platform, platform.view());
  await act(async () => {
    root.render(<TreeOverStore store={store} />);
    await Promise.resolve();
  });
  await settle();
  return { platform, store };
}

function row(path: string): HTMLElement {
  const element = container.querySelector<HTMLElement>(`[data-testid="section-row"][data-path="${path}"]`);
  if (element === null) throw new Error(`no row for ${path}`);
  return element;
}

function rowPaths(): (string | null)[] {
  return [...container.querySelectorAll('[data-testid="section-row"]')].map((r) => r.getAttribute("data-path"));
}

function indicators(): { path: string | undefined; position: string | null }[] {
  return [...container.querySelectorAll<HTMLElement>('[data-testid="drop-indicator"]')].map((indicator) => ({
    path: indicator.closest<HTMLElement>('[data-testid="section-row"]')?.dataset.path,
    position: indicator.getAttribute("data-position"),
  }));
}

function moves(platform: FakePlatform): unknown[] {
  return platform.argsOf("applyEdit").map(([, edit]) => edit);
}

/** Fires a pointer event of the primary button at height `clientY` (happy-dom puts the tree at 0). */
async function pointer(element: Element, type: string, clientY: number, clientX = 10): Promise<void> {
  await act(async () => {
    element.dispatchEvent(
      new PointerEvent(type, {
        bubbles: true,
        cancelable: true,
        clientX,
        clientY,
        pointerId: 1,
        button: 0,
        // The primary button is down from the press until it is let go.
        buttons: type === "pointerup" ? 0 : 1,
        isPrimary: true,
      }),
    );
    await Promise.resolve();
  });
}

/** Presses on `path`'s row (on `part` of it) and moves the pointer to each of `ys`, without letting go. */
async function dragFrom(path: string, ys: number[], part = "select-section"): Promise<void> {
  const startY = rowTop(path) + ROW / 2;
  await pointer(byTestId(part, row(path)), "pointerdown", startY);
  // The tree captures the pointer: its events go to the tree's list.
  for (const y of ys) await pointer(byTestId("section-tree"), "pointermove", y);
}

async function release(y: number): Promise<void> {
  await pointer(byTestId("section-tree"), "pointerup", y);
  await settle();
}

function rowTop(path: string): number {
  return Number.parseFloat(row(path).style.top);
}

describe("the section tree", () => {
  it("is a tree of items with their level and place among their siblings", async () => {
    await renderTree();
    expect(byTestId("section-tree").getAttribute("role")).toBe("tree");
    const history = row("context.history");
    expect(history.getAttribute("role")).toBe("treeitem");
    expect([
      history.getAttribute("aria-level"),
      history.getAttribute("aria-posinset"),
      history.getAttribute("aria-setsize"),
    ]).toEqual(["2", "2", "2"]);
    expect(row("task").getAttribute("aria-selected")).toBe("true");
    expect(row("style").getAttribute("aria-selected")).toBe("false");
  });

  it("keeps every row of a short tree in the page, one row height apart", async () => {
    await renderTree();
    expect(rowPaths()).toEqual(["task", "context", "context.examples", "context.history", "style"]);
    expect(rowPaths().map((path) => rowTop(path ?? ""))).toEqual([0, ROW, 2 * ROW, 3 * ROW, 4 * ROW]);
  });
});

describe("a tree of 5,000 sections", () => {
  /** Gives the tree's scrolling box a height (happy-dom lays nothing out) and scrolls it to `top`. */
  async function scrollTo(top: number, height = 400): Promise<void> {
    const box = byTestId("tree-scroller");
    Object.defineProperty(box, "clientHeight", { configurable: true, value: height });
    await act(async () => {
      box.scrollTop = top;
      box.dispatchEvent(new Event("scroll"));
      await Promise.resolve();
    });
  }

  it("puts only the rows in view and a few either side in the page", async () => {
    const { store } = await renderTree(broadTemplate(5000));
    expect(store.getState().rows).toHaveLength(5000);
    await scrollTo(1000 * ROW);
    const shown = rowPaths();
    expect(shown.length).toBeLessThan(RENDER_ALL_UP_TO);
    const rows = store.getState().rows;
    // The ten rows in view, in order, at their place; and the selected first row, kept for focus.
    const inView = rows.slice(1000, 1010).map((r) => r.path);
    expect(shown).toEqual(expect.arrayContaining(inView));
    expect(shown[0]).toBe(rows[0]?.path);
    expect(rowTop(inView[0] ?? "")).toBe(1000 * ROW);
    expect(byTestId("section-tree").style.height).toBe(`${String(5000 * ROW)}px`);
    expect(shown).not.toContain(rows[2000]?.path);
  });

  it("scrolls the row the keyboard selects into view and keeps focus on it", async () => {
    const { store } = await renderTree(broadTemplate(5000));
    await scrollTo(0);
    const rows = store.getState().rows;
    // The box is 400 px high: the row at `below` is the first not wholly in it.
    const below = Math.floor(400 / ROW);
    const lastShown = rows[below - 1]?.path ?? "";
    await act(async () => {
      byTestId("select-section", row(lastShown)).click();
      byTestId("select-section", row(lastShown)).focus();
      await Promise.resolve();
    });
    expect(byTestId("tree-scroller").scrollTop).toBe(0);
    await act(async () => {
      document.activeElement?.dispatchEvent(
        new KeyboardEvent("keydown", { key: "ArrowDown", bubbles: true, cancelable: true }),
      );
      await Promise.resolve();
    });
    const next = rows[below]?.path ?? "";
    expect(store.getState().selected).toBe(next);
    // The box now shows that row at its bottom.
    expect(byTestId("tree-scroller").scrollTop).toBe((below + 1) * ROW - 400);
    expect(document.activeElement).toBe(byTestId("select-section", row(next)));

    const far = rows[3000]?.path ?? "";
    await act(async () => {
      store.select(far);
      await Promise.resolve();
    });
    expect(byTestId("tree-scroller").scrollTop).toBe(3001 * ROW - 400);
    expect(row(far).getAttribute("aria-selected")).toBe("true");
  });
});

describe("dragging a section", () => {
  it("shows where it would go and moves it there with one undoable edit that keeps it selected", async () => {
    const { platform, store } = await renderTree();
    // Rows: 0 task, 1 context, 2 context.examples, 3 context.history, 4 style.
    await dragFrom("task", [4 * ROW + 5]);
    expect(indicators()).toEqual([{ path: "style", position: "before" }]);
    expect(row("task").className).toContain("dragged");
    await pointer(byTestId("section-tree"), "pointermove", 4 * ROW + ROW / 2);
    expect(indicators()).toEqual([{ path: "style", position: "inside" }]);
    await pointer(byTestId("section-tree"), "pointermove", 4 * ROW + ROW - 2);
    expect(indicators()).toEqual([{ path: "style", position: "after" }]);
    await release(4 * ROW + ROW - 2);

    expect(moves(platform)).toEqual([{ op: "move_section", path: "task", parent: null, index: 2 }]);
    expect(rowPaths()).toEqual(["context", "context.examples", "context.history", "style", "task"]);
    expect(store.getState().selected).toBe("task");
    expect(indicators()).toEqual([]);
    expect(row("task").className).not.toContain("dragged");

    await act(async () => {
      await store.undo();
    });
    await settle();
    expect(rowPaths()).toEqual(["task", "context", "context.examples", "context.history", "style"]);
  });

  it("moves it inside another section, with its subsections, and selects it there", async () => {
    const { platform, store } = await renderTree();
    await dragFrom("context", [ROW / 2], "drag-handle");
    expect(indicators()).toEqual([{ path: "task", position: "inside" }]);
    await release(ROW / 2);
    expect(moves(platform)).toEqual([{ op: "move_section", path: "context", parent: "task", index: 0 }]);
    expect(rowPaths()).toEqual(["task", "task.context", "task.context.examples", "task.context.history", "style"]);
    expect(store.getState().selected).toBe("task.context");
  });

  it("offers no drop into the section itself or its subsections, and makes no edit there", async () => {
    const { platform } = await renderTree();
    await dragFrom("context", [2 * ROW + ROW / 2]);
    expect(row("context").className).toContain("dragged");
    expect(indicators()).toEqual([]);
    await pointer(byTestId("section-tree"), "pointermove", 3 * ROW + ROW - 2);
    expect(indicators()).toEqual([]);
    await release(3 * ROW + ROW - 2);
    expect(moves(platform)).toEqual([]);
  });

  it("is not a drag until the pointer moved past the threshold, and a click still selects", async () => {
    const { platform, store } = await renderTree();
    const start = 4 * ROW + ROW / 2;
    await pointer(byTestId("select-section", row("style")), "pointerdown", start);
    await pointer(byTestId("section-tree"), "pointermove", start - (DRAG_THRESHOLD - 1));
    expect(row("style").className).not.toContain("dragged");
    await pointer(byTestId("section-tree"), "pointerup", start - (DRAG_THRESHOLD - 1));
    await act(async () => {
      byTestId("select-section", row("style")).click();
      await Promise.resolve();
    });
    expect(store.getState().selected).toBe("style");
    expect(moves(platform)).toEqual([]);
  });

  it("is cancelled by Escape: nothing moves, and letting go does not click the row", async () => {
    const { platform, store } = await renderTree();
    await dragFrom("style", [5]);
    expect(indicators()).toEqual([{ path: "task", position: "before" }]);
    await act(async () => {
      window.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true, cancelable: true }));
      await Promise.resolve();
    });
    expect(indicators()).toEqual([]);
    expect(row("style").className).not.toContain("dragged");
    await release(5);
    await act(async () => {
      byTestId("select-section", row("style")).click();
      await Promise.resolve();
    });
    expect(moves(platform)).toEqual([]);
    expect(store.getState().selected).toBe("task");
  });

  it("does not select the row under the pointer when a drag that moved nothing ends", async () => {
    const { platform, store } = await renderTree();
    await dragFrom("style", [4 * ROW + 2, 4 * ROW + 30]);
    expect(indicators()).toEqual([]);
    await release(4 * ROW + 30);
    await act(async () => {
      byTestId("select-section", row("style")).click();
      await Promise.resolve();
    });
    expect(store.getState().selected).toBe("task");
    expect(moves(platform)).toEqual([]);
  });

  it("ends a press whose button was let go outside the tree", async () => {
    const { platform } = await renderTree();
    await pointer(byTestId("select-section", row("style")), "pointerdown", 4 * ROW + ROW / 2);
    // Back over the tree with no button down: a hover, not a drag.
    await act(async () => {
      byTestId("section-tree").dispatchEvent(
        new PointerEvent("pointermove", {
          bubbles: true,
          clientX: 10,
          clientY: 5,
          pointerId: 1,
          buttons: 0,
          isPrimary: true,
        }),
      );
      await Promise.resolve();
    });
    expect(indicators()).toEqual([]);
    expect(row("style").className).not.toContain("dragged");
    await release(5);
    expect(moves(platform)).toEqual([]);
  });

  it("never starts from the FULL/SUMMARY badge, which toggles", async () => {
    const { platform } = await renderTree();
    await dragFrom("style", [5], "toggle-visibility");
    expect(indicators()).toEqual([]);
    await release(5);
    expect(moves(platform)).toEqual([]);
  });

  it("shows the backend's refusal and keeps the tree when the new siblings have its key", async () => {
    const template = exampleTemplate();
    template.sections[1]?.children.push({
      key: "style",
      title: "Nested",
      template: "",
      visibility: "full",
      tools: [],
      children: [],
    });
    const { store } = await renderTree(template);
    const before = rowPaths();
    await dragFrom("style", [ROW + ROW / 2]);
    expect(indicators()).toEqual([{ path: "context", position: "inside" }]);
    await release(ROW + ROW / 2);
    expect(store.getState().failure?.detail).toBe("a sibling section already has the key 'style'");
    expect(rowPaths()).toEqual(before);
  });
});
