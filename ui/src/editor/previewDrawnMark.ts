// The performance mark of the first frame that shows a preview, once per page: how long the app
// takes from its start to a preview, as `tests/e2e/measure-editor.mjs` times it.
import { useEffect } from "react";
import { markAfterNextFrame } from "../shared/frameMarks";

/** The mark's name. */
export const PREVIEW_DRAWN = "unfold:preview-drawn";

/** Marks the first frame after `shown` becomes true, unless a frame was marked before. */
export function usePreviewDrawnMark(shown: boolean): void {
  useEffect(() => {
    if (!shown || performance.getEntriesByName(PREVIEW_DRAWN).length > 0) return;
    markAfterNextFrame(PREVIEW_DRAWN, true);
  }, [shown]);
}
