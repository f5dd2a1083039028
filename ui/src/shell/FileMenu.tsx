// The file actions of the toolbar and the start page: new, open (and in the menu beside it, a
// skills folder opened as a template), the example, save as, the open template's Export menu, and
// the recent files (a file that is gone is shown as such and can be taken off the list); and the
// button that shows the keyboard shortcuts. In a narrow window (FILE_MENU_FOLDS) the file actions
// fold into one "File" menu, so that the toolbar keeps to one line with every label.
import { ChevronDown } from "lucide-react";
import type { ReactNode } from "react";
import type { RecentFile } from "../platform";
import { fileName } from "../shared/view";
import { ExportMenu } from "../exports/ExportMenu";
import { savedScenarioPath } from "../exports/store";
import { DropDownMenu } from "../shared/DropDownMenu";
import { useMediaQuery } from "./useMediaQuery";
import type { WorkspaceStore } from "./workspace";

/**
 * Below this width the toolbar cannot hold every file action beside the editor's own: with Export
 * and the Suites tab, about 1180 px when the template is modified, has problems and recent files
 * (1150 px before them); the window opens at 1280 px, where they all show.
 */
export const FILE_MENU_FOLDS = "(max-width: 1250px)";

export function FileMenu({
  workspace,
  recent,
  onHelp,
}: {
  workspace: WorkspaceStore;
  recent: RecentFile[];
  onHelp: () => void;
}) {
  const folded = useMediaQuery(FILE_MENU_FOLDS);
  const template = workspace.template;
  const openSkills = (menuItem: boolean) => (
    <button
      type="button"
      role={menuItem ? "menuitem" : undefined}
      data-testid="open-skills-button"
      title="Open a folder of Agent Skills as a new template"
      onClick={() => void workspace.openSkillsChosen()}
    >
      Open skills folder…
    </button>
  );
  const actions = (
    <>
      <button
        type="button"
        data-testid="new-button"
        title="New template (Ctrl+N)"
        onClick={() => void workspace.newDocument()}
      >
        New
      </button>
      <button
        type="button"
        data-testid="open-button"
        title="Open a template (Ctrl+O)"
        onClick={() => void workspace.openChosen()}
      >
        Open…
      </button>
      {folded ? (
        openSkills(false)
      ) : (
        // A chevron beside Open… rather than a button of its own: the header has no room for one at
        // the width the window opens at.
        <DropDownMenu
          className="file-menu-fold open-menu"
          testId="open-menu"
          label=""
          ariaLabel="More ways to open"
          buttonTestId="open-menu-button"
          title="Open a skills folder as a template"
          menu
        >
          {openSkills(true)}
        </DropDownMenu>
      )}
      {template !== null && (
        <>
          <button
            type="button"
            data-testid="save-as-button"
            title="Save as (Ctrl+Shift+S)"
            onClick={() => void template.editor.saveAs()}
          >
            Save as…
          </button>
          <ExportMenu
            store={template.exports}
            startScenario={() => savedScenarioPath(workspace.compare.scenario.getState().scenario)}
          />
        </>
      )}
      {recent.length > 0 && <RecentMenu workspace={workspace} recent={recent} />}
    </>
  );
  return (
    <div className="file-menu" role="group" aria-label="File">
      {folded ? <FoldedMenu>{actions}</FoldedMenu> : actions}
      <button
        type="button"
        data-testid="help-button"
        title="Keyboard shortcuts (? or F1)"
        aria-label="Keyboard shortcuts"
        onClick={onHelp}
      >
        ?
      </button>
    </div>
  );
}

/**
 * The file actions as a drop-down "File" menu: it closes once an action is picked (the recent list
 * closes it itself, but not to forget a file), with Escape (focus back on "File"), or with a click
 * anywhere else.
 */
function FoldedMenu({ children }: { children: ReactNode }) {
  return (
    <DropDownMenu
      className="file-menu-fold"
      testId="file-menu"
      label="File"
      buttonTestId="file-menu-button"
      title="New, open, skills folder, save as, export, recent files"
      keepsOpen={(target) => target.closest(".recent-files") !== null}
    >
      {children}
    </DropDownMenu>
  );
}

function RecentMenu({ workspace, recent }: { workspace: WorkspaceStore; recent: RecentFile[] }) {
  return (
    <details className="recent-menu" data-testid="recent-menu">
      <summary>
        Recent
        <ChevronDown aria-hidden="true" className="menu-chevron" />
      </summary>
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
              // Close the menus it is in (Recent, and File in a narrow window).
              for (
                let menu = event.currentTarget.closest("details");
                menu !== null;
                menu = menu.parentElement?.closest("details") ?? null
              ) {
                menu.removeAttribute("open");
              }
              void workspace.openPath(file.path);
            }}
          >
            {fileName(file.path)}
          </button>
          <code className="recent-path ellipsis" title={file.path}>
            {file.path}
          </code>
          {!file.exists && (
            <>
              <span className="notice">missing</span>
              <button
                type="button"
                aria-label={`Forget ${file.path}`}
                onClick={() => void workspace.forgetRecent(file.path)}
              >
                Forget
              </button>
            </>
          )}
        </li>
      ))}
    </ul>
  );
}
