// The section tree as the editor lists it: one row per section in document order (dotted path, key,
// title, depth, place among its siblings, visibility badge, tool count), which row stays selected
// when the tree changes, and the row above or below the selected one. (A section by its path, and
// path arithmetic, are shared/template.ts.)
import type { Section, Template, Visibility } from "../platform";
import { childPath } from "../shared/template";

/** One row of the section tree. */
export interface TreeRow {
  /** Dotted path of keys from the top level, e.g. `context.examples`. */
  path: string;
  key: string;
  title: string;
  /** 0 for a top-level section. */
  depth: number;
  /** Its position among its siblings, from 0. */
  index: number;
  /** How many siblings it has, itself included. */
  siblingCount: number;
  visibility: Visibility;
  /** The section's own tools (not its children's). */
  toolCount: number;
}

/** Every section of `template`, parents before their children, siblings in order. */
export function treeRows(template: Template): TreeRow[] {
  const rows: TreeRow[] = [];
  const visit = (sections: Section[], parent: string | null, depth: number) => {
    for (const [index, section] of sections.entries()) {
      const path = childPath(parent, section.key);
      rows.push({
        path,
        key: section.key,
        title: section.title,
        depth,
        index,
        siblingCount: sections.length,
        visibility: section.visibility,
        toolCount: section.tools.length,
      });
      visit(section.children, path, depth + 1);
    }
  };
  visit(template.sections, null, 0);
  return rows;
}

/**
 * The row `step` rows below (1) or above (-1) the selected one; the first row when none is
 * selected; null at either end or in an empty tree.
 */
export function adjacentRow(rows: TreeRow[], selected: string | null, step: 1 | -1): string | null {
  const index = rows.findIndex((row) => row.path === selected);
  if (index < 0) return rows[0]?.path ?? null;
  return rows[index + step]?.path ?? null;
}

/**
 * Which path to select after the tree changed from `before` to `after`: the same path while it
 * exists, else the row now at the selected row's place (an undone rename), else the first row.
 */
export function reselect(before: TreeRow[], after: TreeRow[], selected: string | null): string | null {
  if (selected !== null && after.some((row) => row.path === selected)) return selected;
  const index = before.findIndex((row) => row.path === selected);
  const row = index >= 0 ? (after[Math.min(index, after.length - 1)] ?? null) : null;
  return row?.path ?? after[0]?.path ?? null;
}

/** "FULL" or "SUMMARY": the badge a row shows. */
export function visibilityBadge(visibility: Visibility): string {
  return visibility === "full" ? "FULL" : "SUMMARY";
}

/** "1 tool", "3 tools", or "" for none. */
export function toolCountLabel(count: number): string {
  if (count === 0) return "";
  return `${String(count)} ${count === 1 ? "tool" : "tools"}`;
}
