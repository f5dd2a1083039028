// Which document the header's Undo, Redo and Save (and Ctrl+Z, Ctrl+Shift+Z, Ctrl+S) act on: the
// page's own, so that a page has one set of them. The Compare page edits the open scenario; the Edit
// page, and the History and Suites pages (which edit nothing), the template. Each button's state
// and tooltip name that document, and Save's its file.
import type { DocumentView } from "../platform";
import type { EditorShortcut } from "./shortcuts";
import { fileName } from "../shared/view";
import type { Page } from "./workspace";

/** What the buttons read of a document (a template's or a scenario's view has it all). */
export type DocumentStatus = Pick<DocumentView, "path" | "dirty" | "can_undo" | "can_redo">;

/** The kind of document a page edits. */
export type DocumentKind = "template" | "scenario";

export interface DocumentButton {
  enabled: boolean;
  title: string;
}

/** The page's document, and its Undo, Redo and Save buttons. */
export interface PageDocument {
  kind: DocumentKind;
  buttons: Record<EditorShortcut, DocumentButton>;
}

/** The kind of document `page` edits. */
export function documentKindOf(page: Page): DocumentKind {
  return page === "compare" ? "scenario" : "template";
}

/** The document of `page` with its buttons: `template`, or `scenario` (`null`: none is open). */
export function pageDocument(page: Page, template: DocumentStatus, scenario: DocumentStatus | null): PageDocument {
  const kind = documentKindOf(page);
  const status = kind === "template" ? template : scenario;
  return { kind, buttons: status === null ? NO_SCENARIO : buttonsOf(kind, status) };
}

const KEYS: Record<EditorShortcut, string> = { undo: "Ctrl+Z", redo: "Ctrl+Shift+Z", save: "Ctrl+S" };

function buttonsOf(kind: DocumentKind, status: DocumentStatus): Record<EditorShortcut, DocumentButton> {
  return {
    undo: { enabled: status.can_undo, title: `Undo in the ${kind} (${KEYS.undo})` },
    redo: { enabled: status.can_redo, title: `Redo in the ${kind} (${KEYS.redo})` },
    save: { enabled: canSave(kind, status), title: `${saveWords(kind, status.path)} (${KEYS.save})` },
  };
}

/**
 * As each document's own Save always was: a template once changed; a scenario also while untitled,
 * since New gives one that already runs and is worth keeping as it is.
 */
function canSave(kind: DocumentKind, status: DocumentStatus): boolean {
  return status.dirty || (kind === "scenario" && status.path === null);
}

function saveWords(kind: DocumentKind, path: string | null): string {
  return path === null ? `Save the untitled ${kind}: asks where` : `Save the ${kind} to ${fileName(path)}`;
}

const NO_SCENARIO: Record<EditorShortcut, DocumentButton> = {
  undo: { enabled: false, title: "Undo in the scenario: no scenario is open" },
  redo: { enabled: false, title: "Redo in the scenario: no scenario is open" },
  save: { enabled: false, title: "Save the scenario: no scenario is open" },
};

/** Whatever can undo, redo and save: the editor's and the scenario's stores. */
interface DocumentActions {
  undo: () => Promise<unknown>;
  redo: () => Promise<unknown>;
  save: () => Promise<unknown>;
}

/** Does `action` on the page's document: `template`'s or `scenario`'s. */
export function actOnPageDocument(
  action: EditorShortcut,
  kind: DocumentKind,
  stores: Record<DocumentKind, DocumentActions>,
): Promise<unknown> {
  return stores[kind][action]();
}
