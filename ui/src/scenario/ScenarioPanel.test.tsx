// Renders ScenarioPanel in happy-dom over examples/lookup-first.scenario.json: what it shows (file,
// problems, fields, steps, pickers), and every change it sends (the whole scenario and its undo
// group) as the user types, picks and clicks; JSON that does not parse stays typed with its problem
// and sends nothing; a call's arguments as a form from its tool's schema or as JSON; the flag of a
// call nothing would answer, and its fix. A harness plays the backend: it shows each sent scenario
// as the next view.
import { act, useState } from "react";
import type { Root } from "react-dom/client";
import { describe, expect, it } from "vitest";
import type { Scenario, ScenarioView } from "../platform";
import { mountEachTest } from "../testing/testRoot";
import type { OfferedTool } from "./offered";
import { ScenarioPanel } from "./ScenarioPanel";
import { problemGroups } from "../shared/problemGroups";
import { all, choose, one, typeInto, valueOf } from "../testing/dom";

let container: HTMLDivElement;
let root: Root;
let sent: [Scenario, string | null][];

mountEachTest((mounted) => {
  ({ container, root } = mounted);
  sent = [];
});

const TOOL_NAMES = ["lookup", "search", "cite", "read_section"];
/** The example's tools with their schemas unknown (arguments as JSON) and each answered by a mock. */
const TOOLS: OfferedTool[] = TOOL_NAMES.map((name) => ({ name, parameters: null, answerer: "mock" }));
const PARAMS = ["objective", "project_name"];

const LOOKUP = { call: "lookup", args: { id: 7 } };
const READ = { call: "read_section", args: { section_key: "context" } };
const SEARCH = { call: "search", args: { query: "login" } };
const SAY = { say: "Fixed the login flow." };

const EXAMPLE: Scenario = {
  schema_version: 1,
  kind: "unfold.scenario",
  name: "lookup-first",
  user: "Refactor the authentication module.",
  script: [LOOKUP, READ, SEARCH, SAY],
};

/** EXAMPLE with some fields replaced. */
function example(extra: Partial<Scenario> = {}): Scenario {
  return { ...EXAMPLE, ...extra };
}

function viewOf(scenario: Scenario, extra: Partial<ScenarioView> = {}): ScenarioView {
  return {
    id: 1,
    path: null,
    dirty: false,
    can_undo: false,
    can_redo: false,
    problems: [],
    warnings: [],
    scenario,
    ...extra,
  };
}

/** The problems the page would list with `view` open and nothing else wrong. */
function groupsOf(view: ScenarioView) {
  return problemGroups({ template: [], render: null, unappliedTools: [], scenario: view });
}

/** The panel over a view that becomes each scenario sent (as an accepting backend would answer). */
function Harness({
  initial,
  revision,
  tools,
}: {
  initial: ScenarioView;
  revision: number;
  tools: readonly OfferedTool[];
}) {
  const [view, setView] = useState(initial);
  return (
    <ScenarioPanel
      view={view}
      tools={tools}
      params={PARAMS}
      revision={revision}
      problems={groupsOf(view)}
      onChange={(scenario, group) => {
        sent.push([scenario, group]);
        setView({ ...view, scenario, dirty: true });
      }}
    />
  );
}

function render(initial: ScenarioView = viewOf(EXAMPLE), revision = 0, tools: readonly OfferedTool[] = TOOLS): void {
  act(() => {
    root.render(<Harness initial={initial} revision={revision} tools={tools} />);
  });
}

/** The panel over a fixed view (the backend has not answered yet). */
function renderFixed(view: ScenarioView, revision = 0): void {
  act(() => {
    root.render(
      <ScenarioPanel
        view={view}
        tools={TOOLS}
        params={PARAMS}
        revision={revision}
        problems={groupsOf(view)}
        onChange={(scenario, group) => sent.push([scenario, group])}
      />,
    );
  });
}

function step(index: number): HTMLElement {
  const found = container.querySelector<HTMLElement>(`[data-testid="scenario-step"][data-index="${String(index)}"]`);
  if (found === null) throw new Error(`no step ${String(index)}`);
  return found;
}

function click(element: HTMLElement): void {
  act(() => {
    element.click();
  });
}

function optionsOf(select: HTMLElement): string[] {
  return [...select.querySelectorAll("option")].map((option) => option.textContent);
}

describe("ScenarioPanel shows", () => {
  it("an untitled scenario, unmodified, without problems", () => {
    render();
    expect(one("scenario-path").textContent).toBe("Untitled scenario");
    expect(all("scenario-dirty")).toEqual([]);
    expect(one("problems-panel").textContent).toBe("Problems No problems");
  });

  it("the file, the modified marker and each problem at its place", () => {
    const problems = [
      { location: "/script/3", message: 'the last step must be a "say" step (the final answer)' },
      { location: "", message: "unknown template" },
    ];
    render(viewOf(EXAMPLE, { path: "/work/lookup-first.scenario.json", dirty: true, problems }));
    expect(one("scenario-path").textContent).toBe("/work/lookup-first.scenario.json");
    expect(one("scenario-dirty").textContent).toBe("modified");
    expect(one("problems-summary").textContent).toBe("2 problems");
    expect([...one("problems-panel").querySelectorAll("li")].map((li) => li.textContent)).toEqual([
      '/script/3 the last step must be a "say" step (the final answer)',
      "scenario unknown template",
    ]);
  });

  it("the name, the user message and the steps in order, with their kinds, tools and arguments", () => {
    render();
    expect(valueOf(one("scenario-name"))).toBe("lookup-first");
    expect(valueOf(one("scenario-user"))).toBe("Refactor the authentication module.");
    const numbers = all("scenario-step").map((li) => li.querySelector(".step-number")?.textContent);
    expect(numbers).toEqual(["1", "2", "3", "4"]);
    expect(all("step-kind").map(valueOf)).toEqual(["call", "call", "call", "say"]);
    expect(all("step-tool").map(valueOf)).toEqual(["lookup", "read_section", "search"]);
    expect(all("step-args").map(valueOf)).toEqual(['{"id":7}', '{"section_key":"context"}', '{"query":"login"}']);
    expect(valueOf(one("step-say"))).toBe("Fixed the login flow.");
    expect(optionsOf(one("step-tool", step(0)))).toEqual(TOOL_NAMES);
    expect(one("step-args", step(0)).getAttribute("aria-label")).toBe("Arguments of step 1 (JSON object)");
  });

  it("a tab per user turn, the form on the first, and the turn's own message and steps on another", () => {
    render();
    expect(all("scenario-turn").map((tab) => tab.textContent)).toEqual(["Turn 1"]);
    expect(all("remove-turn")).toEqual([]); // a scenario keeps one turn
    const { user, script, ...rest } = EXAMPLE;
    const later = { user: "Now search for similar bugs.", script: [{ say: "Found 2." }] };
    renderFixed(viewOf({ ...rest, turns: [{ user: user ?? "", script: script ?? [] }, later] }));
    expect(all("scenario-turn").map((tab) => tab.getAttribute("aria-selected"))).toEqual(["true", "false"]);
    expect(valueOf(one("scenario-user"))).toBe("Refactor the authentication module.");
    expect(all("scenario-step")).toHaveLength(4);
    click(all("scenario-turn")[1] ?? one("scenario-turns"));
    expect(valueOf(one("scenario-user"))).toBe("Now search for similar bugs.");
    expect(all("scenario-step")).toHaveLength(1);
    expect(valueOf(one("step-say"))).toBe("Found 2.");
  });

  it("adds a turn, edits it in its own undo group and removes it back to the one-turn form", () => {
    render();
    click(one("add-turn"));
    const added = sent.at(-1)?.[0];
    expect(added?.turns).toEqual([
      { user: EXAMPLE.user, script: EXAMPLE.script },
      { user: "", script: [{ say: "" }] },
    ]);
    expect(added && "user" in added).toBe(false);
    expect(all("scenario-turn").map((tab) => tab.getAttribute("aria-selected"))).toEqual(["false", "true"]);
    typeInto(one("scenario-user"), "Open a pull request.");
    const [edited, group] = sent.at(-1) ?? [];
    expect(edited?.turns?.map((turn) => turn.user)).toEqual([EXAMPLE.user, "Open a pull request."]);
    expect(group).toBe("turns/1/user");
    click(one("remove-turn"));
    const removed = sent.at(-1)?.[0];
    expect(removed).toEqual(EXAMPLE);
    expect(all("scenario-turn")).toHaveLength(1);
    expect(valueOf(one("scenario-user"))).toBe(EXAMPLE.user);
  });

  it("which moves and kinds are possible: the final answer stays last", () => {
    render();
    const disabled = (id: string) => all(id).map((button) => (button as HTMLButtonElement).disabled);
    expect(disabled("step-up")).toEqual([true, false, false, true]);
    expect(disabled("step-down")).toEqual([false, false, true, true]);
    expect((one("add-say-step") as HTMLButtonElement).disabled).toBe(true);
    const sayOption = one("step-kind", step(1)).querySelector<HTMLOptionElement>('option[value="say"]');
    expect(sayOption?.disabled).toBe(true);
  });

  it("a tool the template does not offer, still selected and marked", () => {
    render(viewOf(example({ script: [{ call: "fetch", args: {} }, SAY] })));
    const picker = one("step-tool");
    expect(valueOf(picker)).toBe("fetch");
    expect(optionsOf(picker)).toEqual([...TOOL_NAMES, "fetch (not in template)"]);
  });

  it("the overrides, tool results, tool changes and limits of a fuller scenario", () => {
    const fuller = example({
      params: { objective: "Ship" },
      tool_results: { lookup: [{ result: { id: 7 } }, { error: "gone" }] },
      tool_changes: [{ at_model_call: 2, add: [], remove: ["cite"] }],
      limits: { max_model_calls: 10 },
    });
    render(viewOf(fuller));
    expect(all("scenario-param-name").map(valueOf)).toEqual(["objective"]);
    expect(all("scenario-param-value").map(valueOf)).toEqual(["Ship"]);
    expect(valueOf(one("tool-result-tool"))).toBe("lookup");
    expect(all("tool-result").length).toBe(2);
    expect(valueOf(one("tool-result-json"))).toBe('{"id":7}');
    expect(valueOf(one("tool-result-error"))).toBe("gone");
    expect(valueOf(one("tool-change-at"))).toBe("2");
    const checked = [...one("tool-change-remove").querySelectorAll<HTMLInputElement>("input:checked")];
    expect(checked.map((box) => box.parentElement?.textContent)).toEqual(["cite"]);
    expect(valueOf(one("tool-change-add"))).toBe("");
    expect(valueOf(one("limit-max-model-calls"))).toBe("10");
    expect(valueOf(one("limit-max-restarts"))).toBe("");
  });

  it("empty fields with placeholders where a value is not set, rather than defaults to delete", () => {
    const unset = example({
      script: [{ call: "lookup", args: {} }, SAY],
      tool_results: { lookup: [{ result: null }, { error: "" }] },
      tool_changes: [{ at_model_call: 2, add: [], remove: [] }],
    });
    render(viewOf(unset));
    const placeholderOf = (id: string) => [valueOf(one(id)), one(id).getAttribute("placeholder")];
    expect(placeholderOf("step-args")).toEqual(["", '{"name": "value"} (empty: no arguments)']);
    expect(placeholderOf("tool-result-json")).toEqual(["", 'JSON, e.g. "3 hits" (empty: null)']);
    expect(placeholderOf("tool-result-error")).toEqual(["", "The error message"]);
    expect(placeholderOf("tool-change-add")[0]).toBe("");
    expect(placeholderOf("tool-change-add")[1]).toMatch(/^\[\{"name": .*\(empty: none\)$/);
    expect(placeholderOf("limit-max-model-calls")).toEqual(["", "default 32"]);
    expect(placeholderOf("limit-max-restarts")).toEqual(["", "default 8"]);
  });
});

describe("ScenarioPanel sends", () => {
  it("the user message on each keystroke, grouped", () => {
    render();
    typeInto(one("scenario-user"), "Refactor");
    typeInto(one("scenario-user"), "Refactor it");
    expect(sent).toEqual([
      [example({ user: "Refactor" }), "user"],
      [example({ user: "Refactor it" }), "user"],
    ]);
  });

  it("arguments that parse, and keeps the typed text", () => {
    render();
    typeInto(one("step-args", step(2)), '{"query": "logout"}');
    const logout = { call: "search", args: { query: "logout" } };
    expect(sent).toEqual([[example({ script: [LOOKUP, READ, logout, SAY] }), "step/2/args"]]);
    expect(valueOf(one("step-args", step(2)))).toBe('{"query": "logout"}');
  });

  it("nothing for arguments that do not parse, and shows why under them", () => {
    render();
    const args = one("step-args", step(0));
    typeInto(args, '{"id": }');
    expect(sent).toEqual([]);
    expect(valueOf(args)).toBe('{"id": }');
    const problem = one("step-args-problem", step(0));
    expect(problem.textContent).toBe("line 1, column 8: expected a value");
    expect(args.getAttribute("aria-invalid")).toBe("true");
    expect(args.getAttribute("aria-describedby")).toBe(problem.id);
    typeInto(args, "[1]");
    expect(one("step-args-problem", step(0)).textContent).toBe("the arguments must be a JSON object");
    typeInto(args, '{"id": 8}');
    expect(all("step-args-problem")).toEqual([]);
    const eight = { call: "lookup", args: { id: 8 } };
    expect(sent).toEqual([[example({ script: [eight, READ, SEARCH, SAY] }), "step/0/args"]]);
  });

  it("a new call before the final answer, parallel calls, and an answer when there is none", () => {
    render();
    click(one("add-call-step"));
    click(one("add-calls-step"));
    click(one("step-remove", step(5)));
    click(one("add-say-step"));
    const call = { call: "lookup", args: {} };
    expect(sent).toEqual([
      [example({ script: [LOOKUP, READ, SEARCH, call, SAY] }), null],
      [example({ script: [LOOKUP, READ, SEARCH, call, { calls: [call] }, SAY] }), null],
      [example({ script: [LOOKUP, READ, SEARCH, call, { calls: [call] }] }), null],
      [example({ script: [LOOKUP, READ, SEARCH, call, { calls: [call] }, { say: "" }] }), null],
    ]);
  });

  it("steps moved up and down and removed", () => {
    render();
    click(one("step-up", step(1)));
    click(one("step-down", step(1)));
    click(one("step-remove", step(0)));
    expect(sent).toEqual([
      [example({ script: [READ, LOOKUP, SEARCH, SAY] }), null],
      [example({ script: [READ, SEARCH, LOOKUP, SAY] }), null],
      [example({ script: [SEARCH, LOOKUP, SAY] }), null],
    ]);
    expect(all("step-tool").map(valueOf)).toEqual(["search", "lookup"]);
  });

  it("a tool picked for a call, keeping its arguments", () => {
    render();
    choose(one("step-tool", step(1)), "cite");
    const cite = { call: "cite", args: { section_key: "context" } };
    expect(sent).toEqual([[example({ script: [LOOKUP, cite, SEARCH, SAY] }), null]]);
    expect(valueOf(one("step-tool", step(1)))).toBe("cite");
  });

  it("a kind change to parallel calls, a call added to it and one removed", () => {
    render();
    choose(one("step-kind", step(0)), "calls");
    click(one("step-add-call", step(0)));
    typeInto(all("step-args", step(0))[1] ?? container, '{"id": 1}');
    click(all("step-remove-call", step(0))[0] ?? container);
    const added = { call: "lookup", args: { id: 1 } };
    expect(sent).toEqual([
      [example({ script: [{ calls: [LOOKUP] }, READ, SEARCH, SAY] }), null],
      [example({ script: [{ calls: [LOOKUP, { call: "lookup", args: {} }] }, READ, SEARCH, SAY] }), null],
      [example({ script: [{ calls: [LOOKUP, added] }, READ, SEARCH, SAY] }), "step/0/args/1"],
      [example({ script: [{ calls: [added] }, READ, SEARCH, SAY] }), null],
    ]);
    expect((one("step-remove-call", step(0)) as HTMLButtonElement).disabled).toBe(true);
  });

  it("the final answer's text, grouped", () => {
    render();
    typeInto(one("step-say"), "Done.");
    expect(sent).toEqual([[example({ script: [LOOKUP, READ, SEARCH, { say: "Done." }] }), "step/3/say"]]);
  });

  it("parameter overrides added, typed, moved to another parameter and removed", () => {
    render();
    click(one("scenario-add-param"));
    typeInto(one("scenario-param-value"), "Ship");
    choose(one("scenario-param-name"), "project_name");
    click(one("scenario-param-remove"));
    expect(sent).toEqual([
      [example({ params: { objective: "" } }), null],
      [example({ params: { objective: "Ship" } }), "params/objective"],
      [example({ params: { project_name: "Ship" } }), null],
      [EXAMPLE, null],
    ]);
    expect(sent.at(-1)?.[0]).not.toHaveProperty("params");
  });

  it("tool results: a list started, a value typed, a result turned into an error", () => {
    render();
    click(one("add-tool-results"));
    typeInto(one("tool-result-json"), '{"name": "Ada"}');
    typeInto(one("tool-result-json"), "{");
    choose(one("tool-result-kind"), "error");
    typeInto(one("tool-result-error"), "timeout");
    expect(sent).toEqual([
      [example({ tool_results: { lookup: [{ result: null }] } }), null],
      [example({ tool_results: { lookup: [{ result: { name: "Ada" } }] } }), "tool_results/lookup/0/result"],
      [example({ tool_results: { lookup: [{ error: "" }] } }), null],
      [example({ tool_results: { lookup: [{ error: "timeout" }] } }), "tool_results/lookup/0/error"],
    ]);
  });

  it("tool changes: one added, its model call typed, a tool removed, bad added tools refused", () => {
    render();
    click(one("add-tool-change"));
    typeInto(one("tool-change-at"), "3");
    typeInto(one("tool-change-at"), "0");
    expect(one("tool-change-at-problem").textContent).toBe("expected a whole number from 1");
    const cite = [...one("tool-change-remove").querySelectorAll("label")].find((label) => label.textContent === "cite");
    click(cite?.querySelector("input") ?? container);
    typeInto(one("tool-change-add"), '[{"name": "deploy"}]');
    expect(one("tool-change-add-problem").textContent).toBe('tool 1 needs a "description" text');
    expect(sent).toEqual([
      [example({ tool_changes: [{ at_model_call: 1, add: [], remove: [] }] }), null],
      [example({ tool_changes: [{ at_model_call: 3, add: [], remove: [] }] }), "tool_changes/0/at"],
      [example({ tool_changes: [{ at_model_call: 3, add: [], remove: ["cite"] }] }), null],
    ]);
  });

  it("limits set and cleared, leaving out limits when both are clear", () => {
    render();
    typeInto(one("limit-max-model-calls"), "10");
    typeInto(one("limit-max-model-calls"), "");
    expect(sent).toEqual([
      [example({ limits: { max_model_calls: 10 } }), "limits/max_model_calls"],
      [EXAMPLE, "limits/max_model_calls"],
    ]);
    expect(sent.at(-1)?.[0]).not.toHaveProperty("limits");
  });

  it("a second change built on the first while the view has not caught up", () => {
    renderFixed(viewOf(EXAMPLE));
    typeInto(one("scenario-name"), "lookup-later");
    click(one("step-remove", step(0)));
    expect(sent).toEqual([
      [example({ name: "lookup-later" }), "name"],
      [example({ name: "lookup-later", script: [READ, SEARCH, SAY] }), null],
    ]);
  });

  it("keys it does not know, unchanged", () => {
    const extended = Object.assign(example(), { "x-origin": "hand-written" });
    render(viewOf(extended));
    typeInto(one("scenario-user"), "Go");
    expect(sent[0]?.[0]).toStrictEqual({ ...extended, user: "Go" });
  });
});

describe("ScenarioPanel's typed texts", () => {
  it("start again from the view when the revision changes", () => {
    renderFixed(viewOf(EXAMPLE));
    typeInto(one("step-args", step(0)), "{oops");
    expect(valueOf(one("step-args", step(0)))).toBe("{oops");
    renderFixed(viewOf(EXAMPLE), 1);
    expect(valueOf(one("step-args", step(0)))).toBe('{"id":7}');
    expect(all("step-args-problem")).toEqual([]);
  });

  it("do not stay at a step's old place when steps move", () => {
    render();
    typeInto(one("step-args", step(0)), '{ "id": 8 }');
    click(one("step-down", step(0)));
    expect(all("step-args").map(valueOf)).toEqual(['{"section_key":"context"}', '{"id":8}', '{"query":"login"}']);
  });
});

describe("ScenarioPanel's emptied JSON fields", () => {
  it("send their unset value: no arguments, a null result, no added tools", () => {
    const set = example({
      script: [LOOKUP, SAY],
      tool_results: { lookup: [{ result: "hit" }] },
      tool_changes: [{ at_model_call: 2, add: [], remove: ["cite"] }],
    });
    render(viewOf(set));
    typeInto(one("step-args"), " ");
    typeInto(one("tool-result-json"), "");
    typeInto(one("tool-change-add"), '[{"name": "deploy", "description": "ship", "parameters": {}}]');
    typeInto(one("tool-change-add"), "");
    expect(all("step-args-problem")).toEqual([]);
    const unset = (extra: Partial<Scenario>) => example({ ...set, ...extra });
    const deploy = { name: "deploy", description: "ship", parameters: {} };
    expect(sent.map(([scenario]) => scenario)).toEqual([
      unset({ script: [{ call: "lookup", args: {} }, SAY] }),
      unset({ script: [{ call: "lookup", args: {} }, SAY], tool_results: { lookup: [{ result: null }] } }),
      unset({
        script: [{ call: "lookup", args: {} }, SAY],
        tool_results: { lookup: [{ result: null }] },
        tool_changes: [{ at_model_call: 2, add: [deploy], remove: ["cite"] }],
      }),
      unset({ script: [{ call: "lookup", args: {} }, SAY], tool_results: { lookup: [{ result: null }] } }),
    ]);
  });
});

/** The example's tools with their schemas: `search` has no mock, `cite` takes a nested object. */
const SCHEMA_TOOLS: OfferedTool[] = [
  {
    name: "lookup",
    parameters: {
      type: "object",
      properties: { id: { type: "integer", description: "The issue's number." } },
      required: ["id"],
    },
    answerer: "mock",
  },
  {
    name: "search",
    parameters: {
      type: "object",
      properties: {
        query: { type: "string" },
        exact: { type: "boolean" },
        scope: { enum: ["docs", "code"] },
      },
      required: ["query"],
    },
    answerer: "nothing",
  },
  {
    name: "cite",
    parameters: { type: "object", properties: { page: { type: "object" } } },
    answerer: "mock",
  },
  { name: "read_section", parameters: null, answerer: "session" },
];

/** The argument field `name` of the call in `within`. */
function argument(name: string, within: HTMLElement): HTMLElement {
  const field = within.querySelector<HTMLElement>(`[data-testid="step-arg"][data-name="${name}"]`);
  if (field === null) throw new Error(`no argument ${name}`);
  return one("step-arg-value", field);
}

function pressed(id: string, within: HTMLElement): string | null {
  return one(id, within).getAttribute("aria-pressed");
}

describe("ScenarioPanel's argument forms", () => {
  it("show a field per property of a known schema, required marked and described, and JSON otherwise", () => {
    render(viewOf(EXAMPLE), 0, SCHEMA_TOOLS);
    const id = argument("id", step(0));
    expect(valueOf(id)).toBe("7");
    expect(id.getAttribute("type")).toBe("number");
    expect(id.getAttribute("aria-required")).toBe("true");
    const label = step(0).querySelector(`label[for="${id.id}"]`);
    expect(label?.textContent).toBe("id *");
    expect(document.getElementById(id.getAttribute("aria-describedby") ?? "")?.textContent).toBe("The issue's number.");
    expect(pressed("step-args-form-view", step(0))).toBe("true");
    expect(all("step-args", step(0))).toEqual([]);

    expect(valueOf(argument("query", step(2)))).toBe("login");
    expect((argument("exact", step(2)) as HTMLInputElement).checked).toBe(false);
    expect(valueOf(argument("scope", step(2)))).toBe("");
    expect(optionsOf(argument("scope", step(2)))).toEqual(["(not set)", "docs", "code"]);
    expect(argument("scope", step(2)).getAttribute("aria-required")).toBeNull();

    // read_section's schema is the core's: its arguments stay JSON, with no toggle.
    expect(valueOf(one("step-args", step(1)))).toBe('{"section_key":"context"}');
    expect(all("step-args-form-view", step(1))).toEqual([]);
  });

  it("send each field's edit in its own undo group, leaving out an emptied optional one", () => {
    render(viewOf(EXAMPLE), 0, SCHEMA_TOOLS);
    typeInto(argument("query", step(2)), "logout");
    click(argument("exact", step(2)));
    choose(argument("scope", step(2)), '"code"');
    choose(argument("scope", step(2)), "");
    typeInto(argument("id", step(0)), "8");
    const search = (args: NonNullable<Scenario["script"]>[number]) => example({ script: [LOOKUP, READ, args, SAY] });
    expect(sent).toEqual([
      [search({ call: "search", args: { query: "logout" } }), "step/2/args#query"],
      [search({ call: "search", args: { query: "logout", exact: true } }), "step/2/args#exact"],
      [search({ call: "search", args: { query: "logout", exact: true, scope: "code" } }), "step/2/args#scope"],
      [search({ call: "search", args: { query: "logout", exact: true } }), "step/2/args#scope"],
      [
        example({
          script: [
            { call: "lookup", args: { id: 8 } },
            READ,
            { call: "search", args: { query: "logout", exact: true } },
            SAY,
          ],
        }),
        "step/0/args#id",
      ],
    ]);
  });

  it("send nothing for a number that is not one, or a required one emptied, and say why", () => {
    render(viewOf(EXAMPLE), 0, SCHEMA_TOOLS);
    typeInto(argument("id", step(0)), "2.5");
    expect(one("step-arg-value-problem", step(0)).textContent).toBe("expected a whole number");
    expect(argument("id", step(0)).getAttribute("aria-invalid")).toBe("true");
    typeInto(argument("id", step(0)), "");
    expect(one("step-arg-value-problem", step(0)).textContent).toBe("a whole number is required");
    expect(sent).toEqual([]);
  });

  it("keep arguments the schema does not name, and say they are there", () => {
    render(viewOf(example({ script: [{ call: "lookup", args: { id: 7, note: "x" } }, SAY] })), 0, SCHEMA_TOOLS);
    expect(one("step-args-others").textContent).toBe("Also set, kept as they are (edit them as JSON): note");
    typeInto(argument("id", step(0)), "9");
    expect(sent).toEqual([
      [example({ script: [{ call: "lookup", args: { id: 9, note: "x" } }, SAY] }), "step/0/args#id"],
    ]);
  });

  it("switch between the form and JSON, both editing the same arguments", () => {
    render(viewOf(EXAMPLE), 0, SCHEMA_TOOLS);
    typeInto(argument("id", step(0)), "8");
    click(one("step-args-json-view", step(0)));
    expect(pressed("step-args-json-view", step(0))).toBe("true");
    expect(valueOf(one("step-args", step(0)))).toBe('{"id":8}');
    typeInto(one("step-args", step(0)), '{"id": 9}');
    click(one("step-args-form-view", step(0)));
    expect(valueOf(argument("id", step(0)))).toBe("9");
    expect(sent.map(([, group]) => group)).toEqual(["step/0/args#id", "step/0/args"]);
  });

  it("keep the JSON view while its text does not parse, so the text is not lost", () => {
    render(viewOf(EXAMPLE), 0, SCHEMA_TOOLS);
    click(one("step-args-json-view", step(0)));
    typeInto(one("step-args", step(0)), '{"id": ');
    const toForm = one("step-args-form-view", step(0)) as HTMLButtonElement;
    expect(toForm.disabled).toBe(true);
    expect(toForm.title).toBe("Fix the JSON first");
    typeInto(one("step-args", step(0)), '{"id": 3}');
    expect(toForm.disabled).toBe(false);
  });

  it("fall back to JSON, saying why, for a nested schema or a value a field cannot hold", () => {
    const script: Scenario["script"] = [
      { call: "cite", args: { page: { n: 1 } } },
      { call: "lookup", args: { id: "seven" } },
      SAY,
    ];
    render(viewOf(example({ script })), 0, SCHEMA_TOOLS);
    expect(one("step-args-unfit", step(0)).textContent).toBe('JSON only: "page" is an object');
    expect(valueOf(one("step-args", step(0)))).toBe('{"page":{"n":1}}');
    expect(one("step-args-unfit", step(1)).textContent).toBe('JSON only: "id" holds "seven"');
    expect((one("step-args-form-view", step(1)) as HTMLButtonElement).disabled).toBe(true);
    typeInto(one("step-args", step(1)), '{"id": 7}');
    expect(all("step-args-unfit", step(1))).toEqual([]);
    expect(valueOf(one("step-args", step(1)))).toBe('{"id": 7}');
    click(one("step-args-form-view", step(1)));
    expect(valueOf(argument("id", step(1)))).toBe("7");
  });
});

describe("ScenarioPanel's flags of calls without a mock", () => {
  it("flag a called tool nothing would answer, and not one a mock, the session or results answer", () => {
    render(viewOf(EXAMPLE), 0, SCHEMA_TOOLS);
    expect(all("step-no-mock").map((flag) => flag.dataset.tool)).toEqual(["search"]);
    expect(one("step-no-mock", step(2)).textContent).toBe("No mock for searchAdd a mock");
  });

  it("flag no tool the scenario's results answer", () => {
    render(viewOf(example({ tool_results: { search: [{ result: "2 hits" }] } })), 0, SCHEMA_TOOLS);
    expect(all("step-no-mock")).toEqual([]);
  });

  it("add a mock result in one click, through the edits, and focus its value", () => {
    render(viewOf(EXAMPLE), 0, SCHEMA_TOOLS);
    click(one("step-add-mock", step(2)));
    expect(sent).toEqual([[example({ tool_results: { search: [{ result: null }] } }), null]]);
    expect(all("step-no-mock")).toEqual([]);
    const value = one("tool-result-json", one("tool-result-list"));
    expect(one("tool-result-list").dataset.tool).toBe("search");
    expect(document.activeElement).toBe(value);
  });

  it("say a source tool is answered only when its source may start", () => {
    const tools = SCHEMA_TOOLS.map((tool) =>
      tool.name === "search" ? { ...tool, answerer: "source" as const } : tool,
    );
    render(viewOf(EXAMPLE), 0, tools);
    expect(one("step-no-mock").textContent).toBe(
      "No mock for search: only its source answers, when the run may start itAdd a mock",
    );
  });
});
