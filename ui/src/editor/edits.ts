// The template edits the editor sends, built from the document as it stands: visibility toggles,
// text field changes (grouped per field so a run of keystrokes undoes as one step) and renames
// (only to a key the core takes: the key check, in words, is what the key field shows as typed).
// Each builder returns null when there is nothing to change. Also the path arithmetic that keeps
// paths right after a rename or a move.
import type { Section, SectionFields, Template, TemplateEdit, Visibility } from "../platform";
import { childPath, keyOf, parentPath, sectionAt, type EditRequest } from "../shared/template";

/** A section's text field the editor changes as the user types. */
export type TextField = "title" | "template" | "summary";

/** The fields of a section as they stand, as `set_section_fields` takes them. */
export function fieldsOf(section: Section): SectionFields {
  return {
    title: section.title,
    template: section.template,
    summary: section.summary ?? null,
    visibility: section.visibility,
  };
}

/**
 * Fields with `visibility`. A summarized section needs a summary: one without gets "" so the edit
 * is accepted and the user can write it next.
 */
function withVisibility(fields: SectionFields, visibility: Visibility): SectionFields {
  const summary = visibility === "summary" ? (fields.summary ?? "") : (fields.summary ?? null);
  return { ...fields, summary, visibility };
}

function setFields(path: string, fields: SectionFields, group: string | null): EditRequest {
  return { edit: { op: "set_section_fields", path, fields }, group };
}

/** Sets a section's visibility (a step of its own); null when it has it already or is gone. */
export function setVisibilityEdit(template: Template, path: string, visibility: Visibility): EditRequest | null {
  const section = sectionAt(template, path);
  if (section === undefined || section.visibility === visibility) return null;
  return setFields(path, withVisibility(fieldsOf(section), visibility), null);
}

/** Switches a section between FULL and SUMMARY. */
export function toggleVisibilityEdit(template: Template, path: string): EditRequest | null {
  const section = sectionAt(template, path);
  if (section === undefined) return null;
  return setVisibilityEdit(template, path, section.visibility === "full" ? "summary" : "full");
}

/** The undo group of one field of one section: keystrokes in it undo together. */
export function fieldGroup(path: string, field: TextField): string {
  return `${path}/${field}`;
}

/**
 * Sets one text field. An emptied summary of a FULL section is removed (`null`); a summarized
 * section keeps "" since it needs one.
 */
export function setFieldEdit(template: Template, path: string, field: TextField, value: string): EditRequest | null {
  const section = sectionAt(template, path);
  if (section === undefined) return null;
  const fields = fieldsOf(section);
  let next: SectionFields;
  switch (field) {
    case "title":
      next = { ...fields, title: value };
      break;
    case "template":
      next = { ...fields, template: value };
      break;
    case "summary":
      next = { ...fields, summary: value === "" && fields.visibility === "full" ? null : value };
      break;
  }
  if (next[field] === fields[field]) return null;
  return setFields(path, next, fieldGroup(path, field));
}

/** How a section key is written, in words. */
const KEY_RULE = "lowercase letters, digits, _ and -, starting with a letter or a digit";

/**
 * What is wrong with `key` (surrounding spaces dropped, as a rename drops them) as the key of a
 * section among siblings with `siblingKeys` (not its own); null when the core takes it. The core's
 * rule (`check_key` in unfold-editing, the schema's `^[a-z0-9][a-z0-9_-]*$`): lowercase ASCII
 * letters, digits, `_` and `-`, starting with a letter or a digit, unique among siblings. The first
 * thing wrong is named, in words.
 */
export function sectionKeyProblem(key: string, siblingKeys: readonly string[]): string | null {
  const trimmed = key.trim();
  if (trimmed === "") return `A section needs a key: ${KEY_RULE}`;
  for (const char of trimmed) {
    if (/^[a-z0-9_-]$/.test(char)) continue;
    if (/^[A-Z]$/.test(char)) return `A key is lowercase: write '${char.toLowerCase()}' for '${char}'`;
    if (/^\s$/.test(char)) return "A key has no spaces: join words with - or _";
    if (char === ".") return "A key has no dots: a dot separates the keys of a section's path";
    return `A key has only lowercase letters, digits, _ and -, not '${char}'`;
  }
  const first = trimmed.charAt(0);
  if (first === "_" || first === "-") return `A key starts with a lowercase letter or a digit, not '${first}'`;
  if (siblingKeys.includes(trimmed)) return `Another section at this level already has the key '${trimmed}'`;
  return null;
}

/** The keys of the sections beside the one at `path` (under the same parent), without its own. */
export function siblingKeys(template: Template, path: string): string[] {
  const parent = parentPath(path);
  const siblings = parent === null ? template.sections : (sectionAt(template, parent)?.children ?? []);
  const own = keyOf(path);
  return siblings.map((section) => section.key).filter((key) => key !== own);
}

/**
 * Renames a section's key (surrounding spaces dropped); null when the key is unchanged or one the
 * core would refuse (`sectionKeyProblem` says why): an invalid key is never sent.
 */
export function renameEdit(template: Template, path: string, key: string): EditRequest | null {
  const section = sectionAt(template, path);
  const trimmed = key.trim();
  if (section === undefined || trimmed === section.key) return null;
  if (sectionKeyProblem(trimmed, siblingKeys(template, path)) !== null) return null;
  return { edit: { op: "rename_section", path, key: trimmed }, group: null };
}

/** The path of the section at `path` once renamed to `key`. */
export function renamedPath(path: string, key: string): string {
  return childPath(parentPath(path), key);
}

/** A section's path before and after an edit. */
export interface PathChange {
  from: string;
  to: string;
}

/** The path an edit gives the section it renames or moves (with its subsections); null for others. */
export function pathChange(edit: TemplateEdit): PathChange | null {
  switch (edit.op) {
    case "rename_section":
      return { from: edit.path, to: renamedPath(edit.path, edit.key) };
    case "move_section":
      return { from: edit.path, to: childPath(edit.parent ?? null, keyOf(edit.path)) };
    default:
      return null;
  }
}

/** `path` after the section at `from` became `to` (its subsections move with it). */
export function rebasePath(path: string, from: string, to: string): string {
  if (path === from) return to;
  if (path.startsWith(`${from}.`)) return `${to}${path.slice(from.length)}`;
  return path;
}
