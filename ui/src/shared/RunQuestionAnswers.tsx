// The end of a question Run asks before it starts something (the sources, the real hosts): why
// allowing failed, if it did, and the answers: Allow and run, any other the question offers, and
// Cancel, which has the focus. None is disabled while allowing, so the focus stays: the store
// ignores the answers meanwhile.
import type { ReactNode, RefObject } from "react";
import type { Failure } from "./failure";

export function RunQuestionAnswers({
  testId,
  allowing,
  failure,
  focusFirst,
  onAllow,
  onCancel,
  children,
}: {
  /** What the answers' test ids start with (`run-sources`: `run-sources-allow`, …). */
  testId: string;
  allowing: boolean;
  failure: Failure | null;
  focusFirst: RefObject<HTMLButtonElement | null>;
  onAllow: () => void;
  onCancel: () => void;
  /** The answers between Allow and run and Cancel. */
  children?: ReactNode;
}) {
  return (
    <>
      {failure !== null && (
        <p className="error run-sources-failure" role="alert" data-testid={`${testId}-failure`}>
          <strong>{failure.title}</strong> {failure.detail}
        </p>
      )}
      <div className="dialog-actions">
        <button
          type="button"
          className="primary"
          data-testid={`${testId}-allow`}
          aria-disabled={allowing}
          onClick={onAllow}
        >
          {allowing ? "Allowing…" : "Allow and run"}
        </button>
        {children}
        <button
          type="button"
          ref={focusFirst}
          data-testid={`${testId}-cancel`}
          aria-disabled={allowing}
          onClick={onCancel}
        >
          Cancel
        </button>
      </div>
    </>
  );
}
