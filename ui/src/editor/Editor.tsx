// The page for one open template: toolbar (undo, redo, save, path, modified marker, the switch
// between the editor, the compare view and the run history), then either the editor (the section
// tree with its structure toolbar and keys, the selected section's editor and tools or the Template
// panel, the problems and the preview), the compare view or the run history; keyboard shortcuts and
// the window title. All state and actions live in EditorStore, CompareStore and HistoryStore.
import { useEffect, useState, useSyncExternalStore, type ReactNode } from "react";
import { CompareView } from "../compare/CompareView";
import type { CompareStore } from "../compare/store";
import { HistoryView } from "../history/HistoryView";
import type { HistoryStore } from "../history/store";
import type { ProblemView } from "../platform";
import { FilePath } from "../workspace/FilePath";
import { PageSwitch } from "../workspace/PageSwitch";
import type { Page } from "../workspace/workspace";
import { windowTitle } from "../view";
import { PreviewPane } from "./PreviewPane";
import { readableRows } from "./reading";
import { SectionEditor } from "./SectionEditor";
import { SectionTools } from "./SectionTools";
import { SectionTree } from "./SectionTree";
import { isEditorShortcut, shortcutAction, type TreeKeyAction } from "./shortcuts";
import type { EditorStore, Failure } from "./store";
import { siblingKeys } from "./edits";
import { sectionAt } from "./tree";
import { TemplatePanel } from "./TemplatePanel";
import { storeToolActions } from "./ToolList";
import { sectionOwner, TEMPLATE_OWNER } from "./tools";
import { TreeToolbar } from "./TreeToolbar";
import { ProblemItems } from "../ProblemItems";

/** What the middle pane shows: the selected section, or the template's settings and parameters. */
type Tab = "section" | "template";

/**
 * The editor over `store`'s document, the compare view (`page`) of `compare`'s scenario on it, or
 * the run history of `history`; `fileMenu` (new, open, save as, recent files) sits in its toolbar,
 * `notices` (the workspace's: recovered work, a failed open) right under it.
 */
export function Editor({
  store,
  compare,
  history,
  page,
  onPage,
  fileMenu,
  notices,
}: {
  store: EditorStore;
  compare: CompareStore;
  history: HistoryStore;
  page: Page;
  onPage: (page: Page) => void;
  fileMenu?: ReactNode;
  notices?: ReactNode;
}) {
  const [tab, setTab] = useState<Tab>("section");
  const state = useSyncExternalStore(store.subscribe, store.getState);
  const { document, selected } = state;
  const section = selected === null ? undefined : sectionAt(document.template, selected);

  useEffect(() => {
    void store.refreshPreview();
  }, [store]);

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
      if (action === null || !isEditorShortcut(action)) return;
      // The run history has nothing to undo, and an undo of the template there would not be seen:
      // its filter fields keep their own.
      if (page === "history" && action !== "save") return;
      // Ours, not the text field's own undo: the document's history covers every field. On the
      // compare view they act on the scenario.
      event.preventDefault();
      void (page === "compare" ? compare : store)[action]();
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
        <button
          type="button"
          data-testid="undo-button"
          title="Undo (Ctrl+Z)"
          disabled={!document.can_undo}
          onClick={() => void store.undo()}
        >
          Undo
        </button>
        <button
          type="button"
          data-testid="redo-button"
          title="Redo (Ctrl+Shift+Z)"
          disabled={!document.can_redo}
          onClick={() => void store.redo()}
        >
          Redo
        </button>
        <button
          type="button"
          data-testid="save-button"
          title="Save (Ctrl+S)"
          disabled={!document.dirty}
          onClick={() => void store.save()}
        >
          Save
        </button>
        <FilePath path={document.path} testId="template-path" />
        {document.dirty && (
          <span className="dirty" data-testid="dirty-marker">
            modified
          </span>
        )}
        <PageSwitch pages={["edit", "compare", "history"]} page={page} onPage={onPage} />
      </header>
      {notices}
      {state.failure !== null && (
        <FailureNotice
          failure={state.failure}
          onDismiss={() => {
            store.dismissFailure();
          }}
        />
      )}
      {page === "compare" ? (
        <CompareView store={compare} template={document.template} />
      ) : page === "history" ? (
        <HistoryView store={history} />
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
          />
        </nav>
        <div className="pane edit-pane">
          <div className="tabs" role="tablist" aria-label="Edit">
            {(["section", "template"] as const).map((name) => (
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
                {name === "section" ? "Section" : "Template"}
              </button>
            ))}
          </div>
          {tab === "template" ? (
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
          <ProblemList problems={document.problems} />
        </div>
        <PreviewPane
          preview={state.preview}
          expandAll={state.expandAll}
          onExpandAll={(expandAll) => {
            store.setExpandAll(expandAll);
          }}
          readable={readableRows(state.rows)}
          read={state.read}
          onRead={(path, read) => {
            store.setRead(path, read);
          }}
        />
      </div>
      )}
    </div>
  );
}

function FailureNotice({ failure, onDismiss }: { failure: Failure; onDismiss: () => void }) {
  return (
    <div className="error failure" role="alert" data-testid="edit-failure">
      <strong>{failure.title}</strong>
      <span data-testid="edit-failure-detail">{failure.detail}</span>
      <button type="button" onClick={onDismiss}>
        Dismiss
      </button>
    </div>
  );
}

function ProblemList({ problems }: { problems: ProblemView[] }) {
  return (
    <section className="problems" aria-label="Problems">
      <h2>Problems</h2>
      {problems.length === 0 ? (
        <p className="notice" data-testid="problems">
          No problems
        </p>
      ) : (
        <ProblemItems problems={problems} whole="template" testId="problems" />
      )}
    </section>
  );
}
