// Test-only: an in-memory Platform that imitates the backend's editor closely enough for the UI's
// tests (section field edits, renames, inserts, removals and moves with their checks; settings,
// parameters and tool edits; grouped undo and redo, dirty state, save, a preview whose tools follow
// visibility and whose summary lines name the disclosure tool; a tool import that tells the three
// formats apart and names conflicts) and records every call.
import type {
  DocumentView,
  ImportedTools,
  Outcome,
  Platform,
  PlatformError,
  PreviewDto,
  Section,
  Template,
  TemplateEdit,
  Tool,
} from "../platform";

/** The example template's shape (examples/task-executor.unfold.json), trimmed. */
export function exampleTemplate(): Template {
  const tool = (name: string) => ({ name, description: `${name} things`, parameters: { type: "object" } });
  const section = (key: string, title: string, rest: Partial<Section> = {}): Section => ({
    key,
    title,
    template: `${title} body`,
    visibility: "full",
    tools: [],
    children: [],
    ...rest,
  });
  return {
    schema_version: 1,
    kind: "unfold.template",
    ns: "agents/assistant",
    key: "task-executor",
    name: "Task executor",
    disclosure: "read_section",
    tool_disclosure: "full",
    heading: "plain",
    params: { objective: "Refactor" },
    tools: [tool("lookup")],
    sections: [
      section("task", "Task", { template: "Complete the following: ${objective}" }),
      section("context", "Project Context", {
        summary: "Docs are available.",
        visibility: "summary",
        tools: [tool("search"), tool("cite")],
        children: [section("examples", "Examples"), section("history", "History")],
      }),
      section("style", "Style Guide", { visibility: "summary", summary: "A style guide." }),
    ],
  };
}

export interface Call {
  name: keyof Platform;
  args: unknown[];
}

type Step = { template: Template; group: string | null };

export class FakePlatform implements Platform {
  readonly calls: Call[] = [];
  /** What `saveDocument` wrote, as JSON text, by path. */
  readonly files = new Map<string, string>();
  template: Template;
  private saved: Template;
  private undoStack: Step[] = [];
  private redoStack: Step[] = [];
  private openGroup: string | null = null;
  /** Makes the next calls of a command fail with this error. */
  readonly failures = new Map<keyof Platform, PlatformError>();

  constructor(
    readonly path = "/t/task.unfold.json",
    template: Template = exampleTemplate(),
  ) {
    this.template = template;
    this.saved = template;
  }

  private record(name: keyof Platform, ...args: unknown[]): PlatformError | undefined {
    this.calls.push({ name, args });
    return this.failures.get(name);
  }

  /** The names of the calls made so far. */
  callNames(): string[] {
    return this.calls.map((call) => call.name);
  }

  /** The arguments of the calls of one command. */
  argsOf(name: keyof Platform): unknown[][] {
    return this.calls.filter((call) => call.name === name).map((call) => call.args);
  }

  view(): DocumentView {
    return {
      id: 1,
      path: this.path,
      dirty: this.template !== this.saved,
      can_undo: this.undoStack.length > 0,
      can_redo: this.redoStack.length > 0,
      problems: [],
      template: this.template,
    };
  }

  isTauri(): boolean {
    return true;
  }

  initialTemplatePath(): Promise<Outcome<string | null>> {
    const error = this.record("initialTemplatePath");
    return Promise.resolve(error ? { ok: false, error } : { ok: true, value: this.path });
  }

  openDocument(path: string): Promise<Outcome<DocumentView>> {
    const error = this.record("openDocument", path);
    return Promise.resolve(error ? { ok: false, error } : { ok: true, value: this.view() });
  }

  applyEdit(id: number, edit: TemplateEdit, group: string | null): Promise<Outcome<DocumentView>> {
    const failure = this.record("applyEdit", id, edit, group);
    if (failure) return Promise.resolve({ ok: false, error: failure });
    const next = structuredClone(this.template);
    const refused = applyTo(next, edit);
    if (refused !== null) {
      return Promise.resolve({ ok: false, error: { code: "invalid_edit", message: refused, problems: [] } });
    }
    const joins = group !== null && group === this.openGroup && this.undoStack.length > 0;
    if (!joins) this.undoStack.push({ template: this.template, group });
    this.redoStack = [];
    this.openGroup = group;
    this.template = next;
    return Promise.resolve({ ok: true, value: this.view() });
  }

  undo(id: number): Promise<Outcome<DocumentView>> {
    const error = this.record("undo", id);
    if (error) return Promise.resolve({ ok: false, error });
    const step = this.undoStack.pop();
    if (step !== undefined) {
      this.redoStack.push({ template: this.template, group: null });
      this.template = step.template;
    }
    this.openGroup = null;
    return Promise.resolve({ ok: true, value: this.view() });
  }

  redo(id: number): Promise<Outcome<DocumentView>> {
    const error = this.record("redo", id);
    if (error) return Promise.resolve({ ok: false, error });
    const step = this.redoStack.pop();
    if (step !== undefined) {
      this.undoStack.push({ template: this.template, group: null });
      this.template = step.template;
    }
    this.openGroup = null;
    return Promise.resolve({ ok: true, value: this.view() });
  }

  saveDocument(id: number, path: string | null): Promise<Outcome<DocumentView>> {
    const error = this.record("saveDocument", id, path);
    if (error) return Promise.resolve({ ok: false, error });
    this.files.set(path ?? this.path, JSON.stringify(this.template));
    this.saved = this.template;
    this.openGroup = null;
    return Promise.resolve({ ok: true, value: this.view() });
  }

  importTools(id: number, text: string): Promise<Outcome<ImportedTools>> {
    const error = this.record("importTools", id, text);
    if (error) return Promise.resolve({ ok: false, error });
    return Promise.resolve(importToolsFrom(this.template, text));
  }

  previewDocument(id: number, expand: string[], expandAll: boolean): Promise<Outcome<PreviewDto>> {
    const error = this.record("previewDocument", id, expand, expandAll);
    if (error) return Promise.resolve({ ok: false, error });
    const names = this.template.tools.map((tool) => tool.name);
    const builtin = this.template.disclosure === "open_sections" ? "open_sections" : "read_section";
    const lines: string[] = [];
    const summarized: string[] = [];
    const visit = (sections: Section[]) => {
      for (const section of sections) {
        if (section.visibility === "summary" && !expandAll) {
          summarized.push(section.key);
          const children = section.children.map((child) => child.key);
          lines.push(`## ${section.title}`, section.summary ?? "", `[Summarized: call \`${builtin}\`]`);
          if (children.length > 0) lines.push(`(subsections: ${children.join(", ")})`);
          continue;
        }
        lines.push(`## ${section.title}`, section.template);
        names.push(...section.tools.map((tool) => tool.name));
        visit(section.children);
      }
    };
    visit(this.template.sections);
    if (summarized.length > 0) names.push(builtin);
    const tools = names.map((name) => ({ type: "function", function: { name } }));
    const markdown = lines.join("\n");
    return Promise.resolve({ ok: true, value: { markdown, tools, prompt_tokens: markdown.length } });
  }
}

/**
 * Reads a tool list as the core does, roughly: Anthropic (`input_schema`), OpenAI Chat
 * (`{type: "function", function}`) or OpenAI Responses (`{type: "function", name}`); anything else
 * is refused with a problem at its place.
 */
export function importToolsFrom(template: Template, text: string): Outcome<ImportedTools> {
  const invalid = (location: string, message: string): Outcome<ImportedTools> => ({
    ok: false,
    error: { code: "invalid_tools", message: `${location}: ${message}`, problems: [{ location, message }] },
  });
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return invalid("", "not JSON");
  }
  if (!Array.isArray(parsed)) return invalid("", "not a list of tools");
  const tools: Tool[] = [];
  let format = "";
  for (const [index, item] of (parsed as unknown[]).entries()) {
    const entry = (typeof item === "object" && item !== null ? item : {}) as Record<string, unknown>;
    const inner = (typeof entry.function === "object" && entry.function !== null ? entry.function : {}) as Record<
      string,
      unknown
    >;
    let found: [string, Record<string, unknown>, unknown] | null = null;
    if ("input_schema" in entry) found = ["Anthropic Messages", entry, entry.input_schema];
    else if (entry.type === "function" && "function" in entry) found = ["OpenAI Chat Completions", inner, inner.parameters];
    else if (entry.type === "function" && "name" in entry) found = ["OpenAI Responses", entry, entry.parameters];
    if (found === null || typeof found[1].name !== "string") return invalid(`/${String(index)}`, "not a tool");
    format = found[0];
    const description = typeof found[1].description === "string" ? found[1].description : "";
    tools.push({ name: found[1].name, description, parameters: (found[2] ?? { type: "object" }) as Tool["parameters"] });
  }
  const taken = new Set(allTools(template).map((tool) => tool.name));
  const conflicts = tools.filter((tool) => taken.has(tool.name)).map((tool) => tool.name);
  return { ok: true, value: { format, tools, conflicts } };
}

/** Every tool of the template: its own and every section's. */
function allTools(template: Template): Tool[] {
  const tools = [...template.tools];
  const visit = (sections: Section[]) => {
    for (const section of sections) {
      tools.push(...section.tools);
      visit(section.children);
    }
  };
  visit(template.sections);
  return tools;
}

/** The tool list an edit's owner names, if it exists. */
function toolsOf(template: Template, owner: Extract<TemplateEdit, { op: "remove_tool" }>["owner"]): Tool[] | null {
  if (owner.kind === "template") return template.tools;
  const found = sectionIn(template, owner.path);
  return found?.siblings[found.index]?.tools ?? null;
}

/** The children of the section at `parent` (`null`: the top level), if it exists. */
function childrenOf(template: Template, parent: string | null | undefined): Section[] | null {
  if (parent === null || parent === undefined) return template.sections;
  const found = sectionIn(template, parent);
  return found?.siblings[found.index]?.children ?? null;
}

/** The core's key check: its refusal, or null. */
function keyProblem(siblings: Section[], key: string): string | null {
  if (!/^[a-z0-9][a-z0-9_-]*$/.test(key)) return `'${key}' is not a section key`;
  if (siblings.some((s) => s.key === key)) return `a sibling section already has the key '${key}'`;
  return null;
}

/** A section as an edit carries it (defaults omitted) as a template holds it, without tools. */
function filled(section: Extract<TemplateEdit, { op: "insert_section" }>["section"]): Section {
  const { summary, ...rest } = section;
  return {
    ...rest,
    template: section.template ?? "",
    visibility: section.visibility ?? "full",
    // The editor inserts only new sections, which have no tools.
    tools: [],
    children: (section.children ?? []).map(filled),
    ...(summary === null || summary === undefined ? {} : { summary }),
  };
}

function sectionIn(template: Template, path: string): { siblings: Section[]; index: number } | null {
  let siblings = template.sections;
  const keys = path.split(".");
  for (const [depth, key] of keys.entries()) {
    const index = siblings.findIndex((section) => section.key === key);
    const section = siblings[index];
    if (section === undefined) return null;
    if (depth === keys.length - 1) return { siblings, index };
    siblings = section.children;
  }
  return null;
}

/** Applies the edits the editor makes, with the core's checks; the refusal message, or null. */
function applyTo(template: Template, edit: TemplateEdit): string | null {
  switch (edit.op) {
    case "set_section_fields": {
      const found = sectionIn(template, edit.path);
      const section = found?.siblings[found.index];
      if (section === undefined) return `no section has the path '${edit.path}'`;
      const { title, template: body, summary, visibility } = edit.fields;
      if (visibility === "summary" && (summary === null || summary === undefined)) {
        return "a summarized section needs a summary";
      }
      Object.assign(section, { title, template: body, visibility });
      if (summary === null || summary === undefined) delete section.summary;
      else section.summary = summary;
      return null;
    }
    case "rename_section": {
      const found = sectionIn(template, edit.path);
      const section = found?.siblings[found.index];
      if (found === null || section === undefined) return `no section has the path '${edit.path}'`;
      if (!/^[a-z0-9][a-z0-9_-]*$/.test(edit.key)) return `'${edit.key}' is not a section key`;
      if (found.siblings.some((s, i) => s.key === edit.key && i !== found.index)) {
        return `a sibling section already has the key '${edit.key}'`;
      }
      section.key = edit.key;
      return null;
    }
    case "insert_section": {
      const siblings = childrenOf(template, edit.parent);
      if (siblings === null) return `no section has the path '${edit.parent ?? ""}'`;
      if (edit.index > siblings.length) return `no section position ${String(edit.index)}`;
      const problem = keyProblem(siblings, edit.section.key);
      if (problem !== null) return problem;
      siblings.splice(edit.index, 0, filled(edit.section));
      return null;
    }
    case "remove_section": {
      const found = sectionIn(template, edit.path);
      if (found === null) return `no section has the path '${edit.path}'`;
      found.siblings.splice(found.index, 1);
      return null;
    }
    case "move_section": {
      const parent = edit.parent ?? null;
      if (parent !== null && (parent === edit.path || parent.startsWith(`${edit.path}.`))) {
        return "a section cannot move into itself or its own subsections";
      }
      const found = sectionIn(template, edit.path);
      const targets = childrenOf(template, parent);
      if (found === null) return `no section has the path '${edit.path}'`;
      if (targets === null) return `no section has the path '${parent ?? ""}'`;
      // The template is a copy the caller drops when the move is refused.
      const [section] = found.siblings.splice(found.index, 1);
      if (section === undefined) return `no section has the path '${edit.path}'`;
      if (edit.index > targets.length) return `no section position ${String(edit.index)}`;
      const problem = keyProblem(targets, section.key);
      if (problem !== null) return problem;
      targets.splice(edit.index, 0, section);
      return null;
    }
    case "set_settings":
      if (edit.settings.key.trim() === "") return "the template's key cannot be empty";
      Object.assign(template, edit.settings);
      return null;
    case "set_param": {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(edit.name)) return `'${edit.name}' is not a parameter name`;
      const { value } = edit;
      const kept = Object.entries(template.params).filter(([name]) => name !== edit.name);
      const at = Object.keys(template.params).indexOf(edit.name);
      if (value !== null && value !== undefined) kept.splice(at < 0 ? kept.length : at, 0, [edit.name, value]);
      template.params = Object.fromEntries(kept);
      return null;
    }
    case "insert_tool": {
      const tools = toolsOf(template, edit.owner);
      if (tools === null) return "no such tool list";
      if (allTools(template).some((tool) => tool.name === edit.tool.name)) {
        return `a tool named '${edit.tool.name}' is already in the template`;
      }
      if (edit.index > tools.length) return `no tool position ${String(edit.index)}`;
      const { name, description, parameters } = edit.tool;
      tools.splice(edit.index, 0, { name, description, parameters });
      return null;
    }
    case "remove_tool": {
      const tools = toolsOf(template, edit.owner);
      if (tools === null || edit.index >= tools.length) return `no tool at position ${String(edit.index)}`;
      tools.splice(edit.index, 1);
      return null;
    }
    case "move_tool": {
      const tools = toolsOf(template, edit.owner);
      if (tools === null || edit.from >= tools.length || edit.to >= tools.length) return "no tool at that position";
      const [tool] = tools.splice(edit.from, 1);
      if (tool !== undefined) tools.splice(edit.to, 0, tool);
      return null;
    }
    default:
      return `the fake platform does not apply ${edit.op}`;
  }
}
