// The template-wide edits the Template panel sends, built from the document as it stands: its header
// and settings (key, name, ns, disclosure, heading, tool disclosure) and its parameters' defaults
// (set, add under a free name, remove). Text typed into one field or one parameter is grouped so it
// undoes as one step. Each builder returns null when there is nothing to change.
import type { Template, TemplateSettings } from "../platform";
import type { EditRequest } from "./edits";

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

/** Adds a parameter with an empty default under a free name (a step of its own). */
export function addParamEdit(template: Template): EditRequest {
  return { edit: { op: "set_param", name: freeParamName(template.params), value: "" }, group: null };
}

/** Removes a parameter (a step of its own); null when there is none of that name. */
export function removeParamEdit(template: Template, name: string): EditRequest | null {
  if (!has(template.params, name)) return null;
  return { edit: { op: "set_param", name, value: null }, group: null };
}
