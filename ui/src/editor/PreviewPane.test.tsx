// The preview pane on the Edit page over the fake platform, in happy-dom: the selected section's
// text marked and scrolled into view when another section is selected (from the tree, or by "go to
// section"), not when the pane opens nor as the section is typed in; a section under a summarized
// one at that one's text; and the offered tools' list, closed and opened by its heading with the
// count, closed or not as it was left, across pages.
import { act } from "react";
import type { Root } from "react-dom/client";
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from "vitest";
import { all, byTestId, click, keyDown, none, settle, typeInto } from "../testing/dom";
import { renderEditPage } from "../testing/editPage";
import type { Template } from "../platform";
import { broadTemplate } from "../testing/broadTemplate";
import { FakePlatform } from "../testing/fakePlatform";
import { mountEachTest } from "../testing/testRoot";
import { OFFERED_TOOLS_CLOSED } from "./rememberedFlag";
import type { EditorStore } from "./store";

let container: HTMLDivElement;
let root: Root;
/** The elements scrolled into view, in order. */
let scrolled: Element[];
let scrollSpy: MockInstance<Element["scrollIntoView"]>;

mountEachTest((mounted) => {
  ({ container, root } = mounted);
});

beforeEach(() => {
  scrolled = [];
  scrollSpy = vi.spyOn(Element.prototype, "scrollIntoView").mockImplementation(function (this: Element) {
    scrolled.push(this);
  });
  window.localStorage.clear();
});

afterEach(() => {
  scrollSpy.mockRestore();
  window.localStorage.clear();
});

async function renderPage(template?: Template): Promise<EditorStore> {
  const platform = template === undefined ? new FakePlatform() : new FakePlatform("/t/big.unfold.json", template);
  return renderEditPage(root, platform);
}

async function selectInTree(path: string): Promise<void> {
  const row = container.querySelector(`[data-testid="section-row"][data-path="${path}"]`);
  if (row === null) throw new Error(`no row for ${path}`);
  await click(byTestId("select-section", row));
}

/** The first line of each element scrolled into view: the heading of the section it holds. */
function scrolledHeadings(): (string | undefined)[] {
  return scrolled.map((element) => element.textContent.split("\n")[0]);
}

describe("the preview of the selected section", () => {
  it("marks the selected section's text and scrolls it into view when another is selected", async () => {
    await renderPage();
    // The pane opens at its top, the first section selected.
    expect(scrolled).toEqual([]);
    expect(byTestId("preview-selected-section").textContent.split("\n")[0]).toBe("## 1 Task");
    await click(byTestId("expand-all"));
    await selectInTree("context.history");
    expect(scrolledHeadings()).toEqual(["### 2.2 History"]);
    expect(scrolled[0]).toBe(byTestId("preview-selected-section"));
    expect(byTestId("preview-markdown").contains(scrolled[0] ?? null)).toBe(true);
    expect(scrollSpy).toHaveBeenLastCalledWith({ block: "start" });
  });

  it("does not scroll as the selected section is typed in, nor for the same selection", async () => {
    const store = await renderPage();
    await selectInTree("style");
    expect(scrolledHeadings()).toEqual(["## 3 Style Guide"]);
    await click(byTestId("tab-section"));
    // "style" is summarized: its summary is what the preview shows.
    typeInto(byTestId("field-summary"), "A longer style guide");
    await settle();
    await store.idle();
    await settle();
    await selectInTree("style");
    expect(scrolledHeadings()).toEqual(["## 3 Style Guide"]);
    expect(byTestId("preview-selected-section").textContent).toContain("A longer style guide");
  });

  it("scrolls to a summarized section's text for one of its subsections, which it hides", async () => {
    await renderPage();
    await selectInTree("context.examples");
    expect(scrolledHeadings()).toEqual(["## 2 Project Context"]);
  });

  it("marks and scrolls to a section far down a big prompt, once, when a palette goes to it", async () => {
    const store = await renderPage(broadTemplate(500));
    act(() => {
      store.selectSection("s0.s18.s199");
    });
    await settle();
    expect(scrolledHeadings()).toEqual(["#### 1.9.10 Section 199"]);
    expect(all("preview-selected-section")).toHaveLength(1);
  });

  it("scrolls to the section the filter goes to", async () => {
    await renderPage();
    typeInto(byTestId("tree-filter"), "style");
    await settle();
    keyDown(byTestId("tree-filter"), "Enter");
    await settle();
    expect(scrolledHeadings()).toEqual(["## 3 Style Guide"]);
  });
});

describe("the offered tools", () => {
  function toggle(): HTMLElement {
    return byTestId("offered-tools-toggle");
  }

  it("close and open under a heading with their count", async () => {
    await renderPage();
    expect(toggle().textContent).toBe("Offered tools (2)");
    expect(toggle().getAttribute("aria-expanded")).toBe("true");
    expect(byTestId("tool-list").querySelectorAll("li")).toHaveLength(2);
    await click(toggle());
    expect(toggle().getAttribute("aria-expanded")).toBe("false");
    expect(none("tool-list")).toBe(true);
    await click(toggle());
    expect(byTestId("tool-list").querySelectorAll("li")).toHaveLength(2);
  });

  it("stay closed or open as they were left, the next time the pane is drawn", async () => {
    await renderPage();
    await click(toggle());
    expect(window.localStorage.getItem(OFFERED_TOOLS_CLOSED)).toBe("true");
    act(() => {
      root.render(<p>another page</p>);
    });
    await renderPage();
    expect(toggle().getAttribute("aria-expanded")).toBe("false");
    expect(none("tool-list")).toBe(true);
    await click(toggle());
    expect(window.localStorage.getItem(OFFERED_TOOLS_CLOSED)).toBe("false");
  });
});
