// The state of one open template in the editor and every action on it, without React: edits
// (fields, renames, structural changes of the tree), undo, redo and save run one at a time in order
// (each built from the document as it stands when its turn comes, its path, or its parameter's
// name, following the renames and moves before it), the selection follows what an edit did, the preview follows every change
// (the latest request wins), and a refused action leaves the document as it was and says why. The
// edits of the template's tool sources are the document's (`editSources`); the stores that follow
// the document (its sources, its exports) subscribe to it. The tree can be filtered (treeFilter.ts):
// its rows shown then are the matches and their ancestors, which the keys move through, and "go to
// section" selects one wherever it is. React reads it through `subscribe`/`getState`.
import type {
  DocumentUpdate,
  DocumentView,
  ImportedTools,
  Outcome,
  Platform,
  PlatformError,
  PreviewQuery,
  PreviewUpdate,
  ProblemView,
  Template,
  TemplateSettings,
  Tool,
  ToolListFile,
  ToolOwner,
  Visibility,
} from "../platform";
import { outcomeOf } from "../platform";
import { ExternalStore, TaskQueue } from "../shared/ExternalStore";
import { briefFailureOf, describeError, problemsOf, type BriefFailure, type Failure } from "../shared/failure";
import type { UnappliedTool } from "../shared/problemGroups";
import {
  pathChange,
  type PathChange,
  rebasePath,
  renameEdit,
  setFieldEdit,
  setVisibilityEdit,
  type TextField,
  toggleVisibilityEdit,
} from "./edits";
import {
  addParamEdit,
  defineParamEdit,
  followParamRenames,
  removeParamEdit,
  renameParamEdits,
  setParamEdit,
  setSettingsEdit,
  type ParamRename,
} from "./settings";
import { dropRequest, type DropTarget } from "./dropTarget";
import { structureRequest, type StructureAction, type StructureRequest } from "./structure";
import {
  addToolEdit,
  appendToolEdit,
  attachable,
  moveToolEdit,
  removeToolEdit,
  replaceToolEdit,
  sectionOwner,
} from "./tools";
import { followDocument, followPreview, followRows, type ShownPreview } from "./changes";
import { readPaths } from "./reading";
import { adjacentRow, reselect, treeRows, type TreeRow } from "./tree";
import { filterTree, firstMatch, type FilteredTree } from "./treeFilter";
import type { EditRequest } from "../shared/template";

/**
 * What the preview pane shows; a template that stops rendering (`${` half typed, an unknown
 * parameter) keeps its `last` good render, shown under the one message saying why.
 */
export type PreviewState =
  | { kind: "loading" }
  | { kind: "ready"; preview: ShownPreview }
  | ({ kind: "failed"; last: ShownPreview | null } & Failure);

/** The preview the pane holds: the one shown, or the last good one under a render failure. */
function heldPreview(preview: PreviewState): ShownPreview | null {
  if (preview.kind === "ready") return preview.preview;
  return preview.kind === "failed" ? preview.last : null;
}

export interface EditorState {
  document: DocumentView;
  /** Every section's row, in tree order. */
  rows: TreeRow[];
  /** What the tree's filter field holds ("": no filter). */
  filter: string;
  /** The tree as `filter` filters it; null when the filter is blank and every row shows. */
  filtered: FilteredTree | null;
  /** The selected section's path. */
  selected: string | null;
  /**
   * Which section is selected: changes when another section is selected (by the user or by an edit
   * such as add or delete), kept when the selected one is renamed or moved (its path changes), so
   * what shows it (the section editor, and the focus in it) stays as it is.
   */
  selection: number;
  /** A section just added (and still selected): its key field is ready to rename. */
  added: string | null;
  preview: PreviewState;
  /** Preview with every section in full instead of as the model first sees it. */
  expandAll: boolean;
  /** Summarized sections the preview shows as read (as `read_section` would reveal them). */
  read: string[];
  /** The last refused action, until the next change succeeds or it is dismissed. */
  failure: BriefFailure | null;
  /** What the last save should have the user know (it was saved, but does not render), until the next edit. */
  saveNotice: string | null;
  /** Tools open in a tool editor whose drafts have problems (so they were not applied), by slot. */
  unappliedTools: Record<string, UnappliedTool>;
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
export function actionFailure(action: Action, error: PlatformError): BriefFailure {
  return briefFailureOf(ACTION_TITLES[action], error);
}

/** The editor's state when `document` opens: the first section selected, the preview to come. */
function openedState(document: DocumentView): EditorState {
  const rows = treeRows(document.template);
  return {
    document,
    rows,
    filter: "",
    filtered: null,
    selected: rows[0]?.path ?? null,
    selection: 0,
    added: null,
    preview: { kind: "loading" },
    expandAll: false,
    read: [],
    failure: null,
    saveNotice: null,
    unappliedTools: {},
    revision: 0,
  };
}

/** The rows the tree shows: the filtered ones, or every one. */
export function shownRows(state: EditorState): TreeRow[] {
  return state.filtered?.rows ?? state.rows;
}

/** A preview asked for along with an edit: the preview request it followed, what it asked, the answer. */
interface PreviewWithEdit {
  request: number;
  query: Required<PreviewQuery>;
  answer: Outcome<PreviewUpdate>;
}

export class EditorStore extends ExternalStore<EditorState> {
  /** Every edit, undo, redo and save runs on it, one after the other. */
  private readonly queue = new TaskQueue();
  /** Renames and moves done so far, so that edits queued before one still find their section. */
  private readonly pathChanges: PathChange[] = [];
  /** Parameter renames done so far, so that edits queued before one still find their parameter. */
  private readonly paramRenames: ParamRename[] = [];
  private previewRequest = 0;
  /** Settles once the first preview is shown, or its failure. */
  readonly firstPreview: Promise<void>;

  constructor(
    private readonly platform: Platform,
    document: DocumentView,
  ) {
    super(openedState(document));
    // Asked now rather than once the editor has been drawn: the answer comes back while React draws
    // it (on the example, about 0.1 s sooner), or before, for a caller that waits for it.
    this.firstPreview = this.refreshPreview();
  }

  /** Settles once the edits, undos, redos and saves asked for so far are done. */
  idle(): Promise<void> {
    return this.queue.idle();
  }

  /**
   * Takes what the backend answered an edit, undo or redo with (the document's state and what
   * changed in its template); `selected` overrides the selection. `followed` is where the section
   * selected before is now (its path after a rename or move): selecting it keeps the selection.
   */
  private accept(
    update: DocumentUpdate,
    change: Partial<EditorState> = {},
    followed: string | null = this.state.selected,
    previewed: PreviewWithEdit | null = null,
  ): void {
    const document = followDocument(this.state.document, update);
    const rows = followRows(this.state.rows, document.template, update.change);
    const selected = reselect(this.state.rows, rows, change.selected ?? this.state.selected);
    const selection = selected === followed ? this.state.selection : this.state.selection + 1;
    // A section just added is shown, to be named: a filter would hide it.
    const filter = (change.added ?? null) !== null ? "" : this.state.filter;
    const filtered = filterTree(document.template, rows, filter);
    this.update({
      added: null,
      ...change,
      document,
      rows,
      filter,
      filtered,
      selected,
      selection,
      failure: null,
      saveNotice: null,
    });
    if (previewed !== null && this.stillAsked(previewed))
      void this.showPreview(++this.previewRequest, previewed.answer);
    else void this.refreshPreview();
  }

  /**
   * Whether the preview that came with an edit is the one to show now: no preview was asked for
   * since it, and the edit left the sections shown as read where they were (a rename, move or
   * delete may not have; a keystroke always does).
   */
  private stillAsked({ request, query }: PreviewWithEdit): boolean {
    const expand = this.previewQuery().expand;
    return (
      request === this.previewRequest &&
      expand.length === query.expand.length &&
      expand.every((path, i) => path === query.expand[i])
    );
  }

  /** What a preview of the document as it stands asks for, as a change from the one shown. */
  private previewQuery(): Required<PreviewQuery> {
    const { expandAll, read, rows, preview } = this.state;
    // A section renamed, moved or deleted since it was marked read is no longer read.
    return {
      expand: readPaths(read, rows),
      expand_all: expandAll,
      base: heldPreview(preview)?.serial ?? null,
    };
  }

  /**
   * Asks for the preview of the document as it stands, as a change from the one shown; an older
   * answer never replaces a newer one.
   */
  async refreshPreview(): Promise<void> {
    const request = ++this.previewRequest;
    const { expand, expand_all, base } = this.previewQuery();
    const result = await this.platform.previewDocument(this.state.document.id, expand, expand_all, base);
    await this.showPreview(request, result);
  }

  /** Shows the answer to preview request `request`, unless a newer one was asked for since. */
  private async showPreview(request: number, result: Outcome<PreviewUpdate>): Promise<void> {
    if (request !== this.previewRequest) return;
    const current = heldPreview(this.state.preview);
    if (!result.ok) {
      this.update({ preview: { kind: "failed", last: current, ...describeRenderError(result.error) } });
      return;
    }
    const shown = followPreview(current, result.value);
    // Not a change from the preview shown (which the backend no longer keeps): ask for all of it.
    if (shown === null) {
      this.update({ preview: { kind: "loading" } });
      await this.refreshPreview();
      return;
    }
    this.update({ preview: { kind: "ready", preview: shown } });
  }

  select(path: string): void {
    const { selected, selection } = this.state;
    this.update({ selected: path, selection: path === selected ? selection : selection + 1, added: null });
  }

  /** Selects the row the tree shows below (1) or above (-1) the selected one; nothing at either end. */
  selectAdjacent(step: 1 | -1): void {
    const path = adjacentRow(shownRows(this.state), this.state.selected, step);
    if (path !== null) this.select(path);
  }

  /**
   * Filters the tree to the sections whose key, title, body or summary holds `query` (any case),
   * and their ancestors; a blank query shows every row again, the selection kept.
   */
  setFilter(query: string): void {
    const { document, rows } = this.state;
    this.update({ filter: query, filtered: filterTree(document.template, rows, query) });
  }

  /**
   * "Go to section": selects the section at `path` and shows it in the tree, clearing a filter that
   * hides it (the tree has no collapsed sections: every other section shows with its ancestors).
   * False, selecting nothing, when no section has that path.
   */
  selectSection(path: string): boolean {
    const { rows, filtered } = this.state;
    if (!rows.some((row) => row.path === path)) return false;
    if (filtered !== null && !filtered.rows.some((row) => row.path === path)) this.setFilter("");
    this.select(path);
    return true;
  }

  /** Selects the first section the filter finds (filter, then Enter); false when it finds none. */
  selectFirstMatch(): boolean {
    const { filtered } = this.state;
    const path = filtered === null ? null : firstMatch(filtered);
    if (path === null) return false;
    this.select(path);
    return true;
  }

  setExpandAll(expandAll: boolean): void {
    this.update({ expandAll });
    void this.refreshPreview();
  }

  /** Shows the summarized section at `path` in the preview as read (`true`) or not. */
  setRead(path: string, read: boolean): void {
    const others = this.state.read.filter((p) => p !== path);
    this.update({ read: read ? [...others, path] : others });
    void this.refreshPreview();
  }

  dismissFailure(): void {
    this.update({ failure: null, saveNotice: null });
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
    return this.queue.run(async () => {
      const request = build(path === null ? null : this.pathChanges.slice(changesBefore).reduce(rebase, path));
      if (request === null) return;
      // The preview comes back with the edit: a keystroke is one call.
      const asked = { request: this.previewRequest, query: this.previewQuery() };
      const result = await this.platform.editAndPreview(
        this.state.document.id,
        request.edit,
        request.group,
        asked.query,
      );
      if (!result.ok) {
        this.update({ failure: actionFailure("edit", result.error) });
        return;
      }
      const { update, preview } = result.value;
      const previewed = { ...asked, answer: outcomeOf(preview) };
      const change = pathChange(request.edit);
      if (change !== null && change.from !== change.to) this.pathChanges.push(change);
      const { selected } = this.state;
      const followed = selected === null || change === null ? selected : rebase(selected, change);
      if ("select" in request) {
        const added = request.added ? request.select : null;
        this.accept(update, { selected: request.select, added }, followed, previewed);
        return;
      }
      this.accept(update, { selected: followed }, followed, previewed);
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

  /**
   * Moves the section at `path` to where it was dropped in the tree (one MoveSection edit, which
   * selects it there); the target follows the renames and moves queued before it as `path` does.
   */
  moveTo(path: string, target: DropTarget): Promise<void> {
    const changesBefore = this.pathChanges.length;
    return this.edit(path, (p) => {
      const to = this.pathChanges.slice(changesBefore).reduce(rebase, target.path);
      return p === null ? null : dropRequest(this.state.document.template, p, { ...target, path: to });
    });
  }

  /** An edit of the whole template (settings, parameters), built from the latest template. */
  private editTemplate(build: (template: Template) => EditRequest | null): Promise<void> {
    return this.edit(null, () => build(this.state.document.template));
  }

  /** An edit of the template's tool sources (`set_sources`, sourceEdits.ts), built from the latest template. */
  editSources(build: (template: Template) => EditRequest | null): Promise<void> {
    return this.editTemplate(build);
  }

  setSetting<F extends keyof TemplateSettings>(field: F, value: TemplateSettings[F]): Promise<void> {
    return this.editTemplate((t) => setSettingsEdit(t, field, value));
  }

  /**
   * An edit of parameter `name`, built from the latest template, with the name it has then (after
   * the renames queued before it).
   */
  private editParam(name: string, build: (template: Template, name: string) => EditRequest | null): Promise<void> {
    const renamesBefore = this.paramRenames.length;
    return this.editTemplate((t) => build(t, followParamRenames(name, this.paramRenames.slice(renamesBefore))));
  }

  setParam(name: string, value: string): Promise<void> {
    return this.editParam(name, (t, n) => setParamEdit(t, n, value));
  }

  addParam(): Promise<void> {
    return this.editTemplate((t) => addParamEdit(t));
  }

  /** Adds parameter `name` with an empty default (one a section's text uses); nothing when it is there. */
  defineParam(name: string): Promise<void> {
    return this.editTemplate((t) => defineParamEdit(t, name));
  }

  removeParam(name: string): Promise<void> {
    return this.editParam(name, (t, n) => removeParamEdit(t, n));
  }

  /**
   * Renames parameter `from` to `to`, keeping its default and its place: the edits `renameParamEdits`
   * makes, in one undo group, one after the other (a refused one stops the rest and says why). An
   * invalid or taken name sends nothing.
   */
  renameParam(from: string, to: string): Promise<void> {
    const renamesBefore = this.paramRenames.length;
    return this.queue.run(async () => {
      const name = followParamRenames(from, this.paramRenames.slice(renamesBefore));
      const requests = renameParamEdits(this.state.document.template, name, to) ?? [];
      for (const [index, request] of requests.entries()) {
        const result = await this.platform.applyEdit(this.state.document.id, request.edit, request.group);
        if (!result.ok) {
          this.update({ failure: actionFailure("edit", result.error) });
          return;
        }
        if (index === requests.length - 1) this.paramRenames.push({ from: name, to: to.trim() });
        this.accept(result.value);
      }
    });
  }

  /** An edit of `owner`'s tools, built from the latest template (a section's path follows renames). */
  private editTools(
    owner: ToolOwner,
    build: (template: Template, owner: ToolOwner) => EditRequest | null,
  ): Promise<void> {
    if (owner.kind === "template") return this.editTemplate((t) => build(t, owner));
    return this.editSection(owner.path, (t, p) => build(t, sectionOwner(p)));
  }

  removeTool(owner: ToolOwner, index: number): Promise<void> {
    return this.editTools(owner, (t, o) => removeToolEdit(t, o, index));
  }

  moveTool(owner: ToolOwner, index: number, step: 1 | -1): Promise<void> {
    return this.editTools(owner, (t, o) => moveToolEdit(t, o, index, step));
  }

  /** Appends a blank tool under a free name (`new_tool`, `new_tool_2`, …) to `owner`'s tools. */
  addTool(owner: ToolOwner): Promise<void> {
    return this.editTools(owner, (t, o) => addToolEdit(t, o));
  }

  /** Replaces `owner`'s tool at `index` with what the tool editor holds. */
  replaceTool(owner: ToolOwner, index: number, tool: Tool): Promise<void> {
    return this.editTools(owner, (t, o) => replaceToolEdit(t, o, index, tool));
  }

  /** The problems of a tool's JSON text for position `index` of `owner`'s tools (`null`: a new one). */
  /**
   * Records the problems of the draft of the tool at `index` of `owner` in a tool editor (none: it
   * applies, or the editor closed), for the Problems panel.
   */
  reportUnappliedTool(owner: ToolOwner, index: number, name: string, problems: ProblemView[]): void {
    const slot = JSON.stringify([owner, index]);
    const others = Object.fromEntries(Object.entries(this.state.unappliedTools).filter(([kept]) => kept !== slot));
    this.update({ unappliedTools: problems.length === 0 ? others : { ...others, [slot]: { name, problems } } });
  }

  checkTool(owner: ToolOwner, index: number | null, toolJson: string): Promise<Outcome<ProblemView[]>> {
    return this.platform.checkTool(this.state.document.id, owner, index, toolJson);
  }

  /** Asks for a tool list file and gives its text, to read as pasted tools. */
  chooseToolList(): Promise<Outcome<ToolListFile | null>> {
    return this.platform.chooseToolList();
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
      this.editTools(sectionOwner(path), (t, o) => appendToolEdit(t, o, tool)),
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
    return this.queue.run(async () => {
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

  /**
   * Saves to the document's file (nothing to do when it has no unsaved changes); a document that
   * has no file yet asks where, as "save as" does. True once the document is saved.
   */
  save(): Promise<boolean> {
    if (this.state.document.path === null) return this.saveAs();
    return this.queue.run(async () => (this.state.document.dirty ? this.write(null) : true));
  }

  /** Asks where to save (the native dialog), then saves there; false when cancelled or refused. */
  async saveAs(): Promise<boolean> {
    const { document } = this.state;
    const suggested = document.path ?? `${document.template.key}.unfold.json`;
    const chosen = await this.platform.chooseFile("save", suggested);
    if (!chosen.ok) {
      this.update({ failure: actionFailure("save", chosen.error) });
      return false;
    }
    const path = chosen.value;
    if (path === null) return false;
    return this.queue.run(() => this.write(path));
  }

  private async write(path: string | null): Promise<boolean> {
    const result = await this.platform.saveDocument(this.state.document.id, path);
    if (!result.ok) {
      this.update({ failure: actionFailure("save", result.error) });
      return false;
    }
    // The template is unchanged: keep the preview, take the clean state. A template that does not
    // render is a valid file (a scenario may set what it lacks), so it is saved, and said so.
    const saveNotice = this.state.preview.kind === "failed" ? DOES_NOT_RENDER_NOTICE : null;
    this.update({ document: followDocument(this.state.document, result.value), failure: null, saveNotice });
    return true;
  }
}

function rebase(path: string, change: PathChange): string {
  return rebasePath(path, change.from, change.to);
}

const DOES_NOT_RENDER_NOTICE =
  "Saved, but it does not render as it stands: a run needs a scenario that gives the missing parameters a value (see Problems)";

/** The preview pane's text when the template does not render (a placeholder without a value, …). */
function describeRenderError(error: PlatformError): Failure {
  const problems = problemsOf(error);
  if (error.code === "invalid_template")
    return { title: "This template does not render", detail: error.message, problems };
  return { ...describeError(error), problems };
}
