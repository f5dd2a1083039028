// Tests for shortcuts.ts: which key presses save, undo and redo, which move and delete in the
// section tree, and which are left alone.
import { describe, expect, it } from "vitest";
import { isHelpKey, SHORTCUT_HELP, shortcutAction, treeKeyAction, type KeyPress } from "./shortcuts";

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
    [press("S", { ctrlKey: true, shiftKey: true }), "save_as"],
    [press("o", { ctrlKey: true }), "open"],
    [press("n", { metaKey: true }), "new"],
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
    press("o", { ctrlKey: true, shiftKey: true }),
    press("n", { ctrlKey: true, altKey: true }),
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
    [press(" "), "toggle_visibility"],
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

describe("SHORTCUT_HELP", () => {
  it.each(SHORTCUT_HELP.map((line) => [line.keys, line] as const))("%s does what the help says", (_keys, line) => {
    const action =
      line.action === "help"
        ? isHelpKey(line.press, false)
          ? "help"
          : null
        : line.where === "section tree"
          ? treeKeyAction(line.press)
          : shortcutAction(line.press);
    expect(action).toBe(line.action);
  });

  it("lists every shortcut action", () => {
    const listed = new Set(SHORTCUT_HELP.map((line) => line.action));
    for (const action of ["new", "open", "save", "save_as", "undo", "redo", "help", "select_next", "move_up", "indent", "outdent", "delete", "toggle_visibility"]) {
      expect(listed).toContain(action);
    }
  });

  it("takes ? as the help key only outside text fields", () => {
    const question = { key: "?", ctrlKey: false, metaKey: false, shiftKey: true, altKey: false };
    expect(isHelpKey(question, false)).toBe(true);
    expect(isHelpKey(question, true)).toBe(false);
    expect(isHelpKey({ ...question, key: "F1" }, true)).toBe(true);
  });
});
