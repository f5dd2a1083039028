// The template-wide edits the Template panel sends, built from the document as it stands: its header
// and settings (key, name, ns, disclosure, heading, tool disclosure) and its parameters (set a
// default, add under a free name, define one a section uses, rename, remove), with the check of a
// parameter's name as it is typed (the core's rule, in words). Text typed into one field or one
// parameter is grouped so it undoes as one step. Each builder returns null when there is nothing to
// change.
import type { Template, TemplateSettings } from "../platform";
import { isParamName } from "./placeholders";
import type { EditRequest } from "../shared/template";

/** The settings a template has now, as `set_settings` takes them. */
export function settingsOf(template: Template): TemplateSettings {
  const { ns, key, name, disclosure, tool_disclosure, heading } = template;
  return { ns, key, name, disclosure, tool_disclosure, heading };
}

/** A settings field typed into (the others are picked from a list: a step each). */
export type SettingsTextField = "key" | "name" | "ns";

const TEXT_FIELDS: readonly (keyof TemplateSettings)[] = ["key", "name", "ns"];

/** The undo group of one settings field: keystrokes in a text field undo together. */
export function settingsGroup(field: keyof TemplateSettings): string | null {
  return TEXT_FIELDS.includes(field) ? `settings/${field}` : null;
}

/** Changes one setting; null when it has that value already. */
export function setSettingsEdit<F extends keyof TemplateSettings>(
  template: Template,
  field: F,
  value: TemplateSettings[F],
): EditRequest | null {
  const settings = settingsOf(template);
  if (settings[field] === value) return null;
  return { edit: { op: "set_settings", settings: { ...settings, [field]: value } }, group: settingsGroup(field) };
}

/** The undo group of one parameter's value. */
export function paramGroup(name: string): string {
  return `param/${name}`;
}

/** Sets a parameter's default (grouped per parameter); null when it has that value already. */
export function setParamEdit(template: Template, name: string, value: string): EditRequest | null {
  if (has(template.params, name) && template.params[name] === value) return null;
  return { edit: { op: "set_param", name, value }, group: paramGroup(name) };
}

/** Whether `params` has its own entry `name` (not one inherited, like `constructor`). */
function has(params: Readonly<Record<string, string>>, name: string): boolean {
  return Object.prototype.hasOwnProperty.call(params, name);
}

/** `param`, else `param_2`, `param_3`, …: the first name the template's parameters do not have. */
export function freeParamName(params: Readonly<Record<string, string>>): string {
  if (!has(params, "param")) return "param";
  for (let n = 2; ; n++) {
    const name = `param_${String(n)}`;
    if (!has(params, name)) return name;
  }
}

/** Adds parameter `name` with an empty default, last (a step of its own). */
function newParam(name: string): EditRequest {
  return { edit: { op: "set_param", name, value: "" }, group: null };
}

/** Adds a parameter with an empty default under a free name (a step of its own). */
export function addParamEdit(template: Template): EditRequest {
  return newParam(freeParamName(template.params));
}

/**
 * Defines a parameter a section's text uses: `name` with an empty default, last (a step of its own).
 * Null when the template has it already or it is not a parameter name.
 */
export function defineParamEdit(template: Template, name: string): EditRequest | null {
  if (has(template.params, name) || !isParamName(name)) return null;
  return newParam(name);
}

/** Removes a parameter (a step of its own); null when there is none of that name. */
export function removeParamEdit(template: Template, name: string): EditRequest | null {
  if (!has(template.params, name)) return null;
  return { edit: { op: "set_param", name, value: null }, group: null };
}

/** How a parameter's name is written, in words (the core's words: "letters, digits and _"). */
const PARAM_NAME_RULE = "letters, digits and _, not starting with a digit";

/**
 * What is wrong with `name` (surrounding spaces dropped, as a rename drops them) as the name of a
 * parameter beside `otherNames` (the template's other parameters); null when the core takes it. The
 * core's rule (`is_param_name`, Python's `string.Template` identifiers): ASCII letters, digits and
 * `_`, not starting with a digit; and two parameters never share a name. The first thing wrong is
 * named, in words.
 */
export function paramNameProblem(name: string, otherNames: readonly string[]): string | null {
  const trimmed = name.trim();
  if (trimmed === "") return `A parameter needs a name: ${PARAM_NAME_RULE}`;
  // The placeholder typed whole, as the section's text has it: say what to keep.
  const inner = /^\$\{(.*)\}$|^\$(.*)$/.exec(trimmed);
  const bare = inner?.[1] ?? inner?.[2];
  if (bare !== undefined && isParamName(bare)) {
    return `A name is written without $ or braces: write '${bare}' for '${trimmed}'`;
  }
  for (const char of trimmed) {
    if (/^[A-Za-z0-9_]$/.test(char)) continue;
    if (/^\s$/.test(char)) return "A name has no spaces: join words with _";
    if (char === "-") return "A name has no -: join words with _";
    if (/^\p{L}$/u.test(char)) return `A name has only the letters a to z and A to Z, digits and _, not '${char}'`;
    return `A name has only letters, digits and _, not '${char}'`;
  }
  const first = trimmed.charAt(0);
  if (/^[0-9]$/.test(first)) return `A name starts with a letter or _, not '${first}'`;
  if (otherNames.includes(trimmed)) return `Another parameter already has the name '${trimmed}'`;
  return null;
}

/** The undo group of one rename of a parameter: its edits undo as one step. */
export function paramRenameGroup(from: string, to: string): string {
  return `param-name/${from}/${to}`;
}

/**
 * Renames parameter `from` to `to` (surrounding spaces dropped), keeping its default and its place.
 * The core has no rename of a parameter, so it is two `set_param` edits in one undo group: `to` with
 * the default, at `from`'s index, then `from` with no value (removed); `to` is never missing between
 * them. Null when the name is unchanged, there is no `from`, or the core would refuse `to`
 * (`paramNameProblem` says why): an invalid name is never sent.
 */
export function renameParamEdits(template: Template, from: string, to: string): EditRequest[] | null {
  const trimmed = to.trim();
  const value = has(template.params, from) ? template.params[from] : undefined;
  if (value === undefined || trimmed === from) return null;
  const others = Object.keys(template.params).filter((name) => name !== from);
  if (paramNameProblem(trimmed, others) !== null) return null;
  const index = Object.keys(template.params).indexOf(from);
  const group = paramRenameGroup(from, trimmed);
  return [
    { edit: { op: "set_param", name: trimmed, value, index }, group },
    { edit: { op: "set_param", name: from, value: null }, group },
  ];
}

/** A parameter's name before and after a rename. */
export interface ParamRename {
  from: string;
  to: string;
}

/** What parameter `name` is called after `renames`, in order. */
export function followParamRenames(name: string, renames: readonly ParamRename[]): string {
  return renames.reduce((current, { from, to }) => (current === from ? to : current), name);
}
