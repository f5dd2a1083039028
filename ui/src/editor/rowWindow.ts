// The arithmetic of a long list of rows of one fixed height shown in a scrolling box: which rows are
// worth rendering (those in view and a few either side, or every row of a short list), the scroll
// position that brings a row fully into view, and how fast to scroll while something is dragged near
// the box's top or bottom edge.

/** The scrolling box: how far it is scrolled and how tall it is (0: not measured yet). */
export interface Viewport {
  scrollTop: number;
  height: number;
}

/** The rows from `start` up to, not including, `end`. */
export interface RowWindow {
  start: number;
  end: number;
}

/** A list this short is rendered whole: cheap, and every row stays findable in the page. */
export const RENDER_ALL_UP_TO = 100;
/** Rows rendered beyond each edge of the view, so a scroll shows rows already there. */
export const OVERSCAN = 8;
/** The height assumed before the box is measured (or where it cannot be, as in tests). */
export const UNMEASURED_HEIGHT = 800;

/** The rows worth rendering for `viewport` in a list of `rowCount` rows `rowHeight` pixels high. */
export function visibleRows(rowCount: number, viewport: Viewport, rowHeight: number, overscan = OVERSCAN): RowWindow {
  if (rowCount <= RENDER_ALL_UP_TO) return { start: 0, end: rowCount };
  const top = Math.max(0, viewport.scrollTop);
  const height = viewport.height > 0 ? viewport.height : UNMEASURED_HEIGHT;
  const end = Math.min(rowCount, Math.ceil((top + height) / rowHeight) + overscan);
  const start = Math.min(end, Math.max(0, Math.floor(top / rowHeight) - overscan));
  return { start, end };
}

/**
 * The indices to render: those of `window`, and `pinned` ones outside it (kept in the page so that
 * focus on them survives a scroll), in order.
 */
export function renderedIndices(window: RowWindow, pinned: readonly number[]): number[] {
  const indices: number[] = [];
  for (let i = window.start; i < window.end; i++) indices.push(i);
  const outside = pinned.filter((i) => i >= 0 && (i < window.start || i >= window.end));
  return outside.length === 0 ? indices : [...new Set([...indices, ...outside])].sort((a, b) => a - b);
}

/** The scroll position that shows row `index` whole, moving as little as possible. */
export function revealScrollTop(index: number, viewport: Viewport, rowHeight: number): number {
  const { scrollTop, height } = viewport;
  if (height <= 0) return scrollTop;
  const top = index * rowHeight;
  const bottom = top + rowHeight;
  if (top < scrollTop) return top;
  if (bottom > scrollTop + height) return bottom - height;
  return scrollTop;
}

/** How close to an edge (in pixels) the pointer makes a drag scroll the box. */
export const EDGE_ZONE = 32;
/** The most a drag scrolls per frame, with the pointer at or beyond the edge. */
export const MAX_EDGE_STEP = 20;

/**
 * How many pixels to scroll this frame while dragging with the pointer at `pointerY` over a box
 * whose top is at `boxTop` and which is `boxHeight` high: negative up, positive down, faster
 * nearer the edge, 0 away from both edges.
 */
export function edgeScrollStep(pointerY: number, boxTop: number, boxHeight: number): number {
  const zone = Math.min(EDGE_ZONE, boxHeight / 4);
  if (zone <= 0) return 0;
  const intoTop = boxTop + zone - pointerY;
  if (intoTop > 0) return -Math.ceil(MAX_EDGE_STEP * Math.min(1, intoTop / zone));
  const intoBottom = pointerY - (boxTop + boxHeight - zone);
  if (intoBottom > 0) return Math.ceil(MAX_EDGE_STEP * Math.min(1, intoBottom / zone));
  return 0;
}
