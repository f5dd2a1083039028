// detail.ts: an event's fields in words, a model call's request split into system prompt, messages,
// tools and answer, copying with the reason when the clipboard refuses, and which Escape presses
// close the event detail.
import { afterEach, describe, expect, it } from "vitest";
import type { CallRequest, RunEvent } from "../platform";
import { lookupFirstReport } from "../testing/fakeCompare";
import { copyText, escapeClosesDetail, eventFields, prettyJson, requestParts, type EscapePress } from "./detail";
import { discards } from "./timeline";

function restartEvent(seq: number): RunEvent {
  const event = lookupFirstReport().runs[1]?.events.find((e) => e.seq === seq);
  if (event === undefined) throw new Error(`no restart event ${String(seq)}`);
  return event;
}

describe("eventFields", () => {
  it("shows a tool call's name, outcome, and its arguments and result as pretty JSON", () => {
    const fields = eventFields(restartEvent(2));
    expect(fields.map((f) => f.label)).toEqual([
      "Tool",
      "Outcome",
      "Asked by model call",
      "Call id",
      "Arguments",
      "Result",
    ]);
    expect(fields.find((f) => f.label === "Arguments")).toEqual({
      label: "Arguments",
      text: '{\n  "id": 7\n}',
      json: true,
    });
    expect(fields.find((f) => f.label === "Outcome")?.text).toBe("ok");
  });

  it("shows a model call's offered tools, tokens, and what its prompt shares with the previous call's", () => {
    expect(eventFields(restartEvent(7))).toEqual([
      { label: "Model call", text: "3" },
      { label: "Tools offered", text: "lookup, search, cite, read_section" },
      { label: "Prompt tokens", text: "291" },
      { label: "Completion tokens", text: "6" },
      // The restart's new tools come first in the prompt: nothing of the previous one is shared.
      { label: "Shared with the previous prompt", text: "0 of 221 tokens" },
      { label: "Cache prefix broken", text: "the run restarted" },
    ]);
    const first = restartEvent(1);
    expect(eventFields(first).map((field) => field.label)).toEqual([
      "Model call",
      "Tools offered",
      "Prompt tokens",
      "Completion tokens",
    ]);
    // The answer that ended the run: its words, which a fork replays.
    const last = lookupFirstReport()
      .runs[1]?.events.filter((e) => e.type === "model_call")
      .at(-1);
    expect(last === undefined ? [] : eventFields(last).at(-1)).toEqual({
      label: "The model said",
      text: "Fixed the login flow.",
    });
  });

  it("shows how injected tools reached the model when they were not simply listed", () => {
    const injected: RunEvent = {
      type: "tools_injected",
      section_key: "context",
      tool_names: ["search"],
      seq: 4,
      attempt: 1,
    };
    expect(eventFields(injected)).toEqual([
      { label: "Tools", text: "search" },
      { label: "Offered by", text: "context" },
    ]);
    expect(eventFields({ ...injected, delivery: "listed" })).toEqual(eventFields(injected));
    expect(eventFields({ ...injected, delivery: "allowed" }).at(-1)).toEqual({
      label: "Delivered",
      text: "already sent; now in the callable subset (allowed_tools)",
    });
    expect(eventFields({ ...injected, delivery: "referenced" }).at(-1)).toEqual({
      label: "Delivered",
      text: "already sent deferred; now loaded by tool_reference blocks in the tool result",
    });
  });

  it("shows a loop warning with the words the model was told", () => {
    const warning: RunEvent = {
      type: "loop_warning",
      seq: 9,
      attempt: 1,
      call_id: "call_4_1",
      kind: "pattern",
      tools: ["lookup", "broken"],
      message: "Loop warning: your calls `lookup`, `broken` have repeated in the same order with the same arguments.",
    };
    expect(eventFields(warning)).toEqual([
      { label: "Loop", text: "lookup, broken repeated in the same order" },
      { label: "Told the model", text: warning.message },
    ]);
  });

  it("shows where a source's tools came from, and why a lower tier was used", () => {
    const discovered: RunEvent = {
      type: "tools_discovered",
      source: "docs",
      tier: "none",
      tools: [],
      error: "not started",
      seq: 1,
      attempt: 1,
    };
    expect(eventFields(discovered)).toEqual([
      { label: "Source", text: "docs" },
      { label: "Tools from", text: "none" },
      { label: "Tools", text: "none" },
      { label: "Why", text: "not started" },
    ]);
  });

  it("says which adapter runs in place of the one asked for, and why", () => {
    const reason = "provider 'harness' takes its tools once per conversation";
    const substituted: RunEvent = {
      type: "adapter_substituted",
      requested: "dynamic",
      adapter: "restart",
      reason,
      seq: 1,
      attempt: 1,
    };
    expect(eventFields(substituted)).toEqual([
      { label: "Asked for", text: "the dynamic adapter" },
      { label: "Runs as", text: "the restart adapter" },
      { label: "Why", text: reason },
    ]);
  });

  it("shows a marker's fields", () => {
    expect(eventFields(restartEvent(6))).toEqual([
      { label: "Reason", text: "restarted to expand a section" },
      { label: "Sections expanded", text: "context" },
    ]);
    const skipped: RunEvent = {
      type: "tool_injection_skipped",
      section_key: null,
      tool_name: "cite",
      seq: 1,
      attempt: 1,
    };
    expect(eventFields(skipped).find((f) => f.label === "Offered by")?.text).toBe("a change of the tool list");
    const ended: RunEvent = {
      type: "run_completed",
      status: "error",
      final: null,
      error: "provider down",
      seq: 2,
      attempt: 1,
    };
    expect(eventFields(ended)).toEqual([
      { label: "Status", text: "failed with an error" },
      { label: "Final answer", text: "none" },
      { label: "Error", text: "provider down" },
    ]);
  });

  it("words limits and statuses, never their raw enums", () => {
    const limit: RunEvent = { type: "limit_reached", limit: "max_model_calls", value: 2, seq: 7, attempt: 2 };
    expect(eventFields(limit)).toEqual([
      { label: "Limit", text: "max model calls" },
      { label: "Value", text: "2" },
    ]);
    const stopped: RunEvent = { type: "run_completed", status: "turn_limit", final: null, seq: 8, attempt: 2 };
    expect(eventFields(stopped)[0]).toEqual({ label: "Status", text: "stopped at the model call limit" });
  });

  it("says a call the restart threw away is discarded, and where a discarded tool call was made again", () => {
    const events = lookupFirstReport().runs[1]?.events ?? [];
    const discarded = discards(events);
    expect(eventFields(restartEvent(1), discarded.get(1)).at(-1)).toEqual({
      label: "Discarded",
      text: "the restart after call 2 threw attempt 1 away; its prompt tokens still count",
    });
    expect(eventFields(restartEvent(2), discarded.get(2)).at(-1)).toEqual({
      label: "Discarded",
      text: "the restart after call 2 threw attempt 1 away; made again at call 3",
    });
    expect(eventFields(restartEvent(7), discarded.get(7)).map((f) => f.label)).not.toContain("Discarded");
  });
});

describe("requestParts", () => {
  const request = (body: CallRequest["body"]): CallRequest => ({
    call_index: 2,
    attempt: 1,
    body,
    response: { role: "assistant", content: "Done." },
  });

  it("splits the body into the system prompt, the messages after it and the tools", () => {
    const user = { role: "user", content: "Hi" };
    const tools = [{ type: "function", function: { name: "lookup" } }];
    const parts = requestParts(request({ messages: [{ role: "system", content: "You are…" }, user], tools }));
    expect(parts).toEqual({
      system: "You are…",
      messages: [user],
      tools,
      response: { role: "assistant", content: "Done." },
    });
  });

  it("keeps every message when the first is not a system message, and no tools when there are none", () => {
    const user = { role: "user", content: "Hi" };
    expect(requestParts(request({ messages: [user] }))).toMatchObject({ system: null, messages: [user], tools: [] });
    expect(requestParts(request(null))).toMatchObject({ system: null, messages: [], tools: [] });
  });

  it("reads a real host's request in its own API's shape", () => {
    const item = { role: "user", content: "Hi" };
    const tools = [{ type: "function", name: "lookup" }];
    // OpenAI Responses, as openai-agents sends it.
    expect(requestParts(request({ instructions: "Be brief.", input: [item], tools }))).toMatchObject({
      system: "Be brief.",
      messages: [item],
      tools,
    });
    expect(requestParts(request({ input: "Hi" }))).toMatchObject({ system: null, messages: [item] });
    // Anthropic Messages, its system prompt in blocks.
    const blocks = [
      { type: "text", text: "Be " },
      { type: "text", text: "brief." },
    ];
    expect(requestParts(request({ system: blocks, messages: [item] }))).toMatchObject({
      system: "Be brief.",
      messages: [item],
    });
    // Gemini.
    const content = { role: "user", parts: [{ text: "Hi" }] };
    const gemini = { systemInstruction: { parts: [{ text: "Be brief." }] }, contents: [content] };
    expect(requestParts(request(gemini))).toMatchObject({ system: "Be brief.", messages: [content] });
  });
});

describe("prettyJson", () => {
  it("indents by two spaces", () => {
    expect(prettyJson({ a: [1] })).toBe('{\n  "a": [\n    1\n  ]\n}');
  });
});

describe("copyText", () => {
  it("says Copied once the clipboard took the text", async () => {
    const copied: string[] = [];
    const clipboard = {
      writeText: (text: string) => {
        copied.push(text);
        return Promise.resolve();
      },
    };
    expect(await copyText("prompt", clipboard)).toBe("Copied");
    expect(copied).toEqual(["prompt"]);
  });

  it("says why not when there is no clipboard or it refuses", async () => {
    expect(await copyText("prompt", null)).toBe("Not copied: this window cannot use the clipboard");
    const refusing = { writeText: () => Promise.reject(new Error("Write permission denied.")) };
    expect(await copyText("prompt", refusing)).toBe("Not copied: Write permission denied.");
  });
});

describe("escapeClosesDetail", () => {
  /** A compare view on the page, with a button, fields, a dialog inside it, and a button outside it. */
  function page() {
    const view = document.createElement("div");
    view.innerHTML = `
      <button id="event">call 1</button>
      <input id="name" type="text"><input id="search" type="search"><input id="tick" type="checkbox">
      <textarea id="user"></textarea><select id="model"><option>x</option></select>
      <div id="editor" contenteditable="true"></div>
      <div role="dialog"><button id="in-dialog">Save</button></div>`;
    const outside = document.createElement("button");
    document.body.append(view, outside);
    const at = (id: string) => view.querySelector<HTMLElement>(`#${id}`) as HTMLElement;
    return { view, outside, at };
  }

  const escape = (target: EventTarget | null, mods: Partial<EscapePress> = {}): EscapePress => ({
    key: "Escape",
    ctrlKey: false,
    metaKey: false,
    altKey: false,
    shiftKey: false,
    isComposing: false,
    defaultPrevented: false,
    target,
    ...mods,
  });

  afterEach(() => {
    document.body.replaceChildren();
  });

  it("closes on a plain Escape with the focus on a button in the view, or nowhere", () => {
    const { view, at } = page();
    expect(escapeClosesDetail(escape(at("event")), view)).toBe(true);
    expect(escapeClosesDetail(escape(at("tick")), view)).toBe(true);
    expect(escapeClosesDetail(escape(document.body), view)).toBe(true);
  });

  it("leaves Escape to the fields that may use it: text, search, lists and editors", () => {
    const { view, at } = page();
    for (const id of ["name", "search", "user", "model", "editor"])
      expect(escapeClosesDetail(escape(at(id)), view)).toBe(false);
  });

  it("leaves another key, a modified Escape, an input method's and a taken Escape alone", () => {
    const { view, at } = page();
    const button = at("event");
    expect(escapeClosesDetail({ ...escape(button), key: "Enter" }, view)).toBe(false);
    for (const mods of [{ ctrlKey: true }, { metaKey: true }, { altKey: true }, { shiftKey: true }]) {
      expect(escapeClosesDetail(escape(button, mods), view)).toBe(false);
    }
    expect(escapeClosesDetail(escape(button, { isComposing: true }), view)).toBe(false);
    expect(escapeClosesDetail(escape(button, { defaultPrevented: true }), view)).toBe(false);
  });

  it("leaves Escape to a dialog, to a modal one wherever the focus is, and to the rest of the page", () => {
    const { view, outside, at } = page();
    expect(escapeClosesDetail(escape(at("in-dialog")), view)).toBe(false);
    expect(escapeClosesDetail(escape(outside), view)).toBe(false);
    const gone = at("event");
    gone.remove();
    expect(escapeClosesDetail(escape(gone), view)).toBe(false);
    const modal = document.createElement("div");
    modal.setAttribute("aria-modal", "true");
    document.body.append(modal);
    expect(escapeClosesDetail(escape(document.body), view)).toBe(false);
    expect(escapeClosesDetail(escape(at("tick")), view)).toBe(false);
  });
});
