// The exports' pure parts — where the save dialog starts, the request a promptfoo draft makes, the
// scenario the dialog starts with — and TemplateExportStore over the FakePlatform: it waits for the
// edits sent before it, and a refused export says why without closing the dialog.
import { describe, expect, it } from "vitest";
import { exampleTemplate, FakePlatform } from "../testing/fakePlatform";
import { promptfooRequest, savedScenarioPath, suggestedExportPath, TemplateExportStore } from "./store";
import { settle } from "../testing/dom";

const template = { ...exampleTemplate(), key: "task-executor" };

describe("suggestedExportPath", () => {
  it.each([
    ["/t/task.unfold.json", ".promptfooconfig.json", "/t/task-executor.promptfooconfig.json"],
    ["/t/task.unfold.json", ".langfuse.json", "/t/task-executor.langfuse.json"],
    ["C:\\work\\task.unfold.json", ".langfuse.json", "C:\\work\\task-executor.langfuse.json"],
    ["task.unfold.json", ".langfuse.json", "task-executor.langfuse.json"],
    [null, ".promptfooconfig.json", "task-executor.promptfooconfig.json"],
  ] as const)("beside %s as <key>%s: %s", (path, suffix, expected) => {
    expect(suggestedExportPath({ path, template }, suffix)).toBe(expected);
  });
});

describe("promptfooRequest", () => {
  it("sends the scenarios in order and the provider as typed, without its spaces", () => {
    expect(
      promptfooRequest({ scenarios: ["/t/a.scenario.json", "/t/b.scenario.json"], provider: " ollama:chat:qwen3 " }),
    ).toEqual({
      format: "promptfoo",
      scenarios: ["/t/a.scenario.json", "/t/b.scenario.json"],
      provider: "ollama:chat:qwen3",
    });
  });

  it.each(["", "   "])("sends no provider for %j, so the backend's default is used", (provider) => {
    expect(promptfooRequest({ scenarios: [], provider })).toEqual({
      format: "promptfoo",
      scenarios: [],
      provider: null,
    });
  });
});

describe("savedScenarioPath", () => {
  it("is the scenario's file only when it has one and no unsaved changes", () => {
    expect(savedScenarioPath({ path: "/t/a.scenario.json", dirty: false })).toBe("/t/a.scenario.json");
    expect(savedScenarioPath({ path: "/t/a.scenario.json", dirty: true })).toBeNull();
    expect(savedScenarioPath({ path: null, dirty: false })).toBeNull();
    expect(savedScenarioPath(null)).toBeNull();
  });
});

describe("TemplateExportStore", () => {
  it("exports only once the edits sent before it are done", async () => {
    const platform = new FakePlatform();
    let finishEdits: () => void = () => undefined;
    const edits = new Promise<void>((resolve) => (finishEdits = resolve));
    const store = new TemplateExportStore(
      platform,
      () => platform.view(),
      () => edits,
    );
    platform.chosenPath = "/t/out.langfuse.json";
    const exported = store.exportLangfuse();
    await settle();
    expect(platform.argsOf("exportTemplate")).toEqual([]);
    finishEdits();
    await exported;
    expect(platform.argsOf("exportTemplate")).toHaveLength(1);
  });

  it("keeps the promptfoo dialog open with the backend's problems when the export is refused", async () => {
    const platform = new FakePlatform();
    const store = new TemplateExportStore(platform, () => platform.view());
    store.openPromptfoo("/t/gone.scenario.json");
    platform.chosenPath = "/t/out.promptfooconfig.json";
    await store.exportPromptfoo();
    const state = store.getState();
    expect(state.promptfoo?.scenarios).toEqual(["/t/gone.scenario.json"]);
    expect(state.notice).toBeNull();
    expect(state.failure).toEqual({
      title: "The template was not exported",
      detail: "1 problem, at its place:",
      problems: [{ location: "/t/gone.scenario.json", message: "cannot read: No such file or directory (os error 2)" }],
    });
    expect(platform.exportedTemplates.size).toBe(0);
  });
});
