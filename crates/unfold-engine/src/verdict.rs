//! The answer a comparison gives first: which lane wins against the all-FULL baseline and by how
//! much (prompt tokens, and money with and without the prompt cache when the runs are priced),
//! with one line per lane saying why. Pure: it is worked out from a report's runs alone
//! (`ComparisonReport::weigh`), so a report read from a file answers the same way. A lane is named by a string so that lanes of other kinds (real
//! agent hosts) fit, and a [`Difference`] can later carry an interval from repeated runs.

use serde::{Deserialize, Serialize};

use crate::costs::PrefixBreaks;
use crate::events::{AdapterKind, EventKind, RunReport, RunStatus};

/// The name the verdict gives the all-FULL baseline.
pub const BASELINE: &str = "all-FULL";

/// What decided which lane wins.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum VerdictMeasure {
    /// The cost with the prompt cache: every run that completed is priced.
    CostWithCache,
    /// Prompt tokens: the runs are not priced.
    PromptTokens,
}

/// How a lane fared against the baseline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum Standing {
    /// The best of every lane and the baseline.
    Wins,
    /// Better than the baseline, but another lane is better still.
    BeatsBaseline,
    /// No better than the baseline.
    LosesToBaseline,
    /// It did not complete, or tool calls failed that succeeded in the baseline, so it cannot win.
    Failed,
}

/// A figure of a lane beside the baseline's.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Difference {
    /// The lane's.
    pub value: f64,
    /// The baseline's.
    pub baseline: f64,
    /// `value - baseline`: negative when the lane spent less.
    pub change: f64,
    /// `change` in percent of `baseline`, to one decimal; none when the baseline is zero.
    pub percent: Option<f64>,
}

impl Difference {
    fn of(value: f64, baseline: f64) -> Difference {
        let change = value - baseline;
        let percent = (baseline != 0.0).then(|| (change * 1000.0 / baseline).round() / 10.0);
        Difference { value, baseline, change, percent }
    }
}

/// One lane of the comparison against the baseline.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct LaneVerdict {
    /// The lane (an adapter's name).
    pub lane: String,
    /// How it fared.
    pub standing: Standing,
    /// How it ended.
    pub status: RunStatus,
    /// Its prompt tokens.
    pub prompt_tokens: Difference,
    /// Its cost without the prompt cache, when priced.
    pub cost: Option<Difference>,
    /// Its cost with the prompt cache, when priced.
    pub cost_with_cache: Option<Difference>,
    /// Its model calls.
    pub model_calls: Difference,
    /// Its restarts.
    pub restarts: u32,
    /// Why it fared so, in one line.
    pub because: String,
}

/// The comparison's answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Verdict {
    /// What decided the winner.
    pub measure: VerdictMeasure,
    /// The lane that wins, or [`BASELINE`] when none beats it; none when nothing completed.
    pub winner: Option<String>,
    /// The answer in one sentence.
    pub headline: String,
    /// The currency of the costs, when priced.
    pub currency: Option<String>,
    /// Each lane, in the report's order.
    pub lanes: Vec<LaneVerdict>,
    /// What else changes the answer (the prompt cache changing which lane is cheapest).
    pub notes: Vec<String>,
}

/// A run's figures the verdict weighs.
struct Figures<'r> {
    name: String,
    run: &'r RunReport,
}

impl Figures<'_> {
    /// Whether the run did the work the baseline did: it completed, no more of its tool calls
    /// failed, and none could not be made (a lane that never shows a tool, and whose calls to it
    /// fail or never happen, is not cheaper for having done less).
    fn did_the_work(&self, baseline: &RunReport) -> bool {
        self.run.status == RunStatus::Completed
            && failed_more_than(self.run, baseline) == 0
            && self.run.counters.calls_not_made == 0
    }

    fn prompt_tokens(&self) -> f64 {
        self.run.counters.prompt_tokens as f64
    }

    fn cost(&self) -> Option<f64> {
        self.run.cost.as_ref().map(|cost| cost.total)
    }

    fn cost_with_cache(&self) -> Option<f64> {
        self.run.cost.as_ref().map(|cost| cost.total_with_cache)
    }
}

impl Verdict {
    /// The verdict of a comparison's `runs` against its all-FULL `baseline` run.
    pub fn of(runs: &[RunReport], baseline: &RunReport) -> Verdict {
        let baseline = Figures { name: BASELINE.to_owned(), run: baseline };
        let lanes: Vec<Figures> = runs.iter().map(|run| Figures { name: run.lane().name().to_owned(), run }).collect();
        let candidates: Vec<&Figures> =
            lanes.iter().chain([&baseline]).filter(|f| f.did_the_work(baseline.run)).collect();
        let priced = !candidates.is_empty() && candidates.iter().all(|f| f.cost().is_some());
        let measure = if priced { VerdictMeasure::CostWithCache } else { VerdictMeasure::PromptTokens };
        let weigh = |f: &Figures| match measure {
            VerdictMeasure::CostWithCache => f.cost_with_cache().unwrap_or(f64::INFINITY),
            VerdictMeasure::PromptTokens => f.prompt_tokens(),
        };
        // The first of the cheapest wins; the baseline, last, wins only when no lane is cheaper.
        let winner = candidates.iter().copied().reduce(|best, f| if weigh(f) < weigh(best) { f } else { best });
        let currency = baseline.run.cost.as_ref().map(|cost| cost.currency.clone());
        let reasons: Vec<Because> = lanes.iter().map(|lane| because(lane.run, baseline.run)).collect();
        let judged: Vec<LaneVerdict> = lanes
            .iter()
            .zip(&reasons)
            .map(|(lane, reason)| {
                let standing = match winner {
                    _ if !lane.did_the_work(baseline.run) => Standing::Failed,
                    Some(best) if std::ptr::eq(best, lane) => Standing::Wins,
                    _ if baseline.did_the_work(baseline.run) && weigh(lane) >= weigh(&baseline) => {
                        Standing::LosesToBaseline
                    }
                    _ => Standing::BeatsBaseline,
                };
                lane_verdict(lane, &baseline, standing, reason)
            })
            .collect();
        let headline = headline(winner.map(|w| w.name.as_str()), &judged, &reasons, currency.as_deref());
        let notes = cache_note(&candidates, currency.as_deref()).into_iter().collect();
        Verdict { measure, winner: winner.map(|w| w.name.clone()), headline, currency, lanes: judged, notes }
    }
}

fn lane_verdict(lane: &Figures, baseline: &Figures, standing: Standing, reason: &Because) -> LaneVerdict {
    let money = |lane: Option<f64>, baseline: Option<f64>| Some(Difference::of(lane?, baseline?));
    let counters = &lane.run.counters;
    LaneVerdict {
        lane: lane.name.clone(),
        standing,
        status: lane.run.status,
        prompt_tokens: Difference::of(lane.prompt_tokens(), baseline.prompt_tokens()),
        cost: money(lane.cost(), baseline.cost()),
        cost_with_cache: money(lane.cost_with_cache(), baseline.cost_with_cache()),
        model_calls: Difference::of(counters.model_calls.into(), baseline.run.counters.model_calls.into()),
        restarts: counters.restarts,
        because: reason.facts.join("; "),
    }
}

/// Why a run fared as it did against the baseline: every fact that cost or saved it, in order, and
/// the one the headline gives when it wins.
struct Because {
    facts: Vec<String>,
    decisive: String,
}

fn because(run: &RunReport, baseline: &RunReport) -> Because {
    let mut facts = Vec::new();
    if run.status != RunStatus::Completed {
        facts.push(format!("it ended with {} after {}", words(run.status.name()), calls(run.counters.model_calls)));
    }
    let failed = failed_more_than(run, baseline);
    if failed > 0 {
        let calls = plural(failed.into(), "tool call", "tool calls");
        let never = match run.counters.tools_never_shown {
            0 => String::new(),
            n => format!(": it never showed the model {}", plural(n.into(), "revealed tool", "revealed tools")),
        };
        facts.push(format!("{calls} failed that succeeded in {BASELINE}{never}"));
    }
    if run.counters.calls_not_made > 0 {
        let calls = plural(run.counters.calls_not_made.into(), "scripted tool call", "scripted tool calls");
        facts.push(format!("{calls} could not be made: the host never offered the tool"));
    }
    let discarded = discarded_model_calls(run);
    if run.counters.restarts > 0 {
        let restarts = plural(run.counters.restarts.into(), "restart", "restarts");
        facts.push(format!("it re-ran {} after {restarts}", calls(discarded)));
    }
    if run.adapter == AdapterKind::AllowedTools {
        // Its events name the callable subset; what it sends is every tool, as the baseline offers.
        facts.push(format!("it sends all {} on every call", plural(first_tool_list(baseline) as u64, "tool", "tools")));
    }
    let reads = run.counters.model_calls.saturating_sub(discarded).saturating_sub(baseline.counters.model_calls);
    if reads > 0 {
        let more = plural(reads.into(), "more model call", "more model calls");
        facts.push(format!("reading summarized sections took {more}, each sending the prompt again"));
    }
    let (run_tokens, baseline_tokens) = (run.counters.prompt_tokens, baseline.counters.prompt_tokens);
    let saving = (run_tokens < baseline_tokens)
        .then(|| format!("the summaries kept {} out of its prompts", tokens(baseline_tokens - run_tokens)));
    facts.extend(saving.clone());
    let cache = run.cost.as_ref().map(|cost| cache_fact(cost.prefix_breaks));
    facts.extend(cache.clone().map(|(fact, _)| fact));
    if run_tokens > baseline_tokens && facts.is_empty() {
        facts.push("the summaries and the disclosure tool took more than the text they hid".to_owned());
    }
    if facts.is_empty() {
        facts.push(format!("it used as many prompt tokens as {BASELINE}"));
    }
    // A priced run whose cache held wins by it; else by what its summaries kept out.
    let held = cache.and_then(|(fact, held)| held.then_some(fact));
    let decisive = held.or(saving).unwrap_or_else(|| facts[0].clone());
    Because { facts, decisive }
}

/// What the prompt cache could do for a priced run, and whether it held across every call.
fn cache_fact(breaks: PrefixBreaks) -> (String, bool) {
    let reasons: Vec<(u32, &str)> = [
        (breaks.tools_changed, "the tools changed"),
        (breaks.system_changed, "the system prompt changed"),
        (breaks.restart, "it restarted"),
    ]
    .into_iter()
    .filter(|(n, _)| *n > 0)
    .collect();
    let total: u32 = reasons.iter().map(|(n, _)| n).sum();
    let fact = match reasons.as_slice() {
        [] => return ("its prompt's start never changed, so the prompt cache held across its calls".to_owned(), true),
        [(_, why)] => format!("the prompt cache broke {} because {why}", plural(total.into(), "time", "times")),
        several => {
            let each: Vec<String> =
                several.iter().map(|(n, why)| format!("{why} {}", plural((*n).into(), "time", "times"))).collect();
            format!("the prompt cache broke {} ({})", plural(total.into(), "time", "times"), each.join(", "))
        }
    };
    (fact, false)
}

/// How many more of `run`'s tool calls failed than of the baseline's.
fn failed_more_than(run: &RunReport, baseline: &RunReport) -> u32 {
    run.counters.failed_tool_calls.saturating_sub(baseline.counters.failed_tool_calls)
}

/// The model calls of attempts a restart abandoned.
fn discarded_model_calls(run: &RunReport) -> u32 {
    let last = run.events.iter().map(|event| event.attempt).max().unwrap_or(1);
    let discarded = run.events.iter().filter(|e| e.attempt < last && matches!(e.kind, EventKind::ModelCall { .. }));
    discarded.count() as u32
}

/// How many tools the run's first model call offered.
fn first_tool_list(run: &RunReport) -> usize {
    run.events
        .iter()
        .find_map(|event| match &event.kind {
            EventKind::ModelCall { tools_offered, .. } => Some(tools_offered.len()),
            _ => None,
        })
        .unwrap_or(0)
}

/// The answer in one sentence: the winner, by how much, and the fact that decided it (`reasons`
/// are the lanes', in their order).
fn headline(winner: Option<&str>, lanes: &[LaneVerdict], reasons: &[Because], currency: Option<&str>) -> String {
    let lanes = lanes.iter().zip(reasons);
    match winner {
        None => "No run completed: there is nothing to weigh.".to_owned(),
        Some(BASELINE) => {
            let closest = lanes
                .filter(|(lane, _)| lane.standing != Standing::Failed)
                .min_by(|(a, _), (b, _)| a.prompt_tokens.change.total_cmp(&b.prompt_tokens.change));
            match closest {
                Some((lane, reason)) => {
                    let against = against_baseline(lane, currency);
                    format!(
                        "No lane beats {BASELINE}: the closest, {}, {against}, because {}.",
                        lane.lane, reason.facts[0]
                    )
                }
                None => format!("No lane did what {BASELINE} did."),
            }
        }
        Some(name) => {
            let (lane, reason) = lanes.into_iter().find(|(lane, _)| lane.lane == name).expect("the winner is a lane");
            format!("{name} wins: it {}, because {}.", against_baseline(lane, currency), reason.decisive)
        }
    }
}

/// "used 36.5 % fewer prompt tokens than all-FULL (1,234 fewer) and cost $0.002100 (12.0 %) less
/// with the prompt cache".
fn against_baseline(lane: &LaneVerdict, currency: Option<&str>) -> String {
    let prompt = &lane.prompt_tokens;
    let mut text = if prompt.change == 0.0 {
        format!("used as many prompt tokens as {BASELINE}")
    } else {
        let fewer = if prompt.change < 0.0 { "fewer" } else { "more" };
        let percent = prompt.percent.map(|p| format!("{:.1} % ", p.abs())).unwrap_or_default();
        let by = grouped(prompt.change.abs() as u64);
        format!("used {percent}{fewer} prompt tokens than {BASELINE} ({by} {fewer})")
    };
    if let (Some(cost), Some(currency)) = (&lane.cost_with_cache, currency) {
        let less = if cost.change < 0.0 { "less" } else { "more" };
        let percent = cost.percent.map(|p| format!(" ({:.1} %)", p.abs())).unwrap_or_default();
        let amount = crate::costs::money_text(cost.change.abs(), currency, false);
        text.push_str(&format!(" and cost {amount}{percent} {less} with the prompt cache"));
    }
    text
}

/// A note when the prompt cache changes which run is cheapest.
fn cache_note(candidates: &[&Figures], currency: Option<&str>) -> Option<String> {
    let currency = currency?;
    let (cached, cached_cost) = cheapest(candidates, |f| f.cost_with_cache())?;
    let (plain, plain_cost) = cheapest(candidates, |f| f.cost())?;
    let money = |amount| crate::costs::money_text(amount, currency, false);
    (cached != plain).then(|| {
        format!(
            "With the prompt cache {cached} is cheapest ({}); without it, {plain} ({}).",
            money(cached_cost),
            money(plain_cost)
        )
    })
}

/// The name and cost of the first of the cheapest of `candidates` by `cost`.
fn cheapest(candidates: &[&Figures], cost: impl Fn(&Figures) -> Option<f64>) -> Option<(String, f64)> {
    candidates.iter().filter_map(|f| Some((f.name.clone(), cost(f)?))).reduce(|a, b| if b.1 < a.1 { b } else { a })
}

fn words(name: &str) -> String {
    name.replace('_', " ")
}

fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", grouped(n), if n == 1 { one } else { many })
}

fn calls(n: u32) -> String {
    plural(n.into(), "model call", "model calls")
}

fn tokens(n: u64) -> String {
    plural(n, "prompt token", "prompt tokens")
}

/// `n` with a comma between thousands: 12,345.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(digit);
    }
    out
}
