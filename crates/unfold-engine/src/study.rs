//! A study (spec 14): one comparison repeated, each repetition's lanes run in a rotated order,
//! told as statistics. Per lane: each metric's summary, the success rate with its Wilson
//! interval, pass@k and pass^k. Per pair of lanes: each metric's paired difference with a seeded
//! bootstrap interval, McNemar's exact test on success, and a verdict in words; with an A/A
//! control, a difference no larger than the control's is called noise.
//!
//! Only what the statistics need of a run is kept ([`StudyRun`]), so a study's memory grows with
//! its repetitions by a few numbers each, never by their events.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use unfold_statistics::{mcnemar_exact, paired_difference, pairs_to_detect, pass_at_k, pass_hat_k, wilson95, Summary};

use crate::events::{Counters, EventKind, RunReport, RunStatus};

/// The metrics a study reports, in the order it reports them.
pub const METRICS: [&str; 9] = [
    "completed",
    "prompt_tokens",
    "completion_tokens",
    "cached_tokens",
    "cost_usd",
    "model_calls",
    "restarts",
    "failed_tool_calls",
    "wall_ms",
];

/// The k of pass@k and pass^k, those not above the repetitions.
const KS: [u64; 8] = [1, 2, 3, 5, 10, 20, 50, 100];

/// The difference in success rate the power estimate asks about: ten points.
const DETECTABLE: f64 = 0.10;

/// How a study kept one lane's cache from serving another's prompts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "snake_case")]
pub enum CacheFairness {
    /// Each conversation's prompts start with a nonce of their own.
    Nonce,
    /// A warm-up call before each repetition.
    Warmup,
    /// The scripted model: no cache is warmed, nothing to make fair.
    Scripted,
}

/// What a study keeps of one run of a lane.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct StudyRun {
    /// The repetition, from 1; the runs of one repetition are a pair.
    pub repetition: u32,
    /// How it ended.
    pub status: RunStatus,
    /// Its counters.
    pub counters: Counters,
    /// What it cost, when priced (with the cache's prices when the model has them).
    pub cost_usd: Option<f64>,
    /// The prompt tokens read from the cache: as the provider measured them, else as estimated.
    #[cfg_attr(feature = "specta", specta(type = u32))]
    pub cached_tokens: u64,
    /// How long the conversation took.
    #[cfg_attr(feature = "specta", specta(type = u32))]
    pub wall_ms: u64,
}

impl StudyRun {
    /// What the study keeps of `run`, repetition `repetition`, which took `wall_ms`.
    pub fn of(repetition: u32, run: &RunReport, wall_ms: u64) -> StudyRun {
        let measured: Option<u64> = run
            .events
            .iter()
            .filter_map(|event| match &event.kind {
                EventKind::ModelCall { measured_cache, .. } => measured_cache.map(|cache| cache.read_tokens),
                _ => None,
            })
            .reduce(|sum, read| sum + read);
        let estimated = run.cost.as_ref().map_or(0, |cost| cost.cacheable_prompt_tokens);
        StudyRun {
            repetition,
            status: run.status,
            counters: run.counters,
            cost_usd: run.cost.as_ref().map(|cost| cost.total_with_cache),
            cached_tokens: measured.unwrap_or(estimated),
            wall_ms,
        }
    }

    /// Whether the run succeeded: it completed.
    pub fn succeeded(&self) -> bool {
        self.status == RunStatus::Completed
    }

    /// The value of `metric` (one of [`METRICS`]); none for a cost that was not priced.
    pub fn metric(&self, metric: &str) -> Option<f64> {
        let c = &self.counters;
        Some(match metric {
            "completed" => f64::from(u8::from(self.succeeded())),
            "prompt_tokens" => c.prompt_tokens as f64,
            "completion_tokens" => c.completion_tokens as f64,
            "cached_tokens" => self.cached_tokens as f64,
            "cost_usd" => self.cost_usd?,
            "model_calls" => f64::from(c.model_calls),
            "restarts" => f64::from(c.restarts),
            "failed_tool_calls" => f64::from(c.failed_tool_calls),
            "wall_ms" => self.wall_ms as f64,
            _ => return None,
        })
    }
}

/// The lanes of repetition `repetition` (from 1): `lanes` rotated by one place per repetition,
/// so each lane runs first as often as the others.
pub fn rotated(lanes: &[String], repetition: u32) -> Vec<String> {
    let mut order = lanes.to_vec();
    if !order.is_empty() {
        let by = (repetition.saturating_sub(1) as usize) % order.len();
        order.rotate_left(by);
    }
    order
}

/// What a study is and how it ran, the same in its runs and in its report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct StudyOf {
    /// The template's key.
    pub template: String,
    /// The scenario's name.
    pub scenario: String,
    /// The repetitions asked for.
    pub repeat: u32,
    /// How the cache was made fair.
    pub cache_fairness: CacheFairness,
    /// The seed of every bootstrap interval.
    #[cfg_attr(feature = "specta", specta(type = u32))]
    pub seed: u64,
    /// The order the lanes ran in, per repetition.
    pub order: Vec<Vec<String>>,
}

/// A study's runs, before they are told as statistics.
#[derive(Debug, Clone, PartialEq)]
pub struct Study {
    /// What it is.
    pub of: StudyOf,
    /// Each lane's runs, in the order the lanes were asked for.
    pub lanes: Vec<(String, Vec<StudyRun>)>,
    /// The first lane's runs once more, as its own control (`--aa`).
    pub aa: Option<Vec<StudyRun>>,
    /// Why it stopped before its last repetition, if it did.
    pub stopped: Option<StudyStop>,
}

/// Why a study stopped before its last repetition.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct StudyStop {
    /// What stopped it.
    pub reason: StopReason,
    /// The repetitions that ran.
    pub after: u32,
    /// What they cost.
    pub spent_usd: f64,
    /// What the conversations of repetitions left out cost, when the budget stopped one under
    /// way: spent all the same.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub left_out_usd: Option<f64>,
    /// What the next one was estimated to cost, when the budget stopped it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_usd: Option<f64>,
    /// The most the study could spend, when the budget stopped it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_cost_usd: Option<f64>,
}

/// What stopped a study before its last repetition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// The next repetition would have spent past `--max-cost`.
    MaxCost,
    /// The user cancelled it: the repetitions under way were left out, and a resumed study runs
    /// them.
    Cancelled,
}

/// `unfold compare … --repeat N --json` (spec 14).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct StudyReport {
    /// Always 1.
    #[cfg_attr(feature = "specta", specta(type = u32))]
    pub schema_version: u64,
    /// Always `unfold.study`.
    pub kind: String,
    /// What it is.
    #[serde(flatten)]
    pub of: StudyOf,
    /// Each lane, its runs and their statistics.
    pub lanes: Vec<StudyLane>,
    /// Each later lane against each earlier one.
    pub pairs: Vec<StudyPair>,
    /// The first lane against itself run again, when asked: the noise any difference is weighed
    /// against.
    pub aa: Option<StudyPair>,
    /// Why it stopped before its last repetition, if it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stopped: Option<StudyStop>,
}

/// One lane of a study.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct StudyLane {
    /// The lane's name.
    pub lane: String,
    /// Its runs, by repetition.
    pub runs: Vec<StudyRun>,
    /// Their statistics.
    pub summary: LaneSummary,
}

/// The statistics of one lane's runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct LaneSummary {
    /// How many runs completed.
    pub success: SuccessRate,
    /// Each metric's summary; a metric no run has (an unpriced cost) is left out.
    pub metrics: IndexMap<String, MetricSummary>,
    /// pass@k by k.
    pub pass_at_k: IndexMap<String, f64>,
    /// pass^k by k.
    pub pass_hat_k: IndexMap<String, f64>,
}

/// A success rate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct SuccessRate {
    /// The runs that completed.
    #[cfg_attr(feature = "specta", specta(type = u32))]
    pub count: u64,
    /// The runs.
    #[cfg_attr(feature = "specta", specta(type = u32))]
    pub n: u64,
    /// Its Wilson 95 % interval; none without runs.
    pub wilson95: Option<[f64; 2]>,
}

/// One metric over a lane's runs.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct MetricSummary {
    /// The mean.
    pub mean: f64,
    /// The median.
    pub median: f64,
    /// The sample standard deviation.
    pub sd: f64,
    /// The least.
    pub min: f64,
    /// The greatest.
    pub max: f64,
}

/// Lane `a` against lane `b`, over the repetitions both ran.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct StudyPair {
    /// The later lane.
    pub a: String,
    /// The lane it is set against.
    pub b: String,
    /// Each metric's paired difference, a − b.
    pub metrics: IndexMap<String, MetricDifference>,
    /// Success, pair by pair.
    pub success: PairedSuccess,
    /// What the pair shows, in words.
    pub verdict: String,
}

/// A metric's paired difference.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct MetricDifference {
    /// The mean of a − b.
    pub mean_diff: f64,
    /// mean(a) / mean(b) − 1; none when b's mean is 0.
    pub relative: Option<f64>,
    /// The 95 % bootstrap interval of `mean_diff`.
    pub ci95: [f64; 2],
    /// The 95 % bootstrap interval of `relative`.
    pub relative_ci95: Option<[f64; 2]>,
}

/// Success compared pair by pair.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct PairedSuccess {
    /// The pairs where only a succeeded, and where only b did.
    #[cfg_attr(feature = "specta", specta(type = [u32; 2]))]
    pub discordant: [u64; 2],
    /// McNemar's exact two-sided p-value.
    pub mcnemar_p: f64,
}

impl Study {
    /// The study told as statistics.
    pub fn report(self) -> StudyReport {
        let seed = self.of.seed;
        let lanes: Vec<StudyLane> = self
            .lanes
            .into_iter()
            .map(|(lane, runs)| StudyLane { summary: LaneSummary::of(&runs), lane, runs })
            .collect();
        let aa = match (self.aa, lanes.first()) {
            (Some(control), Some(first)) => {
                let again = StudyLane {
                    lane: format!("{} (A/A)", first.lane),
                    summary: LaneSummary::of(&control),
                    runs: control,
                };
                Some(StudyPair::of(&again, first, seed, None))
            }
            _ => None,
        };
        let mut pairs = Vec::new();
        for (later, a) in lanes.iter().enumerate().skip(1) {
            for b in &lanes[..later] {
                pairs.push(StudyPair::of(a, b, seed.wrapping_add(pairs.len() as u64 + 1), aa.as_ref()));
            }
        }
        StudyReport {
            schema_version: 1,
            kind: "unfold.study".to_owned(),
            of: self.of,
            lanes,
            pairs,
            aa,
            stopped: self.stopped,
        }
    }
}

impl LaneSummary {
    fn of(runs: &[StudyRun]) -> LaneSummary {
        let n = runs.len() as u64;
        let count = runs.iter().filter(|run| run.succeeded()).count() as u64;
        let mut metrics = IndexMap::new();
        for metric in METRICS {
            let values: Vec<f64> = runs.iter().filter_map(|run| run.metric(metric)).collect();
            // A cost only some runs have would summarize another set of runs than the rest.
            if values.len() == runs.len() {
                if let Some(s) = Summary::of(&values) {
                    let summary = MetricSummary { mean: s.mean, median: s.median, sd: s.sd, min: s.min, max: s.max };
                    metrics.insert(metric.to_owned(), summary);
                }
            }
        }
        let ks = KS.into_iter().filter(|k| *k <= n);
        LaneSummary {
            success: SuccessRate { count, n, wilson95: wilson95(count, n).map(|(lo, hi)| [lo, hi]) },
            metrics,
            pass_at_k: ks.clone().filter_map(|k| Some((k.to_string(), pass_at_k(n, count, k)?))).collect(),
            pass_hat_k: ks.filter_map(|k| Some((k.to_string(), pass_hat_k(n, count, k)?))).collect(),
        }
    }
}

impl StudyPair {
    /// `a` against `b` over the repetitions both ran, each bootstrap seeded from `seed`; the
    /// verdict weighs the differences against the A/A control `aa` when there is one.
    fn of(a: &StudyLane, b: &StudyLane, seed: u64, aa: Option<&StudyPair>) -> StudyPair {
        let paired: Vec<(&StudyRun, &StudyRun)> = a
            .runs
            .iter()
            .filter_map(|run| Some((run, b.runs.iter().find(|other| other.repetition == run.repetition)?)))
            .collect();
        let mut metrics = IndexMap::new();
        for (index, metric) in METRICS.into_iter().enumerate() {
            let values: Option<Vec<(f64, f64)>> =
                paired.iter().map(|(x, y)| Some((x.metric(metric)?, y.metric(metric)?))).collect();
            let Some((xs, ys)) = values.map(|pairs| pairs.into_iter().unzip::<_, _, Vec<f64>, Vec<f64>>()) else {
                continue;
            };
            if let Some(d) = paired_difference(&xs, &ys, seed.wrapping_mul(31).wrapping_add(index as u64)) {
                let difference = MetricDifference {
                    mean_diff: d.mean_diff,
                    relative: d.relative,
                    ci95: [d.ci95.0, d.ci95.1],
                    relative_ci95: d.relative_ci95.map(|(lo, hi)| [lo, hi]),
                };
                metrics.insert(metric.to_owned(), difference);
            }
        }
        let only = |first: bool| {
            paired
                .iter()
                .filter(|(x, y)| if first { x.succeeded() && !y.succeeded() } else { y.succeeded() && !x.succeeded() })
                .count() as u64
        };
        let discordant = [only(true), only(false)];
        let success = PairedSuccess { discordant, mcnemar_p: mcnemar_exact(discordant[0], discordant[1]) };
        let mut pair = StudyPair { a: a.lane.clone(), b: b.lane.clone(), metrics, success, verdict: String::new() };
        pair.verdict = pair.words(paired.len() as u64, (&a.summary, &b.summary), aa);
        pair
    }

    /// "restart uses 12.4 % more prompt tokens than dynamic [8.1 %, 16.9 %]; success 18/20
    /// against 17/20: no difference shown; about 140 pairs would detect 10 points".
    fn words(&self, pairs: u64, (a, b): (&LaneSummary, &LaneSummary), aa: Option<&StudyPair>) -> String {
        let (metric, what) = if self.metrics.contains_key("cost_usd") {
            ("cost_usd", None)
        } else {
            ("prompt_tokens", Some("prompt tokens"))
        };
        let mut said = Vec::new();
        if let Some(difference) = self.metrics.get(metric) {
            said.push(self.metric_words(difference, what, aa.and_then(|aa| aa.metrics.get(metric))));
        }
        let (ca, cb) = (a.success.count, b.success.count);
        let success = format!("success {ca}/{} against {cb}/{}", a.success.n, b.success.n);
        let every_run = ca == a.success.n && cb == b.success.n;
        said.push(if every_run && self.success.discordant == [0, 0] {
            format!("both completed every run ({ca}/{})", a.success.n)
        } else if self.success.mcnemar_p < 0.05 {
            format!("{success}: a difference (McNemar p = {:.3})", self.success.mcnemar_p)
        } else {
            let discordance =
                if pairs == 0 { 0.0 } else { (self.success.discordant.iter().sum::<u64>()) as f64 / pairs as f64 };
            match pairs_to_detect(discordance, DETECTABLE) {
                Some(needed) => format!("{success}: no difference shown; about {needed} pairs would detect 10 points"),
                None => format!("{success}: no difference shown"),
            }
        });
        said.join("; ")
    }

    fn metric_words(
        &self,
        difference: &MetricDifference,
        what: Option<&str>,
        noise: Option<&MetricDifference>,
    ) -> String {
        let (a, b) = (&self.a, &self.b);
        let (Some(relative), Some([lo, hi])) = (difference.relative, difference.relative_ci95) else {
            let amount = what.unwrap_or("cost");
            return format!(
                "{a} against {b}: {:+.1} {amount} per run [{:+.1}, {:+.1}]",
                difference.mean_diff, difference.ci95[0], difference.ci95[1]
            );
        };
        let interval = format!("[{}, {}]", percent(lo), percent(hi));
        let within_noise = noise.and_then(|n| n.relative_ci95).is_some_and(|[nlo, nhi]| lo <= nhi && nlo <= hi);
        if lo <= 0.0 && 0.0 <= hi {
            let about = what.map_or_else(|| "cost".to_owned(), str::to_owned);
            return format!("{a} and {b}: no difference in {about} shown ({} {interval})", percent(relative));
        }
        let (more, size) = if relative > 0.0 { ("more", relative) } else { ("less", -relative) };
        let shown = match what {
            Some(what) => format!("{a} uses {:.1} % {more} {what} than {b} {interval}", size * 100.0),
            None => format!("{a} costs {:.1} % {more} than {b} {interval}", size * 100.0),
        };
        if within_noise {
            format!("{shown}, no more than the A/A noise")
        } else {
            shown
        }
    }
}

/// "+12.4 %", "−3.0 %".
fn percent(share: f64) -> String {
    let value = share * 100.0;
    if value < 0.0 {
        format!("\u{2212}{:.1} %", -value)
    } else {
        format!("+{value:.1} %")
    }
}
