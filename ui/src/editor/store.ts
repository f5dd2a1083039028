// The state of one open template in the editor and every action on it, without React: edits
// (fields, renames, structural changes of the tree), undo, redo and save run one at a time in order
// (each built from the document as it stands when its turn comes, its path following the renames
// and moves before it), the selection follows what an edit did, the preview follows every change
// (the latest request wins), and a refused action leaves the document as it was and says why. React
// reads it through `subscribe`/`getState`.
import type {
  DocumentView,
  ImportedTools,
  Outcome,
  Platform,
  PlatformError,
  PreviewDto,
  Template,
  TemplateSettings,
  Tool,
  Visibility,
} from "../platform";
import { describeError } from "../view";
import {
  pathChange,
  rebasePath,
  renameEdit,
  setFieldEdit,
  setVisibilityEdit,
  toggleVisibilityEdit,
  type EditRequest,
  type PathChange,
  type TextField,
} from "./edits";
import { addParamEdit, removeParamEdit, setParamEdit, setSettingsEdit } from "./settings";
import { structureRequest, type StructureAction, type StructureRequest } from "./structure";
import { appendToolEdit, attachable, moveToolEdit, removeToolEdit } from "./tools";
import { adjacentRow, reselect, treeRows, type TreeRow } from "./tree";

/** What the preview pane shows. */
export type PreviewState =
  | { kind: "loading" }
  | { kind: "ready"; preview: PreviewDto }
  | { kind: "failed"; title: string; detail: string };

/** Why the last action was not done, for the person editing. */
export interface Failure {
  title: string;
  detail: string;
}

export interface EditorState {
  document: DocumentView;
  rows: TreeRow[];
  /** The selected section's path. */
  selected: string | null;
  /** A section just added (and still selected): its key field is ready to rename. */
  added: string | null;
  preview: PreviewState;
  /** Preview with every section in full instead of as the model first sees it. */
  expandAll: boolean;
  /** The last refused action, until the next change succeeds or it is dismissed. */
  failure: Failure | null;
  /**
   * Bumped when the document changed other than by the field being typed in (undo, redo), so the
   * section editor re-reads its fields instead of keeping what was typed.
   */
  revision: number;
}

type Action = "edit" | "save" | "undo" | "redo";

const ACTION_TITLES: Record<Action, string> = {
  edit: "This change was not made",
  save: "This template was not saved",
  undo: "Nothing was undone",
  redo: "Nothing was redone",
};

/** The title and text of a failed action: what was not done, or why the backend failed. */
export function actionFailure(action: Action, error: PlatformError): Failure {
  switch (error.code) {
    case "ipc_failed":
    case "internal":
    case "unknown_document":
      return describeError(error);
    default:
      return { title: ACTION_TITLES[action], detail: error.message };
  }
}

export class EditorStore {
  private state: EditorState;
  private readonly listeners = new Set<() => void>();
  /** The tail of the chain every edit, undo, redo and save runs on, one after the other. */
  private queue: Promise<void> = Promise.resolve();
  /** Renames and moves done so far, so that edits queued before one still find their section. */
  private readonly pathChanges: PathChange[] = [];
  private previewRequest = 0;

  constructor(
    private readonly platform: Platform,
    document: DocumentView,
  ) {
    const rows = treeRows(document.template);
    this.state = {
      document,
      rows,
      selected: rows[0]?.path ?? null,
      added: null,
      preview: { kind: "loading" },
      expandAll: false,
      failure: null,
      revision: 0,
    };
  }

  readonly getState = (): EditorState => this.state;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  private update(change: Partial<EditorState>): void {
    this.state = { ...this.state, ...change };
    for (const listener of this.listeners) listener();
  }

  /** Runs `task` after every action queued before it. */
  private enqueue(task: () => Promise<void>): Promise<void> {
    const run = this.queue.then(task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Takes a document the backend answered with; `selected` overrides the selection. */
  private accept(document: DocumentView, change: Partial<EditorState> = {}): void {
    const rows = treeRows(document.template);
    const selected = reselect(this.state.rows, rows, change.selected ?? this.state.selected);
    this.update({ added: null, ...change, document, rows, selected, failure: null });
    void this.refreshPreview();
  }

  /** Asks for the preview of the document as it stands; an older answer never replaces a newer one. */
  async refreshPreview(): Promise<void> {
    const request = ++this.previewRequest;
    const { document, expandAll } = this.state;
    const result = await this.platform.previewDocument(document.id, [], expandAll);
    if (request !== this.previewRequest) return;
    this.update({
      preview: result.ok
        ? { kind: "ready", preview: result.value }
        : { kind: "failed", ...describeRenderError(result.error) },
    });
  }

  select(path: string): void {
    this.update({ selected: path, added: null });
  }

  /** Selects the row below (1) or above (-1) the selected one; nothing at either end. */
  selectAdjacent(step: 1 | -1): void {
    const path = adjacentRow(this.state.rows, this.state.selected, step);
    if (path !== null) this.select(path);
  }

  setExpandAll(expandAll: boolean): void {
    this.update({ expandAll });
    void this.refreshPreview();
  }

  dismissFailure(): void {
    this.update({ failure: null });
  }

  /**
   * Applies the edit `build` makes, when its turn comes, from the document and from `path` as the
   * renames and moves since have made it (no edit: nothing to do). The selection follows a rename or
   * a move, or goes where a structural edit says.
   */
  private edit(
    path: string | null,
    build: (path: string | null) => EditRequest | StructureRequest | null,
  ): Promise<void> {
    const changesBefore = this.pathChanges.length;
    return this.enqueue(async () => {
      const request = build(path === null ? null : this.pathChanges.slice(changesBefore).reduce(rebase, path));
      if (request === null) return;
      const result = await this.platform.applyEdit(this.state.document.id, request.edit, request.group);
      if (!result.ok) {
        this.update({ failure: actionFailure("edit", result.error) });
        return;
      }
      const change = pathChange(request.edit);
      if (change !== null && change.from !== change.to) this.pathChanges.push(change);
      if ("select" in request) {
        this.accept(result.value, { selected: request.select, added: request.added ? request.select : null });
        return;
      }
      const { selected } = this.state;
      this.accept(result.value, { selected: selected === null || change === null ? selected : rebase(selected, change) });
    });
  }

  /** An edit of the section at `path`, built from the latest template. */
  private editSection(path: string, build: (template: Template, path: string) => EditRequest | null): Promise<void> {
    return this.edit(path, (p) => (p === null ? null : build(this.state.document.template, p)));
  }

  toggleVisibility(path: string): Promise<void> {
    return this.editSection(path, (t, p) => toggleVisibilityEdit(t, p));
  }

  setVisibility(path: string, visibility: Visibility): Promise<void> {
    return this.editSection(path, (t, p) => setVisibilityEdit(t, p, visibility));
  }

  setField(path: string, field: TextField, value: string): Promise<void> {
    return this.editSection(path, (t, p) => setFieldEdit(t, p, field, value));
  }

  rename(path: string, key: string): Promise<void> {
    return this.editSection(path, (t, p) => renameEdit(t, p, key));
  }

  /**
   * Adds, deletes or moves the section at `path` (`null`: nothing selected, where only adding a
   * top-level section is possible); an impossible action does nothing.
   */
  restructure(path: string | null, action: StructureAction): Promise<void> {
    return this.edit(path, (p) => structureRequest(this.state.document.template, p, action));
  }

  /** An edit of the whole template (settings, parameters), built from the latest template. */
  private editTemplate(build: (template: Template) => EditRequest | null): Promise<void> {
    return this.edit(null, () => build(this.state.document.template));
  }

  setSetting<F extends keyof TemplateSettings>(field: F, value: TemplateSettings[F]): Promise<void> {
    return this.editTemplate((t) => setSettingsEdit(t, field, value));
  }

  setParam(name: string, value: string): Promise<void> {
    return this.editTemplate((t) => setParamEdit(t, name, value));
  }

  addParam(): Promise<void> {
    return this.editTemplate((t) => addParamEdit(t));
  }

  removeParam(name: string): Promise<void> {
    return this.editTemplate((t) => removeParamEdit(t, name));
  }

  removeTool(path: string, index: number): Promise<void> {
    return this.editSection(path, (t, p) => removeToolEdit(t, p, index));
  }

  moveTool(path: string, index: number, step: 1 | -1): Promise<void> {
    return this.editSection(path, (t, p) => moveToolEdit(t, p, index, step));
  }

  /** Reads a pasted tool list against the document as it stands; attaches nothing. */
  importTools(text: string): Promise<Outcome<ImportedTools>> {
    return this.platform.importTools(this.state.document.id, text);
  }

  /**
   * Appends to the section at `path` the imported tools whose names are not in `conflicts`, one
   * edit each, in order (a refused one does not stop the ones after it).
   */
  attachTools(path: string, tools: readonly Tool[], conflicts: readonly string[]): Promise<void> {
    const runs = attachable(tools, conflicts).map((tool) =>
      this.editSection(path, (t, p) => appendToolEdit(t, p, tool)),
    );
    return Promise.all(runs).then(() => undefined);
  }

  undo(): Promise<void> {
    return this.step("undo");
  }

  redo(): Promise<void> {
    return this.step("redo");
  }

  private step(action: "undo" | "redo"): Promise<void> {
    return this.enqueue(async () => {
      const { document } = this.state;
      if (action === "undo" ? !document.can_undo : !document.can_redo) return;
      const result = await (action === "undo" ? this.platform.undo(document.id) : this.platform.redo(document.id));
      if (!result.ok) {
        this.update({ failure: actionFailure(action, result.error) });
        return;
      }
      this.accept(result.value, { revision: this.state.revision + 1 });
    });
  }

  /** Saves to the document's file (nothing to do when it has no unsaved changes). */
  save(): Promise<void> {
    return this.enqueue(async () => {
      const { document } = this.state;
      if (!document.dirty) return;
      const result = await this.platform.saveDocument(document.id, null);
      if (!result.ok) {
        this.update({ failure: actionFailure("save", result.error) });
        return;
      }
      // The template is unchanged: keep the preview, take the clean state.
      this.update({ document: result.value, failure: null });
    });
  }
}

function rebase(path: string, change: PathChange): string {
  return rebasePath(path, change.from, change.to);
}

/** The preview pane's text when the template does not render (a placeholder without a value, …). */
function describeRenderError(error: PlatformError): { title: string; detail: string } {
  if (error.code === "invalid_template") return { title: "This template does not render", detail: error.message };
  return describeError(error);
}
