// A study from the Compare page over the FakePlatform and the recorded study: Repeat turns Run into
// "Run ×N" and asks for a study (with the A/A control when ticked), its progress and what it spent
// show while it runs, Cancel stops it with what ended, and the finished study answers first: each
// pair's verdict in words, the A/A line, each lane's success with its Wilson interval and pass^k,
// its runs as dots (one per repetition) that open the kept run on the timeline, and a metric picker.
import { act } from "react";
import type { Root } from "react-dom/client";
import { describe, expect, it } from "vitest";
import { lookupFirstScenario } from "../testing/fakeCompare";
import { FakePlatform } from "../testing/fakePlatform";
import { RECORDED_STUDY } from "../testing/fakeStudy";
import { mountEachTest } from "../testing/testRoot";
import { all, byTestId, choose, click, none, settle, typeInto } from "../testing/dom";
import { ComparePageOf, openComparePage, type CompareStores } from "../testing/comparePage";

let container: HTMLDivElement;
let root: Root;

mountEachTest((mounted) => {
  ({ container, root } = mounted);
});

const PATH = "/s/lookup-first.scenario.json";

async function openScenario(): Promise<{ platform: FakePlatform; store: CompareStores; opened: number[] }> {
  const platform = new FakePlatform();
  platform.compare.disk.set(PATH, lookupFirstScenario());
  const store = openComparePage(platform);
  const opened: number[] = [];
  act(() => {
    root.render(<ComparePageOf stores={store} platform={platform} onOpenRun={(id) => opened.push(id)} />);
  });
  await settle();
  platform.chosenPath = PATH;
  await click(byTestId("open-scenario"));
  return { platform, store, opened };
}

async function repeat(times: number): Promise<void> {
  typeInto(byTestId("study-repeat"), String(times));
  await settle();
}

describe("a study on the Compare page", () => {
  it("runs when Repeat asks for more than one, with the A/A control when ticked", async () => {
    const { platform } = await openScenario();
    expect(byTestId("run-comparison").textContent).toBe("Run");
    expect(none("study-aa-toggle")).toBe(true);
    await repeat(5);
    expect(byTestId("run-comparison").textContent).toBe("Run ×5");
    await click(byTestId("study-aa-toggle"));
    await click(byTestId("run-comparison"));
    expect(platform.study.asked.map(({ study }) => [study.repeat, study.aa])).toEqual([[5, true]]);
    expect(platform.study.asked[0]?.settings.adapters).toEqual(["dynamic", "restart"]);
    // A single comparison did not run beside it.
    expect(platform.calls.some((call) => call.name === "runComparison")).toBe(false);
  });

  it("shows its progress while it runs, and Cancel keeps what ended", async () => {
    const { platform } = await openScenario();
    platform.study.hold = true;
    await repeat(5);
    await click(byTestId("run-comparison"));
    expect(byTestId("study-progress").textContent).toContain("1 of 5 repetitions");
    expect(byTestId("run-comparison").hasAttribute("disabled")).toBe(true);
    expect(byTestId("study-repeat").hasAttribute("disabled")).toBe(true);
    await click(byTestId("cancel-study"));
    await settle();
    expect(none("study-progress")).toBe(true);
    expect(byTestId("study-stopped").textContent).toContain("Stopped after 1 of 5 repetitions");
    expect(byTestId("study-stopped").textContent).toContain("it was cancelled");
    expect(all('study-dot"][data-repetition="2')).toHaveLength(0);
  });

  it("says what a study the budget stopped spent, repetitions left out too, and what the next would have cost", async () => {
    const { platform } = await openScenario();
    const stopped = {
      reason: "max_cost" as const,
      after: 3,
      spent_usd: 0.0028,
      left_out_usd: 0.0002,
      next_usd: 0.00014,
      max_cost_usd: 0.0033,
    };
    platform.study.report = { ...RECORDED_STUDY, stopped };
    await repeat(RECORDED_STUDY.repeat);
    await click(byTestId("run-comparison"));
    await settle();
    const said = byTestId("study-stopped").textContent;
    expect(said).toContain("Stopped after 3 of");
    expect(said).toContain("more on repetitions left out");
    expect(said).toContain("the next conversation, about");
  });

  it("answers with the verdicts, each lane's success and its runs, any of which opens on the timeline", async () => {
    const { opened } = await openScenario();
    await repeat(RECORDED_STUDY.repeat);
    await click(byTestId("run-comparison"));
    await settle();
    const verdicts = all("study-verdict").map((item) => item.textContent);
    expect(verdicts).toEqual(RECORDED_STUDY.pairs.map((pair) => `${pair.a} against ${pair.b}: ${pair.verdict}`));
    if (RECORDED_STUDY.aa != null) expect(byTestId("study-aa").textContent).toContain(RECORDED_STUDY.aa.verdict);
    const lanes = all("study-lane").map((row) => row.dataset.lane);
    expect(lanes).toEqual(RECORDED_STUDY.lanes.map((lane) => lane.lane));
    const first = RECORDED_STUDY.lanes[0];
    const firstRow = all("study-lane")[0];
    expect(firstRow?.textContent).toContain(`${first?.summary.success.count}/${first?.summary.success.n}`);
    // A dot per run of each lane.
    for (const lane of RECORDED_STUDY.lanes) {
      const row = byTestId(`study-row"][data-lane="${lane.lane}`);
      expect(row.querySelectorAll('[data-testid="study-dot"]')).toHaveLength(lane.runs.length);
    }
    // The fake keeps each repetition's lanes under ids from 701, in the report's lane order.
    const lanesPerRepetition = RECORDED_STUDY.lanes.length;
    const dot = byTestId(`study-row"][data-lane="${RECORDED_STUDY.lanes[1]?.lane}`).querySelector<SVGElement>(
      '[data-testid="study-dot"][data-repetition="2"]',
    );
    await act(async () => {
      dot?.dispatchEvent(new MouseEvent("click", { bubbles: true }));
      await Promise.resolve();
    });
    expect(opened).toEqual([701 + lanesPerRepetition + 1]);
    // Or by name.
    choose(byTestId("study-open-lane"), RECORDED_STUDY.lanes[0]?.lane ?? "");
    typeInto(byTestId("study-open-repetition"), "3");
    await click(byTestId("study-open-run"));
    expect(opened).toEqual([701 + lanesPerRepetition + 1, 701 + 2 * lanesPerRepetition]);
  });

  it("plots the metric picked, and a single comparison takes the study's place when Repeat is 1 again", async () => {
    await openScenario();
    await repeat(3);
    await click(byTestId("run-comparison"));
    await settle();
    // Cost first when the runs were priced, else the prompt tokens.
    const priced = RECORDED_STUDY.lanes.some((lane) => lane.summary.metrics.cost_usd !== undefined);
    expect(byTestId("study-strip").getAttribute("aria-label")).toContain(priced ? "Cost" : "Prompt tokens");
    choose(byTestId("study-metric"), "model_calls");
    await settle();
    expect(byTestId("study-strip").getAttribute("aria-label")).toContain("Model calls");
    await repeat(1);
    await click(byTestId("run-comparison"));
    await settle();
    expect(none("study")).toBe(true);
    expect(container.querySelector('[data-testid="verdict"]')).not.toBeNull();
  });
});
