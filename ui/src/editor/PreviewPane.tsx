// The preview pane: the prompt's token count, the offered tool names and the markdown as text (never
// parsed as HTML), or the render error in their place; a switch to show every section in full.
import { formatTokens, toolNames } from "../view";
import type { PreviewState } from "./store";

export function PreviewPane({
  preview,
  expandAll,
  onExpandAll,
}: {
  preview: PreviewState;
  expandAll: boolean;
  onExpandAll: (expandAll: boolean) => void;
}) {
  return (
    <section className="pane preview-pane" aria-label="Preview">
      <h2>Preview</h2>
      <label className="check">
        <input
          type="checkbox"
          data-testid="expand-all"
          checked={expandAll}
          onChange={(event) => {
            onExpandAll(event.target.checked);
          }}
        />{" "}
        Every section in full
      </label>
      <PreviewBody preview={preview} />
    </section>
  );
}

function PreviewBody({ preview }: { preview: PreviewState }) {
  switch (preview.kind) {
    case "loading":
      return <p className="notice">Rendering…</p>;
    case "failed":
      return (
        <div className="error" role="alert" data-testid="preview-error">
          <strong>{preview.title}</strong>
          <p>{preview.detail}</p>
        </div>
      );
    case "ready": {
      const names = toolNames(preview.preview.tools);
      return (
        <>
          <p data-testid="token-count">{formatTokens(preview.preview.prompt_tokens)}</p>
          <h3>Offered tools</h3>
          {names.length === 0 ? (
            <p data-testid="tool-list">No tools offered</p>
          ) : (
            <ul data-testid="tool-list">
              {names.map((name, index) => (
                <li key={`${String(index)}:${name}`}>{name}</li>
              ))}
            </ul>
          )}
          <h3>Prompt</h3>
          {/* A text child becomes the <pre>'s textContent: template text is never parsed as HTML. */}
          <pre data-testid="preview-markdown">{preview.preview.markdown}</pre>
        </>
      );
    }
  }
}
