// Test-only: every test of a component file gets its own React root in a fresh element of
// happy-dom's document, unmounted and removed after it (React's act() environment is on: setup.ts).
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach } from "vitest";

export interface TestRoot {
  container: HTMLDivElement;
  root: Root;
}

/** Registers the hooks that mount a root before each test; `take` receives it. */
export function mountEachTest(take: (mounted: TestRoot) => void): void {
  let mounted: TestRoot | null = null;
  beforeEach(() => {
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
