// What the window shows at start-up, as plain data: the template the app was launched on, opened, or
// a notice, or why it could not be opened; tested without React or Tauri.
import type { DocumentView, Platform } from "../platform";
import { describeWithProblems, type Failure } from "../shared/failure";

/** Everything the page can display before the editor takes over. */
export type View =
  | { kind: "loading" }
  | { kind: "outside_tauri" }
  | { kind: "no_template" }
  | { kind: "open"; document: DocumentView }
  | ({ kind: "error"; path: string | null } & Failure);

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
