// A run as compare, history and suites draw it: the adapters a comparison runs under, a comparison's
// lanes with their events as they arrive (`RunState`), the event picked on its timeline and the
// request and answer of that event's model call.
import type { AdapterKind, CallRequest, ComparisonReport, Lane, RunEvent } from "../platform";
import type { Failure } from "../shared/failure";

/** Every adapter a comparison can run under, in the order they are offered and run. */
export const ADAPTERS: readonly AdapterKind[] = ["dynamic", "restart", "allowed_tools", "deferred", "tool_addition"];

/**
 * A comparison as the timeline draws it: where it is, the events of each lane as they arrived, and
 * its report once done (a comparison of the compare page, or runs kept in the history).
 */
export interface RunState {
  id: number;
  status: "running" | "finished" | "cancelled" | "failed";
  /** The lanes it fills, in the order they run: its adapters, then a scripted one's baseline. */
  lanes: Lane[];
  /**
   * The lanes whose runs have started, in that order: one after the other, or all at once when
   * they run side by side (attached to a relay session, they share its plugin).
   */
  started: Lane[];
  /** The events of each of its lanes (every lane of `lanes` has an entry, empty until its run starts). */
  events: Partial<Record<Lane, RunEvent[]>>;
  /** The text a live model is writing in each lane, until its answer is whole (its model_call). */
  writing: Partial<Record<Lane, string>>;
  report: ComparisonReport | null;
  /** Why it failed (status `failed`). */
  failure: Failure | null;
  /** What it ran on, as one text (the compare page's `inputsOf`; empty for kept runs). */
  inputs: string;
}

/** An event picked on the timeline. */
export interface PickedEvent {
  lane: Lane;
  event: RunEvent;
}

/** The request and answer of the picked event's model call. */
export type CallDetail =
  | { kind: "none" }
  | { kind: "loading" }
  | { kind: "ready"; call: CallRequest; against: AgainstCall | null }
  | { kind: "failed"; failure: Failure };

/**
 * What the picked model call's request is diffed against: the same lane's previous call, or the
 * call of the same number in another lane (at the first divergence, what changed between lanes).
 */
export type DiffTarget = { kind: "previous" } | { kind: "lane"; lane: Lane };

/** The request a picked call is diffed against, and where it comes from. */
export interface AgainstCall {
  lane: Lane;
  callIndex: number;
  call: CallRequest;
}

/** The lane and call a picked call (`lane`, `callIndex`) is diffed against under `target`; null: none. */
export function againstPlace(
  target: DiffTarget,
  lane: Lane,
  callIndex: number,
): { lane: Lane; callIndex: number } | null {
  if (target.kind === "previous") return callIndex > 1 ? { lane, callIndex: callIndex - 1 } : null;
  return target.lane === lane ? null : { lane: target.lane, callIndex };
}

/** The model call an event belongs to (none for events before the first call). */
export function callIndexOf(event: RunEvent, events: readonly RunEvent[]): number | null {
  if (event.type === "model_call" || event.type === "tool_call") return event.call_index;
  let index: number | null = null;
  for (const other of events) {
    if (other.seq > event.seq) break;
    if (other.type === "model_call") index = other.call_index;
  }
  return index;
}
