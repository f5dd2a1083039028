// What became of the last action a page was asked for, said where the page shows it: a failure (an
// alert with its title, detail and every problem at its place) or a short notice of what was done
// ("Exported to …"); the user dismisses either. The editor, the Sources tab, the History, the Suites
// page and the Export menu say theirs so.
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

/** What was done, in a few words. */
export function DoneNotice({ text, testId, onDismiss }: { text: string; testId: string; onDismiss: () => void }) {
  return (
    <div className="notice failure" role="status" data-testid={testId}>
      <span>{text}</span>
      <button type="button" onClick={onDismiss}>
        Dismiss
      </button>
    </div>
  );
}
