// Tests for catalog.ts: the template's sources joined with the backend's views by name, a
// discovery's lists shown while the definition started is unchanged (not after an edit of its
// command), the lists Snapshot writes, the question that allows a source (what it starts, another
// machine, a changed definition), a source's problems, the catalog of the template's tools (written
// ones first, in document order, then the sources') with its filters, and the tree's badges.
import { describe, expect, it } from "vitest";
import type { SourceView, ToolSource } from "../platform";
import {
  exampleSources,
  ideLive,
  ideSnapshot,
  sectionOf,
  sourceTool,
  templateWithSources,
  templateWithWrittenTools,
} from "../testing/sources";
import {
  catalogTools,
  definitionOf,
  filterChoices,
  filterTools,
  liveLists,
  NO_FILTER,
  originText,
  problemsAt,
  snapshotDiffers,
  sourceBadges,
  sourceRows,
  toolCatalog,
  toolsText,
  WRITTEN,
  writtenTools,
  type CatalogTool,
  type Discovered,
  type ToolFilter,
} from "./catalog";

function view(source: ToolSource, rest: Partial<SourceView> = {}): SourceView {
  return {
    name: source.name,
    section: source.section,
    starts: `starts ${source.name}`,
    remote: false,
    permission: "not_allowed",
    tier: source.snapshot === undefined ? "none" : "snapshot",
    error: null,
    tools: source.snapshot ?? [],
    ...rest,
  };
}

describe("source rows", () => {
  const sources = exampleSources();
  const [ide, docs] = sources as [ToolSource, ToolSource];
  const views = sources.map((source) => view(source));
  const live: Record<string, Discovered> = {
    ide: { definition: definitionOf(ide), tier: "live", tools: ideLive(), error: null },
    docs: { definition: definitionOf(docs), tier: "none", tools: [], error: "source 'docs' is not allowed" },
  };

  it("joins each source with its view by name, or none before the backend answered", () => {
    const rows = sourceRows(sources, views, {});
    expect(rows.map((row) => [row.index, row.source.name, row.view?.tier, row.discovered])).toEqual([
      [0, "ide", "snapshot", false],
      [1, "docs", "none", false],
      [2, "codap", "snapshot", false],
    ]);
    expect(sourceRows(sources, null, {}).every((row) => row.view === null)).toBe(true);
  });

  it("shows what a discovery listed while the definition is the one started", () => {
    const rows = sourceRows(sources, views, live);
    expect(rows[0]?.view).toMatchObject({ tier: "live", tools: ideLive(), permission: "not_allowed" });
    expect(rows[0]?.discovered).toBe(true);
    expect(rows[1]?.view?.error).toBe("source 'docs' is not allowed");
    expect(liveLists(rows)).toEqual(new Map([["ide", ideLive()]]));
    expect(snapshotDiffers(rows[0] as (typeof rows)[0])).toBe(true);
    // A new section or snapshot keeps it; a new command does not.
    const attached = sourceRows([{ ...ide, section: "task", snapshot: ideLive() }], views, live);
    expect(attached[0]?.view?.tier).toBe("live");
    expect(snapshotDiffers(attached[0] as (typeof attached)[0])).toBe(false);
    const edited = sourceRows([{ ...ide, mcp: { command: ["node", "ide.js"] } }], views, live);
    expect(edited[0]).toMatchObject({ discovered: false, view: { tier: "snapshot", tools: ideSnapshot() } });
    expect(liveLists(edited).size).toBe(0);
  });

  it("fingerprints a definition by name, server or plugin, whatever the order of keys", () => {
    expect(definitionOf({ name: "a", mcp: { url: "u", command: undefined } })).toBe(
      definitionOf({ mcp: { url: "u" }, name: "a" }),
    );
    expect(definitionOf({ name: "a", mcp: { url: "u" } })).not.toBe(definitionOf({ name: "b", mcp: { url: "u" } }));
  });

  it("says where the tools came from, with their names", () => {
    expect(toolsText(view(ide))).toBe("tools from ide (its snapshot): grep, open_file");
    expect(toolsText(view(docs))).toBe("tools from docs (none): no tools");
    expect(toolsText({ name: "ide", tier: "live", tools: ideLive() })).toBe(
      "tools from ide (listed live): grep, open_file, diagnostics",
    );
  });
});

describe("a source's problems", () => {
  it("are the template's at /sources/<index> and under it", () => {
    const problems = [
      { location: "/sources/1/mcp/url", message: "bad URL" },
      { location: "/sources/10/name", message: "not this one" },
      { location: "/sources/1", message: "whole" },
      { location: "/sections/0/key", message: "elsewhere" },
    ];
    expect(problemsAt(problems, 1).map((p) => p.message)).toEqual(["bad URL", "whole"]);
    expect(problemsAt(problems, 0)).toEqual([]);
  });
});

describe("the tool catalog", () => {
  const rows = sourceRows(exampleSources(), null, {});
  const tools = catalogTools(rows);

  it("lists every source's tools, its snapshot before the backend answers", () => {
    expect(tools.map(({ source, tool }) => `${source}/${tool.name}`)).toEqual([
      "ide/grep",
      "ide/open_file",
      "codap/plot",
    ]);
  });

  it("filters by kind, category and source, together", () => {
    const names = (filter: Partial<typeof NO_FILTER>) =>
      filterTools(tools, { ...NO_FILTER, ...filter }).map(({ tool }) => tool.name);
    expect(names({})).toEqual(["grep", "open_file", "plot"]);
    expect(names({ kind: "read" })).toEqual(["grep"]);
    expect(names({ kind: "execute" })).toEqual([]);
    expect(names({ category: "data" })).toEqual(["plot"]);
    expect(names({ source: "ide" })).toEqual(["grep", "open_file"]);
    expect(names({ source: "ide", category: "files" })).toEqual(["open_file"]);
    expect(names({ source: "ide", kind: "other" })).toEqual([]);
  });

  it("offers the kinds, categories and sources the tools have", () => {
    expect(filterChoices(tools)).toEqual({
      kinds: ["read", "edit", "other"],
      categories: ["data", "files", "search"],
      sources: ["ide", "codap"],
      written: false,
    });
  });
});

/** Each tool as "<source>/<name>", a written one as "written(<section>)/<name>". */
function labels(tools: readonly CatalogTool[]): string[] {
  return tools.map(({ source, section, tool }) =>
    source === null ? `written(${section ?? ""})/${tool.name}` : `${source}/${tool.name}`,
  );
}

describe("the catalog of the template's tools, written or discovered", () => {
  const template = templateWithWrittenTools();
  const tools = toolCatalog(template, sourceRows(template.sources ?? [], null, {}));
  const names = (filter: Partial<ToolFilter>) => labels(filterTools(tools, { ...NO_FILTER, ...filter }));

  it("lists the written tools first, in document order, then every source's", () => {
    expect(labels(tools)).toEqual([
      "written()/lookup",
      "written(context)/search",
      "written(context)/cite",
      "written(context.examples)/run",
      "ide/grep",
      "ide/open_file",
      "codap/plot",
    ]);
    expect(tools.find(({ tool }) => tool.name === "grep")?.section).toBe("context");
    expect(tools.find(({ tool }) => tool.name === "plot")?.section).toBe("style");
  });

  it("takes a section's tools before its children's, and its children's before its next sibling's", () => {
    const template = templateWithWrittenTools();
    sectionOf(template, "context.history").tools = [sourceTool("older")];
    sectionOf(template, "style").tools = [sourceTool("lint")];
    sectionOf(template, "task").tools = [sourceTool("plan")];
    expect(labels(writtenTools(template))).toEqual([
      "written()/lookup",
      "written(task)/plan",
      "written(context)/search",
      "written(context)/cite",
      "written(context.examples)/run",
      "written(context.history)/older",
      "written(style)/lint",
    ]);
  });

  it("has no written tools for a template without any", () => {
    const template = templateWithSources();
    template.tools = [];
    sectionOf(template, "context").tools = [];
    expect(writtenTools(template)).toEqual([]);
    expect(labels(toolCatalog(template, sourceRows(template.sources ?? [], null, {})))).toEqual([
      "ide/grep",
      "ide/open_file",
      "codap/plot",
    ]);
  });

  it("keeps only the written tools for the written choice, and only a source's for its name", () => {
    expect(names({ source: WRITTEN })).toEqual([
      "written()/lookup",
      "written(context)/search",
      "written(context)/cite",
      "written(context.examples)/run",
    ]);
    expect(names({ source: "ide" })).toEqual(["ide/grep", "ide/open_file"]);
    expect(names({ source: "docs" })).toEqual([]);
  });

  it("filters written and source tools alike by kind and category", () => {
    expect(names({ kind: "read" })).toEqual(["written()/lookup", "written(context)/search", "ide/grep"]);
    expect(names({ kind: "execute" })).toEqual(["written(context.examples)/run"]);
    expect(names({ category: "search" })).toEqual(["written(context)/search", "ide/grep"]);
    expect(names({ category: "docs" })).toEqual(["written()/lookup"]);
    expect(names({ kind: "read", source: WRITTEN })).toEqual(["written()/lookup", "written(context)/search"]);
    expect(names({ kind: "edit", source: WRITTEN })).toEqual([]);
    expect(names({ category: "search", source: "ide" })).toEqual(["ide/grep"]);
  });

  it("offers the written tools' kinds and categories, and the written choice, besides the sources'", () => {
    expect(filterChoices(tools)).toEqual({
      kinds: ["read", "edit", "execute", "other"],
      categories: ["data", "docs", "files", "search"],
      sources: ["ide", "codap"],
      written: true,
    });
  });

  it("says where a tool comes from", () => {
    expect(originText({ source: "ide", section: "context" })).toBe("from ide");
    expect(originText({ source: null, section: null })).toBe("written in the template's own tools");
    expect(originText({ source: null, section: "context.examples" })).toBe("written in context.examples");
  });
});

describe("tree badges", () => {
  it("count each section's source tools and say where they came from; the template's own sources have no row", () => {
    const sources = exampleSources();
    const badges = sourceBadges(
      sourceRows(
        sources,
        sources.map((source) => view(source)),
        {},
      ),
    );
    expect([...badges.keys()]).toEqual(["context", "style"]);
    expect(badges.get("context")).toEqual({
      text: "⚡ 2",
      label: "Tools from source ide: 2 tools (its snapshot). Show them in Sources",
      sources: ["ide"],
    });
  });

  it("sum up a section with more than one source", () => {
    const [ide, , codap] = exampleSources() as [ToolSource, ToolSource, ToolSource];
    const badges = sourceBadges(sourceRows([ide, { ...codap, section: "context" }], null, {}));
    expect(badges.get("context")?.text).toBe("⚡ 3");
    expect(badges.get("context")?.label).toBe(
      "Tools from sources ide: 2 tools (its snapshot), codap: 1 tool (its snapshot). Show them in Sources",
    );
    expect(badges.get("context")?.sources).toEqual(["ide", "codap"]);
  });
});
