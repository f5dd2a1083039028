// Tests for toolDraft.ts: a tool's draft and back, untouched fields (x- fields, explicit false,
// empty lists) kept as they were, emptied optional fields removed, the mock result, and JSON syntax
// errors located by line and column (agreeing with the browser's parser on what is JSON).
import { describe, expect, it } from "vitest";
import type { Tool } from "../platform";
import { draftOf, jsonTextError, parseJson, sameJson, toolOfDraft } from "./toolDraft";

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

describe("JSON syntax errors", () => {
  it.each([
    ["", 1, 1, "the JSON ends too early: expected a value"],
    ["{", 1, 2, "the JSON ends too early: expected a property name"],
    ['{"a" 1}', 1, 6, "expected ':' after the property name"],
    ['{"a": 1,}', 1, 9, "expected a property name in double quotes"],
    ["[1 2]", 1, 4, "expected ',' or ']'"],
    ['{"a": [1, 2}', 1, 12, "expected ',' or ']'"],
    ['{"a": tru}', 1, 7, "expected a value"],
    ["01", 1, 2, "unexpected text after the JSON value"],
    ['{"a": 1} x', 1, 10, "unexpected text after the JSON value"],
    ['"a\nb"', 1, 3, "a line break or control character in a string (write \\n)"],
    ['"\\x"', 1, 2, "invalid escape in a string"],
    ['"\\u12"', 1, 2, "invalid \\u escape"],
    ['["open', 1, 7, "the JSON ends too early: a string is not closed"],
    ['{\n  "a": [\n    1,\n  ]\n}', 4, 3, "expected a value"],
  ])("%j fails at %i:%i", (text, line, column, message) => {
    expect(() => JSON.parse(text) as unknown).toThrow();
    expect(jsonTextError(text)).toEqual({ line, column, message });
  });

  it.each([
    ['{"id": 1, "id": 2}', 1, 11, '"id" is given twice in this object; JSON keys must be unique'],
    [
      '{"command": "ls", "comm\\u0061nd": "sh"}',
      1,
      19,
      '"command" is given twice in this object; JSON keys must be unique',
    ],
    ['[{"a": 1}, {"b": {"c": 1, "c": 2}}]', 1, 27, '"c" is given twice in this object; JSON keys must be unique'],
  ])("%j gives a key twice at %i:%i, which JSON.parse would keep the last of", (text, line, column, message) => {
    expect(() => JSON.parse(text) as unknown).not.toThrow();
    expect(jsonTextError(text)).toEqual({ line, column, message });
  });

  it("tells the same key in different objects apart", () => {
    expect(jsonTextError('{"a": {"a": {"a": 1}}, "b": [{"a": 1}, {"a": 2}]}')).toBeNull();
  });

  it.each([
    "null",
    " 0 ",
    "-1.5e+10",
    '"\\u00e9\\n\\"\\\\"',
    '{"a": [true, false, null, {}, []], "b": {"c": "d"}}',
    "[".repeat(10_000) + "]".repeat(10_000),
  ])("finds none in JSON %#", (text) => {
    expect(() => JSON.parse(text) as unknown).not.toThrow();
    expect(jsonTextError(text)).toBeNull();
  });

  it("parses JSON text or names the place it breaks", () => {
    expect(parseJson('{"type": "object"}', "/parameters")).toEqual({ ok: true, value: { type: "object" } });
    expect(parseJson('{"type": "object", "type": "string"}', "/parameters")).toEqual({
      ok: false,
      problem: {
        location: "/parameters",
        message: 'line 1, column 20: "type" is given twice in this object; JSON keys must be unique',
      },
    });
    expect(parseJson("{]", "/parameters")).toEqual({
      ok: false,
      problem: { location: "/parameters", message: "line 1, column 2: expected a property name in double quotes" },
    });
  });
});

describe("sameJson", () => {
  it("compares JSON values whatever the order of object fields", () => {
    expect(sameJson({ a: 1, b: [1, { c: null }] }, { b: [1, { c: null }], a: 1 })).toBe(true);
    expect(sameJson({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(sameJson([1, 2], [2, 1])).toBe(false);
    expect(sameJson({ a: undefined }, { b: undefined })).toBe(false);
    expect(sameJson(null, {})).toBe(false);
  });
});
