import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { DisclosureEconomics } from "../platform";
import { FakePlatform } from "../testing/fakePlatform";
import {
  EconomicsStore,
  firstPromptText,
  longerBecause,
  readCostText,
  sectionSizeText,
  shortTokens,
} from "./economics";
import { EditorStore } from "./store";

function economics(first: number, full: number): DisclosureEconomics {
  return {
    first_tokens: first,
    all_full_tokens: full,
    disclosure_tools: [{ name: "read_section", tokens: 67 }],
    sections: [],
    sections_left_out: 0,
    section_sizes: [],
  };
}

describe("the economics in words", () => {
  it("says what summarizing saves on the first prompt, with thousands grouped and one minus sign", () => {
    expect(firstPromptText(economics(1236, 18854))).toBe("1,236 of 18,854 tokens shown first (−93.4 %)");
    expect(longerBecause(economics(1236, 18854))).toBeNull();
    // Nothing summarized that changes the prompt: no signed zero.
    expect(firstPromptText(economics(199, 199))).toBe("199 of 199 tokens shown first");
  });

  it("says why a summarized short section makes the prompt longer: read_section's definition", () => {
    expect(firstPromptText(economics(117, 61))).toBe("117 of 61 tokens shown first (+91.8 %)");
    expect(longerBecause(economics(117, 61))).toBe(
      "Summarizing makes this prompt longer: read_section's definition (67 tokens) and the summaries' notes cost more than the text they hide.",
    );
  });

  it("words a section's read cost for its tooltip and its row", () => {
    expect(readCostText(2345, 5)).toBe("Reading it adds 2,345 prompt tokens and 5 tools");
    expect(readCostText(-91, 0)).toBe("Reading it saves 91 prompt tokens");
    expect([shortTokens(2345), shortTokens(845), shortTokens(-91)]).toEqual(["+2.3k", "+845", "−91"]);
  });

  it("words a section's own size in full, summarized and for its tools", () => {
    expect(sectionSizeText({ path: "a", full_tokens: 18854, summary_tokens: 31, tool_tokens: 1 })).toBe(
      "In full 18,854 tokens, summarized 31 tokens, its tools 1 token",
    );
    expect(sectionSizeText({ path: "a", full_tokens: 12, summary_tokens: null, tool_tokens: 0 })).toBe(
      "In full 12 tokens, no summary, its tools 0 tokens",
    );
  });
});

describe("EconomicsStore", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("reads the economics a moment after the template opens, then once it has stopped changing", async () => {
    const platform = new FakePlatform();
    const editor = new EditorStore(platform, platform.view());
    const store = new EconomicsStore(platform, editor, 400);
    await vi.advanceTimersByTimeAsync(399);
    expect(platform.argsOf("templateEconomics")).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(store.getState().economics?.first_tokens).toBe(205);
    expect(platform.argsOf("templateEconomics")).toHaveLength(1);

    platform.economics = { ...platform.economics, first_tokens: 999 };
    await editor.setField("task", "template", "Do it.");
    await editor.setField("task", "template", "Do it now.");
    await vi.advanceTimersByTimeAsync(399);
    expect(platform.argsOf("templateEconomics")).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(platform.argsOf("templateEconomics")).toHaveLength(2);
    expect(store.getState().economics?.first_tokens).toBe(999);
  });

  it("has no figures while the template does not render (the preview says why)", async () => {
    const platform = new FakePlatform();
    platform.failures.set("templateEconomics", {
      code: "invalid_template",
      message: "unknown ${company}",
      problems: [],
    });
    const store = new EconomicsStore(platform, new EditorStore(platform, platform.view()));
    await vi.runOnlyPendingTimersAsync();
    expect(store.getState().economics).toBeNull();
  });
});
