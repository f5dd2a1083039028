// Test-only (vitest's setup file): React's act() environment on for every test, so that `settle`
// (dom.ts) runs the same in a store's test and a component's; and the deferred views loaded before
// any test, as the app has them once its first screen is drawn, so that a test switching to a page
// finds it drawn at once. `deferredViews.test.tsx` tests the loading itself, with modules of its own.
// What a test keeps in localStorage (the panes' sizes) is forgotten after it, so that no test starts
// from another's layout.
import { afterEach } from "vitest";
import { preloadDeferredViews } from "../shell/deferredViews";

declare global {
  var IS_REACT_ACT_ENVIRONMENT: boolean | undefined;
}

globalThis.IS_REACT_ACT_ENVIRONMENT = true;

afterEach(() => {
  window.localStorage.clear();
});

await preloadDeferredViews();
