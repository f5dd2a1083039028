// Tests for store.ts over the fake platform: edits in order from the latest document, the preview
// after every change (latest answer wins), refusals that change nothing, undo/redo, save; structural
// edits with the selection they leave (and whether it is still the same section), and edits queued
// behind a move; parameter renames (one undo group each, followed by the edits queued behind them)
// and definitions.
import { describe, expect, it } from "vitest";
import type { Outcome, PreviewUpdate } from "../platform";
import { exampleTemplate, FakePlatform } from "../testing/fakePlatform";
import { toolNames } from "../shared/view";
import { actionFailure, EditorStore, shownRows } from "./store";
import { newSection } from "./structure";
import { settle } from "../testing/dom";

async function opened(platform = new FakePlatform()): Promise<{ platform: FakePlatform; store: EditorStore }> {
  const store = new EditorStore(platform, platform.view());
  await previewAsked(store);
  return { platform, store };
}

/** Lets the preview the store asked for when it was made answer. */
async function previewAsked(store: EditorStore): Promise<void> {
  for (let i = 0; i < 50 && store.getState().preview.kind === "loading"; i++) await Promise.resolve();
  expect(store.getState().preview.kind).not.toBe("loading");
}

function shownTools(store: EditorStore): string[] {
  const { preview } = store.getState();
  return preview.kind === "ready" ? toolNames(preview.preview.tools) : [];
}

describe("EditorStore", () => {
  it("starts on the first section and asks for the document's preview at once", async () => {
    const { store } = await opened();
    const state = store.getState();
    expect(state.selected).toBe("task");
    expect(state.rows.map((row) => row.path)).toContain("context.history");
    expect(shownTools(store)).toEqual(["lookup", "read_section"]);
  });

  it("toggles a section with its current fields and previews the result", async () => {
    const { platform, store } = await opened();
    await store.toggleVisibility("context");
    await settle();
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
    expect(store.getState().document.dirty).toBe(true);
    expect(shownTools(store)).toEqual(["lookup", "search", "cite", "read_section"]);
  });

  it("builds each queued edit from the document its predecessors left", async () => {
    const { platform, store } = await opened();
    // Not awaited in between: the toggle must not put back the title typed before it.
    void store.setField("task", "title", "Job");
    await store.toggleVisibility("task");
    expect(platform.argsOf("applyEdit").map(([, edit]) => edit)).toMatchObject([
      { fields: { title: "Job", visibility: "full" } },
      { fields: { title: "Job", visibility: "summary", summary: "" } },
    ]);
  });

  it("sends keystrokes in one group, so one undo takes them all back and the editor re-reads", async () => {
    const { platform, store } = await opened();
    for (const value of ["D", "Do", "Do it"]) void store.setField("task", "template", value);
    await store.setField("task", "template", "Do it!");
    expect(platform.argsOf("applyEdit").map(([, , group]) => group)).toEqual(Array(4).fill("task/template"));
    const revision = store.getState().revision;
    await store.undo();
    expect(store.getState().document.template.sections[0]?.template).toBe("Complete the following: ${objective}");
    expect(store.getState().document.can_redo).toBe(true);
    expect(store.getState().revision).toBe(revision + 1);
    await store.redo();
    expect(store.getState().document.template.sections[0]?.template).toBe("Do it!");
  });

  it("says why an edit was refused and keeps the document", async () => {
    const { platform, store } = await opened();
    const before = store.getState().document;
    await store.setSetting("key", "");
    expect(store.getState().failure).toEqual({
      title: "This change was not made",
      detail: "the template's key cannot be empty",
    });
    expect(store.getState().document).toBe(before);
    expect(platform.argsOf("previewDocument")).toHaveLength(1);
    await store.setField("task", "title", "Job");
    expect(store.getState().failure).toBeNull();
  });

  it("never sends a rename to a key the core would refuse", async () => {
    const { platform, store } = await opened();
    const before = store.getState();
    await store.rename("task", "Bad Key");
    await store.rename("task", "style");
    expect(platform.argsOf("applyEdit")).toEqual([]);
    expect(store.getState()).toBe(before);
  });

  it("keeps the selection the same section through a rename, and changes it for another", async () => {
    const { store } = await opened();
    store.select("context.history");
    const { selection } = store.getState();
    await store.rename("context.history", "past");
    expect(store.getState()).toMatchObject({ selected: "context.past", selection });
    await store.rename("context", "docs");
    expect(store.getState()).toMatchObject({ selected: "docs.past", selection });
    store.select("docs.past");
    expect(store.getState().selection).toBe(selection);
    store.select("task");
    expect(store.getState().selection).toBe(selection + 1);
    await store.rename("docs.past", "history");
    expect(store.getState()).toMatchObject({ selected: "task", selection: selection + 1 });
  });

  it("follows a rename with the selection and with edits queued before it finished", async () => {
    const { platform, store } = await opened();
    store.select("context.history");
    void store.rename("context", "docs");
    await store.setField("context.history", "title", "Past");
    expect(platform.argsOf("applyEdit").map(([, edit]) => edit)).toMatchObject([
      { op: "rename_section", path: "context", key: "docs" },
      { op: "set_section_fields", path: "docs.history", fields: { title: "Past" } },
    ]);
    expect(store.getState().failure).toBeNull();
    expect(store.getState().selected).toBe("docs.history");
    await store.undo();
    await store.undo();
    expect(store.getState().selected).toBe("context.history");
  });

  it("saves only unsaved changes, and says when a save is refused", async () => {
    const { platform, store } = await opened();
    await store.save();
    expect(platform.argsOf("saveDocument")).toEqual([]);
    await store.setField("task", "template", "New text");
    await store.save();
    expect(platform.argsOf("saveDocument")).toEqual([[1, null]]);
    expect(store.getState().document.dirty).toBe(false);
    expect(platform.files.get(platform.path)).toContain("New text");

    await store.setField("task", "template", "Newer");
    platform.failures.set("saveDocument", {
      code: "invalid_template",
      message: "/t/task.unfold.json: /sections/0/template: no value for $x",
      problems: [],
    });
    await store.save();
    expect(store.getState().failure?.title).toBe("This template was not saved");
    expect(store.getState().document.dirty).toBe(true);
  });

  it("saves a template that does not render, and says so until the next edit", async () => {
    const { platform, store } = await opened();
    await store.setField("task", "template", "Uses ${tone}");
    platform.failures.set("previewDocument", {
      code: "invalid_template",
      message: "missing parameter 'tone'",
      problems: [],
    });
    await store.refreshPreview();
    await store.save();
    expect(store.getState().document.dirty).toBe(false);
    expect(store.getState().saveNotice).toMatch(/^Saved, but it does not render as it stands/);
    await store.setField("task", "template", "Uses ${tone}.");
    expect(store.getState().saveNotice).toBeNull();
    platform.failures.delete("previewDocument");
    await store.refreshPreview();
    await store.save();
    expect(store.getState().document.dirty).toBe(false);
    expect(store.getState().saveNotice).toBeNull();
  });

  it("does not undo or redo when there is nothing to", async () => {
    const { platform, store } = await opened();
    await store.undo();
    await store.redo();
    expect(platform.callNames()).not.toContain("undo");
    expect(platform.callNames()).not.toContain("redo");
  });

  it("says why the template does not render, keeps its last good render, and previews everything in full on request", async () => {
    const { platform, store } = await opened();
    const good = store.getState().preview;
    platform.failures.set("previewDocument", {
      code: "invalid_template",
      message: "/params: missing parameter 'goal'",
      problems: [{ location: "/params", message: "missing parameter 'goal'" }],
    });
    await store.refreshPreview();
    expect(store.getState().preview).toEqual({
      kind: "failed",
      last: good.kind === "ready" ? good.preview : null,
      title: "This template does not render",
      detail: "/params: missing parameter 'goal'",
      problems: [{ location: "/params", message: "missing parameter 'goal'" }],
    });
    expect(good.kind).toBe("ready");
    // Still failing: the same last good render is kept, and the next preview is a change from it.
    await store.refreshPreview();
    const kept = store.getState().preview;
    expect(kept.kind === "failed" && kept.last === (good.kind === "ready" ? good.preview : null)).toBe(true);
    expect(platform.argsOf("previewDocument").at(-1)?.[3]).toBe(good.kind === "ready" ? good.preview.serial : -1);
    platform.failures.delete("previewDocument");
    store.setExpandAll(true);
    await settle();
    expect(platform.argsOf("previewDocument").at(-1)?.slice(0, 3)).toEqual([1, [], true]);
    expect(shownTools(store)).toEqual(["lookup", "search", "cite"]);
  });

  it("keeps the newest preview when answers arrive out of order", async () => {
    const platform = new FakePlatform();
    const answers: ((outcome: Outcome<PreviewUpdate>) => void)[] = [];
    platform.previewDocument = () => new Promise((resolve) => answers.push(resolve));
    // The store asks once when it is made (answers[0]), then twice more.
    const store = new EditorStore(platform, platform.view());
    const first = store.refreshPreview();
    const second = store.refreshPreview();
    answers[2]?.(whole(3, "new"));
    await second;
    answers[1]?.(whole(2, "old"));
    await first;
    answers[0]?.(whole(1, "oldest"));
    await settle();
    expect(markdown(store)).toBe("new");
  });

  it("asks for the preview as a change from the one it shows, and for all of it when that one is gone", async () => {
    const platform = new FakePlatform();
    const asked: (number | null)[] = [];
    const answers: Outcome<PreviewUpdate>[] = [
      whole(1, "## A\n", "## B\n"),
      { ok: true, value: { ...whole(2).value, prompt: { base: 1, keep_start: 1, keep_end: 0, parts: ["## B!\n"] } } },
      // A change from a preview the store does not hold (the backend keeps only the last few).
      { ok: true, value: { ...whole(3).value, prompt: { base: 99, keep_start: 0, keep_end: 0, parts: [] } } },
      whole(4, "## C\n"),
    ];
    platform.previewDocument = (_id, _expand, _all, base) => {
      asked.push(base);
      return Promise.resolve(answers.shift() ?? whole(9, "unexpected"));
    };
    const store = new EditorStore(platform, platform.view());
    await previewAsked(store);
    const kept = store.getState().preview;
    await store.refreshPreview();
    expect(markdown(store)).toBe("## A\n## B!\n");
    const shown = store.getState().preview;
    expect(kept.kind === "ready" && shown.kind === "ready" && kept.preview.parts[0] === shown.preview.parts[0]).toBe(
      true,
    );
    await store.refreshPreview();
    expect(asked).toEqual([null, 1, 2, null]);
    expect(markdown(store)).toBe("## C\n");
  });

  it("gets a keystroke's preview with the edit, in one call", async () => {
    const { platform, store } = await opened();
    const previewsBefore = platform.argsOf("previewDocument").length;
    await store.setField("task", "template", "Do ${objective} now");
    await settle();
    expect(platform.argsOf("editAndPreview")).toHaveLength(1);
    expect(platform.argsOf("previewDocument")).toHaveLength(previewsBefore + 1);
    expect(markdown(store)).toContain("Do Refactor now");
  });

  it("asks for the preview again when an edit moved a section shown as read", async () => {
    const { platform, store } = await opened();
    store.setRead("style", true);
    await settle();
    expect(markdown(store)).not.toContain("A style guide.");
    await store.rename("style", "voice");
    await settle();
    // The preview that came with the rename still read `style`; the one shown reads nothing.
    expect(platform.argsOf("previewDocument").at(-1)?.slice(1, 2)).toEqual([[]]);
    expect(markdown(store)).toContain("A style guide.");
  });

  it("shows a preview asked for while an edit was on its way, not the edit's older one", async () => {
    const { platform, store } = await opened();
    const editAndPreview = platform.editAndPreview.bind(platform);
    let release = () => {};
    platform.editAndPreview = async (...args) => {
      const answer = await editAndPreview(...args);
      await new Promise<void>((resolve) => (release = resolve));
      return answer;
    };
    const editing = store.setField("task", "title", "Job");
    await settle();
    store.setRead("style", true);
    await settle();
    release();
    await editing;
    await settle();
    expect(markdown(store)).toContain("## 1 Job");
    expect(markdown(store)).not.toContain("A style guide.");
  });

  it("notifies subscribers until they unsubscribe", async () => {
    const { store } = await opened();
    let calls = 0;
    const unsubscribe = store.subscribe(() => calls++);
    store.select("style");
    unsubscribe();
    store.select("task");
    expect(calls).toBe(1);
  });
});

function paths(store: EditorStore): string[] {
  return store.getState().rows.map((row) => row.path);
}

function markdown(store: EditorStore): string {
  const { preview } = store.getState();
  return preview.kind === "ready" ? preview.preview.parts.join("") : "";
}

/** A preview answer with the whole prompt in `parts`. */
function whole(serial: number, ...parts: string[]): { ok: true; value: PreviewUpdate } {
  return {
    ok: true,
    value: {
      serial,
      prompt: { base: null, keep_start: 0, keep_end: 0, parts },
      tools: [],
      prompt_tokens: 1,
      tool_tokens: 0,
    },
  };
}

describe("EditorStore: structure", () => {
  it("adds a child: a new selected row ready to rename, a new preview, gone again on undo", async () => {
    const { platform, store } = await opened();
    store.select("style");
    await store.restructure("style", "add_child");
    await settle();
    expect(platform.argsOf("applyEdit")).toEqual([
      [1, { op: "insert_section", parent: "style", index: 0, section: newSection("section") }, null],
    ]);
    expect(paths(store)).toEqual(["task", "context", "context.examples", "context.history", "style", "style.section"]);
    expect(store.getState()).toMatchObject({ selected: "style.section", added: "style.section" });
    expect(markdown(store)).toContain("including subsections: section.");

    await store.undo();
    await settle();
    expect(paths(store)).not.toContain("style.section");
    expect(store.getState()).toMatchObject({ selected: "style", added: null });
    expect(markdown(store)).not.toContain("including subsections: section.");
  });

  it("builds each queued add from the document before it: free keys in turn", async () => {
    const { platform, store } = await opened();
    void store.restructure("task", "add_sibling");
    await store.restructure("task", "add_sibling");
    expect(platform.argsOf("applyEdit").map(([, edit]) => edit)).toMatchObject([
      { op: "insert_section", parent: null, index: 1, section: { key: "section" } },
      { op: "insert_section", parent: null, index: 1, section: { key: "section-2" } },
    ]);
    expect(paths(store).slice(0, 3)).toEqual(["task", "section-2", "section"]);
    expect(store.getState().selected).toBe("section-2");
  });

  it("forgets the new section once another is selected", async () => {
    const { store } = await opened();
    await store.restructure("task", "add_child");
    expect(store.getState().added).toBe("task.section");
    store.select("task");
    expect(store.getState().added).toBeNull();
  });

  it("adds a first section to an empty template", async () => {
    const platform = new FakePlatform("/t/empty.unfold.json", { ...exampleTemplate(), sections: [] });
    const { store } = await opened(platform);
    expect(store.getState().selected).toBeNull();
    await store.restructure(null, "add_sibling");
    expect(store.getState()).toMatchObject({ selected: "section", added: "section" });
  });

  it("deletes a section and its tools, selects the next sibling, and undo restores it", async () => {
    const { platform, store } = await opened();
    store.select("context");
    await store.restructure("context", "delete");
    expect(platform.argsOf("applyEdit")).toEqual([[1, { op: "remove_section", path: "context" }, null]]);
    expect(paths(store)).toEqual(["task", "style"]);
    expect(store.getState().selected).toBe("style");
    expect(store.getState().document.can_undo).toBe(true);
    await store.undo();
    expect(paths(store)).toEqual(["task", "context", "context.examples", "context.history", "style"]);
    expect(store.getState().rows[1]?.toolCount).toBe(2);
  });

  it.each([
    ["context.examples", "context.history"],
    ["context.history", "context.examples"],
    ["style", "context"],
  ])("after deleting %s selects %s", async (path, next) => {
    const { store } = await opened();
    store.select(path);
    await store.restructure(path, "delete");
    expect(store.getState().selected).toBe(next);
  });

  it("selects the parent after deleting an only child, and nothing after deleting the last section", async () => {
    const { store } = await opened();
    await store.restructure("context.examples", "delete");
    await store.restructure("context.history", "delete");
    expect(store.getState().selected).toBe("context");
    for (const path of ["task", "context", "style"]) await store.restructure(path, "delete");
    expect(store.getState()).toMatchObject({ rows: [], selected: null });
  });

  it("keeps a moved section selected under its new path", async () => {
    const { store } = await opened();
    store.select("style");
    const { selection } = store.getState();
    await store.restructure("style", "move_up");
    expect(paths(store)).toEqual(["task", "style", "context", "context.examples", "context.history"]);
    expect(store.getState().selected).toBe("style");
    await store.restructure("style", "move_down");
    await store.restructure("style", "indent");
    expect(paths(store)).toContain("context.style");
    expect(store.getState().selected).toBe("context.style");
    await store.restructure("context.style", "outdent");
    expect(paths(store).at(-1)).toBe("style");
    expect(store.getState()).toMatchObject({ selected: "style", selection });
  });

  it("selects another section (a new selection) after an add or a delete", async () => {
    const { store } = await opened();
    const { selection } = store.getState();
    await store.restructure("task", "add_child");
    expect(store.getState()).toMatchObject({ selected: "task.section", selection: selection + 1 });
    await store.restructure("task.section", "delete");
    expect(store.getState()).toMatchObject({ selected: "task", selection: selection + 2 });
  });

  it("finds a section for edits queued behind the move of its parent", async () => {
    const { platform, store } = await opened();
    store.select("context.history");
    void store.restructure("context", "indent");
    void store.restructure("context", "add_child");
    await store.setField("context.history", "title", "Past");
    expect(platform.argsOf("applyEdit").map(([, edit]) => edit)).toMatchObject([
      { op: "move_section", path: "context", parent: "task", index: 0 },
      { op: "insert_section", parent: "task.context", index: 2 },
      { op: "set_section_fields", path: "task.context.history", fields: { title: "Past" } },
    ]);
    expect(store.getState().failure).toBeNull();
  });

  it("sends nothing for an impossible action", async () => {
    const { platform, store } = await opened();
    await store.restructure("task", "move_up");
    await store.restructure("task", "outdent");
    await store.restructure("gone", "delete");
    await store.restructure(null, "add_child");
    expect(platform.argsOf("applyEdit")).toEqual([]);
  });

  it("shows why the backend refused a move and changes nothing", async () => {
    const template = exampleTemplate();
    template.sections[1]?.children.push({ ...newSection("style"), title: "Nested style" });
    const { platform, store } = await opened(new FakePlatform("/t/clash.unfold.json", template));
    store.select("style");
    const before = store.getState().document;
    await store.restructure("style", "indent");
    expect(platform.argsOf("applyEdit")).toHaveLength(1);
    expect(store.getState().failure).toEqual({
      title: "This change was not made",
      detail: "a sibling section already has the key 'style'",
    });
    expect(store.getState().document).toBe(before);
    expect(store.getState().selected).toBe("style");
    expect(store.getState().document.can_undo).toBe(false);
  });

  it("selects the row above or below, staying put at either end", async () => {
    const { store } = await opened();
    store.selectAdjacent(-1);
    expect(store.getState().selected).toBe("task");
    store.selectAdjacent(1);
    store.selectAdjacent(1);
    expect(store.getState().selected).toBe("context.examples");
    store.select("style");
    store.selectAdjacent(1);
    expect(store.getState().selected).toBe("style");
  });
});

describe("actionFailure", () => {
  it("names the action that was not done", () => {
    expect(actionFailure("undo", { code: "invalid_edit", message: "nothing to undo", problems: [] })).toEqual({
      title: "Nothing was undone",
      detail: "nothing to undo",
    });
  });

  it("says when the backend could not be reached instead", () => {
    expect(actionFailure("save", { code: "ipc_failed", message: "save_document not allowed" }).title).toBe(
      "The app could not reach its backend",
    );
  });
});

describe("EditorStore: settings, parameters and tools", () => {
  const anthropic = JSON.stringify([
    { name: "lookup", description: "Taken", input_schema: { type: "object" } },
    { name: "fetch_issue", description: "Fetch an issue", input_schema: { type: "object" } },
    { name: "close_issue", description: "Close an issue", input_schema: { type: "object" } },
  ]);

  it("changes the disclosure and previews with the other builtin", async () => {
    const { platform, store } = await opened();
    await store.setSetting("disclosure", "open_sections");
    await settle();
    expect(platform.argsOf("applyEdit")[0]?.[1]).toMatchObject({
      op: "set_settings",
      settings: { disclosure: "open_sections", key: "task-executor" },
    });
    expect(store.getState().document.template.disclosure).toBe("open_sections");
    expect(shownTools(store)).toEqual(["lookup", "open_sections"]);
  });

  it("types a parameter's value in one undo group, and undo takes the whole run back", async () => {
    const { platform, store } = await opened();
    await store.setParam("objective", "S");
    await store.setParam("objective", "Sh");
    await store.setParam("objective", "Sh"); // unchanged: nothing sent
    expect(platform.argsOf("applyEdit").map(([, , group]) => group)).toEqual(["param/objective", "param/objective"]);
    await store.undo();
    expect(store.getState().document.template.params).toEqual({ objective: "Refactor" });
    expect(store.getState().revision).toBe(1);
  });

  it("adds parameters under free names and removes one", async () => {
    const { store } = await opened();
    await store.addParam();
    await store.addParam();
    expect(store.getState().document.template.params).toEqual({ objective: "Refactor", param: "", param_2: "" });
    await store.removeParam("param");
    expect(Object.keys(store.getState().document.template.params)).toEqual(["objective", "param_2"]);
  });

  it("renames a parameter in one undo group, and edits queued before the answer follow it", async () => {
    const { platform, store } = await opened();
    // Not awaited in between: the default typed next, a second rename and a removal, all asked for
    // under the name the field showed, still find the parameter.
    void store.renameParam("objective", "goal");
    void store.setParam("objective", "Ship");
    void store.renameParam("objective", "aim");
    await store.removeParam("objective");
    await settle();
    expect(platform.argsOf("applyEdit").map(([, edit, group]) => [edit, group])).toEqual([
      [{ op: "set_param", name: "goal", value: "Refactor", index: 0 }, "param-name/objective/goal"],
      [{ op: "set_param", name: "objective", value: null }, "param-name/objective/goal"],
      [{ op: "set_param", name: "goal", value: "Ship" }, "param/goal"],
      [{ op: "set_param", name: "aim", value: "Ship", index: 0 }, "param-name/goal/aim"],
      [{ op: "set_param", name: "goal", value: null }, "param-name/goal/aim"],
      [{ op: "set_param", name: "aim", value: null }, null],
    ]);
    expect(store.getState().document.template.params).toEqual({});
    // Each rename is one step.
    await store.undo();
    await store.undo();
    expect(store.getState().document.template.params).toEqual({ goal: "Ship" });
    await store.undo();
    await store.undo();
    expect(store.getState().document.template.params).toEqual({ objective: "Refactor" });
  });

  it("keeps a renamed parameter's place among the others", async () => {
    const { store } = await opened();
    await store.addParam();
    await store.addParam();
    await store.renameParam("param", "tone");
    expect(Object.keys(store.getState().document.template.params)).toEqual(["objective", "tone", "param_2"]);
  });

  it("sends no rename to an invalid or taken name, and says why the backend refused one", async () => {
    const { platform, store } = await opened();
    await store.addParam();
    await store.renameParam("param", "my tone");
    await store.renameParam("param", "objective");
    expect(platform.argsOf("applyEdit")).toHaveLength(1);
    platform.failures.set("applyEdit", { code: "invalid_edit", message: "refused", problems: [] });
    await store.renameParam("param", "tone");
    expect(store.getState().failure).toEqual({ title: "This change was not made", detail: "refused" });
    expect(store.getState().document.template.params).toEqual({ objective: "Refactor", param: "" });
  });

  it("defines a parameter a section uses, once", async () => {
    const { platform, store } = await opened();
    await store.defineParam("tone");
    await store.defineParam("tone");
    expect(platform.argsOf("applyEdit").map(([, edit, group]) => [edit, group])).toEqual([
      [{ op: "set_param", name: "tone", value: "" }, null],
    ]);
    expect(store.getState().document.template.params).toEqual({ objective: "Refactor", tone: "" });
  });

  it("removes and moves a section's tools", async () => {
    const { store } = await opened();
    const names = () => store.getState().document.template.sections[1]?.tools.map((tool) => tool.name);
    const context = { kind: "section", path: "context" } as const;
    await store.moveTool(context, 0, 1);
    expect(names()).toEqual(["cite", "search"]);
    await store.removeTool(context, 0);
    expect(names()).toEqual(["search"]);
    await store.moveTool(context, 0, 1); // already last: nothing sent
    expect(names()).toEqual(["search"]);
  });

  it("adds blank tools under free names to the template's own tools and a section's", async () => {
    const { store } = await opened();
    await store.addTool({ kind: "template" });
    await store.addTool({ kind: "section", path: "task" });
    const { template } = store.getState().document;
    expect(template.tools.map((tool) => tool.name)).toEqual(["lookup", "new_tool"]);
    expect(template.sections[0]?.tools).toEqual([
      { name: "new_tool_2", description: "", parameters: { type: "object", properties: {} } },
    ]);
    expect(shownTools(store)).toEqual(["lookup", "new_tool", "new_tool_2", "read_section"]);
  });

  it("replaces a tool; changes to one tool in a row undo as one step", async () => {
    const { platform, store } = await opened();
    const lookup = store.getState().document.template.tools[0];
    if (lookup === undefined) throw new Error("no tool");
    await store.replaceTool({ kind: "template" }, 0, { ...lookup, description: "Look up" });
    await store.replaceTool({ kind: "template" }, 0, { ...lookup, name: "find", description: "Look up" });
    expect(store.getState().document.template.tools[0]).toMatchObject({ name: "find", description: "Look up" });
    expect(platform.argsOf("applyEdit").map(([, , group]) => group)).toEqual(["tool/template/0", "tool/template/0"]);
    await store.undo();
    expect(store.getState().document.template.tools[0]).toEqual(lookup);
  });

  it("checks a tool against the document as it stands", async () => {
    const { platform, store } = await opened();
    const text = JSON.stringify({ name: "search", description: "", parameters: { type: "object" } });
    expect(await store.checkTool({ kind: "section", path: "context" }, 0, text)).toEqual({ ok: true, value: [] });
    expect(await store.checkTool({ kind: "template" }, null, text)).toMatchObject({
      ok: true,
      value: [{ location: "/name" }],
    });
    expect(platform.argsOf("checkTool")[1]).toEqual([1, { kind: "template" }, null, text]);
  });

  it("imports a tool list, then appends the tools without a conflict one edit each", async () => {
    const { platform, store } = await opened();
    const read = await store.importTools(anthropic);
    expect(read).toMatchObject({ ok: true, value: { format: "Anthropic Messages", conflicts: ["lookup"] } });
    if (!read.ok) return;
    await store.attachTools("task", read.value.tools, read.value.conflicts);
    await settle();
    expect(platform.argsOf("applyEdit").map(([, edit]) => edit)).toMatchObject([
      { op: "insert_tool", owner: { kind: "section", path: "task" }, index: 0, tool: { name: "fetch_issue" } },
      { op: "insert_tool", owner: { kind: "section", path: "task" }, index: 1, tool: { name: "close_issue" } },
    ]);
    expect(shownTools(store)).toEqual(["lookup", "fetch_issue", "close_issue", "read_section"]);
  });

  it("attaches to a section renamed while the tools were queued", async () => {
    const { platform, store } = await opened();
    const read = await store.importTools(anthropic);
    if (!read.ok) throw new Error("not read");
    void store.rename("task", "job");
    await store.attachTools("task", read.value.tools, read.value.conflicts);
    expect(
      platform
        .argsOf("applyEdit")
        .slice(1)
        .map(([, edit]) => edit),
    ).toMatchObject([
      { owner: { path: "job" }, index: 0 },
      { owner: { path: "job" }, index: 1 },
    ]);
  });

  it("hands back the backend's problems when the text is not a tool list", async () => {
    const { store } = await opened();
    expect(await store.importTools('[{"nope": 1}]')).toMatchObject({
      ok: false,
      error: { code: "invalid_tools", problems: [{ location: "/0" }] },
    });
  });
});

describe("EditorStore: the tree's filter and going to a section", () => {
  function shown(store: EditorStore): string[] {
    return shownRows(store.getState()).map((row) => row.path);
  }

  it("shows the matches and their ancestors, and every row again once cleared, the selection kept", async () => {
    const { store } = await opened();
    store.setFilter("history");
    expect(shown(store)).toEqual(["context", "context.history"]);
    expect([...(store.getState().filtered?.matches ?? [])]).toEqual(["context.history"]);
    store.select("context.history");
    store.setFilter("");
    expect(store.getState().filtered).toBeNull();
    expect(shown(store)).toEqual(["task", "context", "context.examples", "context.history", "style"]);
    expect(store.getState().selected).toBe("context.history");
  });

  it("moves the selection through the filtered rows only", async () => {
    const { store } = await opened();
    store.setFilter("body");
    expect(shown(store)).toEqual(["context", "context.examples", "context.history", "style"]);
    // "task" is selected but filtered out: down goes to the first row shown.
    store.selectAdjacent(1);
    expect(store.getState().selected).toBe("context");
    store.setFilter("guide");
    store.selectAdjacent(1);
    expect(store.getState().selected).toBe("style");
    // Every section but "History" has an "e": up from "style" skips it.
    store.setFilter("e");
    expect(shown(store)).toEqual(["task", "context", "context.examples", "style"]);
    store.selectAdjacent(-1);
    expect(store.getState().selected).toBe("context.examples");
  });

  it("selects the first match, not the ancestor shown above it", async () => {
    const { store } = await opened();
    expect(store.selectFirstMatch()).toBe(false);
    store.setFilter("examples body");
    expect(store.selectFirstMatch()).toBe(true);
    expect(store.getState().selected).toBe("context.examples");
    store.setFilter("no such text");
    expect(store.selectFirstMatch()).toBe(false);
    expect(store.getState().selected).toBe("context.examples");
  });

  it("goes to a section by its path, clearing a filter only when it hides it", async () => {
    const { store } = await opened();
    const selection = store.getState().selection;
    store.setFilter("history");
    expect(store.selectSection("context")).toBe(true);
    expect(store.getState()).toMatchObject({ selected: "context", filter: "history", selection: selection + 1 });
    expect(store.selectSection("style")).toBe(true);
    expect(store.getState()).toMatchObject({ selected: "style", filter: "", filtered: null });
    expect(store.selectSection("context.nowhere")).toBe(false);
    expect(store.getState().selected).toBe("style");
  });

  it("filters the tree as edits change it, and clears the filter to show a section just added", async () => {
    const { store } = await opened();
    store.setFilter("pirate");
    expect(shown(store)).toEqual([]);
    await store.setField("style", "template", "Talk like a pirate");
    await settle();
    expect(shown(store)).toEqual(["style"]);
    store.select("style");
    await store.restructure("style", "add_sibling");
    await settle();
    expect(store.getState()).toMatchObject({ filter: "", filtered: null, selected: "section" });
    expect(shown(store)).toContain("section");
  });
});
