// A React hook that follows a CSS media query (a window narrower than some width), for the toolbar
// parts that fold into a menu below a fixed width.
import { useCallback, useSyncExternalStore } from "react";

/** Whether `query` matches now; false where the page cannot tell (no `matchMedia`). */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (changed: () => void) => {
      if (typeof window.matchMedia !== "function") return () => undefined;
      const list = window.matchMedia(query);
      list.addEventListener("change", changed);
      return () => {
        list.removeEventListener("change", changed);
      };
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => typeof window.matchMedia === "function" && window.matchMedia(query).matches,
  );
}
