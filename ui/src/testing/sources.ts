// Test-only: the example template with tool sources of every kind, for the Sources panel's tests —
// `ide`, a command on the `context` section with a folder, an environment variable and a snapshot
// of two tools; `docs`, a URL on another machine for the template's own tools, without a snapshot;
// `codap`, a relay plugin on `style` — with `x-` fields on a source and on its server that the UI
// must keep; the tools a started `ide` lists; and the same template with written tools of every
// kind, on itself and on sections at two depths, for the catalog of the template's tools.
// And a session of the app's relay.
import type { RelaySessionView, Section, Template, Tool, ToolSource } from "../platform";
import { exampleTemplate } from "./fakePlatform";
import { sectionAt } from "../shared/template";

/** A source tool with its metadata. */
export function sourceTool(name: string, rest: Partial<Tool> = {}): Tool {
  return { name, description: `${name} things`, parameters: { type: "object" }, ...rest };
}

/** The snapshot `ide` has: grep (read, search) and open (edit, asks permission). */
export function ideSnapshot(): Tool[] {
  return [
    sourceTool("grep", { kind: "read", categories: ["search"] }),
    sourceTool("open_file", { kind: "edit", categories: ["files"], requires_permission: true }),
  ];
}

/** What `ide` lists when started: one tool more than its snapshot. */
export function ideLive(): Tool[] {
  return [...ideSnapshot(), sourceTool("diagnostics", { kind: "read", categories: ["search", "lint"] })];
}

/** The three sources, `ide` and its server with `x-` fields. */
export function exampleSources(): ToolSource[] {
  return [
    {
      name: "ide",
      section: "context",
      mcp: { command: ["python3", "ide_server.py"], cwd: ".", env: { TOKEN: "${env:TOKEN}" }, "x-transport": "stdio" },
      snapshot: ideSnapshot(),
      "x-owner": "team-a",
    } as ToolSource,
    { name: "docs", section: null, mcp: { url: "https://docs.example.com/mcp" } },
    {
      name: "codap",
      section: "style",
      relay: { plugin: "codap" },
      snapshot: [sourceTool("plot", { kind: "other", categories: ["data"] })],
    },
  ];
}

/** The example template with `exampleSources`. */
export function templateWithSources(): Template {
  return { ...exampleTemplate(), sources: exampleSources() };
}

/** The section at `path` of `template`, which must have one. */
export function sectionOf(template: Template, path: string): Section {
  const section = sectionAt(template, path);
  if (section === undefined) throw new Error(`no section ${path}`);
  return section;
}

/**
 * `templateWithSources` with written tools: `lookup` (read, docs) its own, `search` (read, search)
 * and `cite` (no kind) on `context`, `run` (execute, asks permission) on `context.examples`.
 */
export function templateWithWrittenTools(): Template {
  const template = templateWithSources();
  template.tools = [sourceTool("lookup", { kind: "read", categories: ["docs"] })];
  sectionOf(template, "context").tools = [
    sourceTool("search", { kind: "read", categories: ["search"] }),
    sourceTool("cite"),
  ];
  sectionOf(template, "context.examples").tools = [sourceTool("run", { kind: "execute", requires_permission: true })];
  return template;
}

/** A session of the app's relay where the plugin `plugin` registered `tools`. */
export function relaySession(code: string, plugin: string | null, tools: string[] = []): RelaySessionView {
  return {
    code,
    plugin_type: plugin,
    plugin_version: plugin === null ? null : "1.2.0",
    tools: tools.map((name) => sourceTool(name)),
    last_updated: null,
    streams: 1,
    expired: false,
  };
}
