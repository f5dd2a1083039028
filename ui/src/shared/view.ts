// What the page shows, as plain data: what to show at start-up (the opened document, a notice or
// an error), tool names, token count, error text and the window title, tested without React or Tauri.
import type { DocumentView, JsonValue, Platform, PlatformError, ProblemView } from "../platform";

/** Everything the page can display before the editor takes over. */
export type View =
  | { kind: "loading" }
  | { kind: "outside_tauri" }
  | { kind: "no_template" }
  | { kind: "open"; document: DocumentView }
  | { kind: "error"; path: string | null; title: string; detail: string; problems: ProblemView[] };

function field(value: JsonValue | undefined, key: string): JsonValue | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  return value[key];
}

/** Names of OpenAI chat tool objects (`{type: "function", function: {name}}`), in offered order. */
export function toolNames(tools: JsonValue[]): string[] {
  return tools.map((tool) => {
    const name = field(field(tool, "function"), "name") ?? field(tool, "name");
    return typeof name === "string" && name !== "" ? name : "(unnamed tool)";
  });
}

/** "1 prompt token", "1,234 prompt tokens". */
export function formatTokens(count: number): string {
  return `${count.toLocaleString("en-US")} prompt ${count === 1 ? "token" : "tokens"}`;
}

/** A title for the error's kind and the backend's message (which names the file and place). */
export function describeError(error: PlatformError): { title: string; detail: string } {
  switch (error.code) {
    case "unreadable_file":
      return { title: "This template cannot be read", detail: error.message };
    case "invalid_template":
      return { title: "This template cannot be opened", detail: error.message };
    case "invalid_scenario":
      return { title: "This scenario cannot be used", detail: error.message };
    case "invalid_profiles":
      return { title: "These provider profiles are not valid", detail: error.message };
    case "invalid_edit":
      return { title: "This change was not made", detail: error.message };
    case "invalid_request":
      return { title: "This cannot be done as asked", detail: error.message };
    case "unknown_document":
      return { title: "This template is no longer open", detail: error.message };
    case "not_found":
      return { title: "This is no longer kept", detail: error.message };
    case "unavailable":
      return { title: "This part of Unfold is not available", detail: error.message };
    case "invalid_tools":
      return { title: "These tools cannot be imported", detail: error.message };
    case "cancelled":
      return { title: "Cancelled", detail: error.message };
    case "provider":
      return { title: "The model provider cannot be used", detail: error.message };
    case "internal":
      return { title: "Something went wrong in Unfold", detail: error.message };
    case "ipc_failed":
      return { title: "The app could not reach its backend", detail: error.message };
  }
}

/** Every problem an error lists, each at its place (none for a failure that is not about the input). */
export function problemsOf(error: PlatformError): ProblemView[] {
  return "problems" in error ? error.problems : [];
}

/**
 * `error` described with its problems listed apart: the detail then says how many there are instead
 * of repeating them (the backend's message lists them too).
 */
export function describeWithProblems(error: PlatformError): { title: string; detail: string; problems: ProblemView[] } {
  const problems = problemsOf(error);
  const described = describeError(error);
  return { ...described, detail: problems.length > 0 ? problemsLead(problems.length) : described.detail, problems };
}

/** The line over a list of `count` problems. */
export function problemsLead(count: number): string {
  return count === 1 ? "1 problem, at its place:" : `${String(count)} problems, each at its place:`;
}

/** The file name of a path (either separator). */
export function fileName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}

/** The window title: the file name, ` •` while it has unsaved changes, then the file's whole path. */
export function windowTitle(path: string | null, dirty: boolean): string {
  const name = path === null ? "Untitled" : fileName(path);
  const marked = dirty ? `${name} •` : name;
  return path === null ? marked : `${marked} — ${path}`;
}

/** Decides what to show at start-up: asks the backend for the launch template and opens it. */
export async function loadInitialView(platform: Platform): Promise<View> {
  if (!platform.isTauri()) return { kind: "outside_tauri" };
  const initial = await platform.initialTemplatePath();
  if (!initial.ok) return { kind: "error", path: null, ...describeWithProblems(initial.error) };
  const path = initial.value;
  if (path === null) return { kind: "no_template" };
  const opened = await platform.openDocument(path);
  if (!opened.ok) return { kind: "error", path, ...describeWithProblems(opened.error) };
  return { kind: "open", document: opened.value };
}
