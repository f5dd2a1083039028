// Tests for Deferred.tsx: a deferred view is drawn once its module is there (what stands in for it
// before, the module imported only once that is painted), imported once however often it is
// shown, drawn at once when preloaded, and says so when it cannot be loaded.
import { act, type ReactNode } from "react";
import type { Root } from "react-dom/client";
import { describe, expect, it } from "vitest";
import { Deferred } from "./Deferred";
import { DeferredModule } from "./DeferredModule";
import { mountEachTest } from "../testing/testRoot";

let container: HTMLDivElement;
let root: Root;

mountEachTest((mounted) => {
  ({ container, root } = mounted);
});

interface GreetingModule {
  Greeting: (props: { name: string }) => ReactNode;
}

/** A module whose import the test settles, counting the imports asked for. */
function heldModule() {
  let settle: { resolve: (module: GreetingModule) => void; reject: (error: Error) => void } | null = null;
  const imports = { count: 0 };
  const module = new DeferredModule<GreetingModule>(() => {
    imports.count += 1;
    return new Promise((resolve, reject) => {
      settle = { resolve, reject };
    });
  });
  const greeting: GreetingModule = { Greeting: ({ name }) => <p data-testid="greeting">Hello {name}</p> };
  return {
    module,
    imports,
    resolve: () => settle?.resolve(greeting),
    reject: (message: string) => settle?.reject(new Error(message)),
  };
}

function show(module: DeferredModule<GreetingModule>, name = "Ada", meanwhile?: ReactNode): void {
  act(() => {
    root.render(<Deferred module={module} show={(loaded) => <loaded.Greeting name={name} />} meanwhile={meanwhile} />);
  });
}

/** Settles once the next frame is painted (a task queued from its animation callback has run). */
function nextFramePainted(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

describe("Deferred", () => {
  it("draws nothing until the module is there, then the view with the props of its latest showing", async () => {
    const held = heldModule();
    show(held.module);
    expect(container.textContent).toBe("");
    show(held.module, "Grace");
    await act(async () => {
      const loading = held.module.load();
      held.resolve();
      await loading;
    });
    expect(container.querySelector('[data-testid="greeting"]')?.textContent).toBe("Hello Grace");
    expect(held.imports.count).toBe(1);
  });

  it("draws what stands in meanwhile, and imports the module only once that is painted", async () => {
    const held = heldModule();
    show(held.module, "Ada", <p data-testid="meanwhile">Ada</p>);
    expect(container.querySelector('[data-testid="meanwhile"]')?.textContent).toBe("Ada");
    expect(held.imports.count).toBe(0);
    await act(nextFramePainted);
    expect(held.imports.count).toBe(1);
    await act(async () => {
      held.resolve();
      await held.module.load();
    });
    expect(container.querySelector('[data-testid="meanwhile"]')).toBeNull();
    expect(container.querySelector('[data-testid="greeting"]')?.textContent).toBe("Hello Ada");
  });

  it("draws a preloaded view at once, without importing it again", async () => {
    const held = heldModule();
    const loading = held.module.load();
    held.resolve();
    await loading;
    show(held.module);
    expect(container.querySelector('[data-testid="greeting"]')?.textContent).toBe("Hello Ada");
    expect(held.imports.count).toBe(1);
  });

  it("says why a view could not be loaded instead of staying blank", async () => {
    const held = heldModule();
    show(held.module);
    await act(async () => {
      const loading = held.module.load();
      held.reject("chunk missing");
      await loading;
    });
    const failure = container.querySelector('[data-testid="view-load-failure"]');
    expect(failure?.textContent).toContain("chunk missing");
    expect(failure?.getAttribute("role")).toBe("alert");
  });
});
