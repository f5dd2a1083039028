// Tests for treeKeys.ts: which key presses move, add, delete and select in the section tree, and
// which are left alone.
import { describe, expect, it } from "vitest";
import { treeKeyAction, type KeyPress } from "./treeKeys";

function press(key: string, mods: Partial<Omit<KeyPress, "key">> = {}): KeyPress {
  return { key, ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, ...mods };
}

describe("treeKeyAction", () => {
  it.each([
    [press("ArrowUp", { altKey: true }), "move_up"],
    [press("ArrowDown", { altKey: true }), "move_down"],
    [press("ArrowRight", { altKey: true }), "indent"],
    [press("ArrowLeft", { altKey: true }), "outdent"],
    [press("Delete"), "delete"],
    [press(" "), "toggle_visibility"],
    [press("ArrowUp"), "select_previous"],
    [press("ArrowDown"), "select_next"],
    [press("Insert"), "add_sibling"],
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
    press("Insert", { shiftKey: true }),
    press("z", { ctrlKey: true }),
    press("Alt", { altKey: true }),
  ])("%o is not a tree key", (key) => {
    expect(treeKeyAction(key)).toBeNull();
  });
});
