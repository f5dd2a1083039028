// Test-only: the real backend's answers to editor calls on the fake's example template, written by
// a Rust test (src-tauri/src/backend_recordings.rs) into fixtures/backend.recordings.json. The fake
// backend answers a recorded call from here; its tests hold what it imitates to the same answers.
import type { Outcome, Template } from "../platform";
import { sameJsonIgnoringUndefined } from "../shared/json";
import recordingsText from "./fixtures/backend.recordings.json?raw";

/** A command the recordings hold answers for, with the arguments they are keyed by. */
export type RecordedCall =
  | { command: "previewDocument"; args: { expand: string[]; expand_all: boolean } }
  | { command: "importTools"; args: { text: string } }
  | { command: "checkTool"; args: { owner: unknown; index: number | null; text: string } }
  | { command: "applyEdit"; args: { edit: unknown } }
  | { command: "editScenario"; args: { scenario: unknown } }
  | { command: "saveProviderProfiles"; args: { profiles: unknown } };

type Recording = RecordedCall & { answer: Outcome<unknown> };

const recordings = JSON.parse(recordingsText) as { template: Template; calls: Recording[] };

/** The template every call was recorded on: the fake's example. */
export function recordedTemplate(): Template {
  return structuredClone(recordings.template);
}

/** Every recorded call with the backend's answer. */
export function recordedCalls(): readonly Recording[] {
  return recordings.calls;
}

/**
 * The backend's answer to `call` made on `template` (null: a call that needs none), when it was
 * recorded (else undefined).
 */
export function recordedAnswer(template: Template | null, call: RecordedCall): Outcome<unknown> | undefined {
  if (template !== null && !sameJsonIgnoringUndefined(template, recordings.template)) return undefined;
  const found = recordings.calls.find(
    (recording) => recording.command === call.command && sameJsonIgnoringUndefined(recording.args, call.args),
  );
  return found === undefined ? undefined : structuredClone(found.answer);
}
