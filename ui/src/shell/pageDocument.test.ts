// Tests for pageDocument.ts: the header's Undo, Redo and Save act on the template on the Edit and
// History pages and on the scenario on the Compare page, say which in their tooltips (Save names
// the file), and are enabled as each document's own buttons were.
import { describe, expect, it, vi } from "vitest";
import { actOnPageDocument, pageDocument, type DocumentStatus } from "./pageDocument";

const status = (changes: Partial<DocumentStatus> = {}): DocumentStatus => ({
  path: "/t/task.unfold.json",
  dirty: false,
  can_undo: false,
  can_redo: false,
  ...changes,
});

const SCENARIO = status({ path: "/s/lookup-first.scenario.json", dirty: true, can_undo: true });

describe("pageDocument", () => {
  it.each(["edit", "history"] as const)("acts on the template on the %s page", (page) => {
    const { kind, buttons } = pageDocument(page, status({ dirty: true, can_redo: true }), SCENARIO);
    expect(kind).toBe("template");
    expect(buttons.undo).toEqual({ enabled: false, title: "Undo in the template (Ctrl+Z)" });
    expect(buttons.redo).toEqual({ enabled: true, title: "Redo in the template (Ctrl+Shift+Z)" });
    expect(buttons.save).toEqual({ enabled: true, title: "Save the template to task.unfold.json (Ctrl+S)" });
  });

  it("acts on the open scenario on the Compare page", () => {
    const { kind, buttons } = pageDocument("compare", status(), SCENARIO);
    expect(kind).toBe("scenario");
    expect(buttons.undo).toEqual({ enabled: true, title: "Undo in the scenario (Ctrl+Z)" });
    expect(buttons.redo.enabled).toBe(false);
    expect(buttons.save).toEqual({ enabled: true, title: "Save the scenario to lookup-first.scenario.json (Ctrl+S)" });
  });

  it("has nothing to do on the Compare page while no scenario is open", () => {
    const { kind, buttons } = pageDocument("compare", status({ dirty: true, can_undo: true }), null);
    expect(kind).toBe("scenario");
    expect(Object.values(buttons).map((button) => button.enabled)).toEqual([false, false, false]);
    expect(buttons.save.title).toBe("Save the scenario: no scenario is open");
  });

  it.each([
    ["template", "edit", false],
    ["scenario", "compare", true],
  ] as const)("saves an unchanged untitled %s: %s", (kind, page, enabled) => {
    const untitled = status({ path: null });
    const { buttons } = pageDocument(page, untitled, untitled);
    expect(buttons.save).toEqual({ enabled, title: `Save the untitled ${kind}: asks where (Ctrl+S)` });
  });

  it("keeps Save disabled for a saved, unchanged document", () => {
    expect(pageDocument("compare", status(), status({ path: "/s/a.scenario.json" })).buttons.save.enabled).toBe(false);
    expect(pageDocument("edit", status(), null).buttons.save.enabled).toBe(false);
  });
});

describe("actOnPageDocument", () => {
  it("calls the action of the page's document only", async () => {
    const stores = {
      template: {
        undo: vi.fn(() => Promise.resolve()),
        redo: vi.fn(() => Promise.resolve()),
        save: vi.fn(() => Promise.resolve()),
      },
      scenario: {
        undo: vi.fn(() => Promise.resolve()),
        redo: vi.fn(() => Promise.resolve()),
        save: vi.fn(() => Promise.resolve()),
      },
    };
    await actOnPageDocument("save", "scenario", stores);
    await actOnPageDocument("undo", "template", stores);
    expect(stores.scenario.save).toHaveBeenCalledOnce();
    expect(stores.template.save).not.toHaveBeenCalled();
    expect(stores.template.undo).toHaveBeenCalledOnce();
    expect(stores.scenario.undo).not.toHaveBeenCalled();
  });
});
