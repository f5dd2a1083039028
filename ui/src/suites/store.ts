// The Suites page's state and actions, without React: the suite file open (chosen with the native
// dialog) and its cases, a run of every case (which the backend cannot cancel, so the page only
// waits for it), each case's result matched to the case, whose lanes show, and the last action that
// failed. Opening a suite that fails keeps the suite shown before; opening another forgets the
// results. It lives in the workspace, so the page finds its suite again when it shows. React reads
// it through `subscribe`/`getState`.
import type { Platform, SuiteCase, SuiteCaseResult, Unmet } from "../platform";
import { failureOf, type Failure } from "../shared/failure";
import { ExternalStore } from "../shared/ExternalStore";

export interface SuitesState {
  /** The suite file open (null: none yet). */
  path: string | null;
  /** Its cases, in the file's order. */
  cases: SuiteCase[];
  /** A run of the open suite is under way. */
  running: boolean;
  /** How each case went in the last run of the open suite (null: not run since it was opened). */
  results: SuiteCaseResult[] | null;
  /** The names of the cases whose lanes show. */
  lanesShown: string[];
  /** The last action that was not done, until the next one succeeds or it is dismissed. */
  failure: Failure | null;
}

/** "3 cases: 2 passed, 1 failed". */
export function summaryText(results: readonly SuiteCaseResult[]): string {
  const passed = results.filter((result) => result.passed).length;
  const cases = results.length === 1 ? "1 case" : `${String(results.length)} cases`;
  return `${cases}: ${String(passed)} passed, ${String(results.length - passed)} failed`;
}

/** "restart model_calls: expected at most 3, saw 4". */
export function unmetText(unmet: Unmet): string {
  return `${unmet.run} ${unmet.what}: expected ${unmet.expected}, saw ${unmet.seen}`;
}

/** One expectation of a case as the page lists it: in words, and whether it held in the last run. */
export interface ExpectationLine {
  /** "restart prompt_tokens: at most 1000". */
  text: string;
  /** Null before the case ran (or when it could not run); what was seen when it did not hold. */
  held: { held: true } | { held: false; seen: string } | null;
}

/** Every expectation of `suiteCase`, each with how it went in `result` (if it ran). */
export function expectationLines(suiteCase: SuiteCase, result: SuiteCaseResult | null): ExpectationLine[] {
  const ran = result !== null && result.report !== null;
  return suiteCase.expectations.map(({ run, what, expected }) => {
    const unmet = result?.unmet.find((item) => item.run === run && item.what === what);
    const text = what === run ? `${run}: ${expected}` : `${run} ${what}: ${expected}`;
    if (!ran) return { text, held: null };
    return { text, held: unmet === undefined ? { held: true } : { held: false, seen: unmet.seen } };
  });
}

/** How `suiteCase` went in `results`, if it ran. */
export function resultOf(results: readonly SuiteCaseResult[] | null, suiteCase: SuiteCase): SuiteCaseResult | null {
  return results?.find((result) => result.suite === suiteCase.suite && result.name === suiteCase.name) ?? null;
}

export class SuiteStore extends ExternalStore<SuitesState> {
  /** Counts the suites opened: a run's answer for a suite no longer open is dropped. */
  private opened = 0;

  constructor(private readonly platform: Platform) {
    super({ path: null, cases: [], running: false, results: null, lanesShown: [], failure: null });
  }

  /** Asks which suite file to open (the native dialog, starting at the open one), then opens it. */
  async open(): Promise<void> {
    const chosen = await this.platform.chooseFile("open_suite", this.state.path);
    if (!chosen.ok) {
      this.update({ failure: failureOf("The suite was not opened", chosen.error) });
      return;
    }
    if (chosen.value !== null) await this.openPath(chosen.value);
  }

  /** Opens the suite file at `path`; a failure keeps the suite shown before. */
  async openPath(path: string): Promise<void> {
    const read = await this.platform.openSuite(path);
    if (!read.ok) {
      this.update({ failure: failureOf("The suite was not opened", read.error) });
      return;
    }
    this.opened += 1;
    // A run of the suite shown before may still be under way: its answer is dropped (see `run`).
    this.update({ path, cases: read.value, running: false, results: null, lanesShown: [], failure: null });
  }

  /** Runs every case of the open suite; the failed ones then show their lanes. */
  async run(): Promise<void> {
    const { path, running } = this.state;
    if (path === null || running) return;
    const opened = this.opened;
    this.update({ running: true, failure: null });
    const ran = await this.platform.runSuite(path);
    if (opened !== this.opened) return;
    if (!ran.ok) {
      this.update({ running: false, failure: failureOf("The suite did not run", ran.error) });
      return;
    }
    const failed = ran.value.filter((result) => !result.passed && result.report !== null).map((result) => result.name);
    this.update({ running: false, results: ran.value, lanesShown: failed });
  }

  /** Shows or hides the lanes of the case `name`. */
  toggleLanes(name: string): void {
    const { lanesShown } = this.state;
    this.update({
      lanesShown: lanesShown.includes(name) ? lanesShown.filter((shown) => shown !== name) : [...lanesShown, name],
    });
  }

  dismiss(): void {
    this.update({ failure: null });
  }
}
