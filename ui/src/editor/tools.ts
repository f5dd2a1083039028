// The edits of a section's tool list, built from the document as it stands: remove one, move one up
// or down, and append an imported tool; plus which imported tools can be attached (those whose names
// the template does not have yet). Each builder returns null when there is nothing to do.
import type { Template, Tool } from "../platform";
import type { EditRequest } from "./edits";
import { sectionAt } from "./tree";

/** The tool list of the section at `path`. */
function owner(path: string): { kind: "section"; path: string } {
  return { kind: "section", path };
}

/** Removes the section's tool at `index`. */
export function removeToolEdit(template: Template, path: string, index: number): EditRequest | null {
  const tools = sectionAt(template, path)?.tools;
  if (tools === undefined || index < 0 || index >= tools.length) return null;
  return { edit: { op: "remove_tool", owner: owner(path), index }, group: null };
}

/** Moves the section's tool at `index` one place up (-1) or down (1); null at either end. */
export function moveToolEdit(template: Template, path: string, index: number, step: 1 | -1): EditRequest | null {
  const tools = sectionAt(template, path)?.tools;
  const to = index + step;
  if (tools === undefined || index < 0 || index >= tools.length || to < 0 || to >= tools.length) return null;
  return { edit: { op: "move_tool", owner: owner(path), from: index, to }, group: null };
}

/** Appends `tool` to the section's tools (a step of its own). */
export function appendToolEdit(template: Template, path: string, tool: Tool): EditRequest | null {
  const tools = sectionAt(template, path)?.tools;
  if (tools === undefined) return null;
  return { edit: { op: "insert_tool", owner: owner(path), index: tools.length, tool }, group: null };
}

/** The imported tools whose names the template does not have (the others would be refused). */
export function attachable(tools: readonly Tool[], conflicts: readonly string[]): Tool[] {
  return tools.filter((tool) => !conflicts.includes(tool.name));
}
