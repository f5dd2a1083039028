// Finding sections in the tree: a query matched, case-insensitively, against each section's key,
// title, body and summary; the rows a filtered tree shows (the matching sections and their
// ancestors, so that the hierarchy stays readable), the first match (where "go to section" goes),
// the part of a title or key to mark, and the count shown above the tree.
import type { Section, Template } from "../platform";
import { childPath } from "../shared/template";
import type { TreeRow } from "./tree";

/** The tree as a query filters it. */
export interface FilteredTree {
  /** What is looked for: the query trimmed, in lower case; never empty. */
  needle: string;
  /** The rows shown: each matching section and its ancestors, in tree order. */
  rows: TreeRow[];
  /** The paths of the matching sections (the other rows shown are their ancestors). */
  matches: ReadonlySet<string>;
}

/**
 * Each section's searchable text in lower case, made once per section: a section is never changed
 * in place (changes.ts replaces the sections an edit changed), so a keystroke in the filter field
 * lower-cases nothing, and one in a section's body only that section.
 */
const searchable = new WeakMap<Section, string>();

function searchableText(section: Section): string {
  let text = searchable.get(section);
  if (text === undefined) {
    // Joined by a line break, which the filter field cannot hold: no match spans two fields.
    text = [section.key, section.title, section.template, section.summary ?? ""].join("\n").toLowerCase();
    searchable.set(section, text);
  }
  return text;
}

/** What `query` looks for: trimmed, in lower case ("": nothing, no filter). */
export function needleOf(query: string): string {
  return query.trim().toLowerCase();
}

/**
 * The rows of `template` (`rows`, its tree rows) that `query` leaves shown; null when the query is
 * blank and the whole tree shows.
 */
export function filterTree(template: Template, rows: readonly TreeRow[], query: string): FilteredTree | null {
  const needle = needleOf(query);
  if (needle === "") return null;
  const matches = new Set<string>();
  const shown = new Set<string>();
  // True when a section of `sections` or below them matches.
  const visit = (sections: Section[], parent: string | null): boolean => {
    let found = false;
    for (const section of sections) {
      const path = childPath(parent, section.key);
      const matched = searchableText(section).includes(needle);
      if (matched) matches.add(path);
      if (visit(section.children, path) || matched) {
        shown.add(path);
        found = true;
      }
    }
    return found;
  };
  visit(template.sections, null);
  return { needle, rows: rows.filter((row) => shown.has(row.path)), matches };
}

/** The first matching row of `filtered`, in tree order; null when nothing matches. */
export function firstMatch(filtered: FilteredTree): string | null {
  return filtered.rows.find((row) => filtered.matches.has(row.path))?.path ?? null;
}

/** A text cut around the first place `needle` occurs in it, to mark that place. */
export interface MarkedText {
  before: string;
  marked: string;
  after: string;
}

/**
 * `text` cut around the first occurrence of `needle` (lower case), ignoring case; null when it does
 * not occur, or when lower-casing changes the text's length (`İ`), so the place found in lower case
 * is not the same place in `text`.
 */
export function markMatch(text: string, needle: string): MarkedText | null {
  if (needle === "") return null;
  const lower = text.toLowerCase();
  if (lower.length !== text.length) return null;
  const start = lower.indexOf(needle);
  if (start < 0) return null;
  const end = start + needle.length;
  return { before: text.slice(0, start), marked: text.slice(start, end), after: text.slice(end) };
}

/** "12 of 2,000 sections": how many sections match, of how many. */
export function matchCountText(matches: number, total: number): string {
  return `${matches.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} ${total === 1 ? "section" : "sections"}`;
}
