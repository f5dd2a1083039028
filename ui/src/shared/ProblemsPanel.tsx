// The Problems panel: every group of `problemGroups` with its title and each problem at its place,
// or "No problems". Both pages show it, so whatever is wrong is in one list wherever the user is.
//
// data-testids: problems-panel (data-count: problems and warnings in all), problems-summary,
// problem-group (data-group=template|render|tool|scenario|script, data-severity=error|warning).
import { ProblemItems } from "./ProblemItems";
import { PROBLEMS_PANEL_ID, problemsSummary, type ProblemGroup } from "./problemGroups";
import "./problems.css";

export function ProblemsPanel({ groups }: { groups: readonly ProblemGroup[] }) {
  const count = groups.reduce((sum, group) => sum + group.problems.length, 0);
  return (
    // Focusable, so the header's problems button can take the user here.
    <section
      className="problems"
      aria-label="Problems"
      data-testid="problems-panel"
      data-count={count}
      id={PROBLEMS_PANEL_ID}
      tabIndex={-1}
    >
      <h2>
        Problems{" "}
        <span className="problems-summary" data-testid="problems-summary">
          {count === 0 ? "" : problemsSummary(groups)}
        </span>
      </h2>
      {count === 0 ? (
        <p className="notice">No problems</p>
      ) : (
        groups.map((group) => (
          <div
            key={`${group.kind}:${group.title}`}
            className={`problem-group ${group.severity}`}
            data-testid="problem-group"
            data-group={group.kind}
            data-severity={group.severity}
          >
            <h3>{group.title}</h3>
            <ProblemItems problems={group.problems} whole={group.whole} />
          </div>
        ))
      )}
    </section>
  );
}
