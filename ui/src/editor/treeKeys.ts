// The section tree's keys as a pure function from a key press to an action: Alt+ArrowUp/Down move the
// selected section, Alt+ArrowRight/Left indent and outdent it, Insert adds a section after it,
// Delete removes it, Space toggles it between FULL and SUMMARY and ArrowUp/Down select the row above
// or below.
import type { StructureAction } from "./structure";

/** The parts of a keydown event the shortcuts look at (a `KeyboardEvent` has them all). */
export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
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
  Insert: "add_sibling",
  " ": "toggle_visibility",
};

/** The tree action a key press asks for while the tree has focus, or null when it is not one. */
export function treeKeyAction(press: KeyPress): TreeKeyAction | null {
  if (press.ctrlKey || press.metaKey || press.shiftKey) return null;
  return (press.altKey ? TREE_ALT_KEYS[press.key] : TREE_PLAIN_KEYS[press.key]) ?? null;
}
