// The arguments form from a tool's schema: the fields it makes or why it makes none, whether
// arguments fit it, what each field shows, and the arguments a field's text makes (invalid text
// refused, other arguments kept, an emptied field left out only when not required).
import { describe, expect, it } from "vitest";
import {
  argumentForm,
  argumentsUnfit,
  fieldText,
  otherArguments,
  withFieldText,
  type ArgumentField,
} from "./argumentForm";

const SCHEMA = {
  type: "object",
  properties: {
    query: { type: "string", description: "What to look for." },
    limit: { type: "integer" },
    score: { type: "number" },
    exact: { type: "boolean" },
    scope: { enum: ["docs", "code", 3] },
  },
  required: ["query", "limit"],
};

/** The fields of SCHEMA, by name. */
function fields(): Record<string, ArgumentField> {
  const form = argumentForm(SCHEMA);
  if ("unfit" in form) throw new Error(form.unfit);
  return Object.fromEntries(form.fields.map((field) => [field.name, field]));
}

function field(name: string): ArgumentField {
  const found = fields()[name];
  if (found === undefined) throw new Error(`no field ${name}`);
  return found;
}

describe("argumentForm", () => {
  it("makes a field per property, in order, with its kind, requirement, help and choices", () => {
    const form = argumentForm(SCHEMA);
    expect(form).toEqual({
      fields: [
        { name: "query", kind: "text", required: true, description: "What to look for.", options: [] },
        { name: "limit", kind: "integer", required: true, description: null, options: [] },
        { name: "score", kind: "number", required: false, description: null, options: [] },
        { name: "exact", kind: "boolean", required: false, description: null, options: [] },
        { name: "scope", kind: "choice", required: false, description: null, options: ["docs", "code", 3] },
      ],
    });
  });

  it("makes an empty form for a tool without properties", () => {
    expect(argumentForm({ type: "object" })).toEqual({ fields: [] });
  });

  it("makes no form for what a plain input cannot edit, and says why", () => {
    const nested = { type: "object", properties: { q: { type: "string" }, filter: { type: "object" } } };
    expect(argumentForm(nested)).toEqual({ unfit: '"filter" is an object' });
    expect(argumentForm({ properties: { tags: { type: "array", items: { type: "string" } } } })).toEqual({
      unfit: '"tags" is an array',
    });
    expect(argumentForm({ properties: { id: { type: ["string", "integer"] } } })).toEqual({
      unfit: '"id" has no single simple type',
    });
    expect(argumentForm({ properties: { id: { anyOf: [{ type: "string" }] } } })).toEqual({
      unfit: '"id" has no single simple type',
    });
    expect(argumentForm({ properties: { mode: { enum: [{ a: 1 }] } } })).toEqual({
      unfit: '"mode" has choices a list can\'t show',
    });
    expect(argumentForm({ type: "string" })).toEqual({ unfit: "the arguments are not an object" });
    expect(argumentForm(true)).toEqual({ unfit: "the schema is not an object" });
  });
});

describe("argumentsUnfit", () => {
  const all = () => Object.values(fields());

  it("accepts arguments each field can show, unset and unknown ones included", () => {
    expect(argumentsUnfit(all(), { query: "login", limit: 3, scope: 3, extra: [1] })).toBeNull();
    expect(argumentsUnfit(all(), {})).toBeNull();
  });

  it("names the first argument its field cannot show", () => {
    expect(argumentsUnfit(all(), { query: "a", limit: 2.5 })).toBe('"limit" holds 2.5');
    expect(argumentsUnfit(all(), { query: 7 })).toBe('"query" holds 7');
    expect(argumentsUnfit(all(), { scope: "web" })).toBe('"scope" holds "web"');
  });

  it("lists the arguments no field shows", () => {
    expect(otherArguments(all(), { query: "a", extra: 1, constructor: 2 })).toEqual(["extra", "constructor"]);
  });
});

describe("fieldText", () => {
  it("shows each kind's value, and empty for an unset one", () => {
    const args = { query: "login", limit: 3, exact: true, scope: "code" };
    expect(fieldText(field("query"), args)).toBe("login");
    expect(fieldText(field("limit"), args)).toBe("3");
    expect(fieldText(field("exact"), args)).toBe("true");
    expect(fieldText(field("scope"), args)).toBe('"code"');
    expect(fieldText(field("score"), args)).toBe("");
    expect(fieldText(field("exact"), {})).toBe("false");
    expect(fieldText(field("query"), {})).toBe("");
  });

  it("does not read inherited properties as arguments", () => {
    expect(fieldText({ ...field("query"), name: "constructor" }, {})).toBe("");
  });
});

describe("withFieldText", () => {
  const args = { query: "login", limit: 3, "x-note": "kept" };

  it("sets each kind from its text, keeping the other arguments in place", () => {
    expect(withFieldText(args, field("query"), "logout")).toEqual({
      args: { query: "logout", limit: 3, "x-note": "kept" },
    });
    expect(withFieldText(args, field("limit"), " 12 ")).toEqual({
      args: { query: "login", limit: 12, "x-note": "kept" },
    });
    expect(withFieldText(args, field("score"), "0.5")).toEqual({ args: { ...args, score: 0.5 } });
    expect(withFieldText(args, field("exact"), "true")).toEqual({ args: { ...args, exact: true } });
    expect(withFieldText(args, field("scope"), "3")).toEqual({ args: { ...args, scope: 3 } });
    expect(Object.keys((withFieldText(args, field("query"), "x") as { args: object }).args)).toEqual([
      "query",
      "limit",
      "x-note",
    ]);
  });

  it("refuses text that makes no value of the field's kind", () => {
    expect(withFieldText(args, field("limit"), "2.5")).toEqual({ problem: "expected a whole number" });
    expect(withFieldText(args, field("limit"), "many")).toEqual({ problem: "expected a whole number" });
    expect(withFieldText(args, field("score"), "1e999")).toEqual({ problem: "expected a number" });
    expect(withFieldText(args, field("scope"), '"web"')).toEqual({ problem: "not one of the choices" });
  });

  it("leaves out an emptied argument that is not required", () => {
    const set = { ...args, score: 1, exact: true, scope: "docs" };
    expect(withFieldText(set, field("score"), "")).toEqual({ args: { ...args, exact: true, scope: "docs" } });
    expect(withFieldText(set, field("exact"), "false")).toEqual({ args: { ...args, score: 1, scope: "docs" } });
    expect(withFieldText(set, field("scope"), "")).toEqual({ args: { ...args, score: 1, exact: true } });
  });

  it("keeps a required argument when emptied: empty text, or a problem for a number", () => {
    expect(withFieldText(args, field("query"), "")).toEqual({ args: { ...args, query: "" } });
    expect(withFieldText(args, field("limit"), " ")).toEqual({ problem: "a whole number is required" });
    const flag = { ...field("exact"), required: true };
    expect(withFieldText({ exact: true }, flag, "false")).toEqual({ args: { exact: false } });
    const choice = { ...field("scope"), required: true };
    expect(withFieldText({ scope: "docs" }, choice, "")).toEqual({ problem: "choose one" });
  });
});
