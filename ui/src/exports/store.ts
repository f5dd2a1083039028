// The open template's exports to other tools' formats, without React: a promptfoo config (its
// scenario files, each a test asserting the model's first answer, and the promptfoo provider they
// run on, gathered in a dialog first) and a Langfuse chat prompt, each written where the user
// chooses, and an Agent Skills folder (spec 16: a folder with files is written into only once the
// user confirms, as the CLI's --force); what the last export wrote, or why it did not. One per open
// document, beside its editor (shell/workspace.ts). React reads it through `subscribe`/`getState`.
import {
  SKILLS_OVERWRITE,
  type DocumentView,
  type ExportedSkills,
  type ExportRequest,
  type Outcome,
  type Platform,
  type PlatformError,
  type ScenarioView,
} from "../platform";
import { failureOf, type Failure } from "../shared/failure";
import { ExternalStore } from "../shared/ExternalStore";
import { fileName } from "../shared/view";

/** The promptfoo dialog's fields as the user left them. */
export interface PromptfooDraft {
  /** Scenario files, in the order added; each becomes a test. */
  scenarios: string[];
  /** The promptfoo provider id as typed; empty: the backend's default. */
  provider: string;
}

export interface ExportsState {
  /** The promptfoo dialog's fields while it is open (null: closed). */
  promptfoo: PromptfooDraft | null;
  /** The folder with files an Agent Skills export asks to write over (null: no question). */
  overwrite: string | null;
  /** What the last export wrote, until the next one or it is dismissed. */
  notice: string | null;
  /** Why the last action was not done, until the next one succeeds or it is dismissed. */
  failure: Failure | null;
}

/** The part of the open document an export reads: its id, file and template's key. */
type ExportedDocument = Pick<DocumentView, "id" | "path" | "template">;

/** The promptfoo provider the backend uses when none is typed, shown as the field's placeholder. */
export const PROMPTFOO_DEFAULT_PROVIDER = "openai:chat:gpt-4.1-mini";

/** A Langfuse prompt names no tests and no model. */
export const LANGFUSE_REQUEST: ExportRequest = { format: "langfuse", scenarios: [], provider: null };

/**
 * The promptfoo request for `draft`: an empty (or blank) provider is null, so the backend picks its
 * default rather than being sent a provider id of "".
 */
export function promptfooRequest(draft: PromptfooDraft): ExportRequest {
  const provider = draft.provider.trim();
  return { format: "promptfoo", scenarios: [...draft.scenarios], provider: provider === "" ? null : provider };
}

/**
 * Where the save dialog starts: `<key><suffix>` beside the template's file, or the bare file name
 * for a template without one (the dialog then starts in its own folder).
 */
export function suggestedExportPath(document: Pick<ExportedDocument, "path" | "template">, suffix: string): string {
  const name = `${document.template.key}${suffix}`;
  const { path } = document;
  if (path === null) return name;
  const folder = path.slice(0, path.length - fileName(path).length);
  return `${folder}${name}`;
}

/**
 * The scenario the promptfoo dialog starts with: the Compare page's, when it has a file and no
 * unsaved changes, since the export reads the file and would not see what is only on screen.
 */
export function savedScenarioPath(scenario: Pick<ScenarioView, "path" | "dirty"> | null): string | null {
  return scenario === null || scenario.dirty ? null : scenario.path;
}

/** Whether `error` is the refusal to write into a folder with files without being asked to. */
export function refusedOverwrite(error: PlatformError): boolean {
  return "problems" in error && error.problems.some((problem) => problem.location === SKILLS_OVERWRITE);
}

/** What an export to the skills folder `folder` says it wrote, and what of the template it left out. */
export function exportedSkillsNotice(folder: string, exported: ExportedSkills): string {
  const { skills, written, unchanged, left_out } = exported;
  const said = `Exported ${String(skills)} ${skills === 1 ? "skill" : "skills"} to ${folder}: ${String(written.length)} files written, ${String(unchanged.length)} unchanged`;
  return left_out.length === 0 ? said : `${said}; not written: ${left_out.join(", ")}`;
}

export class TemplateExportStore extends ExternalStore<ExportsState> {
  /**
   * `settled`: resolves once the edits sent so far are done, so an export has what the editor shows;
   * `skillsFolder`: the skills folder the document was opened from, where an Agent Skills export
   * starts (to save it back), if any.
   */
  constructor(
    private readonly platform: Platform,
    private readonly openDocument: () => ExportedDocument,
    private readonly settled: () => Promise<void> = () => Promise.resolve(),
    private readonly skillsFolder: string | null = null,
  ) {
    super({ promptfoo: null, overwrite: null, notice: null, failure: null });
  }

  /** Opens the promptfoo dialog with `scenario` in its list, if any. */
  openPromptfoo(scenario: string | null): void {
    this.update({
      promptfoo: { scenarios: scenario === null ? [] : [scenario], provider: "" },
      failure: null,
      notice: null,
    });
  }

  closePromptfoo(): void {
    this.update({ promptfoo: null, failure: null });
  }

  /** Asks for a scenario file (the native dialog) and adds it, unless it is listed already. */
  async addScenario(): Promise<void> {
    const chosen = await this.platform.chooseFile("open_scenario", null);
    if (!chosen.ok) {
      this.update({ failure: failureOf("The scenario was not added", chosen.error) });
      return;
    }
    const path = chosen.value;
    const draft = this.state.promptfoo;
    if (path === null || draft === null || draft.scenarios.includes(path)) return;
    this.update({ promptfoo: { ...draft, scenarios: [...draft.scenarios, path] } });
  }

  removeScenario(path: string): void {
    const draft = this.state.promptfoo;
    if (draft === null) return;
    this.update({ promptfoo: { ...draft, scenarios: draft.scenarios.filter((scenario) => scenario !== path) } });
  }

  setProvider(provider: string): void {
    const draft = this.state.promptfoo;
    if (draft !== null) this.update({ promptfoo: { ...draft, provider } });
  }

  /** Asks where to write the promptfoo config, then writes it; the dialog closes once it is written. */
  async exportPromptfoo(): Promise<void> {
    const draft = this.state.promptfoo;
    if (draft === null) return;
    const written = await this.exportAs(promptfooRequest(draft), ".promptfooconfig.json");
    if (written) this.update({ promptfoo: null });
  }

  /** Asks where to write the Langfuse prompt, then writes it. */
  async exportLangfuse(): Promise<void> {
    await this.exportAs(LANGFUSE_REQUEST, ".langfuse.json");
  }

  /**
   * Asks for a folder (starting at the skills folder the document came from, else at `<key>` beside
   * the template's file), then writes the template into it as Agent Skills; a folder with files in
   * it first asks whether to write over them.
   */
  async exportSkills(): Promise<void> {
    const suggested = this.skillsFolder ?? suggestedExportPath(this.openDocument(), "");
    const chosen = await this.platform.chooseFile("skills_folder", suggested);
    if (!chosen.ok) {
      this.update({ failure: failureOf("The template was not exported", chosen.error), notice: null });
      return;
    }
    if (chosen.value !== null) await this.writeSkills(chosen.value, false);
  }

  /** Writes the skills over the files of the folder the user was asked about. */
  async confirmOverwrite(): Promise<void> {
    const folder = this.state.overwrite;
    if (folder === null) return;
    this.update({ overwrite: null });
    await this.writeSkills(folder, true);
  }

  /** Writes nothing into the folder the user was asked about. */
  cancelOverwrite(): void {
    this.update({ overwrite: null });
  }

  dismiss(): void {
    this.update({ notice: null, failure: null });
  }

  private async writeSkills(folder: string, overwrite: boolean): Promise<void> {
    await this.settled();
    const written = await this.platform.exportSkills(this.openDocument().id, folder, overwrite);
    if (written.ok) {
      this.update({ notice: exportedSkillsNotice(folder, written.value), failure: null });
    } else if (!overwrite && refusedOverwrite(written.error)) {
      this.update({ overwrite: folder, notice: null, failure: null });
    } else {
      this.update({ failure: failureOf("The template was not exported", written.error), notice: null });
    }
  }

  /** Asks where (starting at `<key><suffix>`), then writes; true once written, false when cancelled or refused. */
  private async exportAs(request: ExportRequest, suffix: string): Promise<boolean> {
    const document = this.openDocument();
    const chosen = await this.platform.chooseFile("save_export", suggestedExportPath(document, suffix));
    const written: Outcome<string> | null = !chosen.ok
      ? chosen
      : chosen.value === null
        ? null
        : await this.write(document.id, request, chosen.value);
    if (written === null) return false;
    if (!written.ok) {
      this.update({ failure: failureOf("The template was not exported", written.error), notice: null });
      return false;
    }
    this.update({ notice: written.value, failure: null });
    return true;
  }

  private async write(id: number, request: ExportRequest, path: string): Promise<Outcome<string>> {
    await this.settled();
    const written = await this.platform.exportTemplate(id, request, path);
    return written.ok ? { ok: true, value: `Exported to ${path}` } : written;
  }
}
