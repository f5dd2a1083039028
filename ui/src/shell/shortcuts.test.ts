// Tests for shortcuts.ts: which key presses save, undo and redo, show a page, add a section and run
// the comparison, and which are left alone (keys a text field takes as text among them); the help
// lists every shortcut, the section tree's too, each doing what it says; Ctrl/Cmd+K and
// Ctrl/Cmd+Shift+P open the command palette.
import { describe, expect, it } from "vitest";
import { isHelpKey, isPaletteKey, SHORTCUT_HELP, SHORTCUT_PLACES, shortcutAction, shortcutPage } from "./shortcuts";
import { treeKeyAction, type KeyPress } from "../editor/treeKeys";

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
    [press("N", { ctrlKey: true, shiftKey: true }), "add_section"],
    [press("n", { metaKey: true, shiftKey: true }), "add_section"],
    [press("Enter", { ctrlKey: true }), "run"],
    [press("Enter", { metaKey: true }), "run"],
    [press("1", { ctrlKey: true }), "page_edit"],
    [press("2", { ctrlKey: true }), "page_compare"],
    [press("3", { metaKey: true }), "page_history"],
    [press("4", { ctrlKey: true }), "page_suites"],
    [press("5", { ctrlKey: true }), "page_hosts"],
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
    // Text in a field: a plain or shifted digit, Enter, Shift+Enter.
    press("1"),
    press("!", { shiftKey: true }),
    press("Enter"),
    press("Enter", { shiftKey: true }),
    // Taken by others: Ctrl+Shift+Enter, Ctrl+Alt+digit (AltGr); a digit with no page: Ctrl+6.
    press("Enter", { ctrlKey: true, shiftKey: true }),
    press("2", { ctrlKey: true, altKey: true }),
    press("6", { ctrlKey: true }),
    press("N", { ctrlKey: true, shiftKey: true, altKey: true }),
  ])("%o is not a shortcut", (key) => {
    expect(shortcutAction(key)).toBeNull();
  });
});

describe("shortcutPage", () => {
  it("names the page of each page shortcut, and none for the others", () => {
    expect(shortcutPage("page_edit")).toBe("edit");
    expect(shortcutPage("page_compare")).toBe("compare");
    expect(shortcutPage("page_history")).toBe("history");
    expect(shortcutPage("page_suites")).toBe("suites");
    expect(shortcutPage("page_hosts")).toBe("hosts");
    expect(shortcutPage("save")).toBeNull();
    expect(shortcutPage("run")).toBeNull();
  });
});

describe("SHORTCUT_HELP", () => {
  it.each(SHORTCUT_HELP.map((line) => [line.keys, line] as const))("%s does what the help says", (_keys, line) => {
    const action =
      line.action === "help"
        ? isHelpKey(line.press, false)
          ? "help"
          : null
        : line.action === "palette"
          ? isPaletteKey(line.press)
            ? "palette"
            : null
          : line.where === "section tree"
            ? treeKeyAction(line.press)
            : shortcutAction(line.press);
    expect(action).toBe(line.action);
  });

  it("lists every shortcut action", () => {
    const listed = new Set(SHORTCUT_HELP.map((line) => line.action));
    const actions = [
      "new",
      "open",
      "save",
      "save_as",
      "undo",
      "redo",
      "help",
      "palette",
      "page_edit",
      "page_compare",
      "page_history",
      "page_suites",
      "page_hosts",
    ];
    const onPages = [
      "add_section",
      "run",
      "select_next",
      "move_up",
      "indent",
      "outdent",
      "add_sibling",
      "delete",
      "toggle_visibility",
    ];
    for (const action of [...actions, ...onPages]) {
      expect(listed).toContain(action);
    }
  });

  it("lists each place's shortcuts together, the places in order", () => {
    const places = SHORTCUT_HELP.map((line) => line.where).filter((where, index, all) => where !== all[index - 1]);
    expect(places).toEqual([...SHORTCUT_PLACES]);
  });

  it("takes ? as the help key only outside text fields", () => {
    const question = { key: "?", ctrlKey: false, metaKey: false, shiftKey: true, altKey: false };
    expect(isHelpKey(question, false)).toBe(true);
    expect(isHelpKey(question, true)).toBe(false);
    expect(isHelpKey({ ...question, key: "F1" }, true)).toBe(true);
  });
});

describe("isPaletteKey", () => {
  it("takes Ctrl or Cmd with K, or with Shift+P", () => {
    expect(isPaletteKey(press("k", { ctrlKey: true }))).toBe(true);
    expect(isPaletteKey(press("k", { metaKey: true }))).toBe(true);
    expect(isPaletteKey(press("P", { ctrlKey: true, shiftKey: true }))).toBe(true);
  });

  it("leaves K and P alone without exactly one of Ctrl and Cmd, with Alt, or P without Shift", () => {
    expect(isPaletteKey(press("k"))).toBe(false);
    expect(isPaletteKey(press("k", { ctrlKey: true, metaKey: true }))).toBe(false);
    expect(isPaletteKey(press("k", { ctrlKey: true, altKey: true }))).toBe(false);
    expect(isPaletteKey(press("p", { ctrlKey: true }))).toBe(false);
  });
});
