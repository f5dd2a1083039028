// Tests for view.ts: tool names from OpenAI tool objects, token wording, error text, window title,
// start-up flow.
import { describe, expect, it } from "vitest";
import type { DocumentView, ErrorCode, JsonValue, Outcome, Platform } from "../platform";
import { FakePlatform } from "../testing/fakePlatform";
import { describeError, fileName, formatTokens, loadInitialView, toolNames, windowTitle } from "./view";

const offered: JsonValue[] = [
  { type: "function", function: { name: "lookup", description: "Look up an issue", parameters: {} } },
  { type: "function", function: { name: "read_section", parameters: {} } },
];

function fakePlatform(over: Partial<Platform> = {}): Platform {
  const fake = new FakePlatform("/t/a.unfold.json");
  return Object.assign(fake, over);
}

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

describe("describeError", () => {
  it("keeps the backend message, which names the file", () => {
    expect(
      describeError({ code: "invalid_template", message: "/t/broken.json:1:2: expected value", problems: [] }),
    ).toEqual({
      title: "This template cannot be opened",
      detail: "/t/broken.json:1:2: expected value",
    });
  });

  it("tells an unreadable file from an invalid one", () => {
    expect(describeError({ code: "unreadable_file", message: "/t/a.json: cannot read", problems: [] }).title).toBe(
      "This template cannot be read",
    );
  });

  it("gives every error code its own title", () => {
    // A record over the generated ErrorCode: a code added in Rust fails to compile here until listed.
    const every: Record<ErrorCode, true> = {
      unreadable_file: true,
      invalid_template: true,
      invalid_scenario: true,
      invalid_profiles: true,
      invalid_tools: true,
      invalid_edit: true,
      invalid_request: true,
      unknown_document: true,
      not_found: true,
      unavailable: true,
      cancelled: true,
      provider: true,
      internal: true,
    };
    const codes = Object.keys(every) as ErrorCode[];
    const titles = codes.map((code) => describeError({ code, message: "m", problems: [] }).title);
    expect(new Set(titles).size).toBe(codes.length);
  });

  it("says when the backend could not be reached", () => {
    expect(describeError({ code: "ipc_failed", message: "command not allowed" }).title).toBe(
      "The app could not reach its backend",
    );
  });
});

describe("loadInitialView", () => {
  it("shows a notice outside Tauri without calling the backend", async () => {
    const calls: string[] = [];
    const view = await loadInitialView(
      fakePlatform({
        isTauri: () => false,
        initialTemplatePath: () => {
          calls.push("initialTemplatePath");
          return Promise.resolve({ ok: true, value: null });
        },
      }),
    );
    expect(view).toEqual({ kind: "outside_tauri" });
    expect(calls).toEqual([]);
  });

  it("asks for a template when the app was started without one", async () => {
    const view = await loadInitialView(
      fakePlatform({ initialTemplatePath: () => Promise.resolve({ ok: true, value: null }) }),
    );
    expect(view).toEqual({ kind: "no_template" });
  });

  it("opens the launch template", async () => {
    const platform = new FakePlatform("/t/a.unfold.json");
    expect(await loadInitialView(platform)).toEqual({ kind: "open", document: platform.view() });
    expect(platform.argsOf("openDocument")).toEqual([["/t/a.unfold.json"]]);
  });

  it("shows the backend error with the path that failed", async () => {
    const failed: Outcome<DocumentView> = {
      ok: false,
      error: {
        code: "invalid_template",
        message: "/t/a.unfold.json: line 1 column 2: expected value",
        problems: [{ location: "line 1, column 2", message: "expected value" }],
      },
    };
    expect(await loadInitialView(fakePlatform({ openDocument: () => Promise.resolve(failed) }))).toEqual({
      kind: "error",
      path: "/t/a.unfold.json",
      title: "This template cannot be opened",
      detail: "1 problem, at its place:",
      problems: [{ location: "line 1, column 2", message: "expected value" }],
    });
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
