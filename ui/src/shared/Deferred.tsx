// What draws a deferred module's part of the UI: the part once its module is loaded (loading it
// once what stands in for it meanwhile is painted), and why it is missing when it could not be.
import { useEffect, useSyncExternalStore, type ReactNode } from "react";
import type { DeferredModule } from "./DeferredModule";
import { afterNextFrame } from "./frameMarks";

/**
 * `show(module)` once `module` is loaded; `meanwhile` (nothing unless given) until then. A module
 * not loaded yet is loaded after the frame that shows `meanwhile`: parsing it would hold that frame
 * back, and on the first screen keep the rest of the page from showing.
 */
export function Deferred<M>({
  module,
  show,
  meanwhile = null,
}: {
  module: DeferredModule<M>;
  show: (module: M) => ReactNode;
  meanwhile?: ReactNode;
}) {
  const current = useSyncExternalStore(module.subscribe, module.getState).loaded;
  useEffect(() => {
    if (current !== undefined) return;
    return afterNextFrame(() => void module.load());
  }, [module, current]);
  if (current === undefined) return meanwhile;
  if ("failure" in current) {
    return (
      <p className="notice" role="alert" data-testid="view-load-failure">
        This view could not be loaded: {current.failure}
      </p>
    );
  }
  return show(current.module);
}
