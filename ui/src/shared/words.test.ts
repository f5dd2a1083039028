// words.ts: every status, restart reason and limit in words (no raw enum reaches the page), and the
// prompt tokens a run used against the baseline said as more or fewer, never "saved" with a minus;
// the question that allows a source.
import { describe, expect, it } from "vitest";
import type { RunStatus } from "../platform";
import {
  adaptersText,
  ADAPTER_TITLES,
  count,
  injectedText,
  laneName,
  moneyText,
  pricedText,
  refreshText,
  failedToolCallsText,
  LIMIT_NAMES,
  limitText,
  loopWarningText,
  outcomeText,
  RESTART_PURPOSES,
  restartText,
  runEndText,
  savingsText,
  savingsTitle,
  STATUS_WORDS,
  statusText,
  type Limit,
  type RestartReason,
  allowQuestion,
} from "./words";

const STATUSES = Object.keys(STATUS_WORDS) as RunStatus[];
const REASONS = Object.keys(RESTART_PURPOSES) as RestartReason[];
const LIMITS = Object.keys(LIMIT_NAMES) as Limit[];

/** A raw enum value: snake_case. */
const RAW = /[a-z]_[a-z]/;

describe("statuses", () => {
  it("words every status, and a lane's end", () => {
    expect(STATUSES).toEqual(["completed", "turn_limit", "restart_limit", "loop_detected", "max_tokens", "error"]);
    expect(STATUSES.map(statusText)).toEqual([
      "completed",
      "stopped at the model call limit",
      "stopped at the restart limit",
      "stopped in a loop",
      "cut at the output limit",
      "failed with an error",
    ]);
    expect(STATUSES.map(runEndText)).toEqual([
      "run completed",
      "run stopped at the model call limit",
      "run stopped at the restart limit",
      "run stopped in a loop",
      "run cut at the output limit",
      "run ended: error",
    ]);
    for (const status of STATUSES) expect(`${statusText(status)} ${runEndText(status)}`).not.toMatch(RAW);
  });
});

describe("restart reasons", () => {
  it("says what each restart was for, with its sections", () => {
    expect(REASONS.map((reason) => restartText(reason, []))).toEqual([
      "restarted to expand a section",
      "restarted to describe the picked tools in full",
      "restarted for a change of the tool list",
    ]);
    expect(restartText("visibility_expansion", ["context"])).toBe("restarted to expand a section (context)");
    expect(restartText("visibility_expansion", ["a", "b"])).toBe("restarted to expand sections (a, b)");
    for (const reason of REASONS) expect(restartText(reason, [])).not.toMatch(RAW);
  });
});

describe("limits", () => {
  it("names each limit as the scenario's Limits fields do, and says which stopped the run", () => {
    expect(LIMITS.map((limit) => LIMIT_NAMES[limit])).toEqual([
      "max model calls",
      "max restarts",
      "the same tool call again after a loop warning",
      "a sequence of calls again after a loop warning",
    ]);
    expect(limitText("max_model_calls", 2)).toBe("reached the limit of 2 model calls");
    expect(limitText("max_restarts", 1)).toBe("reached the limit of 1 restart");
    expect(limitText("repeated_tool_call", 4)).toBe(
      "stopped a loop: the same tool call 4 times within 10 calls, after a warning",
    );
    expect(limitText("repeating_pattern", 2)).toBe("stopped a loop: a sequence of 2 calls repeated, after a warning");
    expect(loopWarningText({ kind: "exact_repeat", tool: "lookup", times: 3 })).toBe(
      "loop warning: lookup 3 times within 10 calls",
    );
    expect(loopWarningText({ kind: "pattern", tools: ["lookup", "search"] })).toBe(
      "loop warning: lookup, search repeated in the same order",
    );
    for (const limit of LIMITS) expect(`${LIMIT_NAMES[limit]} ${limitText(limit, 2)}`).not.toMatch(RAW);
  });
});

describe("savingsText", () => {
  it("says a run that used more than the baseline used more, with the change's sign", () => {
    expect(savingsText(-684, -103.0)).toBe("684 more (+103.0%)");
    expect(savingsText(-533, -80.3)).toBe("533 more (+80.3%)");
    expect(savingsText(-1234, null)).toBe("1,234 more");
  });

  it("says a run that used fewer used fewer, with a minus sign on the percent only", () => {
    expect(savingsText(84, 12.3)).toBe("84 fewer (−12.3%)");
    expect(savingsText(0, 0)).toBe("the same (0.0%)");
    expect(savingsText(0, null)).toBe("the same");
  });

  it("never writes a minus sign before a count or after saved", () => {
    for (const [saved, percent] of [
      [-684, -103],
      [533, 80.3],
      [0, 0],
      [-1, null],
    ] as const) {
      const text = savingsText(saved, percent);
      expect(text).not.toMatch(/^[-−]|saved/);
    }
  });

  it("says it whole in the cell's tooltip", () => {
    expect(savingsTitle("restart", 1348, -684)).toBe(
      "restart used 684 more prompt tokens than the all-FULL baseline (1,348 against 664)",
    );
    expect(savingsTitle("dynamic", 500, 164)).toBe(
      "dynamic used 164 fewer prompt tokens than the all-FULL baseline (500 against 664)",
    );
    expect(savingsTitle("dynamic", 664, 0)).toBe(
      "dynamic used as many prompt tokens as the all-FULL baseline (664 against 664)",
    );
  });
});

describe("money", () => {
  it("writes an amount as the command line does: six decimals under one, four above, a sign for a difference", () => {
    expect([moneyText(0.003966, "USD"), moneyText(0.000543, "USD", true), moneyText(-0.0005, "USD", true)]).toEqual([
      "$0.003966",
      "+$0.000543",
      "\u2212$0.000500",
    ]);
    expect([moneyText(12.5, "USD"), moneyText(0.12, "EUR"), moneyText(0, "USD", true)]).toEqual([
      "$12.5000",
      "0.120000 EUR",
      "$0.000000",
    ]);
  });

  it("says how a run was priced, and the model a dated one is priced as", () => {
    const cost = {
      model: "claude-sonnet-4-5-20250929",
      priced_as: "claude-sonnet-4-5",
      currency: "USD",
      taken: "2025-10-01",
    };
    expect(pricedText(cost)).toBe(
      "priced as claude-sonnet-4-5-20250929 (as claude-sonnet-4-5): USD per million tokens, taken 2025-10-01",
    );
    expect(pricedText({ ...cost, model: "claude-sonnet-4-5" })).toBe(
      "priced as claude-sonnet-4-5: USD per million tokens, taken 2025-10-01",
    );
  });
});

describe("count", () => {
  it("writes a count with its word, plural unless one", () => {
    expect([count(1, "call"), count(1234, "token"), count(0, "restart")]).toEqual([
      "1 call",
      "1,234 tokens",
      "0 restarts",
    ]);
  });
});

describe("failed tool calls", () => {
  it("are said after how a run ended, and nothing is added when none failed", () => {
    expect(outcomeText("completed", { tool_calls: 3, failed_tool_calls: 0 })).toBe("completed");
    expect(outcomeText("completed", { tool_calls: 3, failed_tool_calls: 3 })).toBe(
      "completed, but 3 of 3 tool calls failed",
    );
    expect(outcomeText("turn_limit", { tool_calls: 1, failed_tool_calls: 1 })).toBe(
      "stopped at the model call limit, and 1 of 1 tool call failed",
    );
    expect(failedToolCallsText({ tool_calls: 1200, failed_tool_calls: 1001 })).toBe("1,001 of 1,200 tool calls failed");
    expect(failedToolCallsText({ tool_calls: 2, failed_tool_calls: 0 })).toBeNull();
  });
});

describe("lanes and adapters", () => {
  it("names every lane in words, and the adapters a comparison runs under", () => {
    expect((["dynamic", "restart", "allowed_tools", "deferred", "baseline"] as const).map(laneName)).toEqual([
      "dynamic",
      "restart",
      "allowed tools",
      "deferred",
      "baseline",
    ]);
    expect(adaptersText(["restart"])).toBe("the restart adapter");
    expect(adaptersText(["dynamic", "restart"])).toBe("the dynamic and restart adapters");
    expect(adaptersText(["dynamic", "allowed_tools", "deferred"])).toBe(
      "the dynamic, allowed tools, and deferred adapters",
    );
    expect(adaptersText([])).toBe("the adapters ticked");
    for (const title of Object.values(ADAPTER_TITLES)) expect(title).not.toMatch(/\n|\.$/);
  });

  it("names a host lane by its host, and says when each host shows a new tool", () => {
    expect(laneName("host:claude-code")).toBe("host:claude-code");
    expect(adaptersText(["dynamic"], ["codex"])).toBe("the dynamic adapter and host:codex");
    expect(adaptersText([], ["codex", "gemini-cli"])).toBe("host:codex and host:gemini-cli");
    expect(refreshText("next_call")).toBe("at the next call");
    expect(refreshText({ late: 1 })).toBe("1 call late");
    expect(refreshText({ late: 2 })).toBe("2 calls late");
    expect(refreshText("next_turn")).toBe("at the next user turn");
    expect(refreshText("never")).toBe("never in the conversation");
  });

  it("says how injected tools reached the model: listed (also when unsaid), allowed or loaded by reference", () => {
    expect(injectedText(undefined, ["lookup"], "context")).toBe("injected lookup (context)");
    expect(injectedText("listed", ["lookup", "cite"], null)).toBe("injected lookup, cite");
    expect(injectedText("allowed", ["lookup"], "context")).toBe("tools allowed: lookup (context)");
    expect(injectedText("referenced", ["lookup"], null)).toBe("tools loaded by reference: lookup");
  });
});

describe("the question that allows a source", () => {
  it("names what it starts, and nothing about another machine for a local command", () => {
    const question = allowQuestion({
      name: "ide",
      starts: "runs python3 ide_server.py in /t/.",
      remote: false,
      permission: "not_allowed",
    });
    expect(question.title).toBe("Allow source 'ide'?");
    expect(question.starts).toBe("runs python3 ide_server.py in /t/.");
    expect(question.remote).toBeNull();
    expect(question.changed).toBeNull();
    expect(question.holds).toContain("kept for this file and this definition");
  });

  it("says so when the URL is on another machine, or the definition changed since it was allowed", () => {
    const question = allowQuestion({
      name: "docs",
      starts: "connects to https://docs.example.com/mcp",
      remote: true,
      permission: "changed",
    });
    expect(question.title).toBe("Allow source 'docs' again?");
    expect(question.remote).toContain("another machine");
    expect(question.changed).toBe("Its definition changed since you allowed it: this is what it starts now.");
  });
});
