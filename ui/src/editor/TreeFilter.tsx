// The filter field above the section tree: typing filters the tree to the sections that match and
// their ancestors (treeFilter.ts), with how many match of how many; Enter goes to the first match
// (selects it, focus in the tree: "go to section"), Escape clears the filter.
import { matchCountText } from "./treeFilter";
import "./find.css";

export function TreeFilter({
  query,
  matches,
  total,
  onQuery,
  onGo,
}: {
  query: string;
  /** How many sections match (null: no filter). */
  matches: number | null;
  /** How many sections the template has. */
  total: number;
  onQuery: (query: string) => void;
  /** Enter was pressed: go to the first match. */
  onGo: () => void;
}) {
  return (
    <div className="tree-filter" role="search">
      <input
        type="search"
        data-testid="tree-filter"
        aria-label="Filter sections"
        placeholder="Filter by key, title or text"
        title="Filter the sections by key, title or text; Enter goes to the first match, Escape clears"
        value={query}
        onChange={(event) => {
          onQuery(event.target.value);
        }}
        onKeyDown={(event) => {
          if (event.key === "Enter") {
            event.preventDefault();
            onGo();
          } else if (event.key === "Escape" && query !== "") {
            // Only the filter's: nothing else behind it closes.
            event.preventDefault();
            event.stopPropagation();
            onQuery("");
          }
        }}
      />
      {matches !== null && (
        <p className="tree-filter-count" data-testid="tree-filter-count" aria-live="polite">
          {matchCountText(matches, total)}
        </p>
      )}
    </div>
  );
}
