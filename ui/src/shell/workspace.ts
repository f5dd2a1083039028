// The app around the editor, without React: which template is open (its editor, sources and exports:
// `TemplateStores`) or the start page, which page shows (Edit, Compare, History, Suites), the stores
// that outlive a switch of template (the Compare page's, wired in `compareStores`, the history's, the
// suites'), the recent files, the unsaved work recovered after a crash, and every way to switch
// documents (new, open by dialog, recent list or dropped file, a skills folder opened as a template,
// the example, a restore). Each switch,
// like closing the window, first asks what to do with unsaved changes (of the template, and on
// closing of the scenario too); whatever the answer, nothing the user had is lost unless they chose
// "Don't save". App reads it through `subscribe`/`getState`.
import type {
  AdapterKind,
  DocumentView,
  ExampleView,
  Outcome,
  Platform,
  PlatformError,
  RecentFile,
  RecoveredWork,
} from "../platform";
import { ComparisonStore, type OpenTemplate, type SuiteLink } from "../compare/store";
import { ADAPTERS } from "../runs/run";
import { EditorStore } from "../editor/store";
import { EconomicsStore } from "../editor/economics";
import { TemplateExportStore } from "../exports/store";
import { ProviderStore } from "../providers/store";
import { ScenarioStore, type AskUnsaved, type UnsavedAnswer } from "../scenario/store";
import { OutcomeStore } from "../shared/outcome";
import { SourcesStore } from "../sources/store";
import { HistoryStore } from "../history/store";
import { HostsStore } from "../hosts/store";
import { SuiteStore } from "../suites/store";
import { ExternalStore } from "../shared/ExternalStore";
import { describeError, describeWithProblems, type Failure } from "../shared/failure";
import { loadInitialView } from "./launch";

/** Why a document could not be opened: the file, what went wrong and every problem at its place. */
export interface OpenFailure extends Failure {
  path: string | null;
}

/** A template open in the window: its editor, and the stores that follow its document. */
export interface TemplateStores {
  editor: EditorStore;
  /** The economics of its disclosure (the preview pane's first line, the tree's read costs). */
  economics: EconomicsStore;
  /** Its tool sources (the Edit page's Sources tab). */
  sources: SourcesStore;
  /** Its exports to other tools' formats (the Export menu). */
  exports: TemplateExportStore;
}

/**
 * The stores of `document` open: its editor, and the sources and exports that follow it;
 * `skillsFolder`, the skills folder it was opened from, if any (its exports start there).
 */
export function templateStores(
  platform: Platform,
  document: DocumentView,
  skillsFolder: string | null = null,
): TemplateStores {
  const editor = new EditorStore(platform, document);
  const economics = new EconomicsStore(platform, editor);
  return {
    editor,
    economics,
    // What the sources listed shows in the preview and its figures from then on.
    sources: new SourcesStore(platform, editor, () => {
      void editor.refreshPreview();
      void economics.read();
    }),
    exports: new TemplateExportStore(
      platform,
      () => editor.getState().document,
      () => editor.idle(),
      skillsFolder,
    ),
  };
}

/**
 * The Compare page's stores: the open scenario, the provider profiles and the comparison of the
 * scenario on the open template, and what became of the page's last action, which all three say.
 */
export interface CompareStores {
  outcome: OutcomeStore;
  scenario: ScenarioStore;
  providers: ProviderStore;
  comparison: ComparisonStore;
}

/**
 * The Compare page's stores, wired: the comparison runs the scenario store's scenario with the
 * provider store's profiles, and lets go of its run when another scenario replaces that one;
 * `sourcesAllowed`: sources were allowed before a run.
 */
export function compareStores(
  platform: Platform,
  openTemplate: () => OpenTemplate | null,
  askUnsaved: AskUnsaved,
  sourcesAllowed: () => void = () => undefined,
  suites?: SuiteLink,
): CompareStores {
  const outcome = new OutcomeStore();
  const providers = new ProviderStore(platform, outcome);
  const scenario = new ScenarioStore(
    platform,
    () => openTemplate()?.id ?? null,
    askUnsaved,
    outcome,
    () => {
      comparison.forget();
    },
  );
  const comparison = new ComparisonStore(
    platform,
    openTemplate,
    scenario,
    () => providers.getState().profiles,
    outcome,
    sourcesAllowed,
    suites,
  );
  return { outcome, scenario, providers, comparison };
}

export type Screen =
  | { kind: "loading" }
  | { kind: "outside_tauri" }
  /** Nothing open: the start page (new, open, example, recent files). */
  | { kind: "start" }
  | ({ kind: "editor" } & TemplateStores);

/** What the unsaved-changes question is about, and what happens once it is answered. */
export interface UnsavedQuestion {
  /** The file name (or "Untitled") of the document with unsaved changes. */
  name: string;
  /** What the user asked for: another document, or closing the window. */
  reason: "switch" | "close";
}

/**
 * What the window shows: the template editor (or the start page when no template is open), the
 * compare view beside it, or the run history or the suites (each with or without a template).
 */
export type Page = "edit" | "compare" | "history" | "suites" | "hosts";

/** The pages without a template: the start page ("edit"), the run history, the suites and the hosts. */
export const START_PAGES: readonly Page[] = ["edit", "history", "suites", "hosts"];
/** The pages with a template open. */
export const EDITOR_PAGES: readonly Page[] = ["edit", "compare", "history", "suites", "hosts"];

/** The pages that need no template (the start page aside): they show with or without one. */
export const TEMPLATE_FREE_PAGES: readonly Page[] = ["history", "suites", "hosts"];

export interface WorkspaceState {
  screen: Screen;
  page: Page;
  recent: RecentFile[];
  /** The built-in examples the start page offers (none until read, or when they cannot be). */
  examples: ExampleView[];
  recovered: RecoveredWork[];
  /** The user put the offer of `recovered` away ("Later"): it is kept, and offered at the next start. */
  recoveryHidden: boolean;
  /** The last open that failed (the open document, if any, stays as it was). */
  openFailure: OpenFailure | null;
  /** What the last open said beside the document it opened (a skills folder's), until shown as a toast. */
  notice: string | null;
  question: UnsavedQuestion | null;
}

/** What opening the skills folder `folder` says: how many skills, and what of it was passed over. */
export function openedSkillsNotice(folder: string, skills: number, passedOver: readonly string[]): string {
  const opened = `Opened ${String(skills)} ${skills === 1 ? "skill" : "skills"} from ${folder} as a new template`;
  return passedOver.length === 0 ? opened : `${opened}; passed over ${passedOver.join(", ")}`;
}

/**
 * Why a skills folder was not opened: the backend's message, which names each SKILL.md that cannot
 * be read with its line (a problem alone has only the line: the files would be lost).
 */
export function skillsFailure(error: PlatformError): Failure {
  const described = describeError(error);
  return error.code === "invalid_template"
    ? { title: "This skills folder cannot be opened", detail: error.message, problems: [] }
    : { ...described, problems: [] };
}

/** The file name of a path, or "Untitled". */
function displayName(path: string | null): string {
  return path === null ? "Untitled" : (path.split(/[\\/]/).pop() ?? path);
}

export class WorkspaceStore extends ExternalStore<WorkspaceState> {
  /** Continues the action waiting for the unsaved-changes answer. */
  private pendingAnswer: ((answer: UnsavedAnswer) => void) | null = null;
  private started = false;

  /** The Compare page's: its scenario runs on the open template, and outlives a switch of template. */
  readonly compare: CompareStores;
  /** The run history: its filter, selection and baseline stay while other pages show. */
  readonly history: HistoryStore;
  /** The suites: the open suite and its last run's results stay while other pages show. */
  readonly suites: SuiteStore;
  /** The host probe: its last matrix stays while other pages show. */
  readonly hosts: HostsStore;

  constructor(private readonly platform: Platform) {
    super({
      screen: { kind: "loading" },
      page: "edit",
      recent: [],
      examples: [],
      recovered: [],
      recoveryHidden: false,
      openFailure: null,
      notice: null,
      question: null,
    });
    this.compare = compareStores(
      platform,
      () => this.openTemplate(),
      (name, reason) => this.ask(name, reason),
      // Allowed before a run: the Sources panel shows the new answers.
      () => void this.template?.sources.reread(),
      // A comparison added to a suite as a case: the Suites page shows that suite.
      { openSuite: () => this.suites.getState().path, show: (path) => void this.suites.openPath(path) },
    );
    this.history = new HistoryStore(platform);
    this.suites = new SuiteStore(platform);
    this.hosts = new HostsStore(platform);
  }

  private openTemplate(): OpenTemplate | null {
    const document = this.editor?.getState().document;
    return document === undefined
      ? null
      : { id: document.id, path: document.path, dirty: document.dirty, template: document.template };
  }

  /**
   * Shows the editor, the compare view, the run history (which lists the runs kept until now when
   * it shows) or the suites; the scenario is checked against the template as it is now.
   */
  showPage(page: Page): void {
    this.update({ page });
    if (page === "compare") void this.compare.scenario.recheck();
  }

  /** Shows the run history with the kept run `id` open on its timeline. */
  async openKeptRun(id: number): Promise<void> {
    this.showPage("history");
    await this.history.select(id);
  }

  /** Shows a fork's first run beside its parent on the History page (`kept`: its runs' ids). */
  async openFork(kept: readonly number[]): Promise<void> {
    const first = kept[0];
    if (first === undefined) return;
    this.showPage("history");
    await this.history.openBesideParent(first);
  }

  /** The open template's stores, if any. */
  get template(): TemplateStores | null {
    const { screen } = this.state;
    return screen.kind === "editor" ? screen : null;
  }

  /** The open document's editor, if any. */
  get editor(): EditorStore | null {
    return this.template?.editor ?? null;
  }

  /** Opens the launch template (or shows the start page), and reads the recent files and recovered work. */
  async start(): Promise<void> {
    // React's strict mode runs effects twice in development: start once.
    if (this.started) return;
    this.started = true;
    if (!this.platform.isTauri()) {
      this.update({ screen: { kind: "outside_tauri" } });
      return;
    }
    const [view, recent, recovered] = await Promise.all([
      loadInitialView(this.platform),
      this.platform.recentFiles(),
      this.platform.recoveredDocuments(),
    ]);
    this.update({
      recent: recent.ok ? recent.value : [],
      recovered: recovered.ok ? recovered.value : [],
    });
    if (view.kind === "open") {
      await this.showWithPreview(view.document);
      await this.openLaunchScenario();
    } else if (view.kind === "error") {
      const { path, title, detail, problems } = view;
      this.update({ screen: { kind: "start" }, openFailure: { path, title, detail, problems } });
    } else {
      this.update({ screen: view.kind === "outside_tauri" ? view : { kind: "start" } });
      if (view.kind === "no_template") await this.openLaunchSuite();
    }
  }

  /**
   * Reads the built-in examples, once: the start page asks when it shows, so a start that opens a
   * template does not read them.
   */
  async readExamples(): Promise<void> {
    if (this.state.examples.length > 0) return;
    const examples = await this.platform.exampleList();
    if (examples.ok) this.update({ examples: examples.value });
  }

  /** Opens the suite the app was started with (`unfold-app SUITE`), if any, on the Suites page. */
  private async openLaunchSuite(): Promise<void> {
    const suite = await this.platform.initialSuitePath();
    if (!suite.ok || suite.value === null) return;
    this.update({ page: "suites" });
    await this.suites.openPath(suite.value);
  }

  /** Opens the scenario the app was started with, if any, on the compare view. */
  private async openLaunchScenario(): Promise<void> {
    const scenario = await this.platform.initialScenarioPath();
    if (!scenario.ok || scenario.value === null) return;
    this.update({ page: "compare" });
    await this.compare.scenario.openPath(scenario.value);
  }

  private show(document: DocumentView, skillsFolder: string | null = null): void {
    const stores = templateStores(this.platform, document, skillsFolder);
    this.update({ screen: { kind: "editor", ...stores }, openFailure: null });
  }

  /**
   * Shows `document` once its first preview is in (or has failed), so that the editor's first frame
   * has it: at start the page has nothing to draw meanwhile, and drawing the editor first kept the
   * preview's answer waiting behind that render, then took another (on the example, 30 ms).
   */
  private async showWithPreview(document: DocumentView): Promise<void> {
    const stores = templateStores(this.platform, document);
    await stores.editor.firstPreview;
    this.update({ screen: { kind: "editor", ...stores }, openFailure: null });
  }

  /** Starts a new, untitled template. */
  newDocument(): Promise<boolean> {
    return this.switchTo(null, () => this.platform.newDocument());
  }

  /**
   * Opens a built-in example as saved files (written into the app's data folder the first time,
   * never over the user's own): its template, and with `scenario` the Compare page with that
   * scenario's comparison run, so the verdict is the first thing shown.
   */
  async openExample(template: string, scenario: string | null = null): Promise<boolean> {
    const files = await this.platform.exampleFiles(template, scenario);
    if (!files.ok) {
      this.update({ openFailure: { path: null, ...describeError(files.error), problems: [] } });
      return false;
    }
    if (files.value.scenario === null) return this.openPath(files.value.template);
    // Every way of giving the agent its tools, so the verdict weighs them all.
    return this.openComparison(files.value.template, files.value.scenario, { run: true, adapters: ADAPTERS });
  }

  /**
   * Opens `template` with `scenario` on the Compare page (a kept comparison's files, an example's),
   * and with `run` runs it, under `adapters` when given.
   */
  async openComparison(
    template: string,
    scenario: string,
    { run = false, adapters }: { run?: boolean; adapters?: readonly AdapterKind[] } = {},
  ): Promise<boolean> {
    if (!(await this.openPath(template))) return false;
    this.update({ page: "compare" });
    const { comparison } = this.compare;
    if (adapters !== undefined) comparison.setModel({ ...comparison.getState().model, adapters: [...adapters] });
    if (!(await this.compare.scenario.openPath(scenario))) return false;
    if (run) await comparison.run();
    return true;
  }

  /** Asks which file to open (the native dialog), then opens it. */
  async openChosen(): Promise<boolean> {
    const current = this.editor?.getState().document.path ?? null;
    const chosen = await this.platform.chooseFile("open", current);
    if (!chosen.ok) {
      this.update({ openFailure: { path: null, ...describeError(chosen.error), problems: [] } });
      return false;
    }
    return chosen.value === null ? false : this.openPath(chosen.value);
  }

  /**
   * Asks for a folder of Agent Skills (the native dialog), then opens it as a new, untitled
   * template, as New does: nothing is written until the user saves it where they choose. What was
   * opened is said in a toast; a SKILL.md that cannot be read, at its file and line.
   */
  async openSkillsChosen(): Promise<boolean> {
    const chosen = await this.platform.chooseFile("open_skills", null);
    if (!chosen.ok) {
      this.update({ openFailure: { path: null, ...describeError(chosen.error), problems: [] } });
      return false;
    }
    const folder = chosen.value;
    if (folder === null) return false;
    let said: string | null = null;
    const opened = await this.switchTo(
      null,
      async () => {
        const answer = await this.platform.openSkillsFolder(folder);
        if (!answer.ok) return answer;
        said = openedSkillsNotice(folder, answer.value.skills, answer.value.passed_over);
        return { ok: true, value: answer.value.document };
      },
      { failed: skillsFailure, skillsFolder: folder },
    );
    if (opened) this.update({ notice: said });
    return opened;
  }

  /** The notice was shown. */
  noticeTaken(): void {
    this.update({ notice: null });
  }

  /** Opens the template file at `path` (a recent file, a dropped file). */
  openPath(path: string): Promise<boolean> {
    return this.switchTo(path, () => this.platform.openDocument(path));
  }

  /** Opens the first of the dropped files: a scenario (`*.scenario.json`) in the compare view. */
  async openDropped(paths: readonly string[]): Promise<boolean> {
    const [first] = paths;
    if (first === undefined) return false;
    if (!first.endsWith(".scenario.json")) return this.openPath(first);
    if (this.editor === null) {
      const message = "Open a template first: a scenario runs on the open template";
      this.update({
        openFailure: { path: first, title: "This scenario was not opened", detail: message, problems: [] },
      });
      return false;
    }
    const opened = await this.compare.scenario.openPath(first);
    if (opened) this.showPage("compare");
    return opened;
  }

  /**
   * Opens recovered work as a modified document (a scenario in the compare view); it is no longer
   * offered.
   */
  async restore(recoveryId: string): Promise<boolean> {
    const scenario = this.state.recovered.find((work) => work.id === recoveryId)?.kind === "scenario";
    const restored = scenario
      ? await this.compare.scenario.restore(recoveryId)
      : await this.switchTo(null, () => this.platform.restoreDocument(recoveryId));
    if (!restored) return false;
    this.update({ recovered: this.state.recovered.filter((work) => work.id !== recoveryId) });
    if (scenario) this.showPage("compare");
    return true;
  }

  /** Forgets recovered work. */
  async discardRecovered(recoveryId: string): Promise<void> {
    const result = await this.platform.discardRecovered(recoveryId);
    if (!result.ok) {
      this.update({ openFailure: { path: null, ...describeError(result.error), problems: [] } });
      return;
    }
    this.update({ recovered: this.state.recovered.filter((work) => work.id !== recoveryId) });
  }

  /** Puts the offer of recovered work away until the next start; nothing is discarded. */
  hideRecovered(): void {
    this.update({ recoveryHidden: true });
  }

  /** Takes a file off the recent list. */
  async forgetRecent(path: string): Promise<void> {
    const result = await this.platform.forgetRecentFile(path);
    if (result.ok) this.update({ recent: result.value });
  }

  dismissOpenFailure(): void {
    this.update({ openFailure: null });
  }

  /**
   * The window was asked to close while there are unsaved changes: asks, then closes unless the
   * user cancels or the save fails.
   */
  async requestClose(): Promise<void> {
    if (!(await this.settleUnsaved("close"))) return;
    if (!(await this.compare.scenario.settleUnsaved("close"))) return;
    await this.platform.closeWindow();
  }

  /** Answers the unsaved-changes question. */
  answer(answer: UnsavedAnswer): void {
    const pending = this.pendingAnswer;
    this.pendingAnswer = null;
    this.update({ question: null });
    pending?.(answer);
  }

  /**
   * Loads another document in place of the open one, once its unsaved changes are settled; the
   * old document is closed only once the new one is open, so a failed open loses nothing.
   */
  private async switchTo(
    path: string | null,
    load: () => Promise<Outcome<DocumentView>>,
    {
      failed = describeWithProblems,
      skillsFolder = null,
    }: {
      /** Why the load failed, for the user. */
      failed?: (error: PlatformError) => Failure;
      /** The skills folder the document is loaded from, if any. */
      skillsFolder?: string | null;
    } = {},
  ): Promise<boolean> {
    const current = this.editor?.getState().document ?? null;
    if (current !== null && path !== null && current.path === path) return true;
    if (!(await this.settleUnsaved("switch"))) return false;
    // After a "Don't save" the old document is closed already.
    const before = this.editor?.getState().document ?? null;
    const loaded = await load();
    if (!loaded.ok) {
      this.update({ openFailure: { path, ...failed(loaded.error) } });
      return false;
    }
    if (before !== null && before.id !== loaded.value.id) await this.platform.closeDocument(before.id);
    this.show(loaded.value, skillsFolder);
    if (loaded.value.path !== null) await this.refreshRecent();
    return true;
  }

  private async refreshRecent(): Promise<void> {
    const recent = await this.platform.recentFiles();
    if (recent.ok) this.update({ recent: recent.value });
  }

  /** Asks what to do with the unsaved changes of the file `name`. */
  private ask(name: string, reason: UnsavedQuestion["reason"]): Promise<UnsavedAnswer> {
    // A question already open is cancelled: the newest request is the one the user is answering.
    this.pendingAnswer?.("cancel");
    return new Promise<UnsavedAnswer>((resolve) => {
      this.pendingAnswer = resolve;
      this.update({ question: { name, reason } });
    });
  }

  /**
   * Settles the open document's unsaved changes: true when there are none, or the user saved them
   * or chose not to keep them; false when they cancelled or the save did not happen.
   */
  private async settleUnsaved(reason: UnsavedQuestion["reason"]): Promise<boolean> {
    const editor = this.editor;
    if (editor === null) return true;
    const { document } = editor.getState();
    if (!document.dirty) return true;
    const answer = await this.ask(displayName(document.path), reason);
    if (answer === "cancel") return false;
    if (answer === "save") return editor.save();
    // "Don't save": closing the document also forgets its recovered copy.
    const closed = await this.platform.closeDocument(document.id);
    if (closed.ok) this.update({ screen: { kind: "start" } });
    return closed.ok;
  }
}
