// A React hook that follows a scrolling box's scroll position and height (on scroll and on resize),
// for rendering only the rows of a long list that are in view (rowWindow.ts).
import { useLayoutEffect, useState, type RefObject } from "react";
import type { Viewport } from "./rowWindow";

/** The scroll position and height of the box `box` refers to, kept current. */
export function useViewport(box: RefObject<HTMLElement | null>): Viewport {
  const [viewport, setViewport] = useState<Viewport>({ scrollTop: 0, height: 0 });

  useLayoutEffect(() => {
    const element = box.current;
    if (element === null) return;
    const read = () => {
      const next = { scrollTop: element.scrollTop, height: element.clientHeight };
      setViewport((current) =>
        current.scrollTop === next.scrollTop && current.height === next.height ? current : next,
      );
    };
    read();
    element.addEventListener("scroll", read, { passive: true });
    const resizes = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(read);
    resizes?.observe(element);
    return () => {
      element.removeEventListener("scroll", read);
      resizes?.disconnect();
    };
  }, [box]);

  return viewport;
}
