// problemGroups: which groups a page lists for what is open, in which order, and the summary line.
import { describe, expect, it } from "vitest";
import type { ScenarioView } from "../platform";
import { lookupFirstScenario } from "../testing/fakeCompare";
import { problemGroups, problemsSummary, type ProblemSources } from "./problemGroups";

const problem = (message: string) => ({ location: "/x", message });

function scenario(extra: Partial<ScenarioView> = {}): ScenarioView {
  const view = { id: 1, path: "/s/lookup-first.scenario.json", dirty: false, can_undo: false, can_redo: false };
  return { ...view, problems: [], warnings: [], scenario: lookupFirstScenario(), ...extra };
}

const NOTHING: ProblemSources = { template: [], render: null, unappliedTools: [], scenario: null };

describe("problemGroups", () => {
  it("lists nothing when nothing is wrong, with or without a scenario", () => {
    expect(problemGroups(NOTHING)).toEqual([]);
    expect(problemGroups({ ...NOTHING, scenario: scenario() })).toEqual([]);
    expect(problemsSummary([])).toBe("No problems");
  });

  it("gathers every source, the template's first and the script's calls last", () => {
    const groups = problemGroups({
      template: [problem("bad key")],
      render: [{ location: "/params", message: "missing parameter 'tone'" }],
      unappliedTools: [{ name: "search", problems: [problem("not a type"), problem("no name")] }],
      scenario: scenario({ problems: [problem("unknown parameter")], warnings: [problem("no tool 'lokup'")] }),
    });
    expect(groups.map((group) => [group.kind, group.severity, group.title, group.problems.length])).toEqual([
      ["template", "error", "Template: fix these to save it", 1],
      [
        "render",
        "warning",
        "Preview: the template does not render as it stands (a scenario can set a parameter's value)",
        1,
      ],
      ["tool", "error", "Tool 'search' in the tool editor: not applied until these are fixed", 2],
      ["scenario", "error", "Scenario lookup-first.scenario.json: fix these to run it", 1],
      ["script", "warning", "Scenario lookup-first.scenario.json: these calls will fail when it runs", 1],
    ]);
    expect(problemsSummary(groups)).toBe("4 problems, 2 warnings");
  });

  it("lists a bad placeholder once: the template's problem is also why it does not render", () => {
    const placeholder = { location: "/sections/0/template", message: "invalid placeholder at line 3" };
    const groups = problemGroups({
      ...NOTHING,
      template: [placeholder],
      render: [{ ...placeholder, message: `${placeholder.message} (section 'task')` }],
    });
    expect(groups.map((group) => [group.kind, group.problems.length])).toEqual([["template", 1]]);
    expect(problemsSummary(groups)).toBe("1 problem");
  });

  it("names an untitled scenario, and counts one of a kind in the singular", () => {
    const groups = problemGroups({
      ...NOTHING,
      scenario: scenario({ path: null, warnings: [problem("no tool 'x'")] }),
    });
    expect(groups.map((group) => group.title)).toEqual(["Scenario: these calls will fail when it runs"]);
    expect(problemsSummary(groups)).toBe("1 warning");
  });
});
