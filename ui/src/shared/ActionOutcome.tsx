// What became of the last action a page was asked for, said where the page shows it: a failure (an
// alert with its title, detail and every problem at its place) or a short notice of what was done
// ("Exported to …"); the user dismisses either. The History, the Suites page and the Export menu
// say theirs so.
import type { Failure } from "../compare/store";
import { ProblemItems } from "./ProblemItems";

/** `failure` as an alert; `whole` names the place of a problem about the whole file. */
export function FailureAlert({
  failure,
  whole,
  testId,
  onDismiss,
}: {
  failure: Failure;
  whole: string;
  testId: string;
  onDismiss: () => void;
}) {
  return (
    <div className="error failure" role="alert" data-testid={testId}>
      <strong>{failure.title}</strong>
      <span>{failure.detail}</span>
      {failure.problems.length > 0 && (
        <ProblemItems problems={failure.problems} whole={whole} testId={`${testId}-problems`} />
      )}
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
