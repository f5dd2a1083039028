// CompareStore over the FakePlatform: opening scenarios (and a failed open keeping the open one),
// edit, undo and redo with their revisions, the unsaved-changes question before a scenario is
// replaced, save and save as, a comparison streaming its events lane by lane to its report, cancel,
// the picked event's request and letting it go, the exports and the failures; the model a
// comparison asks (scripted or live, and what `run` sends), why a live one cannot run, and the
// provider profiles read and saved; the models a scripted comparison can be priced as, and the one
// `run` sends (none for a live model); the question about the template's sources before a run (asked
// once however often Run is pressed, the run going on when their views cannot be read, the answer
// waited for while allowing).
import { describe, expect, it } from "vitest";
import type { Lane, PlatformError, RunEvent } from "../platform";
import { liveReport, localProfile, lookupFirstReport, lookupFirstScenario } from "../testing/fakeCompare";
import { FakePlatform } from "../testing/fakePlatform";
import { templateWithSources } from "../testing/sources";
import {
  chosenProfile,
  CompareStore,
  liveModel,
  notRunnable,
  priceAsOf,
  ranOnOthers,
  SCRIPTED,
  scriptedModel,
  withAdapter,
  type UnsavedAnswer,
} from "./store";
import { LANES } from "../runs/timeline";
import { settle } from "../testing/dom";

const PATH = "/s/lookup-first.scenario.json";

function setup(answer: UnsavedAnswer = "discard") {
  const platform = new FakePlatform();
  platform.compare.disk.set(PATH, lookupFirstScenario());
  const asked: string[] = [];
  const store = new CompareStore(
    platform,
    () => ({ id: platform.id, path: platform.currentPath, template: platform.template }),
    (name) => {
      asked.push(name);
      return Promise.resolve(answer);
    },
  );
  return { platform, store, asked };
}

/** A store with the lookup-first scenario open. */
async function opened(answer: UnsavedAnswer = "discard") {
  const setUp = setup(answer);
  expect(await setUp.store.openPath(PATH)).toBe(true);
  return setUp;
}

function reportEvents(lane: Lane): RunEvent[] {
  const report = lookupFirstReport();
  const run = lane === "baseline" ? report.baseline : report.runs.find((r) => r.adapter === lane);
  return run?.events ?? [];
}

describe("CompareStore scenarios", () => {
  it("opens a scenario by path, bumps the revision and reads the recent scenarios", async () => {
    const { store, platform } = setup();
    platform.compare.recent = [{ path: PATH, exists: true }];
    expect(await store.openPath(PATH)).toBe(true);
    const state = store.getState();
    expect(state.scenario?.path).toBe(PATH);
    expect(state.scenario?.scenario.name).toBe("lookup-first");
    expect(state.revision).toBe(1);
    expect(state.recent).toEqual([{ path: PATH, exists: true }]);
  });

  it("keeps the open scenario when another cannot be opened, and says why", async () => {
    const { store } = await opened();
    expect(await store.openPath("/s/missing.scenario.json")).toBe(false);
    const state = store.getState();
    expect(state.scenario?.path).toBe(PATH);
    expect(state.failure?.title).toBe("The scenario was not opened");
    expect(state.failure?.detail).toContain("/s/missing.scenario.json: cannot read");
  });

  it("lists every problem of an invalid scenario file", async () => {
    const { store, platform } = await opened();
    const problems = [
      { location: "/script/0", message: 'a "say" step ends the run: it must be the last step' },
      { location: "/params/nope", message: "unknown parameter 'nope'" },
    ];
    platform.failures.set("openScenario", {
      code: "invalid_template",
      message: "/s/bad.scenario.json: 2 problems",
      problems,
    });
    expect(await store.openPath("/s/bad.scenario.json")).toBe(false);
    expect(store.getState().failure?.problems).toEqual(problems);
    expect(store.getState().scenario?.path).toBe(PATH);
  });

  it("edits without a new revision; undo and redo step back and forth with one", async () => {
    const { store } = await opened();
    const scenario = lookupFirstScenario();
    await store.edit({ ...scenario, user: "Fix it." }, "user");
    expect(store.getState().scenario).toMatchObject({ dirty: true, can_undo: true, scenario: { user: "Fix it." } });
    expect(store.getState().revision).toBe(1);
    await store.undo();
    expect(store.getState().scenario).toMatchObject({
      dirty: false,
      can_redo: true,
      scenario: { user: scenario.user },
    });
    expect(store.getState().revision).toBe(2);
    await store.redo();
    expect(store.getState().scenario?.scenario.user).toBe("Fix it.");
    expect(store.getState().revision).toBe(3);
  });

  it("asks about unsaved changes before a new scenario replaces them; cancel keeps them", async () => {
    const { store, asked } = await opened("cancel");
    await store.edit({ ...lookupFirstScenario(), user: "Fix it." }, "user");
    expect(await store.newScenario()).toBe(false);
    expect(asked).toEqual(["lookup-first.scenario.json"]);
    expect(store.getState().scenario?.scenario.user).toBe("Fix it.");
  });

  it("lets the changes go on discard, and saves them first on save", async () => {
    const discarding = await opened("discard");
    await discarding.store.edit({ ...lookupFirstScenario(), user: "Fix it." }, "user");
    expect(await discarding.store.newScenario()).toBe(true);
    expect(discarding.store.getState().scenario?.path).toBeNull();
    expect(discarding.platform.compare.files.size).toBe(0);

    const saving = await opened("save");
    await saving.store.edit({ ...lookupFirstScenario(), user: "Fix it." }, "user");
    expect(await saving.store.newScenario()).toBe(true);
    expect(saving.platform.compare.files.get(PATH)).toContain("Fix it.");
  });

  it("saves to its file, and as a new file where the dialog says", async () => {
    const { store, platform } = await opened();
    await store.edit({ ...lookupFirstScenario(), user: "Fix it." }, "user");
    expect(await store.save()).toBe(true);
    expect(store.getState().scenario?.dirty).toBe(false);
    expect(platform.compare.files.get(PATH)).toContain("Fix it.");

    platform.chosenPath = "/s/copy.scenario.json";
    expect(await store.saveAs()).toBe(true);
    expect(store.getState().scenario?.path).toBe("/s/copy.scenario.json");
    expect(platform.argsOf("chooseFile").at(-1)).toEqual(["save_scenario", PATH]);
  });

  it("asks where to save an untitled scenario, and does nothing when the dialog is cancelled", async () => {
    const { store, platform } = setup();
    await store.newScenario();
    platform.chosenPath = null;
    expect(await store.save()).toBe(false);
    expect(platform.argsOf("chooseFile")).toEqual([["save_scenario", "new-scenario.scenario.json"]]);
    expect(store.getState().scenario?.path).toBeNull();
  });
});

describe("CompareStore comparisons", () => {
  it("streams the events lane by lane, then holds the report", async () => {
    const { store } = await opened();
    const arrived: Lane[] = [];
    let before = store.getState().run?.events;
    store.subscribe(() => {
      const events = store.getState().run?.events;
      if (events !== undefined && before !== undefined) {
        for (const lane of LANES) if ((events[lane]?.length ?? 0) > (before[lane]?.length ?? 0)) arrived.push(lane);
      }
      before = events;
    });
    await store.run();
    const run = store.getState().run;
    expect(run?.status).toBe("finished");
    const lanes: Lane[] = ["dynamic", "restart", "baseline"];
    expect(run?.lanes).toEqual(lanes);
    expect(Object.keys(run?.events ?? {})).toEqual(lanes);
    for (const lane of lanes) expect(run?.events[lane]).toEqual(reportEvents(lane));
    expect(arrived).toEqual(lanes.flatMap((lane) => reportEvents(lane).map(() => lane)));
    expect(run?.report).toEqual(lookupFirstReport());
  });

  it("knows its results are out of date once the scenario or the template changed, and not after an undo", async () => {
    const { store, platform } = await opened();
    await store.run();
    const run = store.getState().run;
    if (run === null) throw new Error("no run");
    const scenario = () => store.getState().scenario?.scenario ?? null;
    expect(ranOnOthers(run, scenario(), platform.template)).toBe(false);
    await store.edit({ ...lookupFirstScenario(), user: "Fix it." }, "user");
    expect(ranOnOthers(run, scenario(), platform.template)).toBe(true);
    await store.undo();
    expect(ranOnOthers(run, scenario(), platform.template)).toBe(false);
    expect(ranOnOthers(run, scenario(), { ...platform.template, name: "Renamed" })).toBe(true);
  });

  it("cancels a comparison held after its first run", async () => {
    const { store, platform } = await opened();
    platform.compare.hold = true;
    const running = store.run();
    await settle();
    expect(store.getState().run).toMatchObject({ status: "running", started: ["dynamic"] });
    expect(store.getState().run?.events.dynamic).toHaveLength(reportEvents("dynamic").length);
    await store.cancel();
    await running;
    expect(store.getState().run).toMatchObject({ status: "cancelled", report: null });
    expect(store.getState().run?.events.restart).toEqual([]);
  });

  it("says why a comparison failed", async () => {
    const { store, platform } = await opened();
    platform.failures.set("runComparison", { code: "internal", message: "the runtime is gone", problems: [] });
    await store.run();
    expect(store.getState().run?.status).toBe("failed");
    expect(store.getState().run?.failure).toEqual({
      title: "Something went wrong in Unfold",
      detail: "the runtime is gone",
      problems: [],
    });
  });

  it("fetches the request of a picked tool call's model call", async () => {
    const { store } = await opened();
    await store.run();
    const lookupRedone = reportEvents("restart").find((e) => e.type === "tool_call" && e.call_index === 3);
    if (lookupRedone === undefined) throw new Error("the restart run redoes lookup at call 3");
    const picking = store.pick("restart", lookupRedone);
    expect(store.getState().detail).toEqual({ kind: "loading" });
    await picking;
    const { picked, detail } = store.getState();
    expect(picked).toEqual({ lane: "restart", event: lookupRedone });
    expect(detail.kind === "ready" && detail.call).toMatchObject({
      call_index: 3,
      attempt: 2,
      body: { messages: [{ role: "system", content: "system prompt of restart call 3" }] },
    });
  });

  it("picks without a request while the comparison runs", async () => {
    const { store, platform } = await opened();
    platform.compare.hold = true;
    const running = store.run();
    await settle();
    const first = store.getState().run?.events.dynamic?.[1];
    if (first === undefined) throw new Error("the dynamic run has arrived");
    await store.pick("dynamic", first);
    expect(store.getState().detail).toEqual({ kind: "none" });
    expect(platform.callNames()).not.toContain("comparisonCall");
    platform.compare.release();
    await running;
  });

  it("lets go of the picked event, and drops the request that arrives for it afterwards", async () => {
    const { store } = await opened();
    await store.run();
    const call = reportEvents("dynamic").find((e) => e.type === "model_call");
    if (call === undefined) throw new Error("the dynamic run makes a model call");
    const picking = store.pick("dynamic", call);
    expect(store.getState().detail).toEqual({ kind: "loading" });
    store.unpick();
    await picking;
    expect(store.getState()).toMatchObject({ picked: null, detail: { kind: "none" } });
    store.unpick();
    expect(store.getState().picked).toBeNull();
  });

  it("exports the report and the request bodies where the dialogs say, and says so", async () => {
    const { store, platform } = await opened();
    await store.run();
    platform.chosenPath = "/out/report.json";
    await store.exportReport();
    expect(store.getState().notice).toBe("Wrote the comparison report to /out/report.json");
    expect(platform.argsOf("chooseFile").at(-1)).toEqual(["save_report", "task-executor-lookup-first.comparison.json"]);
    platform.chosenPath = "/out/requests";
    await store.exportRequests();
    expect(store.getState().notice).toBe("Wrote 12 request bodies (OpenAI Chat) to /out/requests");
    expect([...platform.compare.exported.keys()]).toEqual(["/out/report.json", "/out/requests"]);
  });

  it("says why an export failed, and forgets it on dismiss", async () => {
    const { store, platform } = await opened();
    await store.run();
    platform.chosenPath = "/out/requests";
    platform.failures.set("exportRequests", {
      code: "invalid_template",
      message: "/out/requests: the folder is not empty",
      problems: [],
    });
    await store.exportRequests();
    expect(store.getState().failure).toEqual({
      title: "The request bodies were not written",
      detail: "/out/requests: the folder is not empty",
      problems: [],
    });
    store.dismiss();
    expect(store.getState().failure).toBeNull();
  });
});

describe("CompareStore models", () => {
  /** A store with lookup-first open and the profiles `local` (no key) and `remote` (key in REMOTE_KEY) read. */
  async function withProfiles() {
    const setUp = await opened();
    const remote = { ...localProfile("remote"), base_url: "https://api.example.com/v1", api_key_env: "REMOTE_KEY" };
    setUp.platform.compare.profiles = [localProfile(), remote];
    await setUp.store.loadProfiles();
    return setUp;
  }

  it("runs the script by default: live is null, and the lanes are both adapters and the baseline", async () => {
    const { store, platform } = await opened();
    expect(store.getState().model).toEqual({ kind: "scripted", adapters: ["dynamic", "restart"] });
    await store.run();
    expect(platform.argsOf("runComparison")).toEqual([
      [platform.id, 1, 1, { adapters: ["dynamic", "restart"], live: null, relaySession: null, priceAs: null }],
    ]);
    expect(store.getState().run?.lanes).toEqual(["dynamic", "restart", "baseline"]);
  });

  it("runs the script under every adapter ticked, in their order, then the baseline", async () => {
    const { store, platform } = await opened();
    // Ticked out of order, they still run in the order they are offered.
    store.setModel(withAdapter(withAdapter(store.getState().model, "deferred", true), "allowed_tools", true));
    await store.run();
    expect(platform.argsOf("runComparison").at(-1)?.[3]).toEqual({
      adapters: ["dynamic", "restart", "allowed_tools", "deferred"],
      live: null,
      relaySession: null,
      priceAs: null,
    });
    const run = store.getState().run;
    expect(run?.lanes).toEqual(["dynamic", "restart", "allowed_tools", "deferred", "baseline"]);
    expect(run?.status).toBe("finished");
    expect(run?.report?.runs.map((r) => r.adapter)).toEqual(["dynamic", "restart", "allowed_tools", "deferred"]);
    expect(run?.report?.divergences.map((d) => [d.left, d.right])).toEqual([
      ["dynamic", "restart"],
      ["dynamic", "allowed_tools"],
      ["dynamic", "deferred"],
    ]);
    for (const lane of run?.lanes ?? []) expect(run?.events[lane]?.at(-1)?.type).toBe("run_completed");
  });

  it("cannot compare the script with no adapter ticked", async () => {
    const { store, platform } = await opened();
    store.setModel(withAdapter(withAdapter(store.getState().model, "dynamic", false), "restart", false));
    expect(store.getState().model).toEqual({ kind: "scripted", adapters: [] });
    expect(notRunnable(store.getState())).toBe("Tick at least one adapter to compare");
    await store.run();
    expect(platform.callNames()).not.toContain("runComparison");
  });

  it("runs a live model under both adapters by default, without a baseline", async () => {
    const { store, platform } = await withProfiles();
    store.setModel(liveModel("local", store.getState().model));
    expect(store.getState().model).toEqual({ kind: "live", profile: "local", adapters: ["dynamic", "restart"] });
    await store.run();
    expect(platform.argsOf("runComparison").at(-1)?.[3]).toMatchObject({
      adapters: ["dynamic", "restart"],
      live: { profile: "local" },
    });
    const run = store.getState().run;
    expect(run).toMatchObject({ status: "finished", lanes: ["dynamic", "restart"] });
    expect(run?.report).toEqual(liveReport(["dynamic", "restart"]));
    expect(run?.report?.baseline).toBeNull();
    expect(run?.events.baseline).toBeUndefined();
  });

  it("shows the text a live model is writing until its answer is whole", async () => {
    const { store, platform } = await withProfiles();
    store.setModel(liveModel("local", store.getState().model));
    platform.compare.holdWhileWriting = true;
    const running = store.run();
    await settle();
    const final = lookupFirstReport().runs[0]?.final ?? "";
    expect(store.getState().run?.writing.dynamic).toBe(final.slice(0, 5));
    platform.compare.release();
    await running;
    const run = store.getState().run;
    expect(run?.status).toBe("finished");
    expect(run?.writing).toEqual({ dynamic: "", restart: "" });
  });

  it("runs one adapter live: its lane only, and no divergence", async () => {
    const { store, platform } = await withProfiles();
    store.setModel(withAdapter(liveModel("local", store.getState().model), "dynamic", false));
    await store.run();
    expect(platform.argsOf("runComparison").at(-1)?.[3]).toMatchObject({
      adapters: ["restart"],
      live: { profile: "local" },
    });
    const run = store.getState().run;
    expect(run?.lanes).toEqual(["restart"]);
    expect(run?.report?.divergences).toEqual([]);
    expect(run?.events.restart).toEqual(reportEvents("restart"));
    expect(run?.events.dynamic).toBeUndefined();
  });

  it("keeps the adapters in their running order and across a change of profile or of model", () => {
    const live = liveModel("local", SCRIPTED);
    const restartOnly = withAdapter(live, "dynamic", false);
    expect(withAdapter(restartOnly, "dynamic", true)).toEqual(live);
    expect(liveModel("remote", restartOnly)).toEqual({ kind: "live", profile: "remote", adapters: ["restart"] });
    expect(scriptedModel(restartOnly)).toEqual({ kind: "scripted", adapters: ["restart"] });
    expect(withAdapter(SCRIPTED, "dynamic", false)).toEqual({ kind: "scripted", adapters: ["restart"] });
    expect(withAdapter(withAdapter(SCRIPTED, "deferred", true), "allowed_tools", true)).toEqual({
      kind: "scripted",
      adapters: ["dynamic", "restart", "allowed_tools", "deferred"],
    });
  });

  it("cannot run live with no adapter ticked, or with a profile that no longer exists", async () => {
    const { store, platform } = await withProfiles();
    store.setModel(
      withAdapter(withAdapter(liveModel("local", store.getState().model), "dynamic", false), "restart", false),
    );
    expect(notRunnable(store.getState())).toBe("Tick at least one adapter to run live");
    await store.run();
    expect(platform.callNames()).not.toContain("runComparison");

    store.setModel(liveModel("remote", SCRIPTED));
    expect(notRunnable(store.getState())).toBeNull();
    expect(await store.saveProfiles([localProfile()])).toBe(true);
    expect(notRunnable(store.getState())).toBe("The provider profile 'remote' no longer exists: choose another model");
    await store.run();
    expect(store.getState().run).toBeNull();
  });

  it("gives the other reasons first: no scenario, problems, a comparison running", async () => {
    const { store, platform } = setup();
    store.setModel(liveModel("gone", SCRIPTED));
    expect(notRunnable(store.getState())).toBe("Start or open a scenario first");
    platform.compare.disk.set("/s/bad.scenario.json", { ...lookupFirstScenario(), params: { nope: "x" } });
    await store.openPath("/s/bad.scenario.json");
    expect(notRunnable(store.getState())).toBe("Fix the scenario's problems first");
    await store.openPath(PATH);
    store.setModel(SCRIPTED);
    platform.compare.hold = true;
    const running = store.run();
    await settle();
    store.setModel(liveModel("gone", SCRIPTED));
    expect(notRunnable(store.getState())).toBe("A comparison is running");
    platform.compare.release();
    await running;
  });

  it("tells whether the chosen profile's key is set, and says why a run without it failed", async () => {
    const { store, platform } = await withProfiles();
    store.setModel(liveModel("remote", store.getState().model));
    expect(chosenProfile(store.getState())).toMatchObject({ profile: { name: "remote" }, keySet: false });
    await store.run();
    expect(store.getState().run).toMatchObject({
      status: "failed",
      failure: {
        title: "The comparison did not run",
        detail: "the environment variable REMOTE_KEY that profile 'remote' takes its key from is not set",
      },
    });
    platform.compare.environment.add("REMOTE_KEY");
    await store.loadProfiles();
    expect(chosenProfile(store.getState())?.keySet).toBe(true);
    await store.run();
    expect(store.getState().run?.status).toBe("finished");
  });
});

describe("CompareStore prices", () => {
  it("reads the priced models, and runs the script unpriced by default", async () => {
    const { store, platform } = await opened();
    await store.loadPricedModels();
    expect(store.getState()).toMatchObject({
      pricedModels: ["claude-sonnet-4-5", "gpt-4o-mini", "qwen3"],
      priceAs: null,
    });
    await store.run();
    expect(platform.argsOf("runComparison").at(-1)?.[3]).toMatchObject({ live: null, priceAs: null });
  });

  it("prices the script as the model chosen, and unprices it again", async () => {
    const { store, platform } = await opened();
    await store.loadPricedModels();
    store.setPriceAs("gpt-4o-mini");
    expect(priceAsOf(store.getState())).toBe("gpt-4o-mini");
    await store.run();
    expect(platform.argsOf("runComparison").at(-1)?.[3]).toEqual({
      adapters: ["dynamic", "restart"],
      live: null,
      relaySession: null,
      priceAs: "gpt-4o-mini",
    });
    store.setPriceAs(null);
    await store.run();
    expect(platform.argsOf("runComparison").at(-1)?.[3]).toMatchObject({ priceAs: null });
  });

  it("sends no price for a live model (priced as its own), nor for a model the prices do not know", async () => {
    const { store, platform } = await opened();
    platform.compare.profiles = [localProfile()];
    await store.loadProfiles();
    await store.loadPricedModels();
    store.setPriceAs("claude-sonnet-4-5");
    store.setModel(liveModel("local", store.getState().model));
    await store.run();
    expect(platform.argsOf("runComparison").at(-1)?.[3]).toMatchObject({ live: { profile: "local" }, priceAs: null });
    store.setModel(SCRIPTED);
    store.setPriceAs("gpt-9");
    expect(priceAsOf(store.getState())).toBeNull();
  });

  it("says why the prices could not be read, and leaves nothing to choose", async () => {
    const { store, platform } = setup();
    const message = "/home/u/.config/unfold/prices.json: expected value at line 1 column 1";
    platform.failures.set("pricedModels", { code: "invalid_request", message, problems: [] });
    await store.loadPricedModels();
    expect(store.getState().failure).toEqual({ title: "The prices could not be read", detail: message, problems: [] });
    expect(store.getState().pricedModels).toEqual([]);
  });
});

describe("CompareStore provider profiles", () => {
  it("opens the dialog on the profiles as the file holds them now", async () => {
    const { store, platform } = setup();
    platform.compare.profiles = [localProfile()];
    await store.openProviders();
    expect(store.getState()).toMatchObject({
      providersOpen: true,
      profiles: { path: "/home/u/.config/unfold/providers.json", profiles: [localProfile()], keys_set: [true] },
    });
    store.closeProviders();
    expect(store.getState().providersOpen).toBe(false);
  });

  it("says why the profiles were not read", async () => {
    const { store, platform } = setup();
    const message = "/p/providers.json: /profiles/0/api_key: a profile file never holds a key";
    const error: PlatformError = { code: "provider", message, problems: [] };
    platform.failures.set("providerProfiles", error);
    await store.loadProfiles();
    expect(store.getState().failure).toEqual({
      title: "The provider profiles were not read",
      detail: error.message,
      problems: [],
    });
    expect(store.getState().profiles).toBeNull();
  });

  it("saves the profiles and closes the dialog; a refusal keeps it open with every problem", async () => {
    const { store, platform } = setup();
    await store.openProviders();
    expect(await store.saveProfiles([localProfile()])).toBe(true);
    expect(platform.compare.profiles).toEqual([localProfile()]);
    expect(store.getState()).toMatchObject({
      providersOpen: false,
      profiles: { profiles: [localProfile()] },
      profilesFailure: null,
    });

    await store.openProviders();
    expect(await store.saveProfiles([localProfile(), { ...localProfile(), base_url: "ftp://nowhere" }])).toBe(false);
    expect(store.getState().providersOpen).toBe(true);
    expect(store.getState().profilesFailure).toEqual({
      title: "The provider profiles were not saved",
      detail: "2 problems, each at its place:",
      problems: [
        { location: "/profiles/1/base_url", message: "must start with http:// or https://" },
        { location: "/profiles/1/name", message: "a profile named 'local' comes earlier" },
      ],
    });
    expect(platform.compare.profiles).toEqual([localProfile()]);
  });
});

describe("CompareStore sources before a run", () => {
  /** A store over the template with sources (none allowed), the lookup-first scenario open. */
  async function withSources() {
    const platform = new FakePlatform(undefined, templateWithSources());
    platform.compare.disk.set(PATH, lookupFirstScenario());
    const store = new CompareStore(
      platform,
      () => ({ id: platform.id, path: platform.currentPath, template: platform.template }),
      () => Promise.resolve("discard"),
    );
    expect(await store.openPath(PATH)).toBe(true);
    return { platform, store };
  }

  it("asks once however often Run is pressed, and runs nothing meanwhile", async () => {
    const { platform, store } = await withSources();
    await Promise.all([store.run(), store.run()]);
    await store.run();
    expect(platform.argsOf("templateSources")).toHaveLength(1);
    expect(store.getState().sourcesQuestion?.views.map((view) => view.name)).toEqual(["ide", "docs"]);
    expect(platform.argsOf("runComparison")).toEqual([]);
  });

  it("runs when the sources' views cannot be read: the backend starts only what was allowed", async () => {
    const { platform, store } = await withSources();
    platform.failures.set("templateSources", { code: "internal", message: "no answer", problems: [] });
    await store.run();
    expect(store.getState().sourcesQuestion).toBeNull();
    expect(platform.argsOf("runComparison")).toHaveLength(1);
  });

  it("is not cancelled while allowing", async () => {
    const { platform, store } = await withSources();
    await store.run();
    const allowing = store.allowSourcesAndRun();
    expect(store.getState().sourcesQuestion?.allowing).toBe(true);
    store.cancelSourcesQuestion();
    await store.runWithSnapshots();
    await allowing;
    expect(platform.argsOf("allowSource")).toHaveLength(2);
    expect(platform.argsOf("runComparison")).toHaveLength(1);
    expect(store.getState().sourcesQuestion).toBeNull();
  });
});
