// The page for one open template: toolbar (the file actions with the template's Export menu, undo,
// redo and save of the page's document, path, modified marker, the switch between the editor, the
// compare view, the run history and the suites), the promptfoo export's dialog and the last
// export's notice, then either the editor (the section tree with its structure toolbar, keys and
// source badges, the selected section's editor and tools, the Template panel or the Sources panel,
// the problems and the preview), the compare view, the run history or the suites; the page's
// keyboard shortcuts and the window title. All state and
// actions live in EditorStore (with its SourcesStore and TemplateExportStore), CompareStore,
// HistoryStore and SuiteStore.
import { useCallback, useEffect, useMemo, useState, useSyncExternalStore, type ReactNode } from "react";
import type { CompareStore } from "../compare/store";
import type { HistoryStore } from "../history/store";
import { ExportNotices } from "../exports/ExportMenu";
import { compareView, Deferred, historyView, sourcesPanel, suitesView } from "./deferredViews";
import type { SuiteStore } from "../suites/store";
import { DocumentButtons } from "./DocumentButtons";
import { FilePath } from "../shared/FilePath";
import { actOnPageDocument, documentKindOf } from "./pageDocument";
import { PageSwitch } from "./PageSwitch";
import { EDITOR_PAGES, type Page } from "./workspace";
import { windowTitle } from "../shared/view";
import { PreviewPane } from "../editor/PreviewPane";
import { readableRows } from "../editor/reading";
import { SectionEditor } from "../editor/SectionEditor";
import { SectionTools } from "../editor/SectionTools";
import { SectionTree } from "../editor/SectionTree";
import { isEditorShortcut, shortcutAction, type ShortcutAction } from "./shortcuts";
import type { EditorState, EditorStore } from "../editor/store";
import { FailureAlert } from "../shared/ActionOutcome";
import { siblingKeys } from "../editor/edits";
import { TemplatePanel } from "../editor/TemplatePanel";
import { storeToolActions } from "../editor/ToolList";
import { sectionOwner, TEMPLATE_OWNER } from "../editor/tools";
import { TreeToolbar } from "../editor/TreeToolbar";
import { problemGroups, type ProblemGroup } from "../shared/problemGroups";
import { ProblemsButton } from "../shared/ProblemsButton";
import { ProblemsPanel } from "../shared/ProblemsPanel";
import { NO_FILTER, sourceBadges, sourceRows, type SourceBadge } from "../sources/catalog";
import { sectionAt } from "../shared/template";
import type { TreeKeyAction } from "../editor/treeKeys";

/** What the middle pane shows: the selected section, the template's settings and parameters, or its tool sources. */
type Tab = "section" | "template" | "sources";

const TAB_NAMES: Readonly<Record<Tab, string>> = { section: "Section", template: "Template", sources: "Sources" };

/**
 * The editor over `store`'s document, the compare view (`page`) of `compare`'s scenario on it, the
 * run history of `history`, or the suites of `suites`; `fileMenu` (new, open, save as, export,
 * recent files) sits in its toolbar, `notices` (the workspace's: recovered work, a failed open)
 * right under it.
 */
export function Editor({
  store,
  compare,
  history,
  suites,
  page,
  onPage,
  fileMenu,
  notices,
}: {
  store: EditorStore;
  compare: CompareStore;
  history: HistoryStore;
  suites: SuiteStore;
  page: Page;
  onPage: (page: Page) => void;
  fileMenu?: ReactNode;
  notices?: ReactNode;
}) {
  const [tab, setTab] = useState<Tab>("section");
  const state = useSyncExternalStore(store.subscribe, store.getState);
  const { document, selected } = state;
  const section = selected === null ? undefined : sectionAt(document.template, selected);
  const problems = useEditorProblems(state, compare);
  const sources = useSyncExternalStore(store.sources.subscribe, store.sources.getState);
  const sourceCount = document.template.sources?.length ?? 0;
  const badges = useMemo(
    () => sourceBadges(sourceRows(document.template.sources ?? [], sources.views, sources.discovered)),
    [document.template.sources, sources.views, sources.discovered],
  );
  const sectionPaths = useMemo(() => state.rows.map((row) => row.path), [state.rows]);
  // The same list and handler from one keystroke to the next: the preview's list of sections to
  // show as read is not drawn again.
  const readable = useMemo(() => readableRows(state.rows), [state.rows]);
  const onRead = useCallback(
    (path: string, read: boolean) => {
      store.setRead(path, read);
    },
    [store],
  );
  /** Shows the Sources tab, its tools filtered to the sources of `badge` when it has one. */
  const showSources = (badge?: SourceBadge) => {
    if (badge !== undefined)
      store.sources.setFilter({ ...NO_FILTER, source: badge.sources.length === 1 ? (badge.sources[0] ?? null) : null });
    setTab("sources");
  };

  const onTreeKey = (action: TreeKeyAction) => {
    if (action === "select_previous") store.selectAdjacent(-1);
    else if (action === "select_next") store.selectAdjacent(1);
    else if (action === "toggle_visibility") {
      if (selected !== null) void store.toggleVisibility(selected);
    } else void store.restructure(selected, action);
  };

  useEffect(() => {
    window.document.title = windowTitle(document.path, document.dirty);
  }, [document.path, document.dirty]);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const action = shortcutAction(event);
      if (action !== null && pageShortcut(action, page, store, compare)) event.preventDefault();
    };
    window.addEventListener("keydown", onKeyDown);
    return () => {
      window.removeEventListener("keydown", onKeyDown);
    };
  }, [store, compare, page]);

  return (
    <div className="editor">
      <header className="toolbar app-header" data-testid="app-header">
        <h1>Unfold</h1>
        {fileMenu}
        <DocumentButtons page={page} editor={store} compare={compare} />
        <FilePath path={document.path} testId="template-path" />
        {document.dirty && (
          <span className="dirty" data-testid="dirty-marker">
            modified
          </span>
        )}
        {(page === "edit" || page === "compare") && <ProblemsButton groups={problems} />}
        <PageSwitch pages={EDITOR_PAGES} page={page} onPage={onPage} />
      </header>
      {notices}
      <ExportNotices store={store.exports} />
      {state.saveNotice !== null && (
        <div className="notice save-notice" role="status" data-testid="save-notice">
          <span>{state.saveNotice}</span>
          <button
            type="button"
            onClick={() => {
              store.dismissFailure();
            }}
          >
            Dismiss
          </button>
        </div>
      )}
      {state.failure !== null && (
        <FailureAlert
          failure={state.failure}
          testId="edit-failure"
          detailTestId="edit-failure-detail"
          onDismiss={() => {
            store.dismissFailure();
          }}
        />
      )}
      {page === "compare" ? (
        <Deferred
          module={compareView}
          show={(view) => <view.CompareView store={compare} template={document.template} problems={problems} />}
        />
      ) : page === "history" ? (
        <Deferred module={historyView} show={(view) => <view.HistoryView store={history} />} />
      ) : page === "suites" ? (
        <Deferred module={suitesView} show={(view) => <view.SuitesView store={suites} />} />
      ) : (
        <div className="panes">
          <nav className="pane tree-pane" aria-label="Sections">
            <TreeToolbar
              template={document.template}
              selected={selected}
              onAction={(action) => void store.restructure(selected, action)}
            />
            <SectionTree
              rows={state.rows}
              template={document.template}
              selected={selected}
              onSelect={(path) => {
                store.select(path);
                setTab("section");
              }}
              onToggle={(path) => void store.toggleVisibility(path)}
              onKey={onTreeKey}
              onMove={(path, target) => void store.moveTo(path, target)}
              sourceBadges={badges}
              onSourceBadge={(path) => {
                showSources(badges.get(path));
              }}
            />
          </nav>
          <div className="pane edit-pane">
            <div className="tabs" role="tablist" aria-label="Edit">
              {(["section", "template", "sources"] as const).map((name) => (
                <button
                  key={name}
                  type="button"
                  role="tab"
                  data-testid={`tab-${name}`}
                  aria-selected={tab === name}
                  onClick={() => {
                    setTab(name);
                  }}
                >
                  {name === "sources" && sourceCount > 0
                    ? `${TAB_NAMES[name]} (${String(sourceCount)})`
                    : TAB_NAMES[name]}
                </button>
              ))}
            </div>
            {tab === "sources" ? (
              <Deferred
                module={sourcesPanel}
                show={(panel) => (
                  <panel.SourcesPanel
                    store={store.sources}
                    template={document.template}
                    sections={sectionPaths}
                    problems={document.problems}
                    onEdit={(build) => void store.editSources(build)}
                  />
                )}
              />
            ) : tab === "template" ? (
              <TemplatePanel
                key={String(state.revision)}
                template={document.template}
                revision={state.revision}
                toolActions={storeToolActions(store, TEMPLATE_OWNER)}
                onSetting={(field, value) => void store.setSetting(field, value)}
                onParam={(name, value) => void store.setParam(name, value)}
                onRenameParam={(from, to) => void store.renameParam(from, to)}
                onAddParam={() => void store.addParam()}
                onRemoveParam={(name) => void store.removeParam(name)}
                sourceCount={sourceCount}
                onOpenSources={() => {
                  showSources();
                }}
              />
            ) : selected !== null && section !== undefined ? (
              <>
                <SectionEditor
                  // Another section selected, or a document changed by undo/redo: start from its fields
                  // again. Not keyed by its path: a rename or move keeps the editor and the focus in it.
                  key={`${String(state.selection)}#${String(state.revision)}`}
                  path={selected}
                  section={section}
                  siblingKeys={siblingKeys(document.template, selected)}
                  params={Object.keys(document.template.params)}
                  focusKey={state.added === selected}
                  onField={(field, value) => void store.setField(selected, field, value)}
                  onRename={(key) => void store.rename(selected, key)}
                  onVisibility={(visibility) => void store.setVisibility(selected, visibility)}
                  onDefineParam={(name) => void store.defineParam(name)}
                />
                <SectionTools
                  key={String(state.selection)}
                  path={selected}
                  section={section}
                  revision={state.revision}
                  actions={storeToolActions(store, sectionOwner(selected))}
                  onRead={(text) => store.importTools(text)}
                  onChooseFile={() => store.chooseToolList()}
                  onAttach={(tools, conflicts) => void store.attachTools(selected, tools, conflicts)}
                />
              </>
            ) : (
              <p className="notice">This template has no sections.</p>
            )}
            <ProblemsPanel groups={problems} />
          </div>
          <PreviewPane
            preview={state.preview}
            expandAll={state.expandAll}
            onExpandAll={(expandAll) => {
              store.setExpandAll(expandAll);
            }}
            readable={readable}
            read={state.read}
            onRead={onRead}
          />
        </div>
      )}
    </div>
  );
}

/**
 * Does a shortcut of the page's: undo, redo and save of its document, a section added on the Edit
 * page, the comparison run on the Compare page. False when the page leaves it alone.
 */
function pageShortcut(action: ShortcutAction, page: Page, store: EditorStore, compare: CompareStore): boolean {
  if (isEditorShortcut(action)) {
    // The run history and the suites have nothing to undo, and an undo of the template there would
    // not be seen: their fields keep their own.
    if ((page === "history" || page === "suites") && action !== "save") return false;
    // Ours, not the text field's own undo: the document's history covers every field.
    void actOnPageDocument(action, documentKindOf(page), { template: store, scenario: compare });
    return true;
  }
  // Ctrl+Enter is a line break in the Edit page's code fields: only the Compare page runs on it.
  if (action === "run" && page === "compare") {
    void compare.run();
    return true;
  }
  if (action === "add_section" && page === "edit") {
    void store.restructure(store.getState().selected, "add_sibling");
    return true;
  }
  return false;
}

/** Every problem of the open work (see problemGroups), as both pages list it. */
function useEditorProblems(state: EditorState, compare: CompareStore): ProblemGroup[] {
  const { scenario } = useSyncExternalStore(compare.subscribe, compare.getState);
  const { document, preview, unappliedTools } = state;
  return useMemo(
    () =>
      problemGroups({
        template: document.problems,
        render: preview.kind === "failed" ? preview.problems : null,
        unappliedTools: Object.values(unappliedTools),
        scenario,
      }),
    [document.problems, preview, unappliedTools, scenario],
  );
}
