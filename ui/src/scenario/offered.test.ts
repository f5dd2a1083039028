// offered.ts: the tools and parameters the example template offers a scenario (its sources'
// snapshots too) with their schemas and what answers them, the builtins each disclosure setting
// adds, the tool a call names, and which calls have nothing to answer them.
import { describe, expect, it } from "vitest";
import type { Scenario, Template } from "../platform";
import { exampleTemplate } from "../testing/fakePlatform";
import { builtinTools, calledTool, lacksMock, offeredTools, templateParams, type OfferedTool } from "./offered";

function names(tools: readonly OfferedTool[]): string[] {
  return tools.map((tool) => tool.name);
}

function withSettings(settings: Partial<Pick<Template, "disclosure" | "tool_disclosure">>): Template {
  return { ...exampleTemplate(), ...settings };
}

describe("offeredTools", () => {
  it("lists the template's own tools, every section's (nested too), then the builtins", () => {
    const template = exampleTemplate();
    const examples = template.sections[1]?.children[0];
    if (examples === undefined) throw new Error("the example has context.examples");
    examples.tools = [{ name: "quote", description: "quote things", parameters: { type: "object" } }];
    expect(names(offeredTools(template))).toEqual(["lookup", "search", "cite", "quote", "read_section"]);
  });

  it("lists the tools of its sources' snapshots before the builtins, and none of a source without one", () => {
    const template = exampleTemplate();
    const plot = { name: "plot", description: "plot a column", parameters: { type: "object" } };
    template.sources = [
      { name: "tables", section: null, relay: { plugin: "tables" }, snapshot: [plot] },
      { name: "ide", section: null, mcp: { command: ["ide-server"] } },
    ];
    expect(names(offeredTools(template))).toEqual(["lookup", "search", "cite", "plot", "read_section"]);
  });

  it("names a tool once even when two places hold it", () => {
    const template = exampleTemplate();
    template.tools.push({ name: "search", description: "again", parameters: { type: "object" } });
    expect(names(offeredTools(template)).filter((name) => name === "search")).toEqual(["search"]);
  });
});

describe("offeredTools' schemas and answerers", () => {
  it("carries each tool's parameters, and who answers it without scripted results", () => {
    const template = exampleTemplate();
    const [lookup] = template.tools;
    const search = template.sections[1]?.tools[0];
    if (lookup === undefined || search?.name !== "search") throw new Error("the example has lookup and search");
    search.mock = { result: "2 hits" };
    const plot = { name: "plot", description: "plot", parameters: { type: "object" } };
    const table = { ...plot, name: "table", mock: { result: "a table" } };
    template.sources = [{ name: "tables", section: null, relay: { plugin: "tables" }, snapshot: [plot, table] }];
    const byName = Object.fromEntries(offeredTools(template).map((tool) => [tool.name, tool]));
    expect(byName.lookup).toEqual({ name: "lookup", parameters: lookup.parameters, answerer: "nothing" });
    expect(byName.search?.answerer).toBe("mock");
    expect(byName.plot).toEqual({ name: "plot", parameters: { type: "object" }, answerer: "source" });
    expect(byName.table?.answerer).toBe("mock");
    expect(byName.read_section).toEqual({ name: "read_section", parameters: null, answerer: "session" });
  });
});

describe("calledTool and lacksMock", () => {
  const tools: OfferedTool[] = [
    { name: "lookup", parameters: { type: "object" }, answerer: "nothing" },
    { name: "search", parameters: { type: "object" }, answerer: "mock" },
    { name: "plot", parameters: { type: "object" }, answerer: "source" },
    { name: "read_section", parameters: null, answerer: "session" },
  ];
  const scenario: Scenario = {
    schema_version: 1,
    kind: "unfold.scenario",
    name: "s",
    user: "u",
    script: [{ say: "done" }],
  };
  const deploy = { name: "deploy", description: "ship", parameters: { type: "object", properties: {} } };

  it("finds a template's tool, else one a tool change adds, else none", () => {
    const changed: Scenario = { ...scenario, tool_changes: [{ at_model_call: 2, add: [deploy], remove: [] }] };
    expect(calledTool(changed, tools, "search")).toBe(tools[1]);
    expect(calledTool(changed, tools, "deploy")).toEqual({
      name: "deploy",
      parameters: deploy.parameters,
      answerer: "nothing",
    });
    expect(calledTool(changed, tools, "fetch")).toBeNull();
  });

  it("flags a tool only the scenario's results could answer, until it has some", () => {
    const flagged = (s: Scenario) => tools.filter((tool) => lacksMock(s, tool)).map((tool) => tool.name);
    expect(flagged(scenario)).toEqual(["lookup", "plot"]);
    expect(flagged({ ...scenario, tool_results: { lookup: [{ result: null }] } })).toEqual(["plot"]);
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
