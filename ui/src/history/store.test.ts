// HistoryStore over the FakePlatform's example history (scripted runs 1 to 3 of lookup-first: dynamic,
// restart, baseline; live runs 4, dynamic, and 5, restart, failed): what the filter asks the backend,
// selecting a run, a reload that keeps or drops the selection, the reference run, the comparison with it,
// answers that come too late, and failures with the backend's message.
import { describe, expect, it } from "vitest";
import { FakePlatform } from "../testing/fakePlatform";
import { comparable, HistoryStore } from "./store";

async function loaded(platform = new FakePlatform()): Promise<{ platform: FakePlatform; store: HistoryStore }> {
  const store = new HistoryStore(platform);
  await store.load();
  return { platform, store };
}

const ids = (store: HistoryStore) => store.getState().runs?.map((run) => run.id);

describe("HistoryStore", () => {
  it("lists every kept run, newest first, asking for the newest 200", async () => {
    const { platform, store } = await loaded();
    expect(platform.argsOf("runHistory")).toEqual([[{ limit: 200 }]]);
    expect(ids(store)).toEqual([5, 4, 3, 2, 1]);
  });

  it("asks with the filter's fields that are set, and lists what matches", async () => {
    const { platform, store } = await loaded();
    await store.setFilter({ source: "live" });
    expect(ids(store)).toEqual([5, 4]);
    await store.setFilter({ adapter: "restart", provider: " local " });
    expect(platform.argsOf("runHistory").at(-1)).toEqual([
      { provider: "local", adapter: "restart", source: "live", limit: 200 },
    ]);
    expect(ids(store)).toEqual([5]);
    await store.setFilter({ adapter: "", provider: "", source: "", template: "task-executor", status: "completed" });
    expect(platform.argsOf("runHistory").at(-1)).toEqual([
      { template: "task-executor", status: "completed", limit: 200 },
    ]);
    expect(ids(store)).toEqual([4, 3, 2, 1]);
  });

  it("shows only the newest list when answers overtake each other", async () => {
    const { store } = await loaded();
    const first = store.setFilter({ source: "live" });
    const second = store.setFilter({ source: "scripted" });
    await Promise.all([second, first]);
    expect(ids(store)).toEqual([3, 2, 1]);
  });

  it("selects a run and reads it whole", async () => {
    const { platform, store } = await loaded();
    const reading = store.select(4);
    expect(store.getState().selected).toBe(4);
    expect(store.getState().run).toBeNull();
    await reading;
    expect(platform.argsOf("historyRun")).toEqual([[4]]);
    const run = store.getState().run;
    expect(run?.user).toBe("Refactor the authentication module.");
    expect(run?.report.events.at(-1)?.type).toBe("run_completed");
  });

  it("keeps the selection on a reload while the run is listed, and drops it once it is not", async () => {
    const { store } = await loaded();
    await store.select(2);
    await store.setFilter({ adapter: "restart" });
    expect(store.getState().selected).toBe(2);
    expect(store.getState().run?.id).toBe(2);
    await store.setFilter({ adapter: "dynamic" });
    expect(store.getState().selected).toBeNull();
    expect(store.getState().run).toBeNull();
  });

  it("keeps the run read last when selections overtake each other", async () => {
    const { store } = await loaded();
    const first = store.select(1);
    const second = store.select(3);
    await Promise.all([second, first]);
    expect(store.getState().selected).toBe(3);
    expect(store.getState().run?.id).toBe(3);
  });

  it("uses a run as the reference run, and compares another selected run with it", async () => {
    const { platform, store } = await loaded();
    await store.select(1);
    expect(comparable(store.getState())).toBe(false);
    store.useAsReference(1);
    expect(store.getState().reference?.id).toBe(1);
    expect(comparable(store.getState())).toBe(false);
    await store.select(2);
    expect(comparable(store.getState())).toBe(true);
    await store.compareWithReference();
    expect(platform.argsOf("compareHistoryRuns")).toEqual([[1, 2]]);
    const comparison = store.getState().comparison;
    expect(comparison?.reference.id).toBe(1);
    expect(comparison?.run.id).toBe(2);
    expect(comparison?.comparison.divergence.first?.explanation).toBe(
      "restart at call 2 discarded lookup(7); it was redone at call 3",
    );
    // Another run ends the comparison; the reference run stays.
    await store.select(4);
    expect(store.getState().comparison).toBeNull();
    expect(store.getState().reference?.id).toBe(1);
  });

  it("keeps the reference run when a filter no longer lists it, and forgets it when cleared", async () => {
    const { store } = await loaded();
    store.useAsReference(3);
    await store.setFilter({ source: "live" });
    expect(store.getState().reference?.id).toBe(3);
    store.clearReference();
    expect(store.getState().reference).toBeNull();
  });

  it("does not compare without a reference run, or a run with itself", async () => {
    const { platform, store } = await loaded();
    await store.select(2);
    await store.compareWithReference();
    store.useAsReference(2);
    await store.compareWithReference();
    expect(platform.argsOf("compareHistoryRuns")).toEqual([]);
    expect(store.getState().comparison).toBeNull();
  });

  it("picks an event, and forgets it with the comparison", async () => {
    const { store } = await loaded();
    store.useAsReference(1);
    await store.select(2);
    await store.compareWithReference();
    const event = store.getState().comparison?.reference.report.events[1];
    if (event === undefined) throw new Error("the reference run has events");
    store.pick("baseline", event);
    expect(store.getState().picked).toEqual({ lane: "baseline", event });
    store.closeComparison();
    expect(store.getState().comparison).toBeNull();
    expect(store.getState().picked).toBeNull();
  });

  it("says why the list, a run or a comparison was not read, with the backend's message", async () => {
    const platform = new FakePlatform();
    platform.failures.set("runHistory", {
      code: "unreadable_file",
      message: "/data/history.sqlite: database is locked",
      problems: [],
    });
    const { store } = await loaded(platform);
    expect(store.getState().failure).toEqual({
      title: "The run history was not read",
      detail: "/data/history.sqlite: database is locked",
      problems: [],
    });
    expect(store.getState().runs).toBeNull();
    platform.failures.delete("runHistory");
    await store.load();
    expect(store.getState().failure).toBeNull();

    await store.select(42);
    expect(store.getState().failure?.title).toBe("Run 42 was not read");
    expect(store.getState().failure?.detail).toBe("run 42: no run in the history has this id");
    store.dismiss();
    expect(store.getState().failure).toBeNull();

    await store.select(2);
    store.useAsReference(1);
    platform.failures.set("compareHistoryRuns", {
      code: "internal",
      message: "the history file is damaged",
      problems: [],
    });
    await store.compareWithReference();
    expect(store.getState().failure).toEqual({
      title: "Something went wrong in Unfold",
      detail: "the history file is damaged",
      problems: [],
    });
    expect(store.getState().comparison).toBeNull();
  });
});
