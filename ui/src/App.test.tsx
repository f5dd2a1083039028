// Renders <App> in happy-dom with a fake platform: the preview's text is shown as text (never as
// HTML) and errors are shown with their message.
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { App } from "./App";
import type { Outcome, Platform, PreviewDto } from "./platform";

declare global {
  var IS_REACT_ACT_ENVIRONMENT: boolean | undefined;
}

let container: HTMLDivElement;
let root: Root;

beforeEach(() => {
  globalThis.IS_REACT_ACT_ENVIRONMENT = true;
  container = document.createElement("div");
  document.body.append(container);
  root = createRoot(container);
});

afterEach(() => {
  act(() => {
    root.unmount();
  });
  container.remove();
});

function platformReturning(preview: Outcome<PreviewDto>): Platform {
  return {
    isTauri: () => true,
    initialTemplatePath: () => Promise.resolve({ ok: true, value: "/t/x.unfold.json" }),
    previewTemplate: () => Promise.resolve(preview),
  };
}

async function renderApp(platform: Platform): Promise<void> {
  await act(async () => {
    root.render(<App platform={platform} />);
    await Promise.resolve();
  });
}

function byTestId(id: string): Element {
  const element = container.querySelector(`[data-testid="${id}"]`);
  if (element === null) throw new Error(`no element with data-testid=${id} in ${container.innerHTML}`);
  return element;
}

describe("App", () => {
  it("shows markup in the template as literal text", async () => {
    const markdown = '## 1 Task\n<img src=x onerror="alert(1)">';
    await renderApp(
      platformReturning({ ok: true, value: { markdown, tools: [], prompt_tokens: 3 } }),
    );
    const pre = byTestId("preview-markdown");
    expect(pre.textContent).toBe(markdown);
    expect(pre.querySelector("img")).toBeNull();
    expect(byTestId("template-path").textContent).toBe("/t/x.unfold.json");
    expect(byTestId("tool-list").textContent).toBe("No tools offered");
    expect(byTestId("token-count").textContent).toBe("3 prompt tokens");
  });

  it("shows the backend's error message", async () => {
    await renderApp(
      platformReturning({
        ok: false,
        error: { code: "invalid_template", message: "/t/x.unfold.json: expected value at line 1", problems: [] },
      }),
    );
    expect(byTestId("error-detail").textContent).toBe("/t/x.unfold.json: expected value at line 1");
  });
});
