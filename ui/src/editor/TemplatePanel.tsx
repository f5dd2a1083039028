// The Template panel: the template's header (key, name, ns), its settings (disclosure, heading, tool
// disclosure), its parameters with their defaults (rename, as the section key field does; edit the
// default, add, remove), its own tools (the tool list and editor, as a section's) and how many tool
// sources it has, with the way to the Sources panel. It keeps what the user typed (a refused change
// leaves the text in place); its parent remounts it to start from the document after undo or redo,
// and keeps it through a rename, as each parameter's row is kept (with the focus in it) through a
// rename of its parameter.
import { useId, useState } from "react";
import type { Disclosure, HeadingStyle, Template, TemplateSettings, ToolDisclosure } from "../platform";
import { NameProblem, useNameField } from "./NameField";
import { paramNameProblem, settingsOf, type SettingsTextField } from "./settings";
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
  onRenameParam,
  onAddParam,
  onRemoveParam,
  sourceCount,
  onOpenSources,
}: {
  template: Template;
  /** The document's undo/redo count (the tool editor re-reads its tool when it changes). */
  revision: number;
  /** What the template's own tool list does. */
  toolActions: ToolActions;
  onSetting: <F extends keyof TemplateSettings>(field: F, value: TemplateSettings[F]) => void;
  onParam: (name: string, value: string) => void;
  /** Renames parameter `from` to `to` (a valid name no other parameter has). */
  onRenameParam: (from: string, to: string) => void;
  onAddParam: () => void;
  onRemoveParam: (name: string) => void;
  /** How many tool sources the template has. */
  sourceCount: number;
  /** Shows the Sources panel. */
  onOpenSources: () => void;
}) {
  const id = useId();
  const settings = settingsOf(template);
  /** What was typed in each settings text field, over the document's value. */
  const [typed, setTyped] = useState<Partial<Record<SettingsTextField, string>>>({});
  /** The rows renamed parameters carry on (see `paramRowKeys`), in the order renamed. */
  const [carried, setCarried] = useState<readonly CarriedRow[]>([]);
  const names = Object.keys(template.params);
  const rowKeys = paramRowKeys(names, carried);
  const textOf = (slot: SettingsTextField, fallback: string) => typed[slot] ?? fallback;
  const type = (slot: SettingsTextField, value: string) => {
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
      {names.length === 0 ? (
        <p className="notice" data-testid="param-list">
          No parameters
        </p>
      ) : (
        <ul className="param-list" data-testid="param-list">
          {names.map((name, index) => {
            const rowKey = rowKeys[index] ?? name;
            return (
              <ParamRow
                key={rowKey}
                id={`${id}-param-${rowKey}`}
                name={name}
                value={template.params[name] ?? ""}
                others={names.filter((other) => other !== name)}
                onValue={(value) => {
                  onParam(name, value);
                }}
                onRename={(to) => {
                  setCarried((current) => [...current, { name: to, key: rowKey }]);
                  onRenameParam(name, to);
                }}
                onRemove={() => {
                  onRemoveParam(name);
                }}
              />
            );
          })}
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
      <h3>Tool sources</h3>
      <p className="template-sources">
        <span className="notice" data-testid="template-source-count">
          {sourceCount === 0
            ? "None: tools from MCP servers and relay plugins come in through sources."
            : `${String(sourceCount)} ${sourceCount === 1 ? "source" : "sources"} of tools offered at run time.`}
        </span>{" "}
        <button type="button" data-testid="open-sources" onClick={onOpenSources}>
          {sourceCount === 0 ? "Add one in Sources" : "Show in Sources"}
        </button>
      </p>
    </form>
  );
}

/** One parameter's row: its name (a name field: renamed as the section key field renames), its default, Remove. */
function ParamRow({
  id,
  name,
  value,
  others,
  onValue,
  onRename,
  onRemove,
}: {
  /** The row's own id, the base of its fields' ids. */
  id: string;
  name: string;
  /** Its default, as the document has it. */
  value: string;
  /** The names of the template's other parameters: a name must differ from them. */
  others: readonly string[];
  onValue: (value: string) => void;
  onRename: (to: string) => void;
  onRemove: () => void;
}) {
  const field = useNameField({
    id: `${id}-name`,
    name,
    problemOf: (typed) => paramNameProblem(typed, others),
    onRename,
  });
  /** The default as typed (kept over the document's while the row lives, through a rename too). */
  const [typed, setTyped] = useState<string | null>(null);
  return (
    <li className="param-row" data-testid="param-row" data-name={name}>
      <input
        className="param-name"
        data-testid="param-name"
        aria-label={`Name of parameter ${name}`}
        {...field.input}
      />
      <input
        id={`${id}-value`}
        data-testid="param-value"
        aria-label={`Default of ${name}`}
        value={typed ?? value}
        spellCheck={false}
        autoComplete="off"
        onChange={(event) => {
          setTyped(event.target.value);
          onValue(event.target.value);
        }}
      />
      <button type="button" aria-label={`Remove parameter ${name}`} onClick={onRemove}>
        Remove
      </button>
      <NameProblem field={field} testId="param-name-problem" />
    </li>
  );
}

/** A parameter renamed in the panel, and the key of the row it had (which it keeps). */
export interface CarriedRow {
  name: string;
  key: string;
}

/**
 * The React key of each parameter's row, for the names in order. A parameter renamed in the panel
 * keeps the key of the row it had, so that the row, and the focus in it, stays through the rename
 * (the latest rename wins a key two names claim); every other parameter is keyed by its name, made
 * unique when a renamed one holds it (a parameter added again under a name renamed away).
 */
export function paramRowKeys(names: readonly string[], carried: readonly CarriedRow[]): string[] {
  const present = new Set(names);
  const kept = new Map<string, string>();
  const used = new Set<string>();
  for (const { name, key } of [...carried].reverse()) {
    if (!present.has(name) || kept.has(name) || used.has(key)) continue;
    kept.set(name, key);
    used.add(key);
  }
  return names.map((name) => {
    let key = kept.get(name);
    if (key === undefined) {
      key = name;
      for (let n = 2; used.has(key); n++) key = `${name}#${String(n)}`;
      used.add(key);
    }
    return key;
  });
}
