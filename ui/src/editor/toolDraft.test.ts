// Tests for toolDraft.ts: a tool's draft and back, untouched fields (x- fields, explicit false,
// empty lists) kept as they were, emptied optional fields removed, and the mock result.
import { describe, expect, it } from "vitest";
import type { Tool } from "../platform";
import { draftOf, toolOfDraft } from "./toolDraft";

const search: Tool = {
  name: "search",
  description: "Search the docs.",
  parameters: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
  mock: { result: "3 hits" },
};

describe("a tool's draft", () => {
  it("gives back the very tool while nothing is changed", () => {
    const { name, description, parameters, mock } = search;
    const odd = { name, description, brief: "", parameters, categories: [], requires_permission: false, mock };
    Object.assign(odd, { "x-owner": "me" });
    for (const tool of [search, odd]) {
      const drafted = toolOfDraft(tool, draftOf(tool));
      expect(drafted).toEqual({ ok: true, tool });
      if (drafted.ok) expect(JSON.stringify(drafted.tool)).toBe(JSON.stringify(tool));
    }
  });

  it("changes what was typed and keeps x- fields, in the backend's field order", () => {
    const tool = { ...search, "x-owner": "me" } as Tool;
    const draft = {
      ...draftOf(tool),
      name: "find",
      brief: "Find",
      kind: "read" as const,
      categories: " docs, ,web ",
      requiresPermission: true,
      parameters: '{"type": "object"}',
      mock: "error" as const,
      mockError: "offline",
    };
    const drafted = toolOfDraft(tool, draft);
    expect(drafted).toEqual({
      ok: true,
      tool: {
        name: "find",
        description: "Search the docs.",
        brief: "Find",
        parameters: { type: "object" },
        kind: "read",
        categories: ["docs", "web"],
        requires_permission: true,
        mock: { error: "offline" },
        "x-owner": "me",
      },
    });
    if (drafted.ok) expect(Object.keys(drafted.tool).at(-1)).toBe("x-owner");
  });

  it("removes an emptied brief, kind, category list, permission and mock", () => {
    const full: Tool = { ...search, brief: "b", kind: "edit", categories: ["a"], requires_permission: true };
    const draft = {
      ...draftOf(full),
      brief: "",
      kind: "" as const,
      categories: " , ",
      requiresPermission: false,
      mock: "none" as const,
    };
    expect(toolOfDraft(full, draft)).toEqual({
      ok: true,
      tool: { name: "search", description: "Search the docs.", parameters: search.parameters },
    });
  });

  it("reads the mock result as JSON", () => {
    const draft = { ...draftOf(search), mockResult: '{"hits": [1, 2]}' };
    expect(toolOfDraft(search, draft)).toMatchObject({ ok: true, tool: { mock: { result: { hits: [1, 2] } } } });
    expect(draftOf({ ...search, mock: { error: "down" } })).toMatchObject({ mock: "error", mockError: "down" });
  });

  it("reports the JSON texts that do not parse, at their line and column", () => {
    const draft = { ...draftOf(search), parameters: '{\n  "type": "object",\n}', mockResult: "hits" };
    expect(toolOfDraft(search, draft)).toEqual({
      ok: false,
      problems: [
        { location: "/parameters", message: "line 3, column 1: expected a property name in double quotes" },
        { location: "/mock/result", message: "line 1, column 1: expected a value" },
      ],
    });
  });
});
