// The question asked when Run is pressed and the template has tool sources the user has not allowed
// for its file as defined now: each one, with exactly what it would run or contact, another machine
// when it is one and a definition changed since allowed when it did. Allow and run allows them all
// (as the Sources panel's Allow does) and runs; Run with snapshots runs without starting them, and
// is not asked again this session for these definitions; Cancel, which has the focus, or Escape
// runs nothing. A refused Allow is shown here, and nothing runs. The answers are ComparisonStore's.
import { ModalDialog } from "../shared/ModalDialog";
import { RunQuestionAnswers } from "../shared/RunQuestionAnswers";
import type { SourcesQuestion } from "./store";
import { allowQuestion, PERMISSION_WORDS } from "../shared/words";

export function RunSourcesDialog({
  question,
  onAllow,
  onSnapshots,
  onCancel,
}: {
  question: SourcesQuestion;
  onAllow: () => void;
  onSnapshots: () => void;
  onCancel: () => void;
}) {
  const { views, allowing, failure } = question;
  const one = views.length === 1 ? views[0] : undefined;
  const title =
    one === undefined
      ? `Start ${String(views.length)} tool sources for this run?`
      : `Start source '${one.name}' for this run?`;
  return (
    <ModalDialog
      role="alertdialog"
      titleId="run-sources-title"
      testId="run-sources-dialog"
      className="run-sources-dialog"
      onEscape={onCancel}
    >
      {(focusFirst) => (
        <>
          <h2 id="run-sources-title">{title}</h2>
          <p>
            {one === undefined ? "These sources are" : "This source is"} not allowed for this file as defined now. A run
            starts only allowed sources; the others give their snapshots.
          </p>
          <ul className="run-sources-list">
            {views.map((view) => {
              const asked = allowQuestion(view);
              return (
                <li key={view.name} data-testid="run-source" data-name={view.name} data-permission={view.permission}>
                  <div className="run-source-head">
                    <strong>{view.name}</strong>
                    {asked.changed !== null && (
                      <span className="run-source-tag" data-testid="run-source-changed" title={asked.changed}>
                        {PERMISSION_WORDS.changed}
                      </span>
                    )}
                    {asked.remote !== null && (
                      <span className="run-source-tag" data-testid="run-source-remote" title={asked.remote}>
                        Another machine
                      </span>
                    )}
                  </div>
                  <pre className="run-source-starts" data-testid="run-source-starts">
                    {asked.starts}
                  </pre>
                </li>
              );
            })}
          </ul>
          {views.some((view) => view.remote) && (
            <p className="notice">
              A source on another machine, once allowed, is sent the arguments of the model&apos;s tool calls.
            </p>
          )}
          <p className="notice">
            Allowing keeps the answer for this file and definition, as the Sources panel does. Run with snapshots does
            not ask again this session until a definition changes.
          </p>
          <RunQuestionAnswers
            testId="run-sources"
            allowing={allowing}
            failure={failure}
            focusFirst={focusFirst}
            onAllow={onAllow}
            onCancel={onCancel}
          >
            <button type="button" data-testid="run-sources-snapshots" aria-disabled={allowing} onClick={onSnapshots}>
              Run with snapshots
            </button>
          </RunQuestionAnswers>
        </>
      )}
    </ModalDialog>
  );
}
