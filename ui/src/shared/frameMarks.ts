// What runs once the next frame is painted: work that must not hold a frame back, and the
// performance marks for the figures `tests/e2e/measure-*.mjs` print (the Web Inspector's timeline
// shows them too). A task queued from the frame's animation callback runs once the frame is out,
// so a mark says when the user could see it.

/** Runs `task` after the next frame is painted; the function returned cancels it if not run yet. */
export function afterNextFrame(task: () => void): () => void {
  let timeout: ReturnType<typeof setTimeout> | undefined;
  const frame = requestAnimationFrame(() => {
    timeout = setTimeout(task, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(timeout);
  };
}

/** Marks `name` after the next frame is painted; with `once`, only if no mark of it was taken yet. */
export function markAfterNextFrame(name: string, once = false): void {
  afterNextFrame(() => {
    if (!once || performance.getEntriesByName(name).length === 0) performance.mark(name);
  });
}
