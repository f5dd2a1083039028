// What each keyboard shortcut does where the workspace stands now, as one function the key handler
// (App.tsx) and the command palette both call: the palette offers a shortcut's command exactly
// where its keys would do something, and does the same thing.
import { actOnPageDocument, documentKindOf, pageDocument } from "./pageDocument";
import { isEditorShortcut, shortcutPage, type ShortcutAction } from "./shortcuts";
import { EDITOR_PAGES, START_PAGES, TEMPLATE_FREE_PAGES, type WorkspaceStore } from "./workspace";

/** A shortcut's command where the workspace stands now. */
export interface ShortcutCommand {
  perform: () => void;
  /**
   * Whether performing it would change something: false for undo, redo and save when the page's
   * document has nothing to undo, redo or save (as the header's button says). The keys still
   * perform it then, so that Ctrl+Z never falls to a text field's own undo; the palette does not.
   */
  changesSomething: boolean;
}

/** What `action` does now, or null when it does nothing here (the page leaves it alone, or is not there). */
export function shortcutCommand(action: ShortcutAction, workspace: WorkspaceStore): ShortcutCommand | null {
  const perform = pageCommand(action, workspace) ?? workspaceCommand(action, workspace);
  if (perform === null) return null;
  return { perform, changesSomething: documentChanges(action, workspace) };
}

/** Whether the page's document has something for `action` when it is undo, redo or save; true otherwise. */
function documentChanges(action: ShortcutAction, workspace: WorkspaceStore): boolean {
  const { editor, compare } = workspace;
  if (!isEditorShortcut(action) || editor === null) return true;
  const { page } = workspace.getState();
  return pageDocument(page, editor.getState().document, compare.scenario.getState().scenario).buttons[action].enabled;
}

/**
 * A shortcut about files or pages, whatever page shows: new, open, save as, and a page shown. Null
 * when it is not one, or its page is not there.
 */
function workspaceCommand(action: ShortcutAction, workspace: WorkspaceStore): (() => void) | null {
  const page = shortcutPage(action);
  if (page !== null) {
    const { screen } = workspace.getState();
    const pages = screen.kind === "editor" ? EDITOR_PAGES : screen.kind === "start" ? START_PAGES : [];
    if (!pages.includes(page)) return null;
    return () => {
      workspace.showPage(page);
    };
  }
  switch (action) {
    case "new":
      return () => void workspace.newDocument();
    case "open":
      return () => void workspace.openChosen();
    case "save_as":
      return () =>
        void (workspace.getState().page === "compare" ? workspace.compare.scenario : workspace.editor)?.saveAs();
    default:
      return null;
  }
}

/**
 * A shortcut of the page's, while a template is open: undo, redo and save of its document, a
 * section added on the Edit page, the comparison run on the Compare page. Null when the page leaves
 * it alone.
 */
function pageCommand(action: ShortcutAction, workspace: WorkspaceStore): (() => void) | null {
  const { editor, compare } = workspace;
  if (editor === null) return null;
  const { page } = workspace.getState();
  if (isEditorShortcut(action)) {
    // The run history, the suites and the hosts have nothing to undo, and an undo of the template
    // there would not be seen: their fields keep their own.
    if (TEMPLATE_FREE_PAGES.includes(page) && action !== "save") return null;
    // Ours, not the text field's own undo: the document's history covers every field.
    return () => void actOnPageDocument(action, documentKindOf(page), { template: editor, scenario: compare.scenario });
  }
  // Ctrl+Enter is a line break in the Edit page's code fields: only the Compare page runs on it.
  if (action === "run" && page === "compare") return () => void compare.comparison.run();
  if (action === "add_section" && page === "edit")
    return () => void editor.restructure(editor.getState().selected, "add_sibling");
  return null;
}
