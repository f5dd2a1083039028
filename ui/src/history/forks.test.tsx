// A fork on the History page (spec 15): it says which run it is a fork of and where, and shown
// beside its parent its lane marks the event it left the parent at, with the first divergence.
import { act } from "react";
import type { Root } from "react-dom/client";
import { describe, expect, it } from "vitest";
import { FakePlatform } from "../testing/fakePlatform";
import { mountEachTest } from "../testing/testRoot";
import { ToastProvider } from "../shared/ToastRegion";
import { HistoryView } from "./HistoryView";
import { HistoryStore } from "./store";
import { byTestId, click, settle } from "../testing/dom";

let container: HTMLDivElement;
let root: Root;

mountEachTest((mounted) => {
  ({ container, root } = mounted);
});

/** The History page over a backend whose kept run 2 (restart) was forked at event 8; the fork's id. */
async function withFork(): Promise<{ store: HistoryStore; fork: number }> {
  const platform = new FakePlatform();
  const forked = await platform.forkRun({
    parent: { kept: 2 },
    at_seq: 8,
    change: { results: [{ call_id: "call_2_0", result: "changed" }], expand: [] },
    lanes: ["restart"],
    model: { scripted: { price_as: null } },
    documents: null,
    history: true,
    run_id: null,
  });
  if (!forked.ok) throw new Error("the fake forks");
  const store = showHistory(platform);
  await settle();
  return { store, fork: forked.value.kept[0] ?? -1 };
}

/** The History page over `platform`, drawn. */
function showHistory(platform: FakePlatform): HistoryStore {
  const store = new HistoryStore(platform);
  act(() => {
    root.render(
      <ToastProvider>
        <HistoryView store={store} />
      </ToastProvider>,
    );
  });
  return store;
}

/** Kept run `run` selected, Fork from here on its event `seq` of `lane`: what the question says of the model. */
async function askToFork(store: HistoryStore, run: number, lane: string, seq: number): Promise<string | null> {
  await act(() => store.select(run));
  await settle();
  await click(byTestId(`timeline-event"][data-lane="${lane}"][data-seq="${String(seq)}`));
  await click(byTestId("history-fork-from-here"));
  return byTestId("fork-model").textContent;
}

describe("a fork on the History page", () => {
  it("is shown beside its parent, its lane marking where it left it", async () => {
    const { store, fork } = await withFork();
    await act(() => store.openBesideParent(fork));
    await settle();
    expect(byTestId("history-fork").textContent).toContain("Fork of run 2 at event 8");
    expect(store.getState().reference?.id).toBe(2);
    expect(container.querySelector('[data-testid="history-comparison"]')).not.toBeNull();
    const marked = [...container.querySelectorAll<HTMLElement>('[data-fork-point="true"]')];
    expect(marked.map((event) => [event.dataset.lane, event.dataset.seq])).toEqual([["restart", "8"]]);
    expect(marked[0]?.textContent).toContain("forked here");
    // Already beside its parent: nothing to offer.
    expect(container.querySelector('[data-testid="history-beside-parent"]')).toBeNull();
  });

  it("offers to go beside its parent when selected alone", async () => {
    const { store, fork } = await withFork();
    await act(() => store.load());
    await act(() => store.select(fork));
    await settle();
    expect(store.getState().comparison).toBeNull();
    await click(byTestId("history-beside-parent"));
    await settle();
    expect(store.getState().comparison?.reference.id).toBe(2);
    expect(container.querySelector('[data-fork-point="true"]')).not.toBeNull();
  });
});

describe("Fork from here on the History page", () => {
  it("forks a kept fork again (a fork of a fork) and shows the new one beside it", async () => {
    const { store, fork } = await withFork();
    await act(() => store.openBesideParent(fork));
    await settle();
    // The fork's lookup redone after its restart, picked on its own side of the comparison.
    await click(byTestId('timeline-event"][data-lane="restart"][data-seq="10'));
    await click(byTestId("history-fork-from-here"));
    expect(byTestId("fork-dialog").textContent).toContain("Fork restart at event 10");
    await click(byTestId("fork-run"));
    await settle();
    const shown = store.getState();
    expect(shown.fork).toBeNull();
    expect(shown.reference?.id).toBe(fork);
    expect(shown.run?.forked_from).toEqual({ run: fork, at_seq: 10 });
    expect(byTestId("history-fork").textContent).toContain(`Fork of run ${String(fork)} at event 10`);
  });

  it("goes on with the kept run's own model: a live run's profile, said in the question", async () => {
    const platform = new FakePlatform();
    const store = showHistory(platform);
    await act(() => store.load());
    // Run 4 is live, on the profile "local".
    expect(await askToFork(store, 4, "dynamic", 2)).toContain("live model of profile local");
    await click(byTestId("fork-run"));
    await settle();
    expect(platform.compare.forks.at(-1)?.model).toEqual({ live: { profile: "local" } });
    // A scripted run goes on with the script.
    expect(await askToFork(store, 2, "restart", 2)).toContain("the scenario's script answers");
    await click(byTestId("fork-run"));
    await settle();
    expect(platform.compare.forks.at(-1)?.model).toEqual({ scripted: { price_as: null } });
  });
});
