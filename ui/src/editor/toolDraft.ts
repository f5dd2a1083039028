// What the tool editor holds while the user edits one tool: its fields as typed (the parameters'
// JSON Schema and a mock result as JSON text), the tool they make — keeping every field the user did
// not touch exactly as it was, `x-` fields included — or, while a JSON text does not parse, the
// problem at its line and column, found at once without asking the backend.
import type { JsonValue, ProblemView, Tool, ToolKind } from "../platform";
import { parseJson } from "../shared/json";

/** What a scripted run answers when the tool is called: nothing set, a result, or an error. */
export type MockChoice = "none" | "result" | "error";

/** The tool's fields as the editor's inputs hold them. */
export interface ToolDraft {
  name: string;
  description: string;
  /** "" for none. */
  brief: string;
  /** "" for none. */
  kind: ToolKind | "";
  /** Comma-separated. */
  categories: string;
  requiresPermission: boolean;
  /** The parameters' JSON Schema as JSON text. */
  parameters: string;
  mock: MockChoice;
  /** The mock result as JSON text (when `mock` is "result"). */
  mockResult: string;
  /** The mock error message (when `mock` is "error"). */
  mockError: string;
}

/** The JSON text the editor shows for a value: indented by two spaces. */
function jsonText(value: JsonValue): string {
  return JSON.stringify(value, null, 2);
}

/** The draft of a tool as it stands. */
export function draftOf(tool: Tool): ToolDraft {
  const { mock } = tool;
  return {
    name: tool.name,
    description: tool.description,
    brief: tool.brief ?? "",
    kind: tool.kind ?? "",
    categories: (tool.categories ?? []).join(", "),
    requiresPermission: tool.requires_permission === true,
    parameters: jsonText(tool.parameters),
    mock: mock === undefined ? "none" : mock.error !== undefined ? "error" : "result",
    mockResult: mock?.result !== undefined ? jsonText(mock.result) : "null",
    mockError: mock?.error ?? "",
  };
}

/** The tool a draft makes, or the problems of its JSON texts (at their lines and columns). */
export type DraftedTool = { ok: true; tool: Tool } | { ok: false; problems: ProblemView[] };

/** The order the backend writes a tool's fields in; `x-` fields follow. */
const FIELD_ORDER = [
  "name",
  "description",
  "brief",
  "parameters",
  "kind",
  "categories",
  "requires_permission",
  "mock",
] as const;

/**
 * The tool `draft` makes of `original`. A field the user has not changed keeps the original's value
 * (absent stays absent, `x-` fields stay); an emptied brief, kind or category list is removed.
 */
export function toolOfDraft(original: Tool, draft: ToolDraft): DraftedTool {
  const base = draftOf(original);
  const fields: Record<string, unknown> = { ...original, name: draft.name, description: draft.description };
  // An undefined field is left out of the tool.
  const set = (field: string, value: unknown) => {
    fields[field] = value;
  };
  const problems: ProblemView[] = [];
  if (draft.brief !== base.brief) set("brief", draft.brief === "" ? undefined : draft.brief);
  if (draft.kind !== base.kind) set("kind", draft.kind === "" ? undefined : draft.kind);
  if (draft.categories !== base.categories) set("categories", categoryList(draft.categories));
  if (draft.requiresPermission !== base.requiresPermission) {
    set("requires_permission", draft.requiresPermission ? true : undefined);
  }
  if (draft.parameters !== base.parameters) {
    const parsed = parseJson(draft.parameters, "/parameters");
    if (parsed.ok) set("parameters", parsed.value);
    else problems.push(parsed.problem);
  }
  const mockChanged =
    draft.mock !== base.mock || draft.mockResult !== base.mockResult || draft.mockError !== base.mockError;
  if (mockChanged) {
    if (draft.mock === "none") set("mock", undefined);
    else if (draft.mock === "error") set("mock", { error: draft.mockError });
    else {
      const parsed = parseJson(draft.mockResult, "/mock/result");
      if (parsed.ok) set("mock", { result: parsed.value });
      else problems.push(parsed.problem);
    }
  }
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, tool: inFieldOrder(fields) as Tool };
}

/** `"a, b,,c "` as `["a", "b", "c"]`; none as undefined. */
function categoryList(text: string): string[] | undefined {
  const categories = text
    .split(",")
    .map((category) => category.trim())
    .filter((category) => category !== "");
  return categories.length === 0 ? undefined : categories;
}

/** The defined fields, in the backend's order. */
function inFieldOrder(fields: Record<string, unknown>): Record<string, unknown> {
  const rank = (field: string) => {
    const at = (FIELD_ORDER as readonly string[]).indexOf(field);
    return at < 0 ? FIELD_ORDER.length : at;
  };
  const defined = Object.entries(fields).filter(([, value]) => value !== undefined);
  // A stable sort: the `x-` fields keep their order after the known ones.
  return Object.fromEntries(defined.sort(([a], [b]) => rank(a) - rank(b)));
}
