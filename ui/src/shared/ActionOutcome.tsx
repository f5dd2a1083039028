// Why the last action a page was asked for was not done, said where the page shows it: an alert
// with its title, detail and every problem at its place, which waits until the user dismisses it.
// The editor, the Sources tab, the History, the Suites page and the Export menu say theirs so; what
// was done is a toast instead (ToastRegion.tsx), gone by itself.
import type { BriefFailure, Failure } from "./failure";
import { ProblemItems } from "./ProblemItems";

/**
 * `failure` as an alert; `whole` names the place of a problem about the whole file (a brief failure
 * lists none); `detailTestId` marks the detail for a test that reads it alone.
 */
export function FailureAlert({
  failure,
  whole = "",
  testId,
  detailTestId,
  onDismiss,
}: {
  failure: Failure | BriefFailure;
  whole?: string;
  testId: string;
  detailTestId?: string;
  onDismiss: () => void;
}) {
  const problems = "problems" in failure ? failure.problems : [];
  return (
    <div className="error failure" role="alert" data-testid={testId}>
      <strong>{failure.title}</strong>
      <span data-testid={detailTestId}>{failure.detail}</span>
      {problems.length > 0 && <ProblemItems problems={problems} whole={whole} testId={`${testId}-problems`} />}
      <button type="button" onClick={onDismiss}>
        Dismiss
      </button>
    </div>
  );
}
