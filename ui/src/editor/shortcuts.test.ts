// Tests for shortcuts.ts: which key presses save, undo and redo, which move and delete in the
// section tree, and which are left alone.
import { describe, expect, it } from "vitest";
import { shortcutAction, treeKeyAction, type KeyPress } from "./shortcuts";

function press(key: string, mods: Partial<Omit<KeyPress, "key">> = {}): KeyPress {
  return { key, ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, ...mods };
}

describe("shortcutAction", () => {
  it.each([
    [press("s", { ctrlKey: true }), "save"],
    [press("s", { metaKey: true }), "save"],
    [press("z", { ctrlKey: true }), "undo"],
    [press("z", { metaKey: true }), "undo"],
    [press("Z", { ctrlKey: true, shiftKey: true }), "redo"],
    [press("z", { metaKey: true, shiftKey: true }), "redo"],
    [press("y", { ctrlKey: true }), "redo"],
    [press("S", { ctrlKey: true }), "save"],
  ] as const)("%o -> %s", (key, action) => {
    expect(shortcutAction(key)).toBe(action);
  });

  it.each([
    press("s"),
    press("z"),
    press("z", { shiftKey: true }),
    press("z", { ctrlKey: true, altKey: true }),
    press("z", { ctrlKey: true, metaKey: true }),
    press("y", { metaKey: true }),
    press("s", { ctrlKey: true, shiftKey: true }),
    press("a", { ctrlKey: true }),
    press("Control", { ctrlKey: true }),
  ])("%o is not a shortcut", (key) => {
    expect(shortcutAction(key)).toBeNull();
  });
});

describe("treeKeyAction", () => {
  it.each([
    [press("ArrowUp", { altKey: true }), "move_up"],
    [press("ArrowDown", { altKey: true }), "move_down"],
    [press("ArrowRight", { altKey: true }), "indent"],
    [press("ArrowLeft", { altKey: true }), "outdent"],
    [press("Delete"), "delete"],
    [press("ArrowUp"), "select_previous"],
    [press("ArrowDown"), "select_next"],
  ] as const)("%o -> %s", (key, action) => {
    expect(treeKeyAction(key)).toBe(action);
  });

  it.each([
    press("ArrowLeft"),
    press("ArrowRight"),
    press("Delete", { altKey: true }),
    press("Delete", { ctrlKey: true }),
    press("ArrowUp", { shiftKey: true }),
    press("ArrowUp", { ctrlKey: true, altKey: true }),
    press("ArrowDown", { metaKey: true }),
    press("Backspace"),
    press("z", { ctrlKey: true }),
    press("Alt", { altKey: true }),
  ])("%o is not a tree key", (key) => {
    expect(treeKeyAction(key)).toBeNull();
  });
});
