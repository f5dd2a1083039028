// Renders CommandPalette in happy-dom: the field has the focus; typing narrows the commands; ↑ and ↓
// pick among those that can be done; Enter or a click does the one picked and closes; Escape
// closes without doing anything; the focus goes back to what had it; a shortcut's keys are shown.
import { act, useState } from "react";
import type { Root } from "react-dom/client";
import { describe, expect, it, vi } from "vitest";
import { all, byTestId, click, keyDown, none, typeInto } from "../testing/dom";
import { mountEachTest } from "../testing/testRoot";
import { CommandPalette } from "./CommandPalette";
import type { PaletteCommand } from "./commands";

let root: Root;

mountEachTest((mounted) => {
  ({ root } = mounted);
});

/** The palette over `commands`, opened by a button that had the focus; what was done, in order. */
function openPalette(commands: (done: string[]) => PaletteCommand[]): { done: string[]; opener: HTMLButtonElement } {
  const done: string[] = [];
  const list = commands(done);
  function Opener() {
    const [open, setOpen] = useState(false);
    return (
      <>
        <button
          type="button"
          data-testid="opener"
          onClick={() => {
            setOpen(true);
          }}
        >
          Open
        </button>
        {open && (
          <CommandPalette
            commands={list}
            onClose={() => {
              done.push("closed");
              setOpen(false);
            }}
          />
        )}
      </>
    );
  }
  act(() => {
    root.render(<Opener />);
  });
  const opener = byTestId("opener") as HTMLButtonElement;
  act(() => {
    opener.focus();
    opener.click();
  });
  return { done, opener };
}

const doing = (title: string, done: string[], more: Partial<PaletteCommand> = {}): PaletteCommand => ({
  id: title,
  title,
  available: true,
  perform: () => done.push(title),
  ...more,
});

const SAMPLE = (done: string[]) => [
  doing("New template", done, { keys: "Ctrl+N" }),
  doing("Run the comparison", done, { available: false, keys: "Ctrl+Enter" }),
  doing("Show the Edit page", done, { keys: "Ctrl+1" }),
  doing("Show the Compare page", done, { keys: "Ctrl+2" }),
];

const query = () => byTestId("palette-query") as HTMLInputElement;
const shown = () => all("palette-command").map((option) => option.dataset.id);
const picked = () => all("palette-command").find((option) => option.getAttribute("aria-selected") === "true");

describe("CommandPalette", () => {
  it("takes the focus in its field, and lists the commands that can be done first, with their keys", () => {
    openPalette(SAMPLE);
    expect(document.activeElement).toBe(query());
    expect(shown()).toEqual(["New template", "Show the Edit page", "Show the Compare page", "Run the comparison"]);
    expect(all("palette-keys").map((keys) => keys.textContent)).toEqual(["Ctrl+N", "Ctrl+1", "Ctrl+2", "Ctrl+Enter"]);
    const run = all("palette-command")[3];
    expect(run?.getAttribute("aria-disabled")).toBe("true");
    expect(picked()?.dataset.id).toBe("New template");
    expect(query().getAttribute("aria-activedescendant")).toBe(picked()?.id);
  });

  it("narrows to what is typed, picks the best, and does it on Enter, then closes", () => {
    const { done } = openPalette(SAMPLE);
    typeInto(query(), "show comp");
    expect(shown()).toEqual(["Show the Compare page"]);
    keyDown(query(), "Enter");
    expect(done).toEqual(["closed", "Show the Compare page"]);
    expect(none("command-palette")).toBe(true);
  });

  it("moves with ↓ and ↑ over the commands that can be done only, round the ends", () => {
    const { done } = openPalette(SAMPLE);
    keyDown(query(), "ArrowDown");
    keyDown(query(), "ArrowDown");
    expect(picked()?.dataset.id).toBe("Show the Compare page");
    keyDown(query(), "ArrowDown");
    expect(picked()?.dataset.id).toBe("New template");
    keyDown(query(), "ArrowUp");
    keyDown(query(), "ArrowUp");
    expect(picked()?.dataset.id).toBe("Show the Edit page");
    keyDown(query(), "Enter");
    expect(done).toEqual(["closed", "Show the Edit page"]);
  });

  it("does nothing for a command that cannot be done, even clicked", async () => {
    const { done } = openPalette(SAMPLE);
    typeInto(query(), "run");
    expect(shown()).toEqual(["Run the comparison"]);
    expect(picked()).toBeUndefined();
    keyDown(query(), "Enter");
    await click(byTestId("palette-command"));
    expect(done).toEqual([]);
  });

  it("does a command clicked", async () => {
    const { done } = openPalette(SAMPLE);
    const edit = all("palette-command").find((option) => option.dataset.id === "Show the Edit page");
    if (edit === undefined) throw new Error("no Edit page command");
    await click(edit);
    expect(done).toEqual(["closed", "Show the Edit page"]);
  });

  it("says when nothing is found", () => {
    openPalette(SAMPLE);
    typeInto(query(), "zebra");
    expect(shown()).toEqual([]);
    expect(byTestId("palette-none").textContent).toContain("zebra");
  });

  it("closes on Escape without doing anything, and gives the focus back", () => {
    const perform = vi.fn();
    const { done, opener } = openPalette(() => [{ id: "x", title: "X", available: true, perform }]);
    keyDown(query(), "Escape");
    expect(done).toEqual(["closed"]);
    expect(perform).not.toHaveBeenCalled();
    expect(none("command-palette")).toBe(true);
    expect(document.activeElement).toBe(opener);
  });

  it("keeps Tab in its field", () => {
    openPalette(SAMPLE);
    expect(keyDown(query(), "Tab").defaultPrevented).toBe(true);
  });
});
