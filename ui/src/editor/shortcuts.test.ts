// Tests for shortcuts.ts: which key presses save, undo and redo, and which are left alone.
import { describe, expect, it } from "vitest";
import { shortcutAction, type KeyPress } from "./shortcuts";

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
