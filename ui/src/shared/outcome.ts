// What became of the last action of a page whose parts have stores of their own (the Compare page:
// its scenario, the provider profiles, the comparison), as the page says it once: the last failure,
// until an action succeeds or it is dismissed, and a notice of what the last export wrote. React
// reads it through `subscribe`/`getState`.
import { ExternalStore } from "./ExternalStore";
import type { Failure } from "./failure";

export interface OutcomeState {
  /** The last action that was not done, until the next one succeeds or it is dismissed. */
  failure: Failure | null;
  /** What the last export wrote. */
  notice: string | null;
}

export class OutcomeStore extends ExternalStore<OutcomeState> {
  constructor() {
    super({ failure: null, notice: null });
  }

  /** An action was not done, for `failure`. */
  fail(failure: Failure): void {
    this.update({ failure });
  }

  /** An action was done: the failure before it goes. */
  succeed(): void {
    this.update({ failure: null });
  }

  /** An action was done, and says so. */
  tell(notice: string): void {
    this.update({ notice, failure: null });
  }

  /** What was said done is no longer news (another comparison started). */
  forgetNotice(): void {
    this.update({ notice: null });
  }

  dismiss(): void {
    this.update({ failure: null, notice: null });
  }
}
