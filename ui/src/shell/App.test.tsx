// Renders <App> in happy-dom over the fake platform: opening the launch template, the tree and its
// toggles, field edits, refused edits, shortcuts, the toolbar, and preview text shown as text (never
// as HTML); the tree's structure toolbar and keys; the Template panel (settings, parameters); a
// section's tools and the tool import; the pages (the run history and the suites, with or without
// a template); and the start-up error.
import { act } from "react";
import type { Root } from "react-dom/client";
import { describe, expect, it } from "vitest";
import { ECONOMICS_DELAY_MS } from "../editor/economics";
import { mountEachTest } from "../testing/testRoot";
import { renderApp } from "../testing/editPage";
import { lookupFirstScenario } from "../testing/fakeCompare";
import { exampleTemplate, FakePlatform } from "../testing/fakePlatform";
import { REGRESSIONS_PATH, regressionsSuite } from "../testing/suites";
import { byLabel, byTestId, choose, click, keyDown, settle, typeInto } from "../testing/dom";

let container: HTMLDivElement;
let root: Root;

mountEachTest((mounted) => {
  ({ container, root } = mounted);
});

function row(path: string): HTMLElement {
  const element = container.querySelector<HTMLElement>(`[data-testid="section-row"][data-path="${path}"]`);
  if (element === null) throw new Error(`no row for ${path}`);
  return element;
}

function toolList(): string[] {
  return [...byTestId("tool-list").querySelectorAll("li")].map((li) => li.textContent);
}

function rowPaths(): (string | null)[] {
  return [...container.querySelectorAll('[data-testid="section-row"]')].map((r) => r.getAttribute("data-path"));
}

function selectedPath(): string | null | undefined {
  return container.querySelector('[data-testid="section-row"].selected')?.getAttribute("data-path");
}

function button(label: string): HTMLButtonElement {
  return byLabel(label) as HTMLButtonElement;
}

describe("App", () => {
  it("shows the economics of disclosure: the first prompt against all in full, each summarized section's read cost", async () => {
    const platform = new FakePlatform();
    await renderApp(root, platform);
    // Read a moment after the template opens, not while its first screen is drawn.
    await settle(ECONOMICS_DELAY_MS);
    expect(byTestId("first-prompt").textContent).toBe("205 of 291 tokens shown first (−29.6 %)");
    expect(container.querySelector('[data-testid="longer-because"]')).toBeNull();
    const context = byTestId('section-row"][data-path="context');
    expect(byTestId("read-cost", context).textContent).toBe("+150");
    expect(byTestId("read-cost", context).title).toBe("Reading it adds 150 prompt tokens and 2 tools");
    expect(byTestId("toggle-visibility", context).title).toBe(
      "Summarized (reading it adds 150 prompt tokens and 2 tools): click to show in full",
    );
  });

  it("shows each section's own size in full, summarized and for its tools, beside it and in its row", async () => {
    const platform = new FakePlatform();
    await renderApp(root, platform);
    // Before the figures are read the row is already there (what is under it does not jump).
    const pending = byTestId("section-sizes");
    expect(pending.getAttribute("aria-busy")).toBe("true");
    expect(byTestId("size-full", pending).textContent).toBe("…");
    await settle(ECONOMICS_DELAY_MS);
    expect(byTestId("section-sizes").getAttribute("aria-busy")).toBe("false");
    const context = byTestId('section-row"][data-path="context');
    expect(byTestId("select-section", context).title).toBe(
      "context\nIn full 1,234 tokens, summarized 31 tokens, its tools 96 tokens",
    );
    byTestId("select-section", context).click();
    await settle();
    const sizes = byTestId("section-sizes");
    expect(
      [byTestId("size-full", sizes), byTestId("size-summary", sizes), byTestId("size-tools", sizes)].map(
        (dd) => dd.textContent,
      ),
    ).toEqual(["1,234 tokens", "31 tokens", "96 tokens"]);
    byTestId("select-section", byTestId('section-row"][data-path="task')).click();
    await settle();
    expect(byTestId("size-summary").textContent).toBe("no summary");
  });

  it("opens the launch template: tree, editor, preview, toolbar", async () => {
    const platform = new FakePlatform();
    await renderApp(root, platform);
    const startUp = ["recentFiles", "recoveredDocuments", "initialScenarioPath"];
    expect(
      platform
        .callNames()
        .filter((name) => !startUp.includes(name))
        .slice(0, 3),
    ).toEqual(["initialTemplatePath", "openDocument", "previewDocument"]);
    expect(platform.callNames()).not.toContain("exampleList"); // the start page's, not a start's
    expect(byTestId("template-path").textContent).toBe("/t/task.unfold.json");
    expect(
      [...container.querySelectorAll('[data-testid="section-row"]')].map((r) => r.getAttribute("data-path")),
    ).toEqual(["task", "context", "context.examples", "context.history", "style"]);
    expect(byLabel("Toggle context").textContent).toBe("SUMMARY");
    expect(byTestId("tool-count", row("context")).textContent).toBe("2 tools");
    expect(row("task").querySelector('[data-testid="tool-count"]')).toBeNull();
    expect((byTestId("field-key") as HTMLInputElement).value).toBe("task");
    expect(toolList()).toEqual(["lookup", "read_section"]);
    expect(byTestId("token-count").textContent).toMatch(/^\d+ prompt tokens$/);
    expect(byTestId("problems-panel").textContent).toBe("Problems No problems");
    expect(container.querySelector('[data-testid="problems-button"]')).toBeNull();
    expect((byTestId("undo-button") as HTMLButtonElement).disabled).toBe(true);
    expect((byTestId("save-button") as HTMLButtonElement).disabled).toBe(true);
    expect(container.querySelector('[data-testid="dirty-marker"]')).toBeNull();
    expect(document.title).toBe("task.unfold.json — /t/task.unfold.json");
  });

  it("toggles a section: sends its fields with the new visibility and refreshes the preview", async () => {
    const platform = new FakePlatform();
    await renderApp(root, platform);
    await click(byLabel("Toggle context"));
    expect(platform.argsOf("applyEdit")).toEqual([
      [
        1,
        {
          op: "set_section_fields",
          path: "context",
          fields: {
            title: "Project Context",
            template: "Project Context body",
            summary: "Docs are available.",
            visibility: "full",
          },
        },
        null,
      ],
    ]);
    expect(byLabel("Toggle context").textContent).toBe("FULL");
    expect(toolList()).toEqual(["lookup", "search", "cite", "read_section"]);
    expect(byTestId("dirty-marker").textContent).toBe("modified");
    expect(document.title).toBe("task.unfold.json • — /t/task.unfold.json");
    expect((byTestId("undo-button") as HTMLButtonElement).disabled).toBe(false);
  });

  it("edits the selected section's text in one undo group and shows it in the preview", async () => {
    const platform = new FakePlatform();
    await renderApp(root, platform);
    await click(byTestId("select-section", row("context.history")));
    expect(row("context.history").className).toContain("selected");
    typeInto(byTestId("field-template"), "2024: OAuth");
    await settle();
    typeInto(byTestId("field-template"), "2024: OAuth.");
    await settle();
    expect(platform.argsOf("applyEdit")).toMatchObject([
      [
        1,
        { path: "context.history", fields: { template: "2024: OAuth", title: "History" } },
        "context.history/template",
      ],
      [1, { path: "context.history", fields: { template: "2024: OAuth." } }, "context.history/template"],
    ]);
    await click(byLabel("Toggle context"));
    expect(byTestId("preview-markdown").textContent).toContain("2024: OAuth.");
  });

  it("says at the key field why a key is invalid, keeps the text and sends nothing", async () => {
    const platform = new FakePlatform();
    await renderApp(root, platform);
    const key = byTestId("field-key") as HTMLInputElement;
    typeInto(key, "Bad Key");
    await settle();
    await act(async () => {
      key.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
      await Promise.resolve();
    });
    await settle();
    expect(platform.argsOf("applyEdit")).toEqual([]);
    expect(byTestId("field-key-problem").textContent).toBe("A key is lowercase: write 'b' for 'B'");
    expect(key.getAttribute("aria-invalid")).toBe("true");
    expect(container.querySelector('[data-testid="edit-failure"]')).toBeNull();
    expect((byTestId("field-key") as HTMLInputElement).value).toBe("Bad Key");
    expect(row("task").getAttribute("data-path")).toBe("task");

    typeInto(byTestId("field-key"), "job");

    await settle();
    await act(async () => {
      byTestId("field-key").dispatchEvent(new FocusEvent("focusout", { bubbles: true }));
      await Promise.resolve();
    });
    await settle();
    expect(container.querySelector('[data-testid="edit-failure"]')).toBeNull();
    expect(row("job").className).toContain("selected");
    expect((byTestId("field-key") as HTMLInputElement).value).toBe("job");
  });

  it("saves, undoes and redoes from the keyboard and the toolbar", async () => {
    const platform = new FakePlatform();
    await renderApp(root, platform);
    typeInto(byTestId("field-title"), "Job");
    await settle();
    keyDown(window, "s", { ctrlKey: true });
    await settle();
    expect(platform.argsOf("saveDocument")).toEqual([[1, null]]);
    expect(container.querySelector('[data-testid="dirty-marker"]')).toBeNull();
    expect(document.title).toBe("task.unfold.json — /t/task.unfold.json");

    keyDown(window, "z", { ctrlKey: true });

    await settle();
    expect(platform.callNames()).toContain("undo");
    expect(byTestId("field-title").textContent).toBe("Task");
    expect(byTestId("dirty-marker").textContent).toBe("modified");

    keyDown(window, "Z", { metaKey: true, shiftKey: true });

    await settle();
    expect(platform.argsOf("redo")).toEqual([[1]]);
    expect(byTestId("field-title").textContent).toBe("Job");

    // Back at the saved state: nothing to save.
    expect((byTestId("save-button") as HTMLButtonElement).disabled).toBe(true);
    await click(byTestId("undo-button"));
    await click(byTestId("redo-button"));
    expect(platform.argsOf("undo")).toHaveLength(2);
    expect(platform.argsOf("redo")).toHaveLength(2);
    await click(byTestId("undo-button"));
    await click(byTestId("save-button"));
    expect(platform.argsOf("saveDocument")).toHaveLength(2);
    expect(JSON.parse(platform.files.get(platform.path) ?? "null")).toMatchObject({
      sections: [expect.objectContaining({ title: "Task" }), expect.anything(), expect.anything()],
    });
  });

  it("shows markup in the template as literal text", async () => {
    const platform = new FakePlatform();
    await renderApp(root, platform);
    typeInto(byTestId("field-template"), '<img src=x onerror="alert(1)">');
    await settle();
    const pre = byTestId("preview-markdown");
    expect(pre.textContent).toContain('<img src=x onerror="alert(1)">');
    expect(pre.querySelector("img")).toBeNull();
  });

  it("says how many of the prompt's tokens the tool definitions take, and opens a tool to its JSON", async () => {
    const platform = new FakePlatform();
    await renderApp(root, platform);
    const preview = await platform.previewDocument(platform.id, [], false, null);
    if (!preview.ok) throw new Error("no preview");
    const { prompt_tokens: total, tool_tokens: tools } = preview.value;
    expect(byTestId("token-split").textContent).toBe(
      `${(total - tools).toLocaleString("en-US")} in the text, ${tools.toLocaleString("en-US")} in the 2 tool definitions`,
    );
    expect(container.querySelector('[data-testid="offered-tool-json"]')).toBeNull();
    const lookup = byTestId("tool-list").querySelector("details");
    if (lookup === null) throw new Error("no tool to open");
    await act(async () => {
      lookup.open = true;
      lookup.dispatchEvent(new Event("toggle"));
      await Promise.resolve();
    });
    expect(JSON.parse(byTestId("offered-tool-json").textContent)).toEqual({
      type: "function",
      function: { name: "lookup", description: "lookup things", parameters: { type: "object" } },
    });
    expect(toolList()[0]).toMatch(/^lookup/);
  });

  it("keeps the last good render, dimmed, under the one message saying why the template stopped rendering", async () => {
    const platform = new FakePlatform();
    await renderApp(root, platform);
    const before = byTestId("preview-markdown").textContent;
    const unknown = "unknown parameter 'company': section 'task' uses it";
    platform.failures.set("editAndPreview", { code: "invalid_template", message: unknown, problems: [] });
    platform.failures.set("previewDocument", { code: "invalid_template", message: unknown, problems: [] });
    typeInto(byTestId("field-template"), " ${company}");
    await settle();
    expect(byTestId("preview-error").textContent).toContain(unknown);
    expect(byTestId("preview-stale").textContent).toBe("The last render it had is shown below, dimmed.");
    expect(container.querySelectorAll('[data-testid="preview-error"]')).toHaveLength(1);
    expect(container.querySelector(".preview-stale [data-testid='preview-markdown']")?.textContent).toBe(before);
  });

  it("shows a render error in place of the preview and lists it with the template's problems", async () => {
    const platform = new FakePlatform();
    const missing = "missing parameter 'goal': section 'task' uses it in its template and it has no value";
    platform.failures.set("previewDocument", {
      code: "invalid_template",
      message: `/params: ${missing}`,
      problems: [{ location: "/params", message: missing }],
    });
    platform.view = () => ({
      ...FakePlatform.prototype.view.call(platform),
      problems: [{ location: "/sections/0/key", message: "'A' is not a section key" }],
    });
    await renderApp(root, platform);
    expect(byTestId("preview-error").textContent).toContain(missing);
    expect(container.querySelector('[data-testid="preview-markdown"]')).toBeNull();
    expect(byTestId("problems-summary").textContent).toBe("1 problem, 1 warning");
    expect(byTestId("problems-button").textContent).toBe("1 problem, 1 warning");
    expect(byTestId("problems-button").dataset.severity).toBe("error");
    const groups = [...container.querySelectorAll<HTMLElement>('[data-testid="problem-group"]')];
    expect(
      groups.map((group) => [group.dataset.group, group.dataset.severity, group.querySelector("li")?.textContent]),
    ).toEqual([
      ["template", "error", "/sections/0/key 'A' is not a section key"],
      ["render", "warning", `/params ${missing}`],
    ]);
  });

  it("disables the structure actions impossible for the selected section", async () => {
    const platform = new FakePlatform();
    await renderApp(root, platform);
    const labels = ["Add child", "Add sibling", "Delete section", "Move up", "Move down", "Indent", "Outdent"];
    const enabled = () => labels.filter((label) => !button(label).disabled);
    expect(enabled()).toEqual(["Add child", "Add sibling", "Delete section", "Move down"]);
    await click(byTestId("select-section", row("context.history")));
    expect(enabled()).toEqual(["Add child", "Add sibling", "Delete section", "Move up", "Indent", "Outdent"]);
    await click(button("Outdent"));
    expect(button("Outdent").disabled).toBe(true);
  });

  it("adds a child from the toolbar, ready to rename, and undo takes it away", async () => {
    const platform = new FakePlatform();
    await renderApp(root, platform);
    await click(byTestId("select-section", row("style")));
    await click(button("Add child"));
    expect(rowPaths()).toEqual(["task", "context", "context.examples", "context.history", "style", "style.section"]);
    expect(selectedPath()).toBe("style.section");
    expect(row("style.section").textContent).toContain("New section");
    const key = byTestId("field-key") as HTMLInputElement;
    expect(key.value).toBe("section");
    expect(document.activeElement).toBe(key);
    expect([key.selectionStart, key.selectionEnd]).toEqual([0, "section".length]);
    expect(byTestId("preview-markdown").textContent).toContain("including subsections: section.");

    typeInto(key, "notes");

    await settle();
    keyDown(key, "Enter");
    await settle();
    expect(selectedPath()).toBe("style.notes");
    await click(byTestId("undo-button"));
    await click(byTestId("undo-button"));
    expect(rowPaths()).not.toContain("style.section");
    expect(selectedPath()).toBe("style");
    expect(byTestId("preview-markdown").textContent).not.toContain("including subsections: section.");
  });

  it("adds a sibling after the selected section and deletes it again", async () => {
    const platform = new FakePlatform();
    await renderApp(root, platform);
    await click(button("Add sibling"));
    expect(rowPaths().slice(0, 2)).toEqual(["task", "section"]);
    await click(button("Delete section"));
    expect(rowPaths()).toEqual(["task", "context", "context.examples", "context.history", "style"]);
    expect(selectedPath()).toBe("context");
  });

  it("moves, deletes and selects from the keyboard while the tree has focus", async () => {
    const platform = new FakePlatform();
    await renderApp(root, platform);
    const selectButton = (path: string) => byTestId("select-section", row(path));
    await click(selectButton("context"));
    act(() => {
      selectButton("context").focus();
    });
    keyDown(selectButton("context"), "ArrowUp", { altKey: true });
    await settle();
    expect(rowPaths()).toEqual(["context", "context.examples", "context.history", "task", "style"]);
    expect(document.activeElement).toBe(selectButton("context"));

    keyDown(selectButton("context"), "ArrowDown");

    await settle();
    keyDown(document.activeElement as HTMLElement, "ArrowDown");
    await settle();
    expect(selectedPath()).toBe("context.history");
    expect(document.activeElement).toBe(selectButton("context.history"));

    keyDown(selectButton("context.history"), "ArrowRight", { altKey: true });

    await settle();
    expect(selectedPath()).toBe("context.examples.history");
    expect(document.activeElement).toBe(selectButton("context.examples.history"));
    keyDown(selectButton("context.examples.history"), "ArrowLeft", { altKey: true });
    await settle();
    expect(selectedPath()).toBe("context.history");

    keyDown(selectButton("context.history"), "Delete");

    await settle();
    expect(rowPaths()).toEqual(["context", "context.examples", "task", "style"]);
    expect(selectedPath()).toBe("context.examples");
    expect(document.activeElement).toBe(selectButton("context.examples"));
    expect(platform.argsOf("applyEdit").map(([, edit]) => (edit as { op: string }).op)).toEqual([
      "move_section",
      "move_section",
      "move_section",
      "remove_section",
    ]);
  });

  it("leaves the tree's keys alone outside the tree", async () => {
    const platform = new FakePlatform();
    await renderApp(root, platform);
    keyDown(byTestId("field-key"), "Delete");
    await settle();
    keyDown(byTestId("field-template"), "ArrowUp", { altKey: true });
    await settle();
    expect(platform.argsOf("applyEdit")).toEqual([]);
  });

  it("shows why the backend refused a move and keeps the tree", async () => {
    const template = exampleTemplate();
    template.sections[1]?.children.push({
      key: "style",
      title: "Nested",
      template: "",
      visibility: "full",
      tools: [],
      children: [],
    });
    const platform = new FakePlatform("/t/task.unfold.json", template);
    await renderApp(root, platform);
    await click(byTestId("select-section", row("style")));
    const before = rowPaths();
    await click(button("Indent"));
    expect(byTestId("edit-failure-detail").textContent).toBe("a sibling section already has the key 'style'");
    expect(rowPaths()).toEqual(before);
    expect(selectedPath()).toBe("style");
    expect((byTestId("undo-button") as HTMLButtonElement).disabled).toBe(true);
  });

  it("shows the backend's error when the template does not open", async () => {
    const platform = new FakePlatform();
    platform.failures.set("openDocument", {
      code: "invalid_template",
      message: "/t/task.unfold.json: 2 problems",
      problems: [
        { location: "/sections/0/key", message: "'A' is not a section key" },
        { location: "/sections/0", message: "missing title" },
      ],
    });
    await renderApp(root, platform);
    // The problems are listed once, under a line that counts them (not again in the message).
    expect(byTestId("error-detail").textContent).toBe("2 problems, each at its place:");
    expect(byTestId("error-path").textContent).toBe("/t/task.unfold.json");
    expect([...byTestId("error-problems").querySelectorAll("li")].map((li) => li.textContent)).toEqual([
      "/sections/0/key 'A' is not a section key",
      "/sections/0 missing title",
    ]);
    expect(byTestId("start-page").textContent).toContain("Open the template only");
  });
});

describe("App: preview of sections as read", () => {
  it("shows a summarized section as read, and forgets it once the section is FULL", async () => {
    const platform = new FakePlatform();
    await renderApp(root, platform);
    const style = container.querySelector<HTMLInputElement>('[data-testid="read-section"][data-path="style"]');
    expect(style).not.toBeNull();
    await click(style as HTMLElement);
    expect(platform.argsOf("previewDocument").at(-1)?.slice(0, 3)).toEqual([platform.id, ["style"], false]);
    expect(byTestId("preview-markdown").textContent).toContain("Style Guide body");
    expect(byTestId("read-sections").textContent).toContain("1 of 2 summarized");
    await click(byLabel("Toggle style"));
    expect(platform.argsOf("previewDocument").at(-1)?.slice(0, 3)).toEqual([platform.id, [], false]);
  });
});

describe("App: keyboard shortcut help", () => {
  it("opens with ? outside text fields and F1 anywhere, and closes with Escape", async () => {
    const platform = new FakePlatform();
    await renderApp(root, platform);
    keyDown(byTestId("field-key"), "?", { shiftKey: true });
    await settle();
    expect(container.querySelector('[data-testid="shortcut-help"]')).toBeNull();
    keyDown(window, "?", { shiftKey: true });
    await settle();
    expect(byTestId("shortcut-help").textContent).toContain("Toggle the section between FULL and SUMMARY");
    keyDown(byTestId("shortcut-help"), "Escape");
    await settle();
    expect(container.querySelector('[data-testid="shortcut-help"]')).toBeNull();
    keyDown(byTestId("field-key"), "F1");
    await settle();
    expect(byTestId("shortcut-help").textContent).toContain("Save as");
  });

  it("toggles the selected section with Space in the tree", async () => {
    const platform = new FakePlatform();
    await renderApp(root, platform);
    await click(byTestId("select-section", row("context")));
    keyDown(byTestId("select-section", row("context")), " ");
    await settle();
    expect(byLabel("Toggle context").textContent).toBe("FULL");
  });
});

describe("App around the editor: files and recovery", () => {
  it("opens a kept comparison in Compare, or runs it again, from its heading in the history", async () => {
    const platform = new FakePlatform();
    platform.compare.disk.set("/s/lookup-first.scenario.json", lookupFirstScenario());
    await renderApp(root, platform);
    await click(byTestId("page-history"));
    await settle();
    await click(byTestId("history-open-comparison", byTestId("history-group")));
    await settle();
    expect(byTestId("page-compare").getAttribute("aria-selected")).toBe("true");
    expect(platform.argsOf("openScenario").at(-1)?.[0]).toBe("/s/lookup-first.scenario.json");
    expect(platform.argsOf("runComparison")).toHaveLength(0);
    await click(byTestId("page-history"));
    await settle();
    await click(byTestId("history-run-again", byTestId("history-group")));
    await settle();
    expect(byTestId("page-compare").getAttribute("aria-selected")).toBe("true");
    expect(platform.argsOf("runComparison")).toHaveLength(1);
  });

  it("asks about unsaved changes before opening a dropped file, and opens it on Don't save", async () => {
    const platform = new FakePlatform();
    platform.disk.set("/t/dropped.unfold.json", { ...exampleTemplate(), key: "dropped", name: "Dropped" });
    await renderApp(root, platform);
    await click(byLabel("Toggle context"));
    await act(async () => {
      platform.drop(["/t/dropped.unfold.json"]);
      await Promise.resolve();
    });
    await settle();
    expect(byTestId("unsaved-dialog").textContent).toContain(
      "Save the changes to task.unfold.json before opening another one?",
    );
    expect(document.activeElement).toBe(byTestId("unsaved-save"));
    await click(byTestId("unsaved-discard"));
    expect(container.querySelector('[data-testid="unsaved-dialog"]')).toBeNull();
    expect(byTestId("template-path").textContent).toBe("/t/dropped.unfold.json");
    expect(document.title).toBe("dropped.unfold.json — /t/dropped.unfold.json");
  });

  it("offers recovered work and restores it into the editor", async () => {
    const platform = new FakePlatform();
    platform.recovered = [
      { id: "/t/task.unfold.json", kind: "template", path: "/t/task.unfold.json", saved_at_ms: 1000 },
    ];
    const recovered = exampleTemplate();
    const task = recovered.sections[0];
    if (task !== undefined) task.template = "Recovered words";
    platform.recoveredTemplates.set("/t/task.unfold.json", recovered);
    await renderApp(root, platform);
    expect(byTestId("recovery-offer").textContent).toContain("task.unfold.json");
    await click(byTestId("restore-recovered"));
    expect(container.querySelector('[data-testid="recovery-offer"]')).toBeNull();
    expect(byTestId("dirty-marker").textContent).toBe("modified");
    expect(byTestId("preview-markdown").textContent).toContain("Recovered words");
  });

  it("shows the start page with the examples when started without a template", async () => {
    const platform = new FakePlatform();
    platform.initialTemplatePath = () => Promise.resolve({ ok: true, value: null });
    platform.recent = [{ path: "/t/gone.unfold.json", exists: false }];
    await renderApp(root, platform);
    const start = byTestId("start-page");
    expect(byTestId("recent-file", start).textContent).toContain("missing");
    const example = byTestId("example", start);
    expect(example.textContent).toContain("Task executor");
    expect(byTestId("open-example-comparison", example).textContent).toBe("lookup-first");
    // The template only: a saved file, not an untitled copy that asks to be saved.
    await click(byTestId("open-example", example));
    expect(byTestId("template-path").textContent).toBe(`${platform.examplesFolder}/task-executor.unfold.json`);
    expect(container.querySelector('[data-testid="dirty-marker"]')).toBeNull();
  });

  it("opens an example's comparison from the start page in one click, run under every adapter", async () => {
    const platform = new FakePlatform();
    platform.initialTemplatePath = () => Promise.resolve({ ok: true, value: null });
    await renderApp(root, platform);
    await click(byTestId("open-example-comparison"));
    await settle();
    expect(byTestId("page-compare").getAttribute("aria-selected")).toBe("true");
    expect(byTestId("run-status").dataset.status).toBe("finished");
    expect(
      [...container.querySelectorAll<HTMLElement>('[data-testid="lane"]')].map((lane) => lane.dataset.lane),
    ).toEqual(["dynamic", "restart", "allowed_tools", "deferred", "tool_addition", "baseline"]);
  });

  it("Ctrl+Shift+S asks where to save and saves there", async () => {
    const platform = new FakePlatform();
    platform.chosenPath = "/t/copy.unfold.json";
    await renderApp(root, platform);
    keyDown(window, "S", { ctrlKey: true, shiftKey: true });
    await settle();
    expect(platform.argsOf("chooseFile")).toEqual([["save", "/t/task.unfold.json"]]);
    expect(platform.argsOf("saveDocument")).toEqual([[platform.id, "/t/copy.unfold.json"]]);
    expect(byTestId("template-path").textContent).toBe("/t/copy.unfold.json");
  });
});

function paramNames(): (string | null)[] {
  return [...container.querySelectorAll('[data-testid="param-row"]')].map((r) => r.getAttribute("data-name"));
}

function sectionToolNames(): (string | null)[] {
  return [...container.querySelectorAll('[data-testid="section-tool"]')].map((r) => r.getAttribute("data-name"));
}

describe("App: template settings and parameters", () => {
  it("changes the disclosure from the Template tab and the preview names open_sections", async () => {
    const platform = new FakePlatform();
    await renderApp(root, platform);
    await click(byTestId("tab-template"));
    expect((byTestId("setting-key") as HTMLInputElement).value).toBe("task-executor");
    expect((byTestId("setting-disclosure") as HTMLSelectElement).value).toBe("read_section");
    choose(byTestId("setting-disclosure"), "open_sections");
    await settle();
    expect(platform.argsOf("applyEdit")).toMatchObject([
      [1, { op: "set_settings", settings: { disclosure: "open_sections" } }, null],
    ]);
    expect(byTestId("preview-markdown").textContent).toContain("`open_sections`");
    expect(toolList()).toEqual(["lookup", "open_sections"]);
    choose(byTestId("setting-heading"), "keyed");
    await settle();
    choose(byTestId("setting-tool-disclosure"), "pick_tools");
    await settle();
    expect(platform.template).toMatchObject({
      heading: "keyed",
      tool_disclosure: "pick_tools",
      disclosure: "open_sections",
    });
  });

  it("types the name in one undo group; undo puts the field back", async () => {
    const platform = new FakePlatform();
    await renderApp(root, platform);
    await click(byTestId("tab-template"));
    typeInto(byTestId("setting-name"), "Task runner");
    await settle();
    typeInto(byTestId("setting-name"), "Task runner!");
    await settle();
    expect(platform.argsOf("applyEdit").map(([, , group]) => group)).toEqual(["settings/name", "settings/name"]);
    await click(byTestId("undo-button"));
    expect((byTestId("setting-name") as HTMLInputElement).value).toBe("Task executor");
  });

  it("edits, adds and removes parameters", async () => {
    const platform = new FakePlatform();
    await renderApp(root, platform);
    await click(byTestId("tab-template"));
    expect(paramNames()).toEqual(["objective"]);
    typeInto(byTestId("param-value"), "Ship it");
    await settle();
    expect(platform.argsOf("applyEdit")).toEqual([
      [1, { op: "set_param", name: "objective", value: "Ship it" }, "param/objective"],
    ]);
    expect(byTestId("preview-markdown").textContent).toContain("Complete the following: Ship it");
    await click(byTestId("add-param"));
    await click(byTestId("add-param"));
    expect(paramNames()).toEqual(["objective", "param", "param_2"]);
    await click(button("Remove parameter objective"));
    expect(paramNames()).toEqual(["param", "param_2"]);
    expect(platform.template.params).toEqual({ param: "", param_2: "" });
    await click(byTestId("tab-section"));
    expect((byTestId("field-key") as HTMLInputElement).value).toBe("task");
  });

  it("goes back to the section editor when a section is picked in the tree", async () => {
    await renderApp(root, new FakePlatform());
    await click(byTestId("tab-template"));
    await click(byTestId("select-section", row("style")));
    expect((byTestId("field-key") as HTMLInputElement).value).toBe("style");
    expect(container.querySelector('[data-testid="template-panel"]')).toBeNull();
  });
});

describe("App: a section's tools", () => {
  const tools = (names: string[]) =>
    JSON.stringify(names.map((name) => ({ name, description: `${name} it`, input_schema: { type: "object" } })));

  it("lists the selected section's tools, moves and removes them", async () => {
    const platform = new FakePlatform();
    await renderApp(root, platform);
    expect(byTestId("section-tools").textContent).toBe("No tools");
    await click(byTestId("select-section", row("context")));
    expect(sectionToolNames()).toEqual(["search", "cite"]);
    expect(byTestId("section-tool").textContent).toContain("search things");
    expect(button("Move search up").disabled).toBe(true);
    await click(button("Move search down"));
    expect(platform.argsOf("applyEdit")).toEqual([
      [1, { op: "move_tool", owner: { kind: "section", path: "context" }, from: 0, to: 1 }, null],
    ]);
    expect(sectionToolNames()).toEqual(["cite", "search"]);
    await click(button("Remove cite"));
    expect(sectionToolNames()).toEqual(["search"]);
    await click(byTestId("undo-button"));
    expect(sectionToolNames()).toEqual(["cite", "search"]);
  });

  it("imports pasted tools: names the format and conflicts, attaches the others to the section", async () => {
    const platform = new FakePlatform();
    await renderApp(root, platform);
    await click(byTestId("import-tools"));
    typeInto(byTestId("import-text"), tools(["fetch_issue", "search"]));
    await settle();
    await click(byTestId("import-read"));
    expect(platform.argsOf("importTools")).toEqual([[1, tools(["fetch_issue", "search"])]]);
    expect(byTestId("import-format").textContent).toBe("Anthropic Messages: fetch_issue, search");
    expect(byTestId("import-conflicts").textContent).toContain("search");
    expect(byTestId("import-attach").textContent).toBe("Attach 1 to task");
    await click(byTestId("import-attach"));
    expect(platform.argsOf("applyEdit")).toMatchObject([
      [
        1,
        { op: "insert_tool", owner: { kind: "section", path: "task" }, index: 0, tool: { name: "fetch_issue" } },
        null,
      ],
    ]);
    expect(sectionToolNames()).toEqual(["fetch_issue"]);
    expect(toolList()).toContain("fetch_issue");
    expect(container.querySelector('[data-testid="tool-import"]')).toBeNull();
  });

  it("imports tools from a chosen file: its text is read as if pasted", async () => {
    const platform = new FakePlatform();
    await renderApp(root, platform);
    await click(byTestId("import-tools"));
    await click(byTestId("import-file"));
    expect(platform.argsOf("importTools")).toEqual([]);
    platform.chosenToolList = { path: "/t/tools.json", text: tools(["fetch_issue"]) };
    await click(byTestId("import-file"));
    expect((byTestId("import-text") as HTMLTextAreaElement).value).toBe(tools(["fetch_issue"]));
    expect(platform.argsOf("importTools")).toEqual([[platform.id, tools(["fetch_issue"])]]);
    expect(byTestId("import-format").textContent).toBe("Anthropic Messages: fetch_issue");
    platform.failures.set("chooseToolList", {
      code: "unreadable_file",
      message: "/t/tools.bin: not UTF-8 text",
      problems: [],
    });
    await click(byTestId("import-file"));
    expect(byTestId("import-error").textContent).toBe("This tool list cannot be read: /t/tools.bin: not UTF-8 text");
  });

  it("lists import problems at their places and attaches nothing", async () => {
    const platform = new FakePlatform();
    await renderApp(root, platform);
    await click(byTestId("import-tools"));
    typeInto(byTestId("import-text"), '[{"name": "x", "input_schema": {}}, 3]');
    await settle();
    await click(byTestId("import-read"));
    expect(byTestId("import-error").textContent).toContain("These tools cannot be imported");
    expect(byTestId("import-problems").textContent).toBe(
      '/1 found a number; expected an OpenAI Chat Completions tool {"type": "function", "function": {"name", "description", "parameters"}}, an OpenAI Responses tool {"type": "function", "name", "description", "parameters"} or an Anthropic tool {"name", "description", "input_schema"}',
    );
    expect(container.querySelector('[data-testid="import-attach"]')).toBeNull();
    await click(byTestId("import-cancel"));
    expect(container.querySelector('[data-testid="tool-import"]')).toBeNull();
    expect(platform.argsOf("applyEdit")).toEqual([]);
  });
});

describe("App: the page switch and the run history", () => {
  const pageNames = () =>
    [...container.querySelectorAll('[role="tablist"][aria-label="View"] [role="tab"]')].map((tab) => tab.textContent);

  it("switches between the editor, the compare view and the run history with a template open", async () => {
    const platform = new FakePlatform();
    await renderApp(root, platform);
    expect(pageNames()).toEqual(["Edit", "Compare", "History", "Suites", "Hosts"]);
    await click(byTestId("page-history"));
    expect(byTestId("page-history").getAttribute("aria-selected")).toBe("true");
    expect(container.querySelector('[data-testid="section-tree"]')).toBeNull();
    expect(container.querySelectorAll('[data-testid="history-row"]')).toHaveLength(5);
    expect(platform.argsOf("runHistory")).toEqual([[{ limit: 200 }]]);
    await click(byTestId("page-compare"));
    expect(byTestId("compare-view")).toBeTruthy();
    expect(container.querySelector('[data-testid="history-view"]')).toBeNull();
    // Back on the history, it lists again (a comparison may have added runs) and keeps its selection.
    await click(byTestId("page-history"));
    await click(byTestId('history-row"][data-id="2'));
    await click(byTestId("page-edit"));
    expect(byTestId("section-tree")).toBeTruthy();
    await click(byTestId("page-history"));
    expect(platform.argsOf("runHistory")).toHaveLength(3);
    expect(byTestId('history-row"][data-id="2').getAttribute("aria-selected")).toBe("true");
    expect(byTestId("history-final").textContent).toBe("Fixed the login flow.");
  });

  it("leaves Ctrl+Z to the filter fields on the run history, and saves the template with Ctrl+S", async () => {
    const platform = new FakePlatform();
    await renderApp(root, platform);
    await click(button("Toggle context"));
    await click(byTestId("page-history"));
    keyDown(window, "z", { ctrlKey: true });
    await settle();
    expect(platform.callNames()).not.toContain("undo");
    keyDown(window, "s", { ctrlKey: true });
    await settle();
    expect(platform.callNames()).toContain("saveDocument");
  });

  it("shows the run history without a template, from the start page and back", async () => {
    const platform = new FakePlatform();
    platform.initialTemplatePath = () => Promise.resolve({ ok: true, value: null });
    await renderApp(root, platform);
    expect(pageNames()).toEqual(["Start", "History", "Suites", "Hosts"]);
    await click(byTestId("page-history"));
    expect(container.querySelector('[data-testid="start-page"]')).toBeNull();
    expect(container.querySelectorAll('[data-testid="history-row"]')).toHaveLength(5);
    await click(byTestId('history-row"][data-id="4'));
    expect(byTestId("history-user").textContent).toBe("Refactor the authentication module.");
    await click(byTestId("page-edit"));
    expect(byTestId("start-page")).toBeTruthy();
    expect(container.querySelector('[data-testid="history-view"]')).toBeNull();
  });

  it("shows the suites without a template, and keeps the open suite when the page shows again with one", async () => {
    const platform = new FakePlatform();
    platform.initialTemplatePath = () => Promise.resolve({ ok: true, value: null });
    platform.suites.set(REGRESSIONS_PATH, regressionsSuite());
    await renderApp(root, platform);
    await click(byTestId("page-suites"));
    expect(container.querySelector('[data-testid="start-page"]')).toBeNull();
    platform.chosenPath = REGRESSIONS_PATH;
    await click(byTestId("suite-open"));
    expect(container.querySelectorAll('[data-testid="suite-case"]')).toHaveLength(3);

    await click(byTestId("page-edit"));
    await click(byTestId("open-example"));
    expect(pageNames()).toEqual(["Edit", "Compare", "History", "Suites", "Hosts"]);
    keyDown(window, "4", { ctrlKey: true });
    await settle();
    expect(byTestId("page-suites").getAttribute("aria-selected")).toBe("true");
    expect(byTestId("suite-path").getAttribute("title")).toBe(REGRESSIONS_PATH);
    expect(container.querySelectorAll('[data-testid="suite-case"]')).toHaveLength(3);
  });
});
