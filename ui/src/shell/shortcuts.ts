// The keyboard shortcuts as pure functions from a key press to an action: anywhere, Ctrl/Cmd+S
// saves, Ctrl/Cmd+Shift+S saves as, Ctrl/Cmd+O opens, Ctrl/Cmd+N starts a new template, Ctrl/Cmd+Z
// undoes, Ctrl/Cmd+Shift+Z and Ctrl+Y redo (each on the page's document: see pageDocument.ts),
// Ctrl/Cmd+1, 2, 3 and 4 show the Edit, Compare, History and Suites pages; on the Edit page
// Ctrl/Cmd+Shift+N adds a section; on the Compare page Ctrl/Cmd+Enter runs the comparison; and
// Ctrl/Cmd+K or Ctrl/Cmd+Shift+P opens the command palette. None of them is a character a text field
// would take. SHORTCUT_HELP lists them all for the help overlay and the palette, with the section
// tree's own keys (editor/treeKeys.ts).
import type { Page } from "./workspace";
import type { KeyPress, TreeKeyAction } from "../editor/treeKeys";

/** A shortcut of the page's document (the template, or the scenario on the Compare page). */
export type EditorShortcut = "save" | "undo" | "redo";
/** A shortcut about files, handled whatever is open. */
export type FileShortcut = "save_as" | "open" | "new";
/** A shortcut that shows a page. */
export type PageShortcut = "page_edit" | "page_compare" | "page_history" | "page_suites" | "page_hosts";
/** A shortcut of one page: a section added on the Edit page, the comparison run on the Compare page. */
export type PageActionShortcut = "add_section" | "run";
export type ShortcutAction = EditorShortcut | FileShortcut | PageShortcut | PageActionShortcut;

/** Ctrl/Cmd with a digit: the page it shows. */
const PAGE_KEYS: Record<string, PageShortcut> = {
  "1": "page_edit",
  "2": "page_compare",
  "3": "page_history",
  "4": "page_suites",
  "5": "page_hosts",
};

/** The action a key press asks for, or null when it is not a shortcut. */
export function shortcutAction(press: KeyPress): ShortcutAction | null {
  // Exactly one of Ctrl and Cmd, and no Alt (AltGr on some layouts reports Ctrl+Alt).
  if (press.altKey || press.ctrlKey === press.metaKey) return null;
  const key = press.key.toLowerCase();
  if (key === "s") return press.shiftKey ? "save_as" : "save";
  if (key === "z") return press.shiftKey ? "redo" : "undo";
  if (key === "y" && press.ctrlKey && !press.shiftKey) return "redo";
  if (key === "o" && !press.shiftKey) return "open";
  if (key === "n") return press.shiftKey ? "add_section" : "new";
  if (press.shiftKey) return null;
  if (key === "enter") return "run";
  return PAGE_KEYS[key] ?? null;
}

/** Whether a shortcut is the page document's (the others are about files and pages). */
export function isEditorShortcut(action: ShortcutAction): action is EditorShortcut {
  return action === "save" || action === "undo" || action === "redo";
}

const PAGE_OF: Partial<Record<ShortcutAction, Page>> = {
  page_edit: "edit",
  page_compare: "compare",
  page_history: "history",
  page_suites: "suites",
  page_hosts: "hosts",
};

/** The page a shortcut shows, or null when it shows none. */
export function shortcutPage(action: ShortcutAction): Page | null {
  return PAGE_OF[action] ?? null;
}

/** Where a shortcut works, in the order the help lists them. */
export const SHORTCUT_PLACES = ["anywhere", "edit page", "compare page", "section tree"] as const;
export type ShortcutPlace = (typeof SHORTCUT_PLACES)[number];

/** One line of the shortcut help: the keys to press, what they do, and where they work. */
export interface ShortcutHelp {
  keys: string;
  does: string;
  where: ShortcutPlace;
  /** The key press the line describes (tests check it does what the line says). */
  press: KeyPress;
  action: ShortcutAction | TreeKeyAction | "help" | "palette";
}

const press = (key: string, mods: Partial<KeyPress> = {}): KeyPress => ({
  key,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...mods,
});
const ctrl = (key: string, mods: Partial<KeyPress> = {}): KeyPress => press(key, { ctrlKey: true, ...mods });

/** Every shortcut, for the help overlay (Ctrl stands for Cmd on macOS). */
export const SHORTCUT_HELP: readonly ShortcutHelp[] = [
  { keys: "Ctrl+N", does: "New template", where: "anywhere", press: ctrl("n"), action: "new" },
  { keys: "Ctrl+O", does: "Open a template", where: "anywhere", press: ctrl("o"), action: "open" },
  {
    keys: "Ctrl+S",
    does: "Save the page's document: the template, or the scenario on Compare",
    where: "anywhere",
    press: ctrl("s"),
    action: "save",
  },
  { keys: "Ctrl+Shift+S", does: "Save as", where: "anywhere", press: ctrl("S", { shiftKey: true }), action: "save_as" },
  { keys: "Ctrl+Z", does: "Undo in the page's document", where: "anywhere", press: ctrl("z"), action: "undo" },
  {
    keys: "Ctrl+Shift+Z or Ctrl+Y",
    does: "Redo in the page's document",
    where: "anywhere",
    press: ctrl("Z", { shiftKey: true }),
    action: "redo",
  },
  { keys: "Ctrl+1", does: "Show the Edit page", where: "anywhere", press: ctrl("1"), action: "page_edit" },
  { keys: "Ctrl+2", does: "Show the Compare page", where: "anywhere", press: ctrl("2"), action: "page_compare" },
  { keys: "Ctrl+3", does: "Show the History page", where: "anywhere", press: ctrl("3"), action: "page_history" },
  { keys: "Ctrl+4", does: "Show the Suites page", where: "anywhere", press: ctrl("4"), action: "page_suites" },
  { keys: "Ctrl+5", does: "Show the Hosts page", where: "anywhere", press: ctrl("5"), action: "page_hosts" },
  { keys: "? or F1", does: "Show or hide these shortcuts", where: "anywhere", press: press("F1"), action: "help" },
  {
    keys: "Ctrl+K or Ctrl+Shift+P",
    does: "Find and run any command",
    where: "anywhere",
    press: ctrl("k"),
    action: "palette",
  },
  {
    keys: "Ctrl+Shift+N",
    does: "Add a section after the selected one",
    where: "edit page",
    press: ctrl("N", { shiftKey: true }),
    action: "add_section",
  },
  { keys: "Ctrl+Enter", does: "Run the comparison", where: "compare page", press: ctrl("Enter"), action: "run" },
  {
    keys: "↑ / ↓",
    does: "Select the section above or below",
    where: "section tree",
    press: press("ArrowDown"),
    action: "select_next",
  },
  {
    keys: "Alt+↑ / Alt+↓",
    does: "Move the section up or down",
    where: "section tree",
    press: press("ArrowUp", { altKey: true }),
    action: "move_up",
  },
  {
    keys: "Alt+→",
    does: "Indent: make it a child of the section above",
    where: "section tree",
    press: press("ArrowRight", { altKey: true }),
    action: "indent",
  },
  {
    keys: "Alt+←",
    does: "Outdent: make it a sibling of its parent",
    where: "section tree",
    press: press("ArrowLeft", { altKey: true }),
    action: "outdent",
  },
  {
    keys: "Insert",
    does: "Add a section after the selected one",
    where: "section tree",
    press: press("Insert"),
    action: "add_sibling",
  },
  {
    keys: "Space",
    does: "Toggle the section between FULL and SUMMARY",
    where: "section tree",
    press: press(" "),
    action: "toggle_visibility",
  },
  {
    keys: "Delete",
    does: "Delete the section (undoable)",
    where: "section tree",
    press: press("Delete"),
    action: "delete",
  },
];

/** Whether a key press opens or closes the shortcut help: F1 anywhere, `?` outside text fields. */
export function isHelpKey(event: KeyPress, typing: boolean): boolean {
  if (event.ctrlKey || event.metaKey || event.altKey) return false;
  return event.key === "F1" || (event.key === "?" && !typing);
}

/** Whether a key press opens or closes the command palette: Ctrl/Cmd+K, or Ctrl/Cmd+Shift+P as in editors. */
export function isPaletteKey(event: KeyPress): boolean {
  if (event.altKey || event.ctrlKey === event.metaKey) return false;
  const key = event.key.toLowerCase();
  return (key === "k" && !event.shiftKey) || (key === "p" && event.shiftKey);
}

/** The keys of the help line whose key press asks for `action`, if it has one. */
export function shortcutKeys(action: ShortcutAction | "help" | "palette"): string | null {
  return SHORTCUT_HELP.find((line) => line.action === action)?.keys ?? null;
}
