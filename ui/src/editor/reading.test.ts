// Tests for reading.ts: which sections the preview can show as read, and which marks still count.
import { describe, expect, it } from "vitest";
import { exampleTemplate } from "../testing/fakePlatform";
import { readableRows, readPaths } from "./reading";
import { treeRows } from "./tree";

describe("reading", () => {
  const rows = treeRows(exampleTemplate());

  it("offers the summarized sections in tree order", () => {
    expect(readableRows(rows).map((row) => row.path)).toEqual(["context", "style"]);
  });

  it("keeps only marks that still name a summarized section, in tree order", () => {
    expect(readPaths(["style", "gone", "task", "context"], rows)).toEqual(["context", "style"]);
    expect(readPaths([], rows)).toEqual([]);
  });
});
