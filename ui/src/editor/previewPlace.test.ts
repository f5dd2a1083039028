// Tests for previewPlace.ts: a section's part in previews the fake renders as the core does (plain
// and keyed headings), a section under a summarized one at that one's part, a body line that looks
// like a heading not taken for one, and a section in a 5,000-section preview.
import { describe, expect, it } from "vitest";
import type { Template } from "../platform";
import { broadTemplate } from "../testing/broadTemplate";
import { exampleTemplate, previewOf } from "../testing/fakePlatform";
import { headingStart, sectionPartIndex } from "./previewPlace";

/** The first line of the part where `path` is, in `template`'s preview. */
function headingOf(template: Template, path: string, expandAll = true): string | null {
  const { parts } = previewOf(template, [], expandAll);
  const index = sectionPartIndex(parts, template, path);
  return index === null ? null : (parts[index]?.split("\n")[0] ?? null);
}

describe("headingStart", () => {
  it("is the start of the heading the core writes, by depth and number", () => {
    expect(headingStart([1], "plain")).toBe("## 1 ");
    expect(headingStart([2, 1], "plain")).toBe("### 2.1 ");
    expect(headingStart([2, 1], "keyed")).toBe("### 2.1. ");
  });
});

describe("sectionPartIndex", () => {
  it("finds each section's heading in the preview", () => {
    const template = exampleTemplate();
    expect(headingOf(template, "task")).toBe("## 1 Task");
    expect(headingOf(template, "context.history")).toBe("### 2.2 History");
    expect(headingOf(template, "style")).toBe("## 3 Style Guide");
  });

  it("finds a section under a summarized one at that one", () => {
    // "context" is summarized: its subsections are not in the prompt.
    expect(headingOf(exampleTemplate(), "context.examples", false)).toBe("## 2 Project Context");
  });

  it("finds keyed headings", () => {
    const template: Template = { ...exampleTemplate(), heading: "keyed" };
    const parts = [
      "## 1. Task (task)\n\n",
      "## 2. Project Context (context)\n\n",
      "### 2.1. Examples (context.examples)\n",
    ];
    expect(sectionPartIndex(parts, template, "context.examples")).toBe(2);
  });

  it("takes no body line that looks like a heading for one", () => {
    const template = exampleTemplate();
    // A body of "task" holds a line like the heading of "context.history" (the core cuts before it).
    const parts = [
      "## 1 Task\n\n",
      "### 2.2 History of the task\n\n",
      "## 2 Project Context\n\n",
      "### 2.1 Examples\n\n",
      "### 2.2 History\n",
    ];
    expect(sectionPartIndex(parts, template, "context.history")).toBe(4);
  });

  it("is null for no such section, or a preview without it", () => {
    const template = exampleTemplate();
    const { parts } = previewOf(template, [], true);
    expect(sectionPartIndex(parts, template, "context.nowhere")).toBeNull();
    expect(sectionPartIndex([], template, "task")).toBeNull();
  });

  it("finds a section deep in a preview of 5,000 sections", () => {
    expect(headingOf(broadTemplate(5000), "s3.s48.s498.s4999")).toBe("##### 4.9.9.10 Section 4999");
  });
});
