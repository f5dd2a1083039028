//! Studies (spec 14): one comparison repeated, scripted or live. The lanes take turns at running
//! first, a live conversation's prompts each start with a nonce of their own (so none is served
//! from a cache another warmed), every repetition's lanes are kept in the history as it finishes,
//! and the runs are told as the engine's `unfold.study`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use unfold_engine::compare::CompareProgress;
use unfold_engine::study::{rotated, CacheFairness, Study, StudyReport, StudyRun, StudyStop};
use unfold_engine::EventKind;

use crate::comparisons::{ComparisonModel, ComparisonRequest, Comparisons, ProgressListener};
use crate::error::{AppError, AppResult, ErrorCode};
use crate::lock;

/// The most repetitions a study may ask for.
pub const MAX_REPEAT: u32 = 10_000;

/// A study to run.
#[derive(Debug, Clone)]
pub struct StudyRequest {
    /// The comparison each repetition runs: its lanes in the order the first repetition runs them.
    pub comparison: ComparisonRequest,
    /// How many times.
    pub repeat: u32,
    /// Whether the first lane runs once more per repetition, as its own control.
    pub aa: bool,
    /// The seed of the bootstrap intervals.
    pub seed: u64,
    /// The most a live study may spend, in US dollars: it stops before a repetition that would
    /// pass it by the estimate.
    pub max_cost_usd: Option<f64>,
}

/// A finished study.
#[derive(Debug)]
pub struct FinishedStudy {
    /// The report.
    pub report: StudyReport,
    /// Why the history did not keep a repetition, for each it did not (the study stands).
    pub not_kept: Vec<AppError>,
    /// Calls of the scenario that will fail, found before the first repetition.
    pub scenario_warnings: Vec<String>,
}

/// Runs `request` on `comparisons`, telling `finished` the number of each repetition as it ends.
pub async fn run_study(
    comparisons: &Comparisons,
    request: StudyRequest,
    finished: &(dyn Fn(u32) + Sync),
) -> AppResult<FinishedStudy> {
    if !(1..=MAX_REPEAT).contains(&request.repeat) {
        let message = format!("a study repeats 1 to {MAX_REPEAT} times, not {}", request.repeat);
        return Err(AppError::new(ErrorCode::InvalidRequest, message));
    }
    let live = matches!(request.comparison.model, ComparisonModel::Live { .. });
    let budget = match request.max_cost_usd {
        Some(max) => Some(Budget::of(comparisons, &request, max).await?),
        None => None,
    };
    let (mut spent, mut stopped) = (0.0, None);
    // Another study's conversations must not warm this one's: the nonce names this study.
    let study_id = format!("unfold study {:x}", unfold_stores::run_history::now_ms());
    let lanes = request.comparison.lanes.clone();
    let mut runs: Vec<(String, Vec<StudyRun>)> = Vec::new();
    let (mut order, mut control, mut not_kept, mut warnings) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let (mut template, mut scenario) = (String::new(), String::new());
    for repetition in 1..=request.repeat {
        if let Some(stop) = budget.as_ref().and_then(|budget| budget.stops(spent, repetition - 1)) {
            stopped = Some(stop);
            break;
        }
        let this_order = rotated(&lanes, repetition);
        let nonce = live.then(|| format!("{study_id} repetition {repetition}"));
        let ran = repeat_once(comparisons, &request.comparison, this_order.clone(), nonce.as_deref()).await?;
        if repetition == 1 {
            (template, scenario, warnings) = (ran.template, ran.scenario, ran.scenario_warnings);
        }
        not_kept.extend(ran.not_kept);
        for (lane, run) in ran.runs {
            let run = StudyRun { repetition, ..run };
            spent += run.cost_usd.unwrap_or(0.0);
            match runs.iter_mut().find(|(name, _)| *name == lane) {
                Some((_, kept)) => kept.push(run),
                None => runs.push((lane, vec![run])),
            }
        }
        if request.aa {
            let first = vec![lanes[0].clone()];
            let nonce = live.then(|| format!("{study_id} repetition {repetition} A/A"));
            let again = repeat_once(comparisons, &request.comparison, first, nonce.as_deref()).await?;
            not_kept.extend(again.not_kept);
            spent += again.runs.iter().map(|(_, run)| run.cost_usd.unwrap_or(0.0)).sum::<f64>();
            control.extend(again.runs.into_iter().map(|(_, run)| StudyRun { repetition, ..run }));
        }
        order.push(this_order);
        finished(repetition);
    }
    // The lanes in the order asked, whatever order the first repetition ran them in.
    runs.sort_by_key(|(lane, _)| lanes.iter().position(|asked| asked == lane));
    let study = Study {
        template,
        scenario,
        repeat: request.repeat,
        cache_fairness: if live { CacheFairness::Nonce } else { CacheFairness::Scripted },
        seed: request.seed,
        order,
        lanes: runs,
        aa: request.aa.then_some(control),
        stopped,
    };
    Ok(FinishedStudy { report: study.report(), not_kept, scenario_warnings: warnings })
}

/// What a live study may spend, and what its first repetition should cost: the scenario's script
/// in the same lanes, priced as the live model (without the cache, the most it could cost).
struct Budget {
    max_usd: f64,
    first_usd: f64,
}

impl Budget {
    async fn of(comparisons: &Comparisons, request: &StudyRequest, max_usd: f64) -> AppResult<Budget> {
        let ComparisonModel::Live { profile } = &request.comparison.model else {
            let message = "--max-cost is for a live study: the scripted model costs nothing";
            return Err(AppError::new(ErrorCode::InvalidRequest, message));
        };
        if !(max_usd.is_finite() && max_usd > 0.0) {
            return Err(AppError::new(ErrorCode::InvalidRequest, format!("--max-cost must be above 0, not {max_usd}")));
        }
        let model = comparisons.context().profiles.get(profile)?.model;
        // A model with no price is refused here, before anything is paid for.
        comparisons.context().prices.pricing_as(&model)?;
        let scripted = ComparisonRequest {
            model: ComparisonModel::Scripted { price_as: Some(model) },
            outputs: crate::comparisons::ComparisonOutputs { history: false, ..Default::default() },
            run_id: None,
            lanes: request.comparison.lanes.clone(),
            ..request.comparison.clone()
        };
        let estimate = comparisons.run(scripted, Arc::new(|_| {})).await?;
        let per_lane: Vec<f64> =
            estimate.report.runs.iter().map(|run| run.cost.as_ref().map_or(0.0, |c| c.total)).collect();
        // The A/A control runs the first lane again.
        let control = if request.aa { per_lane.first().copied().unwrap_or(0.0) } else { 0.0 };
        Ok(Budget { max_usd, first_usd: per_lane.iter().sum::<f64>() + control })
    }

    /// Why the study stops before its next repetition, having spent `spent_usd` on `done`: the
    /// next would cost the mean of those before it (the estimate, before any ran).
    fn stops(&self, spent_usd: f64, done: u32) -> Option<StudyStop> {
        let next_usd = if done == 0 { self.first_usd } else { spent_usd / f64::from(done) };
        (spent_usd + next_usd > self.max_usd).then(|| StudyStop {
            reason: "max_cost".to_owned(),
            after: done,
            spent_usd,
            next_usd,
            max_cost_usd: self.max_usd,
        })
    }
}

/// What one repetition left: each lane's run as the study keeps it.
struct Repetition {
    template: String,
    scenario: String,
    runs: Vec<(String, StudyRun)>,
    not_kept: Option<AppError>,
    scenario_warnings: Vec<String>,
}

/// Runs `base` once with `lanes`, timing each lane's conversation.
async fn repeat_once(
    comparisons: &Comparisons,
    base: &ComparisonRequest,
    lanes: Vec<String>,
    nonce: Option<&str>,
) -> AppResult<Repetition> {
    let request = ComparisonRequest { lanes, ..base.clone() };
    let clock: Arc<Mutex<LaneClock>> = Arc::default();
    let listener: ProgressListener = {
        let clock = Arc::clone(&clock);
        Arc::new(move |progress| lock(&clock).saw(&progress))
    };
    let finished = comparisons.run_nonced(request, listener, nonce).await?;
    let clock = lock(&clock);
    let report = finished.report;
    let runs = report
        .runs
        .iter()
        .map(|run| {
            let lane = run.lane().name().to_owned();
            let wall_ms = clock.took.get(&lane).copied().unwrap_or(0);
            (lane, StudyRun::of(0, run, wall_ms))
        })
        .collect();
    Ok(Repetition {
        template: report.template,
        scenario: report.scenario,
        runs,
        not_kept: finished.not_kept,
        scenario_warnings: finished.scenario_warnings,
    })
}

/// How long each lane's conversation took, from its start to its last event.
#[derive(Default)]
struct LaneClock {
    started: HashMap<String, Instant>,
    took: HashMap<String, u64>,
}

impl LaneClock {
    fn saw(&mut self, progress: &CompareProgress) {
        match progress {
            CompareProgress::RunStarted { lane } => {
                self.started.insert(lane.name().to_owned(), Instant::now());
            }
            CompareProgress::Event { lane, event } if matches!(event.kind, EventKind::RunCompleted { .. }) => {
                if let Some(started) = self.started.get(lane.name()) {
                    self.took.insert(lane.name().to_owned(), started.elapsed().as_millis() as u64);
                }
            }
            _ => {}
        }
    }
}
