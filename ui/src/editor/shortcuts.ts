// The editor's keyboard shortcuts as pure functions from a key press to an action: anywhere,
// Ctrl/Cmd+S saves, Ctrl/Cmd+Shift+S saves as, Ctrl/Cmd+O opens, Ctrl/Cmd+N starts a new template,
// Ctrl/Cmd+Z undoes, Ctrl/Cmd+Shift+Z and Ctrl+Y redo; in the section tree,
// Alt+ArrowUp/Down move the selected section, Alt+ArrowRight/Left indent and outdent it, Delete
// removes it, Space toggles it between FULL and SUMMARY and ArrowUp/Down select the row above or
// below. SHORTCUT_HELP lists them all for the help overlay.
import type { StructureAction } from "./structure";

/** The parts of a keydown event the shortcuts look at (a `KeyboardEvent` has them all). */
export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

/** A shortcut of the open document's editor. */
export type EditorShortcut = "save" | "undo" | "redo";
/** A shortcut about files, handled whatever is open. */
export type FileShortcut = "save_as" | "open" | "new";
export type ShortcutAction = EditorShortcut | FileShortcut;

/** The action a key press asks for, or null when it is not a shortcut. */
export function shortcutAction(press: KeyPress): ShortcutAction | null {
  // Exactly one of Ctrl and Cmd, and no Alt (AltGr on some layouts reports Ctrl+Alt).
  if (press.altKey || press.ctrlKey === press.metaKey) return null;
  const key = press.key.toLowerCase();
  if (key === "s") return press.shiftKey ? "save_as" : "save";
  if (key === "z") return press.shiftKey ? "redo" : "undo";
  if (key === "y" && press.ctrlKey && !press.shiftKey) return "redo";
  if (key === "o" && !press.shiftKey) return "open";
  if (key === "n" && !press.shiftKey) return "new";
  return null;
}

/** Whether a shortcut is the editor's (the others are about files). */
export function isEditorShortcut(action: ShortcutAction): action is EditorShortcut {
  return action === "save" || action === "undo" || action === "redo";
}

/** What a key press in the section tree asks for: a structural edit, or the row above or below. */
export type TreeKeyAction = StructureAction | "select_previous" | "select_next" | "toggle_visibility";

const TREE_ALT_KEYS: Record<string, TreeKeyAction> = {
  ArrowUp: "move_up",
  ArrowDown: "move_down",
  ArrowRight: "indent",
  ArrowLeft: "outdent",
};

const TREE_PLAIN_KEYS: Record<string, TreeKeyAction> = {
  ArrowUp: "select_previous",
  ArrowDown: "select_next",
  Delete: "delete",
  " ": "toggle_visibility",
};

/** The tree action a key press asks for while the tree has focus, or null when it is not one. */
export function treeKeyAction(press: KeyPress): TreeKeyAction | null {
  if (press.ctrlKey || press.metaKey || press.shiftKey) return null;
  return (press.altKey ? TREE_ALT_KEYS[press.key] : TREE_PLAIN_KEYS[press.key]) ?? null;
}

/** One line of the shortcut help: the keys to press, what they do, and where they work. */
export interface ShortcutHelp {
  keys: string;
  does: string;
  where: "anywhere" | "section tree";
  /** The key press the line describes (tests check it does what the line says). */
  press: KeyPress;
  action: ShortcutAction | TreeKeyAction | "help";
}

const press = (key: string, mods: Partial<KeyPress> = {}): KeyPress => ({
  key,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...mods,
});

/** Every shortcut, for the help overlay (Ctrl stands for Cmd on macOS). */
export const SHORTCUT_HELP: readonly ShortcutHelp[] = [
  { keys: "Ctrl+N", does: "New template", where: "anywhere", press: press("n", { ctrlKey: true }), action: "new" },
  { keys: "Ctrl+O", does: "Open a template", where: "anywhere", press: press("o", { ctrlKey: true }), action: "open" },
  { keys: "Ctrl+S", does: "Save", where: "anywhere", press: press("s", { ctrlKey: true }), action: "save" },
  { keys: "Ctrl+Shift+S", does: "Save as", where: "anywhere", press: press("S", { ctrlKey: true, shiftKey: true }), action: "save_as" },
  { keys: "Ctrl+Z", does: "Undo", where: "anywhere", press: press("z", { ctrlKey: true }), action: "undo" },
  { keys: "Ctrl+Shift+Z or Ctrl+Y", does: "Redo", where: "anywhere", press: press("Z", { ctrlKey: true, shiftKey: true }), action: "redo" },
  { keys: "? or F1", does: "Show or hide these shortcuts", where: "anywhere", press: press("F1"), action: "help" },
  { keys: "↑ / ↓", does: "Select the section above or below", where: "section tree", press: press("ArrowDown"), action: "select_next" },
  { keys: "Alt+↑ / Alt+↓", does: "Move the section up or down", where: "section tree", press: press("ArrowUp", { altKey: true }), action: "move_up" },
  { keys: "Alt+→", does: "Indent: make it a child of the section above", where: "section tree", press: press("ArrowRight", { altKey: true }), action: "indent" },
  { keys: "Alt+←", does: "Outdent: make it a sibling of its parent", where: "section tree", press: press("ArrowLeft", { altKey: true }), action: "outdent" },
  { keys: "Space", does: "Toggle the section between FULL and SUMMARY", where: "section tree", press: press(" "), action: "toggle_visibility" },
  { keys: "Delete", does: "Delete the section (undoable)", where: "section tree", press: press("Delete"), action: "delete" },
];

/** Whether a key press opens or closes the shortcut help: F1 anywhere, `?` outside text fields. */
export function isHelpKey(event: KeyPress, typing: boolean): boolean {
  if (event.ctrlKey || event.metaKey || event.altKey) return false;
  return event.key === "F1" || (event.key === "?" && !typing);
}
