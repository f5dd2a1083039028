// Test-only: suite files as the backend opens and runs them, for the Suites page's tests —
// `regressions.suite.json`, three cases of the example template of which the third fails one
// expectation (the restart run took more model calls than allowed), each run comparing the
// lookup-first report's lanes; and `broken.suite.json`, one case that could not run at all (its
// scenario is gone), so it has an error and no report.
import type { SuiteCase, SuiteCaseResult } from "../platform";
import { lookupFirstReport } from "./fakeCompare";

/** A suite file as the fake backend holds it: its cases, and how each goes when the suite runs. */
export interface FakeSuite {
  cases: SuiteCase[];
  results: SuiteCaseResult[];
}

export const REGRESSIONS_PATH = "/t/suites/regressions.suite.json";
export const BROKEN_PATH = "/t/suites/broken.suite.json";

/** Each case expects the restart run to end completed within 3 model calls, and a restart divergence. */
function suiteCase(suite: string, name: string, scenario: string, adapters: SuiteCase["adapters"]): SuiteCase {
  const expectations = [
    { run: "restart", what: "status", expected: "completed" },
    { run: "restart", what: "model_calls", expected: "at most 3" },
    { run: "divergence", what: "divergence", expected: "restart" },
  ];
  return { suite, name, template: "../task.unfold.json", scenario, adapters, expectations };
}

/** Two cases that pass and one whose restart run made 4 model calls where at most 3 were allowed. */
export function regressionsSuite(): FakeSuite {
  const cases = [
    suiteCase("regressions", "lookup-first", "../lookup-first.scenario.json", ["dynamic", "restart"]),
    suiteCase("regressions", "lookup-first-deferred", "../lookup-first.scenario.json", ["dynamic", "deferred"]),
    suiteCase("regressions", "restart-budget", "../lookup-first.scenario.json", ["dynamic", "restart"]),
  ];
  const passed = (name: string, took: number): SuiteCaseResult => ({
    suite: "regressions",
    name,
    passed: true,
    unmet: [],
    error: null,
    took_ms: took,
    report: lookupFirstReport(),
  });
  const results: SuiteCaseResult[] = [
    passed("lookup-first", 41.3),
    passed("lookup-first-deferred", 37),
    {
      suite: "regressions",
      name: "restart-budget",
      passed: false,
      unmet: [{ run: "restart", what: "model_calls", expected: "at most 3", seen: "4" }],
      error: null,
      took_ms: 52,
      report: lookupFirstReport(),
    },
  ];
  return { cases, results };
}

/** One case whose scenario file is gone: it fails without running. */
export function brokenSuite(): FakeSuite {
  const cases = [suiteCase("broken", "gone", "../gone.scenario.json", ["dynamic"])];
  const error = "../gone.scenario.json: cannot read: No such file or directory (os error 2)";
  const results: SuiteCaseResult[] = [
    { suite: "broken", name: "gone", passed: false, unmet: [], error, took_ms: null, report: null },
  ];
  return { cases, results };
}
