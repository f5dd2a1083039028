// The only module that talks to Tauri: wraps the generated bindings in typed functions that never
// throw, so the rest of the UI stays testable with plain fakes and runs in a browser too.
import { isTauri as tauriIsTauri } from "@tauri-apps/api/core";
import { commands, type CommandError, type PreviewDto } from "../bindings";

export type { CommandError, CommandErrorCode, JsonValue, PreviewDto } from "../bindings";

/** An error a command returned, or `ipc_failed` when the call itself failed (no backend, ACL, bug). */
export type PlatformError = CommandError | { code: "ipc_failed"; message: string };

/** The outcome of a backend call: the value, or an error the UI can switch on by `code`. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: PlatformError };

/** The backend operations the UI uses, as one object so tests can pass fakes. */
export interface Platform {
  isTauri(): boolean;
  initialTemplatePath(): Promise<Outcome<string | null>>;
  previewTemplate(path: string): Promise<Outcome<PreviewDto>>;
}

function isCommandError(value: unknown): value is CommandError {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { code?: unknown }).code === "string" &&
    typeof (value as { message?: unknown }).message === "string"
  );
}

function ipcFailed(cause: unknown): { ok: false; error: PlatformError } {
  const message = cause instanceof Error ? cause.message : String(cause);
  return { ok: false, error: { code: "ipc_failed", message } };
}

/** True when running inside the Tauri webview (false in a plain browser or under vitest). */
export function isTauri(): boolean {
  return tauriIsTauri();
}

/** The template path given on the command line, or null when the app was started without one. */
export async function initialTemplatePath(): Promise<Outcome<string | null>> {
  try {
    return { ok: true, value: await commands.initialTemplatePath() };
  } catch (cause) {
    return ipcFailed(cause);
  }
}

/** Renders the template at `path` through the core. */
export async function previewTemplate(path: string): Promise<Outcome<PreviewDto>> {
  try {
    const result = await commands.previewTemplate(path);
    if (result.status === "ok") return { ok: true, value: result.data };
    // Framework-level failures (unknown command, ACL denial) reject with a bare string.
    const error: unknown = result.error;
    return isCommandError(error) ? { ok: false, error } : ipcFailed(error);
  } catch (cause) {
    return ipcFailed(cause);
  }
}

/** The real backend. */
export const tauriPlatform: Platform = { isTauri, initialTemplatePath, previewTemplate };
