// Tests for paletteCommands.ts over the fake platform: every window shortcut is a command with its
// keys, available exactly where its keys act; a skills folder to open; the exports and a "Go to
// section" per section while a template is open; the examples and recent files to open; and what the commands do.
import { describe, expect, it, vi } from "vitest";
import type { PaletteCommand } from "../palette/commands";
import { FakePlatform } from "../testing/fakePlatform";
import { paletteCommands } from "./paletteCommands";
import { SHORTCUT_HELP } from "./shortcuts";
import { WorkspaceStore } from "./workspace";

async function started(platform = new FakePlatform()): Promise<WorkspaceStore> {
  const workspace = new WorkspaceStore(platform);
  await workspace.start();
  return workspace;
}

function byId(commands: PaletteCommand[]): Map<string, PaletteCommand> {
  return new Map(commands.map((command) => [command.id, command]));
}

const availableIds = (commands: PaletteCommand[]) =>
  commands.filter((command) => command.available).map((command) => command.id);

describe("paletteCommands", () => {
  it("lists every window shortcut with its keys and words from the shortcut help", async () => {
    const commands = byId(paletteCommands(await started(), () => undefined));
    const windowLines = SHORTCUT_HELP.filter(
      (line) => line.where !== "section tree" && line.action !== "help" && line.action !== "palette",
    );
    expect(windowLines.length).toBeGreaterThan(10);
    for (const line of windowLines) {
      expect(commands.get(line.action)).toMatchObject({ title: line.does, keys: line.keys });
    }
    expect(commands.get("help")?.keys).toBe("? or F1");
  });

  it("offers the Edit page's commands on it, and the Compare page's there", async () => {
    const workspace = await started();
    const onEdit = availableIds(paletteCommands(workspace, () => undefined));
    expect(onEdit).toContain("add_section");
    expect(onEdit).not.toContain("run");
    workspace.showPage("compare");
    const onCompare = availableIds(paletteCommands(workspace, () => undefined));
    expect(onCompare).toContain("run");
    expect(onCompare).not.toContain("add_section");
    workspace.showPage("history");
    const onHistory = availableIds(paletteCommands(workspace, () => undefined));
    expect(onHistory).toEqual(
      expect.arrayContaining(["page_edit", "export:promptfoo", "export:skills", "open:skills"]),
    );
    expect(onHistory).not.toContain("undo");
  });

  it("offers Undo, Redo and Save only when the page's document has something to undo, redo or save", async () => {
    const workspace = await started();
    const editor = workspace.editor;
    if (editor === null) throw new Error("no template open");
    const available = () => availableIds(paletteCommands(workspace, () => undefined));
    expect(available()).not.toContain("undo");
    expect(available()).not.toContain("redo");
    expect(available()).not.toContain("save");
    await editor.setField("task", "title", "Renamed");
    expect(available()).toEqual(expect.arrayContaining(["undo", "save"]));
    expect(available()).not.toContain("redo");
    // Back as saved: nothing to save.
    await editor.undo();
    expect(available()).toContain("redo");
    expect(available()).not.toContain("undo");
    expect(available()).not.toContain("save");
    // An available command does what its keys do: the redo puts the edit back.
    const redo = byId(paletteCommands(workspace, () => undefined)).get("redo");
    redo?.perform();
    await vi.waitFor(() => {
      expect(available()).toContain("undo");
    });
  });

  it("exports the finished comparison from anywhere, and its chart from the Compare page", async () => {
    const platform = new FakePlatform();
    const workspace = await started(platform);
    const exports = () =>
      paletteCommands(workspace, () => undefined).filter((command) => command.id.startsWith("comparison:"));
    expect(exports().map((command) => command.id)).toEqual([
      "comparison:markdown",
      "comparison:report",
      "comparison:chart-png",
      "comparison:chart-svg",
      "comparison:suite",
    ]);
    expect(exports().filter((command) => command.available)).toEqual([]);
    workspace.showPage("compare");
    await workspace.compare.scenario.newScenario();
    await workspace.compare.comparison.run();
    expect(workspace.compare.comparison.getState().run?.status).toBe("finished");
    expect(availableIds(exports())).toEqual(expect.arrayContaining(["comparison:markdown", "comparison:chart-svg"]));
    workspace.showPage("history");
    expect(availableIds(exports())).toEqual(["comparison:markdown", "comparison:report", "comparison:suite"]);
    platform.chosenPath = "/out/t.comparison.md";
    byId(exports()).get("comparison:markdown")?.perform();
    await vi.waitFor(() => {
      expect(platform.compare.exported.get("/out/t.comparison.md")).toContain("**Verdict:**");
    });
  });

  it("goes to any section of the open template: the Edit page, with the section selected", async () => {
    const workspace = await started();
    const commands = byId(paletteCommands(workspace, () => undefined));
    const sections = [...commands.keys()].filter((id) => id.startsWith("section:"));
    expect(sections).toEqual(workspace.editor?.getState().rows.map((row) => `section:${row.path}`));
    expect(commands.get("section:context.examples")).toMatchObject({
      title: "Go to section: Examples",
      detail: "context.examples",
    });
    workspace.showPage("compare");
    commands.get("section:context.examples")?.perform();
    expect(workspace.getState().page).toBe("edit");
    expect(workspace.editor?.getState().selected).toBe("context.examples");
  });

  it("shows a page, and the shortcut help, when asked", async () => {
    const workspace = await started();
    let help = false;
    const commands = byId(
      paletteCommands(workspace, () => {
        help = true;
      }),
    );
    commands.get("page_suites")?.perform();
    expect(workspace.getState().page).toBe("suites");
    commands.get("help")?.perform();
    expect(help).toBe(true);
  });

  it("without a template: no page of one, no exports or sections; the examples and recent files", async () => {
    const platform = new FakePlatform();
    platform.initialTemplatePath = () => Promise.resolve({ ok: true, value: null });
    platform.recent = [
      { path: "/t/gone.unfold.json", exists: false },
      { path: "/t/kept.unfold.json", exists: true },
    ];
    const workspace = await started(platform);
    await workspace.readExamples();
    const commands = paletteCommands(workspace, () => undefined);
    const available = availableIds(commands);
    expect(available).toEqual(expect.arrayContaining(["new", "open", "page_edit", "page_history", "page_suites"]));
    expect(available).not.toContain("page_compare");
    expect(available).not.toContain("undo");
    expect(commands.some((command) => /^(export|section):/.test(command.id))).toBe(false);
    expect(byId(commands).get("recent:/t/gone.unfold.json")?.available).toBe(false);
    expect(byId(commands).get("recent:/t/kept.unfold.json")).toMatchObject({
      title: "Open recent: kept.unfold.json",
      available: true,
    });
    const example = byId(commands).get("example:task-executor.unfold.json");
    expect(example?.title).toBe("Open the example: Task executor");
    example?.perform();
    await vi.waitFor(
      () => {
        expect(workspace.editor?.getState().document.path).toBe(`${platform.examplesFolder}/task-executor.unfold.json`);
      },
      { timeout: 5000 },
    );
  });

  it("opens a skills folder as a template, and exports the open template as one", async () => {
    const platform = new FakePlatform();
    const workspace = await started(platform);
    platform.chosenPath = "/out/skills";
    byId(paletteCommands(workspace, () => undefined))
      .get("export:skills")
      ?.perform();
    await vi.waitFor(() => {
      expect(platform.argsOf("exportSkills")).toEqual([[platform.id, "/out/skills", false]]);
    });
    platform.chosenPath = "/home/u/skills";
    platform.skillsFolders.set("/home/u/skills", { ...platform.template, key: "skills" });
    byId(paletteCommands(workspace, () => undefined))
      .get("open:skills")
      ?.perform();
    await vi.waitFor(() => {
      expect(workspace.editor?.getState().document.template.key).toBe("skills");
    });
    expect(platform.argsOf("chooseFile").at(-1)).toEqual(["open_skills", null]);
  });
});
