// Where a section dragged in the tree would land: the row under the pointer and the part of it the
// pointer is in (top: before it, middle: inside it as its last subsection, bottom: after it), whether
// that drop is possible, and the one MoveSection edit it makes. A drop into the dragged section
// itself or its own subsections is impossible, and so is one that would leave it where it is (no
// edit, nothing to undo); a sibling with the same key and the depth limit are the backend's to refuse,
// which then says why.
import type { Template } from "../platform";
import { moveRequest, placeOf, type StructureRequest } from "./structure";
import { type TreeRow } from "./tree";
import { sectionAt } from "../shared/template";

/** Where, relative to the row under the pointer, the dragged section would go. */
export type DropPosition = "before" | "inside" | "after";

/** A drop: the section whose row is under the pointer, and where relative to it. */
export interface DropTarget {
  path: string;
  position: DropPosition;
}

/** The position the pointer picks `offset` pixels below the top of a row `rowHeight` high: by thirds. */
export function dropPosition(offset: number, rowHeight: number): DropPosition {
  if (offset < rowHeight / 3) return "before";
  if (offset >= (rowHeight * 2) / 3) return "after";
  return "inside";
}

/** Whether `path` is `ancestor` or one of its subsections. */
function isWithin(path: string, ancestor: string): boolean {
  return path === ancestor || path.startsWith(`${ancestor}.`);
}

/**
 * The edit dropping the section at `dragged` on `target` makes, and what to select afterwards (the
 * moved section); null when the drop is impossible or would change nothing.
 */
export function dropRequest(template: Template, dragged: string, target: DropTarget): StructureRequest | null {
  if (isWithin(target.path, dragged)) return null;
  const from = placeOf(template, dragged);
  if (from === undefined) return null;
  let parent: string | null;
  let index: number;
  if (target.position === "inside") {
    const section = sectionAt(template, target.path);
    if (section === undefined) return null;
    parent = target.path;
    index = section.children.length;
  } else {
    const place = placeOf(template, target.path);
    if (place === undefined) return null;
    parent = place.parent;
    index = place.index + (target.position === "after" ? 1 : 0);
  }
  if (parent === from.parent) {
    // The backend counts the index once the section left its place: the ones after it move up.
    if (from.index < index) index -= 1;
    if (index === from.index) return null;
  }
  return moveRequest(dragged, parent, index);
}

/**
 * The drop the pointer offers `y` pixels below the top of the first row (rows `rowHeight` high),
 * while the section at `dragged` is being dragged; null when no row is there or that drop is not
 * possible (no drop indicator then).
 */
export function dropTargetAt(
  template: Template,
  rows: readonly TreeRow[],
  dragged: string,
  y: number,
  rowHeight: number,
): DropTarget | null {
  if (y < 0) return null;
  const index = Math.floor(y / rowHeight);
  const row = rows[index];
  if (row === undefined) return null;
  const target: DropTarget = { path: row.path, position: dropPosition(y - index * rowHeight, rowHeight) };
  return dropRequest(template, dragged, target) === null ? null : target;
}
