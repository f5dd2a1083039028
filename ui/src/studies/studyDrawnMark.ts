// The performance marks of a study's end, as `tests/e2e/studies.test.mjs` and
// `tests/e2e/measure-study.mjs` time it: when its report reached the page (the store marks it),
// and the first frame that shows it answered (verdicts, lanes, plots).
import { useEffect } from "react";
import { markAfterNextFrame } from "../shared/frameMarks";

/** Marked by the store as a study's report arrives. */
export const STUDY_ANSWERED = "unfold:study-answered";
/** Marked at the first frame after that showing the study answered. */
export const STUDY_DRAWN = "unfold:study-drawn";

/** Marks the first frame after the study `id` shows finished (once per study). */
export function useStudyDrawnMark(id: number, finished: boolean): void {
  useEffect(() => {
    if (finished) markAfterNextFrame(STUDY_DRAWN);
  }, [id, finished]);
}
