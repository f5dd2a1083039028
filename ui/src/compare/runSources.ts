// Which of the open template's tool sources to ask about before a comparison runs, without React:
// the ones the user has not allowed for the template's file as they are defined now ("not_allowed",
// or "changed" since allowed), unless the user already chose to run this very definition with its
// snapshot this session. An unsaved template's sources are not asked about (its answers would have
// no file to be kept for): its runs use their snapshots, as the run's markers say. A definition is
// told apart by its name and what it starts (the backend's `starts`: the command line with its folder
// and environment's names, the URL, or the relay plugin), so a changed one asks again.
import type { SourceView } from "../platform";

/** The definitions run with their snapshots this session, by `declinedKey`. */
export type Declined = ReadonlySet<string>;

/** What identifies the definition of `view`'s source in the file `path`. */
export function declinedKey(path: string, view: Pick<SourceView, "name" | "starts">): string {
  return JSON.stringify([path, view.name, view.starts]);
}

/**
 * The sources of the template saved at `path` (null: not saved) to ask about before a run: not
 * allowed, or changed since allowed, and not run with their snapshots this session as defined now.
 */
export function sourcesToAsk<View extends Pick<SourceView, "name" | "starts" | "permission">>(
  views: readonly View[],
  path: string | null,
  declined: Declined,
): View[] {
  if (path === null) return [];
  return views.filter(
    (view) =>
      (view.permission === "not_allowed" || view.permission === "changed") && !declined.has(declinedKey(path, view)),
  );
}

/** `declined` with the definitions of `views` in the file `path` run with their snapshots. */
export function withDeclined(
  declined: Declined,
  path: string,
  views: readonly Pick<SourceView, "name" | "starts">[],
): Declined {
  return new Set([...declined, ...views.map((view) => declinedKey(path, view))]);
}
