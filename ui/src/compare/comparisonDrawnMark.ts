// The performance marks of a comparison's end, as `tests/e2e/measure-compare.mjs` times it: when
// its report reached the page (the store marks it), and the first frame that shows the finished
// comparison (verdict, lanes, chart and counters).
import { useEffect } from "react";
import { markAfterNextFrame } from "../shared/frameMarks";

/** Marked by the store as a comparison's report arrives. */
export const COMPARISON_ANSWERED = "unfold:comparison-answered";
/** Marked at the first frame after that showing the comparison finished. */
export const COMPARISON_DRAWN = "unfold:comparison-drawn";

/** Marks the first frame after the comparison `runId` shows finished (once per run). */
export function useComparisonDrawnMark(runId: number | null, finished: boolean): void {
  useEffect(() => {
    if (runId !== null && finished) markAfterNextFrame(COMPARISON_DRAWN);
  }, [runId, finished]);
}
