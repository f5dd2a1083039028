// What the open template offers a scenario, as plain data: every tool a script may call (the
// template's own tools, every section's at any depth, its sources' snapshots, and the builtins its
// disclosure settings add) with the schema of its arguments and what answers it in a scripted run,
// and its parameter names. The scenario panel's pickers list exactly these; its argument forms and
// its "no mock" flags read the rest.
import type { JsonValue, Scenario, Section, Template, Tool } from "../platform";

/**
 * What answers a call in a scripted run when the scenario has no results for its tool: the session
 * (a builtin), the tool's mock, its source (only when the run may start it), or nothing (the call fails).
 */
export type Answerer = "session" | "mock" | "source" | "nothing";

/** A tool a script may call. */
export interface OfferedTool {
  name: string;
  /** The JSON Schema of its arguments; null for a builtin, whose schema the core writes. */
  parameters: JsonValue | null;
  answerer: Answerer;
}

/** The builtin tools the template's settings make the model see, in the order the core offers them. */
export function builtinTools(template: Template): string[] {
  const builtins: string[] = [];
  if (template.disclosure === "read_section" || template.disclosure === "mixed") builtins.push("read_section");
  if (template.disclosure === "open_sections" || template.disclosure === "mixed") builtins.push("open_sections");
  if (template.tool_disclosure === "pick_tools") builtins.push("pick_tools");
  return builtins;
}

/** A tool as written, offered; `otherwise` answers it when it has no mock. */
function offered(tool: Tool, otherwise: Answerer): OfferedTool {
  return { name: tool.name, parameters: tool.parameters, answerer: tool.mock === undefined ? otherwise : "mock" };
}

/**
 * Every tool the template can offer: its own, then each section's in document order, then its
 * sources' snapshots, then the builtins; each name once (its first place). A section's tools count
 * even while it is summarized, since the script may read it first.
 */
export function offeredTools(template: Template): OfferedTool[] {
  const tools = template.tools.map((tool) => offered(tool, "nothing"));
  const visit = (sections: readonly Section[]) => {
    for (const section of sections) {
      tools.push(...section.tools.map((tool) => offered(tool, "nothing")));
      visit(section.children);
    }
  };
  visit(template.sections);
  for (const source of template.sources ?? []) {
    tools.push(...(source.snapshot ?? []).map((tool) => offered(tool, "source")));
  }
  tools.push(...builtinTools(template).map((name): OfferedTool => ({ name, parameters: null, answerer: "session" })));
  return tools.filter((tool, index) => tools.findIndex((other) => other.name === tool.name) === index);
}

/** The tool a call names: the template's, else the last one a tool change adds; null when neither. */
export function calledTool(scenario: Scenario, tools: readonly OfferedTool[], name: string): OfferedTool | null {
  const added = (scenario.tool_changes ?? []).flatMap((change) => change.add).filter((tool) => tool.name === name);
  const last = added.at(-1);
  return tools.find((tool) => tool.name === name) ?? (last === undefined ? null : offered(last, "nothing"));
}

/**
 * Whether a scripted run may have nothing to answer `tool` with: the scenario holds no results for
 * it and neither the session nor a mock answers it (a source does only when it may be started).
 */
export function lacksMock(scenario: Scenario, tool: OfferedTool): boolean {
  const scripted = Object.prototype.hasOwnProperty.call(scenario.tool_results ?? {}, tool.name);
  return !scripted && (tool.answerer === "nothing" || tool.answerer === "source");
}

/** The template's parameter names, in its order. */
export function templateParams(template: Template): string[] {
  return Object.keys(template.params);
}
