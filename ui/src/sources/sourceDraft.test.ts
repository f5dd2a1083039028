// Tests for sourceDraft.ts: a source's fields as typed and back (the command one argument a line,
// never split on spaces; the environment as NAME=value lines), the fields the form does not show
// kept (`x-` on the source and its server, the snapshot), a change of kind dropping the other
// kind's fields, the problems found before sending, and free names for new sources.
import { describe, expect, it } from "vitest";
import type { ToolSource } from "../platform";
import { exampleSources } from "../testing/sources";
import {
  buildSource,
  commandArgs,
  commandNote,
  draftOf,
  draftProblems,
  envOf,
  freeSourceName,
  newSourceDraft,
  sourceOf,
} from "./sourceDraft";

describe("source drafts", () => {
  const [ide, docs, codap] = exampleSources() as [ToolSource, ToolSource, ToolSource];

  it("reads each kind of source into its fields", () => {
    expect(draftOf(ide)).toEqual({
      name: "ide",
      section: "context",
      kind: "command",
      command: "python3\nide_server.py",
      cwd: ".",
      env: "TOKEN=${env:TOKEN}",
      url: "",
      plugin: "",
    });
    expect(draftOf(docs)).toMatchObject({ kind: "url", url: "https://docs.example.com/mcp", section: null });
    expect(draftOf(codap)).toMatchObject({ kind: "relay", plugin: "codap" });
  });

  it("gives back the same source from unchanged fields, x- fields and snapshot included", () => {
    for (const source of [ide, docs, codap]) expect(sourceOf(draftOf(source), source)).toEqual(source);
  });

  it("makes the command an argument list, one argument a line, never split on spaces", () => {
    expect(commandArgs("  npx \n\n-y\n@modelcontextprotocol/server-everything\n")).toEqual([
      "npx",
      "-y",
      "@modelcontextprotocol/server-everything",
    ]);
    expect(commandArgs("/opt/My Tools/server")).toEqual(["/opt/My Tools/server"]);
    expect(commandNote("python3 server.py")).toBe(
      "Each line is one argument: 'python3 server.py' is one argument with a space in it (put each word on a line of its own)",
    );
    expect(commandNote("python3\nserver.py")).toBeNull();
  });

  it("reads the environment as NAME=value lines, or says what is wrong", () => {
    expect(envOf("A=1\n\nB = ${env:B}\nC=x=y")).toEqual({ ok: true, env: { A: "1", B: "${env:B}", C: "x=y" } });
    expect(envOf("TOKEN")).toEqual({ ok: false, message: "'TOKEN' has no '=': write NAME=value" });
    expect(envOf("1A=x")).toMatchObject({ ok: false });
    expect(envOf("A=1\nA=2")).toEqual({ ok: false, message: "A is set twice" });
  });

  it("builds a changed source over the old one: a new command keeps the server's x- fields", () => {
    const draft = { ...draftOf(ide), command: "node\nserver.js\n--stdio", cwd: "", env: "" };
    const built = sourceOf(draft, ide);
    expect(built).toEqual({
      name: "ide",
      section: "context",
      mcp: { command: ["node", "server.js", "--stdio"], "x-transport": "stdio" },
      snapshot: ide.snapshot,
      "x-owner": "team-a",
    });
  });

  it("drops the other kind's fields when the kind changes", () => {
    const asUrl = sourceOf({ ...draftOf(ide), kind: "url", url: " http://127.0.0.1:8931/mcp " }, ide);
    expect(asUrl.mcp).toEqual({ url: "http://127.0.0.1:8931/mcp", "x-transport": "stdio" });
    const asRelay = sourceOf({ ...draftOf(ide), kind: "relay", plugin: "codap" }, ide);
    expect(asRelay).not.toHaveProperty("mcp");
    expect(asRelay.relay).toEqual({ plugin: "codap" });
    expect(asRelay).toHaveProperty("x-owner", "team-a");
    const asCommand = sourceOf({ ...draftOf(codap), kind: "command", command: "codap-mcp" }, codap);
    expect(asCommand).not.toHaveProperty("relay");
    expect(asCommand.mcp).toEqual({ command: ["codap-mcp"] });
  });

  it("finds what keeps the fields from making a source, at its field", () => {
    const draft = newSourceDraft([ide], "task");
    expect(draft).toMatchObject({ name: "source", section: "task", kind: "command" });
    expect(draftProblems(draft, ["ide"])).toEqual([
      {
        field: "command",
        message: "The command needs a program: write it on the first line, then one argument a line",
      },
    ]);
    expect(draftProblems({ ...draft, name: "ide", command: "x" }, ["ide"])).toEqual([
      { field: "name", message: "Another source is named 'ide'" },
    ]);
    expect(draftProblems({ ...draft, name: "my source", command: "x" }, [])[0]?.field).toBe("name");
    expect(draftProblems({ ...draft, name: "", command: "x" }, [])[0]?.message).toBe(
      "A source needs a name: letters, digits, _ and -",
    );
    expect(draftProblems({ ...draft, command: "x", env: "oops" }, [])).toEqual([
      { field: "env", message: "'oops' has no '=': write NAME=value" },
    ]);
    expect(draftProblems({ ...draft, kind: "url", url: "ftp://x" }, [])[0]?.field).toBe("url");
    expect(draftProblems({ ...draft, kind: "relay", plugin: " " }, [])[0]?.field).toBe("plugin");
    expect(buildSource({ ...draft, command: "x" }, [])).toEqual({
      ok: true,
      source: { name: "source", section: "task", mcp: { command: ["x"] } },
    });
    expect(buildSource(draft, []).ok).toBe(false);
  });

  it("names a new source with the first free name", () => {
    expect(freeSourceName([])).toBe("source");
    expect(
      freeSourceName([
        { ...ide, name: "source" },
        { ...ide, name: "source_2" },
      ]),
    ).toBe("source_3");
  });
});
