// The form of a scripted call's arguments, made from its tool's JSON Schema: the fields the schema
// makes (one per property a plain input can edit) or why it makes none, whether a call's arguments
// fit those fields, what a field shows of them, and the arguments a field's new text makes. Pure: the
// scenario panel renders it, and anything it cannot express stays in the JSON view.
import type { JsonValue } from "../platform";

type JsonObject = { [key: string]: JsonValue };

/** How a field is edited: a text input, a number input (whole numbers only), a checkbox, a select. */
export type FieldKind = "text" | "number" | "integer" | "boolean" | "choice";

/** One property of the arguments as a form field. */
export interface ArgumentField {
  name: string;
  kind: FieldKind;
  required: boolean;
  /** The property's `description`, shown as help. */
  description: string | null;
  /** The values a choice offers (the property's `enum`); empty for other kinds. */
  options: readonly JsonValue[];
}

/** The fields of a schema, or why it makes no form (the JSON view stays the only one). */
export type ArgumentForm = { fields: ArgumentField[] } | { unfit: string };

/** Why a field cannot be edited in a form. */
interface Unfit {
  unfit: string;
}

/** The new arguments a field's text makes, or why the text makes none. */
export type ArgumentsOrProblem = { args: JsonObject } | { problem: string };

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The argument `name` when `args` has it as its own (not one inherited, like `constructor`). */
function own(args: JsonObject, name: string): JsonValue | undefined {
  return Object.prototype.hasOwnProperty.call(args, name) ? args[name] : undefined;
}

function isScalar(value: JsonValue): boolean {
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean";
}

const KIND_OF_TYPE: Readonly<Record<string, FieldKind>> = {
  string: "text",
  number: "number",
  integer: "integer",
  boolean: "boolean",
};

/** What a property's schema makes a field of, or why it makes none. */
function kindOf(name: string, schema: JsonValue): FieldKind | Unfit {
  if (!isObject(schema)) return { unfit: `"${name}" has no schema of its own` };
  const { enum: choices, type } = schema;
  if (Array.isArray(choices)) {
    return choices.length > 0 && choices.every(isScalar)
      ? "choice"
      : { unfit: `"${name}" has choices a list can't show` };
  }
  if (type === "object" || type === "array") return { unfit: `"${name}" is an ${type}` };
  const kind = typeof type === "string" ? KIND_OF_TYPE[type] : undefined;
  return kind ?? { unfit: `"${name}" has no single simple type` };
}

/** The form of a tool's `parameters` schema: a field per property, or why there is no form. */
export function argumentForm(schema: JsonValue): ArgumentForm {
  if (!isObject(schema)) return { unfit: "the schema is not an object" };
  if (schema.type !== undefined && schema.type !== "object") return { unfit: "the arguments are not an object" };
  const properties = schema.properties ?? {};
  if (!isObject(properties)) return { unfit: "the schema's properties are not an object" };
  const required = Array.isArray(schema.required) ? schema.required : [];
  const fields: ArgumentField[] = [];
  for (const [name, property] of Object.entries(properties)) {
    const kind = kindOf(name, property);
    if (typeof kind !== "string") return kind;
    const description = isObject(property) && typeof property.description === "string" ? property.description : null;
    const options = kind === "choice" && isObject(property) && Array.isArray(property.enum) ? property.enum : [];
    fields.push({ name, kind, required: required.includes(name), description, options });
  }
  return { fields };
}

/** Whether `value` is one `field` can show. */
function fits(field: ArgumentField, value: JsonValue): boolean {
  switch (field.kind) {
    case "text":
      return typeof value === "string";
    case "number":
      return typeof value === "number";
    case "integer":
      return Number.isInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "choice":
      return field.options.includes(value);
  }
}

/** Why the form cannot show `args` (a value its field cannot hold), or null when it can. */
export function argumentsUnfit(fields: readonly ArgumentField[], args: JsonObject): string | null {
  for (const field of fields) {
    const value = own(args, field.name);
    if (value !== undefined && !fits(field, value)) return `"${field.name}" holds ${JSON.stringify(value)}`;
  }
  return null;
}

/** The arguments no field shows (kept as they are by every field's edit). */
export function otherArguments(fields: readonly ArgumentField[], args: JsonObject): string[] {
  return Object.keys(args).filter((name) => !fields.some((field) => field.name === name));
}

/** A choice's value as a select's option value (its JSON, so `1` and `"1"` stay apart). */
export function optionValue(option: JsonValue): string {
  return JSON.stringify(option);
}

/**
 * What a field shows of the arguments: the text of a text or number, the option value of a choice,
 * "true" or "false" of a flag; empty when the argument is not set.
 */
export function fieldText(field: ArgumentField, args: JsonObject): string {
  const value = own(args, field.name);
  if (value === undefined) return field.kind === "boolean" ? "false" : "";
  if (field.kind === "choice") return optionValue(value);
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** The value a field's text makes; undefined to leave the argument out (emptied, not required). */
function valueOf(field: ArgumentField, text: string): { value: JsonValue | undefined } | { problem: string } {
  const trimmed = text.trim();
  switch (field.kind) {
    case "text":
      return { value: text === "" && !field.required ? undefined : text };
    case "boolean":
      return { value: text === "true" ? true : field.required ? false : undefined };
    case "choice": {
      if (text === "") return field.required ? { problem: "choose one" } : { value: undefined };
      const picked = field.options.find((option) => optionValue(option) === text);
      return picked === undefined ? { problem: "not one of the choices" } : { value: picked };
    }
    case "number":
    case "integer": {
      const whole = field.kind === "integer";
      const expected = whole ? "a whole number" : "a number";
      if (trimmed === "") return field.required ? { problem: `${expected} is required` } : { value: undefined };
      const value = Number(trimmed);
      if (!Number.isFinite(value) || (whole && !Number.isInteger(value))) return { problem: `expected ${expected}` };
      return { value };
    }
  }
}

/**
 * The arguments with `field` set from its text: an emptied field leaves its argument out unless it
 * is required; every other argument, those the schema does not name included, is kept in its place.
 */
export function withFieldText(args: JsonObject, field: ArgumentField, text: string): ArgumentsOrProblem {
  const made = valueOf(field, text);
  if ("problem" in made) return made;
  if (made.value !== undefined) return { args: { ...args, [field.name]: made.value } };
  return { args: Object.fromEntries(Object.entries(args).filter(([name]) => name !== field.name)) };
}
