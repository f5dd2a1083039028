// Tests for sourceEdits.ts: every edit is `set_sources` with the whole list; a changed source is the
// old one spread, so `x-` fields stay; a source is found at its place or by its name after the list
// moved; nothing to change is null; a discovery's lists become snapshots of those sources only.
import { describe, expect, it } from "vitest";
import type { TemplateEdit, ToolSource } from "../platform";
import { exampleTemplate } from "../testing/fakePlatform";
import { exampleSources, ideLive, templateWithSources } from "../testing/sources";
import {
  addSourceEdit,
  attachSourceEdit,
  findSource,
  removeSourceEdit,
  replaceSourceEdit,
  setSourcesEdit,
  snapshotEdit,
  sourcesOf,
} from "./sourceEdits";
import { sameJsonIgnoringUndefined } from "../shared/json";

/** The list a `set_sources` request sends. */
function sent(request: { edit: TemplateEdit } | null): ToolSource[] {
  if (request?.edit.op !== "set_sources") throw new Error(`not a set_sources edit: ${JSON.stringify(request)}`);
  return request.edit.sources as ToolSource[];
}

describe("source edits", () => {
  const template = templateWithSources();
  const [ide, docs, codap] = exampleSources() as [ToolSource, ToolSource, ToolSource];

  it("adds a source at the end, sending the whole list as one step", () => {
    const added: ToolSource = { name: "web", section: "task", mcp: { url: "http://127.0.0.1:8931/mcp" } };
    const request = addSourceEdit(template, added);
    expect(request?.group).toBeNull();
    expect(sent(request)).toEqual([ide, docs, codap, added]);
    expect(sent(addSourceEdit(exampleTemplate(), added))).toEqual([added]);
  });

  it("attaches a source to a section, or to the template's own tools, keeping its x- fields", () => {
    const moved = sent(attachSourceEdit(template, { index: 0, name: "ide" }, "task"));
    expect(moved[0]).toEqual({ ...ide, section: "task" });
    expect(moved[0]).toHaveProperty("x-owner", "team-a");
    expect(moved[0]?.mcp).toHaveProperty("x-transport", "stdio");
    expect(moved.slice(1)).toEqual([docs, codap]);
    expect(sent(attachSourceEdit(template, { index: 2, name: "codap" }, null))[2]).toEqual({ ...codap, section: null });
    expect(attachSourceEdit(template, { index: 0, name: "ide" }, "context")).toBeNull();
  });

  it("removes a source", () => {
    expect(sent(removeSourceEdit(template, { index: 1, name: "docs" }))).toEqual([ide, codap]);
    expect(removeSourceEdit(template, { index: 1, name: "gone" })).toBeNull();
  });

  it("replaces a source in its place", () => {
    const changed = { ...docs, mcp: { url: "http://localhost:9000/mcp" } };
    expect(sent(replaceSourceEdit(template, { index: 1, name: "docs" }, changed))).toEqual([ide, changed, codap]);
    expect(replaceSourceEdit(template, { index: 1, name: "docs" }, { ...docs })).toBeNull();
  });

  it("finds a source by its name when the list moved since", () => {
    const sources = sourcesOf(template);
    expect(findSource(sources, { index: 2, name: "codap" })).toBe(2);
    expect(findSource(sources, { index: 0, name: "codap" })).toBe(2);
    expect(findSource(sources, { index: 0, name: "gone" })).toBe(-1);
    expect(sent(removeSourceEdit(template, { index: 0, name: "codap" }))).toEqual([ide, docs]);
  });

  it("writes the listed tools as those sources' snapshots, keeping everything else", () => {
    const request = snapshotEdit(template, new Map([["ide", ideLive()]]));
    const sources = sent(request);
    expect(sources[0]).toEqual({ ...ide, snapshot: ideLive() });
    expect(sources[0]).toHaveProperty("x-owner", "team-a");
    expect(sources[0]?.mcp).toEqual(ide.mcp);
    expect(sources.slice(1)).toEqual([docs, codap]);
    // A source with no snapshot gets its first; a list equal to the snapshot changes nothing.
    expect(sent(snapshotEdit(template, new Map([["docs", []]])))[1]).toEqual({ ...docs, snapshot: [] });
    expect(snapshotEdit(template, new Map([["ide", ide.snapshot ?? []]]))).toBeNull();
  });

  it("compares JSON whatever the order of keys", () => {
    expect(sameJsonIgnoringUndefined({ a: 1, b: [1, { c: 2, d: 3 }] }, { b: [1, { d: 3, c: 2 }], a: 1 })).toBe(true);
    expect(sameJsonIgnoringUndefined({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(sameJsonIgnoringUndefined([1, 2], [2, 1])).toBe(false);
    expect(sameJsonIgnoringUndefined({ a: undefined }, {})).toBe(true);
    expect(setSourcesEdit(template, exampleSources().reverse())).not.toBeNull();
  });
});
