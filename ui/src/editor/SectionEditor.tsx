// The selected section's editor: key (renamed on blur or Enter, Escape puts it back; focused and
// selected, ready to rename, for a section just added), title, template and summary (an edit on
// every change) and visibility. It keeps what the user typed (a refused rename leaves the text in
// place); its parent remounts it to start from the document.
import { useEffect, useId, useRef, useState } from "react";
import type { Section, Visibility } from "../platform";
import type { TextField } from "./edits";

export function SectionEditor({
  path,
  section,
  onField,
  onRename,
  onVisibility,
  focusKey = false,
}: {
  path: string;
  section: Section;
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
      <label htmlFor={`${id}-title`}>Title</label>
      <input
        id={`${id}-title`}
        data-testid="field-title"
        value={text.title}
        autoComplete="off"
        onChange={(event) => {
          change("title", event.target.value);
        }}
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
      <label htmlFor={`${id}-template`}>Template</label>
      <textarea
        id={`${id}-template`}
        data-testid="field-template"
        value={text.template}
        rows={8}
        spellCheck={false}
        onChange={(event) => {
          change("template", event.target.value);
        }}
      />
      <label htmlFor={`${id}-summary`}>Summary</label>
      <textarea
        id={`${id}-summary`}
        data-testid="field-summary"
        value={text.summary}
        rows={3}
        spellCheck={false}
        placeholder={section.visibility === "summary" ? "What the model sees until it reads the section" : ""}
        onChange={(event) => {
          change("summary", event.target.value);
        }}
      />
    </form>
  );
}
