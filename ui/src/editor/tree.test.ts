// Tests for tree.ts: rows in document order with paths, depths, places among siblings, badges and
// tool counts; which row stays selected when the tree changes; the rows above and below.
import { describe, expect, it } from "vitest";
import { exampleTemplate } from "../testing/fakePlatform";
import { adjacentRow, reselect, toolCountLabel, treeRows, visibilityBadge } from "./tree";

describe("treeRows", () => {
  it("lists every section, parents first, with dotted paths and depths", () => {
    const rows = treeRows(exampleTemplate());
    expect(rows.map((row) => [row.path, row.depth, row.visibility, row.toolCount])).toEqual([
      ["task", 0, "full", 0],
      ["context", 0, "summary", 2],
      ["context.examples", 1, "full", 0],
      ["context.history", 1, "full", 0],
      ["style", 0, "summary", 0],
    ]);
    expect(rows[2]).toMatchObject({ key: "examples", title: "Examples" });
  });

  it("gives each row its place among its siblings (for aria-posinset and aria-setsize)", () => {
    const rows = treeRows(exampleTemplate());
    expect(rows.map((row) => [row.path, row.index, row.siblingCount])).toEqual([
      ["task", 0, 3],
      ["context", 1, 3],
      ["context.examples", 0, 2],
      ["context.history", 1, 2],
      ["style", 2, 3],
    ]);
  });

  it("is empty for a template without sections", () => {
    expect(treeRows({ ...exampleTemplate(), sections: [] })).toEqual([]);
  });
});

describe("adjacentRow", () => {
  const rows = treeRows(exampleTemplate());

  it.each([
    ["task", 1, "context"],
    ["context", 1, "context.examples"],
    ["context.history", 1, "style"],
    ["style", -1, "context.history"],
    ["context.examples", -1, "context"],
    ["style", 1, null],
    ["task", -1, null],
  ] as const)("from %s by %d is %s", (selected, step, expected) => {
    expect(adjacentRow(rows, selected, step)).toBe(expected);
  });

  it("starts at the first row when none is selected, and finds nothing in an empty tree", () => {
    expect(adjacentRow(rows, null, 1)).toBe("task");
    expect(adjacentRow(rows, "gone", -1)).toBe("task");
    expect(adjacentRow([], null, 1)).toBeNull();
  });
});

describe("reselect", () => {
  const before = treeRows(exampleTemplate());

  it("keeps a path that still exists", () => {
    expect(reselect(before, before, "context.history")).toBe("context.history");
  });

  it("follows the row's place when its path went away (an undone rename)", () => {
    const renamed = exampleTemplate();
    const context = renamed.sections[1];
    if (context === undefined) throw new Error("no context");
    context.key = "docs";
    expect(reselect(before, treeRows(renamed), "context.history")).toBe("docs.history");
  });

  it("falls back to the first row, or nothing in an empty tree", () => {
    expect(reselect(before, before, null)).toBe("task");
    expect(reselect(before, before, "gone")).toBe("task");
    expect(reselect(before, [], "task")).toBeNull();
  });
});

describe("labels", () => {
  it("badges visibility", () => {
    expect(visibilityBadge("full")).toBe("FULL");
    expect(visibilityBadge("summary")).toBe("SUMMARY");
  });

  it.each([
    [0, ""],
    [1, "1 tool"],
    [3, "3 tools"],
  ])("counts %d tools as %j", (count, label) => {
    expect(toolCountLabel(count)).toBe(label);
  });
});
