// Test-only: every test of a component file gets its own React root in a fresh element of
// happy-dom's document, unmounted and removed after it, with React's act() environment on.
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach } from "vitest";

declare global {
  var IS_REACT_ACT_ENVIRONMENT: boolean | undefined;
}

export interface TestRoot {
  container: HTMLDivElement;
  root: Root;
}

/** Registers the hooks that mount a root before each test; `take` receives it. */
export function mountEachTest(take: (mounted: TestRoot) => void): void {
  let mounted: TestRoot | null = null;
  beforeEach(() => {
    globalThis.IS_REACT_ACT_ENVIRONMENT = true;
    const container = document.createElement("div");
    document.body.append(container);
    mounted = { container, root: createRoot(container) };
    take(mounted);
  });
  afterEach(() => {
    const done = mounted;
    if (done === null) return;
    act(() => {
      done.root.unmount();
    });
    done.container.remove();
    mounted = null;
  });
}
