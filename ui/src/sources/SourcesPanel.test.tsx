// Renders the whole editor over the fake platform with a template that has sources, on its Sources
// tab: each source with its section, what it starts, the user's answer and where its tools come from;
// Allow asks first, naming exactly what will run (and another machine for a remote URL), and only
// the answer calls the backend; a changed definition asks again, an unsaved template says to save
// first, Revoke takes an answer back; Discover now lists the allowed sources live and says why the
// others could not be; Write snapshots sends those lists as a set_sources edit keeping x- fields
// (undone by Undo); add, edit, remove and attach send the whole list; problems show on their source;
// the template's tools list the written ones first (where each is written) and then the sources',
// and the filters (kind, category, source or written) filter them all; and the tree's badges and the
// Template panel lead here; the Relay section starts and stops the app's relay, watches its log and
// reads its sessions again on every entry, and says why it did not start.
import { act } from "react";
import type { Root } from "react-dom/client";
import { describe, expect, it, vi } from "vitest";
import type { Template, TemplateEdit, ToolSource } from "../platform";
import { exampleTemplate, FakePlatform } from "../testing/fakePlatform";
import {
  exampleSources,
  ideLive,
  relaySession,
  templateWithSources,
  templateWithWrittenTools,
} from "../testing/sources";
import { mountEachTest } from "../testing/testRoot";
import { all, choose, click, none, one, settle, typeInto, valueOf } from "../testing/dom";
import { EditPageOf, openTemplate, type EditorStore } from "../testing/editPage";

let container: HTMLDivElement;
let root: Root;

mountEachTest((mounted) => {
  ({ container, root } = mounted);
});

/**
 * The editor over `template` (saved at /t/task.unfold.json unless `unsaved`), on its Sources tab
 * unless not `tab`; `setup` prepares the backend before the editor opens.
 */
async function renderSources(
  template: Template = templateWithSources(),
  {
    unsaved = false,
    tab = true,
    setup,
  }: { unsaved?: boolean; tab?: boolean; setup?: (platform: FakePlatform) => void } = {},
): Promise<{ platform: FakePlatform; store: EditorStore }> {
  const platform = new FakePlatform("/t/task.unfold.json", template);
  if (unsaved) platform.currentPath = null;
  setup?.(platform);
  const opened = openTemplate(platform);
  const store = opened.editor;
  await act(async () => {
    root.render(<EditPageOf template={opened} />);
    await Promise.resolve();
  });
  await settle();
  if (tab) await click(one("tab-sources"));
  return { platform, store };
}

/** The card of source `name`. */
function card(name: string): HTMLElement {
  const found = container.querySelector<HTMLElement>(`[data-testid="source"][data-name="${name}"]`);
  if (found === null) throw new Error(`no card for source ${name}`);
  return found;
}

/** The sources each set_sources edit sent, in order. */
function sentSources(platform: FakePlatform): ToolSource[][] {
  return platform
    .argsOf("applyEdit")
    .map(([, edit]) => edit as TemplateEdit)
    .filter((edit) => edit.op === "set_sources")
    .map((edit) => edit.sources as ToolSource[]);
}

function lastSent(platform: FakePlatform): ToolSource[] {
  const sent = sentSources(platform).at(-1);
  if (sent === undefined) throw new Error("no set_sources edit was sent");
  return sent;
}

/** The tools listed, each as "<source>/<name>", a written one as "written(<section>)/<name>". */
function shownTools(): string[] {
  return all("source-tool").map((tool) => {
    const from =
      tool.dataset.origin === "written" ? `written(${tool.dataset.section ?? ""})` : (tool.dataset.source ?? "");
    return `${from}/${tool.dataset.name ?? ""}`;
  });
}

/** The listed tool `name` (there must be exactly one). */
function toolRow(name: string): HTMLElement {
  const found = all("source-tool").filter((tool) => tool.dataset.name === name);
  if (found.length !== 1 || found[0] === undefined) throw new Error(`not exactly one listed tool ${name}`);
  return found[0];
}

describe("Sources panel: the list", () => {
  it("shows each source's name, section, what it starts, the answer and where its tools come from", async () => {
    await renderSources();
    expect(one("tab-sources").textContent).toBe("Sources (3)");
    expect(all("source").map((element) => element.dataset.name)).toEqual(["ide", "docs", "codap"]);
    const ide = card("ide");
    expect(valueOf(one("source-section", ide))).toBe("context");
    expect(one("source-starts", ide).textContent).toBe("runs python3 ide_server.py in /t/. with TOKEN");
    expect(one("source-permission", ide).textContent).toBe("Not allowed");
    expect(one("source-permission-text", ide).textContent).toBe(
      "Not allowed: nothing starts it, runs use its snapshot.",
    );
    expect(one("source-tools-line", ide).textContent).toBe("tools from ide (its snapshot): grep, open_file");
    expect(none("source-remote", ide)).toBe(true);
    const docs = card("docs");
    expect(valueOf(one("source-section", docs))).toBe("");
    const select = one("source-section", docs) as HTMLSelectElement;
    expect(select.options[select.selectedIndex]?.textContent).toBe("The template's own tools");
    expect(one("source-starts", docs).textContent).toBe("connects to https://docs.example.com/mcp");
    expect(one("source-remote", docs).textContent).toBe("another machine");
    expect(one("source-tools-line", docs).textContent).toBe("tools from docs (none): no tools");
    expect(one("source-error", docs).textContent).toBe("not started, and it has no snapshot");
    expect(one("source-starts", card("codap")).textContent).toBe("the relay plugin 'codap'");
  });

  it("says there are none, and adds the first", async () => {
    const { platform } = await renderSources(exampleTemplate());
    expect(one("tab-sources").textContent).toBe("Sources");
    expect(one("source-list").textContent).toBe("No sources");
    expect(platform.callNames()).not.toContain("templateSources");
    expect((one("discover-sources") as HTMLButtonElement).disabled).toBe(true);
  });
});

describe("Sources panel: allowing", () => {
  it("asks first, naming the command; Cancel sends nothing", async () => {
    const { platform } = await renderSources();
    await click(one("allow-source", card("ide")));
    const dialog = one("allow-dialog");
    expect(dialog.getAttribute("role")).toBe("alertdialog");
    expect(dialog.querySelector("h2")?.textContent).toBe("Allow source 'ide'?");
    expect(one("allow-starts").textContent).toBe("runs python3 ide_server.py in /t/. with TOKEN");
    expect(none("allow-remote")).toBe(true);
    expect(document.activeElement).toBe(one("allow-cancel"));
    await click(one("allow-cancel"));
    expect(none("allow-dialog")).toBe(true);
    expect(platform.callNames()).not.toContain("allowSource");
  });

  it("allows on the answer, and the source shows it", async () => {
    const { platform } = await renderSources();
    await click(one("allow-source", card("ide")));
    await click(one("allow-confirm"));
    expect(platform.argsOf("allowSource")).toEqual([[1, "ide"]]);
    expect(none("allow-dialog")).toBe(true);
    expect(one("source-permission", card("ide")).textContent).toBe("Allowed");
    expect(none("allow-source", card("ide"))).toBe(true);
    expect(one("revoke-source", card("ide")).textContent).toBe("Revoke");
  });

  it("says a remote URL reaches another machine", async () => {
    await renderSources();
    await click(one("allow-source", card("docs")));
    expect(one("allow-starts").textContent).toBe("connects to https://docs.example.com/mcp");
    expect(one("allow-remote").textContent).toContain("This URL is on another machine");
  });

  it("asks again once the definition changed since it was allowed", async () => {
    await renderSources(templateWithSources(), {
      setup: (platform) => {
        platform.allowedSources.set("/t/task.unfold.json\nide", "an older definition");
      },
    });
    const ide = card("ide");
    expect(one("source-permission", ide).textContent).toBe("Changed since allowed");
    expect(one("source-permission-text", ide).textContent).toContain("Its definition changed since it was allowed");
    expect(one("allow-source", ide).textContent).toBe("Allow again…");
    await click(one("allow-source", ide));
    expect(one("allow-dialog").querySelector("h2")?.textContent).toBe("Allow source 'ide' again?");
    expect(one("allow-changed").textContent).toBe(
      "Its definition changed since you allowed it: this is what it starts now.",
    );
  });

  it("says to save first when the template has no file, with no Allow", async () => {
    await renderSources(templateWithSources(), { unsaved: true });
    const ide = card("ide");
    expect(one("source-permission", ide).textContent).toBe("Not saved yet");
    expect(one("source-permission-text", ide).textContent).toBe(
      "Save the template first: the answer is kept for its file.",
    );
    expect(all("allow-source")).toEqual([]);
  });

  it("asks nothing about a relay source: it starts nothing", async () => {
    await renderSources();
    const codap = card("codap");
    expect(one("source-permission", codap).textContent).toBe("Relay");
    expect(one("source-permission-text", codap).textContent).toBe(
      "Starts nothing: a comparison takes its tools from the relay session you attach it to.",
    );
    expect(codap.querySelector('[data-testid="allow-source"]')).toBeNull();
  });

  it("says no server is allowed only when the template has a server", async () => {
    await renderSources();
    expect(one("sources-status").textContent).toBe("No server is allowed: discovery lists none of them live.");
    const relayOnly = templateWithSources();
    relayOnly.sources = (relayOnly.sources ?? []).filter((source) => source.relay !== undefined);
    await renderSources(relayOnly);
    expect(one("sources-status").textContent).toBe("");
  });

  it("takes an answer back with Revoke", async () => {
    const { platform } = await renderSources();
    await click(one("allow-source", card("ide")));
    await click(one("allow-confirm"));
    await click(one("revoke-source", card("ide")));
    expect(platform.argsOf("revokeSource")).toEqual([[1, "ide"]]);
    expect(one("source-permission", card("ide")).textContent).toBe("Not allowed");
  });

  it("shows a refusal", async () => {
    const { platform } = await renderSources();
    platform.failures.set("allowSource", { code: "internal", message: "disk full", problems: [] });
    await click(one("allow-source", card("ide")));
    await click(one("allow-confirm"));
    expect(one("sources-failure").textContent).toContain("disk full");
    expect(one("source-permission", card("ide")).textContent).toBe("Not allowed");
  });
});

describe("Sources panel: discovery and snapshots", () => {
  async function discovered(): Promise<{ platform: FakePlatform; store: EditorStore }> {
    const rendered = await renderSources();
    rendered.platform.liveSources.set("ide", ideLive());
    rendered.platform.liveSources.set("codap", "the relay has no session of plugin 'codap'");
    // The relay source needs no answer; the MCP one is allowed.
    await click(one("allow-source", card("ide")));
    await click(one("allow-confirm"));
    expect((one("snapshot-sources") as HTMLButtonElement).disabled).toBe(true);
    await click(one("discover-sources"));
    return rendered;
  }

  it("lists the allowed sources' tools live, and says why the others were not", async () => {
    const { platform } = await discovered();
    expect(platform.argsOf("discoverSources")).toEqual([[1]]);
    const ide = card("ide");
    expect(one("source-tools-line", ide).textContent).toBe(
      "tools from ide (listed live): grep, open_file, diagnostics (not its snapshot yet)",
    );
    expect(one("source-tools-line", ide).dataset.tier).toBe("live");
    expect(one("source-error", card("codap")).textContent).toBe("the relay has no session of plugin 'codap'");
    expect(one("source-tools-line", card("codap")).dataset.tier).toBe("snapshot");
    expect(one("source-error", card("docs")).textContent).toBe(
      "source 'docs' is not allowed; not started, and it has no snapshot",
    );
    expect(shownTools()).toEqual([
      "written()/lookup",
      "written(context)/search",
      "written(context)/cite",
      "ide/grep",
      "ide/open_file",
      "ide/diagnostics",
      "codap/plot",
    ]);
  });

  it("writes the live lists as snapshots in one undoable set_sources edit that keeps x- fields", async () => {
    const { platform, store } = await discovered();
    await click(one("snapshot-sources"));
    const sent = lastSent(platform);
    const [ide, docs, codap] = exampleSources() as [ToolSource, ToolSource, ToolSource];
    expect(sent).toEqual([{ ...ide, snapshot: ideLive() }, docs, codap]);
    expect(sent[0]).toHaveProperty("x-owner", "team-a");
    expect(sent[0]?.mcp).toHaveProperty("x-transport", "stdio");
    expect(store.getState().document.dirty).toBe(true);
    expect(one("source-tools-line", card("ide")).textContent).toBe(
      "tools from ide (listed live): grep, open_file, diagnostics",
    );
    expect((one("snapshot-sources") as HTMLButtonElement).disabled).toBe(true);
    await act(async () => {
      await store.undo();
    });
    await settle();
    expect(platform.template.sources?.[0]?.snapshot).toEqual(ide.snapshot);
    expect((one("snapshot-sources") as HTMLButtonElement).disabled).toBe(false);
  });
});

describe("Sources panel: editing the sources", () => {
  it("adds a source from its fields: the command one argument a line, the environment as pairs", async () => {
    const { platform } = await renderSources();
    await click(one("add-source"));
    const form = one("source-form");
    typeInto(one("source-name", form), "everything");
    choose(one("source-form-section", form), "context.examples");
    await settle();
    typeInto(one("source-command", form), "npx\n-y\n@modelcontextprotocol/server-everything");
    typeInto(one("source-cwd", form), "tools");
    typeInto(one("source-env", form), "API_TOKEN=${env:API_TOKEN}\nMODE=test");
    await click(one("source-apply", form));
    expect(lastSent(platform)).toEqual([
      ...exampleSources(),
      {
        name: "everything",
        section: "context.examples",
        mcp: {
          command: ["npx", "-y", "@modelcontextprotocol/server-everything"],
          cwd: "tools",
          env: { API_TOKEN: "${env:API_TOKEN}", MODE: "test" },
        },
      },
    ]);
    expect(none("source-form")).toBe(true);
    expect(all("source").map((element) => element.dataset.name)).toEqual(["ide", "docs", "codap", "everything"]);
    expect(one("source-starts", card("everything")).textContent).toBe(
      "runs npx -y @modelcontextprotocol/server-everything in /t/tools with API_TOKEN, MODE",
    );
  });

  it("adds a URL source, and says what is wrong before sending anything", async () => {
    const { platform } = await renderSources();
    await click(one("add-source"));
    const form = one("source-form");
    await click(one("source-apply", form));
    expect(one("source-form-problem", form).dataset.field).toBe("command");
    expect(one("source-command", form).getAttribute("aria-invalid")).toBe("true");
    await click(one("source-kind-url", form));
    typeInto(one("source-name", form), "ide");
    typeInto(one("source-url", form), "http://127.0.0.1:8931/mcp");
    await click(one("source-apply", form));
    expect(all("source-form-problem", form).map((problem) => problem.textContent)).toEqual([
      "Another source is named 'ide'",
    ]);
    expect(sentSources(platform)).toEqual([]);
    typeInto(one("source-name", form), "local");
    await click(one("source-apply", form));
    expect(lastSent(platform).at(-1)).toEqual({
      name: "local",
      section: null,
      mcp: { url: "http://127.0.0.1:8931/mcp" },
    });
  });

  it("edits a source over the old one, keeping its x- fields and snapshot", async () => {
    const { platform } = await renderSources();
    await click(one("edit-source", card("ide")));
    const form = one("source-form", card("ide"));
    expect((one("source-command", form) as HTMLTextAreaElement).value).toBe("python3\nide_server.py");
    typeInto(one("source-command", form), "python3\n-m\nide_server");
    await click(one("source-apply", form));
    const [ide, docs, codap] = exampleSources() as [ToolSource, ToolSource, ToolSource];
    expect(lastSent(platform)).toEqual([
      { ...ide, mcp: { ...ide.mcp, command: ["python3", "-m", "ide_server"] } },
      docs,
      codap,
    ]);
    expect(lastSent(platform)[0]).toHaveProperty("x-owner", "team-a");
    expect(lastSent(platform)[0]?.mcp).toHaveProperty("x-transport", "stdio");
    expect(one("source-starts", card("ide")).textContent).toBe("runs python3 -m ide_server in /t/. with TOKEN");
  });

  it("removes a source", async () => {
    const { platform } = await renderSources();
    await click(one("remove-source", card("docs")));
    const [ide, , codap] = exampleSources() as [ToolSource, ToolSource, ToolSource];
    expect(lastSent(platform)).toEqual([ide, codap]);
    expect(all("source").map((element) => element.dataset.name)).toEqual(["ide", "codap"]);
    expect(one("tab-sources").textContent).toBe("Sources (2)");
  });

  it("attaches a source to a section or to the template's own tools, keeping its x- fields", async () => {
    const { platform } = await renderSources();
    const options = [...one("source-section", card("ide")).querySelectorAll("option")].map((option) => option.value);
    expect(options).toEqual(["", "task", "context", "context.examples", "context.history", "style"]);
    choose(one("source-section", card("ide")), "task");
    await settle();
    const [ide, docs, codap] = exampleSources() as [ToolSource, ToolSource, ToolSource];
    expect(lastSent(platform)).toEqual([{ ...ide, section: "task" }, docs, codap]);
    expect(lastSent(platform)[0]).toHaveProperty("x-owner", "team-a");
    choose(one("source-section", card("codap")), "");
    await settle();
    expect(lastSent(platform)[2]).toEqual({ ...codap, section: null });
  });

  it("shows a source's problems on it", async () => {
    const template = templateWithSources();
    template.sources = [...exampleSources(), { name: "web", section: "gone", mcp: { url: "ftp://x" } }];
    await renderSources(template);
    const web = card("web");
    expect(one("source-problems", web).textContent).toBe(
      "/sources/3/section no section 'gone' in the template/sources/3/mcp/url 'ftp://x' is not an http:// or https:// URL",
    );
    expect(valueOf(one("source-section", web))).toBe("gone");
    expect(none("source-problems", card("ide"))).toBe(true);
    expect(one("problems-panel").dataset.count).toBe("2");
  });
});

describe("Sources panel: the tools", () => {
  it("shows each tool's metadata and filters them by kind, category and source", async () => {
    await renderSources();
    expect(shownTools()).toEqual([
      "written()/lookup",
      "written(context)/search",
      "written(context)/cite",
      "ide/grep",
      "ide/open_file",
      "codap/plot",
    ]);
    const open = toolRow("open_file");
    expect(open.dataset.source).toBe("ide");
    expect(open.dataset.origin).toBe("source");
    expect(one("source-tool-origin", open).textContent).toBe("from ide");
    expect(one("source-tool-kind", open).textContent).toBe("edit");
    expect(one("source-tool-asks", open).textContent).toBe("asks permission");
    expect(all("source-tool-category", open).map((c) => c.textContent)).toEqual(["files"]);
    expect(open.textContent).toContain("open_file things");
    choose(one("filter-kind"), "read");
    await settle();
    expect(shownTools()).toEqual(["ide/grep"]);
    expect(one("source-tool-count").textContent).toBe("1 of 6 tools");
    choose(one("filter-kind"), "");
    await settle();
    choose(one("filter-category"), "data");
    await settle();
    expect(shownTools()).toEqual(["codap/plot"]);
    choose(one("filter-category"), "");
    await settle();
    choose(one("filter-source"), "ide");
    await settle();
    expect(shownTools()).toEqual(["ide/grep", "ide/open_file"]);
    expect([...one("filter-kind").querySelectorAll("option")].map((option) => option.value)).toEqual([
      "",
      "read",
      "edit",
      "other",
    ]);
    choose(one("filter-kind"), "other");
    await settle();
    expect(shownTools()).toEqual([]);
    expect(one("source-tool-list").textContent).toBe("No tool matches these filters.");
  });

  it("lists the tools written in the template first, each with where it is written, and the written filter keeps only them", async () => {
    await renderSources(templateWithWrittenTools());
    expect(one("sources-panel").querySelector("h3")?.textContent).toBe("The template's tools");
    expect(shownTools()).toEqual([
      "written()/lookup",
      "written(context)/search",
      "written(context)/cite",
      "written(context.examples)/run",
      "ide/grep",
      "ide/open_file",
      "codap/plot",
    ]);
    expect(one("source-tool-count").textContent).toBe("7 tools");
    const lookup = toolRow("lookup");
    expect(lookup.dataset.source).toBe("");
    expect(lookup.dataset.origin).toBe("written");
    expect(one("source-tool-origin", lookup).textContent).toBe("written in the template's own tools");
    expect(one("source-tool-kind", lookup).textContent).toBe("read");
    expect(all("source-tool-category", lookup).map((c) => c.textContent)).toEqual(["docs"]);
    const run = toolRow("run");
    expect(one("source-tool-origin", run).textContent).toBe("written in context.examples");
    expect(one("source-tool-asks", run).textContent).toBe("asks permission");
    expect(none("source-tool-kind", toolRow("cite"))).toBe(true);
    const source = one("filter-source") as HTMLSelectElement;
    expect([...source.options].map((option) => option.textContent)).toEqual([
      "All sources",
      "Written in the template",
      "ide",
      "codap",
    ]);
    expect([...one("filter-category").querySelectorAll("option")].map((option) => option.value)).toEqual([
      "",
      "data",
      "docs",
      "files",
      "search",
    ]);
    choose(source, source.options[1]?.value ?? "");
    await settle();
    expect(shownTools()).toEqual([
      "written()/lookup",
      "written(context)/search",
      "written(context)/cite",
      "written(context.examples)/run",
    ]);
    expect(one("source-tool-count").textContent).toBe("4 of 7 tools");
    choose(one("filter-category"), "docs");
    await settle();
    expect(shownTools()).toEqual(["written()/lookup"]);
    choose(one("filter-source"), "ide");
    await settle();
    expect(one("source-tool-list").textContent).toBe("No tool matches these filters.");
    choose(one("filter-category"), "");
    await settle();
    expect(shownTools()).toEqual(["ide/grep", "ide/open_file"]);
  });

  it("filters written and source tools alike by kind", async () => {
    await renderSources(templateWithWrittenTools());
    expect([...one("filter-kind").querySelectorAll("option")].map((option) => option.value)).toEqual([
      "",
      "read",
      "edit",
      "execute",
      "other",
    ]);
    choose(one("filter-kind"), "read");
    await settle();
    expect(shownTools()).toEqual(["written()/lookup", "written(context)/search", "ide/grep"]);
    expect(one("source-tool-count").textContent).toBe("3 of 7 tools");
    choose(one("filter-kind"), "execute");
    await settle();
    expect(shownTools()).toEqual(["written(context.examples)/run"]);
    choose(one("filter-source"), (one("filter-source") as HTMLSelectElement).options[1]?.value ?? "");
    await settle();
    expect(shownTools()).toEqual(["written(context.examples)/run"]);
    choose(one("filter-kind"), "read");
    await settle();
    expect(shownTools()).toEqual(["written()/lookup", "written(context)/search"]);
  });

  it("lists the written tools of a template without sources", async () => {
    await renderSources();
    await click(one("remove-source", card("ide")));
    await click(one("remove-source", card("docs")));
    await click(one("remove-source", card("codap")));
    expect(one("source-list").textContent).toBe("No sources");
    expect(shownTools()).toEqual(["written()/lookup", "written(context)/search", "written(context)/cite"]);
    expect([...one("filter-source").querySelectorAll("option")].map((option) => option.textContent)).toEqual([
      "All sources",
      "Written in the template",
    ]);
  });
});

describe("Sources in the tree and the Template panel", () => {
  it("badges a section with source tools, named and explained, and leads to its tools", async () => {
    await renderSources(templateWithSources(), { tab: false });
    const row = (path: string) => {
      const found = container.querySelector<HTMLElement>(`[data-testid="section-row"][data-path="${path}"]`);
      if (found === null) throw new Error(`no row ${path}`);
      return found;
    };
    const badge = one("source-badge", row("context"));
    expect(badge.textContent).toBe("⚡ 2");
    expect(badge.getAttribute("aria-label")).toBe(
      "Tools from source ide: 2 tools (its snapshot). Show them in Sources",
    );
    expect(badge.title).toBe(badge.getAttribute("aria-label"));
    expect(one("source-badge", row("style")).getAttribute("aria-label")).toBe(
      "Tools from source codap: 1 tool (its snapshot). Show them in Sources",
    );
    expect(none("source-badge", row("task"))).toBe(true);
    await click(badge);
    expect(one("tab-sources").getAttribute("aria-selected")).toBe("true");
    expect(valueOf(one("filter-source"))).toBe("ide");
    expect(shownTools()).toEqual(["ide/grep", "ide/open_file"]);
  });

  it("counts a badge's tools from the live list after a discovery", async () => {
    const { platform } = await renderSources();
    platform.liveSources.set("ide", ideLive());
    await click(one("allow-source", card("ide")));
    await click(one("allow-confirm"));
    await click(one("discover-sources"));
    const badge = container.querySelector<HTMLElement>('[data-path="context"] [data-testid="source-badge"]');
    expect(badge?.textContent).toBe("⚡ 3");
    expect(badge?.title).toBe("Tools from source ide: 3 tools (listed live). Show them in Sources");
  });

  it("shows the template's count of sources in its panel, with the way to them", async () => {
    await renderSources(templateWithSources(), { tab: false });
    await click(one("tab-template"));
    expect(one("template-source-count").textContent).toBe("3 sources of tools offered at run time.");
    await click(one("open-sources"));
    expect(one("sources-panel").querySelector("h2")?.textContent).toBe("Tool sources");
  });
});

describe("Relay section", () => {
  const update = (code: string) => ({
    code,
    event: "tool-availability-update",
    data: {
      sessionCode: code,
      updates: { added: [{ name: "plot_column", description: "Plots a column" }], removed: ["x"], modified: ["y"] },
      reason: "new table",
    },
  });

  it("starts the relay, says where it listens and watches its log", async () => {
    const { platform } = await renderSources();
    expect(one("relay-listening").textContent).toContain("Not running");
    await click(one("relay-start"));
    expect(platform.argsOf("startRelay")).toEqual([[null]]);
    expect(one("relay-listening").textContent).toBe("Listening on http://127.0.0.1:7391");
    expect(platform.callNames()).toContain("watchRelay");
    expect(platform.relayWatchers.size).toBe(1);
    expect(none("relay-start")).toBe(true);
  });

  it("shows a log entry, newest first, and reads the sessions again", async () => {
    const { platform } = await renderSources();
    await click(one("relay-start"));
    platform.relaySessions = [relaySession("K7Q2MX", "codap", ["plot_column", "y"])];
    await act(async () => {
      platform.relayEvent(update("K7Q2MX"));
      await Promise.resolve();
    });
    await settle();
    const session = one("relay-session");
    expect(session.dataset.code).toBe("K7Q2MX");
    expect(session.textContent).toContain("codap 1.2.0");
    expect(session.textContent).toContain("2 tools: plot_column, y");
    expect(session.textContent).toContain("1 stream open");
    await act(async () => {
      platform.relayEvent({ code: "K7Q2MX", event: "tool-request", data: { id: "r1", tool: "plot_column", args: {} } });
      await Promise.resolve();
    });
    await settle();
    const entries = all("relay-log-entry", one("relay-log"));
    expect(entries.map((entry) => entry.querySelector(".relay-summary")?.textContent)).toEqual([
      "plot_column",
      "+plot_column -x ~y — new table",
    ]);
    expect(entries[1]?.textContent).toContain("tool-availability-update");
  });

  it("reads the sessions once more after a burst of log entries, not once per entry", async () => {
    const { platform } = await renderSources();
    await click(one("relay-start"));
    const reads = () => platform.callNames().filter((name) => name === "relayStatus").length;
    const before = reads();
    await act(async () => {
      for (const tools of [["a"], ["a", "b"], ["a", "b", "c"]]) {
        platform.relaySessions = [relaySession("K7Q2MX", "codap", tools)];
        platform.relayEvent(update("K7Q2MX"));
      }
      await Promise.resolve();
    });
    await vi.waitFor(() => {
      expect(one("relay-session").textContent).toContain("3 tools: a, b, c");
    });
    expect(all("relay-log-entry", one("relay-log"))).toHaveLength(3);
    expect(reads() - before).toBe(2);
  });

  it("watches a relay already running when the panel opens, and stops it", async () => {
    const { platform } = await renderSources(undefined, {
      setup: (fake) => {
        fake.relayListening = "http://127.0.0.1:7400";
        fake.relaySessions = [relaySession("K7Q2MX", "codap")];
      },
    });
    expect(one("relay-listening").textContent).toBe("Listening on http://127.0.0.1:7400");
    expect(platform.relayWatchers.size).toBe(1);
    expect(all("relay-session")).toHaveLength(1);
    await click(one("relay-stop"));
    expect(platform.callNames()).toContain("stopRelay");
    expect(none("relay-session")).toBe(true);
    expect(one("relay-listening").textContent).toContain("Not running");
    expect(none("relay-start")).toBe(false);
  });

  it("says why the relay did not start", async () => {
    const { platform } = await renderSources();
    platform.failures.set("startRelay", { code: "invalid_request", message: "port 7391 is in use", problems: [] });
    await click(one("relay-start"));
    expect(one("relay-failure").textContent).toContain("The relay did not start");
    expect(one("relay-failure").textContent).toContain("port 7391 is in use");
    expect(platform.callNames()).not.toContain("watchRelay");
  });
});
