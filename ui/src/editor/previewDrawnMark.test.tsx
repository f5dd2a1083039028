// The start mark: taken once, after the first frame that shows a preview, and never while none is.
import { act } from "react";
import type { Root } from "react-dom/client";
import { afterEach, describe, expect, it } from "vitest";
import { mountEachTest } from "../testing/testRoot";
import { PREVIEW_DRAWN, usePreviewDrawnMark } from "./previewDrawnMark";

let root: Root;

mountEachTest((mounted) => {
  ({ root } = mounted);
});

afterEach(() => {
  performance.clearMarks(PREVIEW_DRAWN);
});

function Pane({ shown }: { shown: boolean }) {
  usePreviewDrawnMark(shown);
  return null;
}

/** Lets a frame and the task queued from it run. */
async function nextFrame(): Promise<void> {
  await act(async () => {
    await new Promise((resolve) => requestAnimationFrame(resolve));
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
}

describe("usePreviewDrawnMark", () => {
  it("marks the first frame with a preview, once", async () => {
    act(() => {
      root.render(<Pane shown={false} />);
    });
    await nextFrame();
    expect(performance.getEntriesByName(PREVIEW_DRAWN)).toHaveLength(0);

    act(() => {
      root.render(<Pane shown />);
    });
    await nextFrame();
    expect(performance.getEntriesByName(PREVIEW_DRAWN)).toHaveLength(1);

    act(() => {
      root.render(<Pane shown={false} />);
    });
    act(() => {
      root.render(<Pane shown />);
    });
    await nextFrame();
    expect(performance.getEntriesByName(PREVIEW_DRAWN)).toHaveLength(1);
  });
});
