// What the page shows, as plain data: turns backend results into a `View` (tool names, token count,
// error text) so the logic is tested without React or Tauri.
import type { JsonValue, Platform, PlatformError, PreviewDto } from "./platform";

/** Everything the page can display. */
export type View =
  | { kind: "loading" }
  | { kind: "outside_tauri" }
  | { kind: "no_template" }
  | { kind: "preview"; path: string; markdown: string; toolNames: string[]; tokens: string }
  | { kind: "error"; path: string | null; title: string; detail: string };

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
      return { title: "This template cannot be previewed", detail: error.message };
    case "invalid_edit":
      return { title: "This change was not made", detail: error.message };
    case "unknown_document":
      return { title: "This template is no longer open", detail: error.message };
    case "invalid_tools":
      return { title: "These tools cannot be imported", detail: error.message };
    case "internal":
      return { title: "Something went wrong in Unfold", detail: error.message };
    case "ipc_failed":
      return { title: "The app could not reach its backend", detail: error.message };
  }
}

/** The page for a successful preview. */
export function previewView(path: string, preview: PreviewDto): View {
  return {
    kind: "preview",
    path,
    markdown: preview.markdown,
    toolNames: toolNames(preview.tools),
    tokens: formatTokens(preview.prompt_tokens),
  };
}

/** Decides what to show at start-up: asks the backend for the launch template and previews it. */
export async function loadInitialView(platform: Platform): Promise<View> {
  if (!platform.isTauri()) return { kind: "outside_tauri" };
  const initial = await platform.initialTemplatePath();
  if (!initial.ok) return { kind: "error", path: null, ...describeError(initial.error) };
  const path = initial.value;
  if (path === null) return { kind: "no_template" };
  const preview = await platform.previewTemplate(path);
  if (!preview.ok) return { kind: "error", path, ...describeError(preview.error) };
  return previewView(path, preview.value);
}
