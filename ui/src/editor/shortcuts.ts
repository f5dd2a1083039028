// The editor's keyboard shortcuts as a pure function from a key press to an action: Ctrl/Cmd+S
// saves, Ctrl/Cmd+Z undoes, Ctrl/Cmd+Shift+Z and Ctrl+Y redo.

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
