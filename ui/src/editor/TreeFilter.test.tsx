// The tree's filter on the Edit page over the fake platform, in happy-dom: typing filters the tree
// to the matches and their (dimmed) ancestors with the match marked in the title and the count
// "n of m sections"; the arrow keys move through the rows shown; Enter selects the first match and
// puts focus on it in the tree; Escape clears the filter and every row shows again, the selection
// kept; and a 5,000-section template filtered to a few rows.
import type { Root } from "react-dom/client";
import { describe, expect, it } from "vitest";
import type { Template } from "../platform";
import { broadTemplate } from "../testing/broadTemplate";
import { byTestId, keyDown, none, settle, typeInto } from "../testing/dom";
import { renderEditPage } from "../testing/editPage";
import { exampleTemplate, FakePlatform } from "../testing/fakePlatform";
import { mountEachTest } from "../testing/testRoot";
import { TREE_ROW_HEIGHT } from "./SectionTree";

let container: HTMLDivElement;
let root: Root;

mountEachTest((mounted) => {
  ({ container, root } = mounted);
});

async function renderPage(template: Template = exampleTemplate()) {
  return renderEditPage(root, new FakePlatform("/t/task.unfold.json", template));
}

function rows(): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>('[data-testid="section-row"]')];
}

function rowPaths(): (string | undefined)[] {
  return rows().map((row) => row.dataset.path);
}

function row(path: string): HTMLElement {
  const found = rows().find((r) => r.dataset.path === path);
  if (found === undefined) throw new Error(`no row for ${path}`);
  return found;
}

function selectedPath(): string | undefined {
  return rows().find((r) => r.getAttribute("aria-selected") === "true")?.dataset.path;
}

async function filterBy(query: string): Promise<void> {
  typeInto(byTestId("tree-filter"), query);
  await settle();
}

describe("the section tree's filter", () => {
  it("shows the matches and their dimmed ancestors, the match marked, and how many match", async () => {
    await renderPage();
    expect(none("tree-filter-count")).toBe(true);
    await filterBy("hist");
    expect(rowPaths()).toEqual(["context", "context.history"]);
    expect(byTestId("tree-filter-count").textContent).toBe("1 of 5 sections");
    expect(row("context").classList.contains("context")).toBe(true);
    expect(row("context.history").classList.contains("context")).toBe(false);
    const marks = [...row("context.history").querySelectorAll("mark")].map((mark) => mark.textContent);
    // In the title "History" and the key "history".
    expect(marks).toEqual(["Hist", "hist"]);
    expect(byTestId("select-section", row("context.history")).textContent).toBe("Historyhistory");
    expect(row("context").querySelector("mark")).toBeNull();
  });

  it("finds a section by its body text, and says when none matches", async () => {
    await renderPage();
    await filterBy("Style Guide body");
    expect(rowPaths()).toEqual(["style"]);
    await filterBy("no such words");
    expect(rowPaths()).toEqual([]);
    expect(byTestId("tree-filter-count").textContent).toBe("0 of 5 sections");
    expect(container.textContent).toContain("No section matches");
  });

  it("moves the selection through the filtered rows with the arrow keys", async () => {
    const store = await renderPage();
    await filterBy("body");
    expect(rowPaths()).toEqual(["context", "context.examples", "context.history", "style"]);
    const tree = byTestId("section-tree");
    keyDown(tree, "ArrowDown");
    await settle();
    expect(selectedPath()).toBe("context");
    await filterBy("e");
    keyDown(tree, "ArrowDown");
    keyDown(tree, "ArrowDown");
    await settle();
    // "context.history" has no "e": skipped.
    expect(store.getState().selected).toBe("style");
  });

  it("goes to the first match on Enter, with focus on it in the tree", async () => {
    const store = await renderPage();
    await filterBy("examples");
    const field = byTestId("tree-filter");
    field.focus();
    const enter = keyDown(field, "Enter");
    await settle();
    expect(enter.defaultPrevented).toBe(true);
    expect(store.getState().selected).toBe("context.examples");
    expect(document.activeElement).toBe(byTestId("select-section", row("context.examples")));
    // The tree's keys work from there.
    keyDown(document.activeElement ?? document.body, "ArrowUp");
    await settle();
    expect(store.getState().selected).toBe("context");
  });

  it("leaves the selection and focus alone on Enter when nothing matches", async () => {
    const store = await renderPage();
    await filterBy("no such words");
    const field = byTestId("tree-filter");
    field.focus();
    keyDown(field, "Enter");
    await settle();
    expect(store.getState().selected).toBe("task");
    expect(document.activeElement).toBe(field);
  });

  it("clears the filter on Escape: every row again, the selection kept", async () => {
    const store = await renderPage();
    await filterBy("history");
    keyDown(byTestId("tree-filter"), "Enter");
    await settle();
    const escape = keyDown(byTestId("tree-filter"), "Escape");
    await settle();
    expect(escape.defaultPrevented).toBe(true);
    expect((byTestId("tree-filter") as HTMLInputElement).value).toBe("");
    expect(rowPaths()).toEqual(["task", "context", "context.examples", "context.history", "style"]);
    expect(none("tree-filter-count")).toBe(true);
    expect(store.getState().selected).toBe("context.history");
    expect(container.querySelector("mark")).toBeNull();
    // With nothing to clear, Escape is left to others.
    expect(keyDown(byTestId("tree-filter"), "Escape").defaultPrevented).toBe(false);
  });

  it("filters a tree of 5,000 sections to the few that match", async () => {
    await renderPage(broadTemplate(5000));
    await filterBy("Section 4999");
    expect(byTestId("tree-filter-count").textContent).toBe("1 of 5,000 sections");
    expect(rowPaths()).toEqual(["s3", "s3.s48", "s3.s48.s498", "s3.s48.s498.s4999"]);
    expect(byTestId("section-tree").style.height).toBe(`${String(4 * TREE_ROW_HEIGHT)}px`);
    keyDown(byTestId("tree-filter"), "Enter");
    await settle();
    expect(selectedPath()).toBe("s3.s48.s498.s4999");
  });
});
