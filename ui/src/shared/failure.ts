// Why an action was not done, the one way the UI says it: a title, the reason and every problem of an
// invalid file at its place (`Failure`), or only the first two (`BriefFailure`, where the page shows
// a line); the title each backend error gets, and how an action's failure is built from its title
// and the backend's error.
import type { PlatformError, ProblemView } from "../platform";

/** Why an action was not done, for the person using the app. */
export interface Failure {
  title: string;
  detail: string;
  /** Every problem of an invalid file, each at its place. */
  problems: ProblemView[];
}

/** A failure said in one line, its problems not listed (the editor's notice, the Sources tab's). */
export type BriefFailure = Omit<Failure, "problems">;

/** A title for the error's kind and the backend's message (which names the file and place). */
export function describeError(error: PlatformError): BriefFailure {
  switch (error.code) {
    case "unreadable_file":
      return { title: "This template cannot be read", detail: error.message };
    case "invalid_template":
      return { title: "This template cannot be opened", detail: error.message };
    case "invalid_scenario":
      return { title: "This scenario cannot be used", detail: error.message };
    case "invalid_profiles":
      return { title: "These provider profiles are not valid", detail: error.message };
    case "invalid_edit":
      return { title: "This change was not made", detail: error.message };
    case "invalid_request":
      return { title: "This cannot be done as asked", detail: error.message };
    case "unknown_document":
      return { title: "This template is no longer open", detail: error.message };
    case "not_found":
      return { title: "This is no longer kept", detail: error.message };
    case "unavailable":
      return { title: "This part of Unfold is not available", detail: error.message };
    case "invalid_tools":
      return { title: "These tools cannot be imported", detail: error.message };
    case "cancelled":
      return { title: "Cancelled", detail: error.message };
    case "provider":
      return { title: "The model provider cannot be used", detail: error.message };
    case "internal":
      return { title: "Something went wrong in Unfold", detail: error.message };
    case "ipc_failed":
      return { title: "The app could not reach its backend", detail: error.message };
  }
}

/** Every problem an error lists, each at its place (none for a failure that is not about the input). */
export function problemsOf(error: PlatformError): ProblemView[] {
  return "problems" in error ? error.problems : [];
}

/**
 * `error` described with its problems listed apart: the detail then says how many there are instead
 * of repeating them (the backend's message lists them too).
 */
export function describeWithProblems(error: PlatformError): Failure {
  const problems = problemsOf(error);
  const described = describeError(error);
  return { ...described, detail: problems.length > 0 ? problemsLead(problems.length) : described.detail, problems };
}

/** The line over a list of `count` problems. */
export function problemsLead(count: number): string {
  return count === 1 ? "1 problem, at its place:" : `${String(count)} problems, each at its place:`;
}

/**
 * The failure of the action `title` that `error` ended, its problems listed apart; a failure of the
 * app itself (the backend not reached, a bug) in the app's own words.
 */
export function failureOf(title: string, error: PlatformError): Failure {
  const problems = problemsOf(error);
  switch (error.code) {
    case "ipc_failed":
    case "internal":
      return { ...describeError(error), problems };
    default:
      return { title, detail: problems.length > 0 ? problemsLead(problems.length) : error.message, problems };
  }
}

/**
 * The failure of the action `title` that `error` ended, in one line: the backend's message; a failure
 * of the app itself, or of a document it no longer has open, in the app's own words.
 */
export function briefFailureOf(title: string, error: PlatformError): BriefFailure {
  switch (error.code) {
    case "ipc_failed":
    case "internal":
    case "unknown_document":
      return describeError(error);
    default:
      return { title, detail: error.message };
  }
}
