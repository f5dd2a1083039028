// The state of one open template in the editor and every action on it, without React: edits, undo,
// redo and save run one at a time in order (each built from the document as it stands when its turn
// comes), the preview follows every change (the latest request wins), and a refused action leaves
// the document as it was and says why. React reads it through `subscribe`/`getState`.
import type { DocumentView, Platform, PlatformError, PreviewDto, Visibility } from "../platform";
import { describeError } from "../view";
import {
  rebasePath,
  renamedPath,
  renameEdit,
  setFieldEdit,
  setVisibilityEdit,
  toggleVisibilityEdit,
  type EditRequest,
  type TextField,
} from "./edits";
import { reselect, treeRows, type TreeRow } from "./tree";

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
  /** Renames done so far, so that edits queued before one still find their section. */
  private readonly renames: { from: string; to: string }[] = [];
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
    this.update({ ...change, document, rows, selected, failure: null });
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
    this.update({ selected: path });
  }

  setExpandAll(expandAll: boolean): void {
    this.update({ expandAll });
    void this.refreshPreview();
  }

  dismissFailure(): void {
    this.update({ failure: null });
  }

  /** Applies the edit `build` makes from the document when its turn comes (none: nothing to do). */
  private edit(path: string, build: (path: string) => EditRequest | null): Promise<void> {
    const renamesBefore = this.renames.length;
    return this.enqueue(async () => {
      const current = this.renames.slice(renamesBefore).reduce((p, r) => rebasePath(p, r.from, r.to), path);
      const request = build(current);
      if (request === null) return;
      const result = await this.platform.applyEdit(this.state.document.id, request.edit, request.group);
      if (!result.ok) {
        this.update({ failure: actionFailure("edit", result.error) });
        return;
      }
      let selected = this.state.selected;
      if (request.edit.op === "rename_section") {
        const to = renamedPath(request.edit.path, request.edit.key);
        this.renames.push({ from: request.edit.path, to });
        if (selected !== null) selected = rebasePath(selected, request.edit.path, to);
      }
      this.accept(result.value, { selected });
    });
  }

  toggleVisibility(path: string): Promise<void> {
    return this.edit(path, (p) => toggleVisibilityEdit(this.state.document.template, p));
  }

  setVisibility(path: string, visibility: Visibility): Promise<void> {
    return this.edit(path, (p) => setVisibilityEdit(this.state.document.template, p, visibility));
  }

  setField(path: string, field: TextField, value: string): Promise<void> {
    return this.edit(path, (p) => setFieldEdit(this.state.document.template, p, field, value));
  }

  rename(path: string, key: string): Promise<void> {
    return this.edit(path, (p) => renameEdit(this.state.document.template, p, key));
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

/** The preview pane's text when the template does not render (a placeholder without a value, …). */
function describeRenderError(error: PlatformError): { title: string; detail: string } {
  if (error.code === "invalid_template") return { title: "This template does not render", detail: error.message };
  return describeError(error);
}
