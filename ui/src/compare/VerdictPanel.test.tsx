// The verdict at the top of a finished comparison: the core's sentence first, then each lane with
// its standing (coloured by its class), what it spent beside all-FULL in words and why; a report
// without a verdict (an older file, a live comparison) shows none.
import { act } from "react";
import type { Root } from "react-dom/client";
import { describe, expect, it } from "vitest";
import type { LaneVerdict } from "../platform";
import { lookupFirstReport, reportUnder } from "../testing/fakeCompare";
import { mountEachTest } from "../testing/testRoot";
import { laneFigures, standingText } from "./verdict";
import { VerdictPanel } from "./VerdictPanel";

let container: HTMLDivElement;
let root: Root;

mountEachTest((mounted) => {
  ({ container, root } = mounted);
});

function lane(overrides: Partial<LaneVerdict>): LaneVerdict {
  return {
    lane: "dynamic",
    standing: "wins",
    status: "completed",
    prompt_tokens: { value: 800, baseline: 1000, change: -200, percent: -20 },
    cost: null,
    cost_with_cache: null,
    model_calls: { value: 4, baseline: 3, change: 1, percent: 33.3 },
    restarts: 0,
    because: "the summaries kept 200 prompt tokens out of its prompts",
    ...overrides,
  };
}

describe("the verdict's figures", () => {
  it("say what a lane spent beside all-FULL in words, never a bare sign", () => {
    expect(laneFigures(lane({}), null)).toEqual(["20.0 % fewer prompt tokens (200)", "1 more model call"]);
    const costly = lane({
      prompt_tokens: { value: 1348, baseline: 664, change: 684, percent: 103 },
      cost_with_cache: { value: 0.0045, baseline: 0.00225, change: 0.00225, percent: 100 },
      model_calls: { value: 3, baseline: 3, change: 0, percent: 0 },
      restarts: 2,
    });
    expect(laneFigures(costly, "USD")).toEqual([
      "103.0 % more prompt tokens (684)",
      "$0.002250 (100.0 %) more with the prompt cache",
      "2 restarts",
    ]);
    expect(laneFigures(costly, null)).not.toContain("$0.002250 (100.0 %) more with the prompt cache");
  });

  it("name each standing", () => {
    expect((["wins", "beats_baseline", "loses_to_baseline", "failed"] as const).map(standingText)).toEqual([
      "wins",
      "beats all-FULL",
      "loses to all-FULL",
      "fell short",
    ]);
  });
});

describe("VerdictPanel", () => {
  it("shows the core's verdict of the example first, each lane by its standing", () => {
    const verdict = lookupFirstReport().verdict;
    if (verdict === undefined) throw new Error("the fixture has no verdict");
    act(() => {
      root.render(<VerdictPanel verdict={verdict} />);
    });
    const headline = container.querySelector('[data-testid="verdict-headline"]');
    expect(headline?.textContent).toBe(verdict.headline);
    const lanes = [...container.querySelectorAll<HTMLElement>('[data-testid="verdict-lane"]')];
    expect(lanes.map((item) => [item.dataset.lane, item.dataset.standing])).toEqual(
      verdict.lanes.map((each) => [each.lane, each.standing]),
    );
    for (const [index, item] of lanes.entries()) {
      const each = verdict.lanes[index];
      if (each === undefined) throw new Error("a lane too many");
      expect(item.classList.contains(each.standing)).toBe(true);
      expect(item.textContent).toContain(each.because);
      expect(item.textContent).toContain(laneFigures(each, verdict.currency).join(" · "));
    }
  });

  it("is not kept for runs it did not weigh", () => {
    expect(reportUnder(lookupFirstReport(), ["dynamic", "deferred"], true).verdict).toBeUndefined();
    expect(reportUnder(lookupFirstReport(), ["dynamic", "restart"], true).verdict).toEqual(lookupFirstReport().verdict);
  });
});
