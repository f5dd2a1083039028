// Every problem the open work has, gathered in one list of groups by where it comes from: the
// template's own (saving is refused), the preview's (the template does not render as it stands), a
// tool edited but not applied, the scenario's own (it does not run) and its script's calls that will
// fail when it runs. The editor's Problems panel and the scenario panel both show this list, so no
// page says "No problems" while another part of the app knows of one.
import type { ProblemView, ScenarioView } from "../platform";
import { fileName } from "./view";

/** The id of the page's Problems panel, which the header's problems button brings into view. */
export const PROBLEMS_PANEL_ID = "problems-panel";

/** An error stops something (a save, a run); a warning says what will go wrong. */
export type Severity = "error" | "warning";

/** Where a group of problems comes from (its `data-group` in the page). */
export type GroupKind = "template" | "render" | "tool" | "scenario" | "script";

export interface ProblemGroup {
  kind: GroupKind;
  severity: Severity;
  /** What the problems are about and what they stop, in words. */
  title: string;
  /** The place a problem about the whole document is shown at ("template", "scenario", …). */
  whole: string;
  problems: ProblemView[];
}

/** A tool edited in the tool editor whose draft has problems, so it was not applied. */
export interface UnappliedTool {
  name: string;
  problems: ProblemView[];
}

/** What the groups are gathered from; `null` where there is nothing of the kind open. */
export interface ProblemSources {
  template: ProblemView[];
  /** Why the preview does not render, or null while it does (or is loading). */
  render: ProblemView[] | null;
  unappliedTools: readonly UnappliedTool[];
  scenario: ScenarioView | null;
}

/**
 * The render's problems the template's own do not already say: a bad placeholder is the
 * template's problem and the reason it does not render, and is listed once.
 */
export function renderOnlyProblems(template: readonly ProblemView[], render: readonly ProblemView[]): ProblemView[] {
  const placed = new Set(template.map((problem) => problem.location));
  return render.filter((problem) => !placed.has(problem.location));
}

/** The non-empty groups, errors of a document before its warnings. */
export function problemGroups(sources: ProblemSources): ProblemGroup[] {
  const { template, unappliedTools, scenario } = sources;
  const render = sources.render === null ? null : renderOnlyProblems(template, sources.render);
  const groups: ProblemGroup[] = [
    {
      kind: "template",
      severity: "error",
      title: "Template: fix these to save it",
      whole: "template",
      problems: template,
    },
    {
      kind: "render",
      severity: "warning",
      title: "Preview: the template does not render as it stands (a scenario can set a parameter's value)",
      whole: "template",
      problems: render ?? [],
    },
    ...unappliedTools.map((tool): ProblemGroup => ({
      kind: "tool",
      severity: "error",
      title: `Tool '${tool.name}' in the tool editor: not applied until these are fixed`,
      whole: "tool",
      problems: tool.problems,
    })),
  ];
  if (scenario !== null) {
    const name = scenario.path === null ? "Scenario" : `Scenario ${fileName(scenario.path)}`;
    groups.push(
      {
        kind: "scenario",
        severity: "error",
        title: `${name}: fix these to run it`,
        whole: "scenario",
        problems: scenario.problems,
      },
      {
        kind: "script",
        severity: "warning",
        title: `${name}: these calls will fail when it runs`,
        whole: "scenario",
        problems: scenario.warnings,
      },
    );
  }
  return groups.filter((group) => group.problems.length > 0);
}

/** How many problems the groups hold, in words: "No problems", "1 problem", "2 problems, 1 warning". */
export function problemsSummary(groups: readonly ProblemGroup[]): string {
  const total = (severity: Severity) =>
    groups.filter((group) => group.severity === severity).reduce((sum, group) => sum + group.problems.length, 0);
  const [errors, warnings] = [total("error"), total("warning")];
  if (errors + warnings === 0) return "No problems";
  const parts = [counted(errors, "problem"), counted(warnings, "warning")].filter((part) => part !== null);
  return parts.join(", ");
}

function counted(count: number, noun: string): string | null {
  if (count === 0) return null;
  return `${String(count)} ${noun}${count === 1 ? "" : "s"}`;
}
