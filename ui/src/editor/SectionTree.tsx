// The section tree: a row per section (indented by depth) that selects it, with its FULL/SUMMARY
// toggle and its tool count.
import { toolCountLabel, visibilityBadge, type TreeRow } from "./tree";

/** Rows deeper than this are indented as much as this one (the CSS has a rule per level). */
const MAX_INDENT = 8;

export function SectionTree({
  rows,
  selected,
  onSelect,
  onToggle,
}: {
  rows: TreeRow[];
  selected: string | null;
  onSelect: (path: string) => void;
  onToggle: (path: string) => void;
}) {
  if (rows.length === 0) return <p className="notice">No sections</p>;
  return (
    <ul className="tree" data-testid="section-tree">
      {rows.map((row) => {
        const isSelected = row.path === selected;
        return (
          <li
            key={row.path}
            className={isSelected ? "row selected" : "row"}
            data-testid="section-row"
            data-path={row.path}
            data-depth={Math.min(row.depth, MAX_INDENT)}
          >
            <button
              type="button"
              className="select"
              data-testid="select-section"
              aria-current={isSelected ? "true" : undefined}
              title={row.path}
              onClick={() => {
                onSelect(row.path);
              }}
            >
              <span className="title">{row.title === "" ? "(untitled)" : row.title}</span>
              <span className="key">{row.key}</span>
            </button>
            {row.toolCount > 0 && (
              <span className="tools" data-testid="tool-count">
                {toolCountLabel(row.toolCount)}
              </span>
            )}
            <button
              type="button"
              className={`badge ${row.visibility}`}
              data-testid="toggle-visibility"
              aria-label={`Toggle ${row.path}`}
              title={row.visibility === "full" ? "Shown in full: click to summarize" : "Summarized: click to show in full"}
              onClick={() => {
                onToggle(row.path);
              }}
            >
              {visibilityBadge(row.visibility)}
            </button>
          </li>
        );
      })}
    </ul>
  );
}
