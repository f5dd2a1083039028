// Tests for scenarioEdits.ts: each edit gives the whole new scenario and its undo group, or null
// when nothing changes, or a problem for text that makes no value; inputs are frozen, so an edit
// that changed the scenario it was given would throw. `x-` keys survive every edit, the final answer
// stays last, and emptied optional collections are left out.
import { describe, expect, it } from "vitest";
import type { Scenario } from "../platform";
import {
  addParallelCall,
  addParam,
  addStep,
  addToolChange,
  addToolResult,
  addToolResults,
  addedTools,
  callAt,
  canMoveStep,
  canSetStepKind,
  choiceLabel,
  freeParam,
  isProblem,
  jsonText,
  moveStep,
  paramChoices,
  removeParallelCall,
  removeParam,
  removeStep,
  removeToolChange,
  removeToolResult,
  removeToolResults,
  renameParam,
  setCallArgs,
  setCallArgument,
  setCallTool,
  setLimit,
  setName,
  setParam,
  setSay,
  setStepKind,
  setToolChangeAdd,
  setToolChangeAt,
  setToolChangeRemoves,
  setToolResultError,
  setToolResultJson,
  setToolResultKind,
  setToolResultsTool,
  setUser,
  stepKind,
  toolChoices,
  undoGroup,
  type Step,
  type TextEdit,
  type ToolChange,
  scriptOf,
} from "./scenarioEdits";
import { lookupFirstScenario } from "../testing/fakeCompare";
import type { ArgumentField } from "./argumentForm";

const TOOLS = ["lookup", "search", "cite", "read_section"];
const PARAMS = ["objective", "project_name"];

/** Freezes a value and everything in it, so an edit that mutates its input throws. */
function frozen<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const inner of Object.values(value)) frozen(inner);
    Object.freeze(value);
  }
  return value;
}

/** examples/lookup-first.scenario.json, with an `x-` key the types do not show. */
function example(extra: Partial<Scenario> = {}): Scenario {
  const scenario: Scenario = { ...lookupFirstScenario(), ...extra };
  return frozen(Object.assign(scenario, { "x-origin": "hand-written" }));
}

const SAY: Step = { say: "Fixed the login flow." };
const LOOKUP: Step = { call: "lookup", args: { id: 7 } };
const READ: Step = { call: "read_section", args: { section_key: "context" } };
const SEARCH: Step = { call: "search", args: { query: "login" } };

/** `example()` with its script replaced. */
function withScript(script: Step[], extra: Partial<Scenario> = {}): Scenario {
  return { ...example(extra), script };
}

const RUN_TESTS = { name: "run_tests", description: "Run a suite", parameters: { type: "object" } };
const CHANGE: ToolChange = { at_model_call: 2, add: [RUN_TESTS], remove: [] };

/** Expects `result` to be exactly `scenario` under `group`, the `x-` key included. */
function check(result: TextEdit, scenario: Scenario | null, group: string | null = null): void {
  if (scenario === null) {
    expect(result).toBeNull();
    return;
  }
  expect(result).toStrictEqual({ scenario, group });
  if (result !== null && !isProblem(result)) expect(result.scenario).toHaveProperty("x-origin", "hand-written");
}

/** Expects `result` to be a problem whose message is `message`. */
function checkProblem(result: TextEdit, message: string): void {
  expect(result).toStrictEqual({ problem: message });
}

describe("name and user message", () => {
  it.each([
    ["name", setName(example(), "lookup-later"), { ...example(), name: "lookup-later" }, "name"],
    ["same name", setName(example(), "lookup-first"), null, null],
    ["user", setUser(example(), "Fix it"), { ...example(), user: "Fix it" }, "user"],
    ["same user", setUser(example(), "Refactor the authentication module."), null, null],
  ])("%s", (_, result, scenario, group) => {
    check(result, scenario, group);
  });
});

describe("parameter overrides", () => {
  const two = () => example({ params: { objective: "Ship", project_name: "Unfold" } });
  it.each([
    [
      "sets a value in its group",
      setParam(two(), "objective", "Test"),
      example({ params: { objective: "Test", project_name: "Unfold" } }),
      "params/objective",
    ],
    [
      "adds an override by value",
      setParam(example(), "objective", "Test"),
      example({ params: { objective: "Test" } }),
      "params/objective",
    ],
    ["same value", setParam(two(), "objective", "Ship"), null, null],
    [
      "adds the first free parameter",
      addParam(example({ params: { objective: "Ship" } }), PARAMS),
      example({ params: { objective: "Ship", project_name: "" } }),
      null,
    ],
    ["adds none when all are overridden", addParam(two(), PARAMS), null, null],
    [
      "renames in place",
      renameParam(example({ params: { objective: "Ship", x: "1" } }), "objective", "project_name"),
      example({ params: { project_name: "Ship", x: "1" } }),
      null,
    ],
    ["does not rename onto an override", renameParam(two(), "objective", "project_name"), null, null],
    ["does not rename what is not there", renameParam(example(), "objective", "project_name"), null, null],
    ["removes one", removeParam(two(), "objective"), example({ params: { project_name: "Unfold" } }), null],
    ["removes nothing", removeParam(two(), "toString"), null, null],
  ])("%s", (_, result, scenario, group) => {
    check(result, scenario, group);
  });

  it("leaves out params when the last override goes", () => {
    const result = removeParam(example({ params: { objective: "Ship" } }), "objective");
    check(result, example());
    expect(result?.scenario).not.toHaveProperty("params");
  });

  it("finds the first free parameter, if any", () => {
    expect(freeParam(example(), PARAMS)).toBe("objective");
    expect(freeParam(example({ params: { objective: "" } }), PARAMS)).toBe("project_name");
    expect(freeParam(two(), PARAMS)).toBeNull();
    expect(freeParam(example(), ["constructor"])).toBe("constructor");
  });
});

describe("a scenario of several turns", () => {
  // The panel edits the first turn; the later turns are kept as they are, never dropped.
  const later = { user: "Now search for similar bugs.", script: [SEARCH, { say: "Found 2." }] };
  const turns = (): Scenario => {
    const { user, script, ...rest } = example();
    return frozen({ ...rest, turns: [{ user: user ?? "", script: script ?? [] }, later] });
  };

  it("edits the first turn's user message", () => {
    const changed = setUser(turns(), "Fix it")?.scenario;
    expect(changed?.turns?.map((turn) => turn.user)).toEqual(["Fix it", later.user]);
    expect(changed?.user).toBeUndefined();
  });

  it("edits the first turn's script", () => {
    const changed = addStep(turns(), "call", TOOLS)?.scenario;
    expect(changed === undefined ? [] : scriptOf(changed)).toEqual([
      LOOKUP,
      READ,
      SEARCH,
      { call: "lookup", args: {} },
      SAY,
    ]);
    expect(changed?.turns?.[1]).toEqual(later);
    expect(changed?.script).toBeUndefined();
  });
});

describe("steps", () => {
  it.each([
    [
      "a call before the final answer",
      addStep(example(), "call", TOOLS),
      [LOOKUP, READ, SEARCH, { call: "lookup", args: {} }, SAY],
    ],
    [
      "parallel calls before the final answer",
      addStep(example(), "calls", TOOLS),
      [LOOKUP, READ, SEARCH, { calls: [{ call: "lookup", args: {} }] }, SAY],
    ],
    [
      "a call at the end without an answer",
      addStep(withScript([LOOKUP]), "call", ["search"]),
      [LOOKUP, { call: "search", args: {} }],
    ],
    ["an answer at the end", addStep(withScript([LOOKUP]), "say", TOOLS), [LOOKUP, { say: "" }]],
    ["no second answer", addStep(example(), "say", TOOLS), null],
    ["no call without tools", addStep(example(), "call", []), null],
    ["removes a step", removeStep(example(), 1), [LOOKUP, SEARCH, SAY]],
    ["removes the answer", removeStep(example(), 3), [LOOKUP, READ, SEARCH]],
    ["removes nothing out of range", removeStep(example(), 4), null],
    ["moves a step up", moveStep(example(), 1, -1), [READ, LOOKUP, SEARCH, SAY]],
    ["moves a step down", moveStep(example(), 0, 1), [READ, LOOKUP, SEARCH, SAY]],
    ["not above the first", moveStep(example(), 0, -1), null],
    ["not past the final answer", moveStep(example(), 2, 1), null],
    ["the final answer does not move", moveStep(example(), 3, -1), null],
    ["the last call moves down without an answer", moveStep(withScript([LOOKUP, READ]), 0, 1), [READ, LOOKUP]],
  ])("%s", (_, result, script) => {
    check(result, script === null ? null : withScript(script));
  });

  it.each([
    [0, -1, false],
    [0, 1, true],
    [2, 1, false],
    [3, -1, false],
    [3, 1, false],
    [9, -1, false],
  ] as const)("step %i can move by %i: %s", (index, offset, possible) => {
    expect(canMoveStep(example(), index, offset)).toBe(possible);
  });

  it.each([
    [
      "a call into parallel calls keeps it",
      setStepKind(example(), 0, "calls", TOOLS),
      [{ calls: [LOOKUP] }, READ, SEARCH, SAY],
    ],
    [
      "parallel calls into a call keep the first",
      setStepKind(withScript([{ calls: [READ, SEARCH] }, SAY]), 0, "call", TOOLS),
      [READ, SAY],
    ],
    [
      "an answer into a call picks the first tool",
      setStepKind(example(), 3, "call", TOOLS),
      [LOOKUP, READ, SEARCH, { call: "lookup", args: {} }],
    ],
    [
      "an answer into parallel calls",
      setStepKind(example(), 3, "calls", ["cite"]),
      [LOOKUP, READ, SEARCH, { calls: [{ call: "cite", args: {} }] }],
    ],
    ["the last call into an answer", setStepKind(withScript([LOOKUP, READ]), 1, "say", TOOLS), [LOOKUP, { say: "" }]],
    ["no answer before the end", setStepKind(example(), 1, "say", TOOLS), null],
    ["the same kind", setStepKind(example(), 0, "call", TOOLS), null],
    ["no call without tools", setStepKind(example(), 3, "call", []), null],
    ["no such step", setStepKind(example(), 7, "calls", TOOLS), null],
  ])("kind: %s", (_, result, script) => {
    check(result, script === null ? null : withScript(script));
  });

  it("says which kinds a step may take: an answer only last", () => {
    expect(canSetStepKind(example(), 1, "say")).toBe(false);
    expect(canSetStepKind(example(), 3, "say")).toBe(true);
    expect(canSetStepKind(example(), 1, "calls")).toBe(true);
    expect(scriptOf(example()).map(stepKind)).toEqual(["call", "call", "call", "say"]);
    expect(stepKind({ calls: [] })).toBe("calls");
  });

  it.each([
    ["answer text in its group", setSay(example(), 3, "Done."), [LOOKUP, READ, SEARCH, { say: "Done." }], "step/3/say"],
    ["the same text", setSay(example(), 3, "Fixed the login flow."), null, null],
    ["not on a call", setSay(example(), 0, "Done."), null, null],
  ])("say: %s", (_, result, script, group) => {
    check(result, script === null ? null : withScript(script), group);
  });
});

describe("calls", () => {
  const parallel = () => withScript([{ calls: [LOOKUP, SEARCH] }, SAY]);

  it.each([
    [
      "a call step's tool",
      setCallTool(example(), { step: 0, call: null }, "cite"),
      [{ call: "cite", args: { id: 7 } }, READ, SEARCH, SAY],
    ],
    ["the same tool", setCallTool(example(), { step: 0, call: null }, "lookup"), null],
    ["no call in an answer", setCallTool(example(), { step: 3, call: null }, "cite"), null],
    ["no parallel place in a call step", setCallTool(example(), { step: 0, call: 0 }, "cite"), null],
  ])("tool: %s", (_, result, script) => {
    check(result, script === null ? null : withScript(script));
  });

  it("sets a parallel call's tool and arguments in its own group", () => {
    const cite = { call: "cite", args: { query: "login" } };
    check(setCallTool(parallel(), { step: 0, call: 1 }, "cite"), withScript([{ calls: [LOOKUP, cite] }, SAY]));
    check(
      setCallArgs(parallel(), { step: 0, call: 1 }, '{"query": "logout"}'),
      withScript([{ calls: [LOOKUP, { call: "search", args: { query: "logout" } }] }, SAY]),
      "step/0/args/1",
    );
    expect(callAt(parallel(), { step: 0, call: 1 })).toEqual(SEARCH);
    expect(callAt(parallel(), { step: 0, call: null })).toBeNull();
  });

  it.each([
    ['{"id": 8}', [{ call: "lookup", args: { id: 8 } }, READ, SEARCH, SAY], "step/0/args"],
    ['{ "id" : 7 }', null, null],
    ["{}", [{ call: "lookup", args: {} }, READ, SEARCH, SAY], "step/0/args"],
    ["", [{ call: "lookup", args: {} }, READ, SEARCH, SAY], "step/0/args"],
    [" \n", [{ call: "lookup", args: {} }, READ, SEARCH, SAY], "step/0/args"],
  ])("args %j", (text, script, group) => {
    check(setCallArgs(example(), { step: 0, call: null }, text), script === null ? null : withScript(script), group);
  });

  it.each([
    ['{"id": }', "line 1, column 8: expected a value"],
    ['{\n  "id": 7,\n}', "line 3, column 1: expected a property name in double quotes"],
    ["[1]", "the arguments must be a JSON object"],
    ["null", "the arguments must be a JSON object"],
    ['"id"', "the arguments must be a JSON object"],
  ])("args %j are a problem", (text, message) => {
    checkProblem(setCallArgs(example(), { step: 0, call: null }, text), message);
  });

  it.each([
    [
      "adds a call of the first tool",
      addParallelCall(parallel(), 0, TOOLS),
      [{ calls: [LOOKUP, SEARCH, { call: "lookup", args: {} }] }, SAY],
    ],
    ["not to a call step", addParallelCall(example(), 0, TOOLS), null],
    ["not without tools", addParallelCall(parallel(), 0, []), null],
    ["removes a call", removeParallelCall(parallel(), 0, 0), [{ calls: [SEARCH] }, SAY]],
    ["not the only call", removeParallelCall(withScript([{ calls: [LOOKUP] }, SAY]), 0, 0), null],
    ["not a call that is not there", removeParallelCall(parallel(), 0, 2), null],
  ])("parallel: %s", (_, result, script) => {
    check(result, script === null ? null : withScript(script));
  });
});

describe("a call's argument from its form field", () => {
  const id: ArgumentField = { name: "id", kind: "integer", required: true, description: null, options: [] };
  const note: ArgumentField = { name: "note", kind: "text", required: false, description: null, options: [] };
  const noted = () => withScript([{ call: "lookup", args: { id: 7, note: "x", extra: true } }, SAY]);
  const parallel = () => withScript([{ calls: [LOOKUP, SEARCH] }, SAY]);

  it("sets it in the argument's own group, keeping the others", () => {
    check(
      setCallArgument(noted(), { step: 0, call: null }, id, "8"),
      withScript([{ call: "lookup", args: { id: 8, note: "x", extra: true } }, SAY]),
      "step/0/args#id",
    );
    check(
      setCallArgument(parallel(), { step: 0, call: 1 }, note, "hi"),
      withScript([{ calls: [LOOKUP, { call: "search", args: { query: "login", note: "hi" } }] }, SAY]),
      "step/0/args/1#note",
    );
  });

  it("leaves an emptied optional argument out", () => {
    check(
      setCallArgument(noted(), { step: 0, call: null }, note, ""),
      withScript([{ call: "lookup", args: { id: 7, extra: true } }, SAY]),
      "step/0/args#note",
    );
  });

  it("refuses text its field makes no value of, and changes nothing where there is no call", () => {
    checkProblem(setCallArgument(noted(), { step: 0, call: null }, id, "x"), "expected a whole number");
    checkProblem(setCallArgument(noted(), { step: 0, call: null }, id, ""), "a whole number is required");
    check(setCallArgument(noted(), { step: 1, call: null }, id, "8"), null);
    check(setCallArgument(noted(), { step: 0, call: null }, id, "7"), null);
  });
});

describe("tool results", () => {
  const lookupResults = () => example({ tool_results: { lookup: [{ result: { id: 7 } }, { error: "gone" }] } });

  it.each([
    [
      "starts results for the first tool without",
      addToolResults(example({ tool_results: { lookup: [] } }), TOOLS),
      example({ tool_results: { lookup: [], search: [{ result: null }] } }),
      null,
    ],
    ["none when every tool has results", addToolResults(lookupResults(), ["lookup"]), null, null],
    [
      "moves results to another tool in place",
      setToolResultsTool(example({ tool_results: { lookup: [{ error: "x" }], cite: [] } }), "lookup", "search"),
      example({ tool_results: { search: [{ error: "x" }], cite: [] } }),
      null,
    ],
    [
      "not onto a tool with results",
      setToolResultsTool(
        example({ tool_results: { lookup: [{ error: "x" }], cite: [{ error: "y" }] } }),
        "lookup",
        "cite",
      ),
      null,
      null,
    ],
    [
      "adds a result",
      addToolResult(lookupResults(), "lookup"),
      example({ tool_results: { lookup: [{ result: { id: 7 } }, { error: "gone" }, { result: null }] } }),
      null,
    ],
    [
      "removes a result",
      removeToolResult(lookupResults(), "lookup", 0),
      example({ tool_results: { lookup: [{ error: "gone" }] } }),
      null,
    ],
    [
      "sets a value in its group",
      setToolResultJson(lookupResults(), "lookup", 0, "[1, 2]"),
      example({ tool_results: { lookup: [{ result: [1, 2] }, { error: "gone" }] } }),
      "tool_results/lookup/0/result",
    ],
    [
      "sets any JSON",
      setToolResultJson(lookupResults(), "lookup", 0, '"text"'),
      example({ tool_results: { lookup: [{ result: "text" }, { error: "gone" }] } }),
      "tool_results/lookup/0/result",
    ],
    [
      "sets an error in its group",
      setToolResultError(lookupResults(), "lookup", 1, "timeout"),
      example({ tool_results: { lookup: [{ result: { id: 7 } }, { error: "timeout" }] } }),
      "tool_results/lookup/1/error",
    ],
    [
      "a value becomes an error",
      setToolResultKind(lookupResults(), "lookup", 0, "error"),
      example({ tool_results: { lookup: [{ error: "" }, { error: "gone" }] } }),
      null,
    ],
    [
      "an error becomes a value",
      setToolResultKind(lookupResults(), "lookup", 1, "result"),
      example({ tool_results: { lookup: [{ result: { id: 7 } }, { result: null }] } }),
      null,
    ],
    ["the same kind", setToolResultKind(lookupResults(), "lookup", 1, "error"), null, null],
    ["no result there", setToolResultError(lookupResults(), "lookup", 2, "x"), null, null],
    ["no such tool", addToolResult(lookupResults(), "search"), null, null],
  ])("%s", (_, result, scenario, group) => {
    check(result, scenario, group);
  });

  it("leaves out a tool whose last result goes, and tool_results when none is left", () => {
    const one = example({ tool_results: { lookup: [{ error: "gone" }], search: [{ result: 1 }] } });
    check(removeToolResult(one, "lookup", 0), example({ tool_results: { search: [{ result: 1 }] } }));
    const last = removeToolResults(example({ tool_results: { lookup: [{ error: "gone" }] } }), "lookup");
    check(last, example());
    expect(last?.scenario).not.toHaveProperty("tool_results");
  });

  it("makes an emptied result null", () => {
    check(
      setToolResultJson(lookupResults(), "lookup", 0, " "),
      example({ tool_results: { lookup: [{ result: null }, { error: "gone" }] } }),
      "tool_results/lookup/0/result",
    );
  });

  it("refuses result text that is not JSON", () => {
    checkProblem(
      setToolResultJson(lookupResults(), "lookup", 0, "{oops}"),
      "line 1, column 2: expected a property name in double quotes",
    );
  });
});

describe("tool changes", () => {
  it("adds an empty change after the last one's model call, or at the first", () => {
    check(addToolChange(example()), example({ tool_changes: [{ at_model_call: 1, add: [], remove: [] }] }));
    check(
      addToolChange(example({ tool_changes: [CHANGE] })),
      example({ tool_changes: [CHANGE, { at_model_call: 3, add: [], remove: [] }] }),
    );
  });

  it.each([
    ["5", example({ tool_changes: [{ ...CHANGE, at_model_call: 5 }] }), "tool_changes/0/at"],
    [" 3 ", example({ tool_changes: [{ ...CHANGE, at_model_call: 3 }] }), "tool_changes/0/at"],
    ["2", null, null],
  ])("model call %j", (text, scenario, group) => {
    check(setToolChangeAt(example({ tool_changes: [CHANGE] }), 0, text), scenario, group);
  });

  it.each(["0", "", "1.5", "-2", "x", "4294967296"])("model call %j is a problem", (text) => {
    checkProblem(setToolChangeAt(example({ tool_changes: [CHANGE] }), 0, text), "expected a whole number from 1");
  });

  it("sets which tools a change removes, a new one last", () => {
    const removing = example({ tool_changes: [{ ...CHANGE, remove: ["cite"] }] });
    check(
      setToolChangeRemoves(removing, 0, "search", true),
      example({ tool_changes: [{ ...CHANGE, remove: ["cite", "search"] }] }),
    );
    check(setToolChangeRemoves(removing, 0, "cite", false), example({ tool_changes: [CHANGE] }));
    check(setToolChangeRemoves(removing, 0, "cite", true), null);
    check(setToolChangeRemoves(removing, 1, "cite", false), null);
  });

  it("sets the added tools from a JSON tool array in its group", () => {
    const text = '[{"name": "deploy", "description": "Ship it", "parameters": {"type": "object"}, "kind": "execute"}]';
    const deploy = { name: "deploy", description: "Ship it", parameters: { type: "object" }, kind: "execute" as const };
    const changing = example({ tool_changes: [CHANGE] });
    const adding = (add: ToolChange["add"]) => example({ tool_changes: [{ ...CHANGE, add }] });
    check(setToolChangeAdd(changing, 0, text), adding([deploy]), "tool_changes/0/add");
    check(setToolChangeAdd(changing, 0, "[]"), adding([]), "tool_changes/0/add");
  });

  it.each([
    ["[", "line 1, column 2: the JSON ends too early: expected a value"],
    ["{}", "the added tools must be a JSON array of tools"],
    ["[1]", "tool 1 is not a JSON object"],
    ['[{"description": "d", "parameters": {}}]', 'tool 1 needs a "name" text'],
    ['[{"name": "a", "parameters": {}}]', 'tool 1 needs a "description" text'],
    ['[{"name": "a", "description": "d"}]', 'tool 1 needs "parameters" (a JSON Schema)'],
    [
      '[{"name": "a", "description": "d", "parameters": {}, "kind": "write"}]',
      'tool 1 "kind" must be one of read, edit, execute, other',
    ],
    [
      '[{"name": "a", "description": "d", "parameters": {}, "categories": "x"}]',
      'tool 1 "categories" must be a list of texts',
    ],
    [
      '[{"name": "a", "description": "d", "parameters": {}, "requires_permission": 1}]',
      'tool 1 "requires_permission" must be true or false',
    ],
    ['[{"name": "a", "description": "d", "parameters": {}, "brief": 2}]', 'tool 1 "brief" must be a text'],
  ])("added tools %j are a problem", (text, message) => {
    checkProblem(setToolChangeAdd(example({ tool_changes: [CHANGE] }), 0, text), message);
  });

  it("adds no tools from an emptied text", () => {
    const none = example({ tool_changes: [{ ...CHANGE, add: [] }] });
    check(setToolChangeAdd(example({ tool_changes: [CHANGE] }), 0, ""), none, "tool_changes/0/add");
  });

  it("removes a change, and tool_changes with the last", () => {
    const two = example({ tool_changes: [CHANGE, { at_model_call: 4, add: [], remove: ["cite"] }] });
    check(removeToolChange(two, 0), example({ tool_changes: [{ at_model_call: 4, add: [], remove: ["cite"] }] }));
    const last = removeToolChange(example({ tool_changes: [CHANGE] }), 0);
    check(last, example());
    expect(last?.scenario).not.toHaveProperty("tool_changes");
    check(removeToolChange(example(), 0), null);
  });
});

describe("limits", () => {
  it.each([
    ["max_model_calls", "12", {}, { max_model_calls: 12 }],
    ["max_restarts", "0", { max_model_calls: 12 }, { max_model_calls: 12, max_restarts: 0 }],
    ["max_restarts", "", { max_model_calls: 12, max_restarts: 2 }, { max_model_calls: 12 }],
    ["max_model_calls", " ", { max_model_calls: 12 }, undefined],
  ] as const)("%s %j over %j", (field, text, before, after) => {
    const base = Object.keys(before).length === 0 ? example() : example({ limits: before });
    const result = setLimit(base, field, text);
    check(result, after === undefined ? example() : example({ limits: after }), `limits/${field}`);
    if (after === undefined) expect(result).not.toHaveProperty("scenario.limits");
  });

  it("changes nothing when the value is the same or already clear", () => {
    check(setLimit(example({ limits: { max_restarts: 2 } }), "max_restarts", "2"), null);
    check(setLimit(example(), "max_restarts", ""), null);
  });

  it.each([
    ["max_model_calls", "0", "expected a whole number from 1"],
    ["max_model_calls", "2.5", "expected a whole number from 1"],
    ["max_restarts", "-1", "expected a whole number from 0"],
  ] as const)("%s %j is a problem", (field, text, message) => {
    checkProblem(setLimit(example(), field, text), message);
  });
});

describe("undo groups", () => {
  it.each([
    [undoGroup.name, "name"],
    [undoGroup.user, "user"],
    [undoGroup.param("objective"), "params/objective"],
    [undoGroup.args({ step: 2, call: null }), "step/2/args"],
    [undoGroup.args({ step: 2, call: 0 }), "step/2/args/0"],
    [undoGroup.say(3), "step/3/say"],
    [undoGroup.result("lookup", 1), "tool_results/lookup/1/result"],
    [undoGroup.error("lookup", 1), "tool_results/lookup/1/error"],
    [undoGroup.changeAt(0), "tool_changes/0/at"],
    [undoGroup.changeAdd(0), "tool_changes/0/add"],
    [undoGroup.limit("max_restarts"), "limits/max_restarts"],
  ])("%s", (group, expected) => {
    expect(group).toBe(expected);
  });
});

describe("choices and JSON text", () => {
  it("offers the template's tools, those a change adds, and a current name marked", () => {
    const changing = example({ tool_changes: [CHANGE] });
    expect(addedTools(changing)).toEqual(["run_tests"]);
    expect(toolChoices(changing, ["lookup"], ["lookup"])).toEqual([
      { name: "lookup", note: null },
      { name: "run_tests", note: "added by a tool change" },
    ]);
    expect(toolChoices(example(), ["lookup"], ["fetch", "fetch", ""])).toEqual([
      { name: "lookup", note: null },
      { name: "fetch", note: "not in template" },
      { name: "", note: "not in template" },
    ]);
    expect(paramChoices(PARAMS, "team")).toEqual([
      { name: "objective", note: null },
      { name: "project_name", note: null },
      { name: "team", note: "not in template" },
    ]);
    expect(choiceLabel({ name: "fetch", note: "not in template" })).toBe("fetch (not in template)");
    expect(choiceLabel({ name: "", note: "not in template" })).toBe("(none) (not in template)");
    expect(choiceLabel({ name: "lookup", note: null })).toBe("lookup");
  });

  it("shows short JSON on one line and long JSON indented", () => {
    expect(jsonText({ id: 7 })).toBe('{"id":7}');
    expect(jsonText(null)).toBe("null");
    const long = { query: "a long enough query to pass sixty characters", page: 2 };
    expect(jsonText(long)).toBe('{\n  "query": "a long enough query to pass sixty characters",\n  "page": 2\n}');
  });
});
