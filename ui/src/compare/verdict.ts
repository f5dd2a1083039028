// The verdict's words beside its figures: each lane's standing against the all-FULL baseline, and
// what it spent beside the baseline in words (fewer, more, less), never a bare sign.
import type { Difference, LaneVerdict, Standing } from "../platform";
import { count, moneyText } from "../shared/words";

/** A lane's standing, as the verdict's list says it. */
export function standingText(standing: Standing): string {
  switch (standing) {
    case "wins":
      return "wins";
    case "beats_baseline":
      return "beats all-FULL";
    case "loses_to_baseline":
      return "loses to all-FULL";
    case "failed":
      return "fell short";
  }
}

/** "36.5 %" of a difference, with a space after (none when the baseline was zero). */
function percentOf(difference: Difference): string {
  return difference.percent === null ? "" : `${Math.abs(difference.percent).toFixed(1)} % `;
}

/** "36.5 % fewer prompt tokens (1,234)", "as many prompt tokens". */
function tokensText(tokens: Difference): string {
  const change = tokens.change ?? 0;
  if (change === 0) return "as many prompt tokens";
  const word = change < 0 ? "fewer" : "more";
  return `${percentOf(tokens)}${word} prompt tokens (${Math.abs(change).toLocaleString("en-US")})`;
}

/** "$0.002100 (12.0 %) less with the prompt cache". */
function costText(cost: Difference, currency: string): string {
  const change = cost.change ?? 0;
  if (change === 0) return "the same cost with the prompt cache";
  const percent = cost.percent === null ? "" : ` (${percentOf(cost).trim()})`;
  return `${moneyText(Math.abs(change), currency)}${percent} ${change < 0 ? "less" : "more"} with the prompt cache`;
}

/** What a lane spent beside the baseline: tokens, money with the cache when priced, calls, restarts. */
export function laneFigures(lane: LaneVerdict, currency: string | null): string[] {
  const figures = [tokensText(lane.prompt_tokens)];
  if (lane.cost_with_cache !== null && currency !== null) figures.push(costText(lane.cost_with_cache, currency));
  const calls = lane.model_calls.change ?? 0;
  if (calls !== 0) {
    const n = Math.abs(calls);
    figures.push(`${n.toLocaleString("en-US")} ${calls > 0 ? "more" : "fewer"} model call${n === 1 ? "" : "s"}`);
  }
  if (lane.restarts > 0) figures.push(count(lane.restarts, "restart"));
  return figures;
}
