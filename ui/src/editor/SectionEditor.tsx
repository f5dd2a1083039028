// The selected section's editor: key (a name field: checked as typed, with what is wrong said
// under it; renamed on Enter, which keeps the focus there, or on leaving the field, which an invalid
// key puts back as Escape always does; focused and selected, ready to rename, for a section just
// added), title, template and summary (code fields, an edit on every change, placeholders marked and
// warned about under the field, with a button that defines each unknown parameter) and visibility,
// with the section's size each way it can be shown.
// It keeps what the user typed (a rename the backend refuses leaves the text in place); its parent
// remounts it to start from the document, and keeps it (and the focus in it) through a rename or
// move of its section.
import { useEffect, useId, useRef, useState } from "react";
import type { Section, SectionSize, Visibility } from "../platform";
import { CodeField } from "./CodeField";
import { sectionKeyProblem, type TextField } from "./edits";
import { NameProblem, useNameField } from "./NameField";
import { placeholderWarnings, titleWarnings, type FieldWarning } from "./placeholders";
import { SectionSizes } from "./SectionSizes";

export function SectionEditor({
  path,
  section,
  siblingKeys,
  params,
  onField,
  onRename,
  onVisibility,
  onDefineParam,
  focusKey = false,
  size,
}: {
  path: string;
  section: Section;
  /** The keys of the sections beside it (same parent), not its own: a key must differ from them. */
  siblingKeys: readonly string[];
  /** The template's parameter names (those with a default). */
  params: readonly string[];
  /** Focus the key field with its text selected, once, when it appears. */
  focusKey?: boolean;
  onField: (field: TextField, value: string) => void;
  onRename: (key: string) => void;
  onVisibility: (visibility: Visibility) => void;
  /** Adds parameter `name` to the template (from a warning about a placeholder it has no default for). */
  onDefineParam: (name: string) => void;
  /** Its own size in the prompt, once the template's economics are read. */
  size?: SectionSize;
}) {
  const id = useId();
  const form = useRef<HTMLFormElement>(null);
  const keyField = useRef<HTMLInputElement>(null);
  const key = useNameField({
    id: `${id}-key`,
    name: section.key,
    problemOf: (typed) => sectionKeyProblem(typed, siblingKeys),
    onRename,
  });
  const [text, setText] = useState<Record<TextField, string>>({
    title: section.title,
    template: section.template,
    summary: section.summary ?? "",
  });

  const change = (field: TextField, value: string) => {
    setText((current) => ({ ...current, [field]: value }));
    onField(field, value);
  };
  useEffect(() => {
    if (!focusKey) return;
    keyField.current?.focus();
    keyField.current?.select();
  }, [focusKey]);

  /**
   * Defines an unknown parameter from a warning, and gives the focus back to the field the warning
   * is about (the warning and its button go once the parameter is there).
   */
  const define = (name: string, warningsId: string) => {
    onDefineParam(name);
    form.current?.querySelector<HTMLElement>(`[aria-describedby="${warningsId}"]`)?.focus();
  };

  return (
    <form
      ref={form}
      className="section-editor"
      data-testid="section-editor"
      aria-label={`Section ${path}`}
      onSubmit={(event) => {
        event.preventDefault();
      }}
    >
      <h2>{path}</h2>
      <label htmlFor={`${id}-key`}>Key</label>
      <input ref={keyField} data-testid="field-key" {...key.input} />
      <NameProblem field={key} testId="field-key-problem" />
      <span className="field-label">Title</span>
      <CodeField
        testId="field-title"
        label="Title"
        singleLine
        spellCheck
        value={text.title}
        describedBy={`${id}-title-warnings`}
        onChange={(value) => {
          change("title", value);
        }}
      />
      <FieldWarnings
        id={`${id}-title-warnings`}
        testId="field-title-warnings"
        warnings={titleWarnings(text.title).map((message) => ({ message, param: null }))}
      />
      <label htmlFor={`${id}-visibility`}>Visibility</label>
      <select
        id={`${id}-visibility`}
        data-testid="field-visibility"
        value={section.visibility}
        onChange={(event) => {
          onVisibility(event.target.value === "summary" ? "summary" : "full");
        }}
      >
        <option value="full">Full</option>
        <option value="summary">Summary</option>
      </select>
      <SectionSizes size={size} />
      <span className="field-label">Template</span>
      <CodeField
        testId="field-template"
        rows={8}
        label="Template"
        value={text.template}
        params={params}
        describedBy={`${id}-template-warnings`}
        onChange={(value) => {
          change("template", value);
        }}
      />
      <FieldWarnings
        id={`${id}-template-warnings`}
        testId="field-template-warnings"
        warnings={placeholderWarnings(text.template, params)}
        onDefine={(name) => {
          define(name, `${id}-template-warnings`);
        }}
      />
      <span className="field-label">Summary</span>
      <CodeField
        testId="field-summary"
        rows={3}
        label="Summary"
        value={text.summary}
        placeholder={section.visibility === "summary" ? "What the model sees until it reads the section" : undefined}
        params={params}
        describedBy={`${id}-summary-warnings`}
        onChange={(value) => {
          change("summary", value);
        }}
      />
      <FieldWarnings
        id={`${id}-summary-warnings`}
        testId="field-summary-warnings"
        warnings={placeholderWarnings(text.summary, params)}
        onDefine={(name) => {
          define(name, `${id}-summary-warnings`);
        }}
      />
    </form>
  );
}

/**
 * What is wrong with a field's placeholders, under it (nothing when all is well); a warning about a
 * parameter the template has no default for has a button that defines it.
 */
function FieldWarnings({
  id,
  testId,
  warnings,
  onDefine,
}: {
  id: string;
  testId: string;
  warnings: FieldWarning[];
  onDefine?: (name: string) => void;
}) {
  if (warnings.length === 0) return null;
  return (
    <ul id={id} className="field-warnings" data-testid={testId}>
      {warnings.map(({ message, param }) => (
        <li key={message}>
          <span>{message}</span>
          {param !== null && onDefine !== undefined && (
            <>
              {" "}
              <button
                type="button"
                className="define-param"
                data-testid="define-param"
                data-name={param}
                title={`Add the parameter ${param} to the template, with an empty default`}
                onClick={() => {
                  onDefine(param);
                }}
              >
                Define {param}
              </button>
            </>
          )}
        </li>
      ))}
    </ul>
  );
}
