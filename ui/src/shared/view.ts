// What pages show, as plain data: tool names, token count, a file's name and the window title, tested
// without React or Tauri.
import type { JsonValue } from "../platform";

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
