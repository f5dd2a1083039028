// The question asked before a tool source may start: what exactly will run or be contacted (the
// command line with its folder and environment's names, the URL, or the relay plugin), that the URL
// is on another machine when it is, that the definition changed since it was allowed when it did,
// and how long the answer holds. Allow answers it; Cancel, which has the focus, or Escape leaves it.
import { ModalDialog } from "../shared/ModalDialog";
import type { SourceView } from "../platform";
import { allowQuestion } from "../shared/words";

export function AllowDialog({
  view,
  onAllow,
  onCancel,
}: {
  view: SourceView;
  onAllow: () => void;
  onCancel: () => void;
}) {
  const question = allowQuestion(view);
  return (
    <ModalDialog
      role="alertdialog"
      titleId="allow-source-title"
      testId="allow-dialog"
      className="allow-dialog"
      onEscape={onCancel}
    >
      {(focusFirst) => (
        <>
          <h2 id="allow-source-title">{question.title}</h2>
          {question.changed !== null && (
            <p className="allow-changed" data-testid="allow-changed">
              {question.changed}
            </p>
          )}
          <p className="allow-lead">It will run or contact:</p>
          <pre className="allow-starts" data-testid="allow-starts">
            {question.starts}
          </pre>
          {question.remote !== null && (
            <p className="allow-remote" data-testid="allow-remote">
              <strong>Another machine.</strong> {question.remote}
            </p>
          )}
          <p className="notice">{question.holds}</p>
          <div className="dialog-actions">
            <button type="button" data-testid="allow-confirm" onClick={onAllow}>
              Allow
            </button>
            <button type="button" ref={focusFirst} data-testid="allow-cancel" onClick={onCancel}>
              Cancel
            </button>
          </div>
        </>
      )}
    </ModalDialog>
  );
}
