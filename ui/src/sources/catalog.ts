// What the Sources panel and the section tree show of a template's tool sources, without React: each
// source of the template as it stands joined with the backend's view of it (the user's answer, what
// starting it does, where its tools came from) and with what the last discovery listed while its
// definition is unchanged; the section a source belongs to and where its tools came from, in words
// (the user's answers and the question that allows a source are shared/words.ts); the catalog of the template's tools (the ones written in it first, in
// document order, then every source's) with the filters by kind, category and source (or written);
// the tree's badge of a section's source tools; and a source's problems from the template's.
import { count, discoveryText, TIER_WORDS } from "../shared/words";
import type { ProblemView, Section, SourceView, Template, Tier, Tool, ToolKind, ToolSource } from "../platform";
import { sameJsonIgnoringUndefined } from "../shared/json";
import { TOOL_KINDS } from "../shared/template";
import { childPath } from "../shared/template";

/** What a discovery found for one source, and the definition it was started with. */
export interface Discovered {
  /** The definition's fingerprint (`definitionOf`) when it was listed. */
  definition: string;
  tier: Tier;
  tools: Tool[];
  error: string | null;
}

/**
 * What an answer and a discovery hold for: the source's name and what it starts (its MCP server or
 * relay plugin), as the backend fingerprints it; not its section or snapshot.
 */
export function definitionOf(source: Pick<ToolSource, "name" | "mcp" | "relay">): string {
  return JSON.stringify(canonical({ name: source.name, mcp: source.mcp ?? null, relay: source.relay ?? null }));
}

/** `value` with its objects' keys in order, so equal definitions write the same text. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value !== "object" || value === null) return value;
  const entries = Object.entries(value).filter(([, v]) => v !== undefined);
  return Object.fromEntries(
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => [k, canonical(v)]),
  );
}

/** One source of the template, as the panel shows it. */
export interface SourceRow {
  /** Its position in the template's sources. */
  index: number;
  /** The source as the template has it now. */
  source: ToolSource;
  /** The backend's view of it (with a discovery's list over its snapshot); null until it answers. */
  view: SourceView | null;
  /** Whether its tools are what the last discovery listed (not its snapshot). */
  discovered: boolean;
}

/**
 * The template's sources in order, each with the backend's view of the same name (`views`: its last
 * answer, null before one) and, while its definition is the one started, what the last discovery
 * (`discovered`, by name) found in place of the view's tools.
 */
export function sourceRows(
  sources: readonly ToolSource[],
  views: readonly SourceView[] | null,
  discovered: Readonly<Record<string, Discovered>>,
): SourceRow[] {
  return sources.map((source, index) => {
    const view = views?.find((v) => v.name === source.name) ?? null;
    const found = Object.prototype.hasOwnProperty.call(discovered, source.name) ? discovered[source.name] : undefined;
    if (view === null || found?.definition !== definitionOf(source)) return { index, source, view, discovered: false };
    return {
      index,
      source,
      view: { ...view, tier: found.tier, tools: found.tools, error: found.error },
      discovered: true,
    };
  });
}

/** Each source's tools a discovery listed live, by name: what the Snapshot button writes. */
export function liveLists(rows: readonly SourceRow[]): Map<string, Tool[]> {
  const lists = new Map<string, Tool[]>();
  for (const { source, view, discovered } of rows) {
    if (discovered && view?.tier === "live") lists.set(source.name, view.tools);
  }
  return lists;
}

/** Whether `row`'s tools were listed live and differ from its snapshot (so Snapshot would change it). */
export function snapshotDiffers(row: SourceRow): boolean {
  return (
    row.discovered &&
    row.view?.tier === "live" &&
    !sameJsonIgnoringUndefined(row.source.snapshot ?? null, row.view.tools)
  );
}

/** Where a source's tools are offered: the section's path, or the template's own tools. */
export function sectionText(section: string | null): string {
  return section === null ? "the template's own tools" : section;
}

/** Where `view`'s tools came from, with their names: "tools from ide (its snapshot): grep, open". */
export function toolsText(view: Pick<SourceView, "name" | "tier" | "tools">): string {
  return discoveryText(
    view.name,
    view.tier,
    view.tools.map((tool) => tool.name),
  );
}

/** A source's problems among the template's (at `/sources/<index>` and under it). */
export function problemsAt(problems: readonly ProblemView[], index: number): ProblemView[] {
  const at = `/sources/${String(index)}`;
  return problems.filter((problem) => problem.location === at || problem.location.startsWith(`${at}/`));
}

/** One tool of the catalog, with where it comes from. */
export interface CatalogTool {
  /** Its source's name; null for a tool written in the template. */
  source: string | null;
  /** The section it belongs to (its source's, or where it is written); null: the template's own tools. */
  section: string | null;
  tool: Tool;
}

/**
 * The source filter's choice of the tools written in the template. No source is named so: a
 * source's name has only letters, digits, `_` and `-`.
 */
export const WRITTEN = ":written";

/** Which tools to show: each null lets every one through. */
export interface ToolFilter {
  kind: ToolKind | null;
  category: string | null;
  /** A source's name, or `WRITTEN` for the tools written in the template. */
  source: string | null;
}

export const NO_FILTER: ToolFilter = { kind: null, category: null, source: null };

/**
 * The template's tools: the ones written in it first, in document order (its own tools, then each
 * section's, parents before their children), then every source's (`rows`).
 */
export function toolCatalog(template: Pick<Template, "tools" | "sections">, rows: readonly SourceRow[]): CatalogTool[] {
  return [...writtenTools(template), ...catalogTools(rows)];
}

/** The tools written in the template, in document order, each with the section it is written in. */
export function writtenTools(template: Pick<Template, "tools" | "sections">): CatalogTool[] {
  const tools: CatalogTool[] = template.tools.map((tool) => ({ source: null, section: null, tool }));
  const visit = (sections: readonly Section[], parent: string | null) => {
    for (const section of sections) {
      const path = childPath(parent, section.key);
      tools.push(...section.tools.map((tool) => ({ source: null, section: path, tool })));
      visit(section.children, path);
    }
  };
  visit(template.sections, null);
  return tools;
}

/** Every source's tools, source after source, in each one's order. */
export function catalogTools(rows: readonly SourceRow[]): CatalogTool[] {
  return rows.flatMap(({ source, view }) =>
    toolsOfRow(source, view).map((tool) => ({ source: source.name, section: source.section, tool })),
  );
}

/** A row's tools: its view's, else (before the backend answered) its snapshot. */
function toolsOfRow(source: ToolSource, view: SourceView | null): Tool[] {
  return view?.tools ?? source.snapshot ?? [];
}

/** Whether `entry` is let through by the source filter's choice (`WRITTEN`: only the written tools). */
function fromSource(entry: CatalogTool, source: string | null): boolean {
  if (source === null) return true;
  return source === WRITTEN ? entry.source === null : entry.source === source;
}

/** The tools `filter` lets through (a tool without a kind only when no kind is asked for, as the core filters). */
export function filterTools(tools: readonly CatalogTool[], filter: ToolFilter): CatalogTool[] {
  return tools.filter(
    (entry) =>
      (filter.kind === null || entry.tool.kind === filter.kind) &&
      (filter.category === null || (entry.tool.categories ?? []).includes(filter.category)) &&
      fromSource(entry, filter.source),
  );
}

/**
 * The choices of each filter: the kinds, categories (sorted) and sources the tools have, and whether
 * some are written in the template.
 */
export function filterChoices(tools: readonly CatalogTool[]): {
  kinds: ToolKind[];
  categories: string[];
  sources: string[];
  written: boolean;
} {
  const kinds = new Set(tools.flatMap(({ tool }) => (tool.kind === undefined ? [] : [tool.kind])));
  const categories = new Set(tools.flatMap(({ tool }) => tool.categories ?? []));
  const sources = new Set(tools.flatMap(({ source }) => (source === null ? [] : [source])));
  return {
    kinds: TOOL_KINDS.filter((kind) => kinds.has(kind)),
    categories: [...categories].sort(),
    sources: [...sources],
    written: tools.some(({ source }) => source === null),
  };
}

/** Where a catalog tool comes from, in words: "from ide", "written in context.examples". */
export function originText(entry: Pick<CatalogTool, "source" | "section">): string {
  return entry.source === null ? `written in ${sectionText(entry.section)}` : `from ${entry.source}`;
}

/** The source filter's words for the tools written in the template. */
export const WRITTEN_WORDS = "Written in the template";

/** What a tool does to the world, as the catalog says it. */
export const KIND_WORDS: Readonly<Record<ToolKind, string>> = {
  read: "reads",
  edit: "edits",
  execute: "executes",
  other: "other",
};

/** A section's badge in the tree: its sources' tools. */
export interface SourceBadge {
  /** What the badge shows, short enough for a narrow tree: "⚡ 3", the count of its source tools. */
  text: string;
  /** Its accessible name and tooltip: each source, its count and where its tools came from. */
  label: string;
  /** The sources, in order. */
  sources: string[];
}

/** The badge of every section that has sources, by section path (the template's own sources have no row). */
export function sourceBadges(rows: readonly SourceRow[]): Map<string, SourceBadge> {
  const bySection = new Map<string, { name: string; count: number; tier: Tier }[]>();
  for (const { source, view } of rows) {
    if (source.section === null) continue;
    const tools = toolsOfRow(source, view);
    const tier: Tier = view?.tier ?? (source.snapshot === undefined ? "none" : "snapshot");
    const entry = { name: source.name, count: tools.length, tier };
    bySection.set(source.section, [...(bySection.get(source.section) ?? []), entry]);
  }
  const badges = new Map<string, SourceBadge>();
  for (const [section, entries] of bySection) {
    const total = entries.reduce((sum, entry) => sum + entry.count, 0);
    const each = entries.map((entry) => `${entry.name}: ${count(entry.count, "tool")} (${TIER_WORDS[entry.tier]})`);
    const label = `${entries.length === 1 ? "Tools from source" : "Tools from sources"} ${each.join(", ")}. Show them in Sources`;
    badges.set(section, { text: `⚡ ${String(total)}`, label, sources: entries.map((entry) => entry.name) });
  }
  return badges;
}
