// The question before a fork (spec 15): which lanes go on from the picked event, and what changes
// there (another result for a tool call at or after it, sections read at it). The Compare page
// asks it of its comparison's lanes, the History page of a kept run.
//
// data-testids: fork-dialog, fork-lane (data-lane: a lane's checkbox), fork-call (the tool call
// whose result changes), fork-result (its JSON), fork-result-problem, fork-expand (data-section),
// fork-failure, fork-run, fork-cancel.
import { useId, useState } from "react";
import type { ChangedResult, ForkModel, JsonValue, Lane, RunEvent } from "../platform";
import { ModalDialog } from "../shared/ModalDialog";
import { laneName } from "../shared/words";
import type { BriefFailure } from "../shared/failure";

/** What a fork is asked to do. */
export interface ForkChoice {
  lanes: Lane[];
  results: ChangedResult[];
  expand: string[];
}

/** A tool call the fork may answer otherwise: one at or after the event that is not a disclosure tool's. */
export interface ChangeableCall {
  callId: string;
  name: string;
  result: JsonValue;
}

const DISCLOSURE_TOOLS = new Set(["read_section", "open_sections", "pick_tools"]);

/** The calls of `events` at or after event `seq` whose result a fork can change, each once. */
export function changeableCalls(events: readonly RunEvent[], seq: number): ChangeableCall[] {
  const calls: ChangeableCall[] = [];
  for (const event of events) {
    if (event.type !== "tool_call" || event.seq < seq || DISCLOSURE_TOOLS.has(event.name)) continue;
    if (calls.some((call) => call.callId === event.call_id)) continue;
    calls.push({ callId: event.call_id, name: event.name, result: event.result });
  }
  return calls;
}

/** The JSON `text` holds, or what is wrong with it. */
export function resultOf(text: string): { ok: true; value: JsonValue } | { ok: false; problem: string } {
  try {
    return { ok: true, value: JSON.parse(text) as JsonValue };
  } catch (error) {
    return { ok: false, problem: error instanceof Error ? error.message : String(error) };
  }
}

/** Which model answers after the event, in words. */
function forkModelText(model: ForkModel): string {
  return "live" in model && model.live !== undefined
    ? `After it, each lane's calls go to the live model of profile ${model.live.profile}, and are paid.`
    : "After it, the scenario's script answers.";
}

export function ForkDialog({
  lane,
  seq,
  events,
  lanes,
  sections,
  model,
  busy,
  failure,
  onRun,
  onCancel,
}: {
  /** The lane whose run is forked. */
  lane: Lane;
  /** The event it is forked at. */
  seq: number;
  /** That run's events. */
  events: readonly RunEvent[];
  /** The lanes that may go on from the event. */
  lanes: readonly Lane[];
  /** The summarized sections the model may read at the event, by path. */
  sections: readonly string[];
  /** The model that answers after the event. */
  model: ForkModel;
  busy: boolean;
  failure: BriefFailure | null;
  onRun: (choice: ForkChoice) => void;
  onCancel: () => void;
}) {
  const titleId = useId();
  const calls = changeableCalls(events, seq);
  const [chosen, setChosen] = useState<Lane[]>([lane]);
  const [callId, setCallId] = useState("");
  const [text, setText] = useState("");
  const [expand, setExpand] = useState<string[]>([]);
  const call = calls.find((candidate) => candidate.callId === callId) ?? null;
  const parsed = call === null ? null : resultOf(text);
  const problem = parsed !== null && !parsed.ok ? parsed.problem : null;
  const changes = call !== null || expand.length > 0;
  const runnable = chosen.length > 0 && problem === null && !busy;
  return (
    <ModalDialog role="dialog" titleId={titleId} testId="fork-dialog" className="fork-dialog" onEscape={onCancel}>
      {(focusFirst) => (
        <>
          <h2 id={titleId}>
            Fork {laneName(lane)} at event {seq}
          </h2>
          <p className="notice">
            The events before it stay as they were recorded: the model is not asked for them again. Each lane ticked
            goes on from there.
          </p>
          <p className="notice" data-testid="fork-model">
            {forkModelText(model)}
          </p>
          <CheckList
            legend="Lanes that go on"
            items={lanes}
            chosen={chosen}
            testId="fork-lane"
            dataName="lane"
            label={laneName}
            onChange={setChosen}
          />
          <fieldset>
            <legend>Another result for a tool call</legend>
            {calls.length === 0 ? (
              <p className="notice">No tool call at or after this event can be given another result.</p>
            ) : (
              <>
                <select
                  data-testid="fork-call"
                  value={callId}
                  aria-label="The tool call whose result changes"
                  onChange={(event) => {
                    const picked = calls.find((candidate) => candidate.callId === event.target.value) ?? null;
                    setCallId(event.target.value);
                    setText(picked === null ? "" : JSON.stringify(picked.result, null, 2));
                  }}
                >
                  <option value="">None: its recorded results</option>
                  {calls.map((candidate) => (
                    <option key={candidate.callId} value={candidate.callId}>
                      {candidate.name} ({candidate.callId})
                    </option>
                  ))}
                </select>
                {call !== null && (
                  <textarea
                    data-testid="fork-result"
                    aria-label={`The result ${call.name} gives instead (JSON)`}
                    rows={6}
                    value={text}
                    onChange={(event) => {
                      setText(event.target.value);
                    }}
                  />
                )}
                {problem !== null && (
                  <p className="error" data-testid="fork-result-problem">
                    Not JSON: {problem}
                  </p>
                )}
              </>
            )}
          </fieldset>
          {sections.length > 0 && (
            <CheckList
              legend="Sections the model reads at the event"
              items={sections}
              chosen={expand}
              testId="fork-expand"
              dataName="section"
              label={(section) => section}
              onChange={setExpand}
            />
          )}
          {failure !== null && (
            <p className="error" data-testid="fork-failure" role="alert">
              <strong>{failure.title}</strong> {failure.detail}
            </p>
          )}
          <div className="dialog-actions">
            <button type="button" data-testid="fork-cancel" onClick={onCancel}>
              Cancel
            </button>
            <button
              type="button"
              className="primary"
              data-testid="fork-run"
              ref={focusFirst}
              disabled={!runnable}
              title={changes ? "Run the fork" : "Run the fork with nothing changed: the lanes go on as recorded"}
              onClick={() => {
                const results =
                  call !== null && parsed?.ok === true ? [{ call_id: call.callId, result: parsed.value }] : [];
                onRun({ lanes: chosen, results, expand });
              }}
            >
              {busy ? "Forking…" : "Run the fork"}
            </button>
          </div>
        </>
      )}
    </ModalDialog>
  );
}

/** A group of checkboxes, one per item, `chosen` ticked; `data-{dataName}` names each box's item. */
function CheckList<T extends string>({
  legend,
  items,
  chosen,
  testId,
  dataName,
  label,
  onChange,
}: {
  legend: string;
  items: readonly T[];
  chosen: readonly T[];
  testId: string;
  dataName: string;
  label: (item: T) => string;
  onChange: (chosen: T[]) => void;
}) {
  return (
    <fieldset>
      <legend>{legend}</legend>
      {items.map((item) => (
        <label key={item} className="check">
          <input
            type="checkbox"
            data-testid={testId}
            {...{ [`data-${dataName}`]: item }}
            checked={chosen.includes(item)}
            onChange={() => {
              onChange(chosen.includes(item) ? chosen.filter((kept) => kept !== item) : [...chosen, item]);
            }}
          />{" "}
          {label(item)}
        </label>
      ))}
    </fieldset>
  );
}
