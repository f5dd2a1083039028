// The only module that talks to Tauri: wraps the generated bindings in typed functions that never
// throw, so the rest of the UI stays testable with plain fakes and runs in a browser too.
import { Channel, isTauri as tauriIsTauri } from "@tauri-apps/api/core";
import {
  commands,
  events,
  type CallRequest,
  type CompareProgress_Deserialize,
  type CompareProgress_Serialize,
  type ComparisonReport_Serialize,
  type Event_Serialize,
  type Lane,
  type LiveRun,
  type ProfilesView_Serialize,
  type ProviderProfile_Deserialize,
  type RunComparison_Serialize,
  type RunFilter_Deserialize,
  type RunSummary_Serialize,
  type StoredRun_Serialize,
  type ScenarioView_Serialize,
  type Scenario_Serialize,
  type FilePurpose,
  type RecentFileDto,
  type RecoveredDto_Serialize,
  type ToolListFileDto,
  type CommandError,
  type DocumentUpdate_Serialize,
  type DocumentView_Serialize,
  type ImportedToolsDto_Serialize,
  type PreviewUpdate_Serialize,
  type ProblemView,
  type Section_Serialize,
  type SectionFields_Deserialize,
  type TemplateChange_Serialize,
  type TemplateEdit_Deserialize,
  type Template_Serialize,
  type Tool_Serialize,
  type ToolOwner,
} from "../bindings";

export type {
  AdapterKind,
  CallRequest,
  CommandError,
  CommandErrorCode,
  Counters,
  Disclosure,
  HeadingStyle,
  JsonValue,
  Lane,
  LiveRun,
  PartsChange_Serialize as PartsChange,
  ProviderKind,
  RunSource,
  RunStatus,
  ProblemView,
  TemplateSettings,
  ToolDisclosure,
  ToolKind,
  ToolOwner,
  Visibility,
} from "../bindings";

/** An open document as the backend sends it when it opens: its state and template. */
export type DocumentView = DocumentView_Serialize;
/** An open document after an edit, undo, redo or save: its state and what changed in its template. */
export type DocumentUpdate = DocumentUpdate_Serialize;
/** What an edit, undo or redo changed: one section's fields, the whole template, or nothing. */
export type TemplateChange = TemplateChange_Serialize;
/** The preview as a change from the one the UI holds (its prompt in parts cut before headings). */
export type PreviewUpdate = PreviewUpdate_Serialize;
/** A template as the backend sends it. */
export type Template = Template_Serialize;
/** One section of a template as the backend sends it. */
export type Section = Section_Serialize;
/** One change to a template, as the backend accepts it. */
export type TemplateEdit = TemplateEdit_Deserialize;
/** A section's text and visibility, as an edit carries them. */
export type SectionFields = SectionFields_Deserialize;

/** A scenario as the backend sends it, and as the scenario panel sends it back whole. */
export type Scenario = Scenario_Serialize;
/** An open scenario as the backend sends it after every change: its state, problems and scenario. */
export type ScenarioView = ScenarioView_Serialize;
/** One event of a run (spec 6), tagged by `type`. */
export type RunEvent = Event_Serialize;
/** What a running comparison tells: a run starts, or one of its events happened. */
export type CompareProgress = CompareProgress_Serialize;
/**
 * The comparison report of spec 6: the runs, the baseline and the first divergence (a live
 * comparison has no baseline, and with one adapter no divergence).
 */
export type ComparisonReport = ComparisonReport_Serialize;

/**
 * One provider a live run can use, as the UI holds it and sends it back: the Deserialize shape,
 * which the backend's own answers (absent fields left out rather than null) also fit.
 */
export type ProviderProfile = ProviderProfile_Deserialize;
/** The provider profiles, the file they are kept in, and whether each one's key variable is set now. */
export type ProfilesView = Omit<ProfilesView_Serialize, "profiles"> & { profiles: ProviderProfile[] };
/** Which kept runs to list; empty fields match every run. */
export type RunFilter = RunFilter_Deserialize;
/** A kept run without its events: a row of the history. */
export type RunSummary = RunSummary_Serialize;
/** A kept run, whole: its summary, the user's message and its report. */
export type StoredRun = StoredRun_Serialize;
/** A kept run beside a baseline run: both summaries and the first divergence. */
export type RunComparison = RunComparison_Serialize;

/** A recently opened file, and whether it is still there. */
export type RecentFile = RecentFileDto;
/** A tool list file the user chose, with its text. */
export type ToolListFile = ToolListFileDto;
/** Unsaved work kept from an earlier run of the app. */
export type RecoveredWork = RecoveredDto_Serialize;
export type { FilePurpose };

/** Stops listening to an event. */
export type Unlisten = () => void;

/** A tool as the backend sends it. */
export type Tool = Tool_Serialize;
/** Tools read from a pasted tool list: their format, the tools and the names the template has already. */
export type ImportedTools = ImportedToolsDto_Serialize;

/** An error a command returned, or `ipc_failed` when the call itself failed (no backend, ACL, bug). */
export type PlatformError = CommandError | { code: "ipc_failed"; message: string };

/** The outcome of a backend call: the value, or an error the UI can switch on by `code`. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: PlatformError };

/** The backend operations the UI uses, as one object so tests can pass fakes. */
export interface Platform {
  isTauri(): boolean;
  initialTemplatePath(): Promise<Outcome<string | null>>;
  /** The scenario the app was started with (it opens on the compare view), or null. */
  initialScenarioPath(): Promise<Outcome<string | null>>;
  openDocument(path: string): Promise<Outcome<DocumentView>>;
  applyEdit(id: number, edit: TemplateEdit, group: string | null): Promise<Outcome<DocumentUpdate>>;
  undo(id: number): Promise<Outcome<DocumentUpdate>>;
  redo(id: number): Promise<Outcome<DocumentUpdate>>;
  saveDocument(id: number, path: string | null): Promise<Outcome<DocumentUpdate>>;
  /**
   * What the model is shown now, with `expand` sections read or every section with `expandAll`;
   * the prompt as a change from the preview `base` (a serial) the UI holds, whole without one.
   */
  previewDocument(id: number, expand: string[], expandAll: boolean, base: number | null): Promise<Outcome<PreviewUpdate>>;
  importTools(id: number, text: string): Promise<Outcome<ImportedTools>>;
  /**
   * Checks a tool the tool editor holds (its JSON text) for position `index` of `owner`'s tools
   * (`null`: a new tool): every problem at its JSON pointer within the tool.
   */
  checkTool(id: number, owner: ToolOwner, index: number | null, toolJson: string): Promise<Outcome<ProblemView[]>>;
  newDocument(): Promise<Outcome<DocumentView>>;
  openExample(): Promise<Outcome<DocumentView>>;
  closeDocument(id: number): Promise<Outcome<null>>;
  chooseFile(purpose: FilePurpose, suggestedPath: string | null): Promise<Outcome<string | null>>;
  recentFiles(): Promise<Outcome<RecentFile[]>>;
  forgetRecentFile(path: string): Promise<Outcome<RecentFile[]>>;
  recoveredDocuments(): Promise<Outcome<RecoveredWork[]>>;
  restoreDocument(recoveryId: string): Promise<Outcome<DocumentView>>;
  discardRecovered(recoveryId: string): Promise<Outcome<null>>;
  closeWindow(): Promise<Outcome<null>>;
  /** Asks for a tool list file (native dialog) and returns its text; null when cancelled. */
  chooseToolList(): Promise<Outcome<ToolListFile | null>>;
  /** A new scenario for the open template `templateId`. */
  newScenario(templateId: number): Promise<Outcome<ScenarioView>>;
  /** Opens a scenario file, checked against the open template `templateId` when given. */
  openScenario(path: string, templateId: number | null): Promise<Outcome<ScenarioView>>;
  /** Replaces an open scenario with `scenario`; changes of one `group` in a row undo as one step. */
  editScenario(id: number, scenario: Scenario, group: string | null, templateId: number | null): Promise<Outcome<ScenarioView>>;
  /** Undoes (`back`) or redoes one step of an open scenario. */
  stepScenario(id: number, back: boolean, templateId: number | null): Promise<Outcome<ScenarioView>>;
  /** Saves an open scenario to its file, or to `path`; one with problems is refused. */
  saveScenario(id: number, path: string | null, templateId: number | null): Promise<Outcome<ScenarioView>>;
  /** Closes an open scenario and forgets its unsaved work. */
  closeScenario(id: number): Promise<Outcome<null>>;
  /** Opens a scenario's unsaved work kept from an earlier run, checked against the open template. */
  restoreScenario(recoveryId: string, templateId: number | null): Promise<Outcome<ScenarioView>>;
  recentScenarios(): Promise<Outcome<RecentFile[]>>;
  /**
   * Runs the open scenario on the open template: with its script under both adapters and the
   * baseline, or with `live` its user message to a real model under the adapters `live` names (no
   * baseline). Every run's start and event goes to `onProgress` as it happens; `runId` names the
   * run (cancel, calls).
   */
  runComparison(
    templateId: number,
    scenarioId: number,
    runId: number,
    live: LiveRun | null,
    onProgress: (progress: CompareProgress) => void,
  ): Promise<Outcome<ComparisonReport>>;
  /** Stops the comparison `runId` before its next model call (it then fails as `cancelled`). */
  cancelComparison(runId: number): Promise<Outcome<null>>;
  /** What model call `callIndex` of `lane` was sent in the comparison `runId`, and its answer. */
  comparisonCall(runId: number, lane: Lane, callIndex: number): Promise<Outcome<CallRequest>>;
  /** Writes the comparison report to `path`. */
  exportComparison(runId: number, path: string): Promise<Outcome<null>>;
  /** Writes every model call's request body into the new or empty `folder`; how many it wrote. */
  exportRequests(runId: number, folder: string): Promise<Outcome<number>>;
  /** The provider profiles, the file they are kept in, and whether each one's key is set (never the key). */
  providerProfiles(): Promise<Outcome<ProfilesView>>;
  /** Replaces the provider profiles; refused (`provider`) with each problem at `/profiles/<i>/<field>`. */
  saveProviderProfiles(list: ProviderProfile[]): Promise<Outcome<ProfilesView>>;
  /** The kept runs `filter` matches, newest first. */
  runHistory(filter: RunFilter): Promise<Outcome<RunSummary[]>>;
  /** One kept run, whole. */
  historyRun(id: number): Promise<Outcome<StoredRun>>;
  /** The kept run `id` beside the kept run `baseline`. */
  compareHistoryRuns(baseline: number, id: number): Promise<Outcome<RunComparison>>;
  /** Calls `listener` when the window is asked to close while a document has unsaved changes. */
  onCloseRequested(listener: () => void): Promise<Unlisten>;
  /** Calls `listener` with the paths of files dropped on the window. */
  onFilesDropped(listener: (paths: string[]) => void): Promise<Unlisten>;
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

/** Awaits a generated command that returns a typed result; never throws. */
async function call<T>(
  run: () => Promise<{ status: "ok"; data: T } | { status: "error"; error: CommandError }>,
): Promise<Outcome<T>> {
  try {
    const result = await run();
    if (result.status === "ok") return { ok: true, value: result.data };
    // Framework-level failures (unknown command, ACL denial) reject with a bare string.
    const error: unknown = result.error;
    return isCommandError(error) ? { ok: false, error } : ipcFailed(error);
  } catch (cause) {
    return ipcFailed(cause);
  }
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

/** The scenario path given on the command line after the template, or null. */
export async function initialScenarioPath(): Promise<Outcome<string | null>> {
  try {
    return { ok: true, value: await commands.initialScenarioPath() };
  } catch (cause) {
    return ipcFailed(cause);
  }
}

/** Opens the template file at `path` for editing (an open file answers with its document). */
export function openDocument(path: string): Promise<Outcome<DocumentView>> {
  return call(() => commands.openDocument(path));
}

/** Applies one edit; edits of one `group` in a row undo as one step. A refused edit changes nothing. */
export function applyEdit(id: number, edit: TemplateEdit, group: string | null): Promise<Outcome<DocumentUpdate>> {
  return call(() => commands.applyEdit(id, edit, group));
}

/** Undoes the document's last step. */
export function undo(id: number): Promise<Outcome<DocumentUpdate>> {
  return call(() => commands.undo(id));
}

/** Redoes the document's last undone step. */
export function redo(id: number): Promise<Outcome<DocumentUpdate>> {
  return call(() => commands.redo(id));
}

/** Saves the document to its file, or to `path` ("save as"); a template with problems is refused. */
export function saveDocument(id: number, path: string | null): Promise<Outcome<DocumentUpdate>> {
  return call(() => commands.saveDocument(id, path));
}

/** What the model is shown now, as a change from the preview `base` the UI holds. */
export function previewDocument(
  id: number,
  expand: string[],
  expandAll: boolean,
  base: number | null,
): Promise<Outcome<PreviewUpdate>> {
  return call(() => commands.previewDocument(id, expand, expandAll, base));
}

/**
 * Reads an OpenAI Chat, OpenAI Responses or Anthropic tool list for the document `id` (nothing is
 * attached); `invalid_tools` lists each problem at its place in the pasted text.
 */
export function importTools(id: number, text: string): Promise<Outcome<ImportedTools>> {
  return call(() => commands.importTools(id, text));
}

/**
 * Checks a tool the tool editor holds (its JSON text) for position `index` of `owner`'s tools in the
 * document `id` (`null`: a new tool); the problems, each at its JSON pointer within the tool.
 */
export function checkTool(
  id: number,
  owner: ToolOwner,
  index: number | null,
  toolJson: string,
): Promise<Outcome<ProblemView[]>> {
  return call(() => commands.checkTool(id, owner, index, toolJson));
}

/** Runs a comparison, scripted or `live`, with its progress streamed through a channel as it happens. */
export function runComparison(
  templateId: number,
  scenarioId: number,
  runId: number,
  live: LiveRun | null,
  onProgress: (progress: CompareProgress) => void,
): Promise<Outcome<ComparisonReport>> {
  // The generated binding types a channel's messages by their Deserialize shape; the backend sends
  // them serialized, which is the shape the UI reads.
  const progress = new Channel<CompareProgress_Deserialize>();
  progress.onmessage = (message) => {
    onProgress(message as CompareProgress);
  };
  const request = { template_id: templateId, scenario_id: scenarioId, run_id: runId, live };
  return call(() => commands.runComparison(request, progress));
}

/** Listens to a backend event; a failure to listen is logged and listens to nothing. */
async function listenTo<T>(
  event: { listen: (handler: (event: { payload: T }) => void) => Promise<Unlisten> },
  listener: (payload: T) => void,
): Promise<Unlisten> {
  try {
    return await event.listen((e) => {
      listener(e.payload);
    });
  } catch (cause) {
    console.error("cannot listen to a backend event", cause);
    return () => undefined;
  }
}

/** The real backend. */
export const tauriPlatform: Platform = {
  isTauri,
  initialTemplatePath,
  initialScenarioPath,
  openDocument,
  applyEdit,
  undo,
  redo,
  saveDocument,
  previewDocument,
  importTools,
  checkTool,
  newDocument: () => call(() => commands.newDocument()),
  openExample: () => call(() => commands.openExample()),
  closeDocument: (id) => call(() => commands.closeDocument(id)),
  chooseFile: (purpose, suggestedPath) => call(() => commands.chooseFile(purpose, suggestedPath)),
  recentFiles: () => call(() => commands.recentFiles()),
  forgetRecentFile: (path) => call(() => commands.forgetRecentFile(path)),
  recoveredDocuments: () => call(() => commands.recoveredDocuments()),
  restoreDocument: (recoveryId) => call(() => commands.restoreDocument(recoveryId)),
  discardRecovered: (recoveryId) => call(() => commands.discardRecovered(recoveryId)),
  closeWindow: () => call(() => commands.closeWindow()),
  chooseToolList: () => call(() => commands.chooseToolList()),
  newScenario: (templateId) => call(() => commands.newScenario(templateId)),
  openScenario: (path, templateId) => call(() => commands.openScenario(path, templateId)),
  editScenario: (id, scenario, group, templateId) => call(() => commands.editScenario(id, scenario, group, templateId)),
  stepScenario: (id, back, templateId) => call(() => commands.stepScenario(id, back, templateId)),
  saveScenario: (id, path, templateId) => call(() => commands.saveScenario(id, path, templateId)),
  closeScenario: (id) => call(() => commands.closeScenario(id)),
  restoreScenario: (recoveryId, templateId) => call(() => commands.restoreScenario(recoveryId, templateId)),
  recentScenarios: () => call(() => commands.recentScenarios()),
  runComparison,
  cancelComparison: (runId) => call(() => commands.cancelComparison(runId)),
  comparisonCall: (runId, lane, callIndex) => call(() => commands.comparisonCall(runId, lane, callIndex)),
  exportComparison: (runId, path) => call(() => commands.exportComparison(runId, path)),
  exportRequests: (runId, folder) => call(() => commands.exportRequests(runId, folder)),
  providerProfiles: () => call(() => commands.providerProfiles()),
  saveProviderProfiles: (list) => call(() => commands.saveProviderProfiles(list)),
  runHistory: (filter) => call(() => commands.runHistory(filter)),
  historyRun: (id) => call(() => commands.historyRun(id)),
  compareHistoryRuns: (baseline, id) => call(() => commands.compareHistoryRuns(baseline, id)),
  onCloseRequested: (listener) => listenTo(events.closeRequested, () => {
    listener();
  }),
  onFilesDropped: (listener) => listenTo(events.filesDropped, (payload) => {
    listener(payload.paths);
  }),
};
