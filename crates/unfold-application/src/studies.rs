//! Studies (spec 14): one comparison repeated, scripted or live. The lanes take turns at running
//! first, a live conversation's prompts each start with a nonce of their own (so none is served
//! from a cache another warmed), every repetition's lanes are kept in the history as it finishes,
//! and the runs are told as the engine's `unfold.study`.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use unfold_engine::compare::CompareProgress;
use unfold_engine::study::{rotated, CacheFairness, Study, StudyOf, StudyReport, StudyRun, StudyStop};
use unfold_engine::EventKind;

use crate::comparisons::{ComparisonModel, ComparisonRequest, Comparisons, ProgressListener, Repetition, Resolved};
use crate::error::{AppError, AppResult, ErrorCode};
use crate::lock;
use crate::study_journal::{self, JournalEntry, JournalHead, StudyJournal};
use futures_util::stream::{FuturesUnordered, StreamExt};
use unfold_live::shared_pace::SharedPace;
use unfold_stores::stable_hash::stable_hash;

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
    /// The share of the repetitions to run, `[i, n]` (`--shard i/n`): those r with
    /// (r − 1) mod n = i − 1; none: all of them.
    pub shard: Option<[u32; 2]>,
    /// How many repetitions run at once (at least 1); a live model's requests share one pace.
    pub jobs: u32,
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

/// Where a study is kept as it runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeptStudy {
    /// Nowhere: an interrupted study starts again.
    Nowhere,
    /// In this new file.
    New(PathBuf),
    /// In this file, which holds a study begun before: only the repetitions it lacks run.
    Resumed(PathBuf),
}

/// Runs `request` on `comparisons`, kept as `kept` says, telling `finished` the number of each
/// repetition as it ends.
pub async fn run_study(
    comparisons: &Comparisons,
    request: StudyRequest,
    kept: KeptStudy,
    finished: &(dyn Fn(u32) + Sync),
) -> AppResult<FinishedStudy> {
    if !(1..=MAX_REPEAT).contains(&request.repeat) {
        let message = format!("a study repeats 1 to {MAX_REPEAT} times, not {}", request.repeat);
        return Err(AppError::new(ErrorCode::InvalidRequest, message));
    }
    if let Some([i, n]) = request.shard {
        if !(1..=n).contains(&i) {
            return Err(AppError::new(ErrorCode::InvalidRequest, format!("there is no shard {i} of {n}")));
        }
        if kept == KeptStudy::Nowhere {
            let message = "a shard is a partial study to merge: name its file with --study-file";
            return Err(AppError::new(ErrorCode::InvalidRequest, message));
        }
    }
    let live = matches!(request.comparison.model, ComparisonModel::Live { .. });
    // Read once: every repetition runs the documents as they were when the study began.
    let documents = comparisons.documents(&request.comparison)?;
    let (template, scenario) = (documents.template(), documents.scenario());
    // Another study's conversations must not warm this one's: the nonce names this study.
    let asked = JournalHead {
        kind: "unfold.study.partial".to_owned(),
        schema_version: 1,
        study_id: format!("unfold study {:x}", unfold_stores::run_history::now_ms()),
        template: template.key.clone(),
        scenario: scenario.name.clone(),
        template_hash: unfold_stores::run_history::template_hash(template),
        scenario_hash: format!("{:016x}", stable_hash(scenario.to_json().as_bytes())),
        lanes: request.comparison.lanes.clone(),
        model: request.comparison.model.clone(),
        repeat: request.repeat,
        aa: request.aa,
        seed: request.seed,
        shard: request.shard,
    };
    let mut state = StudyState::default();
    let (mut journal, study_id) = match kept {
        KeptStudy::Nowhere => (None, asked.study_id.clone()),
        KeptStudy::New(path) => (Some(StudyJournal::create(&path, &asked)?), asked.study_id.clone()),
        KeptStudy::Resumed(path) => {
            let (journal, head, entries) = StudyJournal::resume(&path)?;
            if let Some(difference) = study_journal::difference(&head, &asked) {
                let message = format!("{} is another study: {difference}", path.display());
                return Err(AppError::new(ErrorCode::InvalidRequest, message));
            }
            entries.into_iter().for_each(|entry| state.absorb(entry));
            (Some(journal), head.study_id)
        }
    };
    let budget = match request.max_cost_usd {
        Some(max) => Some(Budget::of(comparisons, &request, max).await?),
        None => None,
    };
    let context = RepetitionContext {
        comparisons,
        request: &request,
        documents: &documents,
        study_id: &study_id,
        live,
        pace: live.then(|| Arc::new(SharedPace::default())),
    };
    let (mut not_kept, mut warnings, mut stopped) = (Vec::new(), Vec::new(), None);
    let in_shard = |r: &u32| request.shard.is_none_or(|[i, n]| (r - 1) % n == i - 1);
    let left: Vec<u32> = (1..=request.repeat).filter(|r| in_shard(r) && !state.done.contains(r)).collect();
    let mut left = left.into_iter();
    let mut running = FuturesUnordered::new();
    loop {
        // Up to `jobs` repetitions at once, each started only if the budget allows it with those
        // under way counted at the estimate.
        while running.len() < request.jobs.max(1) as usize && stopped.is_none() {
            let Some(repetition) = left.next() else { break };
            let started = (state.done.len() + running.len()) as u32;
            match budget.as_ref().and_then(|budget| budget.stops(state.spent, state.done.len() as u32, started)) {
                Some(stop) => stopped = Some(stop),
                None => running.push(context.run(repetition)),
            }
        }
        let Some(ran) = running.next().await else { break };
        let (entry, its_not_kept, its_warnings) = ran?;
        (warnings, not_kept) = (its_warnings, [not_kept, its_not_kept].concat());
        if let Some(journal) = &mut journal {
            journal.append(&entry)?;
        }
        let repetition = entry.repetition;
        state.absorb(entry);
        finished(repetition);
    }
    let report = state.into_study(&asked, stopped).report();
    Ok(FinishedStudy { report, not_kept, scenario_warnings: warnings })
}

/// The study the partial studies in `files` make together (`unfold study merge`): the report one
/// machine would have written. They must be shards of one study, each once, with every shard
/// there, and no repetition twice.
pub fn merge(files: &[PathBuf]) -> AppResult<StudyReport> {
    let refuse = |message: String| Err(AppError::new(ErrorCode::InvalidRequest, message));
    let mut parts = Vec::new();
    for file in files {
        let (head, entries) = study_journal::read(file)?;
        parts.push((file, head, entries));
    }
    let Some((first_file, first, _)) = parts.first() else { return refuse("name the partial studies to merge".into()) };
    // Shards of one study: alike but for their own name and share.
    let whole = |head: &JournalHead| JournalHead { study_id: String::new(), shard: None, ..head.clone() };
    let mut shards = BTreeSet::new();
    for (file, head, _) in &parts {
        if let Some(difference) = study_journal::difference(&whole(first), &whole(head)) {
            return refuse(format!(
                "{} is not a shard of the study in {}: {difference}",
                file.display(),
                first_file.display()
            ));
        }
        let (Some([i, n]), Some([_, first_n])) = (head.shard, first.shard) else {
            return refuse(format!(
                "{} holds {}: only shards merge",
                file.display(),
                study_journal::shard_words(head.shard)
            ));
        };
        if n != first_n || !shards.insert(i) {
            return refuse(format!(
                "{} is {} again, or of another split",
                file.display(),
                study_journal::shard_words(head.shard)
            ));
        }
    }
    let n = first.shard.map_or(1, |[_, n]| n);
    if let Some(missing) = (1..=n).find(|i| !shards.contains(i)) {
        return refuse(format!("shard {missing}/{n} is missing"));
    }
    let mut entries: Vec<JournalEntry> = parts.iter().flat_map(|(_, _, entries)| entries.iter().cloned()).collect();
    entries.sort_by_key(|entry| entry.repetition);
    if let Some(twice) = entries.windows(2).find(|pair| pair[0].repetition == pair[1].repetition) {
        return refuse(format!("repetition {} is in two of the files", twice[0].repetition));
    }
    let mut state = StudyState::default();
    entries.into_iter().for_each(|entry| state.absorb(entry));
    Ok(state.into_study(&whole(first), None).report())
}

/// What every repetition of a study shares.
struct RepetitionContext<'a> {
    comparisons: &'a Comparisons,
    request: &'a StudyRequest,
    documents: &'a Resolved,
    study_id: &'a str,
    live: bool,
    /// The live model's pace, shared by the repetitions under way.
    pace: Option<Arc<SharedPace>>,
}

impl RepetitionContext<'_> {
    /// Runs repetition `repetition` (and its A/A control): the entry to keep, why the history
    /// kept none of it if it did not, and the scenario's warnings.
    async fn run(&self, repetition: u32) -> AppResult<(JournalEntry, Vec<AppError>, Vec<String>)> {
        let lanes = &self.request.comparison.lanes;
        let order = rotated(lanes, repetition);
        let nonce = self.live.then(|| format!("{} repetition {repetition}", self.study_id));
        let ran = self.once(order.clone(), nonce.as_deref()).await?;
        let mut not_kept: Vec<AppError> = ran.not_kept.into_iter().collect();
        let control = if self.request.aa {
            let nonce = self.live.then(|| format!("{} repetition {repetition} A/A", self.study_id));
            let again = self.once(vec![lanes[0].clone()], nonce.as_deref()).await?;
            not_kept.extend(again.not_kept);
            again.runs.into_iter().next().map(|(_, run)| run)
        } else {
            None
        };
        Ok((JournalEntry { repetition, order, runs: ran.runs, control }, not_kept, ran.scenario_warnings))
    }

    async fn once(&self, lanes: Vec<String>, nonce: Option<&str>) -> AppResult<RepetitionRuns> {
        let options =
            Repetition { nonce, documents: Some(self.documents), no_baseline: true, pace: self.pace.as_ref() };
        repeat_once(self.comparisons, &self.request.comparison, lanes, options).await
    }
}

/// The repetitions a study has finished, told as it keeps them.
#[derive(Default)]
struct StudyState {
    done: BTreeSet<u32>,
    /// By repetition: repetitions run at once end in any order.
    order: BTreeMap<u32, Vec<String>>,
    runs: HashMap<String, Vec<StudyRun>>,
    control: Vec<StudyRun>,
    spent: f64,
}

impl StudyState {
    /// The study these repetitions make, as `head` says it is.
    fn into_study(mut self, head: &JournalHead, stopped: Option<StudyStop>) -> Study {
        let live = matches!(head.model, ComparisonModel::Live { .. });
        let of = StudyOf {
            template: head.template.clone(),
            scenario: head.scenario.clone(),
            repeat: head.repeat,
            cache_fairness: if live { CacheFairness::Nonce } else { CacheFairness::Scripted },
            seed: head.seed,
            order: self.order.into_values().collect(),
        };
        Study {
            of,
            // The lanes in the order asked, whatever order a repetition ran them in.
            lanes: head.lanes.iter().map(|lane| (lane.clone(), by_repetition(self.runs.remove(lane)))).collect(),
            aa: head.aa.then(|| by_repetition(Some(self.control))),
            stopped,
        }
    }

    /// Takes a finished repetition (from the file it was kept in, or just run).
    fn absorb(&mut self, entry: JournalEntry) {
        let repetition = entry.repetition;
        self.done.insert(repetition);
        self.order.insert(repetition, entry.order);
        for (lane, run) in entry.runs {
            self.spent += run.cost_usd.unwrap_or(0.0);
            self.runs.entry(lane).or_default().push(StudyRun { repetition, ..run });
        }
        if let Some(run) = entry.control {
            self.spent += run.cost_usd.unwrap_or(0.0);
            self.control.push(StudyRun { repetition, ..run });
        }
    }
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

    /// Why the study stops before its next repetition, having spent `spent_usd` on `done` with
    /// `started` begun (those under way too): the next, and each under way, would cost the mean of
    /// those that ended (the estimate, before any did).
    fn stops(&self, spent_usd: f64, done: u32, started: u32) -> Option<StudyStop> {
        let next_usd = if done == 0 { self.first_usd } else { spent_usd / f64::from(done) };
        let under_way = f64::from(started - done) * next_usd;
        (spent_usd + under_way + next_usd > self.max_usd).then(|| StudyStop {
            reason: "max_cost".to_owned(),
            after: done,
            spent_usd,
            next_usd,
            max_cost_usd: self.max_usd,
        })
    }
}

/// `runs` in the order of their repetitions.
fn by_repetition(runs: Option<Vec<StudyRun>>) -> Vec<StudyRun> {
    let mut runs = runs.unwrap_or_default();
    runs.sort_by_key(|run| run.repetition);
    runs
}

/// What one repetition left: each lane's run as the study keeps it.
struct RepetitionRuns {
    runs: Vec<(String, StudyRun)>,
    not_kept: Option<AppError>,
    scenario_warnings: Vec<String>,
}

/// Runs `base` once with `lanes` as `options` say, timing each lane's conversation.
async fn repeat_once(
    comparisons: &Comparisons,
    base: &ComparisonRequest,
    lanes: Vec<String>,
    options: Repetition<'_>,
) -> AppResult<RepetitionRuns> {
    let request = ComparisonRequest { lanes, ..base.clone() };
    let clock: Arc<Mutex<LaneClock>> = Arc::default();
    let listener: ProgressListener = {
        let clock = Arc::clone(&clock);
        Arc::new(move |progress| lock(&clock).saw(&progress))
    };
    let finished = comparisons.run_again(request, listener, options).await?;
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
    Ok(RepetitionRuns { runs, not_kept: finished.not_kept, scenario_warnings: finished.scenario_warnings })
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
