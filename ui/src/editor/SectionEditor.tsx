// The selected section's editor: key (checked as typed, with what is wrong said under it; renamed
// on Enter, which keeps the focus there, or on leaving the field, which an invalid key puts back as
// Escape always does; focused and selected, ready to rename, for a section just added), title,
// template and summary (code fields, an edit on every change, placeholders marked and warned about
// under the field) and visibility. It keeps what the user typed (a rename the backend refuses
// leaves the text in place); its parent remounts it to start from the document, and keeps it (and
// the focus in it) through a rename or move of its section.
import { useEffect, useId, useRef, useState } from "react";
import type { Section, Visibility } from "../platform";
import { CodeField } from "./CodeField";
import { sectionKeyProblem, type TextField } from "./edits";
import { placeholderWarnings, titleWarnings } from "./placeholders";

export function SectionEditor({
  path,
  section,
  siblingKeys,
  params,
  onField,
  onRename,
  onVisibility,
  focusKey = false,
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

  const keyProblem = sectionKeyProblem(key, siblingKeys);
  /** Renames to the key typed; an invalid one is never sent (leaving the field puts back the key). */
  const commitKey = (leaving: boolean) => {
    const typed = key.trim();
    if (keyProblem !== null) {
      if (leaving) setKey(section.key);
      return;
    }
    setKey(typed);
    if (typed !== section.key) onRename(typed);
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
        aria-invalid={keyProblem !== null}
        aria-describedby={keyProblem === null ? undefined : `${id}-key-problem`}
        onChange={(event) => {
          setKey(event.target.value);
        }}
        onBlur={() => {
          commitKey(true);
        }}
        onKeyDown={(event) => {
          if (event.key === "Enter") {
            event.preventDefault();
            commitKey(false);
          } else if (event.key === "Escape") {
            setKey(section.key);
          }
        }}
      />
      {/* Always in the page, so that a screen reader hears each new problem as it is typed. */}
      <p id={`${id}-key-problem`} className="key-problem" data-testid="field-key-problem" aria-live="polite">
        {keyProblem}
      </p>
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
