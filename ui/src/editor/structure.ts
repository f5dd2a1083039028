// Structural edits of the section tree, built from the document as it stands: add a child or a
// sibling, delete, move up or down, indent and outdent the selected section (and the move a drop in
// the tree makes, see dropTarget.ts), each with the section to select once the backend applied it.
// An action that is impossible where the section stands builds nothing (null), which is also how
// the toolbar knows to disable it; what only the backend checks (a sibling with the same key, the
// depth limit) is left to it to refuse.
import type { Section, Template } from "../platform";
import { childPath, type EditRequest, keyOf, parentPath, sectionAt } from "../shared/template";

export type StructureAction = "add_child" | "add_sibling" | "delete" | "move_up" | "move_down" | "indent" | "outdent";

/** A structural edit and what to select once it is applied. */
export interface StructureRequest extends EditRequest {
  /** The section to select afterwards (null: none is left to select). */
  select: string | null;
  /** True when `select` is a new section, whose key is ready to rename. */
  added: boolean;
}

/** The title of a new section. */
export const NEW_SECTION_TITLE = "New section";

/** `section`, else `section-2`, `section-3`, …: the first key none of `siblings` has. */
export function freeKey(siblings: readonly { key: string }[]): string {
  const taken = new Set(siblings.map((section) => section.key));
  if (!taken.has("section")) return "section";
  for (let n = 2; ; n++) {
    const key = `section-${String(n)}`;
    if (!taken.has(key)) return key;
  }
}

/** A new, empty section shown in full, with the key `key`. */
export function newSection(key: string): Section {
  return { key, title: NEW_SECTION_TITLE, template: "", visibility: "full", tools: [], children: [] };
}

/** Where a section stands: its parent's path (`null`: top level), its siblings and its index. */
export interface Place {
  parent: string | null;
  siblings: Section[];
  index: number;
}

/** Where the section at `path` stands, if there is one. */
export function placeOf(template: Template, path: string): Place | undefined {
  const parent = parentPath(path);
  const siblings = parent === null ? template.sections : sectionAt(template, parent)?.children;
  const key = keyOf(path);
  const index = siblings?.findIndex((section) => section.key === key) ?? -1;
  if (siblings === undefined || index < 0) return undefined;
  return { parent, siblings, index };
}

function insert(parent: string | null, index: number, siblings: readonly Section[]): StructureRequest {
  const key = freeKey(siblings);
  return {
    edit: { op: "insert_section", parent, index, section: newSection(key) },
    group: null,
    select: childPath(parent, key),
    added: true,
  };
}

/**
 * Moves the section at `path` under `parent` (`null`: top level) at `index`, counted among the new
 * siblings once it left its old place (as the backend counts it); it stays selected there.
 */
export function moveRequest(path: string, parent: string | null, index: number): StructureRequest {
  return {
    edit: { op: "move_section", path, parent, index },
    group: null,
    select: childPath(parent, keyOf(path)),
    added: false,
  };
}

/**
 * The edit `action` makes on the section at `selected`, or null when it is impossible there. With
 * nothing selected (an empty template) only "add_sibling" is possible: it adds a top-level section.
 */
export function structureRequest(
  template: Template,
  selected: string | null,
  action: StructureAction,
): StructureRequest | null {
  if (selected === null) {
    return action === "add_sibling" ? insert(null, template.sections.length, template.sections) : null;
  }
  const place = placeOf(template, selected);
  const section = place?.siblings[place.index];
  if (place === undefined || section === undefined) return null;
  const { parent, siblings, index } = place;
  switch (action) {
    case "add_child":
      return insert(selected, section.children.length, section.children);
    case "add_sibling":
      return insert(parent, index + 1, siblings);
    case "delete": {
      const neighbour = siblings[index + 1] ?? siblings[index - 1];
      return {
        edit: { op: "remove_section", path: selected },
        group: null,
        select: neighbour === undefined ? parent : childPath(parent, neighbour.key),
        added: false,
      };
    }
    case "move_up":
      return index > 0 ? moveRequest(selected, parent, index - 1) : null;
    case "move_down":
      return index < siblings.length - 1 ? moveRequest(selected, parent, index + 1) : null;
    case "indent": {
      const previous = siblings[index - 1];
      if (previous === undefined) return null;
      return moveRequest(selected, childPath(parent, previous.key), previous.children.length);
    }
    case "outdent": {
      if (parent === null) return null;
      const parentPlace = placeOf(template, parent);
      if (parentPlace === undefined) return null;
      return moveRequest(selected, parentPlace.parent, parentPlace.index + 1);
    }
  }
}

/** Whether `action` is possible on the section at `selected` (for enabling its button). */
export function canRestructure(template: Template, selected: string | null, action: StructureAction): boolean {
  return structureRequest(template, selected, action) !== null;
}
