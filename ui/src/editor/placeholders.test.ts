// Tests for placeholders.ts: the `$` forms found as the core's substitution reads them (escapes,
// braces, bare names, identifier rules), invalid `$` with the core's line, column and message, the
// unknown parameters of a text, the warnings (naming the unknown parameter, which the editor offers
// to define) and title note the section editor shows, and the parameter name rule.
import { describe, expect, it } from "vitest";
import {
  invalidPlaceholderMessage,
  isParamName,
  placeholderWarnings,
  scanPlaceholders,
  titleWarnings,
  unknownParamMessage,
  unknownParams,
} from "./placeholders";

/** `text`'s tokens, each as `name` (a placeholder, with the text it covers) or `!line:column`. */
function check(text: string, expected: string[]): void {
  const found = scanPlaceholders(text).map((token) => {
    if (token.kind === "param") return `${token.name}=${text.slice(token.from, token.to)}`;
    const position = /line (\d+), column (\d+)/.exec(token.message);
    expect(text.charAt(token.from), "an invalid token is its `$`").toBe("$");
    expect(token.to - token.from).toBe(1);
    return `!${position?.[1] ?? "?"}:${position?.[2] ?? "?"}`;
  });
  expect(found, JSON.stringify(text)).toEqual(expected);
}

describe("scanPlaceholders", () => {
  it("finds braced and bare placeholders", () => {
    check("Hello ${name}!", ["name=${name}"]);
    check("Hello $name!", ["name=$name"]);
    check("${name}_suffix", ["name=${name}"]);
    check("é $name", ["name=$name"]);
    check("$a${b}$c", ["a=$a", "b=${b}", "c=$c"]);
    check("${_x9}", ["_x9=${_x9}"]);
  });

  it("takes every identifier character into a bare name", () => {
    check("$name_suffix", ["name_suffix=$name_suffix"]);
    check("$x1.y", ["x1=$x1"]);
    check("$a-b", ["a=$a"]);
  });

  it("reads $$ as a literal $, never as the start of a placeholder", () => {
    check("costs $$5", []);
    check("$$name", []);
    check("$${name}", []);
    check("$$$name", ["name=$name"]);
    check("", []);
    check("no params", []);
  });

  it("reports an invalid $ where the core does", () => {
    check("costs $5", ["!1:7"]);
    check("end $", ["!1:5"]);
    check("a\né ${name", ["!2:3"]);
    check("${ name }", ["!1:1"]);
    check("${}", ["!1:1"]);
    check("${name", ["!1:1"]);
    check("$1", ["!1:1"]);
    check("$é", ["!1:1"]);
    check("${né}", ["!1:1"]);
    check("$$$", ["!1:3"]);
    check("a\r\nb $", ["!2:3"]);
  });

  it("counts columns in characters, as the core does", () => {
    check("😀 $5", ["!1:3"]);
    check("😀😀\n😀 $", ["!2:3"]);
  });

  it("goes on after an invalid $ from the character after it", () => {
    check("${x $y", ["!1:1", "y=$y"]);
    check("$ $$ $ok $", ["!1:1", "ok=$ok", "!1:10"]);
  });

  it("words an invalid $ exactly as the core", () => {
    expect(scanPlaceholders("x\n  $?")).toEqual([
      {
        kind: "invalid",
        from: 4,
        to: 5,
        message: "invalid placeholder at line 2, column 3: use ${name} or $name, and $$ for a literal $",
      },
    ]);
    expect(invalidPlaceholderMessage(3, 9)).toBe(
      "invalid placeholder at line 3, column 9: use ${name} or $name, and $$ for a literal $",
    );
  });
});

describe("unknown parameters", () => {
  it("lists the names not among the template's parameters, once each, in order of first use", () => {
    expect(unknownParams("$a ${b} $$c $a $d ${a}", ["b"])).toEqual(["a", "d"]);
    expect(unknownParams("${objective} and $objective", ["objective"])).toEqual([]);
    expect(unknownParams("$$missing", [])).toEqual([]);
    expect(unknownParams("${Objective}", ["objective"])).toEqual(["Objective"]);
  });

  it("says that a render without a value fails, naming the parameter as the core does", () => {
    expect(unknownParamMessage("foo")).toBe(
      "Unknown parameter ${foo}: the template has no default for it, so a render without a value for it fails (\"missing parameter 'foo'\")",
    );
  });
});

describe("placeholderWarnings", () => {
  it("lists invalid $ and unknown names in the order of the text", () => {
    expect(placeholderWarnings("$goal costs $5, see ${objective} and $goal", ["objective"])).toEqual([
      { message: unknownParamMessage("goal"), param: "goal" },
      { message: invalidPlaceholderMessage(1, 13), param: null },
    ]);
  });

  it("names each unknown parameter once, so that one button defines it", () => {
    expect(placeholderWarnings("${tone} $tone ${audience} ${tone}", []).map((warning) => warning.param)).toEqual([
      "tone",
      "audience",
    ]);
  });

  it("has nothing to say about a text with known placeholders and escapes only", () => {
    expect(placeholderWarnings("Do ${objective}: $$10 for $objective", ["objective"])).toEqual([]);
  });
});

describe("titleWarnings", () => {
  it("notes that a title's placeholders are not substituted", () => {
    expect(titleWarnings("Task for ${project}")).toEqual([
      "The title is shown as written: ${project} is not replaced by a value; only the template and the summary take parameters",
    ]);
    expect(titleWarnings("$a and ${b} and $a")[0]).toMatch(
      /^The title is shown as written: \$a, \$\{b\} are not replaced/,
    );
  });

  it("says nothing for a title without placeholders", () => {
    expect(titleWarnings("Costs $$ and $5")).toEqual([]);
    expect(titleWarnings("Task")).toEqual([]);
  });
});

describe("isParamName", () => {
  it.each(["a", "_", "tone", "Tone", "_x9", "project_name"])("takes %j", (name) => {
    expect(isParamName(name)).toBe(true);
  });

  it.each(["", "1a", "a-b", "a b", "é", "$a", "${a}", "a.b", " a"])("refuses %j", (name) => {
    expect(isParamName(name)).toBe(false);
  });
});
