// The page: shows the opened template's path and its preview (markdown as text, tool names, token
// count), an error, or a notice outside Tauri. All decisions live in view.ts.
import { useEffect, useState } from "react";
import type { Platform } from "./platform";
import { loadInitialView, type View } from "./view";

export function App({ platform }: { platform: Platform }) {
  const [view, setView] = useState<View>({ kind: "loading" });

  useEffect(() => {
    let live = true;
    void loadInitialView(platform).then((next) => {
      if (live) setView(next);
    });
    return () => {
      live = false;
    };
  }, [platform]);

  return (
    <main className="app">
      <h1>Unfold</h1>
      <ViewBody view={view} />
    </main>
  );
}

function ViewBody({ view }: { view: View }) {
  switch (view.kind) {
    case "loading":
      return <p className="notice">Loading…</p>;
    case "outside_tauri":
      return (
        <p className="notice" data-testid="notice">
          This page is Unfold&apos;s desktop UI: open it with the Unfold app to preview templates.
        </p>
      );
    case "no_template":
      return (
        <p className="notice" data-testid="notice">
          No template opened. Start the app with a template path, e.g.{" "}
          <code>unfold-app examples/task-executor.unfold.json</code>
        </p>
      );
    case "error":
      return (
        <section className="error" role="alert" data-testid="error">
          {view.path !== null && <TemplatePath path={view.path} />}
          <h2>{view.title}</h2>
          <p data-testid="error-detail">{view.detail}</p>
        </section>
      );
    case "preview":
      return (
        <section className="preview">
          <TemplatePath path={view.path} />
          <p data-testid="token-count">{view.tokens}</p>
          <h2>Offered tools</h2>
          {view.toolNames.length === 0 ? (
            <p data-testid="tool-list">No tools offered</p>
          ) : (
            <ul data-testid="tool-list">
              {view.toolNames.map((name, index) => (
                <li key={`${String(index)}:${name}`}>{name}</li>
              ))}
            </ul>
          )}
          <h2>Prompt</h2>
          {/* A text child becomes the <pre>'s textContent: model and template text is never parsed as HTML. */}
          <pre data-testid="preview-markdown">{view.markdown}</pre>
        </section>
      );
  }
}

function TemplatePath({ path }: { path: string }) {
  return (
    <p className="path">
      Template: <code data-testid="template-path">{path}</code>
    </p>
  );
}
