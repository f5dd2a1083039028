// Tests for commands.ts: which commands a query finds and in what order (whole words and word
// starts before letters found inside or in order, those that can be done first, the shorter of
// equal ones, ties in list order), and how ↑ and ↓ step over the commands that cannot be done.
import { describe, expect, it } from "vitest";
import { matchScore, nextAvailable, rankCommands, wordsOf, type PaletteCommand } from "./commands";

function command(title: string, more: Partial<PaletteCommand> = {}): PaletteCommand {
  return { id: title, title, available: true, perform: () => undefined, ...more };
}

const titles = (commands: PaletteCommand[]) => commands.map((found) => found.title);

describe("matchScore", () => {
  it("finds each typed word as a word's start, inside a word, or as letters in order", () => {
    expect(matchScore("go ex", "Go to section: Examples")).not.toBeNull();
    expect(matchScore("ample", "Go to section: Examples")).not.toBeNull();
    expect(matchScore("cmp", "Show the Compare page")).not.toBeNull();
  });

  it("finds nothing when one typed word is in no word, or a single letter is only inside one", () => {
    expect(matchScore("go zebra", "Go to section: Examples")).toBeNull();
    expect(matchScore("q", "Show the Compare page")).toBeNull();
    // Letters in order count within one word, not across words.
    expect(matchScore("sc", "Show the Compare page")).toBeNull();
  });

  it("scores a whole word over a word's start over inside a word over letters in order", () => {
    const scores = ["Run", "Runs", "Rerun", "Ruin"].map((text) => matchScore("run", text) ?? 0);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(new Set(scores).size).toBe(4);
  });

  it("finds everything, equally, with an empty query", () => {
    expect(matchScore("", "Undo")).toBe(matchScore("  ", "Show the Edit page"));
  });

  it("ignores case and punctuation", () => {
    expect(wordsOf("Go to section: Project Context (context.examples)")).toEqual([
      "go",
      "to",
      "section",
      "project",
      "context",
      "context",
      "examples",
    ]);
    expect(matchScore("EDIT", "Show the Edit page")).toBe(matchScore("edit", "Show the Edit page"));
  });
});

describe("rankCommands", () => {
  const commands = [
    command("New template"),
    command("Open a template"),
    command("Run the comparison", { available: false }),
    command("Show the Compare page"),
    command("Go to section: Examples", { detail: "context.examples" }),
    command("Go to section: Style Guide", { detail: "style" }),
  ];

  it("lists every command with no query, those that can be done first, in their order", () => {
    expect(titles(rankCommands(commands, ""))).toEqual([
      "New template",
      "Open a template",
      "Show the Compare page",
      "Go to section: Examples",
      "Go to section: Style Guide",
      "Run the comparison",
    ]);
  });

  it("puts better matches first, and keeps the list's order between equal ones", () => {
    expect(titles(rankCommands(commands, "temp"))).toEqual(["New template", "Open a template"]);
    expect(titles(rankCommands([command("Rerun the suite"), command("Run it")], "run"))).toEqual([
      "Run it",
      "Rerun the suite",
    ]);
    expect(titles(rankCommands(commands, "compar"))).toEqual(["Show the Compare page", "Run the comparison"]);
    // "st" starts "Style"; in "section" it is only letters in order.
    expect(titles(rankCommands(commands, "go st"))).toEqual(["Go to section: Style Guide", "Go to section: Examples"]);
  });

  it("puts the shorter of two equal matches first", () => {
    const save = command("Save the page's document: the template, or the scenario on Compare");
    const show = command("Show the Compare page");
    expect(titles(rankCommands([save, show], "compare page"))).toEqual([show.title, save.title]);
  });

  it("searches a command's detail too", () => {
    expect(titles(rankCommands(commands, "context.ex"))).toEqual(["Go to section: Examples"]);
  });

  it("finds nothing for a query no command has", () => {
    expect(rankCommands(commands, "zebra")).toEqual([]);
  });
});

describe("nextAvailable", () => {
  const list = [command("a"), command("b", { available: false }), command("c"), command("d", { available: false })];

  it("steps down and up over commands that cannot be done, round the ends", () => {
    expect(nextAvailable(list, 0, 1)).toBe(2);
    expect(nextAvailable(list, 2, 1)).toBe(0);
    expect(nextAvailable(list, 0, -1)).toBe(2);
    expect(nextAvailable(list, -1, 1)).toBe(0);
  });

  it("stays when no other can be done, and finds none when none can", () => {
    expect(nextAvailable([command("a")], 0, 1)).toBe(0);
    expect(nextAvailable([command("b", { available: false })], -1, 1)).toBeNull();
    expect(nextAvailable([], -1, 1)).toBeNull();
  });
});
