// Which summarized sections the preview shows as read: the person editing marks sections to see
// what a `read_section` of them would reveal; marks that no longer name a summarized section (it
// was renamed, moved, deleted or made FULL) drop out.
import type { TreeRow } from "./tree";

/** The summarized sections of the tree, in tree order: what the preview can show as read. */
export function readableRows(rows: readonly TreeRow[]): TreeRow[] {
  return rows.filter((row) => row.visibility === "summary");
}

/** The sections of `read` that are still summarized sections of the tree, in tree order. */
export function readPaths(read: readonly string[], rows: readonly TreeRow[]): string[] {
  if (read.length === 0) return [];
  const wanted = new Set(read);
  return readableRows(rows)
    .filter((row) => wanted.has(row.path))
    .map((row) => row.path);
}
