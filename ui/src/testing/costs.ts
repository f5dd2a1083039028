// Priced comparison reports for tests: a run's cost as the backend would attach it, at $1 per
// million prompt tokens (so each call costs its prompt tokens in millionths), or with given totals.
import type { ComparisonReport, RunEvent } from "../platform";
import { lookupFirstReport } from "./fakeCompare";

/** A run's cost in a report. */
export type ReportCost = NonNullable<ComparisonReport["runs"][number]["cost"]>;

/** A run's cost at $1 per million prompt tokens: each model call its prompt tokens in millionths. */
export function pricedAtAMillionth(events: readonly RunEvent[], currency = "USD"): ReportCost {
  const calls = events.flatMap((event) =>
    event.type === "model_call"
      ? [
          {
            call_index: event.call_index,
            attempt: event.attempt,
            cost: event.prompt_tokens / 1e6,
            cacheable_prompt_tokens: 0,
            cache_write_tokens: 0,
            cost_with_cache: null,
          },
        ]
      : [],
  );
  const total = calls.reduce((sum, call) => sum + call.cost, 0);
  return {
    model: "gpt-4o-mini",
    priced_as: "gpt-4o-mini",
    currency,
    taken: "2025-10-01",
    prompt: total,
    completion: 0,
    total,
    cacheable_prompt_tokens: 0,
    cache_write_tokens: 0,
    total_with_cache: null,
    prefix_breaks: { tools_changed: 0, system_changed: 0, restart: 0 },
    calls,
  };
}

/** The lookup-first report with every run priced at $1 per million prompt tokens. */
export function pricedLookupFirst(): ComparisonReport {
  const report = lookupFirstReport();
  for (const run of report.runs) run.cost = pricedAtAMillionth(run.events);
  if (report.baseline !== null) report.baseline.cost = pricedAtAMillionth(report.baseline.events);
  return report;
}

/** A run's cost with the given totals and no calls: for what the counters table shows. */
export function costWithTotals(total: number, totalWithCache: number): ReportCost {
  return {
    ...pricedAtAMillionth([]),
    prompt: total,
    total,
    cacheable_prompt_tokens: 1024,
    total_with_cache: totalWithCache,
  };
}
