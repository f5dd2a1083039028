// Tests for workspace.ts over the fake platform: the start page, switching documents with the
// unsaved-changes question (save, don't save, cancel), failed opens that keep the open document,
// recovered work, recent files, dropped files and closing the window; the pages.
import { describe, expect, it } from "vitest";
import { lookupFirstScenario } from "../testing/fakeCompare";
import { exampleTemplate, FakePlatform } from "../testing/fakePlatform";
import { regressionsSuite, REGRESSIONS_PATH } from "../testing/suites";
import type { UnsavedAnswer } from "../scenario/store";
import { WorkspaceStore } from "./workspace";

async function started(platform = new FakePlatform()): Promise<WorkspaceStore> {
  const workspace = new WorkspaceStore(platform);
  await workspace.start();
  return workspace;
}

function openPath(workspace: WorkspaceStore): string | null | undefined {
  return workspace.editor?.getState().document.path;
}

/** Makes the open document dirty through a real edit. */
async function makeDirty(workspace: WorkspaceStore): Promise<void> {
  await workspace.editor?.toggleVisibility("context");
  expect(workspace.editor?.getState().document.dirty).toBe(true);
}

/** Runs `action`, answers the unsaved-changes question with `answer` once it is asked, and waits. */
async function answering<T>(workspace: WorkspaceStore, answer: UnsavedAnswer, action: () => Promise<T>): Promise<T> {
  const running = action();
  for (let i = 0; i < 20 && workspace.getState().question === null; i++) await Promise.resolve();
  expect(workspace.getState().question).not.toBeNull();
  workspace.answer(answer);
  return running;
}

describe("WorkspaceStore", () => {
  it("opens the launch template and reads the recent files and recovered work", async () => {
    const platform = new FakePlatform();
    platform.recent = [{ path: "/t/old.unfold.json", exists: false }];
    platform.recovered = [
      { id: "/t/task.unfold.json", kind: "template", path: "/t/task.unfold.json", saved_at_ms: 1000 },
    ];
    const workspace = await started(platform);
    expect(openPath(workspace)).toBe("/t/task.unfold.json");
    expect(workspace.getState().recent).toEqual(platform.recent);
    expect(workspace.getState().recovered).toEqual(platform.recovered);
  });

  it("shows the launch template's editor with its preview in, not a preview still rendering", async () => {
    const platform = new FakePlatform();
    const workspace = new WorkspaceStore(platform);
    const previewWhenShown: string[] = [];
    workspace.subscribe(() => {
      const { screen } = workspace.getState();
      if (screen.kind === "editor" && previewWhenShown.length === 0)
        previewWhenShown.push(screen.editor.getState().preview.kind);
    });
    await workspace.start();
    expect(previewWhenShown).toEqual(["ready"]);
  });

  it("shows the start page when started without a template, and opens an example from it as a saved file", async () => {
    const platform = new FakePlatform();
    platform.initialTemplatePath = () => Promise.resolve({ ok: true, value: null });
    const workspace = await started(platform);
    expect(workspace.getState().screen.kind).toBe("start");
    expect(workspace.getState().examples).toEqual([]);
    await workspace.readExamples();
    expect(workspace.getState().examples.map((example) => example.template)).toEqual(["task-executor.unfold.json"]);
    expect(await workspace.openExample("task-executor.unfold.json")).toBe(true);
    const document = workspace.editor?.getState().document;
    expect(document?.path).toBe(`${platform.examplesFolder}/task-executor.unfold.json`);
    expect(document?.dirty).toBe(false);
    expect(document?.template.key).toBe("task-executor");
    expect(workspace.getState().page).toBe("edit");
  });

  it("opens an example's comparison in one step: the template, the scenario, every adapter run", async () => {
    const platform = new FakePlatform();
    platform.initialTemplatePath = () => Promise.resolve({ ok: true, value: null });
    const workspace = await started(platform);
    expect(await workspace.openExample("task-executor.unfold.json", "lookup-first.scenario.json")).toBe(true);
    expect(workspace.getState().page).toBe("compare");
    expect(workspace.compare.scenario.getState().scenario?.path).toBe(
      `${platform.examplesFolder}/lookup-first.scenario.json`,
    );
    expect(platform.argsOf("runComparison").at(-1)?.[3]).toMatchObject({
      adapters: ["dynamic", "restart", "allowed_tools", "deferred", "tool_addition"],
    });
  });

  it("says why an example did not open, and keeps what was open", async () => {
    const platform = new FakePlatform();
    const workspace = await started(platform);
    const before = workspace.editor?.getState().document.id;
    platform.failures.set("exampleFiles", { code: "invalid_request", message: "no home folder", problems: [] });
    expect(await workspace.openExample("task-executor.unfold.json")).toBe(false);
    expect(workspace.getState().openFailure?.detail).toContain("no home folder");
    expect(workspace.editor?.getState().document.id).toBe(before);
  });

  it("switches documents at once when nothing is unsaved, closing the old one", async () => {
    const platform = new FakePlatform();
    const workspace = await started(platform);
    const before = workspace.editor?.getState().document.id;
    expect(await workspace.newDocument()).toBe(true);
    expect(workspace.getState().question).toBeNull();
    expect(platform.argsOf("closeDocument")).toEqual([[before]]);
    expect(workspace.editor?.getState().document.template.key).toBe("untitled");
  });

  it("keeps the document when the user cancels the unsaved-changes question", async () => {
    const platform = new FakePlatform();
    const workspace = await started(platform);
    await makeDirty(workspace);
    expect(await answering(workspace, "cancel", () => workspace.newDocument())).toBe(false);
    expect(workspace.getState().question).toBeNull();
    expect(openPath(workspace)).toBe("/t/task.unfold.json");
    expect(workspace.editor?.getState().document.dirty).toBe(true);
    expect(platform.callNames()).not.toContain("newDocument");
    expect(platform.callNames()).not.toContain("closeDocument");
  });

  it("saves first when the user answers Save, then switches", async () => {
    const platform = new FakePlatform();
    platform.disk.set("/t/other.unfold.json", { ...exampleTemplate(), key: "other" });
    const workspace = await started(platform);
    await makeDirty(workspace);
    expect(workspace.getState().question).toBeNull();
    expect(await answering(workspace, "save", () => workspace.openPath("/t/other.unfold.json"))).toBe(true);
    expect(platform.files.has("/t/task.unfold.json")).toBe(true);
    expect(JSON.parse(platform.files.get("/t/task.unfold.json") ?? "{}")).toMatchObject({
      sections: [{}, { key: "context", visibility: "full" }, {}],
    });
    expect(workspace.editor?.getState().document.template.key).toBe("other");
  });

  it("closes the document without saving when the user answers Don't save", async () => {
    const platform = new FakePlatform();
    const workspace = await started(platform);
    await makeDirty(workspace);
    const dirtyId = workspace.editor?.getState().document.id;
    expect(await answering(workspace, "discard", () => workspace.newDocument())).toBe(true);
    expect(platform.files.size).toBe(0);
    expect(platform.argsOf("closeDocument")).toEqual([[dirtyId]]);
    expect(workspace.editor?.getState().document.template.key).toBe("untitled");
  });

  it("a failed open keeps the open document and lists every problem", async () => {
    const platform = new FakePlatform();
    const workspace = await started(platform);
    await makeDirty(workspace);
    platform.failures.set("openDocument", {
      code: "invalid_template",
      message: "/t/bad.unfold.json: 1 problem",
      problems: [{ location: "/sections/0/key", message: "'A' is not a section key" }],
    });
    expect(await answering(workspace, "discard", () => workspace.openPath("/t/bad.unfold.json"))).toBe(false);
    expect(workspace.getState().openFailure).toEqual({
      path: "/t/bad.unfold.json",
      title: "This template cannot be opened",
      detail: "1 problem, at its place:",
      problems: [{ location: "/sections/0/key", message: "'A' is not a section key" }],
    });
    expect(workspace.getState().screen.kind).toBe("start");
  });

  it("a failed open with nothing unsaved keeps the document open", async () => {
    const workspace = await started();
    expect(await workspace.openPath("/t/missing.unfold.json")).toBe(false);
    expect(workspace.getState().openFailure?.title).toBe("This template cannot be read");
    expect(openPath(workspace)).toBe("/t/task.unfold.json");
  });

  it("restores recovered work as a modified document and no longer offers it", async () => {
    const platform = new FakePlatform();
    const entry = {
      id: "/t/task.unfold.json",
      kind: "template" as const,
      path: "/t/task.unfold.json",
      saved_at_ms: 1000,
    };
    platform.recovered = [entry, { id: "untitled-1-1", kind: "template", path: null, saved_at_ms: 900 }];
    platform.recoveredTemplates.set(entry.id, { ...exampleTemplate(), name: "Recovered words" });
    const workspace = await started(platform);
    expect(await workspace.restore(entry.id)).toBe(true);
    const document = workspace.editor?.getState().document;
    expect(document?.template.name).toBe("Recovered words");
    expect(document?.path).toBe("/t/task.unfold.json");
    expect(document?.dirty).toBe(true);
    expect(workspace.getState().recovered.map((work) => work.id)).toEqual(["untitled-1-1"]);
    await workspace.discardRecovered("untitled-1-1");
    expect(workspace.getState().recovered).toEqual([]);
    expect(platform.argsOf("discardRecovered")).toEqual([["untitled-1-1"]]);
  });

  it("puts the offer of recovered work away (Later) without discarding anything", async () => {
    const platform = new FakePlatform();
    platform.recovered = [
      { id: "/t/task.unfold.json", kind: "template", path: "/t/task.unfold.json", saved_at_ms: 1000 },
    ];
    const workspace = await started(platform);
    expect(workspace.getState().recoveryHidden).toBe(false);
    workspace.hideRecovered();
    expect(workspace.getState().recoveryHidden).toBe(true);
    expect(workspace.getState().recovered).toEqual(platform.recovered);
    expect(platform.callNames()).not.toContain("discardRecovered");
  });

  it("opens a chosen file, or nothing when the dialog is cancelled", async () => {
    const platform = new FakePlatform();
    platform.disk.set("/t/chosen.unfold.json", { ...exampleTemplate(), key: "chosen" });
    const workspace = await started(platform);
    expect(await workspace.openChosen()).toBe(false);
    expect(openPath(workspace)).toBe("/t/task.unfold.json");
    platform.chosenPath = "/t/chosen.unfold.json";
    expect(await workspace.openChosen()).toBe(true);
    expect(openPath(workspace)).toBe("/t/chosen.unfold.json");
    expect(platform.argsOf("chooseFile")).toEqual([
      ["open", "/t/task.unfold.json"],
      ["open", "/t/task.unfold.json"],
    ]);
  });

  it("opens the first dropped file; reopening the open file changes nothing", async () => {
    const platform = new FakePlatform();
    platform.disk.set("/t/dropped.unfold.json", { ...exampleTemplate(), key: "dropped" });
    const workspace = await started(platform);
    const editor = workspace.editor;
    expect(await workspace.openPath("/t/task.unfold.json")).toBe(true);
    expect(workspace.editor).toBe(editor);
    expect(await workspace.openDropped(["/t/dropped.unfold.json", "/t/other.json"])).toBe(true);
    expect(openPath(workspace)).toBe("/t/dropped.unfold.json");
    expect(await workspace.openDropped([])).toBe(false);
  });

  it("opens a dropped scenario in the compare view, beside the open template only", async () => {
    const platform = new FakePlatform();
    platform.compare.disk.set("/t/dropped.scenario.json", lookupFirstScenario());
    const workspace = await started(platform);
    expect(await workspace.openDropped(["/t/dropped.scenario.json"])).toBe(true);
    expect(workspace.getState().page).toBe("compare");
    expect(workspace.compare.scenario.getState().scenario?.path).toBe("/t/dropped.scenario.json");
    expect(openPath(workspace)).toBe("/t/task.unfold.json");

    const empty = new FakePlatform();
    empty.initialTemplatePath = () => Promise.resolve({ ok: true, value: null });
    const start = await started(empty);
    expect(await start.openDropped(["/t/dropped.scenario.json"])).toBe(false);
    expect(start.getState().openFailure?.detail).toContain("Open a template first");
  });

  it("forgets a recent file that is gone", async () => {
    const platform = new FakePlatform();
    platform.recent = [
      { path: "/t/a.unfold.json", exists: true },
      { path: "/t/gone.unfold.json", exists: false },
    ];
    const workspace = await started(platform);
    await workspace.forgetRecent("/t/gone.unfold.json");
    expect(workspace.getState().recent.map((file) => file.path)).toEqual(["/t/a.unfold.json"]);
  });

  describe("closing the window", () => {
    it("closes at once when nothing is unsaved", async () => {
      const platform = new FakePlatform();
      const workspace = await started(platform);
      await workspace.requestClose();
      expect(platform.callNames()).toContain("closeWindow");
    });

    it("stays open when the user cancels", async () => {
      const platform = new FakePlatform();
      const workspace = await started(platform);
      await makeDirty(workspace);
      await answering(workspace, "cancel", () => workspace.requestClose());
      expect(platform.callNames()).not.toContain("closeWindow");
    });

    it("asks where to save an untitled template, and stays open when that is cancelled", async () => {
      const platform = new FakePlatform();
      const workspace = await started(platform);
      await workspace.newDocument();
      await answering(workspace, "save", () => workspace.requestClose());
      expect(platform.argsOf("chooseFile")).toEqual([["save", "untitled.unfold.json"]]);
      expect(platform.callNames()).not.toContain("closeWindow");

      platform.chosenPath = "/t/new.unfold.json";
      await answering(workspace, "save", () => workspace.requestClose());
      expect(platform.files.has("/t/new.unfold.json")).toBe(true);
      expect(platform.callNames()).toContain("closeWindow");
    });

    it("closes the document, forgetting its recovered copy, when the user does not save", async () => {
      const platform = new FakePlatform();
      const workspace = await started(platform);
      await makeDirty(workspace);
      await answering(workspace, "discard", () => workspace.requestClose());
      expect(platform.callNames().slice(-2)).toEqual(["closeDocument", "closeWindow"]);
      expect(platform.files.size).toBe(0);
    });

    it("asks about the compare view's unsaved scenario too, and stays open when that is cancelled", async () => {
      const platform = new FakePlatform();
      const workspace = await started(platform);
      await workspace.compare.scenario.newScenario();
      await answering(workspace, "cancel", () => workspace.requestClose());
      expect(platform.callNames()).not.toContain("closeWindow");
      await answering(workspace, "discard", () => workspace.requestClose());
      expect(platform.callNames()).toContain("closeWindow");
    });
  });

  describe("the compare view", () => {
    it("restores a recovered scenario into the compare view beside the open template", async () => {
      const platform = new FakePlatform();
      const kept = { ...lookupFirstScenario(), user: "Unsaved words." };
      platform.recovered = [{ id: "untitled-scenario-5-1", kind: "scenario", path: null, saved_at_ms: 5 }];
      platform.compare.recovered.set("untitled-scenario-5-1", { path: null, scenario: kept });
      const workspace = await started(platform);
      expect(await workspace.restore("untitled-scenario-5-1")).toBe(true);
      expect(workspace.getState().page).toBe("compare");
      expect(workspace.getState().recovered).toEqual([]);
      expect(workspace.compare.scenario.getState().scenario).toMatchObject({ dirty: true, scenario: kept });
      expect(platform.argsOf("restoreScenario")).toEqual([["untitled-scenario-5-1", platform.id]]);
      expect(platform.callNames()).not.toContain("restoreDocument");
    });

    it("opens on the launch scenario when the app was started with one", async () => {
      const platform = new FakePlatform();
      platform.compare.disk.set("/t/lookup-first.scenario.json", lookupFirstScenario());
      platform.launchScenario = "/t/lookup-first.scenario.json";
      const workspace = await started(platform);
      expect(workspace.getState().page).toBe("compare");
      expect(workspace.compare.scenario.getState().scenario?.path).toBe("/t/lookup-first.scenario.json");
      expect(platform.argsOf("openScenario")).toEqual([["/t/lookup-first.scenario.json", platform.id]]);
    });

    it("opens on the Suites page with the launch suite when the app was started with one", async () => {
      const platform = new FakePlatform();
      platform.initialTemplatePath = () => Promise.resolve({ ok: true, value: null });
      platform.suites.set(REGRESSIONS_PATH, regressionsSuite());
      platform.launchSuite = REGRESSIONS_PATH;
      const workspace = await started(platform);
      expect(workspace.getState().page).toBe("suites");
      expect(workspace.suites.getState().path).toBe(REGRESSIONS_PATH);
      expect(workspace.suites.getState().cases.map((c) => c.name)).toEqual([
        "lookup-first",
        "lookup-first-deferred",
        "restart-budget",
      ]);
    });

    it("stays on the start page when started without a template or a suite", async () => {
      const platform = new FakePlatform();
      platform.initialTemplatePath = () => Promise.resolve({ ok: true, value: null });
      const workspace = await started(platform);
      expect(workspace.getState().page).toBe("edit");
      expect(platform.callNames()).not.toContain("openSuite");
    });

    it("shows the run history with or without a template, its selection kept across a switch of template", async () => {
      const platform = new FakePlatform();
      platform.initialTemplatePath = () => Promise.resolve({ ok: true, value: null });
      const workspace = await started(platform);
      workspace.showPage("history");
      expect(workspace.getState().page).toBe("history");
      await workspace.history.load();
      await workspace.history.select(2);
      expect(await workspace.openExample("task-executor.unfold.json")).toBe(true);
      expect(workspace.getState().page).toBe("history");
      expect(workspace.history.getState().run?.id).toBe(2);
    });

    it("stays on the editor without a launch scenario, and rechecks the scenario when the view shows", async () => {
      const platform = new FakePlatform();
      const workspace = await started(platform);
      expect(workspace.getState().page).toBe("edit");
      await workspace.compare.scenario.newScenario();
      workspace.showPage("compare");
      await Promise.resolve();
      expect(workspace.getState().page).toBe("compare");
      expect(platform.callNames()).toContain("editScenario");
    });
  });
});
