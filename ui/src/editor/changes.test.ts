// Tests for changes.ts: the template, the tree's rows and the preview the editor holds after each
// kind of answer are what asking for everything again would give, and untouched parts are kept.
import { describe, expect, it } from "vitest";
import type { PreviewUpdate, Template, TemplateChange } from "../platform";
import { exampleTemplate } from "../testing/fakePlatform";
import { followPreview, followRows, followTemplate, type ShownPreview } from "./changes";
import { treeRows } from "./tree";
import { sectionAt } from "../shared/template";

/** A section's fields as the backend sends them in a change. */
type SentFields = Extract<TemplateChange, { kind: "section_fields" }>["fields"];

const fields = (rest: Partial<SentFields> = {}): SentFields => ({
  title: "History",
  template: "typed",
  summary: null,
  visibility: "full",
  ...rest,
});

describe("followTemplate", () => {
  it("sets one section's fields and keeps every other section as it was", () => {
    const template = exampleTemplate();
    const next = followTemplate(template, { kind: "section_fields", path: "context.history", fields: fields() });
    expect(sectionAt(next, "context.history")?.template).toBe("typed");
    expect(next.sections[0]).toBe(template.sections[0]);
    expect(next.sections[2]).toBe(template.sections[2]);
    expect(sectionAt(next, "context.examples")).toBe(sectionAt(template, "context.examples"));
    expect(sectionAt(template, "context.history")?.template).toBe("History body");
  });

  it("drops a summary the fields no longer have, and sets one they have", () => {
    const template = exampleTemplate();
    const cleared = followTemplate(template, {
      kind: "section_fields",
      path: "style",
      fields: fields({ title: "Style Guide", summary: null }),
    });
    expect(sectionAt(cleared, "style")).not.toHaveProperty("summary");
    const summarized = followTemplate(template, {
      kind: "section_fields",
      path: "task",
      fields: fields({ title: "Task", summary: "S", visibility: "summary" }),
    });
    expect(sectionAt(summarized, "task")).toMatchObject({ summary: "S", visibility: "summary" });
  });

  it("takes a whole template as it comes, and changes nothing for an unchanged one or an unknown path", () => {
    const template = exampleTemplate();
    const other: Template = { ...exampleTemplate(), key: "other" };
    expect(followTemplate(template, { kind: "whole", template: other })).toBe(other);
    expect(followTemplate(template, { kind: "unchanged" })).toBe(template);
    expect(followTemplate(template, { kind: "section_fields", path: "context.nope", fields: fields() })).toBe(template);
  });
});

describe("followRows", () => {
  it("changes the row of a retitled or toggled section and keeps the others", () => {
    const template = exampleTemplate();
    const rows = treeRows(template);
    const change = {
      kind: "section_fields",
      path: "style",
      fields: fields({ title: "Tone", summary: "S", visibility: "summary" }),
    } as const;
    const next = followRows(rows, followTemplate(template, change), change);
    expect(next).toEqual(treeRows(followTemplate(template, change)));
    expect(next[0]).toBe(rows[0]);
  });

  it("keeps the very rows when only a body changed, and makes them again for a whole template", () => {
    const template = exampleTemplate();
    const rows = treeRows(template);
    const typed = { kind: "section_fields", path: "task", fields: fields({ title: "Task" }) } as const;
    expect(followRows(rows, followTemplate(template, typed), typed)).toBe(rows);
    const other = { ...template, sections: template.sections.slice(1) };
    expect(followRows(rows, other, { kind: "whole", template: other })).toEqual(treeRows(other));
  });
});

describe("followPreview", () => {
  const update = (serial: number, prompt: PreviewUpdate["prompt"]): PreviewUpdate => ({
    serial,
    prompt,
    tools: [],
    prompt_tokens: 3,
    tool_tokens: 1,
  });
  const held: ShownPreview = { serial: 4, parts: ["a", "b", "c", "d"], tools: [], prompt_tokens: 2, tool_tokens: 1 };

  it("takes a whole prompt, and applies a change to the preview it was made from", () => {
    expect(followPreview(null, update(1, { base: null, keep_start: 0, keep_end: 0, parts: ["x"] }))?.parts).toEqual([
      "x",
    ]);
    const next = followPreview(held, update(5, { base: 4, keep_start: 1, keep_end: 2, parts: ["B", "B2"] }));
    expect(next).toEqual({ serial: 5, parts: ["a", "B", "B2", "c", "d"], tools: [], prompt_tokens: 3, tool_tokens: 1 });
    expect(followPreview(held, update(6, { base: 4, keep_start: 4, keep_end: 0, parts: [] }))?.parts).toEqual(
      held.parts,
    );
  });

  it("keeps the very tools it holds when the update leaves them out", () => {
    const tools = [{ type: "function", function: { name: "lookup" } }];
    const withTools = { ...held, tools };
    const typed = followPreview(withTools, {
      ...update(5, { base: 4, keep_start: 1, keep_end: 2, parts: ["B"] }),
      tools: null,
    });
    expect(typed?.tools).toBe(tools);
    const changed = [{ type: "function", function: { name: "search" } }];
    const toggled = followPreview(withTools, {
      ...update(5, { base: 4, keep_start: 4, keep_end: 0, parts: [] }),
      tools: changed,
    });
    expect(toggled?.tools).toBe(changed);
    // A whole preview without its tools cannot be shown: ask again.
    expect(
      followPreview(withTools, { ...update(5, { base: null, keep_start: 0, keep_end: 0, parts: ["x"] }), tools: null }),
    ).toBeNull();
  });

  it("refuses a change from a preview it does not hold", () => {
    expect(followPreview(held, update(5, { base: 3, keep_start: 1, keep_end: 0, parts: [] }))).toBeNull();
    expect(followPreview(null, update(5, { base: 3, keep_start: 0, keep_end: 0, parts: [] }))).toBeNull();
    expect(followPreview(held, update(5, { base: 4, keep_start: 3, keep_end: 3, parts: [] }))).toBeNull();
  });
});
