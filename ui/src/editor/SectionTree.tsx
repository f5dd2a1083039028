// The section tree: a row per section (indented by depth) that selects it, with its FULL/SUMMARY
// toggle and its tool count; the tree's own keys (shortcuts.ts) while it has focus, and focus that
// follows the selected row after one of them, even when its row was moved or re-created.
import { useEffect, useRef } from "react";
import { treeKeyAction, type TreeKeyAction } from "./shortcuts";
import { toolCountLabel, visibilityBadge, type TreeRow } from "./tree";

/** Rows deeper than this are indented as much as this one (the CSS has a rule per level). */
const MAX_INDENT = 8;

export function SectionTree({
  rows,
  selected,
  onSelect,
  onToggle,
  onKey,
}: {
  rows: TreeRow[];
  selected: string | null;
  onSelect: (path: string) => void;
  onToggle: (path: string) => void;
  onKey: (action: TreeKeyAction) => void;
}) {
  const list = useRef<HTMLUListElement>(null);
  /** Whether the tree is being used from the keyboard: focus then follows the selected row. */
  const keyboard = useRef(false);

  useEffect(() => {
    const tree = list.current;
    if (!keyboard.current || tree === null) return;
    // Focus was in the tree, or was lost with a row that moved or went away.
    const active = window.document.activeElement;
    if (active !== null && active !== window.document.body && !tree.contains(active)) return;
    tree.querySelector<HTMLElement>('[data-testid="select-section"][aria-current="true"]')?.focus();
  }, [rows, selected]);

  if (rows.length === 0) return <p className="notice">No sections</p>;
  return (
    <ul
      ref={list}
      className="tree"
      data-testid="section-tree"
      onKeyDown={(event) => {
        const action = treeKeyAction(event);
        if (action === null) return;
        event.preventDefault();
        keyboard.current = true;
        onKey(action);
      }}
      onPointerDown={() => {
        keyboard.current = false;
      }}
      onBlur={(event) => {
        const next = event.relatedTarget;
        if (next instanceof Node && !event.currentTarget.contains(next)) keyboard.current = false;
      }}
    >
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
