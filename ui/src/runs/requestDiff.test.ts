import { describe, expect, it } from "vitest";
import type { RequestParts } from "./detail";
import { diffSummary, requestDiff, systemDiff } from "./requestDiff";

function parts(system: string, tools: string[], messages: string[]): RequestParts {
  return {
    system,
    tools: tools.map((name) => ({ type: "function", function: { name, description: `${name} does it` } })),
    messages: messages.map((content) => ({ role: "user", content })),
    response: null,
  };
}

describe("requestDiff", () => {
  it("names the tools added, removed and described anew, and the messages the conversation went on with", () => {
    const before = parts("a", ["lookup", "search", "cite"], ["hi"]);
    const after = parts("a", ["lookup", "cite", "deploy"], ["hi", "more", "again"]);
    const cite = after.tools[1];
    if (typeof cite === "object" && cite !== null && !Array.isArray(cite)) cite.description = "cites";
    const diff = requestDiff(before, after);
    expect(diff).toMatchObject({
      toolsAdded: ["deploy"],
      toolsRemoved: ["search"],
      toolsChanged: ["cite"],
      system: [],
      messagesAdded: 2,
      messagesDropped: 0,
    });
    expect(diffSummary(diff)).toEqual([
      "Tools added: deploy",
      "Tools removed: search",
      "Tools described anew: cite",
      "2 messages added",
    ]);
  });

  it("says when the conversation began again (a restart sends fewer of the earlier messages)", () => {
    const diff = requestDiff(parts("a", [], ["hi", "x", "y"]), parts("a", [], ["hi"]));
    expect(diffSummary(diff)).toEqual(["The conversation began again: 2 earlier messages not sent"]);
    expect(diffSummary(requestDiff(parts("a", [], ["hi"]), parts("a", [], ["hi"])))).toEqual(["The same request"]);
  });

  it("shows the system prompt's changed lines with two lines of context and folds the rest", () => {
    const lines = Array.from({ length: 20 }, (_, i) => `line ${String(i)}`);
    const changed = lines.map((line, i) => (i === 10 ? "line ten, rewritten" : line));
    expect(systemDiff(lines.join("\n"), changed.join("\n"))).toEqual([
      { kind: "folded", count: 8 },
      { kind: "kept", text: "line 8" },
      { kind: "kept", text: "line 9" },
      { kind: "removed", text: "line 10" },
      { kind: "added", text: "line ten, rewritten" },
      { kind: "kept", text: "line 11" },
      { kind: "kept", text: "line 12" },
      { kind: "folded", count: 7 },
    ]);
    expect(systemDiff("same", "same")).toEqual([]);
  });
});
