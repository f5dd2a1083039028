// Tests for view.ts: tool names from OpenAI tool objects, token wording, error text, window title,
// start-up flow.
import { describe, expect, it } from "vitest";
import type { DocumentView, Outcome, Platform, PreviewDto } from "./platform";
import { FakePlatform } from "./testing/fakePlatform";
import { describeError, fileName, formatTokens, loadInitialView, promptParts, toolNames, windowTitle } from "./view";

const preview: PreviewDto = {
  markdown: "## 1 Task\nComplete the following: refactor",
  tools: [
    { type: "function", function: { name: "lookup", description: "Look up an issue", parameters: {} } },
    { type: "function", function: { name: "read_section", parameters: {} } },
  ],
  prompt_tokens: 1234,
};

function fakePlatform(over: Partial<Platform> = {}): Platform {
  const fake = new FakePlatform("/t/a.unfold.json");
  return Object.assign(fake, over);
}

describe("toolNames", () => {
  it("reads function.name in offered order", () => {
    expect(toolNames(preview.tools)).toEqual(["lookup", "read_section"]);
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
    const codes = [
      "unreadable_file",
      "invalid_template",
      "invalid_edit",
      "unknown_document",
      "invalid_tools",
      "internal",
    ] as const;
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
    expect(
      await loadInitialView(fakePlatform({ openDocument: () => Promise.resolve(failed) })),
    ).toEqual({
      kind: "error",
      path: "/t/a.unfold.json",
      title: "This template cannot be opened",
      detail: "/t/a.unfold.json: line 1 column 2: expected value",
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

describe("promptParts", () => {
  it.each([
    "## 1 Task\n\nDo it.\n\n## 2 Style\n\nShort.\n\n### 2.1 Sub\n\nx",
    "",
    "no heading at all\nat all",
    "# only\n#\n##",
    "\n# starts with a newline",
  ])("cuts %j before each heading line and joins back exactly", (markdown) => {
    const parts = promptParts(markdown);
    expect(parts.join("")).toBe(markdown);
    for (const part of parts.slice(1)) expect(part.startsWith("#")).toBe(true);
  });

  it("keeps the parts an edit of one section does not touch", () => {
    const before = promptParts("## 1 A\n\na\n\n## 2 B\n\nb\n\n## 3 C\n\nc");
    const after = promptParts("## 1 A\n\na\n\n## 2 B\n\nb, edited\n\n## 3 C\n\nc");
    expect(after.map((part, index) => part === before[index])).toEqual([true, false, true]);
  });
});
