// The window's frame around every page but the start page: its header (the file actions with the
// template's Export menu, Undo, Redo and Save of the page's document, the path, the modified marker,
// the count of problems, the switch between the pages), the workspace's notices under it, the
// template's export notices, save notice and refused edits, then the page (pages.tsx routes it);
// and the window title. Without a template the header has only the page switch (the start page,
// the run history and the suites).
import { useEffect, useState, useSyncExternalStore, type ReactNode } from "react";
import { useWorkProblems, type EditTab } from "../editor/EditPage";
import { ExportNotices } from "../exports/ExportMenu";
import { FailureAlert } from "../shared/ActionOutcome";
import { FilePath } from "../shared/FilePath";
import { ProblemsButton } from "../shared/ProblemsButton";
import { windowTitle } from "../shared/view";
import { DocumentButtons } from "./DocumentButtons";
import { FileMenu } from "./FileMenu";
import { PageView } from "./pages";
import { PageSwitch } from "./PageSwitch";
import {
  EDITOR_PAGES,
  START_PAGES,
  type Page,
  type TemplateStores,
  type WorkspaceState,
  type WorkspaceStore,
} from "./workspace";

/** The frame of `state`'s page; `notices` (the workspace's) go right under its header. */
export function Frame({
  workspace,
  state,
  notices,
  onHelp,
}: {
  workspace: WorkspaceStore;
  state: WorkspaceState;
  notices: ReactNode;
  /** Shows the keyboard shortcuts. */
  onHelp: () => void;
}) {
  const { screen, page } = state;
  const onPage = (shown: Page) => {
    workspace.showPage(shown);
  };
  if (screen.kind === "editor") {
    return (
      <TemplateFrame
        // Another document: its own tab, title and notices.
        key={screen.editor.getState().document.id}
        workspace={workspace}
        template={screen}
        page={page}
        onPage={onPage}
        fileMenu={<FileMenu workspace={workspace} recent={state.recent} onHelp={onHelp} />}
        notices={notices}
      />
    );
  }
  return (
    <div className="editor">
      <header className="toolbar app-header" data-testid="app-header">
        <h1>Unfold</h1>
        <PageSwitch pages={START_PAGES} page={page} onPage={onPage} names={{ edit: "Start" }} />
      </header>
      {notices}
      <PageView page={page} workspace={workspace} template={null} />
    </div>
  );
}

/** The frame with `template` open. */
function TemplateFrame({
  workspace,
  template,
  page,
  onPage,
  fileMenu,
  notices,
}: {
  workspace: WorkspaceStore;
  template: TemplateStores;
  page: Page;
  onPage: (page: Page) => void;
  fileMenu: ReactNode;
  notices: ReactNode;
}) {
  const { editor, exports } = template;
  const state = useSyncExternalStore(editor.subscribe, editor.getState);
  const { document } = state;
  const { scenario } = useSyncExternalStore(workspace.compare.scenario.subscribe, workspace.compare.scenario.getState);
  const problems = useWorkProblems(editor, scenario);
  // The Edit page's tab stays while another page shows.
  const [tab, setTab] = useState<EditTab>("section");

  useEffect(() => {
    window.document.title = windowTitle(document.path, document.dirty);
  }, [document.path, document.dirty]);

  return (
    <div className="editor">
      <header className="toolbar app-header" data-testid="app-header">
        <h1>Unfold</h1>
        {fileMenu}
        <DocumentButtons page={page} editor={editor} scenario={workspace.compare.scenario} />
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
      <ExportNotices store={exports} />
      {state.saveNotice !== null && (
        <div className="notice save-notice" role="status" data-testid="save-notice">
          <span>{state.saveNotice}</span>
          <button
            type="button"
            onClick={() => {
              editor.dismissFailure();
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
            editor.dismissFailure();
          }}
        />
      )}
      <PageView page={page} workspace={workspace} template={template} problems={problems} tab={tab} onTab={setTab} />
    </div>
  );
}
