// A text field for a template's text (a section's title, body and summary, a tool's fields): its
// editor (CodeEditor, CodeMirror) once that chunk is loaded, and its text as it will show until
// then. CodeMirror is a third of the first screen's script, and making its views takes a fifth of
// drawing the Edit page: as a chunk of its own, loaded once the first screen is painted, it keeps
// that screen (the tree, the preview, the fields' text) from waiting for it.
import type { CSSProperties } from "react";
import { Deferred } from "../shared/Deferred";
import { DeferredModule } from "../shared/DeferredModule";
import type { CodeFieldProps } from "./CodeEditor";

export type { CodeFieldProps };

export const codeEditorModule = new DeferredModule(() => import("./CodeEditor"));

/** A controlled text field (`value` in, the whole text out through `onChange` on every change). */
export function CodeField(props: CodeFieldProps) {
  return (
    <Deferred
      module={codeEditorModule}
      show={(loaded) => <loaded.CodeEditor {...props} />}
      meanwhile={<CodeFieldText {...props} />}
    />
  );
}

/**
 * The field's text until its editor is loaded, in the editor's own elements and classes, so that
 * it has the editor's size and look (index.css): the page does not move when the editor takes its
 * place. It takes no keys, and has no test id: what waits for the field waits for the editor.
 */
export function CodeFieldText({ value, label, singleLine = false, rows = 1, placeholder }: CodeFieldProps) {
  const style = { "--code-field-rows": String(rows) } as CSSProperties;
  return (
    <div className="code-field" style={style} aria-busy="true">
      <div className="cm-editor">
        <div className="cm-scroller">
          <div
            className="cm-content cm-lineWrapping"
            role="textbox"
            aria-label={label}
            aria-readonly="true"
            aria-multiline={singleLine ? "false" : "true"}
          >
            {value === "" && placeholder !== undefined ? (
              <div className="cm-line">
                <span className="cm-placeholder">{placeholder}</span>
              </div>
            ) : (
              value.split("\n").map((line, index) => (
                <div className="cm-line" key={index}>
                  {line === "" ? <br /> : line}
                </div>
              ))
            )}
          </div>
        </div>
      </div>
    </div>
  );
}
