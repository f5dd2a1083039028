// The Compare page's "Fork from here" (spec 15): on a finished comparison's event, a question of
// which lanes go on and what changes there, the fork asked of the backend with the comparison's
// lane as its parent, and its runs handed on to be shown beside their parent.
import { act } from "react";
import type { Root } from "react-dom/client";
import { describe, expect, it } from "vitest";
import { lookupFirstScenario } from "../testing/fakeCompare";
import { FakePlatform } from "../testing/fakePlatform";
import { mountEachTest } from "../testing/testRoot";
import { byTestId, choose, click, settle, typeInto } from "../testing/dom";
import { ComparePageOf, openComparePage } from "../testing/comparePage";

let container: HTMLDivElement;
let root: Root;

mountEachTest((mounted) => {
  ({ container, root } = mounted);
});

const PATH = "/s/lookup-first.scenario.json";

/** The page after a comparison of lookup-first ran, `forked` hearing of each fork's runs. */
async function compared(forked: number[][]): Promise<FakePlatform> {
  const platform = new FakePlatform();
  platform.compare.disk.set(PATH, lookupFirstScenario());
  const stores = openComparePage(platform);
  act(() => {
    root.render(<ComparePageOf stores={stores} platform={platform} onForked={(kept) => forked.push([...kept])} />);
  });
  await settle();
  platform.chosenPath = PATH;
  await click(byTestId("open-scenario"));
  await click(byTestId("run-comparison"));
  return platform;
}

function present(testId: string): boolean {
  return container.querySelector(`[data-testid="${testId}"]`) !== null;
}

async function pick(lane: string, seq: number): Promise<void> {
  await click(byTestId(`timeline-event"][data-lane="${lane}"][data-seq="${String(seq)}`));
}

describe("Fork from here", () => {
  it("forks the picked lane at its event with another result for a call, and hands the fork's runs on", async () => {
    const forked: number[][] = [];
    const platform = await compared(forked);
    await pick("dynamic", 2);
    await click(byTestId("fork-from-here"));
    expect(byTestId("fork-dialog").textContent).toContain("Fork dynamic at event 2");
    const lanes = [...container.querySelectorAll<HTMLInputElement>('[data-testid="fork-lane"]')];
    expect(lanes.map((box) => [box.dataset.lane, box.checked])).toEqual([
      ["dynamic", true],
      ["restart", false],
    ]);
    await click(lanes[1] as HTMLElement);
    // The calls at or after the event that are not disclosure tools': lookup and search.
    const calls = [...container.querySelectorAll<HTMLOptionElement>('[data-testid="fork-call"] option')];
    expect(calls.map((option) => option.value)).toEqual(["", "call_0_0", "call_2_0"]);
    choose(byTestId("fork-call"), "call_0_0");
    await settle();
    expect(JSON.parse((byTestId("fork-result") as HTMLTextAreaElement).value)).toEqual({ id: 7, title: "Login fails" });
    typeInto(byTestId("fork-result"), '{"id": 7,');
    await settle();
    expect(present("fork-result-problem")).toBe(true);
    expect((byTestId("fork-run") as HTMLButtonElement).disabled).toBe(true);
    typeInto(byTestId("fork-result"), '{"id": 7, "title": "Login fails", "log": "a long log"}');
    await settle();
    await click(byTestId("fork-expand"));
    await click(byTestId("fork-run"));
    expect(platform.compare.forks).toEqual([
      {
        parent: { comparison: { run_id: 1, lane: "dynamic" } },
        at_seq: 2,
        change: {
          results: [{ call_id: "call_0_0", result: { id: 7, title: "Login fails", log: "a long log" } }],
          expand: ["context"],
        },
        lanes: ["dynamic", "restart"],
        model: { scripted: { price_as: null } },
        documents: [{ open: platform.id }, { open: expect.any(Number) as number }],
        history: true,
        run_id: null,
      },
    ]);
    expect(present("fork-dialog")).toBe(false);
    expect(forked).toHaveLength(1);
    expect(forked[0]).toHaveLength(2);
  });

  it("keeps its question open with the backend's reason when the fork is refused", async () => {
    const forked: number[][] = [];
    const platform = await compared(forked);
    platform.failures.set("forkRun", {
      code: "invalid_request",
      message: "the template changed since run 1 ran it: give the template it ran with --template",
      problems: [],
    });
    await pick("restart", 2);
    await click(byTestId("fork-from-here"));
    await click(byTestId("fork-run"));
    expect(byTestId("fork-failure").textContent).toContain("changed since run 1 ran it");
    expect(forked).toEqual([]);
    await click(byTestId("fork-cancel"));
    expect(present("fork-dialog")).toBe(false);
  });

  it("is not offered on the all-FULL baseline's events", async () => {
    await compared([]);
    await pick("baseline", 2);
    expect(present("event-detail")).toBe(true);
    expect(present("fork-from-here")).toBe(false);
  });
});
