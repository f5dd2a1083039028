// A failed action of the Sources tab, shown where it happened, until dismissed.
import type { ActionFailure } from "./failure";

export function FailureNotice({
  failure,
  testId,
  onDismiss,
}: {
  failure: ActionFailure;
  testId: string;
  onDismiss: () => void;
}) {
  return (
    <div className="error failure" role="alert" data-testid={testId}>
      <strong>{failure.title}</strong>
      <span>{failure.detail}</span>
      <button type="button" onClick={onDismiss}>
        Dismiss
      </button>
    </div>
  );
}
