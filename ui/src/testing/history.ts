// For the history's tests only: a run history kept as the backend keeps it. A comparison keeps each
// of its runs with its lane and the comparison's start time, duration, source, template, scenario
// and provider (the fake's example history starts each run at its own time); a live run or a replay
// of its own has no lane and no scenario.
//
// Runs, newest first: 8, a replay (restart adapter); 5 to 7, a scripted comparison of lookup-first an
// hour after the first (dynamic, restart, all-FULL baseline); 4, a live run of its own (dynamic);
// 1 to 3, the first scripted comparison of lookup-first (dynamic, restart, all-FULL baseline).
import type { RunSummary, StoredRun } from "../platform";
import { exampleHistory } from "./fakeCompare";

/** When the first comparison started. */
export const FIRST_COMPARISON_MS = Date.UTC(2026, 0, 5, 9, 30);
const MINUTE = 60_000;

export function keptHistory(): StoredRun[] {
  const example = exampleHistory();
  const byId = (id: number): StoredRun => {
    const run = example.find((kept) => kept.id === id);
    if (run === undefined) throw new Error(`the example history has no run ${String(id)}`);
    return run;
  };
  const [dynamic, restart, baseline] = [byId(1), byId(2), byId(3)];
  const comparison = (firstId: number, started: number, duration: number): StoredRun[] =>
    [dynamic, restart, baseline].map((run, index) => ({
      ...run,
      id: firstId + index,
      started_at_ms: started,
      duration_ms: duration,
    }));
  const alone = { lane: null, scenario: null, scenario_path: null, provider: "local", model: "qwen3" } as const;
  return [
    ...comparison(1, FIRST_COMPARISON_MS, 55),
    {
      ...byId(4),
      ...alone,
      id: 4,
      source: "live",
      started_at_ms: FIRST_COMPARISON_MS + 20 * MINUTE,
      duration_ms: 8_420,
    },
    ...comparison(5, FIRST_COMPARISON_MS + 60 * MINUTE, 61),
    {
      ...restart,
      ...alone,
      id: 8,
      source: "replay",
      started_at_ms: FIRST_COMPARISON_MS + 90 * MINUTE,
      duration_ms: 12,
    },
  ];
}

/** The runs as the list sends them: newest first, without their user message and report. */
export function listed(runs: readonly StoredRun[]): RunSummary[] {
  return [...runs]
    .sort((a, b) => (b.started_at_ms ?? 0) - (a.started_at_ms ?? 0) || (b.id ?? 0) - (a.id ?? 0))
    .map(summaryOf);
}

function summaryOf(run: StoredRun): RunSummary {
  const summary: Partial<StoredRun> = { ...run };
  delete summary.user;
  delete summary.report;
  return summary as RunSummary;
}
