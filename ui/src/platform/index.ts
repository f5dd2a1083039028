// The only module that talks to Tauri: wraps the generated bindings in typed functions that never
// throw, so the rest of the UI stays testable with plain fakes and runs in a browser too. `Platform`
// and `tauriPlatform` follow the commands in bindings.ts: a new command needs nothing here, only its
// method in the tests' fake (testing/fakePlatform.ts; bindings.test.ts lists the ones it lacks).
import { Channel, isTauri as tauriIsTauri } from "@tauri-apps/api/core";
import {
  commands,
  events,
  type AdapterKind,
  type CompareProgress_Deserialize,
  type CompareProgress_Serialize,
  type ComparisonReport_Serialize,
  type Divergence_Serialize,
  type Difference_Serialize,
  type HostProfile_Serialize,
  type HostView_Serialize,
  type ProbeOfHost_Serialize,
  type ProbedHost_Serialize,
  type ProbeProgress,
  type LaneVerdict_Serialize,
  type Verdict_Serialize,
  type Event_Serialize,
  type ComparisonRequest_Deserialize as ComparisonRequest,
  type ProfilesView_Serialize,
  type ProviderProfile_Deserialize,
  type RelayLogEntry,
  type RelaySessionView_Serialize,
  type RelayStatus_Serialize,
  type RunComparison_Serialize,
  type RunFilter_Deserialize,
  type RunSummary_Serialize,
  type StoredRun_Serialize,
  type StudyReport_Serialize,
  type StudyLane_Serialize,
  type StudyPair_Serialize,
  type StudyRun_Serialize,
  type StudyProgress,
  type ScenarioView_Serialize,
  type Scenario_Serialize,
  type FilePurpose,
  type RecentFileDto,
  type RecoveredDto_Serialize,
  type ToolListFileDto,
  type CommandError,
  type DocumentUpdate_Serialize,
  type DocumentView_Serialize,
  type EditedWithPreview_Serialize,
  type ExportRequest_Deserialize,
  type ExportedSkills,
  type OpenedSkills_Serialize,
  type ImportedToolsDto_Serialize,
  type PreviewQuery_Deserialize,
  type PreviewUpdate_Serialize,
  type Section_Serialize,
  type SectionFields_Deserialize,
  type SourceView_Serialize,
  type SuiteCaseResult_Serialize,
  type SuiteCaseView,
  type TemplateChange_Serialize,
  type TemplateEdit_Deserialize,
  type Template_Serialize,
  type Tool_Serialize,
  type ToolSource_Serialize,
  type ForkRequest_Deserialize,
  type ForkAnswer_Serialize,
} from "../bindings";
import { hostLane, realHostLane } from "./lanes";

export type {
  AdapterKind,
  CallRequest,
  ChangedResult,
  ForkParent,
  CommandError,
  ErrorCode,
  DisclosureEconomics_Serialize as DisclosureEconomics,
  SectionCost,
  SectionSize_Serialize as SectionSize,
  ExampleFiles_Serialize as ExampleFiles,
  ExampleScenario,
  ExampleView,
  ExportFormat,
  Counters,
  Disclosure,
  HeadingStyle,
  JsonValue,
  Refresh,
  Lane,
  LoopFound,
  PartsChange_Serialize as PartsChange,
  PricedModels_Serialize as PricedModels,
  ReportFormat,
  ChartImage,
  RequestShape,
  Permission,
  ProviderKind,
  RunCost,
  RunOrigin,
  RunStatus,
  ProblemView,
  Standing,
  TemplateSettings,
  Tier,
  ToolDisclosure,
  ToolKind,
  ToolOwner,
  Unmet,
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
/** The preview the editor asks for: the sections read, or all in full, as a change from the one held. */
export type PreviewQuery = PreviewQuery_Deserialize;
/** An edit's answer that brings the edited document's preview along (or why it does not render). */
export type EditedWithPreview = EditedWithPreview_Serialize;
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
 * The comparison report of spec 6: the runs, the baseline and the first divergences, one per run
 * after the first against the first (a live comparison has no baseline, and with one adapter no
 * divergence).
 */
export type ComparisonReport = ComparisonReport_Serialize;
/** Where a later run of a comparison first differs from the first run (`left`). */
export type Divergence = Divergence_Serialize;
/** A comparison's answer: which lane wins against all-FULL, by how much and why. */
export type Verdict = Verdict_Serialize;
/** One lane of a verdict: its standing, its figures beside all-FULL's and why. */
export type LaneVerdict = LaneVerdict_Serialize;
/** A lane's figure beside all-FULL's (a number is null only where the core wrote no finite one). */
export type Difference = Difference_Serialize;

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

export type ForkRequest = ForkRequest_Deserialize;
/** The model a fork goes on with after its event: the scenario's script, or a live profile's. */
export type ForkModel = ForkRequest["model"];

export type ForkAnswer = ForkAnswer_Serialize;

/** A case of an opened suite before it runs: its name, template, scenario and adapters. */
export type SuiteCase = SuiteCaseView;
/** How a case of a suite went: passed or not, the expectations that did not hold, its comparison. */
export type SuiteCaseResult = SuiteCaseResult_Serialize;
/** What an open template is exported as: the format, its scenarios and the model they run on. */
export type ExportRequest = ExportRequest_Deserialize;

/** A skills folder opened as a new, untitled template: the document, how many skills, what was passed over. */
export type OpenedSkills = OpenedSkills_Serialize;
/** What an export to a skills folder wrote (files by their path in the folder) and left out. */
export type { ExportedSkills };

/** A recently opened file, and whether it is still there. */
export type RecentFile = RecentFileDto;
/** A tool list file the user chose, with its text. */
export type ToolListFile = ToolListFileDto;
/**
 * A template's tool source (spec 8) as the backend sends it in a template: what it starts, the
 * section its tools belong to, its snapshot; `x-` fields the types do not name come along too.
 */
export type ToolSource = ToolSource_Serialize;
/**
 * One tool source as the Sources panel shows it: what starting it does, the user's answer, where its
 * tools came from and the tools.
 */
export type SourceView = SourceView_Serialize;
/** Unsaved work kept from an earlier run of the app. */
export type RecoveredWork = RecoveredDto_Serialize;
export type { FilePurpose };

/** The app's relay as the backend sends it: where it listens (null: stopped) and its sessions. */
export type RelayStatus = RelayStatus_Serialize;
/** One session of the app's relay (never its token). */
export type RelaySessionView = RelaySessionView_Serialize;
/** One event of one of the relay's sessions, as the live log gets it. */
export type { RelayLogEntry };

/** A real model for a comparison: the provider profile's name. */
export interface LiveModel {
  profile: string;
}

/**
 * How a comparison runs, besides its template and scenario: `adapters`, the adapters it runs under,
 * in order (at least one; each run after the first is set against the first); `live`, a real model
 * (null: the scenario's script); `relaySession`, the code of the app's relay session the
 * runs attach to (null: none); `priceAs`, the model a scripted comparison's runs are priced as (null:
 * unpriced; the backend prices a live one as its own model and ignores this).
 */
export interface ComparisonSettings {
  adapters: AdapterKind[];
  /** The host presets whose lanes run after the adapters' (`host:NAME`). */
  hosts: string[];
  /** The real agent hosts whose lanes run after those, with the script only (`real:NAME`). */
  realHosts: string[];
  live: LiveModel | null;
  relaySession: string | null;
  priceAs: string | null;
}

/** A study's report (`unfold.study`), its lanes, pairs and runs as the backend sends them. */
export type StudyReport = StudyReport_Serialize;
export type StudyLane = StudyLane_Serialize;
export type StudyPair = StudyPair_Serialize;
export type StudyRun = StudyRun_Serialize;
export type { StudyProgress };

/** How a comparison is repeated as a study (spec 14). */
export interface StudySettings {
  /** How many times. */
  repeat: number;
  /** The first lane runs once more per repetition, as its own control. */
  aa: boolean;
  /** The seed of the bootstrap intervals. */
  seed: number;
  /** The most a live study may spend, in US dollars (null: no ceiling). */
  maxCostUsd: number | null;
  /** How many repetitions run at once. */
  jobs: number;
}

/** Where the refusal of `exportSkills` to write into a folder with files puts its problem. */
export const SKILLS_OVERWRITE = "overwrite";

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

/** The generated commands, one async function per backend command. */
type Commands = typeof commands;
/** A backend command's name, as the bindings spell it (camelCase). */
type CommandName = keyof Commands;
/** What a fallible command resolves to: its value, or its `CommandError`. */
type CommandResult<T> = { status: "ok"; data: T } | { status: "error"; error: CommandError };
/** What a command answers: the `data` of its result, or its plain value when it cannot fail. */
type Answer<R> = R extends { status: "error" } ? never : R extends { status: "ok"; data: infer T } ? T : R;
/** The commands that resolve to a plain value, not a result (tauri-specta leaves infallible ones unwrapped). */
type PlainCommandName = {
  [K in CommandName]: [Awaited<ReturnType<Commands[K]>>] extends [CommandResult<unknown>] ? never : K;
}[CommandName];

/**
 * Every backend command as the UI calls it: the same name and arguments, the answer as an `Outcome`
 * (never a throw). Hovering a method shows the command's doc comment from the bindings (the Rust
 * doc); notes the UI relies on that the Rust docs leave out:
 * - `initialScenarioPath`: the path given on the command line after the template's.
 * - `initialSuitePath`: the suite given on the command line in place of a template.
 * - `openDocument`: a file that is already open answers with its document.
 * - `applyEdit`: a refused edit changes nothing. `saveDocument`, `saveScenario`: a template or
 *   scenario with problems is refused.
 * - `previewDocument`: `expand` names the sections read, `expandAll` reads every one; `base` is the
 *   serial of the preview the UI holds (none: the whole prompt).
 * - `editAndPreview`: `applyEdit` then `previewDocument` in one call; a refused edit previews nothing,
 *   and a preview that fails leaves the edit made (`outcomeOf` reads its answer).
 * - `importTools`: nothing is attached; `invalid_tools` lists each problem at its place in the text.
 * - `checkTool`: `index` is the tool's position among `owner`'s tools, `null` for a new tool.
 * - `cancelComparison`: the comparison then fails as `cancelled`.
 * - `exportRequests`: answers how many request bodies it wrote, each in the shape of `api`.
 * - `templateSources`, `allowSource`, `revokeSource`, `discoverSources`: each answers every source
 *   of the open template, in its order. `allowSource` allows the source as the open document defines
 *   it now, and is refused (`invalid_request`) for a template without a file. `discoverSources`
 *   starts only the allowed sources, and shuts each down once listed. The sources themselves are
 *   edited through `applyEdit` (`set_sources`, the whole list).
 * - `exportTemplate`: writes the open document as it is now, unsaved changes included; the scenarios
 *   are files, read from disk.
 * - `exportSkills`: refused for a folder with files unless `overwrite`; the refusal's problem is at
 *   `overwrite` (see `SKILLS_OVERWRITE`), and nothing is written.
 * - `runSuite`: answers once every case has run; it cannot be cancelled.
 */
type PlatformCommands = {
  // `keyof Commands` spelled out (not `CommandName`) keeps each command's doc comment on hover.
  [K in keyof Commands]: (
    ...args: Parameters<Commands[K]>
  ) => Promise<Outcome<Answer<Awaited<ReturnType<Commands[K]>>>>>;
};

/** A command as `PlatformCommands` has it, but answering `T`: a wider shape than the generated one. */
type Answering<K extends CommandName, T> = (...args: Parameters<Commands[K]>) => Promise<Outcome<T>>;

/**
 * The commands the UI calls otherwise than the bindings type them, and why. `runComparison` has its
 * own wrapper; the others are the generated command under a UI type, which must fit it:
 * `tauriPlatform` is built from the generated commands and checked against these.
 */
interface UiCommands {
  /**
   * Runs the open scenario on the open template under `settings.adapters`: with its script (and the
   * all-FULL baseline after them), or with `settings.live` its user message to a real model (no
   * baseline). Every run's start and event goes to `onProgress` as it happens; `runId` names the
   * run (cancel, calls); `settings` also says the relay session the runs attach to and the model a
   * scripted comparison is priced as (see `ComparisonSettings`). The command takes one request and
   * a channel, which stays in here.
   */
  runComparison: (
    templateId: number,
    scenarioId: number,
    runId: number,
    settings: ComparisonSettings,
    onProgress: (progress: CompareProgress) => void,
  ) => Promise<Outcome<ComparisonReport>>;
  /**
   * Runs the comparison `settings` asks for `study.repeat` times as a study (no baseline; a live
   * one's prompts each after a nonce); each repetition's end, with the history ids of its runs,
   * goes to `onProgress`. `studyId` names it for `cancelStudy`, after which it answers the report
   * of the repetitions that ended (its `stopped` says so). The command takes a channel, which
   * stays in here.
   */
  runStudy: (
    templateId: number,
    scenarioId: number,
    studyId: number,
    settings: ComparisonSettings,
    study: StudySettings,
    onProgress: (progress: StudyProgress) => void,
  ) => Promise<Outcome<StudyReport>>;
  /**
   * Probes each host of `names` (`unfold hosts probe`, each allowed before) `repeat` times, one host
   * after another; each run's end goes to `onProgress`. Answers each host's measurement and the ids
   * its runs are kept under in the history. `cancelProbe` stops it after the run it is in (it then
   * fails as `cancelled`). The command takes a channel, which stays in here.
   */
  probeHosts: (
    names: string[],
    repeat: number,
    onProgress: (progress: ProbeProgress) => void,
  ) => Promise<Outcome<ProbeOfHost[]>>;
  /**
   * Sends every event of every session of the app's relay to `onEntry` as it happens, until the
   * relay stops (nothing when it is not running). The command takes a channel, which stays in here.
   */
  watchRelay: (onEntry: (entry: RelayLogEntry) => void) => Promise<Outcome<null>>;
  /**
   * Replaces an open scenario with `scenario`, sent back in the shape the backend sent it (which the
   * command accepts too); changes of one `group` in a row undo as one step.
   */
  editScenario: (
    id: number,
    scenario: Scenario,
    group: string | null,
    templateId: number | null,
  ) => Promise<Outcome<ScenarioView>>;
  /**
   * The provider profiles, the file they are kept in, and whether each one's key is set (never the
   * key); the profiles in the shape the UI edits and sends back (see `ProfilesView`).
   */
  providerProfiles: Answering<"providerProfiles", ProfilesView>;
  /** Replaces the provider profiles; refused (`provider`) with each problem at `/profiles/<i>/<field>`. */
  saveProviderProfiles: Answering<"saveProviderProfiles", ProfilesView>;
}

/** The backend operations the UI uses, as one object so tests can pass fakes. */
export interface Platform extends Omit<PlatformCommands, keyof UiCommands>, UiCommands {
  /** True when running inside the Tauri webview (false in a plain browser or under vitest). */
  isTauri(): boolean;
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

/**
 * A command's typed result as an `Outcome`: what `call` answers, and how the UI reads a result
 * nested in an answer (the preview `editAndPreview` brings along).
 */
export function outcomeOf<T>(result: CommandResult<T>): Outcome<T> {
  if (result.status === "ok") return { ok: true, value: result.data };
  // Framework-level failures (unknown command, ACL denial) reject with a bare string.
  const error: unknown = result.error;
  return isCommandError(error) ? { ok: false, error } : ipcFailed(error);
}

/** Awaits a generated command that returns a typed result; never throws. */
async function call<T>(run: () => Promise<CommandResult<T>>): Promise<Outcome<T>> {
  try {
    return outcomeOf(await run());
  } catch (cause) {
    return ipcFailed(cause);
  }
}

/** Awaits a generated command that cannot fail (it has no result); only the call itself can. */
async function callPlain<T>(run: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await run() };
  } catch (cause) {
    return ipcFailed(cause);
  }
}

/**
 * The commands that answer a plain value (the launch template and scenario paths): told apart by
 * name, since nothing at run time says which commands answer a result. The type makes this list
 * exactly the commands whose generated type has no result, so a new one cannot be missed.
 */
const plainCommands = {
  initialTemplatePath: true,
  initialScenarioPath: true,
  initialSuitePath: true,
} satisfies Record<PlainCommandName, true>;

/** One generated command, wrapped by `call` (or `callPlain` when it answers a plain value). */
function wrap(name: CommandName): (...args: unknown[]) => Promise<Outcome<unknown>> {
  // Each command has its own arguments and answer, which a function over every name cannot name;
  // `PlatformCommands` states them, so the command is called untyped here and the whole is cast once
  // in `wrapCommands`.
  const command = commands[name] as (...args: unknown[]) => Promise<unknown>;
  if (name in plainCommands) return (...args) => callPlain(() => command(...args));
  return (...args) => call(() => command(...args) as Promise<CommandResult<unknown>>);
}

/** Every generated command, wrapped under its own name. */
function wrapCommands(): PlatformCommands {
  const names = Object.keys(commands) as CommandName[];
  return Object.fromEntries(names.map((name) => [name, wrap(name)])) as PlatformCommands;
}

/** Runs a comparison, scripted or `live`, with its progress streamed through a channel as it happens. */
function runComparison(
  templateId: number,
  scenarioId: number,
  runId: number,
  settings: ComparisonSettings,
  onProgress: (progress: CompareProgress) => void,
): Promise<Outcome<ComparisonReport>> {
  // The generated binding types a channel's messages by their Deserialize shape; the backend sends
  // them serialized, which is the shape the UI reads.
  const progress = new Channel<CompareProgress_Deserialize>();
  progress.onmessage = (message) => {
    onProgress(message as CompareProgress);
  };
  return call(() => commands.runComparison(comparisonRequest(templateId, scenarioId, runId, settings), progress));
}

/** Runs a study, each repetition's end streamed through a channel as it happens. */
function runStudy(
  templateId: number,
  scenarioId: number,
  studyId: number,
  settings: ComparisonSettings,
  study: StudySettings,
  onProgress: (progress: StudyProgress) => void,
): Promise<Outcome<StudyReport>> {
  const progress = new Channel<StudyProgress>();
  progress.onmessage = onProgress;
  // A study's repetitions are not kept for the comparison questions a run id asks.
  const comparison = { ...comparisonRequest(templateId, scenarioId, 0, settings), run_id: null };
  const asked = {
    study_id: studyId,
    comparison,
    repeat: study.repeat,
    aa: study.aa,
    seed: study.seed,
    max_cost_usd: study.maxCostUsd,
    jobs: study.jobs,
  };
  return call(() => commands.runStudy(asked, progress));
}

/** A real agent host a comparison can run (the host lab), whether it is installed and its version. */
export type HostView = HostView_Serialize;

/** What the host probe measured of one host over its runs. */
export type ProbedHost = ProbedHost_Serialize;
/** The probe of one host: its measurement, and the ids its runs are kept under in the history. */
export type ProbeOfHost = ProbeOfHost_Serialize;
export type { ProbeProgress };

/** Probes hosts, each run's end streamed through a channel as it happens. */
function probeHosts(
  names: string[],
  repeat: number,
  onProgress: (progress: ProbeProgress) => void,
): Promise<Outcome<ProbeOfHost[]>> {
  const progress = new Channel<ProbeProgress>();
  progress.onmessage = onProgress;
  return call(() => commands.probeHosts(names, repeat, progress));
}

/** An agent host a comparison can run as a lane, with its evidence (the core's `HostProfile`). */
export type HostProfile = HostProfile_Serialize;

/**
 * The application's one comparison request for the open template and scenario under `settings`: the
 * sources the user allowed in the app are started, the relay session is the app's own, and nothing
 * is written but the history (the exports come afterwards, by `runId`).
 */
export function comparisonRequest(
  templateId: number,
  scenarioId: number,
  runId: number,
  settings: ComparisonSettings,
): ComparisonRequest {
  const { adapters, hosts, realHosts, live, relaySession, priceAs } = settings;
  return {
    template: { open: templateId },
    scenario: { open: scenarioId },
    // A real host answers to the script, or with a live model talks to it (a live host).
    lanes: [...adapters, ...hosts.map(hostLane), ...realHosts.map(realHostLane)],
    model: live === null ? { scripted: { price_as: priceAs } } : { live: { profile: live.profile } },
    sources: "allowed",
    relay_session: relaySession === null ? null : { code: relaySession, relay: null },
    outputs: { requests: null, trace: null, history: true },
    run_id: runId,
  };
}

/** Watches the app's relay: every session's events come to `onEntry` through a channel. */
function watchRelay(onEntry: (entry: RelayLogEntry) => void): Promise<Outcome<null>> {
  const log = new Channel<RelayLogEntry>();
  log.onmessage = (entry) => {
    onEntry(entry);
  };
  return call(() => commands.watchRelay(log));
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

/** The real backend: every command wrapped, then the ones the UI calls its own way. */
export const tauriPlatform: Platform = {
  ...wrapCommands(),
  isTauri: tauriIsTauri,
  runComparison,
  runStudy,
  probeHosts,
  watchRelay,
  onCloseRequested: (listener) =>
    listenTo(events.closeRequested, () => {
      listener();
    }),
  onFilesDropped: (listener) =>
    listenTo(events.filesDropped, (payload) => {
      listener(payload.paths);
    }),
};
