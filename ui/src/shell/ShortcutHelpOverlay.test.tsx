// Renders ShortcutHelpOverlay in happy-dom: every shortcut in one table, so the key column has one
// width for the whole overlay, each place's shortcuts under its heading, in the help's order.
import { act } from "react";
import type { Root } from "react-dom/client";
import { describe, expect, it } from "vitest";
import { mountEachTest } from "../testing/testRoot";
import { SHORTCUT_HELP, SHORTCUT_PLACES } from "./shortcuts";
import { ShortcutHelpOverlay } from "./ShortcutHelpOverlay";

let container: HTMLDivElement;
let root: Root;

mountEachTest((mounted) => {
  ({ container, root } = mounted);
});

describe("ShortcutHelpOverlay", () => {
  it("lists every shortcut in one table, a body per place with its heading", () => {
    act(() => {
      root.render(<ShortcutHelpOverlay onClose={() => undefined} />);
    });
    expect(container.querySelectorAll("table")).toHaveLength(1);
    const places = [...container.querySelectorAll<HTMLElement>('[data-testid="shortcut-place"]')];
    expect(places.map((place) => place.dataset.place)).toEqual([...SHORTCUT_PLACES]);
    expect(places.map((place) => place.querySelector("th")?.textContent)).toEqual([
      "Anywhere",
      "On the Edit page",
      "On the Compare page",
      "In the section tree",
    ]);
    const lines = places.flatMap((place) =>
      [...place.querySelectorAll("tr")].slice(1).map((row) => [...row.cells].map((cell) => cell.textContent)),
    );
    expect(lines).toEqual(SHORTCUT_HELP.map((line) => [line.keys, line.does]));
  });
});
