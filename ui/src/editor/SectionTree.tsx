// The section tree: a row per section (indented by depth) that selects it, with its FULL/SUMMARY
// toggle, its tool count and the badge of its source tools (which leads to them in Sources). Only
// the rows in view (and a few either side) are in the page, so a tree of thousands of sections
// stays fast; a short tree has every row in the page. A filtered tree (treeFilter.ts) marks where
// each match's title or key holds the query and dims the ancestors shown only for context. The tree's own
// keys (shortcuts.ts) while it has focus, the selected row scrolled into view, and focus that
// follows the selected row after a key, even when its row was moved or re-created, or is asked
// for (after "go to section"). A row is dragged
// with the pointer (pointer events: the webview keeps native drag-and-drop for opening files) onto
// another row, before, inside or after it (dropTarget.ts decides where and whether); Escape cancels.
// A row is drawn again only when what it shows changed: a keystroke in a section's text draws none.
import { GripVertical } from "lucide-react";
import { memo, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import type { SectionCost, SectionSize, Template } from "../platform";
import { readCostText, sectionSizeText, shortTokens } from "./economics";
import { dropTargetAt, type DropTarget } from "./dropTarget";
import { edgeScrollStep, renderedIndices, revealScrollTop, visibleRows } from "./rowWindow";
import { toolCountLabel, visibilityBadge, type TreeRow } from "./tree";
import { markMatch, type FilteredTree } from "./treeFilter";
import { useViewport } from "./useViewport";
import { treeKeyAction, type TreeKeyAction } from "./treeKeys";

/** Every row's height in pixels: the `.tree-scroller .tree .row` rule in index.css sets the same. */
export const TREE_ROW_HEIGHT = 34;
/** How far (in pixels) a press moves before it is a drag rather than a click. */
export const DRAG_THRESHOLD = 5;
/** Rows deeper than this are indented as much as this one (the CSS has a rule per level). */
const MAX_INDENT = 8;

/** A press on a row that may become a drag. */
interface Press {
  path: string;
  pointerId: number;
  startX: number;
  startY: number;
  /** Where the pointer is now, in the window. */
  clientY: number;
  dragging: boolean;
}

/** A drag under way: the dragged section and the pointer's height below the tree's first row. */
interface Drag {
  path: string;
  y: number;
}

/** How far below the top of `list` (the first row) `clientY` is. */
function offsetInList(list: HTMLElement | null, clientY: number): number {
  return list === null ? -1 : clientY - list.getBoundingClientRect().top;
}

/**
 * A section's badge of the tools it takes from sources, as the Sources tab makes it
 * (sources/catalog.ts's `SourceBadge` is one).
 */
export interface SourceBadge {
  /** What the badge shows, short: "⚡ 3". */
  text: string;
  /** Its accessible name and tooltip. */
  label: string;
}

export function SectionTree({
  rows,
  template,
  selected,
  onSelect,
  onToggle,
  onKey,
  onMove,
  sourceBadges,
  onSourceBadge,
  readCosts,
  sizes,
  filtered = null,
  focusRequest = 0,
}: {
  /** The rows shown: every section's, or those `filtered` shows. */
  rows: TreeRow[];
  /** The template the rows show, for where a drop would put the dragged section. */
  template: Template;
  selected: string | null;
  onSelect: (path: string) => void;
  onToggle: (path: string) => void;
  onKey: (action: TreeKeyAction) => void;
  /** Moves the section at `path` to where it was dropped. */
  onMove: (path: string, target: DropTarget) => void;
  /** The badge of each section with source tools, by path. */
  sourceBadges?: ReadonlyMap<string, SourceBadge>;
  /** The badge of the section at `path` was clicked. */
  onSourceBadge?: (path: string) => void;
  /** What reading each section summarized at first adds, by path. */
  readCosts?: ReadonlyMap<string, SectionCost>;
  /** Each section's own size in the prompt, by path, for its row's tooltip. */
  sizes?: ReadonlyMap<string, SectionSize>;
  /** The filter that chose `rows`, whose matches are marked (null: no filter). */
  filtered?: FilteredTree | null;
  /** Changed to put focus on the selected row (0: never asked). */
  focusRequest?: number;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const list = useRef<HTMLUListElement>(null);
  /** Whether the tree is being used from the keyboard: focus then follows the selected row. */
  const keyboard = useRef(false);
  const press = useRef<Press | null>(null);
  /** Set when a drag ended: the click its release may cause is not a click on a row. */
  const swallowClick = useRef(false);
  const [drag, setDrag] = useState<Drag | null>(null);
  const viewport = useViewport(scroller);
  // The rows are given the same functions from one render to the next, calling the handlers as
  // last given, so that a new handler from the page draws no row again.
  const handlers = useRef({ onSelect, onToggle, onSourceBadge });
  useLayoutEffect(() => {
    handlers.current = { onSelect, onToggle, onSourceBadge };
  });
  const rowActions = useMemo<RowActions>(
    () => ({
      select: (path) => {
        handlers.current.onSelect(path);
      },
      toggle: (path) => {
        handlers.current.onToggle(path);
      },
      sourceBadge: (path) => {
        handlers.current.onSourceBadge?.(path);
      },
    }),
    [],
  );
  const selectedIndex = rows.findIndex((row) => row.path === selected);
  const dragging = drag !== null;

  useLayoutEffect(() => {
    const box = scroller.current;
    if (box === null || selectedIndex < 0) return;
    box.scrollTop = revealScrollTop(
      selectedIndex,
      { scrollTop: box.scrollTop, height: box.clientHeight },
      TREE_ROW_HEIGHT,
    );
    // Only when the selection changed or its row moved: an edit elsewhere leaves the scroll alone.
  }, [selected, selectedIndex]);

  useEffect(() => {
    const tree = list.current;
    if (!keyboard.current || tree === null) return;
    // Focus was in the tree, or was lost with a row that moved or went away.
    const active = window.document.activeElement;
    if (active !== null && active !== window.document.body && !tree.contains(active)) return;
    tree.querySelector<HTMLElement>('[data-testid="select-section"][aria-current="true"]')?.focus();
  }, [rows, selected]);

  useEffect(() => {
    if (focusRequest === 0) return;
    // From now on focus follows the selected row, as after a key in the tree.
    keyboard.current = true;
    list.current?.querySelector<HTMLElement>('[data-testid="select-section"][aria-current="true"]')?.focus();
  }, [focusRequest]);

  useEffect(() => {
    const box = scroller.current;
    if (!dragging || box === null) return;
    const follow = () => {
      const current = press.current;
      if (current !== null) setDrag({ path: current.path, y: offsetInList(list.current, current.clientY) });
    };
    // Near the top or bottom edge the tree scrolls by itself, and the target follows the rows.
    let frame = requestAnimationFrame(function scrollAtEdge() {
      const current = press.current;
      if (current !== null) {
        const rect = box.getBoundingClientRect();
        const step = edgeScrollStep(current.clientY, rect.top, rect.height);
        if (step !== 0) box.scrollTop += step;
      }
      frame = requestAnimationFrame(scrollAtEdge);
    });
    const onEscape = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      event.preventDefault();
      event.stopPropagation();
      press.current = null;
      swallowClick.current = true;
      setDrag(null);
    };
    box.addEventListener("scroll", follow, { passive: true });
    window.addEventListener("keydown", onEscape, true);
    return () => {
      cancelAnimationFrame(frame);
      box.removeEventListener("scroll", follow);
      window.removeEventListener("keydown", onEscape, true);
    };
  }, [dragging]);

  const endPress = () => {
    if (press.current?.dragging === true) swallowClick.current = true;
    press.current = null;
    setDrag(null);
  };

  const target = drag === null ? null : dropTargetAt(template, rows, drag.path, drag.y, TREE_ROW_HEIGHT);
  const shown = renderedIndices(visibleRows(rows.length, viewport, TREE_ROW_HEIGHT), [selectedIndex]);

  return (
    <div ref={scroller} className="tree-scroller" data-testid="tree-scroller">
      {rows.length === 0 ? (
        <p className="notice">{filtered === null ? "No sections" : "No section matches"}</p>
      ) : (
        <ul
          ref={list}
          role="tree"
          aria-label="Sections"
          className={dragging ? "tree dragging" : "tree"}
          data-testid="section-tree"
          // Set through the DOM's style object, which the CSP allows (it forbids style attributes).
          style={{ height: rows.length * TREE_ROW_HEIGHT }}
          onKeyDown={(event) => {
            const action = treeKeyAction(event);
            if (action === null) return;
            event.preventDefault();
            keyboard.current = true;
            onKey(action);
          }}
          onBlur={(event) => {
            const next = event.relatedTarget;
            if (next instanceof Node && !event.currentTarget.contains(next)) keyboard.current = false;
          }}
          onPointerDown={(event) => {
            keyboard.current = false;
            swallowClick.current = false;
            if (event.button !== 0 || !event.isPrimary || !(event.target instanceof Element)) return;
            // The badges are buttons of their own: pressing one acts, never drags.
            if (event.target.closest('[data-testid="toggle-visibility"], [data-testid="source-badge"]') !== null)
              return;
            const path = event.target.closest<HTMLElement>('[data-testid="section-row"]')?.dataset.path;
            if (path === undefined) return;
            const { pointerId, clientX, clientY } = event;
            press.current = { path, pointerId, startX: clientX, startY: clientY, clientY, dragging: false };
          }}
          onPointerMove={(event) => {
            const current = press.current;
            if (current?.pointerId !== event.pointerId) return;
            if ((event.buttons & 1) === 0) {
              // The button was let go where the tree did not hear it: that press is over.
              endPress();
              return;
            }
            current.clientY = event.clientY;
            if (!current.dragging) {
              const moved = Math.hypot(event.clientX - current.startX, event.clientY - current.startY);
              if (moved < DRAG_THRESHOLD) return;
              current.dragging = true;
              try {
                // Keep the pointer's events while it is outside the tree, to scroll and to drop.
                event.currentTarget.setPointerCapture(event.pointerId);
              } catch {
                // A pointer the browser no longer tracks cannot be captured: drag on without.
              }
            }
            event.preventDefault();
            setDrag({ path: current.path, y: offsetInList(list.current, event.clientY) });
          }}
          onPointerUp={(event) => {
            const current = press.current;
            if (current?.pointerId !== event.pointerId) return;
            const dropped = current.dragging
              ? dropTargetAt(template, rows, current.path, offsetInList(list.current, event.clientY), TREE_ROW_HEIGHT)
              : null;
            endPress();
            if (dropped !== null) onMove(current.path, dropped);
          }}
          onPointerCancel={endPress}
          onLostPointerCapture={() => {
            if (press.current?.dragging === true) endPress();
          }}
          onClickCapture={(event) => {
            if (!swallowClick.current) return;
            swallowClick.current = false;
            event.preventDefault();
            event.stopPropagation();
          }}
        >
          {shown.map((index) => {
            const row = rows[index];
            if (row === undefined) return null;
            return (
              <TreeItem
                key={row.path}
                row={row}
                top={index * TREE_ROW_HEIGHT}
                selected={row.path === selected}
                dragged={row.path === drag?.path}
                drop={target?.path === row.path ? target : null}
                actions={rowActions}
                sourceBadge={sourceBadges?.get(row.path)}
                readCost={readCosts?.get(row.path)}
                size={sizes?.get(row.path)}
                {...foundAs(filtered, row.path)}
              />
            );
          })}
        </ul>
      )}
    </div>
  );
}

/** What a row does when used: the same functions for every row and every render. */
interface RowActions {
  select: (path: string) => void;
  toggle: (path: string) => void;
  sourceBadge: (path: string) => void;
}

/**
 * How a filtered tree shows a row, as plain values (a row compares its props to draw again): a
 * match, marked where it holds `needle`, or an ancestor of one, dimmed (`context`).
 */
function foundAs(filtered: FilteredTree | null, path: string): { needle: string | null; context: boolean } {
  if (filtered === null) return { needle: null, context: false };
  return filtered.matches.has(path) ? { needle: filtered.needle, context: false } : { needle: null, context: true };
}

/** `text` with the first place it holds `needle` marked; as it is when it does not hold it. */
function MarkedText({ text, needle }: { text: string; needle: string | null }) {
  const cut = needle === null ? null : markMatch(text, needle);
  if (cut === null) return text;
  return (
    <>
      {cut.before}
      <mark>{cut.marked}</mark>
      {cut.after}
    </>
  );
}

const TreeItem = memo(function TreeItem({
  row,
  top,
  selected,
  dragged,
  drop,
  actions,
  sourceBadge,
  readCost,
  size,
  needle,
  context,
}: {
  row: TreeRow;
  /** Its distance from the top of the list, in pixels. */
  top: number;
  selected: boolean;
  dragged: boolean;
  /** The drop the pointer offers on this row, if any. */
  drop: DropTarget | null;
  actions: RowActions;
  /** Its source tools, if any. */
  sourceBadge?: SourceBadge;
  /** What reading it adds, when it is summarized at first. */
  readCost?: SectionCost;
  /** Its own size in the prompt. */
  size?: SectionSize;
  /** What a filtered tree marks in its title and key, when it matches (null: no filter, or an ancestor). */
  needle: string | null;
  /** Shown by a filter only as the ancestor of a match. */
  context: boolean;
}) {
  const classes = ["row", selected ? "selected" : "", dragged ? "dragged" : "", context ? "context" : ""].filter(
    (name) => name !== "",
  );
  return (
    <li
      role="treeitem"
      aria-level={row.depth + 1}
      aria-setsize={row.siblingCount}
      aria-posinset={row.index + 1}
      aria-selected={selected}
      className={classes.join(" ")}
      data-testid="section-row"
      data-path={row.path}
      data-depth={Math.min(row.depth, MAX_INDENT)}
      style={{ top }}
    >
      <span className="grip" data-testid="drag-handle" aria-hidden="true" title="Drag to move">
        <GripVertical />
      </span>
      <button
        type="button"
        className="select"
        data-testid="select-section"
        aria-current={selected ? "true" : undefined}
        title={size === undefined ? row.path : `${row.path}\n${sectionSizeText(size)}`}
        onClick={() => {
          actions.select(row.path);
        }}
      >
        <span className="title">
          {row.title === "" ? "(untitled)" : <MarkedText text={row.title} needle={needle} />}
        </span>
        <span className="key">
          <MarkedText text={row.key} needle={needle} />
        </span>
      </button>
      {(row.toolCount > 0 || sourceBadge !== undefined || readCost !== undefined) && (
        // One above the other, so that the title keeps its room in a narrow tree.
        <span className="counts">
          {readCost !== undefined && (
            <span
              className="read-cost"
              data-testid="read-cost"
              title={readCostText(readCost.read_tokens, readCost.tools)}
            >
              {shortTokens(readCost.read_tokens)}
            </span>
          )}
          {row.toolCount > 0 && (
            <span className="tools" data-testid="tool-count">
              {toolCountLabel(row.toolCount)}
            </span>
          )}
          {sourceBadge !== undefined && (
            <button
              type="button"
              className="source-badge"
              data-testid="source-badge"
              aria-label={sourceBadge.label}
              title={sourceBadge.label}
              onClick={() => {
                actions.sourceBadge(row.path);
              }}
            >
              {sourceBadge.text}
            </button>
          )}
        </span>
      )}
      <button
        type="button"
        className={`badge ${row.visibility}`}
        data-testid="toggle-visibility"
        aria-label={`Toggle ${row.path}`}
        title={
          row.visibility === "full"
            ? "Shown in full: click to summarize"
            : `Summarized${readCost === undefined ? "" : ` (${readCostText(readCost.read_tokens, readCost.tools).toLowerCase()})`}: click to show in full`
        }
        onClick={() => {
          actions.toggle(row.path);
        }}
      >
        {visibilityBadge(row.visibility)}
      </button>
      {drop !== null && (
        <span
          className={`drop-indicator ${drop.position}`}
          data-testid="drop-indicator"
          data-position={drop.position}
          aria-hidden="true"
        />
      )}
    </li>
  );
});
