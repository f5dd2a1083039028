// A name typed into an input and checked as it is typed (a section's key, a parameter's name): the
// field is marked invalid and described by the line under it that says, in words, the first thing
// wrong. Enter renames and keeps the focus in the field; leaving it (Tab, a click elsewhere) renames
// and the focus goes where it was sent. Escape, or leaving the field while the name is invalid, puts
// back the name it has. An invalid name is never sent; a rename the backend refuses leaves the text
// in place, to fix or to put back.
import { useState, type FocusEvent, type KeyboardEvent } from "react";

export interface NameFieldOptions {
  /** The input's id; the problem line's is `<id>-problem`. */
  id: string;
  /** The name as it stands in the document (what Escape puts back). */
  name: string;
  /** What is wrong with a typed name, in words; null when it can be sent. */
  problemOf: (typed: string) => string | null;
  /** Renames to `typed`, surrounding spaces dropped: called only when it is valid and different. */
  onRename: (typed: string) => void;
}

/** What a name field renders: the input's props, and its problem line's id and text. */
export interface NameField {
  input: {
    id: string;
    value: string;
    spellCheck: false;
    autoComplete: "off";
    "aria-invalid": boolean;
    "aria-describedby": string | undefined;
    onChange: (event: { target: { value: string } }) => void;
    onBlur: (event: FocusEvent<HTMLInputElement>) => void;
    onKeyDown: (event: KeyboardEvent<HTMLInputElement>) => void;
  };
  problem: { id: string; text: string | null };
}

/** The state and handlers of a name field (spread `input` on an <input>, show `problem` with NameProblem). */
export function useNameField({ id, name, problemOf, onRename }: NameFieldOptions): NameField {
  const [typed, setTyped] = useState(name);
  const problem = problemOf(typed);
  const problemId = `${id}-problem`;

  /** Renames to the name typed; an invalid one is never sent (leaving the field puts back the name). */
  const commit = (leaving: boolean) => {
    if (problem !== null) {
      if (leaving) setTyped(name);
      return;
    }
    const trimmed = typed.trim();
    setTyped(trimmed);
    if (trimmed !== name) onRename(trimmed);
  };

  return {
    input: {
      id,
      value: typed,
      spellCheck: false,
      autoComplete: "off",
      "aria-invalid": problem !== null,
      "aria-describedby": problem === null ? undefined : problemId,
      onChange: (event) => {
        setTyped(event.target.value);
      },
      onBlur: () => {
        commit(true);
      },
      onKeyDown: (event) => {
        if (event.key === "Enter") {
          event.preventDefault();
          commit(false);
        } else if (event.key === "Escape") {
          setTyped(name);
        }
      },
    },
    problem: { id: problemId, text: problem },
  };
}

/** The line under a name field that says what is wrong with it. */
export function NameProblem({ field, testId }: { field: NameField; testId: string }) {
  // Always in the page, so that a screen reader hears each new problem as it is typed.
  return (
    <p id={field.problem.id} className="key-problem" data-testid={testId} aria-live="polite">
      {field.problem.text}
    </p>
  );
}
