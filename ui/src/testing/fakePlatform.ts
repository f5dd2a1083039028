// Test-only: an in-memory Platform that imitates the backend's editor closely enough for the UI's
// tests (section field edits, renames, inserts, removals and moves with their checks; settings,
// parameters and tool edits; grouped undo and redo, dirty state, save, a preview whose tools follow
// visibility and whose summary notes name the disclosure tool; a tool import that tells the three
// formats apart and names conflicts; a tool check with the core's main checks; tool sources with the
// user's answers kept per file and definition, and a discovery that lists what `liveSources` says each
// started source lists; the app's relay started and stopped, its sessions as a test sets them and its
// log played by `relayEvent`; suite files opened and run as a test sets them, a run that can be held;
// the open template exported with the backend's checks of the request; skills folders opened as
// templates and exports to them refused over a folder with files unless asked) and records every call.
// Previews, tool imports, tool checks and refused edits of the example template are answered with
// the real backend's answers (recordings.ts); recordings.test.ts holds the imitation to the same.
// The compare view's commands (scenarios, comparisons, provider profiles, the models runs can be
// priced as, the run history and its traces) go to FakeCompare.
import { FakeProbe } from "./fakeProbe";
import { FakeStudy } from "./fakeStudy";
import { FakeCompare, lookupFirstScenario } from "./fakeCompare";
import { recordedAnswer, recordedTemplate } from "./recordings";
import type { FakeSuite } from "./suites";
import type {
  CallRequest,
  CompareProgress,
  ComparisonReport,
  ComparisonSettings,
  DocumentUpdate,
  DocumentView,
  DisclosureEconomics,
  EditedWithPreview,
  ExampleFiles,
  ExampleView,
  ExportRequest,
  ExportedSkills,
  ForkAnswer,
  ForkRequest,
  FilePurpose,
  ImportedTools,
  OpenedSkills,
  Outcome,
  Platform,
  PlatformError,
  HostProfile,
  HostView,
  ProbeOfHost,
  ProbeProgress,
  StudyProgress,
  StudyReport,
  StudySettings,
  PricedModels,
  PreviewQuery,
  PreviewUpdate,
  ProblemView,
  Lane,
  ProfilesView,
  ProviderProfile,
  RelayLogEntry,
  RelaySessionView,
  RelayStatus,
  RecentFile,
  ReportFormat,
  ChartImage,
  RecoveredWork,
  RequestShape,
  RunComparison,
  RunFilter,
  RunSummary,
  Scenario,
  ScenarioView,
  Section,
  SourceView,
  StoredRun,
  SuiteCase,
  SuiteCaseResult,
  Template,
  TemplateChange,
  TemplateEdit,
  Tool,
  ToolOwner,
  ToolSource,
  Unlisten,
} from "../platform";
import { SKILLS_OVERWRITE } from "../platform";

/**
 * The example template's shape (examples/task-executor.unfold.json), trimmed: the template the
 * backend's answers in fixtures/backend.recordings.json were recorded on.
 */
export function exampleTemplate(): Template {
  return recordedTemplate();
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
  /** The open document's id and file (a new or restored document gets a new id). */
  id = 1;
  currentPath: string | null;
  /** Templates `openDocument` finds by path (besides `path`, which opens the example). */
  readonly disk = new Map<string, Template>();
  /** What `chooseFile` answers next (null: the user cancelled). */
  chosenPath: string | null = null;
  /** What `chooseToolList` answers next (null: the user cancelled). */
  chosenToolList: { path: string; text: string } | null = null;
  recent: RecentFile[] = [];
  recovered: RecoveredWork[] = [];
  /** Templates of `recovered` entries, by recovery id. */
  readonly recoveredTemplates = new Map<string, Template>();
  /** The compare view's backend: scenarios and comparisons. */
  readonly compare = new FakeCompare(() => this.template);
  /** The host probe: runs the hosts the compare fake has allowed. */
  readonly probe = new FakeProbe(this.compare.allowedHosts);
  /** Studies: the recorded one played back. */
  readonly study = new FakeStudy();
  readonly closeListeners = new Set<() => void>();
  readonly dropListeners = new Set<(paths: string[]) => void>();
  /** The sources allowed: the definition allowed, by file and source name (`sourceKey`). */
  readonly allowedSources = new Map<string, string>();
  /** What each source lists when started (its tools), or why it cannot start, by name. */
  readonly liveSources = new Map<string, Tool[] | string>();
  /** Where the app's relay listens (null: stopped). */
  relayListening: string | null = null;
  /** The relay's sessions (as a plugin would have opened them; cleared when it stops). */
  relaySessions: RelaySessionView[] = [];
  /** Who watches the relay's log (dropped when it stops). */
  readonly relayWatchers = new Set<(entry: RelayLogEntry) => void>();
  /** The suite files `openSuite` and `runSuite` find, by path. */
  readonly suites = new Map<string, FakeSuite>();
  /** When set, `runSuite` answers only once `releaseSuite()` is called. */
  holdSuite = false;
  private heldSuite: (() => void) | null = null;
  /** The skills folders `openSkillsFolder` reads, by path: the template each is, or why it is not one. */
  readonly skillsFolders = new Map<string, Template | PlatformError>();
  /** The folders with files in them, which `exportSkills` writes into only with `overwrite`. */
  readonly foldersWithFiles = new Set<string>();
  /** What `exportSkills` wrote, by folder: the keys of the skills (the template's sections). */
  readonly exportedSkills = new Map<string, string[]>();
  /** What `exportTemplate` wrote, by path: the template's key and the request. */
  readonly exportedTemplates = new Map<string, { key: string; request: ExportRequest }>();

  constructor(
    readonly path = "/t/task.unfold.json",
    template: Template = exampleTemplate(),
  ) {
    this.template = template;
    this.saved = template;
    this.currentPath = path;
  }

  /** Makes `template` the open document, as a fresh one with a new id. */
  private load(template: Template, path: string | null, dirty: boolean): Outcome<DocumentView> {
    this.id += 1;
    this.template = template;
    this.saved = dirty ? structuredClone(template) : template;
    this.currentPath = path;
    this.undoStack = [];
    this.redoStack = [];
    this.openGroup = null;
    return { ok: true, value: this.view() };
  }

  /** The window was asked to close (as the backend says when there are unsaved changes). */
  requestClose(): void {
    for (const listener of this.closeListeners) listener();
  }

  /** Files were dropped on the window. */
  drop(paths: string[]): void {
    for (const listener of this.dropListeners) listener(paths);
  }

  private record(name: keyof Platform, ...args: unknown[]): PlatformError | undefined {
    this.calls.push({ name, args });
    return this.failures.get(name);
  }

  /** Records a call; its failure when one is set, as an answer (else undefined: answer normally). */
  private refuse<T>(name: keyof Platform, ...args: unknown[]): Promise<Outcome<T>> | undefined {
    const error = this.record(name, ...args);
    return error === undefined ? undefined : Promise.resolve({ ok: false, error });
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
    return { ...this.status(), template: this.template };
  }

  /** The answer to an edit, undo, redo or save (as the backend does, only a field edit's fields). */
  private update(change: TemplateChange): Outcome<DocumentUpdate> {
    return { ok: true, value: { ...this.status(), change } };
  }

  private status() {
    return {
      id: this.id,
      path: this.currentPath,
      dirty: this.template !== this.saved,
      can_undo: this.undoStack.length > 0,
      can_redo: this.redoStack.length > 0,
      problems: sourceProblems(this.template),
    };
  }

  isTauri(): boolean {
    return true;
  }

  /** What `initialScenarioPath` answers (null: the app was started without a scenario). */
  launchScenario: string | null = null;

  initialScenarioPath(): Promise<Outcome<string | null>> {
    const error = this.record("initialScenarioPath");
    return Promise.resolve(error ? { ok: false, error } : { ok: true, value: this.launchScenario });
  }

  /** What `initialSuitePath` answers (null: the app was started without a suite). */
  launchSuite: string | null = null;

  initialSuitePath(): Promise<Outcome<string | null>> {
    const error = this.record("initialSuitePath");
    return Promise.resolve(error ? { ok: false, error } : { ok: true, value: this.launchSuite });
  }

  initialTemplatePath(): Promise<Outcome<string | null>> {
    const error = this.record("initialTemplatePath");
    return Promise.resolve(error ? { ok: false, error } : { ok: true, value: this.path });
  }

  openDocument(path: string): Promise<Outcome<DocumentView>> {
    const error = this.record("openDocument", path);
    if (error) return Promise.resolve({ ok: false, error });
    if (path === this.currentPath) return Promise.resolve({ ok: true, value: this.view() });
    const found = path === this.path ? exampleTemplate() : this.disk.get(path);
    if (found === undefined) {
      const message = `${path}: cannot read: No such file or directory (os error 2)`;
      return Promise.resolve({ ok: false, error: { code: "unreadable_file", message, problems: [] } });
    }
    return Promise.resolve(this.load(structuredClone(found), path, false));
  }

  /** `applyEdit` then, when the edit is made, `previewDocument` (each recorded too, under its own name). */
  async editAndPreview(
    id: number,
    edit: TemplateEdit,
    group: string | null,
    preview: PreviewQuery,
  ): Promise<Outcome<EditedWithPreview>> {
    this.record("editAndPreview", id, edit, group, preview);
    const update = await this.applyEdit(id, edit, group);
    if (!update.ok) return update;
    const shown = await this.previewDocument(id, preview.expand, preview.expand_all, preview.base ?? null);
    if (shown.ok) return { ok: true, value: { update: update.value, preview: { status: "ok", data: shown.value } } };
    // A call that failed as a whole (a failure a test injected) fails the whole answer, as in the app.
    if (shown.error.code === "ipc_failed") return { ok: false, error: shown.error };
    return { ok: true, value: { update: update.value, preview: { status: "error", error: shown.error } } };
  }

  applyEdit(id: number, edit: TemplateEdit, group: string | null): Promise<Outcome<DocumentUpdate>> {
    const failure = this.record("applyEdit", id, edit, group);
    if (failure) return Promise.resolve({ ok: false, error: failure });
    const recorded = recordedAnswer(this.template, { command: "applyEdit", args: { edit } });
    // A recorded success carries the recording's document id and state: only refusals are played.
    if (recorded !== undefined && !recorded.ok) return Promise.resolve(recorded);
    const next = structuredClone(this.template);
    const refused = editRefusal(next, edit);
    if (refused !== null) return Promise.resolve({ ok: false, error: refused });
    const joins = group !== null && group === this.openGroup && this.undoStack.length > 0;
    if (!joins) this.undoStack.push({ template: this.template, group });
    this.redoStack = [];
    this.openGroup = group;
    this.template = next;
    const change: TemplateChange =
      edit.op === "set_section_fields"
        ? { kind: "section_fields", path: edit.path, fields: { ...edit.fields, summary: edit.fields.summary ?? null } }
        : { kind: "whole", template: next };
    return Promise.resolve(this.update(change));
  }

  undo(id: number): Promise<Outcome<DocumentUpdate>> {
    const error = this.record("undo", id);
    if (error) return Promise.resolve({ ok: false, error });
    const step = this.undoStack.pop();
    if (step !== undefined) {
      this.redoStack.push({ template: this.template, group: null });
      this.template = step.template;
    }
    this.openGroup = null;
    return Promise.resolve(
      this.update(step === undefined ? { kind: "unchanged" } : { kind: "whole", template: this.template }),
    );
  }

  redo(id: number): Promise<Outcome<DocumentUpdate>> {
    const error = this.record("redo", id);
    if (error) return Promise.resolve({ ok: false, error });
    const step = this.redoStack.pop();
    if (step !== undefined) {
      this.undoStack.push({ template: this.template, group: null });
      this.template = step.template;
    }
    this.openGroup = null;
    return Promise.resolve(
      this.update(step === undefined ? { kind: "unchanged" } : { kind: "whole", template: this.template }),
    );
  }

  saveDocument(id: number, path: string | null): Promise<Outcome<DocumentUpdate>> {
    const error = this.record("saveDocument", id, path);
    if (error) return Promise.resolve({ ok: false, error });
    const target = path ?? this.currentPath;
    if (target === null) {
      const message = "this template has no file yet: save it as a new file";
      return Promise.resolve({ ok: false, error: { code: "invalid_template", message, problems: [] } });
    }
    this.files.set(target, JSON.stringify(this.template));
    this.currentPath = target;
    this.saved = this.template;
    this.openGroup = null;
    return Promise.resolve(this.update({ kind: "unchanged" }));
  }

  importTools(id: number, text: string): Promise<Outcome<ImportedTools>> {
    const error = this.record("importTools", id, text);
    if (error) return Promise.resolve({ ok: false, error });
    const recorded = recordedAnswer(this.template, { command: "importTools", args: { text } });
    return Promise.resolve((recorded as Outcome<ImportedTools> | undefined) ?? importToolsFrom(this.template, text));
  }

  checkTool(id: number, owner: ToolOwner, index: number | null, toolJson: string): Promise<Outcome<ProblemView[]>> {
    const error = this.record("checkTool", id, owner, index, toolJson);
    if (error) return Promise.resolve({ ok: false, error });
    const recorded = recordedAnswer(this.template, { command: "checkTool", args: { owner, index, text: toolJson } });
    return Promise.resolve(
      (recorded as Outcome<ProblemView[]> | undefined) ?? checkToolIn(this.template, owner, index, toolJson),
    );
  }

  newDocument(): Promise<Outcome<DocumentView>> {
    const error = this.record("newDocument");
    if (error) return Promise.resolve({ ok: false, error });
    const blank = { ...exampleTemplate(), key: "untitled", name: "Untitled", params: {}, tools: [] };
    blank.sections = [
      { key: "instructions", title: "Instructions", template: "", visibility: "full", tools: [], children: [] },
    ];
    return Promise.resolve(this.load(blank, null, true));
  }

  /**
   * What `templateEconomics` answers (the backend's figures are its tests'): the example's first
   * prompt against everything in full, read_section's definition, what reading `context` adds, each section's size.
   */
  economics: DisclosureEconomics = {
    first_tokens: 205,
    all_full_tokens: 291,
    disclosure_tools: [{ name: "read_section", tokens: 67 }],
    sections: [
      { path: "context", read_tokens: 150, tools: 2 },
      { path: "style", read_tokens: 12, tools: 0 },
    ],
    sections_left_out: 0,
    section_sizes: [
      { path: "task", full_tokens: 12, summary_tokens: null, tool_tokens: 0 },
      { path: "context", full_tokens: 1234, summary_tokens: 31, tool_tokens: 96 },
      { path: "context.examples", full_tokens: 40, summary_tokens: null, tool_tokens: 0 },
      { path: "context.history", full_tokens: 22, summary_tokens: null, tool_tokens: 0 },
      { path: "style", full_tokens: 18, summary_tokens: 26, tool_tokens: 0 },
    ],
  };

  templateEconomics(id: number): Promise<Outcome<DisclosureEconomics>> {
    const error = this.record("templateEconomics", id);
    return Promise.resolve(error ? { ok: false, error } : { ok: true, value: structuredClone(this.economics) });
  }

  /** Where `exampleFiles` writes the examples. */
  readonly examplesFolder = "/home/u/.local/share/dev.unfold.studio/examples";

  /** One example: the example template, with the lookup-first scenario. */
  exampleList(): Promise<Outcome<ExampleView[]>> {
    const error = this.record("exampleList");
    if (error) return Promise.resolve({ ok: false, error });
    const scenarios = [{ file: "lookup-first.scenario.json", name: "lookup-first" }];
    const about = "The specification's template: small, so showing everything wins";
    return Promise.resolve({
      ok: true,
      value: [{ template: "task-executor.unfold.json", name: "Task executor", about, scenarios }],
    });
  }

  /** Puts the example's files on the fake disk when they are not there, as the backend writes them. */
  exampleFiles(template: string, scenario: string | null): Promise<Outcome<ExampleFiles>> {
    const error = this.record("exampleFiles", template, scenario);
    if (error) return Promise.resolve({ ok: false, error });
    const templatePath = `${this.examplesFolder}/${template}`;
    if (!this.disk.has(templatePath)) this.disk.set(templatePath, exampleTemplate());
    const scenarioPath = scenario === null ? null : `${this.examplesFolder}/${scenario}`;
    if (scenarioPath !== null && !this.compare.disk.has(scenarioPath))
      this.compare.disk.set(scenarioPath, lookupFirstScenario());
    return Promise.resolve({ ok: true, value: { template: templatePath, scenario: scenarioPath } });
  }

  closeDocument(id: number): Promise<Outcome<null>> {
    const error = this.record("closeDocument", id);
    return Promise.resolve(error ? { ok: false, error } : { ok: true, value: null });
  }

  chooseFile(purpose: FilePurpose, suggestedPath: string | null): Promise<Outcome<string | null>> {
    const error = this.record("chooseFile", purpose, suggestedPath);
    return Promise.resolve(error ? { ok: false, error } : { ok: true, value: this.chosenPath });
  }

  recentFiles(): Promise<Outcome<RecentFile[]>> {
    const error = this.record("recentFiles");
    return Promise.resolve(error ? { ok: false, error } : { ok: true, value: this.recent });
  }

  forgetRecentFile(path: string): Promise<Outcome<RecentFile[]>> {
    const error = this.record("forgetRecentFile", path);
    if (error) return Promise.resolve({ ok: false, error });
    this.recent = this.recent.filter((file) => file.path !== path);
    return Promise.resolve({ ok: true, value: this.recent });
  }

  recoveredDocuments(): Promise<Outcome<RecoveredWork[]>> {
    const error = this.record("recoveredDocuments");
    return Promise.resolve(error ? { ok: false, error } : { ok: true, value: this.recovered });
  }

  restoreDocument(recoveryId: string): Promise<Outcome<DocumentView>> {
    const error = this.record("restoreDocument", recoveryId);
    if (error) return Promise.resolve({ ok: false, error });
    const entry = this.recovered.find((work) => work.id === recoveryId);
    const template = this.recoveredTemplates.get(recoveryId);
    if (entry === undefined || template === undefined) {
      const message = `no unsaved work is kept as '${recoveryId}'`;
      return Promise.resolve({ ok: false, error: { code: "invalid_template", message, problems: [] } });
    }
    return Promise.resolve(this.load(structuredClone(template), entry.path, true));
  }

  discardRecovered(recoveryId: string): Promise<Outcome<null>> {
    const error = this.record("discardRecovered", recoveryId);
    if (error) return Promise.resolve({ ok: false, error });
    this.recovered = this.recovered.filter((work) => work.id !== recoveryId);
    return Promise.resolve({ ok: true, value: null });
  }

  chooseToolList(): Promise<Outcome<{ path: string; text: string } | null>> {
    const error = this.record("chooseToolList");
    return Promise.resolve(error ? { ok: false, error } : { ok: true, value: this.chosenToolList });
  }

  closeWindow(): Promise<Outcome<null>> {
    const error = this.record("closeWindow");
    return Promise.resolve(error ? { ok: false, error } : { ok: true, value: null });
  }

  newScenario(templateId: number): Promise<Outcome<ScenarioView>> {
    return this.refuse("newScenario", templateId) ?? this.compare.newScenario();
  }

  openScenario(path: string, templateId: number | null): Promise<Outcome<ScenarioView>> {
    return this.refuse("openScenario", path, templateId) ?? this.compare.openScenario(path);
  }

  editScenario(
    id: number,
    scenario: Scenario,
    group: string | null,
    templateId: number | null,
  ): Promise<Outcome<ScenarioView>> {
    return (
      this.refuse("editScenario", id, scenario, group, templateId) ?? this.compare.editScenario(id, scenario, group)
    );
  }

  stepScenario(id: number, back: boolean, templateId: number | null): Promise<Outcome<ScenarioView>> {
    return this.refuse("stepScenario", id, back, templateId) ?? this.compare.stepScenario(id, back);
  }

  saveScenario(id: number, path: string | null, templateId: number | null): Promise<Outcome<ScenarioView>> {
    return this.refuse("saveScenario", id, path, templateId) ?? this.compare.saveScenario(id, path);
  }

  closeScenario(id: number): Promise<Outcome<null>> {
    return this.refuse("closeScenario", id) ?? this.compare.closeScenario(id);
  }

  restoreScenario(recoveryId: string, templateId: number | null): Promise<Outcome<ScenarioView>> {
    return this.refuse("restoreScenario", recoveryId, templateId) ?? this.compare.restoreScenario(recoveryId);
  }

  recentScenarios(): Promise<Outcome<RecentFile[]>> {
    return this.refuse("recentScenarios") ?? this.compare.recentScenarios();
  }

  runComparison(
    templateId: number,
    scenarioId: number,
    runId: number,
    settings: ComparisonSettings,
    onProgress: (progress: CompareProgress) => void,
  ): Promise<Outcome<ComparisonReport>> {
    return (
      this.refuse("runComparison", templateId, scenarioId, runId, settings) ??
      this.compare.runComparison(
        runId,
        settings.adapters,
        settings.live,
        onProgress,
        settings.hosts,
        settings.realHosts,
      )
    );
  }

  runStudy(
    templateId: number,
    scenarioId: number,
    studyId: number,
    settings: ComparisonSettings,
    study: StudySettings,
    onProgress: (progress: StudyProgress) => void,
  ): Promise<Outcome<StudyReport>> {
    return (
      this.refuse("runStudy", templateId, scenarioId, studyId, settings, study) ??
      this.study.runStudy(settings, study, onProgress)
    );
  }

  cancelStudy(studyId: number): Promise<Outcome<null>> {
    return this.refuse("cancelStudy", studyId) ?? this.study.cancelStudy();
  }

  pricedModels(): Promise<Outcome<PricedModels>> {
    return this.refuse("pricedModels") ?? this.compare.pricedModels();
  }

  hostPresets(): Promise<Outcome<HostProfile[]>> {
    return this.refuse("hostPresets") ?? this.compare.hostPresets();
  }

  probeHosts(
    names: string[],
    repeat: number,
    onProgress: (progress: ProbeProgress) => void,
  ): Promise<Outcome<ProbeOfHost[]>> {
    return this.refuse("probeHosts", names, repeat) ?? this.probe.probeHosts(names, repeat, onProgress);
  }

  cancelProbe(): Promise<Outcome<null>> {
    return this.refuse("cancelProbe") ?? this.probe.cancelProbe();
  }

  realHosts(): Promise<Outcome<HostView[]>> {
    return this.refuse("realHosts") ?? this.compare.realHosts();
  }

  realHostQuestion(name: string): Promise<Outcome<string | null>> {
    return this.refuse("realHostQuestion", name) ?? this.compare.realHostQuestion(name);
  }

  allowRealHost(name: string): Promise<Outcome<null>> {
    return this.refuse("allowRealHost", name) ?? this.compare.allowRealHost(name);
  }

  /** A session of the relay had an event: every watcher hears it. */
  relayEvent(entry: RelayLogEntry): void {
    for (const watcher of this.relayWatchers) watcher(entry);
  }

  private relayStatusNow(): Outcome<RelayStatus> {
    return { ok: true, value: { listening: this.relayListening, sessions: structuredClone(this.relaySessions) } };
  }

  relayStatus(): Promise<Outcome<RelayStatus>> {
    return this.refuse("relayStatus") ?? Promise.resolve(this.relayStatusNow());
  }

  startRelay(port: number | null): Promise<Outcome<RelayStatus>> {
    const refused = this.refuse<RelayStatus>("startRelay", port);
    if (refused !== undefined) return refused;
    this.relayListening ??= `http://127.0.0.1:${String(port ?? 7391)}`;
    return Promise.resolve(this.relayStatusNow());
  }

  stopRelay(): Promise<Outcome<RelayStatus>> {
    const refused = this.refuse<RelayStatus>("stopRelay");
    if (refused !== undefined) return refused;
    this.relayListening = null;
    this.relaySessions = [];
    this.relayWatchers.clear();
    return Promise.resolve(this.relayStatusNow());
  }

  watchRelay(onEntry: (entry: RelayLogEntry) => void): Promise<Outcome<null>> {
    const refused = this.refuse<null>("watchRelay", onEntry);
    if (refused !== undefined) return refused;
    if (this.relayListening !== null) this.relayWatchers.add(onEntry);
    return Promise.resolve({ ok: true, value: null });
  }

  cancelComparison(runId: number): Promise<Outcome<null>> {
    return this.refuse("cancelComparison", runId) ?? this.compare.cancelComparison(runId);
  }

  comparisonCall(runId: number, lane: Lane, callIndex: number): Promise<Outcome<CallRequest>> {
    return this.refuse("comparisonCall", runId, lane, callIndex) ?? this.compare.comparisonCall(lane, callIndex);
  }

  exportComparison(runId: number, path: string, format: ReportFormat): Promise<Outcome<null>> {
    return this.refuse("exportComparison", runId, path, format) ?? this.compare.exportComparison(path, format);
  }

  addToSuite(runId: number, suite: string, template: string, scenario: string): Promise<Outcome<string>> {
    return this.refuse("addToSuite", runId, suite, template, scenario) ?? this.compare.addToSuite(suite);
  }

  exportChart(runId: number, path: string, image: ChartImage): Promise<Outcome<null>> {
    return this.refuse("exportChart", runId, path, image) ?? this.compare.exportChart(path, image);
  }

  exportRequests(runId: number, folder: string, api: RequestShape): Promise<Outcome<number>> {
    return this.refuse("exportRequests", runId, folder, api) ?? this.compare.exportRequests(folder, api);
  }

  providerProfiles(): Promise<Outcome<ProfilesView>> {
    return this.refuse("providerProfiles") ?? this.compare.providerProfiles();
  }

  saveProviderProfiles(list: ProviderProfile[]): Promise<Outcome<ProfilesView>> {
    return this.refuse("saveProviderProfiles", list) ?? this.compare.saveProviderProfiles(list);
  }

  runHistory(filter: RunFilter): Promise<Outcome<RunSummary[]>> {
    return this.refuse("runHistory", filter) ?? this.compare.runHistory(filter);
  }

  historyRun(id: number): Promise<Outcome<StoredRun>> {
    return this.refuse("historyRun", id) ?? this.compare.historyRun(id);
  }

  compareHistoryRuns(baseline: number, id: number): Promise<Outcome<RunComparison>> {
    return this.refuse("compareHistoryRuns", baseline, id) ?? this.compare.compareHistoryRuns(baseline, id);
  }

  forkRun(request: ForkRequest): Promise<Outcome<ForkAnswer>> {
    return this.refuse("forkRun", request) ?? this.compare.forkRun(request);
  }

  exportRunTrace(id: number, path: string): Promise<Outcome<null>> {
    return this.refuse("exportRunTrace", id, path) ?? this.compare.exportRunTrace(id, path);
  }

  openSuite(path: string): Promise<Outcome<SuiteCase[]>> {
    const refused = this.refuse<SuiteCase[]>("openSuite", path);
    if (refused !== undefined) return refused;
    const suite = this.suites.get(path);
    return Promise.resolve(suite === undefined ? unreadable(path) : { ok: true, value: structuredClone(suite.cases) });
  }

  async runSuite(path: string): Promise<Outcome<SuiteCaseResult[]>> {
    const refused = this.refuse<SuiteCaseResult[]>("runSuite", path);
    if (refused !== undefined) return refused;
    if (this.holdSuite) await new Promise<void>((resume) => (this.heldSuite = resume));
    const suite = this.suites.get(path);
    return suite === undefined ? unreadable(path) : { ok: true, value: structuredClone(suite.results) };
  }

  /** Lets a held `runSuite` answer. */
  releaseSuite(): void {
    const resume = this.heldSuite;
    this.heldSuite = null;
    resume?.();
  }

  /** As the backend: a format is asked for, a Langfuse prompt takes no scenarios or provider, every scenario is a file. */
  exportTemplate(id: number, request: ExportRequest, path: string): Promise<Outcome<null>> {
    const refused = this.refuse<null>("exportTemplate", id, request, path);
    if (refused !== undefined) return refused;
    const invalid = (message: string, problems: ProblemView[] = []): Promise<Outcome<null>> =>
      Promise.resolve({
        ok: false,
        error: { code: problems.length > 0 ? "invalid_scenario" : "invalid_request", message, problems },
      });
    if (id !== this.id)
      return Promise.resolve({
        ok: false,
        error: { code: "unknown_document", message: `no open document has the id ${String(id)}`, problems: [] },
      });
    if (request.format === null || request.format === undefined)
      return invalid("choose a format: promptfoo or langfuse");
    if (request.format === "langfuse" && (request.scenarios.length > 0 || (request.provider ?? null) !== null)) {
      return invalid("a Langfuse prompt has no tests and names no model: export it without --scenario and --provider");
    }
    const missing = request.scenarios.filter((scenario) => !this.compare.disk.has(scenario));
    if (missing.length > 0) {
      const problems = missing.map((scenario) => ({
        location: scenario,
        message: "cannot read: No such file or directory (os error 2)",
      }));
      return invalid(problems.map((problem) => `${problem.location}: ${problem.message}`).join("\n"), problems);
    }
    this.exportedTemplates.set(path, { key: this.template.key, request: structuredClone(request) });
    return Promise.resolve({ ok: true, value: null });
  }

  /** A folder of `skillsFolders` opened as a new, untitled document; any other is not a skills folder. */
  openSkillsFolder(folder: string): Promise<Outcome<OpenedSkills>> {
    const refused = this.refuse<OpenedSkills>("openSkillsFolder", folder);
    if (refused !== undefined) return refused;
    const found = this.skillsFolders.get(folder) ?? {
      code: "invalid_template",
      message: `${folder}: no skill in this folder: a skill is a folder with a SKILL.md`,
      problems: [{ location: "", message: "no skill in this folder: a skill is a folder with a SKILL.md" }],
    };
    if ("code" in found) return Promise.resolve({ ok: false, error: found });
    const loaded = this.load(structuredClone(found), null, true);
    if (!loaded.ok) return Promise.resolve(loaded);
    // As the backend counts: a section holding a skill's files (`x-skill-files`) is no skill.
    const skills = found.sections.filter((section) => !("x-skill-files" in section)).length;
    return Promise.resolve({ ok: true, value: { document: loaded.value, skills, passed_over: [] } });
  }

  /** As the backend: a folder with files is refused at `overwrite` unless asked; a SKILL.md a skill. */
  exportSkills(id: number, folder: string, overwrite: boolean): Promise<Outcome<ExportedSkills>> {
    const refused = this.refuse<ExportedSkills>("exportSkills", id, folder, overwrite);
    if (refused !== undefined) return refused;
    if (id !== this.id)
      return Promise.resolve({
        ok: false,
        error: { code: "unknown_document", message: `no open document has the id ${String(id)}`, problems: [] },
      });
    if (this.foldersWithFiles.has(folder) && !overwrite) {
      const message = "the folder is not empty: nothing was written";
      return Promise.resolve({
        ok: false,
        error: {
          code: "invalid_request",
          message: `${folder}: ${SKILLS_OVERWRITE}: ${message}`,
          problems: [{ location: SKILLS_OVERWRITE, message }],
        },
      });
    }
    const skills = this.template.sections
      .filter((section) => !("x-skill-files" in section))
      .map((section) => section.key);
    this.exportedSkills.set(folder, skills);
    this.foldersWithFiles.add(folder);
    const written = skills.map((skill) => `${skill}/SKILL.md`);
    return Promise.resolve({
      ok: true,
      value: { skills: skills.length, written, unchanged: [], left_out: [] },
    });
  }

  templateSources(templateId: number): Promise<Outcome<SourceView[]>> {
    return this.refuse("templateSources", templateId) ?? Promise.resolve({ ok: true, value: this.sourceViews(false) });
  }

  allowSource(templateId: number, name: string): Promise<Outcome<SourceView[]>> {
    const refused = this.refuse<SourceView[]>("allowSource", templateId, name);
    if (refused) return refused;
    const source = (this.template.sources ?? []).find((s) => s.name === name);
    const invalid = (message: string): Promise<Outcome<SourceView[]>> =>
      Promise.resolve({ ok: false, error: { code: "invalid_request", message, problems: [] } });
    if (source === undefined) return invalid(`the template has no source named '${name}'`);
    if (this.currentPath === null) {
      return invalid(`cannot allow source '${name}': save the template first: an answer is kept for its file`);
    }
    this.allowedSources.set(sourceKey(this.currentPath, name), definitionOf(source));
    return Promise.resolve({ ok: true, value: this.sourceViews(false) });
  }

  revokeSource(templateId: number, name: string): Promise<Outcome<SourceView[]>> {
    const refused = this.refuse<SourceView[]>("revokeSource", templateId, name);
    if (refused) return refused;
    if (this.currentPath !== null) this.allowedSources.delete(sourceKey(this.currentPath, name));
    return Promise.resolve({ ok: true, value: this.sourceViews(false) });
  }

  discoverSources(templateId: number): Promise<Outcome<SourceView[]>> {
    return this.refuse("discoverSources", templateId) ?? Promise.resolve({ ok: true, value: this.sourceViews(true) });
  }

  /** Each source as the panel shows it: its snapshot, or with `live` what an allowed one lists now. */
  private sourceViews(live: boolean): SourceView[] {
    const path = this.currentPath;
    return (this.template.sources ?? []).map((source) => {
      const allowed = path === null ? undefined : this.allowedSources.get(sourceKey(path, source.name));
      // As the backend: a relay source starts nothing, so it needs no answer.
      const permission =
        source.mcp === undefined
          ? "not_needed"
          : path === null
            ? "unsaved"
            : allowed === undefined
              ? "not_allowed"
              : allowed === definitionOf(source)
                ? "allowed"
                : "changed";
      const offline = (error: string | null) => {
        const snapshot = source.snapshot;
        if (snapshot === undefined) {
          const why = "not started, and it has no snapshot";
          return { tier: "none" as const, tools: [], error: error === null ? why : `${error}; ${why}` };
        }
        return { tier: "snapshot" as const, tools: snapshot, error };
      };
      const listed = this.liveSources.get(source.name);
      const found = !live
        ? offline(null)
        : permission !== "allowed" && permission !== "not_needed"
          ? offline(`source '${source.name}' is not allowed`)
          : listed === undefined || typeof listed === "string"
            ? offline(listed ?? `source '${source.name}' did not answer`)
            : { tier: "live" as const, tools: listed, error: null };
      return {
        name: source.name,
        section: source.section,
        starts: startsOf(source, path),
        remote: isRemote(source),
        permission,
        ...found,
      };
    });
  }

  onCloseRequested(listener: () => void): Promise<Unlisten> {
    this.closeListeners.add(listener);
    return Promise.resolve(() => {
      this.closeListeners.delete(listener);
    });
  }

  onFilesDropped(listener: (paths: string[]) => void): Promise<Unlisten> {
    this.dropListeners.add(listener);
    return Promise.resolve(() => {
      this.dropListeners.delete(listener);
    });
  }

  /** Previews sent so far (each is whole: the fake sends no changes). */
  private previews = 0;

  previewDocument(
    id: number,
    expand: string[],
    expandAll: boolean,
    base: number | null,
  ): Promise<Outcome<PreviewUpdate>> {
    const error = this.record("previewDocument", id, expand, expandAll, base);
    if (error) return Promise.resolve({ ok: false, error });
    this.previews += 1;
    const args = { expand, expand_all: expandAll };
    const recorded = recordedAnswer(this.template, { command: "previewDocument", args }) as
      Outcome<PreviewUpdate> | undefined;
    if (recorded?.ok === true)
      return Promise.resolve({ ok: true, value: { ...recorded.value, serial: this.previews } });
    const { parts, tools: names } = previewOf(this.template, expand, expandAll);
    const tools = names.map((name) => ({ type: "function", function: { name } }));
    const prompt = { base: null, keep_start: 0, keep_end: 0, parts };
    // Counted as characters here (the backend counts o200k_base tokens).
    const toolTokens = JSON.stringify(tools).length * Math.min(1, tools.length);
    return Promise.resolve({
      ok: true,
      value: {
        serial: this.previews,
        prompt,
        tools,
        prompt_tokens: parts.join("").length + toolTokens,
        tool_tokens: toolTokens,
      },
    });
  }
}

/**
 * What the core renders, for a template with plain headings: the prompt's parts (a section each,
 * a summarized one with the note naming the disclosure tool) and the names of the tools offered,
 * with `expand` sections read (and their ancestors) or every one with `expandAll`.
 */
export function previewOf(
  template: Template,
  expand: readonly string[],
  expandAll: boolean,
): { parts: string[]; tools: string[] } {
  const names = template.tools.map((tool) => tool.name);
  const builtin = template.disclosure === "open_sections" ? "open_sections" : "read_section";
  const chunks: string[] = [];
  const summarized: string[] = [];
  const read = (path: string) => expand.some((p) => p === path || p.startsWith(`${path}.`));
  const substitute = (text: string) =>
    text.trim().replace(/\$\{(\w+)\}/g, (whole, name: string) => template.params[name]?.toString() ?? whole);
  const visit = (sections: Section[], parent: string, number: string) => {
    for (const [index, section] of sections.entries()) {
      const path = parent === "" ? section.key : `${parent}.${section.key}`;
      const at = number === "" ? String(index + 1) : `${number}.${String(index + 1)}`;
      const heading = `${"#".repeat(at.split(".").length + 1)} ${at} ${section.title.trim()}`;
      const body = (text: string) => (substitute(text) === "" ? "" : `\n\n${substitute(text)}`);
      if (section.visibility === "summary" && section.summary !== undefined && !expandAll && !read(path)) {
        summarized.push(path);
        const children = section.children.map((child) => child.key);
        const note =
          children.length === 0
            ? `[This section is summarized. To view full content, call \`${builtin}\` with key "${path}".]`
            : `[This section is summarized. Call \`${builtin}\` with key "${path}" to view full content including subsections: ${children.join(", ")}.]`;
        chunks.push(`${heading}${body(section.summary)}\n\n---\n${note}`);
        continue;
      }
      chunks.push(`${heading}${body(section.template)}`);
      names.push(...section.tools.map((tool) => tool.name));
      visit(section.children, path, at);
    }
  };
  visit(template.sections, "", "");
  if (summarized.length > 0) names.push(builtin);
  const parts = chunks.map((chunk, i) => `${chunk}${i === chunks.length - 1 ? "\n" : "\n\n"}`);
  return { parts, tools: names };
}

/** The shapes the core reads a tool in, as its refusals list them. */
const ACCEPTED_SHAPES =
  'expected an OpenAI Chat Completions tool {"type": "function", "function": {"name", "description", "parameters"}}, an OpenAI Responses tool {"type": "function", "name", "description", "parameters"} or an Anthropic tool {"name", "description", "input_schema"}';

/** A JSON value's kind, in the core's words ("a number", "an array", "null"). */
function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/**
 * Reads a tool list as the core does, roughly: Anthropic (`input_schema`), OpenAI Chat
 * (`{type: "function", function}`) or OpenAI Responses (`{type: "function", name}`); anything else
 * is refused with a problem at its place.
 */
export function importToolsFrom(template: Template, text: string): Outcome<ImportedTools> {
  const invalid = (location: string, message: string): Outcome<ImportedTools> => ({
    ok: false,
    error: {
      code: "invalid_tools",
      message: location === "" ? message : `${location}: ${message}`,
      problems: [{ location, message }],
    },
  });
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return invalid("", "not JSON");
  }
  if (typeof parsed !== "object" || parsed === null) {
    return invalid("", `expected a tools array or a single tool object, found ${kindOf(parsed)}`);
  }
  // One tool alone is read as a list of one, its problems at the top.
  const items = Array.isArray(parsed) ? (parsed as unknown[]) : [parsed];
  const at = (index: number) => (Array.isArray(parsed) ? `/${String(index)}` : "");
  const tools: Tool[] = [];
  let format = "";
  for (const [index, item] of items.entries()) {
    if (typeof item !== "object" || item === null || Array.isArray(item)) {
      return invalid(at(index), `found ${kindOf(item)}; ${ACCEPTED_SHAPES}`);
    }
    const entry = item as Record<string, unknown>;
    const inner = (typeof entry.function === "object" && entry.function !== null ? entry.function : {}) as Record<
      string,
      unknown
    >;
    let found: [string, Record<string, unknown>, unknown] | null = null;
    if ("input_schema" in entry) found = ["Anthropic Messages", entry, entry.input_schema];
    else if (entry.type === "function" && "function" in entry)
      found = ["OpenAI Chat Completions", inner, inner.parameters];
    else if (entry.type === "function" && "name" in entry) found = ["OpenAI Responses", entry, entry.parameters];
    if (found === null || typeof found[1].name !== "string")
      return invalid(at(index), `not a tool of a known shape; ${ACCEPTED_SHAPES}`);
    format = found[0];
    const description = typeof found[1].description === "string" ? found[1].description : "";
    tools.push({
      name: found[1].name,
      description,
      parameters: (found[2] ?? { type: "object" }) as Tool["parameters"],
    });
  }
  const taken = new Set(allTools(template).map((tool) => tool.name));
  const conflicts = tools.filter((tool) => taken.has(tool.name)).map((tool) => tool.name);
  return { ok: true, value: { format, tools, conflicts } };
}

/**
 * Checks a tool's JSON text as the core does, roughly: JSON, an object, a name of the right shape
 * that is no builtin's and no other tool's, a description, and `parameters` an object schema (with a
 * `required` list as the stand-in for the meta-schema); an unknown place is refused.
 */
export function checkToolIn(
  template: Template,
  owner: ToolOwner,
  index: number | null,
  text: string,
): Outcome<ProblemView[]> {
  const tools = toolsOf(template, owner);
  if (tools === null || (index !== null && index >= tools.length)) {
    return { ok: false, error: { code: "invalid_edit", message: "no such tool list or position", problems: [] } };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: true, value: [{ location: "line 1, column 1", message: "invalid JSON" }] };
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    return { ok: true, value: [{ location: "", message: "expected a tool object" }] };
  }
  const tool = parsed as Record<string, unknown>;
  const problems: ProblemView[] = [];
  const problem = (location: string, message: string) => problems.push({ location, message });
  if (typeof tool.description !== "string") problem("", 'missing required field "description"');
  const { name, parameters } = tool;
  if (typeof name !== "string" || !/^[A-Za-z0-9_-]{1,64}$/.test(name)) {
    problem("/name", `${JSON.stringify(name)} is not a valid tool name: use 1 to 64 letters, digits, '_' or '-'`);
  } else if (["read_section", "open_sections", "pick_tools"].includes(name)) {
    problem("/name", `'${name}' is a builtin tool's name and is reserved`);
  } else {
    const other = placedTools(template).find(
      ({ tool: held }) => held.name === name && held !== (index === null ? null : tools[index]),
    );
    if (other !== undefined) problem("/name", `the template already has a tool named '${name}' (${other.place})`);
  }
  const schema = (typeof parameters === "object" && parameters !== null ? parameters : null) as Record<
    string,
    unknown
  > | null;
  if (schema === null || Array.isArray(schema)) problem("/parameters", "must be a JSON Schema object");
  else if ("type" in schema && schema.type !== "object") {
    problem("/parameters", `must describe an object ("type": "object"), not ${JSON.stringify(schema.type)}`);
  } else if ("required" in schema && !Array.isArray(schema.required)) {
    problem("/parameters", `not a valid JSON Schema: ${JSON.stringify(schema.required)} is not of type "array"`);
  }
  return { ok: true, value: problems };
}

/** The backend's answer for a file that is not there. */
function unreadable<T>(path: string): Outcome<T> {
  return {
    ok: false,
    error: {
      code: "unreadable_file",
      message: `${path}: cannot read: No such file or directory (os error 2)`,
      problems: [],
    },
  };
}

/** The core's main checks of a template's sources, each problem at its place. */
function sourceProblems(template: Template): ProblemView[] {
  const problems: ProblemView[] = [];
  for (const [index, source] of (template.sources ?? []).entries()) {
    const at = `/sources/${String(index)}`;
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(source.name)) {
      problems.push({ location: `${at}/name`, message: `${JSON.stringify(source.name)} is not a valid source name` });
    }
    if (source.section !== null && sectionIn(template, source.section) === null) {
      problems.push({ location: `${at}/section`, message: `no section '${source.section}' in the template` });
    }
    const url = source.mcp?.url;
    if (url !== undefined && !/^https?:\/\//.test(url)) {
      problems.push({ location: `${at}/mcp/url`, message: `'${url}' is not an http:// or https:// URL` });
    }
  }
  return problems;
}

/** The key of a source's answer: its template's file and its name. */
function sourceKey(path: string, name: string): string {
  return `${path}\n${name}`;
}

/** What an answer holds for, as the backend fingerprints it: the name, the server or the plugin. */
function definitionOf(source: ToolSource): string {
  return JSON.stringify({ name: source.name, mcp: source.mcp ?? null, relay: source.relay ?? null });
}

/** What starting `source` does, in the backend's words. */
function startsOf(source: ToolSource, path: string | null): string {
  if (source.relay !== undefined) return `the relay plugin '${source.relay.plugin}'`;
  const mcp = source.mcp;
  if (mcp === undefined) return "";
  if (mcp.url !== undefined) return `connects to ${mcp.url}`;
  const line = (mcp.command ?? []).map((arg) => (/^[A-Za-z0-9_./=:@%+,-]+$/.test(arg) ? arg : `'${arg}'`)).join(" ");
  let words = `runs ${line}`;
  if (path !== null) {
    const folder = path.slice(0, path.lastIndexOf("/"));
    words += ` in ${mcp.cwd === undefined ? folder : `${folder}/${mcp.cwd}`}`;
  }
  const env = Object.keys(mcp.env ?? {});
  if (env.length > 0) words += ` with ${env.join(", ")}`;
  return words;
}

/** Whether `source`'s URL reaches another machine. */
function isRemote(source: ToolSource): boolean {
  const url = source.mcp?.url;
  if (url === undefined) return false;
  try {
    const host = new URL(url).hostname;
    return !(host === "localhost" || host.startsWith("127.") || host === "[::1]");
  } catch {
    return true;
  }
}

/** A list of sources as an edit carries them (absent fields may be null) as a template holds it. */
function heldSources(sources: Extract<TemplateEdit, { op: "set_sources" }>["sources"]): ToolSource[] {
  return sources.map((source) => {
    const kept = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== null));
    return { ...kept, section: source.section ?? null } as ToolSource;
  });
}

/** A tool as an edit carries it (absent fields may be null) as a template holds it. */
function held(tool: Extract<TemplateEdit, { op: "insert_tool" }>["tool"]): Tool {
  return Object.fromEntries(Object.entries(tool).filter(([, value]) => value !== null)) as Tool;
}

/** Every tool of the template: its own and every section's. */
function allTools(template: Template): Tool[] {
  return placedTools(template).map(({ tool }) => tool);
}

/** Every tool of the template with where it is, in the core's words. */
function placedTools(template: Template): { tool: Tool; place: string }[] {
  const placed = template.tools.map((tool) => ({ tool, place: "among its own tools" }));
  const visit = (sections: Section[], parent: string) => {
    for (const section of sections) {
      const path = parent === "" ? section.key : `${parent}.${section.key}`;
      placed.push(...section.tools.map((tool) => ({ tool, place: `in section '${path}'` })));
      visit(section.children, path);
    }
  };
  visit(template.sections, "");
  return placed;
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

/** The core's refusal of `key` as a section key. */
function notASectionKey(key: string): string {
  return `'${key}' is not a section key: lowercase letters, digits, _ and -, starting with a letter or a digit`;
}

/** The core's key check: its refusal, or null. */
function keyProblem(siblings: Section[], key: string): string | null {
  if (!/^[a-z0-9][a-z0-9_-]*$/.test(key)) return notASectionKey(key);
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

/** Applies `edit` to `template` as the core does: the core's refusal, or null once applied. */
export function editRefusal(template: Template, edit: TemplateEdit): PlatformError | null {
  const message = applyTo(template, edit);
  return message === null ? null : { code: "invalid_edit", message, problems: [{ location: "", message }] };
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
      if (!/^[a-z0-9][a-z0-9_-]*$/.test(edit.key)) return notASectionKey(edit.key);
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
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(edit.name)) {
        return `'${edit.name}' is not a parameter name: use letters, digits and _, not first a digit`;
      }
      const { value, index } = edit;
      const kept = Object.entries(template.params).filter(([name]) => name !== edit.name);
      const at = Object.keys(template.params).indexOf(edit.name);
      // As the core: at `index` when given, else where it was, else last (never past the end).
      const wanted = index ?? (at < 0 ? kept.length : at);
      if (value !== null && value !== undefined) kept.splice(Math.min(wanted, kept.length), 0, [edit.name, value]);
      template.params = Object.fromEntries(kept);
      return null;
    }
    case "insert_tool": {
      const tools = toolsOf(template, edit.owner);
      if (tools === null) return "no such tool list";
      if (allTools(template).some((tool) => tool.name === edit.tool.name)) {
        return `the template already has a tool named '${edit.tool.name}'`;
      }
      if (edit.index > tools.length) return `no tool position ${String(edit.index)}`;
      tools.splice(edit.index, 0, held(edit.tool));
      return null;
    }
    case "replace_tool": {
      const tools = toolsOf(template, edit.owner);
      const current = tools?.[edit.index];
      if (tools === null || current === undefined) return `no tool at position ${String(edit.index)}`;
      if (allTools(template).some((tool) => tool.name === edit.tool.name && tool !== current)) {
        return `the template already has a tool named '${edit.tool.name}'`;
      }
      tools[edit.index] = held(edit.tool);
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
    case "set_sources":
      // As the core: taken whole (its problems are the template's), and not written when empty.
      if (edit.sources.length === 0) delete template.sources;
      else template.sources = heldSources(edit.sources);
      return null;
  }
}
