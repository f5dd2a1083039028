// The performance mark of the first frame that shows a preview, once per page: how long the app
// takes from its start to a preview, as `tests/e2e/measure-editor.mjs` times it (the Web Inspector's
// timeline shows it too). It is taken after the frame is painted: a task queued from the frame's
// animation callback runs once the frame is out.
import { useEffect } from "react";

/** The mark's name. */
export const PREVIEW_DRAWN = "unfold:preview-drawn";

/** Marks the first frame after `shown` becomes true, unless a frame was marked before. */
export function usePreviewDrawnMark(shown: boolean): void {
  useEffect(() => {
    if (!shown || performance.getEntriesByName(PREVIEW_DRAWN).length > 0) return;
    requestAnimationFrame(() => {
      setTimeout(() => {
        if (performance.getEntriesByName(PREVIEW_DRAWN).length === 0) performance.mark(PREVIEW_DRAWN);
      }, 0);
    });
  }, [shown]);
}
