// What changed between two model calls' requests, as a reader asks it: which tools came or went
// (or were described anew), which lines of the system prompt changed (with a few lines of context,
// the unchanged runs between them folded), and whether the conversation went on (messages added)
// or began again. Two 19,000-token prompts side by side hide the three lines that differ; this
// shows those lines. Line diffs come from jsdiff (`diff`).
import { diffLines } from "diff";
import type { JsonValue } from "../platform";
import type { RequestParts } from "./detail";

/** A line of the system prompt's diff: kept, added, removed, or a fold of `count` kept lines. */
export type DiffLine = { kind: "kept" | "added" | "removed"; text: string } | { kind: "folded"; count: number };

/** The changes from one request (`before`) to another (`after`). */
export interface RequestDiff {
  /** Tools `after` offers that `before` did not, by name. */
  toolsAdded: string[];
  /** Tools `before` offered that `after` does not. */
  toolsRemoved: string[];
  /** Tools both offer, described differently. */
  toolsChanged: string[];
  /** The system prompt's lines, changed ones with `CONTEXT` kept lines around them; empty when equal. */
  system: DiffLine[];
  /** Messages `after` has past those it shares with `before` from the start. */
  messagesAdded: number;
  /** Messages of `before` that `after` does not go on from (a restart, another conversation). */
  messagesDropped: number;
}

/** Kept lines shown around a change. */
const CONTEXT = 2;

function toolName(tool: JsonValue): string {
  if (typeof tool !== "object" || tool === null || Array.isArray(tool)) return "";
  const fn = tool.function;
  const name = typeof fn === "object" && fn !== null && !Array.isArray(fn) ? fn.name : tool.name;
  return typeof name === "string" ? name : "";
}

function byName(tools: readonly JsonValue[]): Map<string, string> {
  return new Map(tools.map((tool) => [toolName(tool), JSON.stringify(tool)]));
}

/** The lines of `text`, without the empty one a final newline leaves. */
function linesOf(text: string): string[] {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

/** The system prompt's changed lines, with `CONTEXT` kept lines around each and the rest folded. */
export function systemDiff(before: string, after: string): DiffLine[] {
  if (before === after) return [];
  const lines: DiffLine[] = diffLines(before, after).flatMap((change) => {
    const kind = change.added ? "added" : change.removed ? "removed" : "kept";
    return linesOf(change.value).map((text) => ({ kind, text }));
  });
  const near = lines.map((_, i) =>
    lines.slice(Math.max(0, i - CONTEXT), i + CONTEXT + 1).some((other) => other.kind !== "kept"),
  );
  const shown: DiffLine[] = [];
  let folded = 0;
  lines.forEach((line, i) => {
    if (line.kind === "kept" && near[i] === false) {
      folded += 1;
      return;
    }
    if (folded > 0) shown.push({ kind: "folded", count: folded });
    folded = 0;
    shown.push(line);
  });
  if (folded > 0) shown.push({ kind: "folded", count: folded });
  return shown;
}

/** How many messages `a` and `b` share from the start. */
function sharedStart(a: readonly JsonValue[], b: readonly JsonValue[]): number {
  let shared = 0;
  while (shared < a.length && shared < b.length && JSON.stringify(a[shared]) === JSON.stringify(b[shared])) {
    shared += 1;
  }
  return shared;
}

/** The changes from `before` to `after`. */
export function requestDiff(before: RequestParts, after: RequestParts): RequestDiff {
  const [was, is] = [byName(before.tools), byName(after.tools)];
  const shared = sharedStart(before.messages, after.messages);
  return {
    toolsAdded: [...is.keys()].filter((name) => !was.has(name)),
    toolsRemoved: [...was.keys()].filter((name) => !is.has(name)),
    toolsChanged: [...is.keys()].filter((name) => was.has(name) && was.get(name) !== is.get(name)),
    system: systemDiff(before.system ?? "", after.system ?? ""),
    messagesAdded: after.messages.length - shared,
    messagesDropped: before.messages.length - shared,
  };
}

/** The diff's tools and messages in words, a line each; "the same request" when nothing changed. */
export function diffSummary(diff: RequestDiff): string[] {
  const lines: string[] = [];
  const names = (list: readonly string[]) => list.join(", ");
  if (diff.toolsAdded.length > 0) lines.push(`Tools added: ${names(diff.toolsAdded)}`);
  if (diff.toolsRemoved.length > 0) lines.push(`Tools removed: ${names(diff.toolsRemoved)}`);
  if (diff.toolsChanged.length > 0) lines.push(`Tools described anew: ${names(diff.toolsChanged)}`);
  const changed = diff.system.filter((line) => line.kind === "added" || line.kind === "removed").length;
  if (changed > 0) lines.push(`System prompt: ${String(changed)} line${changed === 1 ? "" : "s"} changed`);
  if (diff.messagesDropped > 0)
    lines.push(
      `The conversation began again: ${String(diff.messagesDropped)} earlier message${diff.messagesDropped === 1 ? "" : "s"} not sent`,
    );
  if (diff.messagesAdded > 0)
    lines.push(`${String(diff.messagesAdded)} message${diff.messagesAdded === 1 ? "" : "s"} added`);
  return lines.length === 0 ? ["The same request"] : lines;
}
