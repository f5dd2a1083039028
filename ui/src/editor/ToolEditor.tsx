// The tool editor: one tool's name, description, brief, kind, categories, permission, parameters'
// JSON Schema and mock result. A JSON text that does not parse is shown at once at its line and
// column; a tool that parses is checked by the backend ~150 ms after the last keystroke (the
// template's own checks: its schema, a valid object schema, a free name), and applied as soon as it
// has no problem, like every other field of the editor: what is typed is in the document (saving
// and the preview see it) and a run of changes to the tool undoes as one step. "Apply" does it at
// once. A tool with problems is never applied; its draft stays here, with the problems listed (those
// of the parameters' JSON Schema, at their JSON pointer, under that field). Apply and Revert are
// disabled, saying why, while the draft is the tool as the template has it.
import { useEffect, useEffectEvent, useId, useRef, useState } from "react";
import type { Outcome, ProblemView, Tool, ToolKind } from "../platform";
import { describeError } from "../shared/failure";
import { sameJsonCountingUndefined } from "../shared/json";
import { draftOf, type MockChoice, type ToolDraft, toolOfDraft } from "./toolDraft";
import { ProblemItems } from "../shared/ProblemItems";
import { CodeField } from "./CodeField";
import { TOOL_KINDS } from "../shared/template";

/** How long typing pauses before the tool is checked. */
const CHECK_DELAY_MS = 150;

/** The backend's answer for one JSON text of the tool. */
interface Checked {
  json: string;
  problems: ProblemView[];
}

export function ToolEditor({
  tool,
  onCheck,
  onApply,
  onClose,
  onUnapplied,
}: {
  /** The tool as the document has it. */
  tool: Tool;
  /** The problems of the tool's JSON text at its place in the template. */
  onCheck: (toolJson: string) => Promise<Outcome<ProblemView[]>>;
  /** Replaces the document's tool with a checked one. */
  onApply: (tool: Tool) => void;
  onClose: () => void;
  /** Told the draft's problems while they keep it from being applied, and none once it applies or closes. */
  onUnapplied?: (name: string, problems: ProblemView[]) => void;
}) {
  const id = useId();
  const [draft, setDraft] = useState<ToolDraft>(() => draftOf(tool));
  const [checked, setChecked] = useState<Checked | null>(null);
  /** The tool as it was when the editor opened: "Applied" confirms only a change since. */
  const [opened] = useState(tool);
  /** The last JSON text handed to `onApply`, so an answer is applied once. */
  const applied = useRef<string | null>(null);

  const drafted = toolOfDraft(tool, draft);
  const json = drafted.ok ? JSON.stringify(drafted.tool) : null;
  const changed = drafted.ok && !sameJsonCountingUndefined(drafted.tool, tool);
  const current = checked !== null && checked.json === json ? checked : null;

  const check = (text: string) =>
    onCheck(text).then((result) => {
      const problems = result.ok ? result.value : [failureProblem(result.error)];
      setChecked({ json: text, problems });
    });

  const checkLater = useEffectEvent((text: string) => void check(text));
  useEffect(() => {
    if (json === null) return;
    const timer = setTimeout(() => {
      checkLater(json);
    }, CHECK_DELAY_MS);
    return () => {
      clearTimeout(timer);
    };
  }, [json]);

  useEffect(() => {
    if (!drafted.ok || current === null || current.problems.length > 0 || !changed) return;
    if (applied.current === current.json) return;
    applied.current = current.json;
    onApply(drafted.tool);
  });

  const edit = <F extends keyof ToolDraft>(field: F, value: ToolDraft[F]) => {
    setDraft((before) => ({ ...before, [field]: value }));
  };
  const problems = drafted.ok ? ((current ?? checked)?.problems ?? []) : drafted.problems;
  const parameterProblems = problems.filter((problem) => isParametersProblem(problem.location));
  const otherProblems = problems.filter((problem) => !isParametersProblem(problem.location));
  const hasProblems = !drafted.ok || (current !== null && current.problems.length > 0);
  // The Problems panel lists a draft that is not applied; it forgets it once it applies or closes.
  const unapplied = hasProblems ? problems : [];
  const report = useEffectEvent((closing: boolean) => onUnapplied?.(draft.name || tool.name, closing ? [] : unapplied));
  const unappliedKey = JSON.stringify(unapplied);
  useEffect(() => {
    report(false);
  }, [unappliedKey]);
  useEffect(
    () => () => {
      report(true);
    },
    [],
  );

  // "Applied" only once the tool changed since the editor opened: a tool just opened has nothing to
  // confirm.
  const appliedSinceOpened = !sameJsonCountingUndefined(tool, opened);
  const status = !drafted.ok
    ? "Not applied: the JSON does not parse"
    : current === null
      ? changed
        ? "Checking…"
        : appliedSinceOpened
          ? "Applied to the template"
          : ""
      : current.problems.length > 0
        ? `Not applied: ${plural(current.problems.length, "problem")}`
        : changed
          ? "Applying…"
          : appliedSinceOpened
            ? "Applied to the template"
            : "";
  const nothingToApply = drafted.ok && !changed;
  const applyTitle = nothingToApply
    ? "Nothing to apply: the tool is as the template has it"
    : hasProblems
      ? "Fix the tool's problems first"
      : "Changes without problems are applied as you type; this applies them now";
  const revertTitle = nothingToApply
    ? "Nothing to revert: the tool is as the template has it"
    : "Back to the tool as the template has it";

  return (
    <section className="tool-editor" data-testid="tool-editor" aria-label={`Tool ${tool.name}`}>
      <header className="tool-editor-header">
        <h4>
          Tool <code>{tool.name}</code>
        </h4>
        <button type="button" data-testid="tool-close" onClick={onClose}>
          Close
        </button>
      </header>
      <label htmlFor={`${id}-name`}>Name</label>
      <input
        id={`${id}-name`}
        data-testid="tool-name"
        value={draft.name}
        spellCheck={false}
        autoComplete="off"
        onChange={(event) => {
          edit("name", event.target.value);
        }}
      />
      <label htmlFor={`${id}-description`}>Description</label>
      <textarea
        id={`${id}-description`}
        data-testid="tool-description"
        rows={3}
        value={draft.description}
        onChange={(event) => {
          edit("description", event.target.value);
        }}
      />
      <label htmlFor={`${id}-brief`}>Brief</label>
      <input
        id={`${id}-brief`}
        data-testid="tool-brief"
        value={draft.brief}
        placeholder="One line, offered until the model picks the tool (pick_tools)"
        autoComplete="off"
        onChange={(event) => {
          edit("brief", event.target.value);
        }}
      />
      <label htmlFor={`${id}-kind`}>Kind</label>
      <select
        id={`${id}-kind`}
        data-testid="tool-kind"
        value={draft.kind}
        onChange={(event) => {
          edit("kind", TOOL_KINDS.find((kind) => kind === event.target.value) ?? "");
        }}
      >
        <option value="">(none)</option>
        {TOOL_KINDS.map((kind: ToolKind) => (
          <option key={kind} value={kind}>
            {kind}
          </option>
        ))}
      </select>
      <label htmlFor={`${id}-categories`}>Categories</label>
      <input
        id={`${id}-categories`}
        data-testid="tool-categories"
        value={draft.categories}
        placeholder="Comma-separated, e.g. web, search"
        autoComplete="off"
        onChange={(event) => {
          edit("categories", event.target.value);
        }}
      />
      <label className="checkbox">
        <input
          type="checkbox"
          data-testid="tool-requires-permission"
          checked={draft.requiresPermission}
          onChange={(event) => {
            edit("requiresPermission", event.target.checked);
          }}
        />
        A person must allow each call
      </label>
      <span className="field-label">Parameters (JSON Schema of the arguments)</span>
      <CodeField
        testId="tool-parameters"
        label="Parameters (JSON Schema of the arguments)"
        rows={10}
        value={draft.parameters}
        describedBy={`${id}-parameters-problems`}
        onChange={(value) => {
          edit("parameters", value);
        }}
      />
      {/* Always there: the field's aria-describedby is set once, when it is made. */}
      <div id={`${id}-parameters-problems`}>
        {parameterProblems.length > 0 && (
          <ProblemItems
            problems={parameterProblems}
            whole="tool"
            testId="tool-parameters-problems"
            className="error"
            label="Problems of the parameters"
          />
        )}
      </div>
      <label htmlFor={`${id}-mock`}>Mock (what a scripted run answers)</label>
      <select
        id={`${id}-mock`}
        data-testid="tool-mock"
        value={draft.mock}
        onChange={(event) => {
          edit("mock", mockChoice(event.target.value));
        }}
      >
        <option value="none">No mock</option>
        <option value="result">A result</option>
        <option value="error">An error</option>
      </select>
      {draft.mock === "result" && (
        <textarea
          aria-label="Mock result (JSON)"
          data-testid="tool-mock-result"
          className="json"
          rows={4}
          spellCheck={false}
          value={draft.mockResult}
          onChange={(event) => {
            edit("mockResult", event.target.value);
          }}
        />
      )}
      {draft.mock === "error" && (
        <input
          aria-label="Mock error message"
          data-testid="tool-mock-error"
          value={draft.mockError}
          autoComplete="off"
          onChange={(event) => {
            edit("mockError", event.target.value);
          }}
        />
      )}
      <div className="tool-editor-actions">
        <button
          type="button"
          data-testid="tool-apply"
          title={applyTitle}
          disabled={!changed || hasProblems}
          onClick={() => {
            if (json !== null) void check(json);
          }}
        >
          Apply
        </button>
        <button
          type="button"
          data-testid="tool-revert"
          title={revertTitle}
          disabled={nothingToApply}
          onClick={() => {
            setDraft(draftOf(tool));
          }}
        >
          Revert
        </button>
        <span className="tool-status" data-testid="tool-status" aria-live="polite">
          {status}
        </span>
      </div>
      <ToolProblems problems={otherProblems} placedElsewhere={parameterProblems.length} />
    </section>
  );
}

/** A problem inside the tool's `parameters` (its JSON syntax, or a place in its schema). */
function isParametersProblem(location: string): boolean {
  return location === "/parameters" || location.startsWith("/parameters/");
}

/** The problems not shown under a field; `placedElsewhere` counts those that are. */
function ToolProblems({ problems, placedElsewhere }: { problems: readonly ProblemView[]; placedElsewhere: number }) {
  if (problems.length === 0) {
    if (placedElsewhere > 0) return null;
    return (
      <p className="notice" data-testid="tool-problems">
        No problems
      </p>
    );
  }
  return (
    <ProblemItems
      problems={problems}
      whole="tool"
      testId="tool-problems"
      className="error"
      label="Problems of the tool"
    />
  );
}

/** A failed check (the document closed, the backend unreachable) as a problem of the whole tool. */
function failureProblem(error: Parameters<typeof describeError>[0]): ProblemView {
  const { title, detail } = describeError(error);
  return { location: "", message: `${title}: ${detail}` };
}

function mockChoice(value: string): MockChoice {
  return value === "result" || value === "error" ? value : "none";
}

function plural(count: number, noun: string): string {
  return `${String(count)} ${noun}${count === 1 ? "" : "s"}`;
}
