// Tests for json.ts: JSON syntax errors located by line and column (agreeing with the browser's
// parser on what is JSON), and equality with a field set to `undefined` counted.
import { describe, expect, it } from "vitest";
import { jsonTextError, parseJson, sameJsonCountingUndefined } from "./json";

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

describe("sameJsonCountingUndefined", () => {
  it("compares JSON values whatever the order of object fields", () => {
    expect(sameJsonCountingUndefined({ a: 1, b: [1, { c: null }] }, { b: [1, { c: null }], a: 1 })).toBe(true);
    expect(sameJsonCountingUndefined({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(sameJsonCountingUndefined([1, 2], [2, 1])).toBe(false);
    expect(sameJsonCountingUndefined({ a: undefined }, { b: undefined })).toBe(false);
    expect(sameJsonCountingUndefined(null, {})).toBe(false);
  });
});
