// The Template panel: the template's header (key, name, ns), its settings (disclosure, heading, tool
// disclosure), its parameters with their defaults (edit, add, remove) and its own tools (the tool
// list and editor, as a section's). It keeps what the user typed (a refused change leaves the text
// in place); its parent remounts it to start from the document after undo or redo.
import { useId, useState } from "react";
import type { Disclosure, HeadingStyle, Template, TemplateSettings, ToolDisclosure } from "../platform";
import { settingsOf, type SettingsTextField } from "./settings";
import { ToolList, type ToolActions } from "./ToolList";

/** The settings chosen from a list, with their labels and choices. */
type ChoiceField = "disclosure" | "heading" | "tool_disclosure";
const CHOICES: { readonly [F in ChoiceField]: { label: string; options: readonly TemplateSettings[F][] } } = {
  disclosure: { label: "Disclosure", options: ["read_section", "open_sections", "mixed"] satisfies Disclosure[] },
  heading: { label: "Headings", options: ["plain", "keyed"] satisfies HeadingStyle[] },
  tool_disclosure: { label: "Tool disclosure", options: ["full", "pick_tools"] satisfies ToolDisclosure[] },
};

/** The option of `options` that `value` names (the first when none does). */
function pick<T extends string>(options: readonly T[], value: string): T {
  return options.find((option) => option === value) ?? (options[0] as T);
}

export function TemplatePanel({
  template,
  revision,
  toolActions,
  onSetting,
  onParam,
  onAddParam,
  onRemoveParam,
}: {
  template: Template;
  /** The document's undo/redo count (the tool editor re-reads its tool when it changes). */
  revision: number;
  /** What the template's own tool list does. */
  toolActions: ToolActions;
  onSetting: <F extends keyof TemplateSettings>(field: F, value: TemplateSettings[F]) => void;
  onParam: (name: string, value: string) => void;
  onAddParam: () => void;
  onRemoveParam: (name: string) => void;
}) {
  const id = useId();
  const settings = settingsOf(template);
  /** What was typed in each text field (by field, or `param/<name>`), over the document's value. */
  const [typed, setTyped] = useState<Record<string, string>>({});
  const textOf = (slot: string, fallback: string) => typed[slot] ?? fallback;
  const type = (slot: string, value: string) => {
    setTyped((current) => ({ ...current, [slot]: value }));
  };

  const textField = (field: SettingsTextField, label: string) => (
    <>
      <label htmlFor={`${id}-${field}`}>{label}</label>
      <input
        id={`${id}-${field}`}
        data-testid={`setting-${field}`}
        value={textOf(field, settings[field])}
        spellCheck={false}
        autoComplete="off"
        onChange={(event) => {
          type(field, event.target.value);
          onSetting(field, event.target.value);
        }}
      />
    </>
  );

  const choiceField = (field: ChoiceField) => {
    const { label, options } = CHOICES[field];
    const slot = field.replace("_", "-");
    return (
      <>
        <label htmlFor={`${id}-${slot}`}>{label}</label>
        <select
          id={`${id}-${slot}`}
          data-testid={`setting-${slot}`}
          value={settings[field]}
          onChange={(event) => {
            onSetting(field, pick(options, event.target.value));
          }}
        >
          {options.map((value) => (
            <option key={value} value={value}>
              {value}
            </option>
          ))}
        </select>
      </>
    );
  };

  return (
    <form
      className="section-editor template-panel"
      data-testid="template-panel"
      aria-label="Template settings"
      onSubmit={(event) => {
        event.preventDefault();
      }}
    >
      <h2>Template</h2>
      {textField("key", "Key")}
      {textField("name", "Name")}
      {textField("ns", "Namespace")}
      {choiceField("disclosure")}
      {choiceField("heading")}
      {choiceField("tool_disclosure")}
      <h3>Parameters</h3>
      {Object.keys(template.params).length === 0 ? (
        <p className="notice" data-testid="param-list">
          No parameters
        </p>
      ) : (
        <ul className="param-list" data-testid="param-list">
          {Object.entries(template.params).map(([name, value]) => (
            <li key={name} data-testid="param-row" data-name={name}>
              <label htmlFor={`${id}-param-${name}`}>
                <code>{name}</code>
              </label>
              <input
                id={`${id}-param-${name}`}
                data-testid="param-value"
                value={textOf(`param/${name}`, value)}
                spellCheck={false}
                autoComplete="off"
                onChange={(event) => {
                  type(`param/${name}`, event.target.value);
                  onParam(name, event.target.value);
                }}
              />
              <button
                type="button"
                aria-label={`Remove parameter ${name}`}
                onClick={() => {
                  // A parameter added again later under this name starts from its new default.
                  setTyped((current) =>
                    Object.fromEntries(Object.entries(current).filter(([slot]) => slot !== `param/${name}`)),
                  );
                  onRemoveParam(name);
                }}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <button type="button" data-testid="add-param" onClick={onAddParam}>
        Add parameter
      </button>
      <h3>Tools (offered whatever is summarized)</h3>
      <ToolList
        tools={template.tools}
        revision={revision}
        testId="template-tools"
        itemTestId="template-tool"
        actions={toolActions}
      />
    </form>
  );
}
