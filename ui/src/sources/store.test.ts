// Tests for store.ts following the editor's store over the fake platform: the views are asked for when
// the document opens with sources and again only when its sources or its file change (never for a
// keystroke or another edit, never for a template without sources); allow, revoke and a discovery answer with every
// source's view; what a discovery listed stays through an edit of the section or the snapshot and
// goes with a changed command or a revoke; a refusal says why and changes nothing.
import { describe, expect, it } from "vitest";
import { FakePlatform } from "../testing/fakePlatform";
import { ideLive, templateWithSources } from "../testing/sources";
import { sourceRows } from "./catalog";
import type { SourcesStore } from "./store";
import { attachSourceEdit, replaceSourceEdit, snapshotEdit } from "./sourceEdits";
import { settle } from "../testing/dom";
import { openTemplate, type EditorStore } from "../testing/editPage";

async function opened(platform = new FakePlatform("/t/task.unfold.json", templateWithSources())) {
  const { editor: store, sources } = openTemplate(platform);
  await settle();
  return { platform, store, sources };
}

function asked(platform: FakePlatform): number {
  return platform.callNames().filter((name) => name === "templateSources").length;
}

/** Each source's name, answer and tier as the panel would show them. */
function shown(store: EditorStore, sources: SourcesStore): string[] {
  const { views, discovered } = sources.getState();
  return sourceRows(store.getState().document.template.sources ?? [], views, discovered).map(
    (row) => `${row.source.name}: ${row.view?.permission ?? "?"}, ${row.view?.tier ?? "?"}`,
  );
}

describe("SourcesStore", () => {
  it("asks for the views when the document opens, and again only when its sources or its file change", async () => {
    const { platform, store, sources } = await opened();
    expect(asked(platform)).toBe(1);
    expect(shown(store, sources)).toEqual([
      "ide: not_allowed, snapshot",
      "docs: not_allowed, none",
      "codap: not_needed, snapshot",
    ]);
    await store.setField("task", "template", "Do it");
    await store.setSetting("name", "Runner");
    await store.restructure("task", "add_sibling");
    await settle();
    expect(asked(platform)).toBe(1);
    await store.editSources((t) => attachSourceEdit(t, { index: 1, name: "docs" }, "task"));
    await settle();
    expect(asked(platform)).toBe(2);
    await store.undo();
    await settle();
    expect(asked(platform)).toBe(3);
    expect(store.getState().document.template.sources?.[1]?.section).toBeNull();
  });

  it("never asks for a template without sources", async () => {
    const platform = new FakePlatform();
    const { sources } = await opened(platform);
    expect(sources.getState().views).toEqual([]);
    expect(platform.callNames()).not.toContain("templateSources");
  });

  it("allows and revokes a source, taking the answer's views", async () => {
    const { platform, store, sources } = await opened();
    await sources.allow("ide");
    expect(platform.argsOf("allowSource")).toEqual([[1, "ide"]]);
    expect(shown(store, sources)[0]).toBe("ide: allowed, snapshot");
    await sources.revoke("ide");
    expect(platform.argsOf("revokeSource")).toEqual([[1, "ide"]]);
    expect(shown(store, sources)[0]).toBe("ide: not_allowed, snapshot");
  });

  it("asks again when a changed definition makes an allowed source changed", async () => {
    const { store, sources } = await opened();
    await sources.allow("ide");
    const source = store.getState().document.template.sources?.[0];
    if (source === undefined) throw new Error("no ide");
    await store.editSources((t) =>
      replaceSourceEdit(t, { index: 0, name: "ide" }, { ...source, mcp: { command: ["node", "ide.js"] } }),
    );
    await settle();
    expect(shown(store, sources)[0]).toBe("ide: changed, snapshot");
  });

  it("reads the preview and its figures again once a discovery listed the sources, or a permission went", async () => {
    const { platform, sources } = await opened();
    platform.liveSources.set("ide", ideLive());
    await sources.allow("ide");
    await settle();
    const count = (name: "previewDocument" | "templateEconomics") =>
      platform.callNames().filter((called) => called === name).length;
    const [previews, economics] = [count("previewDocument"), count("templateEconomics")];
    await sources.discover();
    await settle();
    // The backend shows what was listed from now on: the preview and its economics are asked again.
    expect([count("previewDocument"), count("templateEconomics")]).toEqual([previews + 1, economics + 1]);
    await sources.revoke("ide");
    await settle();
    expect([count("previewDocument"), count("templateEconomics")]).toEqual([previews + 2, economics + 2]);
  });

  it("keeps what a discovery listed through an edit of the section or snapshot, not through a new command", async () => {
    const { platform, store, sources } = await opened();
    platform.liveSources.set("ide", ideLive());
    await sources.allow("ide");
    await sources.discover();
    expect(platform.argsOf("discoverSources")).toEqual([[1]]);
    expect(sources.getState().hasDiscovered).toBe(true);
    expect(shown(store, sources)).toEqual([
      "ide: allowed, live",
      "docs: not_allowed, none",
      "codap: not_needed, snapshot",
    ]);
    expect(sources.getState().views?.[1]?.error).toBe(
      "source 'docs' is not allowed; not started, and it has no snapshot",
    );
    await store.editSources((t) => snapshotEdit(t, new Map([["ide", ideLive()]])));
    await store.editSources((t) => attachSourceEdit(t, { index: 0, name: "ide" }, "task"));
    await settle();
    expect(shown(store, sources)[0]).toBe("ide: allowed, live");
    const source = store.getState().document.template.sources?.[0];
    if (source === undefined) throw new Error("no ide");
    await store.editSources((t) =>
      replaceSourceEdit(t, { index: 0, name: "ide" }, { ...source, mcp: { command: ["node"] } }),
    );
    await settle();
    expect(shown(store, sources)[0]).toBe("ide: changed, snapshot");
  });

  it("forgets what a discovery listed of a source once revoked", async () => {
    const { platform, store, sources } = await opened();
    platform.liveSources.set("ide", ideLive());
    await sources.allow("ide");
    await sources.discover();
    await sources.revoke("ide");
    expect(shown(store, sources)[0]).toBe("ide: not_allowed, snapshot");
  });

  it("says why an answer was refused, and keeps the views", async () => {
    const platform = new FakePlatform("/t/task.unfold.json", templateWithSources());
    platform.currentPath = null;
    const { store, sources } = await opened(platform);
    expect(shown(store, sources)[0]).toBe("ide: unsaved, snapshot");
    await sources.allow("ide");
    expect(sources.getState().failure).toEqual({
      title: "Source 'ide' was not allowed",
      detail: "cannot allow source 'ide': save the template first: an answer is kept for its file",
    });
    expect(shown(store, sources)[0]).toBe("ide: unsaved, snapshot");
    expect(sources.getState().busy).toBeNull();
  });
});
