// The panes' arithmetic: the widths drawn in a 1024 and a 1440 px window (the tree keeps a readable
// width, the editor and the preview give way), dragging and keys kept within the limits, collapsing
// and restoring to the size a pane had, and the kept layout read back with bad values ignored.
import { describe, expect, it } from "vitest";
import {
  COLLAPSED_WIDTH,
  initialLayout,
  layoutText,
  movedBy,
  parseLayout,
  resizedTo,
  shownSizes,
  sizeLimits,
  toggledCollapse,
  type SplitSpec,
} from "./paneLayout";

const SPLIT: SplitSpec = {
  storageKey: "test.panes",
  panes: [
    { id: "tree", name: "Sections", side: "before", min: 200, initial: 260 },
    { id: "preview", name: "Preview", side: "after", min: 240, initial: 560 },
  ],
  flexMin: 340,
};
const HANDLES = 2 * 8;

describe("the widths drawn", () => {
  it("keeps the tree readable at 1024 px and lets the preview give way to the editor's minimum", () => {
    const shown = shownSizes(SPLIT, initialLayout(SPLIT), 1024);
    expect(shown).toEqual({ tree: 260, preview: 1024 - HANDLES - 340 - 260 });
  });

  it("draws every pane at its size where the window has room (1440 px)", () => {
    expect(shownSizes(SPLIT, initialLayout(SPLIT), 1440)).toEqual({ tree: 260, preview: 560 });
  });

  it("never draws a pane narrower than its minimum, even in a window too narrow for all", () => {
    expect(shownSizes(SPLIT, initialLayout(SPLIT), 600)).toEqual({ tree: 200, preview: 240 });
  });

  it("draws a collapsed pane as a rail and gives its room to the others", () => {
    const layout = toggledCollapse(initialLayout(SPLIT), "tree");
    expect(shownSizes(SPLIT, layout, 1024)).toEqual({
      tree: COLLAPSED_WIDTH,
      preview: 560,
    });
  });

  it("draws the stored sizes while the room is not measured", () => {
    expect(shownSizes(SPLIT, initialLayout(SPLIT), null)).toEqual({ tree: 260, preview: 560 });
  });
});

describe("resizing", () => {
  it("clamps a drag to the pane's minimum and to what leaves the others their minimum", () => {
    const layout = initialLayout(SPLIT);
    expect(resizedTo(SPLIT, layout, "tree", 50, 1024).sizes.tree).toBe(200);
    // The preview gives way to its minimum for the tree, the editor keeps its own.
    expect(resizedTo(SPLIT, layout, "tree", 900, 1024).sizes.tree).toBe(1024 - HANDLES - 340 - 240);
    expect(sizeLimits(SPLIT, layout, "preview", 1024)).toEqual({ min: 240, max: 1024 - HANDLES - 340 - 260 });
  });

  it("moves a separator: right grows a pane before the editor and shrinks one after it", () => {
    const layout = initialLayout(SPLIT);
    expect(movedBy(SPLIT, layout, "tree", 16, 1440).sizes.tree).toBe(276);
    expect(movedBy(SPLIT, layout, "preview", 16, 1440).sizes.preview).toBe(544);
    expect(movedBy(SPLIT, layout, "preview", -64, 1440).sizes.preview).toBe(624);
  });

  it("moves from the width drawn, not the one stored, when the window made the pane give way", () => {
    // Stored 560 but drawn 408 at 1024: one step left widens what the user sees.
    const moved = movedBy(SPLIT, initialLayout(SPLIT), "preview", -16, 1024);
    expect(moved.sizes.preview).toBe(408);
    const narrower = movedBy(SPLIT, initialLayout(SPLIT), "preview", 16, 1024);
    expect(narrower.sizes.preview).toBe(392);
  });

  it("restores a collapsed pane when it is dragged", () => {
    const collapsed = toggledCollapse(initialLayout(SPLIT), "tree");
    expect(movedBy(SPLIT, collapsed, "tree", 40, 1440)).toEqual({
      sizes: { tree: 240, preview: 560 },
      collapsed: { tree: false, preview: false },
    });
  });
});

describe("collapsing", () => {
  it("restores a pane to the size it had before it collapsed", () => {
    const resized = resizedTo(SPLIT, initialLayout(SPLIT), "tree", 330, 1440);
    const collapsed = toggledCollapse(resized, "tree");
    expect(collapsed.collapsed.tree).toBe(true);
    const restored = toggledCollapse(collapsed, "tree");
    expect(restored).toEqual(resized);
    expect(shownSizes(SPLIT, restored, 1440).tree).toBe(330);
  });
});

describe("the layout kept", () => {
  it("reads back what was kept", () => {
    const layout = toggledCollapse(resizedTo(SPLIT, initialLayout(SPLIT), "tree", 320, 1440), "preview");
    expect(parseLayout(SPLIT, layoutText(layout))).toEqual(layout);
  });

  it("starts from the initial layout when nothing or no JSON object is kept", () => {
    for (const text of [null, "", "not json", "[1,2]", "null", "42"]) {
      expect(parseLayout(SPLIT, text)).toEqual(initialLayout(SPLIT));
    }
  });

  it("ignores each bad value and keeps the good ones", () => {
    const text = JSON.stringify({
      sizes: { tree: "wide", preview: 300, stranger: 5 },
      collapsed: { tree: "yes", preview: true },
    });
    expect(parseLayout(SPLIT, text)).toEqual({
      sizes: { tree: 260, preview: 300 },
      collapsed: { tree: false, preview: true },
    });
    const absurd = JSON.stringify({ sizes: { tree: 1e9, preview: -5 } });
    // No one drags past 10,000 px; a size under the minimum is the minimum.
    expect(parseLayout(SPLIT, absurd).sizes).toEqual({ tree: 260, preview: 240 });
  });
});
