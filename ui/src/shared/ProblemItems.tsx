// A list of problems, each at its place (a JSON pointer, or a line and column) with what is wrong;
// the editor, the tool editor, a tool import, a failed open and the scenario panel all list them so.
import type { ProblemView } from "../platform";

/**
 * `problems` as a list; `whole` names the place of a problem about the whole document ("template",
 * "scenario", "tool", …).
 */
export function ProblemItems({
  problems,
  whole,
  testId,
  className,
  label,
}: {
  problems: readonly ProblemView[];
  whole: string;
  testId?: string;
  className?: string;
  /** The list's accessible name. */
  label?: string;
}) {
  return (
    <ul data-testid={testId} className={className} aria-label={label}>
      {problems.map((problem, index) => (
        <li key={`${String(index)}:${problem.location}`}>
          <code>{problem.location === "" ? whole : problem.location}</code> {problem.message}
        </li>
      ))}
    </ul>
  );
}
