// Tests for treeFilter.ts: which sections a query finds (key, title, body, summary, any case), the
// ancestors kept for context, the first match, the part of a title marked, the count; and a
// 5,000-section template filtered whole.
import { describe, expect, it } from "vitest";
import type { Section, Template } from "../platform";
import { broadTemplate } from "../testing/broadTemplate";
import { exampleTemplate } from "../testing/fakePlatform";
import { treeRows } from "./tree";
import { filterTree, firstMatch, markMatch, matchCountText, needleOf } from "./treeFilter";

function filtered(template: Template, query: string) {
  const result = filterTree(template, treeRows(template), query);
  if (result === null) throw new Error(`"${query}" filtered nothing`);
  return { paths: result.rows.map((row) => row.path), matches: [...result.matches], result };
}

describe("filterTree", () => {
  it("filters nothing for a blank query", () => {
    const template = exampleTemplate();
    expect(filterTree(template, treeRows(template), "")).toBeNull();
    expect(filterTree(template, treeRows(template), "   ")).toBeNull();
  });

  it("finds a section by its title, in any case, and keeps its ancestors shown", () => {
    const { paths, matches } = filtered(exampleTemplate(), "HISTORY");
    expect(paths).toEqual(["context", "context.history"]);
    expect(matches).toEqual(["context.history"]);
  });

  it("finds a section by its key, its body and its summary", () => {
    expect(filtered(exampleTemplate(), "examples").matches).toEqual(["context.examples"]);
    expect(filtered(exampleTemplate(), "complete the following").matches).toEqual(["task"]);
    expect(filtered(exampleTemplate(), "docs are available").matches).toEqual(["context"]);
  });

  it("lists the matches and their ancestors in tree order, an ancestor that matches once", () => {
    // "body" is in the body of every section but the first.
    const { paths, matches } = filtered(exampleTemplate(), "body");
    expect(paths).toEqual(["context", "context.examples", "context.history", "style"]);
    expect(matches).toEqual(["context", "context.examples", "context.history", "style"]);
  });

  it("ignores the spaces around the query but not those inside it", () => {
    expect(filtered(exampleTemplate(), "  style guide ").matches).toEqual(["style"]);
    expect(filtered(exampleTemplate(), "styleguide").paths).toEqual([]);
  });

  it("finds nothing that spans two fields", () => {
    // The key `task` and the title `Task` are one after the other in no text of the section.
    expect(filtered(exampleTemplate(), "task task").paths).toEqual([]);
  });

  it("follows a section's changed text (a new section object), not what it had", () => {
    const template = exampleTemplate();
    expect(filtered(template, "pirate").paths).toEqual([]);
    const [task, ...rest] = template.sections as [Section, ...Section[]];
    const changed = { ...template, sections: [{ ...task, template: "Talk like a pirate" }, ...rest] };
    expect(filtered(changed, "pirate").paths).toEqual(["task"]);
  });
});

describe("firstMatch", () => {
  it("is the first matching row, not an ancestor kept for context", () => {
    expect(firstMatch(filtered(exampleTemplate(), "history").result)).toBe("context.history");
    expect(firstMatch(filtered(exampleTemplate(), "body").result)).toBe("context");
  });

  it("is null when nothing matches", () => {
    expect(firstMatch(filtered(exampleTemplate(), "nowhere").result)).toBeNull();
  });
});

describe("a template of 5,000 sections", () => {
  const template = broadTemplate(5000);
  const rows = treeRows(template);

  it("filters to the matches and every ancestor of theirs", () => {
    // s4999 is under s498, under s48, under s3.
    const { paths, matches } = filtered(template, "section 4999");
    expect(matches).toEqual(["s3.s48.s498.s4999"]);
    expect(paths).toEqual(["s3", "s3.s48", "s3.s48.s498", "s3.s48.s498.s4999"]);
  });

  it("finds every section a common word is in, in tree order", () => {
    const result = filterTree(template, rows, "body of");
    expect(result?.matches.size).toBe(5000);
    expect(result?.rows).toEqual(rows);
  });

  it("finds sections by a part of their keys, each with its ancestors before it", () => {
    const { paths, matches } = filtered(template, "s12");
    // s12, s120–s129 and s1200–s1299.
    expect(matches).toHaveLength(111);
    const ancestors = (path: string) => path.split(".").map((_, i, keys) => keys.slice(0, i + 1).join("."));
    // Every match with its ancestors, nothing else, in tree order.
    const expected = new Set(matches.flatMap(ancestors));
    expect(paths).toEqual(rows.map((row) => row.path).filter((path) => expected.has(path)));
    expect(paths.slice(0, 3)).toEqual(["s0", "s0.s10", "s0.s10.s119"]);
    expect(matches).not.toContain("s0");
  });
});

describe("markMatch", () => {
  it("cuts a title around the first place the query is in it, keeping its case", () => {
    expect(markMatch("Project Context", "context")).toEqual({
      before: "Project ",
      marked: "Context",
      after: "",
    });
    expect(markMatch("Section 12 of section 12", needleOf("SECTION 12"))).toEqual({
      before: "",
      marked: "Section 12",
      after: " of section 12",
    });
  });

  it("marks nothing where the query is not, or where lower case moves the places", () => {
    expect(markMatch("Style Guide", "history")).toBeNull();
    expect(markMatch("İstanbul guide", "guide")).toBeNull();
  });
});

describe("matchCountText", () => {
  it("counts with thousands separators", () => {
    expect(matchCountText(12, 2000)).toBe("12 of 2,000 sections");
    expect(matchCountText(1234, 5000)).toBe("1,234 of 5,000 sections");
    expect(matchCountText(0, 1)).toBe("0 of 1 section");
  });
});
