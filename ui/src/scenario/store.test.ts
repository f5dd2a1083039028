// ScenarioStore over the FakePlatform: opening scenarios (and a failed open keeping the open one),
// edit, undo and redo with their revisions, the unsaved-changes question before a scenario is
// replaced, save and save as, and the failures said on the page's outcome.
import { describe, expect, it } from "vitest";
import { OutcomeStore } from "../shared/outcome";
import { lookupFirstScenario } from "../testing/fakeCompare";
import { FakePlatform } from "../testing/fakePlatform";
import { ScenarioStore, type UnsavedAnswer } from "./store";

const PATH = "/s/lookup-first.scenario.json";

function setup(answer: UnsavedAnswer = "discard") {
  const platform = new FakePlatform();
  platform.compare.disk.set(PATH, lookupFirstScenario());
  const asked: string[] = [];
  const outcome = new OutcomeStore();
  const scenarioStore = new ScenarioStore(
    platform,
    () => platform.id,
    (name) => {
      asked.push(name);
      return Promise.resolve(answer);
    },
    outcome,
  );
  return { platform, scenarioStore, outcome, asked };
}

/** A store with the lookup-first scenario open. */
async function opened(answer: UnsavedAnswer = "discard") {
  const setUp = setup(answer);
  expect(await setUp.scenarioStore.openPath(PATH)).toBe(true);
  return setUp;
}

describe("ScenarioStore", () => {
  it("opens a scenario by path, bumps the revision and reads the recent scenarios", async () => {
    const { platform, scenarioStore } = setup();
    platform.compare.recent = [{ path: PATH, exists: true }];
    expect(await scenarioStore.openPath(PATH)).toBe(true);
    const state = scenarioStore.getState();
    expect(state.scenario?.path).toBe(PATH);
    expect(state.scenario?.scenario.name).toBe("lookup-first");
    expect(state.revision).toBe(1);
    expect(state.recent).toEqual([{ path: PATH, exists: true }]);
  });

  it("keeps the open scenario when another cannot be opened, and says why", async () => {
    const { scenarioStore, outcome } = await opened();
    expect(await scenarioStore.openPath("/s/missing.scenario.json")).toBe(false);
    expect(scenarioStore.getState().scenario?.path).toBe(PATH);
    const { failure } = outcome.getState();
    expect(failure?.title).toBe("The scenario was not opened");
    expect(failure?.detail).toContain("/s/missing.scenario.json: cannot read");
  });

  it("lists every problem of an invalid scenario file", async () => {
    const { platform, scenarioStore, outcome } = await opened();
    const problems = [
      { location: "/script/0", message: 'a "say" step ends the run: it must be the last step' },
      { location: "/params/nope", message: "unknown parameter 'nope'" },
    ];
    platform.failures.set("openScenario", {
      code: "invalid_template",
      message: "/s/bad.scenario.json: 2 problems",
      problems,
    });
    expect(await scenarioStore.openPath("/s/bad.scenario.json")).toBe(false);
    expect(outcome.getState().failure?.problems).toEqual(problems);
    expect(scenarioStore.getState().scenario?.path).toBe(PATH);
  });

  it("edits without a new revision; undo and redo step back and forth with one", async () => {
    const { scenarioStore } = await opened();
    const scenario = lookupFirstScenario();
    await scenarioStore.edit({ ...scenario, user: "Fix it." }, "user");
    expect(scenarioStore.getState().scenario).toMatchObject({
      dirty: true,
      can_undo: true,
      scenario: { user: "Fix it." },
    });
    expect(scenarioStore.getState().revision).toBe(1);
    await scenarioStore.undo();
    expect(scenarioStore.getState().scenario).toMatchObject({
      dirty: false,
      can_redo: true,
      scenario: { user: scenario.user },
    });
    expect(scenarioStore.getState().revision).toBe(2);
    await scenarioStore.redo();
    expect(scenarioStore.getState().scenario?.scenario.user).toBe("Fix it.");
    expect(scenarioStore.getState().revision).toBe(3);
  });

  it("asks about unsaved changes before a new scenario replaces them; cancel keeps them", async () => {
    const { asked, scenarioStore } = await opened("cancel");
    await scenarioStore.edit({ ...lookupFirstScenario(), user: "Fix it." }, "user");
    expect(await scenarioStore.newScenario()).toBe(false);
    expect(asked).toEqual(["lookup-first.scenario.json"]);
    expect(scenarioStore.getState().scenario?.scenario.user).toBe("Fix it.");
  });

  it("lets the changes go on discard, and saves them first on save", async () => {
    const discarding = await opened("discard");
    await discarding.scenarioStore.edit({ ...lookupFirstScenario(), user: "Fix it." }, "user");
    expect(await discarding.scenarioStore.newScenario()).toBe(true);
    expect(discarding.scenarioStore.getState().scenario?.path).toBeNull();
    expect(discarding.platform.compare.files.size).toBe(0);

    const saving = await opened("save");
    await saving.scenarioStore.edit({ ...lookupFirstScenario(), user: "Fix it." }, "user");
    expect(await saving.scenarioStore.newScenario()).toBe(true);
    expect(saving.platform.compare.files.get(PATH)).toContain("Fix it.");
  });

  it("saves to its file, and as a new file where the dialog says", async () => {
    const { platform, scenarioStore } = await opened();
    await scenarioStore.edit({ ...lookupFirstScenario(), user: "Fix it." }, "user");
    expect(await scenarioStore.save()).toBe(true);
    expect(scenarioStore.getState().scenario?.dirty).toBe(false);
    expect(platform.compare.files.get(PATH)).toContain("Fix it.");

    platform.chosenPath = "/s/copy.scenario.json";
    expect(await scenarioStore.saveAs()).toBe(true);
    expect(scenarioStore.getState().scenario?.path).toBe("/s/copy.scenario.json");
    expect(platform.argsOf("chooseFile").at(-1)).toEqual(["save_scenario", PATH]);
  });

  it("asks where to save an untitled scenario, and does nothing when the dialog is cancelled", async () => {
    const { platform, scenarioStore } = setup();
    await scenarioStore.newScenario();
    platform.chosenPath = null;
    expect(await scenarioStore.save()).toBe(false);
    expect(platform.argsOf("chooseFile")).toEqual([["save_scenario", "new-scenario.scenario.json"]]);
    expect(scenarioStore.getState().scenario?.path).toBeNull();
  });
});
