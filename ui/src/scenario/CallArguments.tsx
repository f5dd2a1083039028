// A scripted call's arguments in the scenario panel: a form made from its tool's schema
// (argumentForm.ts) or the JSON text, with a "Form / JSON" toggle when the schema makes a form. Both
// edit the same arguments through the panel's edits, so undo takes back either; what the form
// cannot express (a nested schema, a value its field cannot hold) is edited in JSON only.
import { useId, useState } from "react";
import type { JsonValue } from "../platform";
import {
  argumentForm,
  argumentsUnfit,
  fieldText,
  optionValue,
  otherArguments,
  type ArgumentField,
} from "./argumentForm";
import type { OfferedTool } from "./offered";
import { RequiredMark, TextField, type Form } from "./ScenarioForm";
import {
  isProblem,
  jsonFieldText,
  setCallArgs,
  setCallArgument,
  undoGroup,
  type CallPlace,
  type ScriptedCall,
} from "./scenarioEdits";

type ArgumentsView = "form" | "json";

/** `call`'s arguments, edited as its `tool`'s form or as JSON (only JSON when its schema is unknown). */
export function CallArguments({
  form,
  place,
  call,
  tool,
  where,
}: {
  form: Form;
  place: CallPlace;
  call: ScriptedCall;
  tool: OfferedTool | null;
  /** Which call this is, in words ("step 2, call 1"). */
  where: string;
}) {
  const made = tool === null || tool.parameters === null ? null : argumentForm(tool.parameters);
  const unfit = made === null ? null : "unfit" in made ? made.unfit : argumentsUnfit(made.fields, call.args);
  const fields = made !== null && "fields" in made && unfit === null ? made.fields : null;
  // The form at first when it can show the arguments; after that the user's choice, so a JSON text
  // fixed into one the form can show does not vanish under the caret.
  const [view, setView] = useState<ArgumentsView>(fields === null ? "json" : "form");
  const slot = undoGroup.args(place);
  const json = (
    <TextField
      form={form}
      slot={slot}
      shown={jsonFieldText(call.args, {})}
      label={`Arguments of ${where} (JSON object)`}
      testId="step-args"
      multiline
      hideLabel
      placeholder='{"name": "value"} (empty: no arguments)'
      onText={(text) => (base) => setCallArgs(base, place, text)}
    />
  );
  if (made === null) return json;
  const shown: ArgumentsView = fields === null ? "json" : view;
  // A JSON text that does not parse would be lost by the form, which shows the arguments last sent.
  const jsonUnsent = form.typed(slot, "").problem !== null;
  const show = (next: ArgumentsView) => () => {
    form.forget(slot);
    setView(next);
  };
  return (
    <div className="call-arguments" data-testid="step-arguments" data-view={shown}>
      <div className="view-toggle" role="group" aria-label={`Edit the arguments of ${where} as`}>
        <button
          type="button"
          data-testid="step-args-form-view"
          aria-pressed={shown === "form"}
          disabled={fields === null || jsonUnsent}
          title={jsonUnsent ? "Fix the JSON first" : undefined}
          onClick={show("form")}
        >
          Form
        </button>
        <button type="button" data-testid="step-args-json-view" aria-pressed={shown === "json"} onClick={show("json")}>
          JSON
        </button>
      </div>
      {unfit !== null && (
        <p className="field-help" data-testid="step-args-unfit">
          JSON only: {unfit}
        </p>
      )}
      {fields !== null && shown === "form" ? (
        <ArgumentFields form={form} place={place} call={call} fields={fields} />
      ) : (
        json
      )}
    </div>
  );
}

function ArgumentFields({
  form,
  place,
  call,
  fields,
}: {
  form: Form;
  place: CallPlace;
  call: ScriptedCall;
  fields: readonly ArgumentField[];
}) {
  const others = otherArguments(fields, call.args);
  return (
    <>
      {fields.length === 0 && <p className="field-help">This tool takes no arguments</p>}
      <ul className="argument-fields">
        {fields.map((field) => (
          <li key={field.name} data-testid="step-arg" data-name={field.name}>
            <ArgumentInput form={form} place={place} args={call.args} field={field} />
          </li>
        ))}
      </ul>
      {others.length > 0 && (
        <p className="field-help" data-testid="step-args-others">
          Also set, kept as they are (edit them as JSON): {others.join(", ")}
        </p>
      )}
    </>
  );
}

/** The input of one argument: a text or number field, a checkbox or a select by its kind. */
function ArgumentInput({
  form,
  place,
  args,
  field,
}: {
  form: Form;
  place: CallPlace;
  args: { [key: string]: JsonValue };
  field: ArgumentField;
}) {
  const id = useId();
  const text = fieldText(field, args);
  const pick = (picked: string) => {
    form.send((base) => {
      const made = setCallArgument(base, place, field, picked);
      return isProblem(made) ? null : made;
    });
  };
  if (field.kind === "text" || field.kind === "number" || field.kind === "integer") {
    return (
      <TextField
        form={form}
        slot={undoGroup.argument(place, field.name)}
        shown={text}
        label={field.name}
        testId="step-arg-value"
        required={field.required}
        help={field.description}
        placeholder={field.required ? undefined : "not set"}
        number={field.kind === "text" ? undefined : { whole: field.kind === "integer" }}
        onText={(typed) => (base) => setCallArgument(base, place, field, typed)}
      />
    );
  }
  const help = field.description === null ? undefined : `${id}-help`;
  const control =
    field.kind === "boolean" ? (
      <input
        id={id}
        type="checkbox"
        data-testid="step-arg-value"
        checked={text === "true"}
        aria-required={field.required || undefined}
        aria-describedby={help}
        onChange={(event) => {
          pick(String(event.target.checked));
        }}
      />
    ) : (
      <select
        id={id}
        data-testid="step-arg-value"
        value={text}
        aria-required={field.required || undefined}
        aria-describedby={help}
        onChange={(event) => {
          pick(event.target.value);
        }}
      >
        {(text === "" || !field.required) && (
          <option value="" disabled={field.required}>
            {field.required ? "(choose)" : "(not set)"}
          </option>
        )}
        {field.options.map((option) => (
          <option key={optionValue(option)} value={optionValue(option)}>
            {typeof option === "string" ? option : JSON.stringify(option)}
          </option>
        ))}
      </select>
    );
  return (
    <div className={`scenario-field argument-${field.kind}`}>
      <label htmlFor={id}>
        {field.name}
        {field.required && <RequiredMark />}
      </label>
      {control}
      {help !== undefined && (
        <p id={help} className="field-help">
          {field.description}
        </p>
      )}
    </div>
  );
}
