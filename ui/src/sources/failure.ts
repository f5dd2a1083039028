// Why the last action of the Sources tab (an answer, a discovery, the relay's start or stop) was
// not done, in words: the action's title with the backend's message, or, for a failure of the app
// itself, the app's own description of it.
import type { PlatformError } from "../platform";
import { describeError } from "../shared/view";

/** Why the last action was not done. */
export interface ActionFailure {
  title: string;
  detail: string;
}

/** The failure of the action `title` that `error` ended. */
export function failureOf(title: string, error: PlatformError): ActionFailure {
  switch (error.code) {
    case "ipc_failed":
    case "internal":
    case "unknown_document":
      return describeError(error);
    default:
      return { title, detail: error.message };
  }
}
