// Every value of the core's enums a user reads in the compare view, in words, in one place: a
// lane's name and what its adapter does, how a run ended, why it restarted, how injected tools
// reached the model, which limit stopped it, where a tool source's tools came from, the user's
// answer about a source and the question that allows it; and the prompt tokens a run spent against the
// all-FULL baseline, said as more or fewer (never a minus sign after "saved"). The timeline's lines,
// the event detail, the run status, the counters and the chart all take their words from here, so
// a raw `visibility_expansion` or `turn_limit` never reaches the page.
import type {
  AdapterKind,
  Counters,
  Lane,
  LoopFound,
  Permission,
  Refresh,
  RunCost,
  RunEvent,
  RunStatus,
  SourceView,
} from "../platform";
import { hostLane } from "../platform/lanes";

type EventOf<T extends RunEvent["type"]> = Extract<RunEvent, { type: T }>;
/** When a pending change to a lane's tools shows (the core's `PendingShows`). */
export type PendingShows = EventOf<"tools_pending">["shows"];
/** Why an attempt restarted (the core's `RestartReason`). */
export type RestartReason = EventOf<"restart">["reason"];
/** A limit of spec 4.2 (the core's `Limit`). */
export type Limit = EventOf<"limit_reached">["limit"];
/** Where a tool source's tools came from (the core's `Tier`, spec 8). */
export type Tier = EventOf<"tools_discovered">["tier"];

/** How injected tools reached the model (the core's `ToolDelivery`; absent: listed). */
export type Delivery = NonNullable<EventOf<"tools_injected">["delivery"]>;

/** The adapters' and the baseline's lanes' names wherever a lane, a run or a column is named. */
export const LANE_NAMES: Readonly<Partial<Record<Lane, string>>> = {
  dynamic: "dynamic",
  restart: "restart",
  allowed_tools: "allowed tools",
  deferred: "deferred",
  tool_addition: "tool addition",
  baseline: "baseline",
};

/** "allowed tools": a lane's name; a host lane's is its own (`host:claude-code`). */
export function laneName(lane: Lane): string {
  return LANE_NAMES[lane] ?? lane;
}

/** What each adapter does, in one line: the adapter checkboxes' titles. */
export const ADAPTER_TITLES: Readonly<Record<AdapterKind, string>> = {
  dynamic: "Adds a read section's tools to the tool list of the calls after it, keeping the conversation",
  restart: "Halts when a section is read, expands it and restarts the run from the start",
  allowed_tools:
    "Sends every tool from the first call; reading a section widens the callable subset (OpenAI allowed_tools), so the prompt start never changes",
  deferred:
    "Sends hidden tools deferred (Anthropic defer_loading); reading a section loads them by tool_reference, so the tool list never changes",
  tool_addition:
    "Sends hidden tools deferred; reading a section adds them by a system message (Anthropic tool_addition), so no tool and no earlier message changes",
};

/**
 * "the dynamic and restart adapters", "the deferred adapter": the adapters a comparison runs under;
 * with `hosts`, its host lanes after them ("the dynamic adapter and host:codex").
 */
export function adaptersText(adapters: readonly AdapterKind[], hosts: readonly string[] = []): string {
  const lanes = hosts.map(hostLane);
  if (adapters.length === 0) return lanes.length === 0 ? "the adapters ticked" : listed(lanes);
  const named = `the ${listed(adapters.map(laneName))} adapter${adapters.length === 1 ? "" : "s"}`;
  return lanes.length === 0 ? named : `${named} and ${listed(lanes)}`;
}

/** What the line of a `tools_injected` event starts with, by how the tools reached the model. */
export const DELIVERY_WORDS: Readonly<Record<Delivery, string>> = {
  listed: "injected",
  allowed: "tools allowed:",
  referenced: "tools loaded by reference:",
  announced: "tools added by a system message:",
};

/** "injected lookup (context)", "tools allowed: lookup, search (context)". */
export function injectedText(
  delivery: Delivery | undefined,
  tools: readonly string[],
  sectionKey: string | null,
): string {
  return `${DELIVERY_WORDS[delivery ?? "listed"]} ${tools.join(", ")}${sectionKey === null ? "" : ` (${sectionKey})`}`;
}

/** How injected tools reached the model, as the event detail says it. */
export const DELIVERY_DETAIL: Readonly<Record<Delivery, string>> = {
  listed: "added to the tool list of the calls after it",
  allowed: "already sent; now in the callable subset (allowed_tools)",
  referenced: "already sent deferred; now loaded by tool_reference blocks in the tool result",
  announced: "already sent deferred; now added by a system message's tool_addition blocks before the next call",
};

/** Where a source's tools came from, as the timeline and the event detail say it. */
export const TIER_WORDS: Readonly<Record<Tier, string>> = {
  live: "listed live",
  snapshot: "its snapshot",
  none: "none",
};

/** "tools from ide (its snapshot): grep, open" */
export function discoveryText(source: string, tier: Tier, tools: readonly string[]): string {
  return `tools from ${source} (${TIER_WORDS[tier]}): ${tools.length === 0 ? "no tools" : tools.join(", ")}`;
}

/** How a run ended, as the status line, the counters and a lane's end say it. */
export const STATUS_WORDS: Readonly<Record<RunStatus, string>> = {
  completed: "completed",
  turn_limit: "stopped at the model call limit",
  restart_limit: "stopped at the restart limit",
  loop_detected: "stopped in a loop",
  max_tokens: "cut at the output limit",
  error: "failed with an error",
};

/** "completed", "stopped at the model call limit", … */
export function statusText(status: RunStatus): string {
  return STATUS_WORDS[status];
}

/** "3 of 3 tool calls failed", or null when none failed. */
export function failedToolCallsText(counters: Pick<Counters, "tool_calls" | "failed_tool_calls">): string | null {
  const failed = counters.failed_tool_calls;
  if (failed === 0) return null;
  return `${failed.toLocaleString("en-US")} of ${count(counters.tool_calls, "tool call")} failed`;
}

/**
 * How a run ended, with its failed tool calls: "completed", "completed, but 3 of 3 tool calls
 * failed", "stopped in a loop, and 1 of 4 tool calls failed".
 */
export function outcomeText(status: RunStatus, counters: Pick<Counters, "tool_calls" | "failed_tool_calls">): string {
  const failed = failedToolCallsText(counters);
  if (failed === null) return statusText(status);
  return `${statusText(status)}, ${status === "completed" ? "but" : "and"} ${failed}`;
}

/** A lane's end: "run completed", "run stopped at the model call limit", "run ended: error". */
export function runEndText(status: RunStatus): string {
  return status === "error" ? "run ended: error" : `run ${STATUS_WORDS[status]}`;
}

/** What an attempt restarted for, after "restarted". */
export const RESTART_PURPOSES: Readonly<Record<RestartReason, string>> = {
  visibility_expansion: "to expand a section",
  tools_picked: "to describe the picked tools in full",
  tool_availability_changed: "for a change of the tool list",
};

/** "restarted to expand a section (context)", "restarted to describe the picked tools in full". */
export function restartText(reason: RestartReason, sectionKeys: readonly string[]): string {
  const purpose = RESTART_PURPOSES[reason];
  const sections = sectionKeys.length === 0 ? "" : ` (${sectionKeys.join(", ")})`;
  const plural = reason === "visibility_expansion" && sectionKeys.length > 1 ? "to expand sections" : purpose;
  return `restarted ${plural}${sections}`;
}

/** A limit's name, as the scenario panel's Limits fields name it. */
export const LIMIT_NAMES: Readonly<Record<Limit, string>> = {
  max_model_calls: "max model calls",
  max_restarts: "max restarts",
  repeated_tool_call: "the same tool call again after a loop warning",
  repeating_pattern: "a sequence of calls again after a loop warning",
};

/** The calls the loop rules look back over (km_tools'): the same call, a repeating sequence. */
const EXACT_WINDOW = 10;

/** The line of a `limit_reached` event: "reached the limit of 2 model calls", … */
export function limitText(limit: Limit, value: number): string {
  switch (limit) {
    case "max_model_calls":
      return `reached the limit of ${count(value, "model call")}`;
    case "max_restarts":
      return `reached the limit of ${count(value, "restart")}`;
    case "repeated_tool_call":
      return `stopped a loop: the same tool call ${String(value)} times within ${String(EXACT_WINDOW)} calls, after a warning`;
    case "repeating_pattern":
      return `stopped a loop: a sequence of ${String(value)} calls repeated, after a warning`;
  }
}

/** The line of a `loop_warning` event: "loop warning: lookup 3 times within 10 calls". */
export function loopWarningText(found: LoopFound): string {
  switch (found.kind) {
    case "exact_repeat":
      return `loop warning: ${found.tool} ${String(found.times)} times within ${String(EXACT_WINDOW)} calls`;
    case "pattern":
      return `loop warning: ${found.tools.join(", ")} repeated in the same order`;
  }
}

/** "1 call", "1,234 tokens". */
export function count(n: number, word: string): string {
  return `${n.toLocaleString("en-US")} ${word}${n === 1 ? "" : "s"}`;
}

/**
 * An amount of money as the command line writes it: "$0.003966" (six decimals under one, to tell
 * a scripted run's cost from nothing, four above), "+$0.000543" with `sign`, "−$0.000500" (one
 * minus sign, as the app's other figures), "0.12 EUR" in another currency.
 */
export function moneyText(amount: number, currency: string, sign = false): string {
  const digits = Math.abs(amount) < 1 ? 6 : 4;
  const figure = Math.abs(amount).toFixed(digits);
  // The minus sign (U+2212), as every other figure the app writes.
  const mark = amount < 0 ? "\u2212" : sign && amount > 0 ? "+" : "";
  return currency === "USD" ? `${mark}$${figure}` : `${mark}${figure} ${currency}`;
}

type PrefixBreak = NonNullable<NonNullable<EventOf<"model_call">["prefix"]>["broke"]>;

/** Why a call's prompt shares less than the previous call's: what a prompt cache loses. */
export const PREFIX_BREAK_WORDS: Readonly<Record<PrefixBreak, string>> = {
  tools_changed: "the tools changed",
  system_changed: "the system prompt changed",
  restart: "the run restarted",
};

/** How a run was priced: "priced as gpt-4o-mini: USD per million tokens, taken 2025-10-01". */
export function pricedText(cost: Pick<RunCost, "model" | "priced_as" | "currency" | "taken">): string {
  const name = cost.model === cost.priced_as ? cost.model : `${cost.model} (as ${cost.priced_as})`;
  return `priced as ${name}: ${cost.currency} per million tokens, taken ${cost.taken}`;
}

const LIST_FORMAT = new Intl.ListFormat("en", { type: "conjunction" });

/** "dynamic, restart, and baseline". */
export function listed(items: readonly string[]): string {
  return LIST_FORMAT.format(items);
}

/** "684": a count of tokens without its sign. */
function magnitude(n: number): string {
  return Math.abs(n).toLocaleString("en-US");
}

/**
 * What a run spent against the all-FULL baseline, from the report's `saved_prompt_tokens` (the
 * baseline's minus the run's) and `saved_percent` (that in percent of the baseline's): "533 fewer
 * (−80.3%)", "684 more (+103.0%)", "the same (0.0%)"; the percent is the run's change from the
 * baseline, so its sign goes with the word.
 */
export function savingsText(saved: number, percent: number | null): string {
  const word = saved > 0 ? `${magnitude(saved)} fewer` : saved < 0 ? `${magnitude(saved)} more` : "the same";
  if (percent === null) return word;
  const change = -percent;
  const sign = change > 0 ? "+" : change < 0 ? "−" : "";
  return `${word} (${sign}${Math.abs(change).toFixed(1)}%)`;
}

/** The savings cell's tooltip: "restart used 684 more prompt tokens than the all-FULL baseline (1,348 against 664)". */
export function savingsTitle(lane: Lane, used: number, saved: number): string {
  const baseline = used + saved;
  const against = `(${used.toLocaleString("en-US")} against ${baseline.toLocaleString("en-US")})`;
  if (saved === 0) return `${laneName(lane)} used as many prompt tokens as the all-FULL baseline ${against}`;
  const direction = saved > 0 ? "fewer" : "more";
  return `${laneName(lane)} used ${magnitude(saved)} ${direction} prompt tokens than the all-FULL baseline ${against}`;
}

/** The user's answer, as a short label. */
export const PERMISSION_WORDS: Readonly<Record<Permission, string>> = {
  allowed: "Allowed",
  changed: "Changed since allowed",
  not_allowed: "Not allowed",
  unsaved: "Not saved yet",
  not_needed: "Relay",
};

/** What the user's answer means for runs, in a sentence. */
export function permissionText(permission: Permission): string {
  switch (permission) {
    case "allowed":
      return "Allowed for this file: discovery and comparisons start it.";
    case "changed":
      return "Its definition changed since it was allowed: nothing starts it, runs use its snapshot, until it is allowed again.";
    case "not_allowed":
      return "Not allowed: nothing starts it, runs use its snapshot.";
    case "unsaved":
      return "Save the template first: the answer is kept for its file.";
    case "not_needed":
      return "Starts nothing: a comparison takes its tools from the relay session you attach it to.";
  }
}

/** The question that allows a source. */
export interface AllowQuestion {
  title: string;
  /** What will run or be contacted: the view's `starts`. */
  starts: string;
  /** That its definition changed since it was allowed, when it did. */
  changed: string | null;
  /** That its URL reaches another machine, when it does. */
  remote: string | null;
  /** What allowing does, and how long the answer holds. */
  holds: string;
}

/** The question that allows `view`'s source. */
export function allowQuestion(view: Pick<SourceView, "name" | "starts" | "remote" | "permission">): AllowQuestion {
  const again = view.permission === "changed";
  return {
    title: `Allow source '${view.name}'${again ? " again" : ""}?`,
    starts: view.starts,
    changed: again ? "Its definition changed since you allowed it: this is what it starts now." : null,
    remote: view.remote
      ? "This URL is on another machine: allowing the source lets Unfold send it requests, with the arguments of the model's tool calls."
      : null,
    holds:
      "Unfold starts it to discover its tools and for each run of this template. The answer is kept for this file and this definition: a changed definition asks again.",
  };
}

/** "+deploy, -grep, ~lookup": added, removed, and described anew. */
export function toolChangeList(
  added: readonly string[],
  removed: readonly string[],
  modified: readonly string[],
): string {
  const parts = [
    ...added.map((name) => `+${name}`),
    ...removed.map((name) => `-${name}`),
    ...modified.map((name) => `~${name}`),
  ];
  return parts.length === 0 ? "none" : parts.join(", ");
}

/** What a pending change to a lane's tools changes, as `toolChangeList` says it. */
export function pendingChangeText(event: EventOf<"tools_pending">): string {
  return `tools pending ${toolChangeList(event.added ?? [], event.removed ?? [], event.modified ?? [])}`;
}

/** When a host first shows the model a tool revealed mid-conversation ("a call late", "at the next user turn"). */
export function refreshText(refresh: Refresh): string {
  if (typeof refresh === "object") return `${count(refresh.late, "call")} late`;
  switch (refresh) {
    case "next_call":
      return "at the next call";
    case "next_turn":
      return "at the next user turn";
    case "never":
      return "never in the conversation";
    case "restart":
      return "by restarting";
  }
}

/** When the lane's refresh policy shows a pending change ("from call 5", "from turn 2", "never"). */
export function pendingShowsText(shows: PendingShows): string {
  if (shows === "never") return "never shown in this conversation";
  if ("at_model_call" in shows) return `shown from call ${String(shows.at_model_call)}`;
  return `shown from turn ${String(shows.at_turn)}`;
}
