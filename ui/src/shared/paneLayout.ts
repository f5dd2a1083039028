// The arithmetic of a page's resizable panes, without React or the DOM: one flexible pane (the Edit
// page's editor, the Compare page's results) between panes of a width of their own (the tree, the
// preview, the scenario panel) that the user drags, moves by keyboard, collapses and restores; how
// wide each is drawn in the room the window leaves; and the sizes kept between starts, read back with
// any bad stored value ignored. SplitPanes.tsx draws it.

/** Where a pane of its own width sits: before the flexible pane (left of it) or after it. */
export type PaneSide = "before" | "after";

export interface PaneSpec {
  readonly id: string;
  /** Its name in words, for the separator, the restore button and their titles. */
  readonly name: string;
  readonly side: PaneSide;
  /** Narrower than this, the pane is unusable: it collapses instead. */
  readonly min: number;
  /** Its width until the user changes it. */
  readonly initial: number;
}

export interface SplitSpec {
  /** Where its layout is kept (localStorage), one per page. */
  readonly storageKey: string;
  /**
   * The panes of their own width, in the order they keep it when the room is short: the first keeps
   * its width longest (the Edit page's tree, so that titles stay readable), the flexible pane first
   * shrinks to `flexMin`, then the last of these gives way.
   */
  readonly panes: readonly PaneSpec[];
  readonly flexMin: number;
}

export interface PaneLayout {
  readonly sizes: Readonly<Record<string, number>>;
  readonly collapsed: Readonly<Record<string, boolean>>;
}

/** The width of the separator between two panes. */
export const HANDLE_WIDTH = 8;
/** The width of a collapsed pane: a rail with the button that restores it. */
export const COLLAPSED_WIDTH = 28;
/** One arrow key's move of a separator, and with Shift. */
export const KEY_STEP = 16;
export const KEY_STEP_LARGE = 64;
/** No window is wider: a stored size past it is not a size anyone dragged to. */
const MAX_STORED = 10_000;

export function initialLayout(split: SplitSpec): PaneLayout {
  return {
    sizes: Object.fromEntries(split.panes.map((pane) => [pane.id, pane.initial])),
    collapsed: Object.fromEntries(split.panes.map((pane) => [pane.id, false])),
  };
}

function paneOf(split: SplitSpec, id: string): PaneSpec {
  const pane = split.panes.find((candidate) => candidate.id === id);
  if (pane === undefined) throw new Error(`no pane ${id} in ${split.storageKey}`);
  return pane;
}

/** The stored size of `pane`, at least its minimum. */
function storedSize(layout: PaneLayout, pane: PaneSpec): number {
  return Math.max(pane.min, layout.sizes[pane.id] ?? pane.initial);
}

/**
 * The width each pane is drawn at, in a container `room` pixels wide (null: not measured yet, every
 * pane at its stored size). Collapsed panes take COLLAPSED_WIDTH; the others take their stored size
 * in the split's order while the flexible pane and the panes after them keep their minimum, never
 * less than their own minimum (the page scrolls sideways only when even the minimums do not fit).
 */
export function shownSizes(split: SplitSpec, layout: PaneLayout, room: number | null): Record<string, number> {
  const shown: Record<string, number> = {};
  const open = split.panes.filter((pane) => layout.collapsed[pane.id] !== true);
  for (const pane of split.panes) if (layout.collapsed[pane.id] === true) shown[pane.id] = COLLAPSED_WIDTH;
  if (room === null) {
    for (const pane of open) shown[pane.id] = storedSize(layout, pane);
    return shown;
  }
  const fixed = split.panes.length * HANDLE_WIDTH + (split.panes.length - open.length) * COLLAPSED_WIDTH;
  let left = room - fixed - split.flexMin;
  open.forEach((pane, index) => {
    const laterMinimums = open.slice(index + 1).reduce((sum, later) => sum + later.min, 0);
    const size = Math.max(pane.min, Math.min(storedSize(layout, pane), left - laterMinimums));
    shown[pane.id] = Math.round(size);
    left -= size;
  });
  return shown;
}

/**
 * The narrowest and widest `id` can be dragged to: the panes that keep their width before it (in the
 * split's order) keep the width they are drawn at, those after it give way down to their minimum.
 */
export function sizeLimits(
  split: SplitSpec,
  layout: PaneLayout,
  id: string,
  room: number | null,
): { min: number; max: number | null } {
  const pane = paneOf(split, id);
  if (room === null) return { min: pane.min, max: null };
  const shown = shownSizes(split, layout, room);
  const index = split.panes.indexOf(pane);
  const others = split.panes.reduce((sum, other, at) => {
    if (at === index) return sum;
    const collapsed = layout.collapsed[other.id] === true;
    return sum + (collapsed ? COLLAPSED_WIDTH : at < index ? (shown[other.id] ?? other.min) : other.min);
  }, 0);
  const max = room - split.panes.length * HANDLE_WIDTH - split.flexMin - others;
  return { min: pane.min, max: Math.max(pane.min, Math.round(max)) };
}

/** `layout` with `id` open at `size`, kept within its limits. */
export function resizedTo(
  split: SplitSpec,
  layout: PaneLayout,
  id: string,
  size: number,
  room: number | null,
): PaneLayout {
  const opened = { ...layout, collapsed: { ...layout.collapsed, [id]: false } };
  const { min, max } = sizeLimits(split, opened, id, room);
  const clamped = Math.round(Math.max(min, max === null ? size : Math.min(max, size)));
  return { sizes: { ...layout.sizes, [id]: clamped }, collapsed: opened.collapsed };
}

/**
 * `layout` with the separator of `id` moved `delta` pixels to the right (negative: left) from where
 * it is drawn: a pane before the flexible one grows, one after it shrinks.
 */
export function movedBy(
  split: SplitSpec,
  layout: PaneLayout,
  id: string,
  delta: number,
  room: number | null,
): PaneLayout {
  const pane = paneOf(split, id);
  const from =
    layout.collapsed[id] === true ? pane.min : (shownSizes(split, layout, room)[id] ?? storedSize(layout, pane));
  return resizedTo(split, layout, id, from + (pane.side === "before" ? delta : -delta), room);
}

/** `layout` with `id` collapsed, or restored to the size it had. */
export function toggledCollapse(layout: PaneLayout, id: string): PaneLayout {
  return { ...layout, collapsed: { ...layout.collapsed, [id]: layout.collapsed[id] !== true } };
}

/** What is kept of `layout` (localStorage's text). */
export function layoutText(layout: PaneLayout): string {
  return JSON.stringify(layout);
}

/**
 * The layout kept as `text` (null: none kept): each pane's size and collapsed state where they are
 * a sane number and a boolean, its initial ones where they are missing or anything else (another
 * version's file, a hand edit), so a bad value never leaves a pane unusable.
 */
export function parseLayout(split: SplitSpec, text: string | null): PaneLayout {
  const kept = parsedObject(text);
  const sizes = record(kept?.sizes);
  const collapsed = record(kept?.collapsed);
  return {
    sizes: Object.fromEntries(
      split.panes.map((pane) => {
        const size = sizes[pane.id];
        const sane = typeof size === "number" && Number.isFinite(size) && size <= MAX_STORED;
        return [pane.id, sane ? Math.max(pane.min, Math.round(size)) : pane.initial];
      }),
    ),
    collapsed: Object.fromEntries(
      split.panes.map((pane) => {
        const value = collapsed[pane.id];
        return [pane.id, typeof value === "boolean" ? value : false];
      }),
    ),
  };
}

function parsedObject(text: string | null): Record<string, unknown> | null {
  if (text === null) return null;
  try {
    return record(JSON.parse(text));
  } catch {
    return null;
  }
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
