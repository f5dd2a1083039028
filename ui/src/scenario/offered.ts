// What the open template offers a scenario, as plain data: every tool name a script may call (the
// template's own tools, every section's at any depth, its sources' snapshots, and the builtins its
// disclosure settings add)
// and its parameter names. The scenario panel's pickers list exactly these.
import type { Section, Template } from "../platform";

/** The builtin tools the template's settings make the model see, in the order the core offers them. */
export function builtinTools(template: Template): string[] {
  const builtins: string[] = [];
  if (template.disclosure === "read_section" || template.disclosure === "mixed") builtins.push("read_section");
  if (template.disclosure === "open_sections" || template.disclosure === "mixed") builtins.push("open_sections");
  if (template.tool_disclosure === "pick_tools") builtins.push("pick_tools");
  return builtins;
}

/**
 * Every tool name the template can offer: its own, then each section's in document order, then its
 * sources' snapshots, then the builtins; each name once. A section's tools count even while it is summarized, since the script
 * may read it first.
 */
export function offeredTools(template: Template): string[] {
  const names = template.tools.map((tool) => tool.name);
  const visit = (sections: readonly Section[]) => {
    for (const section of sections) {
      names.push(...section.tools.map((tool) => tool.name));
      visit(section.children);
    }
  };
  visit(template.sections);
  for (const source of template.sources ?? []) names.push(...(source.snapshot ?? []).map((tool) => tool.name));
  return [...new Set([...names, ...builtinTools(template)])];
}

/** The template's parameter names, in its order. */
export function templateParams(template: Template): string[] {
  return Object.keys(template.params);
}
