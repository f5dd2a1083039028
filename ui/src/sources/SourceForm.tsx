// The form that adds a tool source or edits one: its name, the section its tools belong to, and what
// it is — an MCP server started as a command (one argument a line, never a shell line; its folder;
// its environment, one NAME=value a line), an MCP server at a URL, or a relay plugin. The fields live
// here as typed (sourceDraft.ts); Add or Apply sends the source they make when the form finds nothing
// wrong (else each problem shows at its field), Cancel lets them go.
import { useId, useState, type ReactNode } from "react";
import type { ToolSource } from "../platform";
import {
  buildSource,
  commandNote,
  draftOf,
  newSourceDraft,
  type DraftField,
  type DraftProblem,
  type SourceDraft,
  type SourceKind,
} from "./sourceDraft";

const KINDS: readonly { kind: SourceKind; label: string }[] = [
  { kind: "command", label: "A command (MCP server over stdio)" },
  { kind: "url", label: "A URL (MCP server over HTTP)" },
  { kind: "relay", label: "A relay plugin" },
];

export function SourceForm({
  source,
  sources,
  sections,
  section,
  onApply,
  onCancel,
}: {
  /** The source edited; none: a new one. */
  source?: ToolSource;
  /** The template's sources (a name must differ from the others'). */
  sources: readonly ToolSource[];
  /** The template's section paths, in tree order. */
  sections: readonly string[];
  /** A new source's section (null: the template's own tools). */
  section: string | null;
  onApply: (source: ToolSource) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const [draft, setDraft] = useState<SourceDraft>(() =>
    source === undefined ? newSourceDraft(sources, section) : draftOf(source),
  );
  /** The problems found at the last Add or Apply, until the fields change. */
  const [problems, setProblems] = useState<DraftProblem[]>([]);
  const others = sources.filter((other) => other !== source).map((other) => other.name);
  const change = (fields: Partial<SourceDraft>) => {
    setDraft({ ...draft, ...fields });
    setProblems([]);
  };
  const at = (field: DraftField) =>
    problems.filter((problem) => problem.field === field).map((problem) => problem.message);
  const note = draft.kind === "command" ? commandNote(draft.command) : null;

  const text = (
    field: DraftField,
    label: string,
    rest: { placeholder?: string; hint?: ReactNode; rows?: number } = {},
  ) => {
    const fieldProblems = at(field);
    const props = {
      id: `${id}-${field}`,
      "data-testid": `source-${field}`,
      value: draft[field],
      placeholder: rest.placeholder,
      spellCheck: false,
      autoComplete: "off",
      "aria-invalid": fieldProblems.length > 0 ? true : undefined,
      "aria-describedby": fieldProblems.length > 0 ? `${id}-${field}-problem` : undefined,
    };
    return (
      <div className="source-field" data-field={field}>
        <label htmlFor={`${id}-${field}`}>{label}</label>
        {rest.rows === undefined ? (
          <input
            {...props}
            onChange={(event) => {
              change({ [field]: event.target.value });
            }}
          />
        ) : (
          <textarea
            {...props}
            rows={rest.rows}
            onChange={(event) => {
              change({ [field]: event.target.value });
            }}
          />
        )}
        {rest.hint !== undefined && <span className="source-hint">{rest.hint}</span>}
        {fieldProblems.length > 0 && (
          <span
            className="source-problem"
            id={`${id}-${field}-problem`}
            data-testid="source-form-problem"
            data-field={field}
          >
            {fieldProblems.join("; ")}
          </span>
        )}
      </div>
    );
  };

  return (
    <form
      className="source-form"
      data-testid="source-form"
      aria-label={source === undefined ? "New source" : `Edit source ${source.name}`}
      onSubmit={(event) => {
        event.preventDefault();
        const built = buildSource(draft, others, source);
        if (built.ok) onApply(built.source);
        else setProblems(built.problems);
      }}
    >
      {source === undefined && <h3>New source</h3>}
      {text("name", "Name")}
      <div className="source-field">
        <label htmlFor={`${id}-section`}>Its tools belong to</label>
        <SectionSelect
          id={`${id}-section`}
          testId="source-form-section"
          section={draft.section}
          sections={sections}
          onChange={(value) => {
            change({ section: value });
          }}
        />
      </div>
      <fieldset className="source-kind">
        <legend>It is</legend>
        {KINDS.map(({ kind, label }) => (
          <label key={kind} className="check">
            <input
              type="radio"
              name={`${id}-kind`}
              data-testid={`source-kind-${kind}`}
              checked={draft.kind === kind}
              onChange={() => {
                change({ kind });
              }}
            />{" "}
            {label}
          </label>
        ))}
      </fieldset>
      {draft.kind === "command" && (
        <>
          {text("command", "Command: the program, then one argument a line", {
            rows: 3,
            placeholder: "python3\nide_server.py",
            hint: note ?? "Never a shell line: no quoting, each line is one argument.",
          })}
          {text("cwd", "Folder (relative to the template's)", { placeholder: "the template's folder" })}
          {text("env", "Environment: one NAME=value a line", {
            rows: 2,
            placeholder: "TOKEN=${env:TOKEN}",
            hint: "The server gets PATH, HOME and LANG, and these; ${env:NAME} takes NAME from your environment when it starts.",
          })}
        </>
      )}
      {draft.kind === "url" && text("url", "URL", { placeholder: "http://127.0.0.1:8931/mcp" })}
      {draft.kind === "relay" && text("plugin", "Plugin", { placeholder: "the plugin's name on the relay" })}
      <div className="source-form-actions">
        <button type="submit" data-testid="source-apply">
          {source === undefined ? "Add source" : "Apply"}
        </button>
        <button type="button" data-testid="source-cancel" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** The value of the select's option for the template's own tools (a section path is never empty). */
const TEMPLATE_OPTION = "";

/**
 * A select of where a source's tools belong: the template's own tools, or one of `sections`; a
 * section the template no longer has stays as a choice, saying so.
 */
export function SectionSelect({
  id,
  testId,
  section,
  sections,
  label,
  onChange,
}: {
  id?: string;
  testId: string;
  section: string | null;
  sections: readonly string[];
  /** Its accessible name, when no label names it. */
  label?: string;
  onChange: (section: string | null) => void;
}) {
  const missing = section !== null && !sections.includes(section);
  return (
    <select
      id={id}
      data-testid={testId}
      aria-label={label}
      value={section ?? TEMPLATE_OPTION}
      onChange={(event) => {
        onChange(event.target.value === TEMPLATE_OPTION ? null : event.target.value);
      }}
    >
      <option value={TEMPLATE_OPTION}>The template's own tools</option>
      {sections.map((path) => (
        <option key={path} value={path}>
          {path}
        </option>
      ))}
      {missing && <option value={section}>{section} (no such section)</option>}
    </select>
  );
}
