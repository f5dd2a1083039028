// Test-only (vitest's setup file): the deferred views loaded before any test, as the app has them
// once its first screen is drawn, so that a test switching to a page finds it drawn at once.
// `deferredViews.test.tsx` tests the loading itself, with modules of its own.
import { preloadDeferredViews } from "../shell/deferredViews";

await preloadDeferredViews();
