//! Studies (spec 14): one comparison repeated, scripted or live. The lanes take turns at running
//! first, a live conversation's prompts each start with a nonce of their own (so none is served
//! from a cache another warmed), every repetition's lanes are kept in the history as it finishes,
//! and the runs are told as the engine's `unfold.study`.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use serde::Serialize;
use unfold_engine::compare::CompareProgress;
use unfold_engine::study::{rotated, CacheFairness, StopReason, Study, StudyOf, StudyReport, StudyRun, StudyStop};
use unfold_engine::{Lane, RunReport};

use crate::comparisons::{
    ComparisonModel, ComparisonRequest, ComparisonStop, Comparisons, ProgressListener, Repetition, Resolved,
};
use crate::error::{AppError, AppResult, ErrorCode};
use crate::lock;
use crate::study_budget::{Budget, OverBudget};
use crate::study_journal::{self, JournalEntry, JournalHead, StudyJournal};
use futures_util::stream::{FuturesUnordered, StreamExt};
use unfold_live::shared_pace::SharedPace;
use unfold_stores::stable_hash::stable_hash;

/// The most repetitions a study may ask for.
pub const MAX_REPEAT: u32 = unfold_documents::suite::MAX_REPEAT;

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
    /// The most a live study may spend, in US dollars: it stops before a repetition, or a
    /// conversation of one, that would pass it by the estimates (see `study_budget`).
    pub max_cost_usd: Option<f64>,
    /// The share of the repetitions to run, `[i, n]` (`--shard i/n`): those r with
    /// (r − 1) mod n = i − 1; none: all of them.
    pub shard: Option<[u32; 2]>,
    /// How many repetitions run at once (at least 1); a live model's requests share one pace.
    pub jobs: u32,
    /// Whether the scripted model's all-FULL baseline runs in every repetition too, after the
    /// lanes, as the study's last lane `baseline` (what a suite's `saved_percent` is measured
    /// against); a live study has none, it would be paid for.
    pub baseline: bool,
    /// Stops the study: no repetition starts after, and those under way stop and are left out
    /// (a resumed study runs them).
    pub stop: ComparisonStop,
}

/// A repetition of a study has ended.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct StudyProgress {
    /// Which.
    pub repetition: u32,
    /// How many repetitions have ended, this one and those of an earlier session of the study.
    pub done: u32,
    /// How many the study (or its shard) runs in all.
    pub planned: u32,
    /// What the study has spent so far, in US dollars.
    pub spent_usd: f64,
    /// Where the history keeps this repetition's runs.
    pub kept: Vec<KeptRun>,
}

/// Where the history keeps one run of a study.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct KeptRun {
    /// The lane; the A/A control's is its lane's name with ` (A/A)` after it.
    pub lane: String,
    /// Its id in the history.
    #[cfg_attr(feature = "specta", specta(type = f64))]
    pub history_id: i64,
}

/// A finished study.
#[derive(Debug)]
pub struct FinishedStudy {
    /// The report.
    pub report: StudyReport,
    /// Why the history did not keep a repetition, for each it did not (the study stands).
    pub not_kept: Vec<AppError>,
    /// Calls of the scenario that will fail, found once before the first repetition.
    pub scenario_warnings: Vec<String>,
}

/// Where a study is kept as it runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeptStudy {
    /// Nowhere: an interrupted study starts again.
    Nowhere,
    /// In this new file.
    New(PathBuf),
    /// In this new file until the study has run every repetition; then the file goes (one that
    /// stopped stays, to resume).
    UntilDone(PathBuf),
    /// In this file, which holds a study begun before: only the repetitions it lacks run.
    Resumed(PathBuf),
}

/// Runs `request` on `comparisons`, kept as `kept` says, telling `progress` of each repetition as
/// it ends.
pub async fn run_study(
    comparisons: &Comparisons,
    request: StudyRequest,
    kept: KeptStudy,
    progress: &(dyn Fn(StudyProgress) + Sync),
) -> AppResult<FinishedStudy> {
    let until_done = match &kept {
        KeptStudy::UntilDone(path) => Some(path.clone()),
        _ => None,
    };
    let finished = run_kept(comparisons, request, kept, progress).await;
    if let Some(path) = until_done {
        // Its file goes once there is nothing to resume: every repetition ran, or the study
        // failed before any ended.
        let nothing_to_resume = match &finished {
            Ok(study) => study.report.stopped.is_none(),
            Err(_) => study_journal::read(&path).is_ok_and(|(_, entries)| entries.is_empty()),
        };
        if nothing_to_resume {
            if let Err(error) = std::fs::remove_file(&path) {
                tracing::warn!(%error, path = %path.display(), "a study's file stays");
            }
        }
    }
    finished
}

/// [`run_study`], the file it keeps the study in left as it is.
async fn run_kept(
    comparisons: &Comparisons,
    request: StudyRequest,
    kept: KeptStudy,
    progress: &(dyn Fn(StudyProgress) + Sync),
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
    if live && request.baseline {
        let message = "a live study runs no all-FULL baseline: it would be paid for";
        return Err(AppError::new(ErrorCode::InvalidRequest, message));
    }
    // Read once: every repetition runs the documents as they were when the study began.
    let documents = comparisons.resolve(&request.comparison)?;
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
        lanes: study_lanes(&request),
        model: request.comparison.model.clone(),
        repeat: request.repeat,
        aa: request.aa,
        seed: request.seed,
        shard: request.shard,
    };
    let mut state = StudyState::default();
    let (mut journal, study_id) = match kept {
        KeptStudy::Nowhere => (None, asked.study_id.clone()),
        KeptStudy::New(path) | KeptStudy::UntilDone(path) => {
            (Some(StudyJournal::create(&path, &asked)?), asked.study_id.clone())
        }
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
        Some(max) => Some(Budget::of(comparisons, &request.comparison, max, state.spent).await?),
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
    let mut not_kept = Vec::new();
    let mut stopped = None;
    let in_shard = |r: &u32| request.shard.is_none_or(|[i, n]| (r - 1) % n == i - 1);
    let planned = (1..=request.repeat).filter(in_shard).count() as u32;
    let left: Vec<u32> = (1..=request.repeat).filter(|r| in_shard(r) && !state.done.contains(r)).collect();
    let mut left = left.into_iter();
    let mut running = FuturesUnordered::new();
    loop {
        // Up to `jobs` repetitions at once, each started only if the budget allows all its
        // conversations with those under way counted at their estimates.
        while running.len() < request.jobs.max(1) as usize && stopped.is_none() && !request.stop.stopped() {
            let Some(repetition) = left.next() else { break };
            let place = match &budget {
                Some(budget) => match budget.admit(&context.conversations(repetition)) {
                    Ok(place) => Some((Arc::clone(budget), place)),
                    Err(over) => {
                        stopped = Some(over_budget(budget, over, &state));
                        break;
                    }
                },
                None => None,
            };
            running.push(context.run(repetition, place));
        }
        let Some((ran, over)) = running.next().await else { break };
        // A repetition the stop cut short, however it ended, is not a sample of the study: it is
        // left out. So is one the budget stopped before one of its conversations.
        if request.stop.stopped() {
            continue;
        }
        if let (Some(over), Some(budget)) = (over, &budget) {
            stopped = stopped.or_else(|| Some(over_budget(budget, over, &state)));
            continue;
        }
        let ran = ran?;
        not_kept.extend(ran.not_kept);
        if let Some(journal) = &mut journal {
            journal.append(&ran.entry)?;
        }
        let repetition = ran.entry.repetition;
        state.absorb(ran.entry);
        let done = state.done.len() as u32;
        progress(StudyProgress { repetition, done, planned, spent_usd: state.spent, kept: ran.kept });
    }
    if request.stop.stopped() && stopped.is_none() && (state.done.len() as u32) < planned {
        let (after, spent_usd) = (state.done.len() as u32, state.spent);
        let reason = StopReason::Cancelled;
        stopped = Some(StudyStop { reason, after, spent_usd, left_out_usd: None, next_usd: None, max_cost_usd: None });
    }
    let report = state.into_study(&asked, stopped).report();
    Ok(FinishedStudy { report, not_kept, scenario_warnings: documents.scenario_warnings() })
}

/// A new file in the data folder `data` to keep a study in until it is done.
pub fn new_study_file(data: &std::path::Path) -> PathBuf {
    let began = unfold_stores::run_history::now_ms();
    data.join("studies").join(format!("{began}.study.jsonl"))
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

/// The study's lanes: the comparison's, and the baseline last when it runs.
fn study_lanes(request: &StudyRequest) -> Vec<String> {
    with_baseline(request.comparison.lanes.clone(), request.baseline)
}

/// `lanes`, and with `baseline` the baseline after them, where the engine runs it.
fn with_baseline(mut lanes: Vec<String>, baseline: bool) -> Vec<String> {
    lanes.extend(baseline.then(|| Lane::baseline().name().to_owned()));
    lanes
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
    /// The conversations repetition `repetition` has, by lane: its A/A control's too.
    fn conversations(&self, repetition: u32) -> Vec<String> {
        let lanes = &self.request.comparison.lanes;
        let control = lanes.first().filter(|_| self.request.aa);
        rotated(lanes, repetition).into_iter().chain(control.cloned()).collect()
    }

    /// Runs repetition `repetition` (and its A/A control), each conversation as `place` in the
    /// budget allows it: how it ended, and what would have passed the budget if it did.
    async fn run(
        &self,
        repetition: u32,
        admitted: Option<(Arc<Budget>, u64)>,
    ) -> (AppResult<RanRepetition>, Option<OverBudget>) {
        let stop = self.request.stop.child();
        let place = admitted.map(|(budget, repetition)| BudgetPlace {
            budget,
            repetition,
            over: Arc::default(),
            stop: stop.clone(),
        });
        let ran = self.run_within(repetition, &stop, place.as_ref()).await;
        let Some(place) = place else { return (ran, None) };
        let over = *lock(&place.over);
        place.budget.finish(place.repetition, ran.is_ok() && over.is_none() && !stop.stopped());
        (ran, over)
    }

    async fn run_within(
        &self,
        repetition: u32,
        stop: &ComparisonStop,
        place: Option<&BudgetPlace>,
    ) -> AppResult<RanRepetition> {
        let lanes = &self.request.comparison.lanes;
        let order = rotated(lanes, repetition);
        let nonce = self.live.then(|| format!("{} repetition {repetition}", self.study_id));
        let runs = RepetitionWay { stop, place };
        let ran = self.once(order.clone(), nonce.as_deref(), self.request.baseline, runs).await?;
        let order = with_baseline(order, self.request.baseline);
        let mut not_kept: Vec<AppError> = ran.not_kept.into_iter().collect();
        let mut kept = ran.kept;
        let control = if self.request.aa {
            let nonce = self.live.then(|| format!("{} repetition {repetition} A/A", self.study_id));
            let again = self.once(vec![lanes[0].clone()], nonce.as_deref(), false, runs).await?;
            not_kept.extend(again.not_kept);
            kept.extend(again.kept.into_iter().map(|run| KeptRun { lane: format!("{} (A/A)", run.lane), ..run }));
            again.runs.into_iter().next().map(|(_, run)| run)
        } else {
            None
        };
        Ok(RanRepetition { entry: JournalEntry { repetition, order, runs: ran.runs, control }, not_kept, kept })
    }

    async fn once(
        &self,
        lanes: Vec<String>,
        nonce: Option<&str>,
        baseline: bool,
        way: RepetitionWay<'_>,
    ) -> AppResult<RepetitionRuns> {
        let clock = Mutex::default();
        let options = Repetition {
            nonce,
            documents: Some(self.documents),
            no_baseline: !baseline,
            pace: self.pace.as_ref(),
            stop: Some(way.stop),
            clock: Some(&clock),
            fork: None,
        };
        let listener: ProgressListener = match way.place {
            Some(place) => {
                let place = place.clone();
                Arc::new(move |progress| place.saw(&progress))
            }
            None => Arc::new(|_| {}),
        };
        let ran = repeat_once(self.comparisons, &self.request.comparison, lanes, options, listener).await;
        if let Some(place) = way.place {
            place.budget.end_running(place.repetition);
        }
        ran
    }
}

/// How a repetition's comparisons run: their stop, and their place in the budget.
#[derive(Clone, Copy)]
struct RepetitionWay<'a> {
    stop: &'a ComparisonStop,
    place: Option<&'a BudgetPlace>,
}

/// A repetition's place in a live study's budget, which each of its conversations asks before it
/// starts: one refused stops the repetition.
#[derive(Clone)]
struct BudgetPlace {
    budget: Arc<Budget>,
    repetition: u64,
    /// What the refused conversation would have cost.
    over: Arc<Mutex<Option<OverBudget>>>,
    /// The repetition's own stop.
    stop: ComparisonStop,
}

impl BudgetPlace {
    /// Takes what the repetition's comparison told: a conversation starts only if the budget
    /// allows it, and its model calls are paid for.
    fn saw(&self, progress: &CompareProgress) {
        match progress {
            CompareProgress::RunStarted { lane } => {
                if let Err(over) = self.budget.start(self.repetition, lane.name()) {
                    *lock(&self.over) = Some(over);
                    self.stop.stop();
                }
            }
            CompareProgress::Event { lane, event } => self.budget.saw(self.repetition, lane.name(), event),
            CompareProgress::Text { .. } => {}
        }
    }
}

/// One repetition run: what to keep of it, why the history kept none of it if it did not, and
/// where the history keeps its runs.
struct RanRepetition {
    entry: JournalEntry,
    not_kept: Vec<AppError>,
    kept: Vec<KeptRun>,
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
    kept: Vec<KeptRun>,
}

/// Runs `base` once with `lanes` as `options` say, telling `listener`, timing each lane's
/// conversation on the options' clock.
async fn repeat_once(
    comparisons: &Comparisons,
    base: &ComparisonRequest,
    lanes: Vec<String>,
    options: Repetition<'_>,
    listener: ProgressListener,
) -> AppResult<RepetitionRuns> {
    let request = ComparisonRequest { lanes, ..base.clone() };
    let finished = comparisons.run_again(request, listener, options).await?;
    let own_clock = Mutex::default();
    let clock = lock(options.clock.unwrap_or(&own_clock));
    let report = finished.report;
    // The baseline's run is the dynamic adapter's: it is named as its lane. The history keeps the
    // runs in this order too: the lanes, then the baseline.
    let baseline = report.baseline.iter().map(|baseline| (Lane::baseline(), &baseline.run));
    let ran: Vec<(Lane, &RunReport)> = report.runs.iter().map(|run| (run.lane(), run)).chain(baseline).collect();
    let runs = ran
        .iter()
        .map(|(lane, run)| {
            let times = clock.times(lane);
            let wall_ms = times.end.saturating_sub(times.start) / 1_000_000;
            (lane.name().to_owned(), StudyRun::of(0, run, wall_ms))
        })
        .collect();
    let kept = ran
        .iter()
        .zip(&finished.kept)
        .map(|((lane, _), &history_id)| KeptRun { lane: lane.name().to_owned(), history_id })
        .collect();
    Ok(RepetitionRuns { runs, not_kept: finished.not_kept, kept })
}

/// Why the study stops: the budget would be passed by `over`.
fn over_budget(budget: &Budget, over: OverBudget, state: &StudyState) -> StudyStop {
    let spent = budget.spent();
    StudyStop {
        reason: StopReason::MaxCost,
        after: state.done.len() as u32,
        spent_usd: state.spent,
        left_out_usd: (spent.left_out_usd > 0.0).then_some(spent.left_out_usd),
        next_usd: Some(over.next_usd),
        max_cost_usd: Some(budget.max_usd()),
    }
}
