// Tests for store.ts over the fake platform: edits in order from the latest document, the preview
// after every change (latest answer wins), refusals that change nothing, undo/redo, save.
import { describe, expect, it } from "vitest";
import type { Outcome, PreviewDto } from "../platform";
import { FakePlatform } from "../testing/fakePlatform";
import { toolNames } from "../view";
import { actionFailure, EditorStore } from "./store";

async function opened(platform = new FakePlatform()): Promise<{ platform: FakePlatform; store: EditorStore }> {
  const store = new EditorStore(platform, platform.view());
  await store.refreshPreview();
  return { platform, store };
}

function shownTools(store: EditorStore): string[] {
  const { preview } = store.getState();
  return preview.kind === "ready" ? toolNames(preview.preview.tools) : [];
}

/** Lets the preview requested after a change answer. */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}

describe("EditorStore", () => {
  it("starts on the first section with the document's preview", async () => {
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
          fields: { title: "Project Context", template: "Project Context body", summary: "Docs are available.", visibility: "full" },
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
    await store.rename("task", "Bad Key");
    expect(store.getState().failure).toEqual({
      title: "This change was not made",
      detail: "'Bad Key' is not a section key",
    });
    expect(store.getState().document).toBe(before);
    expect(platform.argsOf("previewDocument")).toHaveLength(1);
    await store.setField("task", "title", "Job");
    expect(store.getState().failure).toBeNull();
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

  it("does not undo or redo when there is nothing to", async () => {
    const { platform, store } = await opened();
    await store.undo();
    await store.redo();
    expect(platform.callNames()).not.toContain("undo");
    expect(platform.callNames()).not.toContain("redo");
  });

  it("shows a render error in place of the preview, and previews everything in full on request", async () => {
    const { platform, store } = await opened();
    platform.failures.set("previewDocument", {
      code: "invalid_template",
      message: "/sections/0/template: no value for ${goal}",
      problems: [],
    });
    await store.refreshPreview();
    expect(store.getState().preview).toEqual({
      kind: "failed",
      title: "This template does not render",
      detail: "/sections/0/template: no value for ${goal}",
    });
    platform.failures.delete("previewDocument");
    store.setExpandAll(true);
    await settle();
    expect(platform.argsOf("previewDocument").at(-1)).toEqual([1, [], true]);
    expect(shownTools(store)).toEqual(["lookup", "search", "cite"]);
  });

  it("keeps the newest preview when answers arrive out of order", async () => {
    const platform = new FakePlatform();
    const answers: ((outcome: Outcome<PreviewDto>) => void)[] = [];
    platform.previewDocument = () => new Promise((resolve) => answers.push(resolve));
    const store = new EditorStore(platform, platform.view());
    const first = store.refreshPreview();
    const second = store.refreshPreview();
    const preview = (markdown: string): Outcome<PreviewDto> => ({
      ok: true,
      value: { markdown, tools: [], prompt_tokens: 1 },
    });
    answers[1]?.(preview("new"));
    await second;
    answers[0]?.(preview("old"));
    await first;
    const state = store.getState().preview;
    expect(state.kind === "ready" && state.preview.markdown).toBe("new");
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

describe("actionFailure", () => {
  it("names the action that was not done", () => {
    expect(actionFailure("undo", { code: "invalid_edit", message: "nothing to undo", problems: [] })).toEqual({ title: "Nothing was undone", detail: "nothing to undo" });
  });

  it("says when the backend could not be reached instead", () => {
    expect(actionFailure("save", { code: "ipc_failed", message: "save_document not allowed" }).title).toBe(
      "The app could not reach its backend",
    );
  });
});
