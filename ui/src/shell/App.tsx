// The app: the frame around the page shown (Frame.tsx), or the start page when no template is open
// (or the app is still starting), with the workspace's notices right under the header (recovered
// work, a failed open), the unsaved-changes question, the shortcut help and the command palette over
// it, the toasts of what was done in a corner; the keyboard shortcuts (of files and pages, and of the
// page's document) and the window's close and file-drop events. The workspace's state lives in workspace.ts, each page's in its feature's folder.
//
// data-testids (tests and the e2e test select by them; keep them stable):
//   notice                                         outside the app
//   error, error-path, error-detail, error-problems  why an open failed (file, message, problems)
//   app-header                                     the header of every page (one line at any width)
//   template-path                                  the open file's path in the header (the whole
//                                                    path as its title, cut short with an ellipsis)
//   new-button, open-button, save-as-button,       file actions in the toolbar; recent files; in a
//     recent-menu, recent-file (data-path),          narrow window they fold into the File menu
//     file-menu, file-menu-button                    (file-menu, opened by file-menu-button)
//   start-page, start-new, start-open, open-example  the start page when nothing is open
//   page-edit, page-compare, page-history,         the page switch (without a template: page-edit
//     page-suites                                    is the start page, and there is no page-compare)
//   export-menu, export-dialog, export-notice, …   the template's Export menu (exports/ExportMenu.tsx)
//   suites-view, suite-open, suite-run, …          the Suites page (suites/SuitesView.tsx)
//   workspace-notices                              the notices under the header, before the page
//   recovery-offer, recovered-item (data-path),    unsaved work recovered after a crash (in
//     restore-recovered, discard-recovered,          workspace-notices); recovery-later hides the
//     recovery-later                                 offer until the next start
//   unsaved-dialog, unsaved-save, unsaved-discard, unsaved-cancel  the unsaved-changes question
//   shortcut-help, help-button                     the keyboard shortcut overlay and its button;
//     shortcut-place (data-place)                    a place's shortcuts in it (one table)
//   command-palette, palette-query, …              the command palette (palette/CommandPalette.tsx)
//   toast-region                                   what was done, as toasts (shared/ToastRegion.tsx)
//   read-sections, read-section (data-path)        the preview's "show as read" switches
//   tree-scroller, drag-handle, drop-indicator     the tree's scroll box, a row's grip, where a
//     (data-position=before|inside|after)           dragged section would land
//   undo-button, redo-button, save-button          the header's one set, on the page's document
//     (data-document=template|scenario)              (the scenario on Compare: no other Save there)
//   dirty-marker                                   "modified" while there are unsaved changes
//   edit-failure, edit-failure-detail              why the last edit, undo, redo or save was not done
//   section-tree, section-row (data-path=<path>),  the section tree; per row: select-section,
//     select-section, toggle-visibility, tool-count  the FULL/SUMMARY toggle ("Toggle <path>"), tools
//   section-editor, field-key, field-title,        the selected section's editor (title, template
//     field-template, field-summary, field-visibility  and summary are CodeMirror's .cm-content: read
//     field-title-warnings, field-template-warnings,   their textContent), and the placeholder
//     field-summary-warnings                           warnings under a field
//   section-tools, section-tool (data-name),       a section's tools, and the template's own tools in
//     template-tools, template-tool (data-name),     the Template tab; edit-tool opens a tool in the
//     edit-tool, new-tool                            tool editor, new-tool adds a blank one
//   tool-editor, tool-name, tool-description,      the tool editor: fields, problems (location +
//     tool-brief, tool-kind, tool-categories,        message), Apply (changes without problems are
//     tool-requires-permission, tool-parameters,     applied as typed; Apply does it at once), Revert,
//     tool-mock, tool-mock-result, tool-mock-error,  Close, and the status (applied or why not)
//     tool-problems, tool-apply, tool-revert,
//     tool-close, tool-status
//   tab-section, tab-template, tab-sources         the edit pane's tabs (Sources shows its count)
//   source-badge                                   a tree row's source tools ("⚡ 3"; whose, in its
//                                                    name and tooltip): shows them in Sources
//   template-source-count, open-sources            the Template panel's count of sources, the way there
//   sources-panel, sources-status, sources-failure  the Sources panel (sources/): what is under way,
//     discover-sources, snapshot-sources,            a refused action; Discover now, Write snapshots,
//     add-source, source-list                        Add source; the list of sources
//   source (data-name), source-permission          a source's card: its answer (data-permission),
//     (data-permission), source-permission-text,     what it means, what starting it does, another
//     source-starts, source-remote, source-section,  machine, its section (a select), where its tools
//     source-tools-line (data-tier), source-error,   came from, why a lower tier, its problems;
//     source-problems, allow-source, revoke-source,  Allow…, Revoke, Edit, Remove
//     edit-source, remove-source
//   allow-dialog, allow-starts, allow-remote,      the question that allows a source: what will run
//     allow-changed, allow-confirm, allow-cancel     or be contacted, another machine, a changed definition
//   run-sources-dialog, run-source (data-name,     the question Run asks on the Compare page about
//     data-permission), run-source-starts,         sources not allowed: each source, what it would
//     run-source-remote, run-source-changed,       run or contact, another machine, a changed
//     run-sources-failure, run-sources-allow,      definition; why an allow failed; Allow and run,
//     run-sources-snapshots, run-sources-cancel    Run with snapshots, Cancel
//   source-form, source-name, source-form-section,  the form that adds or edits a source; each
//     source-kind-command|url|relay, source-command,  problem at its field (data-field)
//     source-cwd, source-env, source-url, source-plugin,
//     source-form-problem, source-apply, source-cancel
//   filter-kind, filter-category, filter-source,   the template's tools, written ones first: the
//     source-tool-count, source-tool-list,         filters (filter-source: a source, or the written
//     source-tool (data-name, data-source,         ones), count and list; each tool (data-origin; a
//       data-origin=written|source, data-section), written one's data-source is empty), where it
//     source-tool-origin, source-tool-kind,        comes from (data-section: its section or its
//     source-tool-asks, source-tool-category       source's, empty for the template's own), its
//                                                  kind, whether it asks permission, its categories
//   relay-panel, relay-start, relay-stop,          the Sources tab's Relay section: Start relay,
//     relay-listening, relay-failure,              Stop relay, where it listens, why an action
//     relay-session (data-code), relay-log,        failed, its sessions, its live log (newest
//     relay-log-entry (data-code)                  first)
//   relay-session-picker                           the Compare page's relay session a run attaches to
//   problems-panel, problems-summary, problem-group  every problem of the open work, by where it comes
//     (data-group, data-severity), problems-button     from (shared/); the header's count takes the user there
//   save-notice                                    a template saved that does not render says so
//   expand-all                                     preview every section in full
//   preview-markdown, tool-list, token-count       the preview
//   preview-error                                  the preview's render error, in its place
import { useEffect, useState, useSyncExternalStore } from "react";
import { CommandPalette } from "../palette/CommandPalette";
import type { PaletteCommand } from "../palette/commands";
import type { Platform } from "../platform";
import { ToastProvider } from "../shared/ToastRegion";
import { Frame } from "./Frame";
import { PageSwitch } from "./PageSwitch";
import { paletteCommands } from "./paletteCommands";
import { shortcutCommand } from "./shortcutCommands";
import { isHelpKey, isPaletteKey, shortcutAction } from "./shortcuts";
import { ShortcutHelpOverlay } from "./ShortcutHelpOverlay";
import { StartPage } from "./StartPage";
import { UnsavedDialog, WorkspaceNotices } from "./WorkspaceNotices";
import { START_PAGES, TEMPLATE_FREE_PAGES, WorkspaceStore } from "./workspace";

interface AppProps {
  platform: Platform;
  workspace?: WorkspaceStore;
}

/**
 * The app over `platform`; `workspace` is one already started (the entry point starts it early).
 * The toasts outlive a switch between the frame and the start page.
 */
export function App(props: AppProps) {
  return (
    <ToastProvider>
      <AppView {...props} />
    </ToastProvider>
  );
}

function AppView({ platform, workspace: started }: AppProps) {
  const [workspace] = useState(() => started ?? new WorkspaceStore(platform));
  const state = useSyncExternalStore(workspace.subscribe, workspace.getState);

  useEffect(() => {
    void workspace.start();
  }, [workspace]);

  useEffect(() => listenToWindow(platform, workspace), [platform, workspace]);

  const [help, setHelp] = useState(false);
  // The palette's commands, read as the workspace stands when it opens; null while it is closed.
  const [palette, setPalette] = useState<PaletteCommand[] | null>(null);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (isHelpKey(event, isTyping(event.target))) {
        event.preventDefault();
        setHelp((shown) => !shown);
        return;
      }
      if (isPaletteKey(event)) {
        event.preventDefault();
        setHelp(false);
        setPalette((open) =>
          open === null
            ? paletteCommands(workspace, () => {
                setHelp(true);
              })
            : null,
        );
        return;
      }
      const action = shortcutAction(event);
      const command = action === null ? null : shortcutCommand(action, workspace);
      if (command !== null) {
        event.preventDefault();
        command.perform();
      }
    };
    window.addEventListener("keydown", onKeyDown);
    return () => {
      window.removeEventListener("keydown", onKeyDown);
    };
  }, [workspace]);

  const { screen, page } = state;
  // Under the header, before the page: in view at start-up whatever the page holds.
  const notices = <WorkspaceNotices workspace={workspace} state={state} />;
  // Over the page.
  const dialogs = (
    <>
      {state.question !== null && (
        <UnsavedDialog
          question={state.question}
          onAnswer={(answer) => {
            workspace.answer(answer);
          }}
        />
      )}
      {palette !== null && (
        <CommandPalette
          commands={palette}
          onClose={() => {
            setPalette(null);
          }}
        />
      )}
      {help && (
        <ShortcutHelpOverlay
          onClose={() => {
            setHelp(false);
          }}
        />
      )}
    </>
  );
  if (screen.kind === "editor" || (screen.kind === "start" && TEMPLATE_FREE_PAGES.includes(page))) {
    return (
      <>
        <Frame
          workspace={workspace}
          state={state}
          notices={notices}
          onHelp={() => {
            setHelp(true);
          }}
        />
        {dialogs}
      </>
    );
  }
  return (
    <main className="app">
      <header className="app-head" data-testid="app-header">
        <h1>Unfold</h1>
        {screen.kind === "start" && (
          <PageSwitch
            pages={START_PAGES}
            page="edit"
            onPage={(shown) => {
              workspace.showPage(shown);
            }}
            names={{ edit: "Start" }}
          />
        )}
      </header>
      {notices}
      {screen.kind === "loading" && <p className="notice">Loading…</p>}
      {screen.kind === "outside_tauri" && (
        <p className="notice" data-testid="notice">
          This page is Unfold&apos;s desktop UI: open it with the Unfold app to edit templates.
        </p>
      )}
      {screen.kind === "start" && <StartPage workspace={workspace} recent={state.recent} examples={state.examples} />}
      {dialogs}
    </main>
  );
}

/** Whether a key press goes to a text field (where `?` is a character, not the help key). */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

/** Asks about unsaved changes when the window is closing, and opens files dropped on it. */
function listenToWindow(platform: Platform, workspace: WorkspaceStore): () => void {
  const unlistens = [
    platform.onCloseRequested(() => void workspace.requestClose()),
    platform.onFilesDropped((paths) => void workspace.openDropped(paths)),
  ];
  return () => {
    for (const unlisten of unlistens)
      void unlisten.then((stop) => {
        stop();
      });
  };
}
