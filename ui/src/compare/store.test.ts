// ComparisonStore over the FakePlatform, wired to the scenario and provider stores as the window
// wires them: a comparison streaming its events lane by lane to its report, cancel, the picked
// event's request and letting it go, the exports and the failures; the model a comparison asks
// (scripted or live, and what `run` sends), why a live one cannot run; the models a scripted
// comparison can be priced as, and the one
// `run` sends (none for a live model); the question about the template's sources before a run (asked
// once however often Run is pressed, the run going on when their views cannot be read, the answer
// waited for while allowing).
import { describe, expect, it } from "vitest";
import type { Lane, RunEvent } from "../platform";
import { liveReport, localProfile, lookupFirstReport, lookupFirstScenario } from "../testing/fakeCompare";
import { FakePlatform } from "../testing/fakePlatform";
import { templateWithSources } from "../testing/sources";
import {
  chosenProfile,
  liveModel,
  notRunnable,
  priceAsOf,
  ranOnOthers,
  SCRIPTED,
  scriptedModel,
  withAdapter,
} from "./store";
import { LANES } from "../runs/timeline";
import { settle } from "../testing/dom";
import { comparisonContext, openComparePage } from "../testing/comparePage";

const PATH = "/s/lookup-first.scenario.json";

/** The Compare page's stores, the scenario at PATH on disk (any unsaved change let go). */
function setup() {
  const platform = new FakePlatform();
  platform.compare.disk.set(PATH, lookupFirstScenario());
  const stores = openComparePage(platform);
  const { comparison: store, scenario: scenarioStore, providers, outcome } = stores;
  return { platform, stores, store, scenarioStore, providers, outcome };
}

/** The stores with the lookup-first scenario open. */
async function opened() {
  const setUp = setup();
  expect(await setUp.scenarioStore.openPath(PATH)).toBe(true);
  return setUp;
}

function reportEvents(lane: Lane): RunEvent[] {
  const report = lookupFirstReport();
  const run = lane === "baseline" ? report.baseline : report.runs.find((r) => r.adapter === lane);
  return run?.events ?? [];
}

describe("ComparisonStore comparisons", () => {
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
    const { platform, store, scenarioStore } = await opened();
    await store.run();
    const run = store.getState().run;
    if (run === null) throw new Error("no run");
    const scenario = () => scenarioStore.getState().scenario?.scenario ?? null;
    expect(ranOnOthers(run, scenario(), platform.template)).toBe(false);
    await scenarioStore.edit({ ...lookupFirstScenario(), user: "Fix it." }, "user");
    expect(ranOnOthers(run, scenario(), platform.template)).toBe(true);
    await scenarioStore.undo();
    expect(ranOnOthers(run, scenario(), platform.template)).toBe(false);
    expect(ranOnOthers(run, scenario(), { ...platform.template, name: "Renamed" })).toBe(true);
  });

  it("cancels a comparison held after its first run", async () => {
    const { platform, store } = await opened();
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
    const { platform, store } = await opened();
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
    const { platform, store } = await opened();
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
    const { platform, store, outcome } = await opened();
    await store.run();
    platform.chosenPath = "/out/report.json";
    await store.exportReport();
    expect(outcome.getState().notice).toBe("Wrote the comparison report to /out/report.json");
    expect(platform.argsOf("chooseFile").at(-1)).toEqual(["save_report", "task-executor-lookup-first.comparison.json"]);
    platform.chosenPath = "/out/requests";
    await store.exportRequests();
    expect(outcome.getState().notice).toBe("Wrote 12 request bodies (OpenAI Chat) to /out/requests");
    expect([...platform.compare.exported.keys()]).toEqual(["/out/report.json", "/out/requests"]);
  });

  it("says why an export failed, and forgets it on dismiss", async () => {
    const { platform, store, outcome } = await opened();
    await store.run();
    platform.chosenPath = "/out/requests";
    platform.failures.set("exportRequests", {
      code: "invalid_template",
      message: "/out/requests: the folder is not empty",
      problems: [],
    });
    await store.exportRequests();
    expect(outcome.getState().failure).toEqual({
      title: "The request bodies were not written",
      detail: "/out/requests: the folder is not empty",
      problems: [],
    });
    outcome.dismiss();
    expect(outcome.getState().failure).toBeNull();
  });
});

describe("ComparisonStore models", () => {
  /** A store with lookup-first open and the profiles `local` (no key) and `remote` (key in REMOTE_KEY) read. */
  async function withProfiles() {
    const setUp = await opened();
    const remote = { ...localProfile("remote"), base_url: "https://api.example.com/v1", api_key_env: "REMOTE_KEY" };
    setUp.platform.compare.profiles = [localProfile(), remote];
    await setUp.providers.loadProfiles();
    return setUp;
  }

  it("runs the script by default: live is null, and the lanes are both adapters and the baseline", async () => {
    const { platform, store } = await opened();
    expect(store.getState().model).toEqual({
      kind: "scripted",
      adapters: ["dynamic", "restart"],
      hosts: [],
      realHosts: [],
    });
    await store.run();
    expect(platform.argsOf("runComparison")).toEqual([
      [
        platform.id,
        1,
        1,
        { adapters: ["dynamic", "restart"], hosts: [], realHosts: [], live: null, relaySession: null, priceAs: null },
      ],
    ]);
    expect(store.getState().run?.lanes).toEqual(["dynamic", "restart", "baseline"]);
  });

  it("runs the script under every adapter ticked, in their order, then the baseline", async () => {
    const { platform, store } = await opened();
    // Ticked out of order, they still run in the order they are offered.
    store.setModel(withAdapter(withAdapter(store.getState().model, "deferred", true), "allowed_tools", true));
    await store.run();
    expect(platform.argsOf("runComparison").at(-1)?.[3]).toEqual({
      adapters: ["dynamic", "restart", "allowed_tools", "deferred"],
      hosts: [],
      realHosts: [],
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
    const { platform, store, stores } = await opened();
    store.setModel(withAdapter(withAdapter(store.getState().model, "dynamic", false), "restart", false));
    expect(store.getState().model).toEqual({ kind: "scripted", adapters: [], hosts: [], realHosts: [] });
    expect(notRunnable(comparisonContext(stores))).toBe("Tick at least one adapter to compare");
    await store.run();
    expect(platform.callNames()).not.toContain("runComparison");
  });

  it("runs a live model under both adapters by default, without a baseline", async () => {
    const { platform, store } = await withProfiles();
    store.setModel(liveModel("local", store.getState().model));
    expect(store.getState().model).toEqual({
      kind: "live",
      profile: "local",
      adapters: ["dynamic", "restart"],
      hosts: [],
      realHosts: [],
    });
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
    const { platform, store } = await withProfiles();
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
    const { platform, store } = await withProfiles();
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
    expect(liveModel("remote", restartOnly)).toEqual({
      kind: "live",
      profile: "remote",
      adapters: ["restart"],
      hosts: [],
      realHosts: [],
    });
    expect(scriptedModel(restartOnly)).toEqual({ kind: "scripted", adapters: ["restart"], hosts: [], realHosts: [] });
    expect(withAdapter(SCRIPTED, "dynamic", false)).toEqual({
      kind: "scripted",
      adapters: ["restart"],
      hosts: [],
      realHosts: [],
    });
    expect(withAdapter(withAdapter(SCRIPTED, "deferred", true), "allowed_tools", true)).toEqual({
      kind: "scripted",
      adapters: ["dynamic", "restart", "allowed_tools", "deferred"],
      hosts: [],
      realHosts: [],
    });
  });

  it("cannot run live with no adapter ticked, or with a profile that no longer exists", async () => {
    const { platform, store, providers, stores } = await withProfiles();
    store.setModel(
      withAdapter(withAdapter(liveModel("local", store.getState().model), "dynamic", false), "restart", false),
    );
    expect(notRunnable(comparisonContext(stores))).toBe("Tick at least one adapter to run live");
    await store.run();
    expect(platform.callNames()).not.toContain("runComparison");

    store.setModel(liveModel("remote", SCRIPTED));
    expect(notRunnable(comparisonContext(stores))).toBeNull();
    expect(await providers.saveProfiles([localProfile()])).toBe(true);
    expect(notRunnable(comparisonContext(stores))).toBe(
      "The provider profile 'remote' no longer exists: choose another model",
    );
    await store.run();
    expect(store.getState().run).toBeNull();
  });

  it("gives the other reasons first: no scenario, problems, a comparison running", async () => {
    const { platform, store, scenarioStore, stores } = setup();
    store.setModel(liveModel("gone", SCRIPTED));
    expect(notRunnable(comparisonContext(stores))).toBe("Start or open a scenario first");
    platform.compare.disk.set("/s/bad.scenario.json", { ...lookupFirstScenario(), params: { nope: "x" } });
    await scenarioStore.openPath("/s/bad.scenario.json");
    expect(notRunnable(comparisonContext(stores))).toBe("Fix the scenario's problems first");
    await scenarioStore.openPath(PATH);
    store.setModel(SCRIPTED);
    platform.compare.hold = true;
    const running = store.run();
    await settle();
    store.setModel(liveModel("gone", SCRIPTED));
    expect(notRunnable(comparisonContext(stores))).toBe("A comparison is running");
    platform.compare.release();
    await running;
  });

  it("tells whether the chosen profile's key is set, and says why a run without it failed", async () => {
    const { platform, store, providers, stores } = await withProfiles();
    store.setModel(liveModel("remote", store.getState().model));
    expect(chosenProfile(comparisonContext(stores))).toMatchObject({ profile: { name: "remote" }, keySet: false });
    await store.run();
    expect(store.getState().run).toMatchObject({
      status: "failed",
      failure: {
        title: "The comparison did not run",
        detail: "the environment variable REMOTE_KEY that profile 'remote' takes its key from is not set",
      },
    });
    platform.compare.environment.add("REMOTE_KEY");
    await providers.loadProfiles();
    expect(chosenProfile(comparisonContext(stores))?.keySet).toBe(true);
    await store.run();
    expect(store.getState().run?.status).toBe("finished");
  });
});

describe("ComparisonStore prices", () => {
  it("reads the priced models, and runs the script unpriced by default", async () => {
    const { platform, store } = await opened();
    await store.loadPricedModels();
    expect(store.getState()).toMatchObject({
      pricedModels: ["claude-sonnet-4-5", "gpt-4o-mini", "qwen3"],
      priceAs: null,
    });
    await store.run();
    expect(platform.argsOf("runComparison").at(-1)?.[3]).toMatchObject({ live: null, priceAs: null });
  });

  it("prices the script as the model chosen, and unprices it again", async () => {
    const { platform, store } = await opened();
    await store.loadPricedModels();
    store.setPriceAs("gpt-4o-mini");
    expect(priceAsOf(store.getState())).toBe("gpt-4o-mini");
    await store.run();
    expect(platform.argsOf("runComparison").at(-1)?.[3]).toEqual({
      adapters: ["dynamic", "restart"],
      hosts: [],
      realHosts: [],
      live: null,
      relaySession: null,
      priceAs: "gpt-4o-mini",
    });
    store.setPriceAs(null);
    await store.run();
    expect(platform.argsOf("runComparison").at(-1)?.[3]).toMatchObject({ priceAs: null });
  });

  it("sends no price for a live model (priced as its own), nor for a model the prices do not know", async () => {
    const { platform, store, providers } = await opened();
    platform.compare.profiles = [localProfile()];
    await providers.loadProfiles();
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
    const { platform, store, outcome } = setup();
    const message = "/home/u/.config/unfold/prices.json: expected value at line 1 column 1";
    platform.failures.set("pricedModels", { code: "invalid_request", message, problems: [] });
    await store.loadPricedModels();
    expect(outcome.getState().failure).toEqual({
      title: "The prices could not be read",
      detail: message,
      problems: [],
    });
    expect(store.getState().pricedModels).toEqual([]);
  });
});

describe("ComparisonStore sources before a run", () => {
  /** A store over the template with sources (none allowed), the lookup-first scenario open. */
  async function withSources() {
    const platform = new FakePlatform(undefined, templateWithSources());
    platform.compare.disk.set(PATH, lookupFirstScenario());
    const { comparison: store, scenario: scenarioStore } = openComparePage(platform);
    expect(await scenarioStore.openPath(PATH)).toBe(true);
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
