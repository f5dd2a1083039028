// The event detail's content as plain data: an event's fields in words (enums worded by words.ts, and
// whether a restart discarded the call), the request a model call
// sent split into what a reader looks for (the system prompt, the messages after it, the tools, the
// answer), copying text to the clipboard with a reason when it cannot be done, and whether an
// Escape press is the detail's to close it.
import type { CallRequest, JsonValue, RunEvent } from "../platform";
import { discardText, type Discard } from "./timeline";
import {
  DELIVERY_DETAIL,
  LIMIT_NAMES,
  loopWarningText,
  PREFIX_BREAK_WORDS,
  restartText,
  statusText,
  TIER_WORDS,
  pendingChangeText,
  pendingShowsText,
} from "../shared/words";

/** One field of an event: its label and its value as text; `json` values are shown as a block. */
export interface EventField {
  label: string;
  text: string;
  json?: boolean;
}

/** JSON as people read it: two-space indents, one key per line. */
export function prettyJson(value: JsonValue): string {
  return JSON.stringify(value, null, 2);
}

function list(names: readonly string[]): string {
  return names.length === 0 ? "none" : names.join(", ");
}

/**
 * What the event says, field by field (its kind, lane, seq and attempt are the detail's heading);
 * a model call or tool call a restart threw away (`discard`, from `discards` of its run) says so.
 */
export function eventFields(event: RunEvent, discard: Discard | null = null): EventField[] {
  const fields = fieldsOf(event);
  if (discard === null || (event.type !== "model_call" && event.type !== "tool_call")) return fields;
  return [...fields, { label: "Discarded", text: discardText(discard, event.type) }];
}

function fieldsOf(event: RunEvent): EventField[] {
  switch (event.type) {
    case "run_started":
      return [
        { label: "Adapter", text: event.adapter },
        { label: "Template", text: event.template },
      ];
    case "adapter_substituted":
      return [
        { label: "Asked for", text: `the ${event.requested} adapter` },
        { label: "Runs as", text: `the ${event.adapter} adapter` },
        { label: "Why", text: event.reason },
      ];
    case "tools_discovered":
      return [
        { label: "Source", text: event.source },
        { label: "Tools from", text: TIER_WORDS[event.tier] },
        { label: "Tools", text: list(event.tools) },
        ...(event.error === undefined ? [] : [{ label: "Why", text: event.error }]),
      ];
    case "model_call":
      return [
        { label: "Model call", text: String(event.call_index) },
        { label: "Tools offered", text: list(event.tools_offered) },
        { label: "Prompt tokens", text: String(event.prompt_tokens) },
        { label: "Completion tokens", text: String(event.completion_tokens) },
        ...prefixRows(event.prefix),
        ...(event.text == null ? [] : [{ label: "The model said", text: event.text }]),
      ];
    case "tool_call":
      return [
        { label: "Tool", text: event.name },
        { label: "Outcome", text: event.success ? "ok" : "failed" },
        { label: "Asked by model call", text: String(event.call_index) },
        { label: "Call id", text: event.call_id },
        { label: "Arguments", text: prettyJson(event.args), json: true },
        { label: "Result", text: prettyJson(event.result), json: true },
      ];
    case "tools_injected":
      return [
        { label: "Tools", text: list(event.tool_names) },
        { label: "Offered by", text: event.section_key ?? "a change of the tool list" },
        // Listed (the dynamic adapter's way) goes without saying; the others say how.
        ...(event.delivery === undefined || event.delivery === "listed"
          ? []
          : [{ label: "Delivered", text: DELIVERY_DETAIL[event.delivery] }]),
      ];
    case "tool_injection_skipped":
      return [
        { label: "Tool", text: event.tool_name },
        { label: "Offered by", text: event.section_key ?? "a change of the tool list" },
        { label: "Why", text: "a tool of that name is already offered" },
      ];
    case "tools_removed":
    case "tools_modified":
      return [{ label: "Tools", text: list(event.tool_names) }];
    case "tools_listed":
      return [
        { label: "Listed", text: list(event.tool_names) },
        { label: "By", text: "the host, from the template's MCP server" },
      ];
    case "tool_not_shown":
      return [
        { label: "Tool", text: event.tool_name },
        { label: "Why", text: "the script called it, but the host's request did not offer it: the call was not made" },
      ];
    case "user_turn":
      return [{ label: "Turn", text: String(event.turn) }];
    case "tools_pending":
      return [
        ...(event.section_key == null ? [] : [{ label: "Section", text: event.section_key }]),
        { label: "Changed", text: pendingChangeText(event) },
        { label: "Shown", text: pendingShowsText(event.shows) },
      ];
    case "visibility_changed":
      return [{ label: "Sections made FULL", text: list(event.section_keys) }];
    case "restart":
      return [
        { label: "Reason", text: restartText(event.reason, []) },
        { label: "Sections expanded", text: list(event.section_keys) },
        ...(event.message === undefined ? [] : [{ label: "The model's reason", text: event.message }]),
      ];
    case "tool_availability_changed":
      return [
        { label: "Before model call", text: String(event.at_model_call) },
        { label: "Changed by", text: event.source ?? "the scenario's tool changes" },
        { label: "Added", text: list(event.added) },
        { label: "Removed", text: list(event.removed) },
        ...(event.modified === undefined || event.modified.length === 0
          ? []
          : [{ label: "Described anew", text: list(event.modified) }]),
      ];
    case "loop_warning":
      return [
        { label: "Loop", text: loopWarningText(event).replace(/^loop warning: /, "") },
        { label: "Told the model", text: event.message },
      ];
    case "limit_reached":
      return [
        { label: "Limit", text: LIMIT_NAMES[event.limit] },
        { label: "Value", text: String(event.value) },
      ];
    case "run_completed":
      return [
        { label: "Status", text: statusText(event.status) },
        { label: "Final answer", text: event.final ?? "none" },
        ...(event.error === undefined ? [] : [{ label: "Error", text: event.error }]),
      ];
  }
}

/** A model call's request, as the detail shows it. */
export interface RequestParts {
  /** The system message's text; null when the request has none. */
  system: string | null;
  /** The messages after the system message (the user's, the model's, the tool results). */
  messages: JsonValue[];
  /** The `tools` of the request body: OpenAI Chat Completions tool objects (a real host's, in its API's shape). */
  tools: JsonValue[];
  /** The model's answer, as the assistant message it stands for. */
  response: JsonValue;
}

function fieldOf(value: JsonValue, key: string): JsonValue | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? value[key] : undefined;
}

function arrayOf(value: JsonValue | undefined): JsonValue[] {
  return Array.isArray(value) ? value : [];
}

/** A system prompt as a request holds it: its text, or the text of its parts (Anthropic's blocks, Gemini's parts). */
function systemText(value: JsonValue | undefined): string | null {
  if (typeof value === "string") return value;
  const parts = Array.isArray(value) ? value : arrayOf(fieldOf(value ?? null, "parts"));
  const texts = parts.map((part) => fieldOf(part, "text")).filter((text) => typeof text === "string");
  return texts.length === 0 ? null : texts.join("");
}

/**
 * Splits the request body into its system prompt, the messages after it and the tools: an OpenAI Chat
 * body as Unfold's lanes send it, or, for a real host's lane, the body the host sent in its API's
 * shape (Responses' `instructions` and `input`, Anthropic's `system` and `messages`, Gemini's
 * `systemInstruction` and `contents`).
 */
export function requestParts(call: CallRequest): RequestParts {
  const tools = arrayOf(fieldOf(call.body, "tools"));
  const input = fieldOf(call.body, "input");
  if (input !== undefined) {
    const messages = typeof input === "string" ? [{ role: "user", content: input }] : arrayOf(input);
    return { system: systemText(fieldOf(call.body, "instructions")), messages, tools, response: call.response };
  }
  const contents = fieldOf(call.body, "contents");
  if (contents !== undefined) {
    const system = systemText(fieldOf(call.body, "systemInstruction") ?? fieldOf(call.body, "system_instruction"));
    return { system, messages: arrayOf(contents), tools, response: call.response };
  }
  const anthropicSystem = fieldOf(call.body, "system");
  if (anthropicSystem !== undefined) {
    const messages = arrayOf(fieldOf(call.body, "messages"));
    return { system: systemText(anthropicSystem), messages, tools, response: call.response };
  }
  const messages = arrayOf(fieldOf(call.body, "messages"));
  const [first, ...rest] = messages;
  const content = first === undefined || fieldOf(first, "role") !== "system" ? undefined : fieldOf(first, "content");
  const system = typeof content === "string" ? content : null;
  return {
    system,
    messages: system === null ? messages : rest,
    tools: arrayOf(fieldOf(call.body, "tools")),
    response: call.response,
  };
}

/** The part of the Clipboard API the copy buttons use. */
export interface TextClipboard {
  writeText(text: string): Promise<void>;
}

/** The window's clipboard, when the page may use it (a secure context, and a webview that has one). */
function windowClipboard(): TextClipboard | null {
  return (navigator as { clipboard?: TextClipboard }).clipboard ?? null;
}

/** Copies `text` and says how it went: "Copied", or why it was not copied. */
export async function copyText(text: string, clipboard: TextClipboard | null = windowClipboard()): Promise<string> {
  if (clipboard === null) return "Not copied: this window cannot use the clipboard";
  try {
    await clipboard.writeText(text);
    return "Copied";
  } catch (error) {
    return `Not copied: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** The parts of a key press `escapeClosesDetail` looks at (a `KeyboardEvent` has them all). */
export interface EscapePress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
  isComposing: boolean;
  defaultPrevented: boolean;
  target: EventTarget | null;
}

/** Input types whose field is typed in (Escape may be the field's: a search field clears itself). */
const CLICKED_INPUTS: ReadonlySet<string> = new Set([
  "checkbox",
  "radio",
  "button",
  "submit",
  "reset",
  "range",
  "color",
  "file",
]);

/** Whether `element` is a field that may use Escape itself: a text field, a list or an editor. */
function usesEscape(element: HTMLElement): boolean {
  if (element.isContentEditable || element.tagName === "TEXTAREA" || element.tagName === "SELECT") return true;
  return element instanceof HTMLInputElement && !CLICKED_INPUTS.has(element.type);
}

/**
 * Whether Escape, as pressed, closes the event detail of the compare view `view`: a plain Escape
 * that nothing took (a field, an input method, a dialog) while no modal dialog is open, with the
 * focus in the view or nowhere (a clicked button keeps no focus in some web views).
 */
export function escapeClosesDetail(press: EscapePress, view: HTMLElement): boolean {
  if (press.key !== "Escape" || press.ctrlKey || press.metaKey || press.altKey || press.shiftKey) return false;
  if (press.isComposing || press.defaultPrevented) return false;
  const page = view.ownerDocument;
  if (page.querySelector('[aria-modal="true"]') !== null) return false;
  const { target } = press;
  if (target === page.body || target === page.documentElement || target === page) return true;
  // A dialog's Escape may have removed it already: a target no longer on the page was not in the view.
  if (!(target instanceof HTMLElement) || !target.isConnected || !view.contains(target)) return false;
  return target.closest('[role="dialog"], [role="alertdialog"]') === null && !usesEscape(target);
}

/** What a model call's prompt shares with the previous call's, and why not more. */
function prefixRows(prefix: Extract<RunEvent, { type: "model_call" }>["prefix"]): EventField[] {
  if (prefix == null || prefix.previous_tokens === 0) return [];
  const rows: EventField[] = [
    {
      label: "Shared with the previous prompt",
      text: `${String(prefix.shared_tokens)} of ${String(prefix.previous_tokens)} tokens`,
    },
  ];
  if (prefix.broke != null) rows.push({ label: "Cache prefix broken", text: PREFIX_BREAK_WORDS[prefix.broke] });
  return rows;
}
