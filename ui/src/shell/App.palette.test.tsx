// Renders <App> in happy-dom over the fake platform, for the command palette as the user meets it:
// Ctrl+K (or Ctrl+Shift+P) opens it from anywhere, typing finds a command and Enter does it (a
// page shown, a section selected, the shortcut help), the Compare page's Run is listed but not
// available on the Edit page, and Escape closes it with the focus back where it was.
import type { Root } from "react-dom/client";
import { describe, expect, it } from "vitest";
import { all, byTestId, click, keyDown, none, settle, typeInto } from "../testing/dom";
import { renderApp } from "../testing/editPage";
import { FakePlatform } from "../testing/fakePlatform";
import { mountEachTest } from "../testing/testRoot";

let root: Root;

mountEachTest((mounted) => {
  ({ root } = mounted);
});

const query = () => byTestId("palette-query") as HTMLInputElement;
const selectedPage = () =>
  document.querySelector('[role="tablist"][aria-label="View"] [aria-selected="true"]')?.textContent;

/** Opens the palette with Ctrl+K, types `text` and presses Enter. */
async function perform(text: string): Promise<void> {
  keyDown(window, "k", { ctrlKey: true });
  typeInto(query(), text);
  keyDown(query(), "Enter");
  await settle();
}

describe("App: the command palette", () => {
  it("opens on Ctrl+K, finds the Compare page by name and shows it on Enter", async () => {
    await renderApp(root, new FakePlatform());
    expect(none("command-palette")).toBe(true);
    await perform("compare page");
    expect(none("command-palette")).toBe(true);
    expect(selectedPage()).toBe("Compare");
  });

  it("opens on Ctrl+Shift+P too, from a text field, and gives the focus back on Escape", async () => {
    await renderApp(root, new FakePlatform());
    const title = byTestId("field-title");
    title.focus();
    keyDown(title, "P", { ctrlKey: true, shiftKey: true });
    expect(document.activeElement).toBe(query());
    keyDown(query(), "Escape");
    expect(none("command-palette")).toBe(true);
    expect(document.activeElement).toBe(title);
  });

  it("lists Run on the Edit page as not available there, with its keys", async () => {
    await renderApp(root, new FakePlatform());
    keyDown(window, "k", { metaKey: true });
    typeInto(query(), "run the comparison");
    const [run] = all("palette-command");
    expect(run?.dataset.id).toBe("run");
    expect(run?.getAttribute("aria-disabled")).toBe("true");
    expect(byTestId("palette-keys", run).textContent).toBe("Ctrl+Enter");
    keyDown(query(), "Enter");
    expect(byTestId("command-palette")).toBeTruthy();
  });

  it("goes to a section from another page: the Edit page, the section selected", async () => {
    await renderApp(root, new FakePlatform());
    keyDown(window, "3", { ctrlKey: true });
    await settle();
    expect(selectedPage()).toBe("History");
    await perform("go examples");
    expect(selectedPage()).toBe("Edit");
    expect(byTestId('section-row"][data-path="context.examples').getAttribute("aria-selected")).toBe("true");
  });

  it("shows the keyboard shortcuts, which list the palette's keys", async () => {
    await renderApp(root, new FakePlatform());
    await perform("keyboard shortcuts");
    expect(byTestId("shortcut-help").textContent).toContain("Ctrl+K or Ctrl+Shift+P");
  });

  it("closes when its keys are pressed again", async () => {
    await renderApp(root, new FakePlatform());
    keyDown(window, "k", { ctrlKey: true });
    keyDown(query(), "k", { ctrlKey: true });
    expect(none("command-palette")).toBe(true);
    await click(byTestId("help-button"));
    expect(byTestId("shortcut-help")).toBeTruthy();
  });
});
