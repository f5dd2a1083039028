// What the window shows with no template open: start a new one, open one, open the example, or
// pick a recent file.
import type { RecentFile } from "../platform";
import { RecentList } from "./FileMenu";
import type { WorkspaceStore } from "./workspace";

export function StartPage({ workspace, recent }: { workspace: WorkspaceStore; recent: RecentFile[] }) {
  return (
    <section className="start-page" data-testid="start-page" aria-label="Start">
      <p className="notice">No template is open. Drop a template file on the window, or:</p>
      <div className="start-actions">
        <button type="button" data-testid="start-new" onClick={() => void workspace.newDocument()}>
          New template
        </button>
        <button type="button" data-testid="start-open" onClick={() => void workspace.openChosen()}>
          Open a template…
        </button>
        <button type="button" data-testid="open-example" onClick={() => void workspace.openExample()}>
          Open the example
        </button>
      </div>
      {recent.length > 0 && (
        <>
          <h2>Recent files</h2>
          <RecentList workspace={workspace} recent={recent} />
        </>
      )}
    </section>
  );
}
