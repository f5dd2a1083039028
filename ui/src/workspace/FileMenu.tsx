// The file actions of the toolbar and the start page: new, open, the example, save as, and the
// recent files (a file that is gone is shown as such and can be taken off the list); and the
// button that shows the keyboard shortcuts.
import type { RecentFile } from "../platform";
import { fileName } from "../view";
import type { WorkspaceStore } from "./workspace";

export function FileMenu({
  workspace,
  recent,
  onHelp,
}: {
  workspace: WorkspaceStore;
  recent: RecentFile[];
  onHelp: () => void;
}) {
  const editor = workspace.editor;
  return (
    <div className="file-menu" role="group" aria-label="File">
      <button type="button" data-testid="new-button" title="New template (Ctrl+N)" onClick={() => void workspace.newDocument()}>
        New
      </button>
      <button type="button" data-testid="open-button" title="Open a template (Ctrl+O)" onClick={() => void workspace.openChosen()}>
        Open…
      </button>
      {editor !== null && (
        <button type="button" data-testid="save-as-button" title="Save as (Ctrl+Shift+S)" onClick={() => void editor.saveAs()}>
          Save as…
        </button>
      )}
      {recent.length > 0 && <RecentMenu workspace={workspace} recent={recent} />}
      <button type="button" data-testid="help-button" title="Keyboard shortcuts (? or F1)" aria-label="Keyboard shortcuts" onClick={onHelp}>
        ?
      </button>
    </div>
  );
}

function RecentMenu({ workspace, recent }: { workspace: WorkspaceStore; recent: RecentFile[] }) {
  return (
    <details className="recent-menu" data-testid="recent-menu">
      <summary>Recent</summary>
      <RecentList workspace={workspace} recent={recent} />
    </details>
  );
}

/** The recent files as a list: open one, or forget one that is gone. */
export function RecentList({ workspace, recent }: { workspace: WorkspaceStore; recent: RecentFile[] }) {
  return (
    <ul className="recent-files">
      {recent.map((file) => (
        <li key={file.path} data-testid="recent-file" data-path={file.path}>
          <button
            type="button"
            title={file.path}
            disabled={!file.exists}
            onClick={(event) => {
              event.currentTarget.closest("details")?.removeAttribute("open");
              void workspace.openPath(file.path);
            }}
          >
            {fileName(file.path)}
          </button>
          <code className="recent-path">{file.path}</code>
          {!file.exists && (
            <>
              <span className="notice">missing</span>
              <button type="button" aria-label={`Forget ${file.path}`} onClick={() => void workspace.forgetRecent(file.path)}>
                Forget
              </button>
            </>
          )}
        </li>
      ))}
    </ul>
  );
}
