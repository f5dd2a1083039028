// Following the backend's answers without asking for everything again: the template after an edit
// (a keystroke sends one section's fields, not the whole template), the tree's rows after it, and
// the preview after a refresh (the prompt's parts, of which a keystroke changes one). Untouched
// sections, rows and parts stay the very same objects, so React skips them.
import type {
  DocumentUpdate,
  DocumentView,
  JsonValue,
  PartsChange,
  PreviewUpdate,
  Section,
  Template,
  TemplateChange,
} from "../platform";
import { treeRows, type TreeRow } from "./tree";

/** The document after `update`, from the one held before it. */
export function followDocument(document: DocumentView, update: DocumentUpdate): DocumentView {
  const { change, ...status } = update;
  return { ...status, template: followTemplate(document.template, change) };
}

/** The template after `change`, from the one held before it. */
export function followTemplate(template: Template, change: TemplateChange): Template {
  switch (change.kind) {
    case "whole":
      return change.template;
    case "unchanged":
      return template;
    case "section_fields": {
      const { summary, ...fields } = change.fields;
      const sections = withSection(template.sections, change.path.split("."), (section) => {
        const changed: Section = { ...section, ...fields, summary: summary ?? undefined };
        // The backend sends `null` for no summary; a template it sends has no key then.
        if (summary === null) delete changed.summary;
        return changed;
      });
      return sections === template.sections ? template : { ...template, sections };
    }
  }
}

/** `sections` with the section at `keys` replaced by `replace(it)`; the same array when it is not there. */
function withSection(sections: Section[], keys: string[], replace: (section: Section) => Section): Section[] {
  const [key, ...rest] = keys;
  const index = sections.findIndex((section) => section.key === key);
  const found = sections[index];
  if (found === undefined) return sections;
  let changed: Section;
  if (rest.length === 0) changed = replace(found);
  else {
    const children = withSection(found.children, rest, replace);
    if (children === found.children) return sections;
    changed = { ...found, children };
  }
  const copy = [...sections];
  copy[index] = changed;
  return copy;
}

/** The tree's rows after `change` made `template` of the template they were made from. */
export function followRows(rows: TreeRow[], template: Template, change: TemplateChange): TreeRow[] {
  switch (change.kind) {
    case "whole":
      return treeRows(template);
    case "unchanged":
      return rows;
    case "section_fields": {
      const { path, fields } = change;
      const index = rows.findIndex((row) => row.path === path);
      const row = rows[index];
      if (row === undefined) return treeRows(template);
      if (row.title === fields.title && row.visibility === fields.visibility) return rows;
      const copy = [...rows];
      copy[index] = { ...row, title: fields.title, visibility: fields.visibility };
      return copy;
    }
  }
}

/** The preview the editor holds: its serial (the base of the next request) and the prompt in parts. */
export interface ShownPreview {
  serial: number;
  /** The prompt cut before each heading line; joined, the prompt exactly. */
  parts: string[];
  /** The offered tools as OpenAI chat tool objects. */
  tools: JsonValue[];
  prompt_tokens: number;
  /** Of `prompt_tokens`, those of the tool definitions. */
  tool_tokens: number;
}

/**
 * The preview after `update`, from the one held (`null`: none); `null` when the update is a change
 * from a preview that is not the one held (then ask again without a base). Tools the update leaves
 * out are the held preview's: the very same list, so what shows them is not drawn again.
 */
export function followPreview(held: ShownPreview | null, update: PreviewUpdate): ShownPreview | null {
  const parts = followParts(held, update.prompt);
  if (parts === null) return null;
  const tools = update.tools ?? (update.prompt.base === null ? null : held?.tools);
  if (tools === undefined || tools === null) return null;
  return { serial: update.serial, parts, tools, prompt_tokens: update.prompt_tokens, tool_tokens: update.tool_tokens };
}

function followParts(held: ShownPreview | null, change: PartsChange): string[] | null {
  if (change.base === null) return change.parts;
  if (held === null || held.serial !== change.base) return null;
  const { parts } = held;
  if (change.keep_start + change.keep_end > parts.length) return null;
  return [...parts.slice(0, change.keep_start), ...change.parts, ...parts.slice(parts.length - change.keep_end)];
}
