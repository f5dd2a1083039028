// offered.ts: the tool names and parameters the example template offers a scenario (its sources'
// snapshots too), and the builtins each disclosure setting adds.
import { describe, expect, it } from "vitest";
import type { Template } from "../platform";
import { exampleTemplate } from "../testing/fakePlatform";
import { builtinTools, offeredTools, templateParams } from "./offered";

function withSettings(settings: Partial<Pick<Template, "disclosure" | "tool_disclosure">>): Template {
  return { ...exampleTemplate(), ...settings };
}

describe("offeredTools", () => {
  it("lists the template's own tools, every section's (nested too), then the builtins", () => {
    const template = exampleTemplate();
    const examples = template.sections[1]?.children[0];
    if (examples === undefined) throw new Error("the example has context.examples");
    examples.tools = [{ name: "quote", description: "quote things", parameters: { type: "object" } }];
    expect(offeredTools(template)).toEqual(["lookup", "search", "cite", "quote", "read_section"]);
  });

  it("lists the tools of its sources' snapshots before the builtins, and none of a source without one", () => {
    const template = exampleTemplate();
    const plot = { name: "plot", description: "plot a column", parameters: { type: "object" } };
    template.sources = [
      { name: "tables", section: null, relay: { plugin: "tables" }, snapshot: [plot] },
      { name: "ide", section: null, mcp: { command: ["ide-server"] } },
    ];
    expect(offeredTools(template)).toEqual(["lookup", "search", "cite", "plot", "read_section"]);
  });

  it("names a tool once even when two places hold it", () => {
    const template = exampleTemplate();
    template.tools.push({ name: "search", description: "again", parameters: { type: "object" } });
    expect(offeredTools(template).filter((name) => name === "search")).toEqual(["search"]);
  });
});

describe("builtinTools", () => {
  const check = (settings: Partial<Pick<Template, "disclosure" | "tool_disclosure">>, expected: string[]) => {
    expect(builtinTools(withSettings(settings))).toEqual(expected);
  };

  it("follows the disclosure protocol and the tool disclosure", () => {
    check({ disclosure: "read_section", tool_disclosure: "full" }, ["read_section"]);
    check({ disclosure: "open_sections", tool_disclosure: "full" }, ["open_sections"]);
    check({ disclosure: "mixed", tool_disclosure: "full" }, ["read_section", "open_sections"]);
    check({ disclosure: "open_sections", tool_disclosure: "pick_tools" }, ["open_sections", "pick_tools"]);
  });
});

describe("templateParams", () => {
  it("lists the parameter names in the template's order", () => {
    expect(templateParams({ ...exampleTemplate(), params: { objective: "x", deadline: "y" } })).toEqual([
      "objective",
      "deadline",
    ]);
  });
});
