// A tool source's fields as the Sources panel's form holds them, without React: its name, its
// section, and what it is — an MCP server started as a command (an argument list, one argument per
// line, never a shell line; a folder; environment variables, one NAME=value a line), an MCP server
// at a URL, or a relay plugin — the problems the form can tell before anything is sent (in words, at
// their field), and the source the fields make, built over the source it edits so that the fields
// the form does not show (`x-` extensions, the snapshot) stay.
import type { ToolSource } from "../platform";

/** What a source is. */
export type SourceKind = "command" | "url" | "relay";

/** A source's fields as typed. */
export interface SourceDraft {
  name: string;
  /** The section its tools belong to; null: the template's own tools. */
  section: string | null;
  kind: SourceKind;
  /** The program, then one argument per line. */
  command: string;
  /** The program's folder (relative to the template's folder); empty: the template's folder. */
  cwd: string;
  /** One `NAME=value` a line. */
  env: string;
  url: string;
  plugin: string;
}

/** The fields typed as text, where a problem is shown. */
export type DraftField = "name" | "command" | "cwd" | "env" | "url" | "plugin";

/** Something the form can tell is wrong before sending, at its field. */
export interface DraftProblem {
  field: DraftField;
  message: string;
}

/** A source's name: the tool-name pattern (spec 8). */
const NAME = /^[A-Za-z0-9_-]{1,64}$/;
/** An environment variable's name. */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A source's fields. */
export function draftOf(source: ToolSource): SourceDraft {
  const mcp = source.mcp;
  const kind: SourceKind = source.relay !== undefined ? "relay" : mcp?.url !== undefined ? "url" : "command";
  return {
    name: source.name,
    section: source.section,
    kind,
    command: (mcp?.command ?? []).join("\n"),
    cwd: mcp?.cwd ?? "",
    env: Object.entries(mcp?.env ?? {})
      .map(([name, value]) => `${name}=${value}`)
      .join("\n"),
    url: mcp?.url ?? "",
    plugin: source.relay?.plugin ?? "",
  };
}

/** `source`, else `source_2`, `source_3`, …: the first name `sources` do not have. */
export function freeSourceName(sources: readonly ToolSource[]): string {
  const taken = new Set(sources.map((source) => source.name));
  if (!taken.has("source")) return "source";
  for (let n = 2; ; n++) {
    const name = `source_${String(n)}`;
    if (!taken.has(name)) return name;
  }
}

/** A new source's fields: a command, under a free name, for `section`. */
export function newSourceDraft(sources: readonly ToolSource[], section: string | null): SourceDraft {
  return {
    name: freeSourceName(sources),
    section,
    kind: "command",
    command: "",
    cwd: "",
    env: "",
    url: "",
    plugin: "",
  };
}

/** The lines of a text field that hold something, each without its surrounding spaces. */
function lines(text: string): string[] {
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "");
}

/** The command's argument list: one argument a line, blank lines left out. */
export function commandArgs(text: string): string[] {
  return lines(text);
}

/**
 * A note on the command as typed, or null: an argument with a space in it is one argument (a path
 * may have one), which is not what someone who typed a shell line meant.
 */
export function commandNote(text: string): string | null {
  const spaced = commandArgs(text).find((arg) => /\s/.test(arg));
  if (spaced === undefined) return null;
  return `Each line is one argument: '${spaced}' is one argument with a space in it (put each word on a line of its own)`;
}

/** The variables of the environment field, or the first problem with a line. */
export function envOf(text: string): { ok: true; env: Record<string, string> } | { ok: false; message: string } {
  const env: Record<string, string> = {};
  for (const line of lines(text)) {
    const equals = line.indexOf("=");
    const name = equals < 0 ? line : line.slice(0, equals).trim();
    if (equals < 0) return { ok: false, message: `'${line}' has no '=': write NAME=value` };
    if (!ENV_NAME.test(name)) {
      return {
        ok: false,
        message: `'${name}' is not a variable name: letters, digits and _, not starting with a digit`,
      };
    }
    if (Object.prototype.hasOwnProperty.call(env, name)) return { ok: false, message: `${name} is set twice` };
    env[name] = line.slice(equals + 1).trim();
  }
  return { ok: true, env };
}

/** What is wrong with the fields, at their fields (`others`: the other sources' names); none when they make a source. */
export function draftProblems(draft: SourceDraft, others: readonly string[]): DraftProblem[] {
  const problems: DraftProblem[] = [];
  const name = draft.name.trim();
  if (name === "") problems.push({ field: "name", message: "A source needs a name: letters, digits, _ and -" });
  else if (!NAME.test(name)) {
    problems.push({ field: "name", message: `'${name}' is not a source name: 1 to 64 letters, digits, _ and -` });
  } else if (others.includes(name)) problems.push({ field: "name", message: `Another source is named '${name}'` });
  if (draft.kind === "command") {
    if (commandArgs(draft.command).length === 0) {
      problems.push({
        field: "command",
        message: "The command needs a program: write it on the first line, then one argument a line",
      });
    }
    const env = envOf(draft.env);
    if (!env.ok) problems.push({ field: "env", message: env.message });
  } else if (draft.kind === "url") {
    if (!/^https?:\/\/\S+$/.test(draft.url.trim())) {
      problems.push({
        field: "url",
        message: "The URL starts with http:// or https:// (an MCP streamable HTTP endpoint)",
      });
    }
  } else if (draft.plugin.trim() === "") {
    problems.push({ field: "plugin", message: "Name the plugin, as it registers on the relay" });
  }
  return problems;
}

/**
 * The source the fields make, over `old` (the source edited; none for a new one): its fields the
 * form does not show are kept, and so are those of its MCP server or relay plugin while it stays
 * one. Only meaningful for fields `draftProblems` finds nothing wrong with.
 */
export function sourceOf(draft: SourceDraft, old?: ToolSource): ToolSource {
  const { mcp: oldMcp, relay: oldRelay, ...kept } = old ?? { section: null };
  const source: ToolSource = { ...kept, name: draft.name.trim(), section: draft.section };
  if (draft.kind === "relay") {
    source.relay = { ...oldRelay, plugin: draft.plugin.trim() };
    return source;
  }
  // The server's own fields are the form's; its others (`x-`) stay.
  const mcp = { ...oldMcp };
  delete mcp.command;
  delete mcp.cwd;
  delete mcp.env;
  delete mcp.url;
  if (draft.kind === "url") {
    source.mcp = { ...mcp, url: draft.url.trim() };
    return source;
  }
  const env = envOf(draft.env);
  const cwd = draft.cwd.trim();
  source.mcp = {
    ...mcp,
    command: commandArgs(draft.command),
    ...(cwd === "" ? {} : { cwd }),
    ...(env.ok && Object.keys(env.env).length > 0 ? { env: env.env } : {}),
  };
  return source;
}

/** The source the fields make over `old`, or what is wrong with them. */
export function buildSource(
  draft: SourceDraft,
  others: readonly string[],
  old?: ToolSource,
): { ok: true; source: ToolSource } | { ok: false; problems: DraftProblem[] } {
  const problems = draftProblems(draft, others);
  return problems.length > 0 ? { ok: false, problems } : { ok: true, source: sourceOf(draft, old) };
}
