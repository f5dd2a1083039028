// JSON as the UI compares and reads it: two equalities, which differ only in a field set to
// `undefined`; and JSON text parsed with the problem at its line and column, found without asking
// the backend.
import type { JsonValue, ProblemView } from "../platform";

/**
 * Whether two JSON values are equal, objects whatever the order of their fields; a field set to
 * `undefined` counts as a field.
 */
export function sameJsonCountingUndefined(a: unknown, b: unknown): boolean {
  return sameJson(a, b, true);
}

/**
 * Whether two JSON values are equal as they are sent, objects whatever the order of their fields: a
 * field set to `undefined` is left out, as `JSON.stringify` leaves it out.
 */
export function sameJsonIgnoringUndefined(a: unknown, b: unknown): boolean {
  return sameJson(a, b, false);
}

/** The equality of both: a field set to `undefined` counts as a field when `countUndefined`. */
function sameJson(a: unknown, b: unknown, countUndefined: boolean): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((item, i) => sameJson(item, b[i], countUndefined))
    );
  }
  const fields = (value: object) => Object.entries(value).filter(([, field]) => countUndefined || field !== undefined);
  const left = fields(a);
  const right = new Map(fields(b));
  return (
    left.length === right.size &&
    left.every(([key, value]) => right.has(key) && sameJson(value, right.get(key), countUndefined))
  );
}

/**
 * JSON text parsed, or its problem at `location` with the line and column in its message: a break
 * of the JSON grammar, or a key given twice in one object, which `JSON.parse` would take silently
 * (the last one wins) where the core refuses it, as it refuses it in every file.
 */
export function parseJson(
  text: string,
  location: string,
): { ok: true; value: JsonValue } | { ok: false; problem: ProblemView } {
  const error = jsonTextError(text);
  if (error === null) {
    try {
      return { ok: true, value: JSON.parse(text) as JsonValue };
    } catch {
      // The scan and the parser agree on JSON; should they not, the parser has the last word.
    }
  }
  const { line, column, message } = error ?? { line: 1, column: 1, message: "invalid JSON" };
  return { ok: false, problem: { location, message: `line ${line}, column ${column}: ${message}` } };
}

/**
 * Where JSON text first breaks the JSON grammar or gives a key twice in one object (1-based line
 * and column), or null if it is JSON with unique keys.
 */
export interface JsonTextError {
  line: number;
  column: number;
  message: string;
}

/**
 * The first error of JSON text (its grammar, or a key given twice in one object), or null when it
 * is JSON with unique keys. The browser's own parser does not say where it failed (WebKit gives no
 * position) and keeps the last of two keys, so this scans for both: an iterative scan, so no
 * nesting depth can exhaust the stack.
 */
export function jsonTextError(text: string): JsonTextError | null {
  const found = firstError(text);
  if (found === null) return null;
  const before = text.slice(0, found.offset);
  const lineStart = before.lastIndexOf("\n") + 1;
  return { line: before.split("\n").length, column: found.offset - lineStart + 1, message: found.message };
}

type Expecting = "value" | "value_or_close" | "key" | "key_or_close" | "after_value";

const SCALAR = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;

function firstError(text: string): { offset: number; message: string } | null {
  const closers: ("}" | "]")[] = [];
  // The keys of each object open, innermost last (arrays hold no keys: null).
  const keys: (Set<string> | null)[] = [];
  let expecting: Expecting = "value";
  let i = 0;
  const early = (what: string) => ({ offset: i, message: `the JSON ends too early: expected ${what}` });
  for (;;) {
    while (i < text.length && isWhitespace(text.charCodeAt(i))) i++;
    const c = text.charAt(i);
    const atEnd = i >= text.length;
    const closer = closers.at(-1);
    if (expecting === "after_value") {
      if (closer === undefined) return atEnd ? null : { offset: i, message: "unexpected text after the JSON value" };
      if (atEnd) return early(`',' or '${closer}'`);
      if (c === ",") expecting = closer === "}" ? "key" : "value";
      else if (c === closer) {
        closers.pop();
        keys.pop();
      } else return { offset: i, message: `expected ',' or '${closer}'` };
      i++;
      continue;
    }
    if ((expecting === "key_or_close" && c === "}") || (expecting === "value_or_close" && c === "]")) {
      closers.pop();
      keys.pop();
      expecting = "after_value";
      i++;
      continue;
    }
    if (expecting === "key" || expecting === "key_or_close") {
      if (atEnd) return early("a property name");
      if (c !== '"') return { offset: i, message: "expected a property name in double quotes" };
      const key = scanString(text, i);
      if ("message" in key) return key;
      // Compared as decoded: "comm\u0061nd" is "command".
      const name = JSON.parse(text.slice(i, key.end)) as string;
      const seen = keys.at(-1);
      if (seen?.has(name)) {
        return { offset: i, message: `"${name}" is given twice in this object; JSON keys must be unique` };
      }
      seen?.add(name);
      i = key.end;
      while (i < text.length && isWhitespace(text.charCodeAt(i))) i++;
      if (i >= text.length) return early("':'");
      if (text.charAt(i) !== ":") return { offset: i, message: "expected ':' after the property name" };
      i++;
      expecting = "value";
      continue;
    }
    if (atEnd) return early("a value");
    if (c === "{" || c === "[") {
      closers.push(c === "{" ? "}" : "]");
      keys.push(c === "{" ? new Set() : null);
      expecting = c === "{" ? "key_or_close" : "value_or_close";
      i++;
      continue;
    }
    if (c === '"') {
      const string = scanString(text, i);
      if ("message" in string) return string;
      i = string.end;
      expecting = "after_value";
      continue;
    }
    SCALAR.lastIndex = i;
    const scalar = SCALAR.exec(text);
    if (scalar === null) return { offset: i, message: "expected a value" };
    i += scalar[0].length;
    expecting = "after_value";
  }
}

function isWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

/** Scans the string starting at `start` (a `"`): where it ends, or its error. */
function scanString(text: string, start: number): { end: number } | { offset: number; message: string } {
  let i = start + 1;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code === 0x22) return { end: i + 1 };
    if (code === 0x5c) {
      const escaped = text.charAt(i + 1);
      if (escaped === "u") {
        if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) return { offset: i, message: "invalid \\u escape" };
        i += 6;
      } else if (escaped !== "" && '"\\/bfnrt'.includes(escaped)) {
        i += 2;
      } else {
        return { offset: i, message: "invalid escape in a string" };
      }
      continue;
    }
    if (code < 0x20) return { offset: i, message: "a line break or control character in a string (write \\n)" };
    i++;
  }
  return { offset: i, message: "the JSON ends too early: a string is not closed" };
}
