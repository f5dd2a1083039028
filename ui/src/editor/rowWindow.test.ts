// Tests for rowWindow.ts: which rows of a long list are rendered for a scroll position, that a short
// list is rendered whole, pinned rows outside the view, revealing a row, and edge scrolling.
import { describe, expect, it } from "vitest";
import {
  edgeScrollStep,
  MAX_EDGE_STEP,
  OVERSCAN,
  RENDER_ALL_UP_TO,
  renderedIndices,
  revealScrollTop,
  UNMEASURED_HEIGHT,
  visibleRows,
} from "./rowWindow";

const ROW = 40;

describe("visibleRows", () => {
  it("renders every row of a short list wherever it is scrolled", () => {
    expect(visibleRows(4, { scrollTop: 0, height: 40 }, ROW)).toEqual({ start: 0, end: 4 });
    expect(visibleRows(RENDER_ALL_UP_TO, { scrollTop: 2000, height: 80 }, ROW)).toEqual({
      start: 0,
      end: RENDER_ALL_UP_TO,
    });
  });

  it("renders the rows in view and the overscan either side of them", () => {
    // Rows 100..109 are in view (row 109 partly).
    expect(visibleRows(5000, { scrollTop: 4000, height: 390 }, ROW)).toEqual({
      start: 100 - OVERSCAN,
      end: 110 + OVERSCAN,
    });
  });

  it("counts a row cut by the top edge as in view", () => {
    expect(visibleRows(5000, { scrollTop: 4020, height: 400 }, ROW, 0)).toEqual({ start: 100, end: 111 });
  });

  it("stops at either end of the list", () => {
    expect(visibleRows(5000, { scrollTop: 0, height: 400 }, ROW)).toEqual({ start: 0, end: 10 + OVERSCAN });
    expect(visibleRows(5000, { scrollTop: 5000 * ROW - 400, height: 400 }, ROW)).toEqual({
      start: 4990 - OVERSCAN,
      end: 5000,
    });
  });

  it("renders nothing past the end when scrolled beyond a list that shrank", () => {
    expect(visibleRows(200, { scrollTop: 100_000, height: 400 }, ROW)).toEqual({ start: 200, end: 200 });
  });

  it("assumes a tall box until it is measured", () => {
    expect(visibleRows(5000, { scrollTop: 0, height: 0 }, ROW, 0)).toEqual({ start: 0, end: UNMEASURED_HEIGHT / ROW });
  });
});

describe("renderedIndices", () => {
  it("is the window in order", () => {
    expect(renderedIndices({ start: 3, end: 6 }, [])).toEqual([3, 4, 5]);
  });

  it("adds a pinned row outside the window in its place, once", () => {
    expect(renderedIndices({ start: 3, end: 6 }, [900])).toEqual([3, 4, 5, 900]);
    expect(renderedIndices({ start: 3, end: 6 }, [1])).toEqual([1, 3, 4, 5]);
    expect(renderedIndices({ start: 3, end: 6 }, [4, -1])).toEqual([3, 4, 5]);
  });
});

describe("revealScrollTop", () => {
  const viewport = { scrollTop: 400, height: 200 };

  it("leaves a row in view alone", () => {
    expect(revealScrollTop(10, viewport, ROW)).toBe(400);
    expect(revealScrollTop(14, viewport, ROW)).toBe(400);
  });

  it("scrolls up to a row above the view, putting it at the top", () => {
    expect(revealScrollTop(9, viewport, ROW)).toBe(360);
    expect(revealScrollTop(0, viewport, ROW)).toBe(0);
  });

  it("scrolls down to a row below the view, putting it at the bottom", () => {
    expect(revealScrollTop(15, viewport, ROW)).toBe(440);
    expect(revealScrollTop(4999, viewport, ROW)).toBe(5000 * ROW - 200);
  });

  it("shows a row cut by an edge whole", () => {
    expect(revealScrollTop(9, { scrollTop: 380, height: 200 }, ROW)).toBe(360);
    expect(revealScrollTop(14, { scrollTop: 380, height: 200 }, ROW)).toBe(400);
  });

  it("does not scroll a box it has not measured", () => {
    expect(revealScrollTop(100, { scrollTop: 0, height: 0 }, ROW)).toBe(0);
  });
});

describe("edgeScrollStep", () => {
  // A box from y=100 to y=500.
  it("does not scroll away from the edges", () => {
    expect(edgeScrollStep(300, 100, 400)).toBe(0);
    expect(edgeScrollStep(132, 100, 400)).toBe(0);
    expect(edgeScrollStep(468, 100, 400)).toBe(0);
  });

  it("scrolls up near the top and down near the bottom, faster nearer the edge", () => {
    const slowUp = edgeScrollStep(124, 100, 400);
    const fastUp = edgeScrollStep(101, 100, 400);
    expect(slowUp).toBeLessThan(0);
    expect(fastUp).toBeLessThan(slowUp);
    const slowDown = edgeScrollStep(476, 100, 400);
    const fastDown = edgeScrollStep(499, 100, 400);
    expect(slowDown).toBeGreaterThan(0);
    expect(fastDown).toBeGreaterThan(slowDown);
  });

  it("scrolls at full speed with the pointer beyond an edge", () => {
    expect(edgeScrollStep(20, 100, 400)).toBe(-MAX_EDGE_STEP);
    expect(edgeScrollStep(900, 100, 400)).toBe(MAX_EDGE_STEP);
  });

  it("keeps the zones apart in a short box", () => {
    expect(edgeScrollStep(140, 100, 80)).toBe(0);
    expect(edgeScrollStep(101, 100, 80)).toBeLessThan(0);
    expect(edgeScrollStep(0, 100, 0)).toBe(0);
  });
});
