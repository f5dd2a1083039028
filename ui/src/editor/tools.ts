// The edits of a tool list (the template's own or a section's), built from the document as it
// stands: remove one, move one up or down, append an imported tool, add a new blank tool under a free
// name, and replace one with what the tool editor holds; plus which imported tools can be attached
// (those whose names the template does not have yet) and which tool the editor follows when the list
// changes under it. Each builder returns null when there is nothing to do.
import type { Template, Tool, ToolOwner } from "../platform";
import { type EditRequest, sectionAt } from "../shared/template";

/** The tool list of the section at `path`. */
export function sectionOwner(path: string): ToolOwner {
  return { kind: "section", path };
}

/** The template's own tool list. */
export const TEMPLATE_OWNER: ToolOwner = { kind: "template" };

/** The tools `owner` has in `template`; undefined when it names no section. */
export function toolsOf(template: Template, owner: ToolOwner): readonly Tool[] | undefined {
  return owner.kind === "template" ? template.tools : sectionAt(template, owner.path)?.tools;
}

/** A name for `owner` that tells tool lists apart (undo groups, React keys). */
export function ownerKey(owner: ToolOwner): string {
  return owner.kind === "template" ? "template" : `section:${owner.path}`;
}

/** Removes the tool at `index`. */
export function removeToolEdit(template: Template, owner: ToolOwner, index: number): EditRequest | null {
  const tools = toolsOf(template, owner);
  if (tools === undefined || index < 0 || index >= tools.length) return null;
  return { edit: { op: "remove_tool", owner, index }, group: null };
}

/** Moves the tool at `index` one place up (-1) or down (1); null at either end. */
export function moveToolEdit(template: Template, owner: ToolOwner, index: number, step: 1 | -1): EditRequest | null {
  const tools = toolsOf(template, owner);
  const to = index + step;
  if (tools === undefined || index < 0 || index >= tools.length || to < 0 || to >= tools.length) return null;
  return { edit: { op: "move_tool", owner, from: index, to }, group: null };
}

/** Appends `tool` to the list (a step of its own). */
export function appendToolEdit(template: Template, owner: ToolOwner, tool: Tool): EditRequest | null {
  const tools = toolsOf(template, owner);
  if (tools === undefined) return null;
  return { edit: { op: "insert_tool", owner, index: tools.length, tool }, group: null };
}

/** Every tool name the template uses, its own tools' and every section's. */
export function toolNames(template: Template): Set<string> {
  const names = new Set(template.tools.map((tool) => tool.name));
  const visit = (sections: Template["sections"]) => {
    for (const section of sections) {
      for (const tool of section.tools) names.add(tool.name);
      visit(section.children);
    }
  };
  visit(template.sections);
  return names;
}

/** `new_tool`, else `new_tool_2`, `new_tool_3`, …: the first name no tool of the template has. */
export function freeToolName(template: Template): string {
  const taken = toolNames(template);
  if (!taken.has("new_tool")) return "new_tool";
  for (let n = 2; ; n++) {
    const name = `new_tool_${String(n)}`;
    if (!taken.has(name)) return name;
  }
}

/** A tool with nothing in it yet that is valid as it is: a free name and an empty object schema. */
export function blankTool(template: Template): Tool {
  return { name: freeToolName(template), description: "", parameters: { type: "object", properties: {} } };
}

/** Appends a blank tool to the list (a step of its own). */
export function addToolEdit(template: Template, owner: ToolOwner): EditRequest | null {
  return appendToolEdit(template, owner, blankTool(template));
}

/**
 * Replaces the tool at `index` with `tool`. Changes to one tool in a row undo as one step; null when
 * the tool is gone or unchanged.
 */
export function replaceToolEdit(template: Template, owner: ToolOwner, index: number, tool: Tool): EditRequest | null {
  const current = toolsOf(template, owner)?.[index];
  if (current === undefined || JSON.stringify(current) === JSON.stringify(tool)) return null;
  return { edit: { op: "replace_tool", owner, index, tool }, group: `tool/${ownerKey(owner)}/${String(index)}` };
}

/** The imported tools whose names the template does not have (the others would be refused). */
export function attachable(tools: readonly Tool[], conflicts: readonly string[]): Tool[] {
  return tools.filter((tool) => !conflicts.includes(tool.name));
}

/** A change to a tool list that moves the tools after it. */
export type ListChange = { kind: "remove"; index: number } | { kind: "move"; from: number; to: number };

/** The position of the tool the editor shows (`null`: none) once `change` is made to its list. */
export function followTool(open: number | null, change: ListChange): number | null {
  if (open === null) return null;
  if (change.kind === "remove") {
    if (open === change.index) return null;
    return open > change.index ? open - 1 : open;
  }
  if (open === change.from) return change.to;
  if (change.from < open && open <= change.to) return open - 1;
  if (change.to <= open && open < change.from) return open + 1;
  return open;
}
