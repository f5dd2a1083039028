// The page: opens the launch template and shows the editor over it, or a notice, or the error that
// kept it from opening. Start-up decisions live in view.ts; the editor in editor/.
//
// data-testids (tests and the e2e test select by them; keep them stable):
//   notice, error, error-detail                   start-up notice and open failure
//   template-path                                  the file's path (toolbar, or above an open failure)
//   undo-button, redo-button, save-button          toolbar
//   dirty-marker                                   "modified" while there are unsaved changes
//   edit-failure, edit-failure-detail              why the last edit, undo, redo or save was not done
//   section-tree, section-row (data-path=<path>),  the section tree; per row: select-section,
//     select-section, toggle-visibility, tool-count  the FULL/SUMMARY toggle ("Toggle <path>"), tools
//   section-editor, field-key, field-title,        the selected section's editor
//     field-template, field-summary, field-visibility
//   problems                                       the template's problems (location + message)
//   expand-all                                     preview every section in full
//   preview-markdown, tool-list, token-count       the preview
//   preview-error                                  the preview's render error, in its place
import { useEffect, useState } from "react";
import { Editor } from "./editor/Editor";
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

  if (view.kind === "open") return <Editor platform={platform} document={view.document} />;
  return (
    <main className="app">
      <h1>Unfold</h1>
      <ViewBody view={view} />
    </main>
  );
}

function ViewBody({ view }: { view: Exclude<View, { kind: "open" }> }) {
  switch (view.kind) {
    case "loading":
      return <p className="notice">Loading…</p>;
    case "outside_tauri":
      return (
        <p className="notice" data-testid="notice">
          This page is Unfold&apos;s desktop UI: open it with the Unfold app to edit templates.
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
          {view.path !== null && (
            <p className="path">
              Template: <code data-testid="template-path">{view.path}</code>
            </p>
          )}
          <h2>{view.title}</h2>
          <p data-testid="error-detail">{view.detail}</p>
        </section>
      );
  }
}
