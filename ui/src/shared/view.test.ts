// Tests for view.ts: tool names from OpenAI tool objects, token wording, window title.
import { describe, expect, it } from "vitest";
import type { JsonValue } from "../platform";
import { fileName, formatTokens, toolNames, windowTitle } from "./view";

const offered: JsonValue[] = [
  { type: "function", function: { name: "lookup", description: "Look up an issue", parameters: {} } },
  { type: "function", function: { name: "read_section", parameters: {} } },
];

describe("toolNames", () => {
  it("reads function.name in offered order", () => {
    expect(toolNames(offered)).toEqual(["lookup", "read_section"]);
  });

  it("accepts a bare {name} and labels malformed entries instead of failing", () => {
    expect(toolNames([{ name: "flat" }, null, "x", [], { function: { name: "" } }])).toEqual([
      "flat",
      "(unnamed tool)",
      "(unnamed tool)",
      "(unnamed tool)",
      "(unnamed tool)",
    ]);
  });
});

describe("formatTokens", () => {
  it.each([
    [0, "0 prompt tokens"],
    [1, "1 prompt token"],
    [1234, "1,234 prompt tokens"],
  ])("%d -> %s", (count, expected) => {
    expect(formatTokens(count)).toBe(expected);
  });
});

describe("windowTitle", () => {
  it.each([
    ["/t/task.unfold.json", false, "task.unfold.json — /t/task.unfold.json"],
    ["/t/task.unfold.json", true, "task.unfold.json • — /t/task.unfold.json"],
    ["C:\\t\\task.unfold.json", false, "task.unfold.json — C:\\t\\task.unfold.json"],
    [null, true, "Untitled •"],
  ] as const)("%s (dirty: %s) -> %s", (path, dirty, title) => {
    expect(windowTitle(path, dirty)).toBe(title);
  });

  it("takes the last part of a path", () => {
    expect(fileName("a/b/c.json")).toBe("c.json");
    expect(fileName("c.json")).toBe("c.json");
  });
});
