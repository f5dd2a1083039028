// The selected section's tools: the tool list (edit, reorder, remove, new tool; see ToolList), and
// "Import tools…": a text area for a pasted OpenAI Chat, OpenAI Responses or Anthropic tool list,
// read by the backend, which shows its format, the names the template has already and any problem
// at its place, then attaches the tools without a conflict to the section.
import { useId, useState } from "react";
import type { ImportedTools, Outcome, ProblemView, Section, Tool, ToolListFile } from "../platform";
import { describeError } from "../shared/failure";
import { ToolList, type ToolActions } from "./ToolList";
import { attachable } from "./tools";
import { ProblemItems } from "../shared/ProblemItems";

type ImportState =
  | { kind: "closed" }
  | { kind: "editing"; text: string; read: ImportedTools | null; problems: ProblemView[]; error: string | null };

export function SectionTools({
  path,
  section,
  revision,
  actions,
  onRead,
  onChooseFile,
  onAttach,
}: {
  path: string;
  section: Section;
  /** The document's undo/redo count (the tool editor re-reads its tool when it changes). */
  revision: number;
  actions: ToolActions;
  /** Reads pasted text as tools; attaches nothing. */
  onRead: (text: string) => Promise<Outcome<ImportedTools>>;
  /** Asks for a tool list file (the native dialog) and gives its text; null when cancelled. */
  onChooseFile: () => Promise<Outcome<ToolListFile | null>>;
  /** Attaches the tools whose names are not among `conflicts`. */
  onAttach: (tools: Tool[], conflicts: string[]) => void;
}) {
  const id = useId();
  const [importing, setImporting] = useState<ImportState>({ kind: "closed" });

  const read = async (text: string) => {
    const result = await onRead(text);
    setImporting((current) => {
      if (current.kind !== "editing" || current.text !== text) return current;
      if (result.ok) return { ...current, read: result.value, problems: [], error: null };
      const { title, detail } = describeError(result.error);
      const problems = "problems" in result.error ? result.error.problems : [];
      return { ...current, read: null, problems, error: problems.length > 0 ? title : `${title}: ${detail}` };
    });
  };

  /** Puts a chosen file's text in the box and reads it, as if it had been pasted. */
  const readFile = async () => {
    const chosen = await onChooseFile();
    if (!chosen.ok) {
      const error = `This tool list cannot be read: ${chosen.error.message}`;
      setImporting((current) =>
        current.kind === "editing" ? { ...current, read: null, problems: [], error } : current,
      );
      return;
    }
    if (chosen.value === null) return;
    const { text } = chosen.value;
    setImporting({ kind: "editing", text, read: null, problems: [], error: null });
    await read(text);
  };

  return (
    <section className="section-tools" aria-label={`Tools of ${path}`}>
      <h3>Tools</h3>
      <ToolList
        tools={section.tools}
        revision={revision}
        testId="section-tools"
        itemTestId="section-tool"
        actions={actions}
      />
      {importing.kind === "closed" ? (
        <button
          type="button"
          data-testid="import-tools"
          onClick={() => {
            setImporting({ kind: "editing", text: "", read: null, problems: [], error: null });
          }}
        >
          Import tools…
        </button>
      ) : (
        <div className="tool-import" data-testid="tool-import">
          <label htmlFor={`${id}-import`}>Paste an OpenAI Chat, OpenAI Responses or Anthropic tools array</label>
          <textarea
            id={`${id}-import`}
            data-testid="import-text"
            rows={6}
            spellCheck={false}
            value={importing.text}
            onChange={(event) => {
              setImporting({ kind: "editing", text: event.target.value, read: null, problems: [], error: null });
            }}
          />
          <div className="tool-import-actions">
            <button type="button" data-testid="import-file" onClick={() => void readFile()}>
              From a file…
            </button>
            <button type="button" data-testid="import-read" onClick={() => void read(importing.text)}>
              Read tools
            </button>
            {importing.read !== null && (
              <button
                type="button"
                data-testid="import-attach"
                disabled={attachable(importing.read.tools, importing.read.conflicts).length === 0}
                onClick={() => {
                  if (importing.read === null) return;
                  onAttach(importing.read.tools, importing.read.conflicts);
                  setImporting({ kind: "closed" });
                }}
              >
                Attach {String(attachable(importing.read.tools, importing.read.conflicts).length)} to {path}
              </button>
            )}
            <button
              type="button"
              data-testid="import-cancel"
              onClick={() => {
                setImporting({ kind: "closed" });
              }}
            >
              Cancel
            </button>
          </div>
          {importing.read !== null && <ImportSummary imported={importing.read} />}
          {importing.error !== null && (
            <div className="error" role="alert" data-testid="import-error">
              <strong>{importing.error}</strong>
              {importing.problems.length > 0 && (
                <ProblemItems problems={importing.problems} whole="(whole list)" testId="import-problems" />
              )}
            </div>
          )}
        </div>
      )}
    </section>
  );
}

function ImportSummary({ imported }: { imported: ImportedTools }) {
  return (
    <div className="import-summary">
      <p data-testid="import-format">
        {imported.format}: {imported.tools.map((tool) => tool.name).join(", ") || "no tools"}
      </p>
      {imported.conflicts.length > 0 && (
        <p className="notice" data-testid="import-conflicts">
          Already in the template, not attached: {imported.conflicts.join(", ")}
        </p>
      )}
    </div>
  );
}
