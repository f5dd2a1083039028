// The scenario panel's edits: each builds the whole new scenario from the one shown (the backend
// takes a scenario whole) with its undo group, or null when nothing would change. Fields typed as
// JSON or numbers give back a problem instead while their text does not make a value, so the panel
// keeps the text and shows why. Every object is spread, never rebuilt, so `x-` keys survive, and
// empty optional collections are left out so saved files stay minimal.
import type { JsonValue, Scenario } from "../platform";
import { parseJson, sameJsonCountingUndefined } from "../shared/json";
import { TOOL_KINDS } from "../shared/template";
import { withFieldText, type ArgumentField } from "./argumentForm";

/** One step of the script. */
export type Step = NonNullable<Scenario["script"]>[number];
/** One tool call: a step of its own, or one of a parallel step's calls. */
export type ScriptedCall = Extract<Step, { call: string }>;
/** A step of parallel calls. */
type ParallelStep = Extract<Step, { calls: unknown }>;
/** The final answer. */
type SayStep = Extract<Step, { say: string }>;
/** A scripted tool result: `{result}` or `{error}`. */
export type ScriptedResult = NonNullable<Scenario["tool_results"]>[string][number];
/** A plugin's change to the tools before a model call. */
export type ToolChange = NonNullable<Scenario["tool_changes"]>[number];
type Limits = NonNullable<Scenario["limits"]>;
type Tool = ToolChange["add"][number];

export type StepKind = "call" | "calls" | "say";
export type ResultKind = "result" | "error";
export type LimitField = "max_model_calls" | "max_restarts";

/** A new scenario and its undo group (changes of one group in a row undo as one step). */
export interface ScenarioEdit {
  scenario: Scenario;
  group: string | null;
}

/** Why a field's text makes no value (its line and column for JSON). */
export interface TextProblem {
  problem: string;
}

/** What a typed text makes: an edit, a problem with the text, or nothing to change. */
export type TextEdit = ScenarioEdit | TextProblem | null;

export function isProblem(result: TextEdit): result is TextProblem {
  return result !== null && "problem" in result;
}

/** Where a call is: its step, and its place among a parallel step's calls (null: a call step). */
export interface CallPlace {
  step: number;
  call: number | null;
}

/** The undo groups of the fields typed into, one per field: keystrokes in one field undo together. */
export const undoGroup = {
  name: "name",
  user: "user",
  param: (name: string) => `params/${name}`,
  args: ({ step, call }: CallPlace) => (call === null ? `step/${step}/args` : `step/${step}/args/${call}`),
  /** One argument typed in a call's form: within the call's arguments (`args#name`). */
  argument: (place: CallPlace, name: string) => `${undoGroup.args(place)}#${name}`,
  say: (step: number) => `step/${step}/say`,
  result: (tool: string, index: number) => `tool_results/${tool}/${index}/result`,
  error: (tool: string, index: number) => `tool_results/${tool}/${index}/error`,
  changeAt: (index: number) => `tool_changes/${index}/at`,
  changeAdd: (index: number) => `tool_changes/${index}/add`,
  limit: (field: LimitField) => `limits/${field}`,
} as const;

/** The edit making `after` of `before`, or null when they are the same JSON. */
function edit(before: Scenario, after: Scenario, group: string | null): ScenarioEdit | null {
  return sameJsonCountingUndefined(before, after) ? null : { scenario: after, group };
}

/** `object` with `key` set in place, or left out when `value` is undefined. */
function withField<T extends object, K extends keyof T & string>(object: T, key: K, value: T[K] | undefined): T {
  if (value !== undefined) return { ...object, [key]: value };
  return Object.fromEntries(Object.entries(object).filter(([field]) => field !== key)) as T;
}

/** `items` with the one at `index` replaced. */
function replaced<T>(items: readonly T[], index: number, item: T): T[] {
  return items.map((current, i) => (i === index ? item : current));
}

/** `entries` as a record, or undefined when there are none (so the field is left out). */
function recordOrNone<V>(entries: [string, V][]): Record<string, V> | undefined {
  return entries.length === 0 ? undefined : Object.fromEntries(entries);
}

/** Whether `record` has its own entry `key` (not one inherited, like `constructor`). */
function has(record: Readonly<Record<string, unknown>> | undefined, key: string): boolean {
  return record !== undefined && Object.prototype.hasOwnProperty.call(record, key);
}

/** The JSON text a field shows for a value: one line when short, else indented by two spaces. */
export function jsonText(value: unknown): string {
  const line = JSON.stringify(value);
  return line.length <= 60 ? line : JSON.stringify(value, null, 2);
}

/**
 * The text a JSON field shows: empty for its `unset` value (no arguments, no result, no tools), so
 * the user types into an empty field rather than deleting `{}` first, and its placeholder shows.
 */
export function jsonFieldText(value: unknown, unset: JsonValue): string {
  return sameJsonCountingUndefined(value, unset) ? "" : jsonText(value);
}

/** A JSON field's text parsed; a blank one makes its `unset` value. */
function parseJsonField(text: string, unset: JsonValue): ReturnType<typeof parseJson> {
  return text.trim() === "" ? { ok: true, value: unset } : parseJson(text, "");
}

// --- Name and user message ---

export function setName(scenario: Scenario, name: string): ScenarioEdit | null {
  return edit(scenario, { ...scenario, name }, undoGroup.name);
}

export function setUser(scenario: Scenario, user: string): ScenarioEdit | null {
  return edit(scenario, withFirstTurn(scenario, { user }), undoGroup.user);
}

// --- Parameter overrides ---

function withParams(scenario: Scenario, entries: [string, string][]): Scenario {
  return withField(scenario, "params", recordOrNone(entries));
}

function paramEntries(scenario: Scenario): [string, string][] {
  return Object.entries(scenario.params ?? {});
}

/** Sets an override's value (grouped per parameter), adding the override when there is none. */
export function setParam(scenario: Scenario, name: string, value: string): ScenarioEdit | null {
  const entries = paramEntries(scenario);
  const next: [string, string][] = has(scenario.params, name)
    ? entries.map(([n, v]) => [n, n === name ? value : v])
    : [...entries, [name, value]];
  return edit(scenario, withParams(scenario, next), undoGroup.param(name));
}

/** The first of the template's parameters not overridden yet, or null. */
export function freeParam(scenario: Scenario, params: readonly string[]): string | null {
  return params.find((name) => !has(scenario.params, name)) ?? null;
}

/** Overrides the first parameter not overridden yet with an empty value; null when all are. */
export function addParam(scenario: Scenario, params: readonly string[]): ScenarioEdit | null {
  const name = freeParam(scenario, params);
  if (name === null) return null;
  return edit(scenario, withParams(scenario, [...paramEntries(scenario), [name, ""]]), null);
}

/** Moves an override to another parameter, in its place; null when that one is overridden already. */
export function renameParam(scenario: Scenario, from: string, to: string): ScenarioEdit | null {
  if (!has(scenario.params, from) || has(scenario.params, to)) return null;
  const entries = paramEntries(scenario).map(([name, value]): [string, string] => [name === from ? to : name, value]);
  return edit(scenario, withParams(scenario, entries), null);
}

export function removeParam(scenario: Scenario, name: string): ScenarioEdit | null {
  return edit(
    scenario,
    withParams(
      scenario,
      paramEntries(scenario).filter(([n]) => n !== name),
    ),
    null,
  );
}

// --- Steps ---

export function stepKind(step: Step): StepKind {
  if ("call" in step) return "call";
  return "calls" in step && step.calls !== undefined ? "calls" : "say";
}

function isParallel(step: Step | undefined): step is ParallelStep {
  return step !== undefined && stepKind(step) === "calls";
}

function isSay(step: Step | undefined): step is SayStep {
  return step !== undefined && stepKind(step) === "say";
}

/** A parallel step's calls; none for another step. */
export function callsOf(step: Step): ScriptedCall[] {
  return isParallel(step) ? step.calls : [];
}

/** A final answer's text; empty for another step. */
export function sayOf(step: Step): string {
  return isSay(step) ? step.say : "";
}

/** Whether the script ends with its final answer (new calls then go before it). */
export function endsWithSay(scenario: Scenario): boolean {
  const last = scriptOf(scenario).at(-1);
  return last !== undefined && stepKind(last) === "say";
}

/** A call of the first offered tool with no arguments; null when the template offers none. */
function newCall(tools: readonly string[]): ScriptedCall | null {
  const tool = tools[0];
  return tool === undefined ? null : { call: tool, args: {} };
}

/** A new step of `kind`; null when it needs a tool and none is offered. */
function newStep(kind: StepKind, tools: readonly string[]): Step | null {
  if (kind === "say") return { say: "" };
  const call = newCall(tools);
  if (call === null) return null;
  return kind === "call" ? call : { calls: [call] };
}

/**
 * The script the panel edits: the one-turn form's, or the first turn's of a scenario of several
 * (the later turns are kept as they are).
 */
export function scriptOf(scenario: Scenario): Step[] {
  return scenario.turns?.[0]?.script ?? scenario.script ?? [];
}

/** The user message the panel edits: the one-turn form's, or the first turn's. */
export function userOf(scenario: Scenario): string {
  return scenario.turns?.[0]?.user ?? scenario.user ?? "";
}

function withScript(scenario: Scenario, script: Step[]): Scenario {
  return withFirstTurn(scenario, { script });
}

/**
 * `scenario` with the turn the panel edits changed by `fields`: the one-turn form's `user` and
 * `script`, or the first of `turns` (the later turns are kept as they are).
 */
function withFirstTurn(scenario: Scenario, fields: { user: string } | { script: Step[] }): Scenario {
  const [first, ...later] = scenario.turns ?? [];
  if (first !== undefined) return { ...scenario, turns: [{ ...first, ...fields }, ...later] };
  return { ...scenario, ...fields };
}

/**
 * Adds a step of `kind`: a call before the final answer, an answer at the end (null when there is
 * one already); a new call picks the first offered tool.
 */
export function addStep(scenario: Scenario, kind: StepKind, tools: readonly string[]): ScenarioEdit | null {
  const step = newStep(kind, tools);
  const ends = endsWithSay(scenario);
  if (step === null || (kind === "say" && ends)) return null;
  const script = [...scriptOf(scenario)];
  script.splice(kind !== "say" && ends ? script.length - 1 : script.length, 0, step);
  return edit(scenario, withScript(scenario, script), null);
}

export function removeStep(scenario: Scenario, index: number): ScenarioEdit | null {
  if (index < 0 || index >= scriptOf(scenario).length) return null;
  return edit(
    scenario,
    withScript(
      scenario,
      scriptOf(scenario).filter((_, i) => i !== index),
    ),
    null,
  );
}

/** Whether the step at `index` can move by `offset` (never out of the script, never past the final answer). */
export function canMoveStep(scenario: Scenario, index: number, offset: -1 | 1): boolean {
  const target = index + offset;
  const length = scriptOf(scenario).length;
  if (index < 0 || index >= length || target < 0 || target >= length) return false;
  const last = length - 1;
  return !(endsWithSay(scenario) && (index === last || target === last));
}

export function moveStep(scenario: Scenario, index: number, offset: -1 | 1): ScenarioEdit | null {
  const moving = scriptOf(scenario)[index];
  const other = scriptOf(scenario)[index + offset];
  if (!canMoveStep(scenario, index, offset) || moving === undefined || other === undefined) return null;
  const script = replaced(replaced(scriptOf(scenario), index, other), index + offset, moving);
  return edit(scenario, withScript(scenario, script), null);
}

/** Whether the step at `index` may become `kind` (an answer only as the last step). */
export function canSetStepKind(scenario: Scenario, index: number, kind: StepKind): boolean {
  return kind !== "say" || index === scriptOf(scenario).length - 1;
}

/** The step `step` becomes as `kind`: a call keeps its tool and arguments as the parallel step's first. */
function convertedStep(step: Step, kind: StepKind, tools: readonly string[]): Step | null {
  if (kind === "say") return { say: "" };
  const first = "call" in step ? step : isParallel(step) ? (step.calls[0] ?? null) : null;
  const call = first ?? newCall(tools);
  if (call === null) return null;
  return kind === "call" ? call : { calls: [call] };
}

/** Changes a step's kind; null when it is that kind already or may not become it. */
export function setStepKind(
  scenario: Scenario,
  index: number,
  kind: StepKind,
  tools: readonly string[],
): ScenarioEdit | null {
  const step = scriptOf(scenario)[index];
  if (step === undefined || stepKind(step) === kind || !canSetStepKind(scenario, index, kind)) return null;
  const converted = convertedStep(step, kind, tools);
  if (converted === null) return null;
  return edit(scenario, withScript(scenario, replaced(scriptOf(scenario), index, converted)), null);
}

/** The call at `place`, if there is one. */
export function callAt(scenario: Scenario, { step, call }: CallPlace): ScriptedCall | null {
  const found = scriptOf(scenario)[step];
  if (found === undefined) return null;
  if (call === null) return "call" in found ? found : null;
  return isParallel(found) ? (found.calls[call] ?? null) : null;
}

/** The scenario with the call at `place` changed by `change`; null when there is no call there. */
function withCall(scenario: Scenario, place: CallPlace, change: (call: ScriptedCall) => ScriptedCall): Scenario | null {
  const current = callAt(scenario, place);
  const step = scriptOf(scenario)[place.step];
  if (current === null || step === undefined) return null;
  const changed = change(current);
  const next: Step = isParallel(step) ? { ...step, calls: replaced(step.calls, place.call ?? 0, changed) } : changed;
  return withScript(scenario, replaced(scriptOf(scenario), place.step, next));
}

export function setCallTool(scenario: Scenario, place: CallPlace, tool: string): ScenarioEdit | null {
  const changed = withCall(scenario, place, (call) => ({ ...call, call: tool }));
  return changed === null ? null : edit(scenario, changed, null);
}

/** JSON text as an object, or what is wrong with it. */
function parseObject(text: string, what: string): { value: Record<string, JsonValue> } | TextProblem {
  const parsed = parseJsonField(text, {});
  if (!parsed.ok) return { problem: parsed.problem.message };
  const { value } = parsed;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { problem: `${what} must be a JSON object` };
  }
  return { value };
}

/** Sets a call's arguments from JSON text, which must make an object (blank: none). */
export function setCallArgs(scenario: Scenario, place: CallPlace, text: string): TextEdit {
  const parsed = parseObject(text, "the arguments");
  if ("problem" in parsed) return parsed;
  const changed = withCall(scenario, place, (call) => ({ ...call, args: parsed.value }));
  return changed === null ? null : edit(scenario, changed, undoGroup.args(place));
}

/** Sets one argument of a call from the text of its form field (`withFieldText` says how). */
export function setCallArgument(scenario: Scenario, place: CallPlace, field: ArgumentField, text: string): TextEdit {
  const current = callAt(scenario, place);
  if (current === null) return null;
  const made = withFieldText(current.args, field, text);
  if ("problem" in made) return made;
  const changed = withCall(scenario, place, (call) => ({ ...call, args: made.args }));
  return changed === null ? null : edit(scenario, changed, undoGroup.argument(place, field.name));
}

/** Adds a call of the first offered tool to a parallel step. */
export function addParallelCall(scenario: Scenario, index: number, tools: readonly string[]): ScenarioEdit | null {
  const step = scriptOf(scenario)[index];
  const call = newCall(tools);
  if (!isParallel(step) || call === null) return null;
  const script = replaced(scriptOf(scenario), index, { ...step, calls: [...step.calls, call] });
  return edit(scenario, withScript(scenario, script), null);
}

/** Removes a call from a parallel step; null for its only call (a parallel step has one at least). */
export function removeParallelCall(scenario: Scenario, index: number, call: number): ScenarioEdit | null {
  const step = scriptOf(scenario)[index];
  if (!isParallel(step) || step.calls.length <= 1 || step.calls[call] === undefined) return null;
  const script = replaced(scriptOf(scenario), index, {
    ...step,
    calls: step.calls.filter((_: unknown, i: number) => i !== call),
  });
  return edit(scenario, withScript(scenario, script), null);
}

export function setSay(scenario: Scenario, index: number, say: string): ScenarioEdit | null {
  const step = scriptOf(scenario)[index];
  if (!isSay(step)) return null;
  return edit(
    scenario,
    withScript(scenario, replaced(scriptOf(scenario), index, { ...step, say })),
    undoGroup.say(index),
  );
}

// --- Tool results ---

function resultEntries(scenario: Scenario): [string, ScriptedResult[]][] {
  return Object.entries(scenario.tool_results ?? {});
}

function withResults(scenario: Scenario, entries: [string, ScriptedResult[]][]): Scenario {
  return withField(scenario, "tool_results", recordOrNone(entries));
}

/** The scenario with one tool's results changed by `change` (none left drops the tool's entry). */
function withToolResults(
  scenario: Scenario,
  tool: string,
  change: (results: ScriptedResult[]) => ScriptedResult[],
): Scenario | null {
  if (!has(scenario.tool_results, tool)) return null;
  const entries = resultEntries(scenario).map(([name, results]): [string, ScriptedResult[]] => [
    name,
    name === tool ? change(results) : results,
  ]);
  return withResults(
    scenario,
    entries.filter(([name, results]) => name !== tool || results.length > 0),
  );
}

const NEW_RESULT: ScriptedResult = { result: null };

/** Starts results for the first tool in `tools` that has none; null when every one has some. */
export function addToolResults(scenario: Scenario, tools: readonly string[]): ScenarioEdit | null {
  const tool = tools.find((name) => !has(scenario.tool_results, name));
  if (tool === undefined) return null;
  return edit(scenario, withResults(scenario, [...resultEntries(scenario), [tool, [NEW_RESULT]]]), null);
}

/** Moves a tool's results to another tool, in their place; null when that one has results. */
export function setToolResultsTool(scenario: Scenario, from: string, to: string): ScenarioEdit | null {
  if (!has(scenario.tool_results, from) || has(scenario.tool_results, to)) return null;
  const entries = resultEntries(scenario).map(([name, results]): [string, ScriptedResult[]] => [
    name === from ? to : name,
    results,
  ]);
  return edit(scenario, withResults(scenario, entries), null);
}

export function removeToolResults(scenario: Scenario, tool: string): ScenarioEdit | null {
  return edit(
    scenario,
    withResults(
      scenario,
      resultEntries(scenario).filter(([name]) => name !== tool),
    ),
    null,
  );
}

export function addToolResult(scenario: Scenario, tool: string): ScenarioEdit | null {
  const changed = withToolResults(scenario, tool, (results) => [...results, NEW_RESULT]);
  return changed === null ? null : edit(scenario, changed, null);
}

/** Removes one result; the tool's last one removes its entry. */
export function removeToolResult(scenario: Scenario, tool: string, index: number): ScenarioEdit | null {
  const changed = withToolResults(scenario, tool, (results) => results.filter((_, i) => i !== index));
  return changed === null ? null : edit(scenario, changed, null);
}

export function resultKind(result: ScriptedResult): ResultKind {
  return "error" in result && result.error !== undefined ? "error" : "result";
}

/** Switches a result between a value (null) and an error (empty). */
export function setToolResultKind(
  scenario: Scenario,
  tool: string,
  index: number,
  kind: ResultKind,
): ScenarioEdit | null {
  const fresh: ScriptedResult = kind === "error" ? { error: "" } : NEW_RESULT;
  const changed = withToolResults(scenario, tool, (results) =>
    results.map((result, i) => (i === index && resultKind(result) !== kind ? fresh : result)),
  );
  return changed === null ? null : edit(scenario, changed, null);
}

/** Sets a result's value from JSON text (any JSON; blank: null). */
export function setToolResultJson(scenario: Scenario, tool: string, index: number, text: string): TextEdit {
  const parsed = parseJsonField(text, null);
  if (!parsed.ok) return { problem: parsed.problem.message };
  const changed = withToolResults(scenario, tool, (results) => replaced(results, index, { result: parsed.value }));
  return changed === null ? null : edit(scenario, changed, undoGroup.result(tool, index));
}

export function setToolResultError(
  scenario: Scenario,
  tool: string,
  index: number,
  error: string,
): ScenarioEdit | null {
  const changed = withToolResults(scenario, tool, (results) => replaced(results, index, { error }));
  return changed === null ? null : edit(scenario, changed, undoGroup.error(tool, index));
}

// --- Tool changes ---

function withChanges(scenario: Scenario, changes: ToolChange[]): Scenario {
  return withField(scenario, "tool_changes", changes.length === 0 ? undefined : changes);
}

function changesOf(scenario: Scenario): ToolChange[] {
  return scenario.tool_changes ?? [];
}

/** The scenario with the change at `index` changed; null when there is none there. */
function withChange(scenario: Scenario, index: number, change: (current: ToolChange) => ToolChange): Scenario | null {
  const changes = changesOf(scenario);
  const current = changes[index];
  return current === undefined ? null : withChanges(scenario, replaced(changes, index, change(current)));
}

/** Adds an empty change after the last one's model call (two changes at one call are refused). */
export function addToolChange(scenario: Scenario): ScenarioEdit {
  const changes = changesOf(scenario);
  const at = Math.max(0, ...changes.map((change) => change.at_model_call ?? 0)) + 1;
  return { scenario: withChanges(scenario, [...changes, { at_model_call: at, add: [], remove: [] }]), group: null };
}

/** A whole number from `min` as typed, or why it is not one. */
function parseCount(text: string, min: number): { value: number } | TextProblem {
  const trimmed = text.trim();
  const value = Number(trimmed);
  if (!/^\d+$/.test(trimmed) || value < min || value > 0xffffffff) {
    return { problem: `expected a whole number from ${min}` };
  }
  return { value };
}

export function setToolChangeAt(scenario: Scenario, index: number, text: string): TextEdit {
  const parsed = parseCount(text, 1);
  if ("problem" in parsed) return parsed;
  const changed = withChange(scenario, index, (change) => ({ ...change, at_model_call: parsed.value }));
  return changed === null ? null : edit(scenario, changed, undoGroup.changeAt(index));
}

/** Sets whether a change removes the tool `name` (a newly removed one goes last). */
export function setToolChangeRemoves(
  scenario: Scenario,
  index: number,
  name: string,
  removes: boolean,
): ScenarioEdit | null {
  const changed = withChange(scenario, index, (change) => {
    const others = change.remove.filter((removed) => removed !== name);
    return { ...change, remove: removes ? [...others, name] : others };
  });
  return changed === null ? null : edit(scenario, changed, null);
}

/** What keeps `value` from being read as a tool (the backend checks the rest), or null. */
function toolShapeProblem(value: JsonValue): string | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "is not a JSON object";
  const text = (field: string) => typeof value[field] === "string";
  if (!text("name")) return 'needs a "name" text';
  if (!text("description")) return 'needs a "description" text';
  if (!("parameters" in value)) return 'needs "parameters" (a JSON Schema)';
  if ("brief" in value && !text("brief")) return '"brief" must be a text';
  if ("kind" in value && !(TOOL_KINDS as readonly unknown[]).includes(value.kind)) {
    return `"kind" must be one of ${TOOL_KINDS.join(", ")}`;
  }
  if ("requires_permission" in value && typeof value.requires_permission !== "boolean") {
    return '"requires_permission" must be true or false';
  }
  const { categories } = value;
  if (categories !== undefined && !(Array.isArray(categories) && categories.every((c) => typeof c === "string"))) {
    return '"categories" must be a list of texts';
  }
  return null;
}

/** JSON text as a tool list, or what is wrong with it. */
function parseTools(text: string): { value: Tool[] } | TextProblem {
  const parsed = parseJsonField(text, []);
  if (!parsed.ok) return { problem: parsed.problem.message };
  const { value } = parsed;
  if (!Array.isArray(value)) return { problem: "the added tools must be a JSON array of tools" };
  for (const [i, tool] of value.entries()) {
    const problem = toolShapeProblem(tool);
    if (problem !== null) return { problem: `tool ${i + 1} ${problem}` };
  }
  // Each item has a tool's shape (checked above); the backend checks the rest as it does a template's.
  return { value: value as unknown as Tool[] };
}

/** Sets the tools a change adds from JSON text of a tool array (blank: none). */
export function setToolChangeAdd(scenario: Scenario, index: number, text: string): TextEdit {
  const parsed = parseTools(text);
  if ("problem" in parsed) return parsed;
  const changed = withChange(scenario, index, (change) => ({ ...change, add: parsed.value }));
  return changed === null ? null : edit(scenario, changed, undoGroup.changeAdd(index));
}

export function removeToolChange(scenario: Scenario, index: number): ScenarioEdit | null {
  return edit(
    scenario,
    withChanges(
      scenario,
      changesOf(scenario).filter((_, i) => i !== index),
    ),
    null,
  );
}

/** The tools the script may name beyond the template's: those the tool changes add. */
export function addedTools(scenario: Scenario): string[] {
  return [...new Set(changesOf(scenario).flatMap((change) => change.add.map((tool) => tool.name)))];
}

// --- Limits ---

/** The smallest value of each limit: a run makes one model call at least; it may never restart. */
const LIMIT_MIN: Readonly<Record<LimitField, number>> = { max_model_calls: 1, max_restarts: 0 };

/** Sets a limit from its typed text; empty clears it, and clearing both leaves out `limits`. */
export function setLimit(scenario: Scenario, field: LimitField, text: string): TextEdit {
  let value: number | undefined;
  if (text.trim() !== "") {
    const parsed = parseCount(text, LIMIT_MIN[field]);
    if ("problem" in parsed) return parsed;
    value = parsed.value;
  }
  const limits = withField<Limits, LimitField>(scenario.limits ?? {}, field, value);
  const kept = Object.keys(limits).length === 0 ? undefined : limits;
  return edit(scenario, withField(scenario, "limits", kept), undoGroup.limit(field));
}

// --- Choices ---

/** A name a picker offers, with why it is there when the template does not offer it. */
export interface Choice {
  name: string;
  note: string | null;
}

/**
 * The tools a picker offers: the template's, those a tool change adds, and the names in `current`
 * (kept selectable, marked) that are neither.
 */
export function toolChoices(scenario: Scenario, tools: readonly string[], current: readonly string[]): Choice[] {
  const choices: Choice[] = tools.map((name) => ({ name, note: null }));
  for (const name of addedTools(scenario)) {
    if (!tools.includes(name)) choices.push({ name, note: "added by a tool change" });
  }
  return withCurrent(choices, current);
}

/** The parameters a picker offers: the template's, and `current` (kept selectable, marked) when not. */
export function paramChoices(params: readonly string[], current: string): Choice[] {
  return withCurrent(
    params.map((name) => ({ name, note: null })),
    [current],
  );
}

function withCurrent(choices: Choice[], current: readonly string[]): Choice[] {
  const missing = current.filter((name, i) => current.indexOf(name) === i && !choices.some((c) => c.name === name));
  return [...choices, ...missing.map((name) => ({ name, note: "not in template" }))];
}

/** A choice as a picker shows it: its name, and its note in brackets. */
export function choiceLabel({ name, note }: Choice): string {
  const shown = name === "" ? "(none)" : name;
  return note === null ? shown : `${shown} (${note})`;
}
