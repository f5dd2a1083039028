// The selected section's editor: key (renamed on blur or Enter, Escape puts it back; focused and
// selected, ready to rename, for a section just added), title, template and summary (code fields,
// an edit on every change, placeholders marked and warned about under the field) and visibility.
// It keeps what the user typed (a refused rename leaves the text in place); its parent remounts it
// to start from the document.
import { useEffect, useId, useRef, useState } from "react";
import type { Section, Visibility } from "../platform";
import { CodeField } from "./CodeField";
import type { TextField } from "./edits";
import { placeholderWarnings, titleWarnings } from "./placeholders";

export function SectionEditor({
  path,
  section,
  params,
  onField,
  onRename,
  onVisibility,
  focusKey = false,
}: {
  path: string;
  section: Section;
  /** The template's parameter names (those with a default). */
  params: readonly string[];
  /** Focus the key field with its text selected, once, when it appears. */
  focusKey?: boolean;
  onField: (field: TextField, value: string) => void;
  onRename: (key: string) => void;
  onVisibility: (visibility: Visibility) => void;
}) {
  const id = useId();
  const keyField = useRef<HTMLInputElement>(null);
  const [key, setKey] = useState(section.key);
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

  const commitKey = () => {
    if (key.trim() !== section.key) onRename(key);
  };

  return (
    <form
      className="section-editor"
      data-testid="section-editor"
      aria-label={`Section ${path}`}
      onSubmit={(event) => {
        event.preventDefault();
      }}
    >
      <h2>{path}</h2>
      <label htmlFor={`${id}-key`}>Key</label>
      <input
        ref={keyField}
        id={`${id}-key`}
        data-testid="field-key"
        value={key}
        spellCheck={false}
        autoComplete="off"
        onChange={(event) => {
          setKey(event.target.value);
        }}
        onBlur={commitKey}
        onKeyDown={(event) => {
          if (event.key === "Enter") {
            event.preventDefault();
            commitKey();
          } else if (event.key === "Escape") {
            setKey(section.key);
          }
        }}
      />
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
      <FieldWarnings id={`${id}-title-warnings`} testId="field-title-warnings" warnings={titleWarnings(text.title)} />
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
      />
    </form>
  );
}

/** What is wrong with a field's placeholders, under it (nothing when all is well). */
function FieldWarnings({ id, testId, warnings }: { id: string; testId: string; warnings: string[] }) {
  if (warnings.length === 0) return null;
  return (
    <ul id={id} className="field-warnings" data-testid={testId}>
      {warnings.map((warning) => (
        <li key={warning}>{warning}</li>
      ))}
    </ul>
  );
}
