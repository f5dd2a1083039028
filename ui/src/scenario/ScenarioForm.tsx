// The scenario panel's form plumbing: the `Form` every part reads and calls (the scenario shown, the
// texts as typed, how edits go out, which field takes the focus next) and `TextField`, a text input
// or textarea over one slot of it. A typed text is kept while its field shows it, so JSON that does
// not parse stays in place with its problem under it and sends nothing.
import { useEffect, useId, useRef, useState, type ChangeEvent } from "react";
import type { Scenario } from "../platform";
import type { OfferedTool } from "./offered";
import { isProblem, type ScenarioEdit, type TextEdit } from "./scenarioEdits";

/** A text field's text as typed, and why it makes no value (null when it does). */
export interface TypedText {
  text: string;
  problem: string | null;
}

/** What every part of the form reads and calls: the scenario shown, and how edits go out. */
export interface Form {
  scenario: Scenario;
  /** The tools the template offers, with their schemas and what answers them. */
  offered: readonly OfferedTool[];
  /** Their names: what the pickers list. */
  tools: string[];
  /** What a field shows: its typed text, else `shown` (the scenario's value). */
  typed: (slot: string, shown: string) => TypedText;
  /** Keeps a field's text and sends what it makes, if an edit. */
  type: (slot: string, text: string, build: (scenario: Scenario) => TextEdit) => void;
  /** Sends an edit; the typed texts of slots starting with `reshaped` are dropped (their places moved). */
  send: (build: (scenario: Scenario) => ScenarioEdit | null, reshaped?: string) => void;
  /**
   * Drops the typed texts of `slot` and of the slots within it (`slot#…`, as a call's arguments hold
   * each argument's): their fields show the scenario again.
   */
  forget: (slot: string) => void;
  /** The slot whose field takes the focus when it shows (once), or null. */
  focusSlot: string | null;
  focus: (slot: string | null) => void;
}

/** The form over `scenario`, sending each edit to `onChange`. */
export function useScenarioForm(
  scenario: Scenario,
  offered: readonly OfferedTool[],
  onChange: (scenario: Scenario, group: string | null) => void,
): Form {
  const [typed, setTyped] = useState<Record<string, TypedText>>({});
  const [focusSlot, focus] = useState<string | null>(null);
  // The last scenario sent, and the one it was built from: until the view catches up, the next edit
  // builds on what was sent, so two quick changes do not undo each other.
  const sent = useRef<{ from: Scenario; to: Scenario } | null>(null);
  const build = <E extends TextEdit>(make: (base: Scenario) => E): E => {
    const last = sent.current;
    const result = make(last !== null && last.from === scenario ? last.to : scenario);
    if (result !== null && !isProblem(result)) {
      sent.current = { from: scenario, to: result.scenario };
      onChange(result.scenario, result.group);
    }
    return result;
  };
  const dropTyped = (drop: (slot: string) => boolean) => {
    setTyped((current) => Object.fromEntries(Object.entries(current).filter(([slot]) => !drop(slot))));
  };
  return {
    scenario,
    offered,
    tools: offered.map((tool) => tool.name),
    typed: (slot, shown) => typed[slot] ?? { text: shown, problem: null },
    type: (slot, text, make) => {
      const result = build(make);
      setTyped((current) => ({ ...current, [slot]: { text, problem: isProblem(result) ? result.problem : null } }));
    },
    send: (make, reshaped) => {
      if (build(make) === null || reshaped === undefined) return;
      dropTyped((slot) => slot.startsWith(reshaped));
    },
    forget: (forgotten) => {
      dropTyped((slot) => slot === forgotten || slot.startsWith(`${forgotten}#`));
    },
    focusSlot,
    focus,
  };
}

/**
 * A text input or textarea over one slot of the form, with its help and its problem under it.
 * `label` is shown, or only named to assistive technology when `hideLabel` (rows whose place says
 * what they are). An empty field means "not set": `placeholder` says what then applies.
 */
export function TextField({
  form,
  slot,
  shown,
  label,
  testId,
  onText,
  multiline = false,
  hideLabel = false,
  required = false,
  help = null,
  placeholder,
  number,
}: {
  form: Form;
  slot: string;
  shown: string;
  label: string;
  testId: string;
  onText: (text: string) => (base: Scenario) => TextEdit;
  multiline?: boolean;
  hideLabel?: boolean;
  /** Marks the field as one that must be set. */
  required?: boolean;
  help?: string | null;
  placeholder?: string;
  /** A number input, from `min` when given, of whole numbers when `whole`. */
  number?: { min?: number; whole?: boolean };
}) {
  const id = useId();
  const control = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  const { text, problem } = form.typed(slot, shown);
  const wanted = form.focusSlot === slot;
  const release = form.focus;
  useEffect(() => {
    if (!wanted) return;
    control.current?.focus();
    release(null);
  }, [wanted, release]);
  const described = [help === null ? null : `${id}-help`, problem === null ? null : `${id}-problem`].filter(Boolean);
  const props = {
    id,
    ref: control,
    "data-testid": testId,
    value: text,
    placeholder,
    spellCheck: false,
    autoComplete: "off",
    "aria-label": hideLabel ? label : undefined,
    "aria-required": required || undefined,
    "aria-invalid": problem !== null,
    "aria-describedby": described.length === 0 ? undefined : described.join(" "),
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
      const typedText = event.target.value;
      form.type(slot, typedText, onText(typedText));
    },
  };
  return (
    <div className={multiline ? "scenario-field multiline" : "scenario-field"}>
      {!hideLabel && (
        <label htmlFor={id}>
          {label}
          {required && <RequiredMark />}
        </label>
      )}
      {multiline ? (
        <textarea rows={Math.min(12, Math.max(2, text.split("\n").length))} {...props} />
      ) : (
        <input
          type={number === undefined ? "text" : "number"}
          min={number?.min}
          step={number === undefined ? undefined : number.whole === false ? "any" : 1}
          {...props}
        />
      )}
      {help !== null && (
        <p id={`${id}-help`} className="field-help">
          {help}
        </p>
      )}
      {problem !== null && (
        <p id={`${id}-problem`} className="field-problem" data-testid={`${testId}-problem`}>
          {problem}
        </p>
      )}
    </div>
  );
}

/** The mark of a field that must be set (the control says so to assistive technology). */
export function RequiredMark() {
  return (
    <span className="required-mark" title="required" aria-hidden="true">
      {" *"}
    </span>
  );
}
