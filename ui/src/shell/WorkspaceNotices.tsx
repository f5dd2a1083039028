// The workspace's messages over the editor or the start page: the unsaved work recovered after a
// crash (restore or discard each, or put the offer away until the next start) and why an open
// failed (with every problem at its place), in one region under the toolbar; what an open said
// beside the document it opened (a skills folder's, as a toast: test id open-notice); and the
// unsaved-changes question (save, don't save, cancel), a dialog over the page.
import { ModalDialog } from "../shared/ModalDialog";
import type { RecoveredWork } from "../platform";
import { fileName } from "../shared/view";
import { FilePath } from "../shared/FilePath";
import type { OpenFailure, UnsavedQuestion, WorkspaceState, WorkspaceStore } from "./workspace";
import { ProblemItems } from "../shared/ProblemItems";
import { useDoneToast } from "../shared/ToastRegion";
import type { UnsavedAnswer } from "../scenario/store";

/**
 * The notices right under the toolbar, before the page's content: recovered work and a failed open.
 * Nothing when there are none. Its height is bounded (it scrolls), so the page stays in view.
 */
export function WorkspaceNotices({ workspace, state }: { workspace: WorkspaceStore; state: WorkspaceState }) {
  useDoneToast(state.notice, "open-notice", () => {
    workspace.noticeTaken();
  });
  const offer = state.recovered.length > 0 && !state.recoveryHidden;
  if (!offer && state.openFailure === null) return null;
  return (
    <div className="workspace-notices" data-testid="workspace-notices">
      {offer && <RecoveryOffer workspace={workspace} recovered={state.recovered} />}
      {state.openFailure !== null && (
        <OpenFailureNotice
          failure={state.openFailure}
          onDismiss={() => {
            workspace.dismissOpenFailure();
          }}
        />
      )}
    </div>
  );
}

/** When the work was kept, in the user's locale. */
function keptAt(work: RecoveredWork): string {
  return work.saved_at_ms === null
    ? "at an unknown time"
    : new Date(work.saved_at_ms).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

/** One line per recovered document: its name, when it changed, its path, Restore and Discard. */
export function RecoveryOffer({ workspace, recovered }: { workspace: WorkspaceStore; recovered: RecoveredWork[] }) {
  // A scenario is checked against, and runs on, the open template: it needs one to come back to.
  const templateOpen = workspace.editor !== null;
  return (
    <section className="recovery-offer" data-testid="recovery-offer" aria-label="Recovered work">
      <div className="recovery-offer-head">
        <h2>Unsaved work was recovered</h2>
        <button
          type="button"
          data-testid="recovery-later"
          title="Hide this until the next start: nothing is discarded"
          onClick={() => {
            workspace.hideRecovered();
          }}
        >
          Later
        </button>
      </div>
      <ul>
        {recovered.map((work) => {
          const name = work.path === null ? `Untitled ${work.kind}` : fileName(work.path);
          return (
            <li key={work.id} data-testid="recovered-item" data-path={work.path ?? ""} data-kind={work.kind}>
              <strong className="ellipsis" title={name}>
                {name}
              </strong>
              <span className="notice ellipsis">
                {work.kind} changed {keptAt(work)}
              </span>
              {work.path !== null && <FilePath path={work.path} />}
              <span className="recovered-actions">
                <button
                  type="button"
                  data-testid="restore-recovered"
                  aria-label={`Restore ${name}`}
                  disabled={work.kind === "scenario" && !templateOpen}
                  title={
                    work.kind === "scenario" && !templateOpen
                      ? "Open a template first: the scenario runs on it"
                      : undefined
                  }
                  onClick={() => void workspace.restore(work.id)}
                >
                  Restore
                </button>
                <button
                  type="button"
                  data-testid="discard-recovered"
                  aria-label={`Discard ${name}`}
                  onClick={() => void workspace.discardRecovered(work.id)}
                >
                  Discard
                </button>
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

export function OpenFailureNotice({ failure, onDismiss }: { failure: OpenFailure; onDismiss: () => void }) {
  return (
    <section className="error" role="alert" data-testid="error">
      {failure.path !== null && (
        <p className="path">
          Template: <code data-testid="error-path">{failure.path}</code>
        </p>
      )}
      <h2>{failure.title}</h2>
      <p data-testid="error-detail" className="error-detail">
        {failure.detail}
      </p>
      {failure.problems.length > 0 && (
        <ProblemItems problems={failure.problems} whole="template" testId="error-problems" />
      )}
      <button type="button" onClick={onDismiss}>
        Dismiss
      </button>
    </section>
  );
}

const QUESTIONS: Record<UnsavedQuestion["reason"], string> = {
  switch: "before opening another one?",
  close: "before closing?",
};

export function UnsavedDialog({
  question,
  onAnswer,
}: {
  question: UnsavedQuestion;
  onAnswer: (answer: UnsavedAnswer) => void;
}) {
  return (
    <ModalDialog
      role="alertdialog"
      titleId="unsaved-title"
      testId="unsaved-dialog"
      onEscape={() => {
        onAnswer("cancel");
      }}
    >
      {(focusFirst) => (
        <>
          <h2 id="unsaved-title">
            Save the changes to {question.name} {QUESTIONS[question.reason]}
          </h2>
          <p>If you don&apos;t save, your changes will be lost.</p>
          <div className="dialog-actions">
            <button
              type="button"
              ref={focusFirst}
              data-testid="unsaved-save"
              onClick={() => {
                onAnswer("save");
              }}
            >
              Save
            </button>
            <button
              type="button"
              data-testid="unsaved-discard"
              onClick={() => {
                onAnswer("discard");
              }}
            >
              Don&apos;t save
            </button>
            <button
              type="button"
              data-testid="unsaved-cancel"
              onClick={() => {
                onAnswer("cancel");
              }}
            >
              Cancel
            </button>
          </div>
        </>
      )}
    </ModalDialog>
  );
}
