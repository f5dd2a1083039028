// Renders <App> in happy-dom over the fake platform, for what the header's one set of Undo, Redo and
// Save does on each page (the template on Edit, the scenario on Compare, with tooltips naming which
// and the file), the page shortcuts (Ctrl+1/2/3/4, Ctrl+Enter runs on Compare only, asking first
// about sources not allowed, whose answer the Sources panel then shows; Ctrl+Shift+N and Insert add
// a section), the header's Export menu on every page of a template, and the accessible name and
// tooltip of every button that shows a symbol.
import { act } from "react";
import type { Root } from "react-dom/client";
import { describe, expect, it } from "vitest";
import { App } from "./App";
import type { Template } from "../platform";
import { lookupFirstScenario } from "../testing/fakeCompare";
import { FakePlatform } from "../testing/fakePlatform";
import { templateWithSources } from "../testing/sources";
import { mountEachTest } from "../testing/testRoot";
import { byTestId, click, keyDown, settle } from "../testing/dom";

let container: HTMLDivElement;
let root: Root;

mountEachTest((mounted) => {
  ({ container, root } = mounted);
});

const SCENARIO = "/t/lookup-first.scenario.json";

/** The app on the launch template; on the Compare page with the lookup-first scenario when `scenario`. */
async function renderApp({
  scenario = false,
  template,
}: { scenario?: boolean; template?: Template } = {}): Promise<FakePlatform> {
  const platform = new FakePlatform(undefined, template);
  if (scenario) {
    platform.compare.disk.set(SCENARIO, lookupFirstScenario());
    platform.launchScenario = SCENARIO;
  }
  await act(async () => {
    root.render(<App platform={platform} />);
    await Promise.resolve();
  });
  await settle();
  return platform;
}

const headerButton = (action: "undo" | "redo" | "save") => byTestId(`${action}-button`) as HTMLButtonElement;

async function typeUser(text: string): Promise<void> {
  const field = byTestId("scenario-user") as HTMLTextAreaElement;
  await act(async () => {
    Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, "value")?.set?.call(field, text);
    field.dispatchEvent(new Event("input", { bubbles: true }));
    await Promise.resolve();
  });
  await settle();
}

const selectedPage = () =>
  container.querySelector('[role="tablist"][aria-label="View"] [aria-selected="true"]')?.textContent;

describe("App: the header's Undo, Redo and Save act on the page's document", () => {
  it("saves, undoes and redoes the scenario on the Compare page, and says so", async () => {
    const platform = await renderApp({ scenario: true });
    expect(selectedPage()).toBe("Compare");
    expect(headerButton("save").disabled).toBe(true);
    expect(headerButton("save").title).toBe("Save the scenario to lookup-first.scenario.json (Ctrl+S)");
    expect(headerButton("undo").title).toBe("Undo in the scenario (Ctrl+Z)");
    await typeUser("Fix it.");
    expect(headerButton("undo").disabled).toBe(false);
    await click(headerButton("save"));
    expect(platform.compare.files.get(SCENARIO)).toContain("Fix it.");
    expect(platform.callNames()).not.toContain("saveDocument");
    await click(headerButton("undo"));
    expect((byTestId("scenario-user") as HTMLTextAreaElement).value).toBe(lookupFirstScenario().user);
    await click(headerButton("redo"));
    expect((byTestId("scenario-user") as HTMLTextAreaElement).value).toBe("Fix it.");
    expect(platform.callNames()).not.toContain("undo");
  });

  it("acts on the template again on the Edit page", async () => {
    const platform = await renderApp({ scenario: true });
    await click(byTestId("page-edit"));
    expect(headerButton("undo").title).toBe("Undo in the template (Ctrl+Z)");
    expect(headerButton("save").title).toBe("Save the template to task.unfold.json (Ctrl+S)");
    await click(byTestId("toggle-visibility"));
    await click(headerButton("undo"));
    expect(platform.callNames()).toContain("undo");
    expect(platform.callNames()).not.toContain("stepScenario");
  });

  it("sends Ctrl+Z and Ctrl+S to the scenario on the Compare page", async () => {
    const platform = await renderApp({ scenario: true });
    await typeUser("Fix it.");
    keyDown(window, "z", { ctrlKey: true });
    await settle();
    expect((byTestId("scenario-user") as HTMLTextAreaElement).value).toBe(lookupFirstScenario().user);
    keyDown(window, "Z", { ctrlKey: true, shiftKey: true });
    await settle();
    keyDown(window, "s", { ctrlKey: true });
    await settle();
    expect(platform.compare.files.get(SCENARIO)).toContain("Fix it.");
    expect(platform.callNames().filter((name) => ["undo", "redo", "saveDocument"].includes(name))).toEqual([]);
  });

  it("has nothing to undo or save on the Compare page while no scenario is open", async () => {
    await renderApp();
    await click(byTestId("page-compare"));
    expect([headerButton("undo"), headerButton("redo"), headerButton("save")].map((button) => button.disabled)).toEqual(
      [true, true, true],
    );
    expect(headerButton("save").title).toBe("Save the scenario: no scenario is open");
  });
});

describe("App: page shortcuts", () => {
  it("shows the Edit, Compare, History and Suites pages with Ctrl+1, 2, 3 and 4, from a field too", async () => {
    await renderApp();
    keyDown(window, "2", { ctrlKey: true });
    await settle();
    expect(selectedPage()).toBe("Compare");
    keyDown(window, "3", { metaKey: true });
    await settle();
    expect(selectedPage()).toBe("History");
    keyDown(byTestId("history-filter-provider"), "4", { ctrlKey: true });
    await settle();
    expect(selectedPage()).toBe("Suites");
    expect(byTestId("suites-view")).toBeTruthy();
    keyDown(window, "1", { ctrlKey: true });
    await settle();
    expect(selectedPage()).toBe("Edit");
  });

  it("has no Compare page to show without a template", async () => {
    const platform = new FakePlatform();
    platform.initialTemplatePath = () => Promise.resolve({ ok: true, value: null });
    await act(async () => {
      root.render(<App platform={platform} />);
      await Promise.resolve();
    });
    await settle();
    keyDown(window, "2", { ctrlKey: true });
    await settle();
    expect(byTestId("start-page")).toBeTruthy();
    keyDown(window, "3", { ctrlKey: true });
    await settle();
    expect(container.querySelector('[data-testid="history-view"]')).not.toBeNull();
  });

  it("runs the comparison with Ctrl+Enter on the Compare page only", async () => {
    const platform = await renderApp({ scenario: true });
    keyDown(byTestId("scenario-user"), "Enter", { ctrlKey: true });
    await settle();
    expect(platform.callNames()).toContain("runComparison");
    await click(byTestId("page-edit"));
    const runs = platform.callNames().filter((name) => name === "runComparison").length;
    keyDown(window, "Enter", { ctrlKey: true });
    await settle();
    expect(platform.callNames().filter((name) => name === "runComparison")).toHaveLength(runs);
  });

  it("asks about the sources not allowed on Ctrl+Enter; once allowed there, the Sources panel says so", async () => {
    const platform = await renderApp({ scenario: true, template: templateWithSources() });
    keyDown(byTestId("scenario-user"), "Enter", { ctrlKey: true });
    await settle();
    expect(platform.callNames()).not.toContain("runComparison");
    await click(byTestId("run-sources-allow"));
    expect(platform.callNames()).toContain("runComparison");
    await click(byTestId("page-edit"));
    await click(byTestId("tab-sources"));
    const answers = [...container.querySelectorAll<HTMLElement>('[data-testid="source-permission"]')].map(
      (el) => el.dataset.permission,
    );
    expect(answers).toEqual(["allowed", "allowed", "not_needed"]);
  });

  it("adds a section after the selected one with Ctrl+Shift+N on the Edit page, and with Insert in the tree", async () => {
    const platform = await renderApp();
    await click(byTestId("select-section"));
    keyDown(window, "N", { ctrlKey: true, shiftKey: true });
    await settle();
    const rows = () =>
      [...container.querySelectorAll('[data-testid="section-row"]')].map((row) => row.getAttribute("data-path"));
    expect(rows().slice(0, 2)).toEqual(["task", "section"]);
    keyDown(byTestId("select-section"), "Insert", {});
    await settle();
    expect(rows().filter((path) => path?.startsWith("section"))).toHaveLength(2);
    expect(platform.callNames().filter((name) => name === "applyEdit")).toHaveLength(2);
  });
});

describe("App: the header's Export menu", () => {
  it("exports the open template with the Compare page's scenario, and says where on every page", async () => {
    const platform = await renderApp({ scenario: true });
    const menu = byTestId("export-menu") as HTMLDetailsElement;
    expect(byTestId("app-header").contains(menu)).toBe(true);
    menu.open = true;
    await click(byTestId("export-promptfoo"));
    platform.chosenPath = "/out/task.promptfooconfig.json";
    await click(byTestId("export-confirm"));
    expect(platform.argsOf("exportTemplate")).toEqual([
      [platform.id, { format: "promptfoo", scenarios: [SCENARIO], provider: null }, "/out/task.promptfooconfig.json"],
    ]);
    expect(byTestId("export-notice").textContent).toContain("Exported to /out/task.promptfooconfig.json");
    keyDown(window, "3", { ctrlKey: true });
    await settle();
    expect(byTestId("app-header").contains(byTestId("export-menu"))).toBe(true);
    expect(byTestId("export-notice")).toBeTruthy();
  });
});

/** The buttons in the page that show one symbol or only an icon rather than a word. */
function symbolButtons(): HTMLButtonElement[] {
  return [...container.querySelectorAll("button")].filter((button) => {
    const text = button.textContent.trim();
    return /^[^\p{L}\p{N}\s]$/u.test(text) || (text === "" && button.querySelector("svg") !== null);
  });
}

describe("App: buttons that show a symbol", () => {
  it.each([
    ["Edit", false],
    ["Compare", true],
  ])("have a name and a tooltip saying what they do on the %s page", async (_page, scenario) => {
    await renderApp({ scenario });
    const buttons = symbolButtons();
    expect(buttons.length).toBeGreaterThan(scenario ? 4 : 3);
    for (const button of buttons) {
      expect(button.getAttribute("aria-label"), button.outerHTML).toMatch(/^[A-Z][a-z]/);
      expect(button.title, button.outerHTML).toMatch(/^[A-Z][a-z]/);
    }
  });

  it("name the step they move on the Compare page", async () => {
    await renderApp({ scenario: true });
    const up = container.querySelectorAll<HTMLButtonElement>('[data-testid="step-up"]')[1];
    expect(up?.getAttribute("aria-label")).toBe("Move step 2 up");
    expect(up?.title).toBe("Move step 2 up");
  });
});
