// What every feature knows of a template beyond its types: a section by its dotted path and the
// arithmetic of those paths, an edit sent with its undo group, and the kinds a tool can be.
import type { Section, Template, TemplateEdit, ToolKind } from "../platform";

/** An edit and its undo group (`null`: a step of its own). */
export interface EditRequest {
  edit: TemplateEdit;
  group: string | null;
}

/** The kinds a tool can be, in the order they are offered. */
export const TOOL_KINDS: readonly ToolKind[] = ["read", "edit", "execute", "other"];

/** The section at a dotted path, if there is one. */
export function sectionAt(template: Template, path: string): Section | undefined {
  let siblings = template.sections;
  let found: Section | undefined;
  for (const key of path.split(".")) {
    found = siblings.find((section) => section.key === key);
    if (found === undefined) return undefined;
    siblings = found.children;
  }
  return found;
}

/** The path of the section `key` under `parent` (`null`: the top level). */
export function childPath(parent: string | null, key: string): string {
  return parent === null ? key : `${parent}.${key}`;
}

/** The path of a section's parent, or null for a top-level section. */
export function parentPath(path: string): string | null {
  const dot = path.lastIndexOf(".");
  return dot < 0 ? null : path.slice(0, dot);
}

/** The last key of a dotted path: the section's own key. */
export function keyOf(path: string): string {
  return path.slice(path.lastIndexOf(".") + 1);
}
