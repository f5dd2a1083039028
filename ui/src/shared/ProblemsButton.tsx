// The header's count of problems and warnings, on every page that lists them: a click brings the
// Problems panel into view and gives it the focus, wherever it is on the page. Nothing when all is well.
//
// data-testid: problems-button (data-severity=error|warning: the worst there is).
import { TriangleAlert } from "lucide-react";
import { PROBLEMS_PANEL_ID, problemsSummary, type ProblemGroup } from "./problemGroups";
import "./problems.css";

export function ProblemsButton({ groups }: { groups: readonly ProblemGroup[] }) {
  if (groups.length === 0) return null;
  const severity = groups.some((group) => group.severity === "error") ? "error" : "warning";
  const summary = problemsSummary(groups);
  return (
    <button
      type="button"
      className={`problems-button ${severity}`}
      data-testid="problems-button"
      data-severity={severity}
      title={`${summary}: show the list`}
      onClick={() => {
        const panel = document.getElementById(PROBLEMS_PANEL_ID);
        panel?.scrollIntoView({ block: "nearest" });
        panel?.focus();
      }}
    >
      <TriangleAlert aria-hidden="true" />
      {summary}
    </button>
  );
}
