// Performance marks taken once a frame is painted, for the figures `tests/e2e/measure-*.mjs` print
// (the Web Inspector's timeline shows them too). A task queued from the frame's animation callback
// runs once the frame is out, so the mark says when the user could see it.

/** Marks `name` after the next frame is painted; with `once`, only if no mark of it was taken yet. */
export function markAfterNextFrame(name: string, once = false): void {
  requestAnimationFrame(() => {
    setTimeout(() => {
      if (!once || performance.getEntriesByName(name).length === 0) performance.mark(name);
    }, 0);
  });
}
