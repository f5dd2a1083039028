// The scenario panel of the compare view: the open scenario's file and problems, and every field of
// it (name, its user turns one at a time with each its user message and script, parameter
// overrides, tool results, tool changes, limits), with a flag on each call that a scripted run would have nothing to answer and its fix. It
// only renders and calls back with the whole new scenario and its undo group (built in
// scenarioEdits.ts); the form's plumbing is ScenarioForm.tsx, a call's arguments CallArguments.tsx.
// Text fields keep what was typed, so a JSON text that does not parse stays in place with its problem
// under it and sends nothing; a new `revision` (undo, redo) remounts them from the view. An empty
// field means "not set", its placeholder saying what then applies.
import { ArrowDown, ArrowUp } from "lucide-react";
import { useState, type ReactNode } from "react";
import type { Scenario, ScenarioView } from "../platform";
import {
  addParallelCall,
  addParam,
  addStep,
  addToolChange,
  addToolResult,
  addToolResults,
  callAt,
  callsOf,
  canMoveStep,
  canSetStepKind,
  choiceLabel,
  endsWithSay,
  freeParam,
  jsonFieldText,
  moveStep,
  paramChoices,
  removeParallelCall,
  removeParam,
  removeStep,
  removeToolChange,
  removeToolResult,
  removeToolResults,
  renameParam,
  resultKind,
  sayOf,
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
  scriptOf,
  setUser,
  stepKind,
  toolChoices,
  undoGroup,
  userOf,
  type CallPlace,
  type Choice,
  type LimitField,
  type ResultKind,
  type ScriptedResult,
  type StepKind,
  type ToolChange,
} from "./scenarioEdits";
import { CallArguments } from "./CallArguments";
import { TurnTabs } from "./TurnTabs";
import { turnCount, turnGroup, turnView, withTurnView } from "./turns";
import { calledTool, lacksMock, type OfferedTool } from "./offered";
import { TextField, useScenarioForm, type Form } from "./ScenarioForm";
import type { ProblemGroup } from "../shared/problemGroups";
import { ProblemsPanel } from "../shared/ProblemsPanel";
import "./scenario.css";

export interface ScenarioPanelProps {
  view: ScenarioView;
  /** The tools the template offers, builtins included, with their schemas and what answers them. */
  tools: readonly OfferedTool[];
  /** The template's parameter names. */
  params: string[];
  /** Bumped on undo and redo: the fields start again from the view. */
  revision: number;
  /** Every problem of the open work, the scenario's among them. */
  problems: readonly ProblemGroup[];
  onChange: (scenario: Scenario, group: string | null) => void;
}

export function ScenarioPanel({ view, tools, params, revision, problems, onChange }: ScenarioPanelProps) {
  const [chosen, setTurn] = useState(0);
  const turn = Math.min(chosen, turnCount(view.scenario) - 1);
  return (
    <section className="scenario-panel" data-testid="scenario-panel" aria-label="Scenario">
      <header className="scenario-header">
        <h2>Scenario</h2>
        <span className="path" data-testid="scenario-path">
          {view.path ?? "Untitled scenario"}
        </span>
        {view.dirty && (
          <span className="dirty" data-testid="scenario-dirty" title="Changed since it was saved">
            modified
          </span>
        )}
      </header>
      <ProblemsPanel groups={problems} />
      <ScenarioFields
        key={`${String(view.id)}/${String(revision)}/${String(turn)}`}
        scenario={turnView(view.scenario, turn)}
        tools={tools}
        params={params}
        onChange={(edited, group) => {
          onChange(withTurnView(view.scenario, turn, edited), turnGroup(turn, group));
        }}
        turns={<TurnTabs scenario={view.scenario} turn={turn} onTurn={setTurn} onChange={onChange} />}
      />
    </section>
  );
}

function ScenarioFields({
  scenario,
  tools,
  params,
  onChange,
  turns,
}: Omit<ScenarioPanelProps, "view" | "revision" | "problems"> & { scenario: Scenario; turns: ReactNode }) {
  const form = useScenarioForm(scenario, tools, onChange);
  return (
    <form
      className="scenario-form"
      onSubmit={(event) => {
        event.preventDefault();
      }}
    >
      <TextField
        form={form}
        slot={undoGroup.name}
        shown={scenario.name}
        label="Name"
        testId="scenario-name"
        onText={(text) => (base) => setName(base, text)}
      />
      {turns}
      <TextField
        form={form}
        slot={undoGroup.user}
        shown={userOf(scenario)}
        label="User message"
        testId="scenario-user"
        multiline
        onText={(text) => (base) => setUser(base, text)}
      />
      <ParamOverrides form={form} params={params} />
      <Script form={form} />
      <ToolResults form={form} />
      <ToolChanges form={form} />
      <Limits form={form} />
    </form>
  );
}

/** A select of names; a name a choice is `taken` for (used elsewhere) cannot be picked. */
function NamePicker({
  choices,
  value,
  label,
  testId,
  taken = () => false,
  onPick,
}: {
  choices: Choice[];
  value: string;
  label: string;
  testId: string;
  taken?: (name: string) => boolean;
  onPick: (name: string) => void;
}) {
  return (
    <select
      aria-label={label}
      data-testid={testId}
      value={value}
      onChange={(event) => {
        onPick(event.target.value);
      }}
    >
      {choices.map((choice) => (
        <option key={choice.name} value={choice.name} disabled={choice.name !== value && taken(choice.name)}>
          {choiceLabel(choice)}
        </option>
      ))}
    </select>
  );
}

function ParamOverrides({ form, params }: { form: Form; params: string[] }) {
  const overrides = Object.entries(form.scenario.params ?? {});
  const overridden = (name: string) => overrides.some(([other]) => other === name);
  return (
    <fieldset className="scenario-group">
      <legend>Parameter overrides</legend>
      {overrides.length === 0 && <p className="notice">None: the template&apos;s defaults apply</p>}
      <ul className="scenario-rows">
        {overrides.map(([name, value]) => (
          <li key={name} className="scenario-row" data-testid="scenario-param">
            <NamePicker
              choices={paramChoices(params, name)}
              value={name}
              label="Parameter"
              testId="scenario-param-name"
              taken={overridden}
              onPick={(to) => {
                form.send((base) => renameParam(base, name, to), "params/");
              }}
            />
            <TextField
              form={form}
              slot={undoGroup.param(name)}
              shown={value}
              label={`Value of ${name}`}
              testId="scenario-param-value"
              hideLabel
              onText={(text) => (base) => setParam(base, name, text)}
            />
            <button
              type="button"
              data-testid="scenario-param-remove"
              aria-label={`Remove override of ${name}`}
              onClick={() => {
                form.send((base) => removeParam(base, name), "params/");
              }}
            >
              Remove
            </button>
          </li>
        ))}
      </ul>
      <button
        type="button"
        data-testid="scenario-add-param"
        disabled={freeParam(form.scenario, params) === null}
        onClick={() => {
          form.send((base) => addParam(base, params), "params/");
        }}
      >
        Add override
      </button>
    </fieldset>
  );
}

const STEP_KINDS: readonly { kind: StepKind; label: string }[] = [
  { kind: "call", label: "call" },
  { kind: "calls", label: "parallel calls" },
  { kind: "say", label: "say" },
];

function Script({ form }: { form: Form }) {
  const { scenario, tools } = form;
  const add = (kind: StepKind) => () => {
    form.send((base) => addStep(base, kind, tools), "step/");
  };
  return (
    <fieldset className="scenario-group">
      <legend>Script</legend>
      <ol className="scenario-steps">
        {scriptOf(scenario).map((_, index) => (
          // Steps have no identity of their own: a step's typed texts are dropped when steps move.
          <StepItem key={index} form={form} index={index} />
        ))}
      </ol>
      <div className="scenario-actions">
        <button type="button" data-testid="add-call-step" disabled={tools.length === 0} onClick={add("call")}>
          Add call
        </button>
        <button type="button" data-testid="add-calls-step" disabled={tools.length === 0} onClick={add("calls")}>
          Add parallel calls
        </button>
        <button type="button" data-testid="add-say-step" disabled={endsWithSay(scenario)} onClick={add("say")}>
          Add final answer
        </button>
      </div>
    </fieldset>
  );
}

function StepItem({ form, index }: { form: Form; index: number }) {
  const { scenario, tools } = form;
  const step = scriptOf(scenario)[index];
  if (step === undefined) return null;
  const kind = stepKind(step);
  const number = index + 1;
  const move = (offset: -1 | 1) => () => {
    form.send((base) => moveStep(base, index, offset), "step/");
  };
  return (
    <li className="scenario-step" data-testid="scenario-step" data-index={index}>
      <div className="scenario-row">
        <span className="step-number">{number}</span>
        <select
          aria-label={`Kind of step ${String(number)}`}
          data-testid="step-kind"
          value={kind}
          onChange={(event) => {
            const picked = STEP_KINDS.find((choice) => choice.kind === event.target.value)?.kind ?? kind;
            form.send((base) => setStepKind(base, index, picked, tools), `step/${String(index)}/`);
          }}
        >
          {STEP_KINDS.map((choice) => (
            <option key={choice.kind} value={choice.kind} disabled={!canSetStepKind(scenario, index, choice.kind)}>
              {choice.label}
            </option>
          ))}
        </select>
        <span className="spacer" />
        <button
          type="button"
          data-testid="step-up"
          aria-label={`Move step ${String(number)} up`}
          title={`Move step ${String(number)} up`}
          disabled={!canMoveStep(scenario, index, -1)}
          onClick={move(-1)}
        >
          <ArrowUp aria-hidden="true" />
        </button>
        <button
          type="button"
          data-testid="step-down"
          aria-label={`Move step ${String(number)} down`}
          title={`Move step ${String(number)} down`}
          disabled={!canMoveStep(scenario, index, 1)}
          onClick={move(1)}
        >
          <ArrowDown aria-hidden="true" />
        </button>
        <button
          type="button"
          data-testid="step-remove"
          aria-label={`Remove step ${String(number)}`}
          onClick={() => {
            form.send((base) => removeStep(base, index), "step/");
          }}
        >
          Remove
        </button>
      </div>
      {kind === "call" && <CallFields form={form} place={{ step: index, call: null }} />}
      {kind === "calls" && <ParallelCalls form={form} index={index} />}
      {kind === "say" && (
        <TextField
          form={form}
          slot={undoGroup.say(index)}
          shown={sayOf(step)}
          label={`Final answer (step ${String(number)})`}
          testId="step-say"
          multiline
          onText={(text) => (base) => setSay(base, index, text)}
        />
      )}
    </li>
  );
}

function ParallelCalls({ form, index }: { form: Form; index: number }) {
  const step = scriptOf(form.scenario)[index];
  const calls = step === undefined ? [] : callsOf(step);
  return (
    <>
      <ol className="scenario-calls">
        {calls.map((_, call) => (
          <li key={call}>
            <CallFields form={form} place={{ step: index, call }} />
            <button
              type="button"
              data-testid="step-remove-call"
              aria-label={`Remove call ${String(call + 1)} of step ${String(index + 1)}`}
              disabled={calls.length <= 1}
              onClick={() => {
                form.send((base) => removeParallelCall(base, index, call), `step/${String(index)}/`);
              }}
            >
              Remove call
            </button>
          </li>
        ))}
      </ol>
      <button
        type="button"
        data-testid="step-add-call"
        disabled={form.tools.length === 0}
        onClick={() => {
          form.send((base) => addParallelCall(base, index, form.tools));
        }}
      >
        Add call
      </button>
    </>
  );
}

function CallFields({ form, place }: { form: Form; place: CallPlace }) {
  const call = callAt(form.scenario, place);
  if (call === null) return null;
  const step = `step ${String(place.step + 1)}`;
  const where = place.call === null ? step : `${step}, call ${String(place.call + 1)}`;
  const tool = calledTool(form.scenario, form.offered, call.call);
  return (
    <div className="scenario-call">
      <NamePicker
        choices={toolChoices(form.scenario, form.tools, [call.call])}
        value={call.call}
        label={`Tool of ${where}`}
        testId="step-tool"
        onPick={(picked) => {
          form.send((base) => setCallTool(base, place, picked), undoGroup.args(place));
        }}
      />
      <CallArguments key={call.call} form={form} place={place} call={call} tool={tool} where={where} />
      {tool !== null && lacksMock(form.scenario, tool) && <NoMock form={form} tool={tool} />}
    </div>
  );
}

/**
 * The flag of a called tool a scripted run has nothing to answer with (its call would fail), and the
 * fix: results for it in the scenario, whose first value takes the focus.
 */
function NoMock({ form, tool }: { form: Form; tool: OfferedTool }) {
  return (
    <p className="scenario-no-mock" data-testid="step-no-mock" data-tool={tool.name}>
      <span>
        No mock for <code>{tool.name}</code>
        {tool.answerer === "source" && ": only its source answers, when the run may start it"}
      </span>
      <button
        type="button"
        data-testid="step-add-mock"
        onClick={() => {
          form.send((base) => addToolResults(base, [tool.name]), "tool_results/");
          form.focus(undoGroup.result(tool.name, 0));
        }}
      >
        Add a mock
      </button>
    </p>
  );
}

function ToolResults({ form }: { form: Form }) {
  const { scenario, tools } = form;
  const entries = Object.entries(scenario.tool_results ?? {});
  const names = toolChoices(scenario, tools, []).map((choice) => choice.name);
  const hasResults = (name: string) => entries.some(([tool]) => tool === name);
  return (
    <fieldset className="scenario-group" data-testid="tool-results">
      <legend>Tool results</legend>
      {entries.length === 0 && <p className="notice">None: tools answer with their mock results</p>}
      {entries.map(([tool, results]) => (
        <div key={tool} className="scenario-tool-results" data-testid="tool-result-list" data-tool={tool}>
          <div className="scenario-row">
            <NamePicker
              choices={toolChoices(scenario, tools, [tool])}
              value={tool}
              label="Tool answered"
              testId="tool-result-tool"
              taken={hasResults}
              onPick={(to) => {
                form.send((base) => setToolResultsTool(base, tool, to), "tool_results/");
              }}
            />
            <span className="spacer" />
            <button
              type="button"
              data-testid="tool-results-remove"
              aria-label={`Remove the results of ${tool}`}
              onClick={() => {
                form.send((base) => removeToolResults(base, tool), "tool_results/");
              }}
            >
              Remove
            </button>
          </div>
          <ol className="scenario-rows">
            {results.map((result, index) => (
              <ResultRow key={index} form={form} tool={tool} index={index} result={result} />
            ))}
          </ol>
          <button
            type="button"
            data-testid="add-tool-result"
            onClick={() => {
              form.send((base) => addToolResult(base, tool));
            }}
          >
            Add result
          </button>
        </div>
      ))}
      <button
        type="button"
        data-testid="add-tool-results"
        disabled={names.every(hasResults)}
        onClick={() => {
          form.send((base) => addToolResults(base, names), "tool_results/");
        }}
      >
        Add results for a tool
      </button>
    </fieldset>
  );
}

function ResultRow({ form, tool, index, result }: { form: Form; tool: string; index: number; result: ScriptedResult }) {
  const kind = resultKind(result);
  const where = `result ${String(index + 1)} of ${tool}`;
  return (
    <li className="scenario-row" data-testid="tool-result">
      <select
        aria-label={`Kind of ${where}`}
        data-testid="tool-result-kind"
        value={kind}
        onChange={(event) => {
          const picked: ResultKind = event.target.value === "error" ? "error" : "result";
          form.send((base) => setToolResultKind(base, tool, index, picked), `tool_results/${tool}/${String(index)}/`);
        }}
      >
        <option value="result">result</option>
        <option value="error">error</option>
      </select>
      {kind === "result" ? (
        <TextField
          form={form}
          slot={undoGroup.result(tool, index)}
          shown={jsonFieldText(result.result ?? null, null)}
          label={`Value of ${where} (JSON)`}
          testId="tool-result-json"
          multiline
          hideLabel
          placeholder='JSON, e.g. "3 hits" (empty: null)'
          onText={(text) => (base) => setToolResultJson(base, tool, index, text)}
        />
      ) : (
        <TextField
          form={form}
          slot={undoGroup.error(tool, index)}
          shown={result.error ?? ""}
          label={`Error of ${where}`}
          testId="tool-result-error"
          hideLabel
          placeholder="The error message"
          onText={(text) => (base) => setToolResultError(base, tool, index, text)}
        />
      )}
      <button
        type="button"
        data-testid="tool-result-remove"
        aria-label={`Remove ${where}`}
        onClick={() => {
          form.send((base) => removeToolResult(base, tool, index), "tool_results/");
        }}
      >
        Remove
      </button>
    </li>
  );
}

function ToolChanges({ form }: { form: Form }) {
  const changes = form.scenario.tool_changes ?? [];
  return (
    <fieldset className="scenario-group">
      <legend>Tool changes</legend>
      {changes.length === 0 && <p className="notice">None: the tools stay as the template offers them</p>}
      <ol className="scenario-rows">
        {changes.map((change, index) => (
          <ToolChangeItem key={index} form={form} index={index} change={change} />
        ))}
      </ol>
      <button
        type="button"
        data-testid="add-tool-change"
        onClick={() => {
          form.send(addToolChange, "tool_changes/");
        }}
      >
        Add tool change
      </button>
    </fieldset>
  );
}

function ToolChangeItem({ form, index, change }: { form: Form; index: number; change: ToolChange }) {
  const number = String(index + 1);
  return (
    <li className="scenario-tool-change" data-testid="tool-change">
      <div className="scenario-row">
        <TextField
          form={form}
          slot={undoGroup.changeAt(index)}
          shown={String(change.at_model_call)}
          label={`Change ${number} applies from model call`}
          testId="tool-change-at"
          number={{ min: 1 }}
          onText={(text) => (base) => setToolChangeAt(base, index, text)}
        />
        <span className="spacer" />
        <button
          type="button"
          data-testid="tool-change-delete"
          aria-label={`Remove change ${number}`}
          onClick={() => {
            form.send((base) => removeToolChange(base, index), "tool_changes/");
          }}
        >
          Remove
        </button>
      </div>
      <fieldset className="scenario-removes" data-testid="tool-change-remove">
        <legend>Removes</legend>
        {toolChoices(form.scenario, form.tools, change.remove).map((choice) => (
          <label key={choice.name}>
            <input
              type="checkbox"
              checked={change.remove.includes(choice.name)}
              onChange={(event) => {
                const removes = event.target.checked;
                form.send((base) => setToolChangeRemoves(base, index, choice.name, removes));
              }}
            />
            {choiceLabel(choice)}
          </label>
        ))}
      </fieldset>
      <TextField
        form={form}
        slot={undoGroup.changeAdd(index)}
        shown={jsonFieldText(change.add, [])}
        label="Adds (JSON array of tools)"
        testId="tool-change-add"
        multiline
        placeholder='[{"name": "…", "description": "…", "parameters": {"type": "object"}}] (empty: none)'
        onText={(text) => (base) => setToolChangeAdd(base, index, text)}
      />
    </li>
  );
}

const LIMITS: readonly { field: LimitField; label: string; testId: string; min: number; default: number }[] = [
  { field: "max_model_calls", label: "Max model calls", testId: "limit-max-model-calls", min: 1, default: 32 },
  { field: "max_restarts", label: "Max restarts", testId: "limit-max-restarts", min: 0, default: 8 },
];

function Limits({ form }: { form: Form }) {
  return (
    <fieldset className="scenario-group scenario-limits">
      <legend>Limits</legend>
      {LIMITS.map(({ field, label, testId, min, default: fallback }) => (
        <TextField
          key={field}
          form={form}
          slot={undoGroup.limit(field)}
          shown={String(form.scenario.limits?.[field] ?? "")}
          label={label}
          testId={testId}
          number={{ min }}
          placeholder={`default ${fallback.toLocaleString("en-US")}`}
          onText={(text) => (base) => setLimit(base, field, text)}
        />
      ))}
    </fieldset>
  );
}
