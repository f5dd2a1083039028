// The editor's keyboard shortcuts as pure functions from a key press to an action: anywhere,
// Ctrl/Cmd+S saves, Ctrl/Cmd+Z undoes, Ctrl/Cmd+Shift+Z and Ctrl+Y redo; in the section tree,
// Alt+ArrowUp/Down move the selected section, Alt+ArrowRight/Left indent and outdent it, Delete
// removes it and ArrowUp/Down select the row above or below.
import type { StructureAction } from "./structure";

/** The parts of a keydown event the shortcuts look at (a `KeyboardEvent` has them all). */
export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

export type ShortcutAction = "save" | "undo" | "redo";

/** The action a key press asks for, or null when it is not a shortcut. */
export function shortcutAction(press: KeyPress): ShortcutAction | null {
  // Exactly one of Ctrl and Cmd, and no Alt (AltGr on some layouts reports Ctrl+Alt).
  if (press.altKey || press.ctrlKey === press.metaKey) return null;
  const key = press.key.toLowerCase();
  if (key === "s" && !press.shiftKey) return "save";
  if (key === "z") return press.shiftKey ? "redo" : "undo";
  if (key === "y" && press.ctrlKey && !press.shiftKey) return "redo";
  return null;
}

/** What a key press in the section tree asks for: a structural edit, or the row above or below. */
export type TreeKeyAction = StructureAction | "select_previous" | "select_next";

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
};

/** The tree action a key press asks for while the tree has focus, or null when it is not one. */
export function treeKeyAction(press: KeyPress): TreeKeyAction | null {
  if (press.ctrlKey || press.metaKey || press.shiftKey) return null;
  return (press.altKey ? TREE_ALT_KEYS[press.key] : TREE_PLAIN_KEYS[press.key]) ?? null;
}
