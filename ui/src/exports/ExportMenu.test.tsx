// Renders the Export menu and its notices in happy-dom over the FakePlatform's example template
// (/t/task.unfold.json, key task-executor): the menu a keyboard opens, moves through and closes;
// the promptfoo dialog (the Compare page's saved scenario listed first, scenarios added without
// duplicates and removed, the provider field) and the exact request it sends; a save dialog
// cancelled sends nothing; the Langfuse item; the Agent Skills item (a folder with files written
// over only once the user confirms); what an export wrote, and why one was refused.
import { act } from "react";
import type { Root } from "react-dom/client";
import { describe, expect, it } from "vitest";
import { lookupFirstScenario } from "../testing/fakeCompare";
import { FakePlatform } from "../testing/fakePlatform";
import { mountEachTest } from "../testing/testRoot";
import { ExportMenu, ExportNotices } from "./ExportMenu";
import { savedScenarioPath } from "./store";
import { byTestId, click, none, settle, typeInto } from "../testing/dom";
import { openTemplate } from "../testing/editPage";
import { ToastProvider } from "../shared/ToastRegion";
import { openComparePage } from "../testing/comparePage";

let container: HTMLDivElement;
let root: Root;

mountEachTest((mounted) => {
  ({ container, root } = mounted);
});

const SCENARIO = "/t/lookup-first.scenario.json";
const OTHER = "/t/other.scenario.json";

/** The menu over a fresh editor of the example template; `scenario`: the Compare page has it open. */
async function render(scenario: string | null = null): Promise<FakePlatform> {
  const platform = new FakePlatform();
  platform.compare.disk.set(SCENARIO, lookupFirstScenario());
  platform.compare.disk.set(OTHER, { ...lookupFirstScenario(), name: "other" });
  const { exports } = openTemplate(platform);
  const compare = openComparePage(platform, () => Promise.resolve("cancel"));
  if (scenario !== null) await compare.scenario.openPath(scenario);
  act(() => {
    root.render(
      <ToastProvider>
        <ExportMenu store={exports} startScenario={() => savedScenarioPath(compare.scenario.getState().scenario)} />
        <ExportNotices store={exports} />
      </ToastProvider>,
    );
  });
  return platform;
}

async function key(element: HTMLElement, name: string): Promise<void> {
  await act(async () => {
    element.dispatchEvent(new KeyboardEvent("keydown", { key: name, bubbles: true }));
    await Promise.resolve();
  });
}

const listed = () =>
  [...container.querySelectorAll<HTMLElement>('[data-testid="export-scenario"]')].map((item) => item.dataset.path);

/** Opens the promptfoo dialog from the menu. */
async function openPromptfoo(): Promise<void> {
  (byTestId("export-menu") as HTMLDetailsElement).open = true;
  await click(byTestId("export-promptfoo"));
}

describe("ExportMenu", () => {
  it("is a menu button whose items the arrow keys reach, closed by Escape with the focus back on it", async () => {
    await render();
    const menu = byTestId("export-menu") as HTMLDetailsElement;
    const button = byTestId("export-menu-button");
    expect(button.getAttribute("aria-haspopup")).toBe("menu");
    expect(button.textContent).toBe("Export");
    menu.open = true;
    byTestId("export-promptfoo").focus();
    await key(byTestId("export-promptfoo"), "ArrowDown");
    expect(document.activeElement).toBe(byTestId("export-langfuse"));
    await key(byTestId("export-langfuse"), "ArrowDown");
    expect(document.activeElement).toBe(byTestId("export-skills"));
    await key(byTestId("export-skills"), "ArrowDown");
    expect(document.activeElement).toBe(byTestId("export-promptfoo"));
    await key(byTestId("export-promptfoo"), "Escape");
    expect(menu.open).toBe(false);
    expect(document.activeElement).toBe(button);
  });

  it("closes when an item is picked or the user clicks elsewhere", async () => {
    await render();
    const menu = byTestId("export-menu") as HTMLDetailsElement;
    menu.open = true;
    act(() => {
      document.body.dispatchEvent(new PointerEvent("pointerdown", { bubbles: true }));
    });
    expect(menu.open).toBe(false);
    await openPromptfoo();
    expect(menu.open).toBe(false);
    expect(byTestId("export-dialog").textContent).toContain("Export as a promptfoo config");
  });

  it("starts the promptfoo dialog with the Compare page's saved scenario, adds others once each and removes them", async () => {
    const platform = await render(SCENARIO);
    await openPromptfoo();
    expect(listed()).toEqual([SCENARIO]);
    expect(byTestId("export-dialog").textContent).toContain(
      "Each scenario becomes a test asserting the model's first answer",
    );

    platform.chosenPath = OTHER;
    await click(byTestId("export-add-scenario"));
    expect(platform.argsOf("chooseFile").at(-1)).toEqual(["open_scenario", null]);
    await click(byTestId("export-add-scenario"));
    expect(listed()).toEqual([SCENARIO, OTHER]);
    platform.chosenPath = null;
    await click(byTestId("export-add-scenario"));
    expect(listed()).toEqual([SCENARIO, OTHER]);

    const first = container.querySelector<HTMLElement>(
      `[data-path="${SCENARIO}"] [data-testid="export-remove-scenario"]`,
    );
    if (first === null) throw new Error("no Remove button for the first scenario");
    await click(first);
    expect(listed()).toEqual([OTHER]);
  });

  it("writes the promptfoo config where the user chooses, with the scenarios and provider listed", async () => {
    const platform = await render(SCENARIO);
    await openPromptfoo();
    const provider = byTestId("export-provider") as HTMLInputElement;
    expect(provider.placeholder).toBe("openai:chat:gpt-4.1-mini");
    typeInto(provider, "ollama:chat:qwen3");
    await settle();
    platform.chosenPath = "/out/task.promptfooconfig.json";
    await click(byTestId("export-confirm"));
    expect(platform.argsOf("chooseFile").at(-1)).toEqual(["save_export", "/t/task-executor.promptfooconfig.json"]);
    expect(platform.argsOf("exportTemplate")).toEqual([
      [
        platform.id,
        { format: "promptfoo", scenarios: [SCENARIO], provider: "ollama:chat:qwen3" },
        "/out/task.promptfooconfig.json",
      ],
    ]);
    expect(none("export-dialog")).toBe(true);
    expect(byTestId("export-notice").textContent).toContain("Exported to /out/task.promptfooconfig.json");
  });

  it("sends no provider when the field is empty, and no scenario when none is listed", async () => {
    const platform = await render();
    await openPromptfoo();
    expect(listed()).toEqual([]);
    platform.chosenPath = "/out/task.promptfooconfig.json";
    await click(byTestId("export-confirm"));
    expect(platform.argsOf("exportTemplate")).toEqual([
      [platform.id, { format: "promptfoo", scenarios: [], provider: null }, "/out/task.promptfooconfig.json"],
    ]);
  });

  it("sends nothing when the save dialog is cancelled, and keeps the dialog as it was", async () => {
    const platform = await render(SCENARIO);
    await openPromptfoo();
    typeInto(byTestId("export-provider"), "ollama:chat:qwen3");
    await settle();
    platform.chosenPath = null;
    await click(byTestId("export-confirm"));
    expect(platform.argsOf("exportTemplate")).toEqual([]);
    expect(listed()).toEqual([SCENARIO]);
    expect((byTestId("export-provider") as HTMLInputElement).value).toBe("ollama:chat:qwen3");
    expect(none("export-notice")).toBe(true);
  });

  it("closes the promptfoo dialog on Cancel or Escape without exporting", async () => {
    const platform = await render();
    await openPromptfoo();
    await click(byTestId("export-cancel"));
    expect(none("export-dialog")).toBe(true);
    await openPromptfoo();
    await key(byTestId("export-provider"), "Escape");
    expect(none("export-dialog")).toBe(true);
    expect(platform.callNames()).not.toContain("chooseFile");
    expect(platform.callNames()).not.toContain("exportTemplate");
  });

  it("shows why the promptfoo export was refused in the dialog, with each problem at its place", async () => {
    const platform = await render();
    await openPromptfoo();
    platform.chosenPath = "/t/gone.scenario.json";
    await click(byTestId("export-add-scenario"));
    platform.chosenPath = "/out/task.promptfooconfig.json";
    await click(byTestId("export-confirm"));
    expect(byTestId("export-dialog-failure").textContent).toContain("The template was not exported");
    expect(byTestId("export-dialog-problems").textContent).toBe(
      "/t/gone.scenario.json cannot read: No such file or directory (os error 2)",
    );
    expect(none("export-failure")).toBe(true);
    expect(none("export-notice")).toBe(true);
  });

  it("writes a Langfuse prompt beside the template, with no scenario and no provider", async () => {
    const platform = await render(SCENARIO);
    (byTestId("export-menu") as HTMLDetailsElement).open = true;
    platform.chosenPath = "/out/task.langfuse.json";
    await click(byTestId("export-langfuse"));
    expect(platform.argsOf("chooseFile")).toEqual([["save_export", "/t/task-executor.langfuse.json"]]);
    expect(platform.argsOf("exportTemplate")).toEqual([
      [platform.id, { format: "langfuse", scenarios: [], provider: null }, "/out/task.langfuse.json"],
    ]);
    expect(platform.exportedTemplates.get("/out/task.langfuse.json")?.key).toBe("task-executor");
    expect(byTestId("export-notice").textContent).toContain("Exported to /out/task.langfuse.json");
  });

  it("says why a Langfuse export was not written, and sends nothing when its save dialog is cancelled", async () => {
    const platform = await render();
    platform.chosenPath = null;
    await click(byTestId("export-langfuse"));
    expect(platform.argsOf("exportTemplate")).toEqual([]);
    expect(none("export-failure")).toBe(true);

    platform.chosenPath = "/read-only/task.langfuse.json";
    platform.failures.set("exportTemplate", {
      code: "unreadable_file",
      message: "/read-only: cannot write: Permission denied",
      problems: [],
    });
    await click(byTestId("export-langfuse"));
    expect(byTestId("export-failure").textContent).toContain("/read-only: cannot write: Permission denied");
    expect(none("export-notice")).toBe(true);
  });

  it("writes an Agent Skills folder beside the template and says what it wrote", async () => {
    const platform = await render();
    platform.chosenPath = "/out/skills";
    await click(byTestId("export-skills"));
    expect(platform.argsOf("chooseFile")).toEqual([["skills_folder", "/t/task-executor"]]);
    expect(platform.argsOf("exportSkills")).toEqual([[platform.id, "/out/skills", false]]);
    expect(platform.exportedSkills.get("/out/skills")).toEqual(["task", "context", "style"]);
    expect(byTestId("export-notice").textContent).toContain(
      "Exported 3 skills to /out/skills: 3 files written, 0 unchanged",
    );
    expect(none("skills-overwrite-dialog")).toBe(true);
  });

  it("asks before writing into a folder with files, and writes over it only once the user confirms", async () => {
    const platform = await render();
    platform.foldersWithFiles.add("/out/skills");
    platform.chosenPath = "/out/skills";
    await click(byTestId("export-skills"));
    expect(byTestId("skills-overwrite-dialog").textContent).toContain("/out/skills is not empty");
    expect(document.activeElement).toBe(byTestId("skills-overwrite-cancel"));
    expect(none("export-failure")).toBe(true);
    await click(byTestId("skills-overwrite-cancel"));
    expect(none("skills-overwrite-dialog")).toBe(true);
    expect(platform.exportedSkills.size).toBe(0);

    await click(byTestId("export-skills"));
    await click(byTestId("skills-overwrite"));
    expect(platform.argsOf("exportSkills")).toEqual([
      [platform.id, "/out/skills", false],
      [platform.id, "/out/skills", false],
      [platform.id, "/out/skills", true],
    ]);
    expect(none("skills-overwrite-dialog")).toBe(true);
    expect(byTestId("export-notice").textContent).toContain("Exported 3 skills to /out/skills");
  });

  it("says why a skills export was refused, with each problem at its place, and writes nothing when cancelled", async () => {
    const platform = await render();
    platform.chosenPath = null;
    await click(byTestId("export-skills"));
    expect(platform.argsOf("exportSkills")).toEqual([]);

    platform.chosenPath = "/out/skills";
    platform.failures.set("exportSkills", {
      code: "invalid_template",
      message: "/t/task.unfold.json: /sections/1/key: a skill's name is at most 64 characters",
      problems: [{ location: "/sections/1/key", message: "a skill's name is at most 64 characters" }],
    });
    await click(byTestId("export-skills"));
    expect(byTestId("export-failure").textContent).toContain("The template was not exported");
    expect(byTestId("export-failure-problems").textContent).toBe(
      "/sections/1/key a skill's name is at most 64 characters",
    );
    expect(none("skills-overwrite-dialog")).toBe(true);
    expect(none("export-notice")).toBe(true);
  });
});
