//! Suites (spec 11): every case of a suite file loaded and checked before anything runs (a bad
//! file is bad input, named with its place), then compared with the scripted model on as many
//! threads as the machine has (or with a live model, through the comparison use case), each run
//! held to the case's expectations. A shard runs every N-th
//! case, so a suite spreads over a CI matrix. A case with `repeat` runs as a study (spec 14),
//! through the one study use case, its expectations told of the study; under a shard it runs the
//! shard's share of its repetitions into a partial study that `unfold study merge` completes.
//! Sources are seen through their snapshots: nothing a file names is started in CI without the
//! user's consent. Suites are not kept in the run history.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tracing::Instrument;
use unfold_documents::host_profile::{host_reference, HostProfile, HOST_PREFIX};
use unfold_documents::suite::{Bound, DivergenceExpectation, RunExpectations, Suite, SuiteCase, BASELINE};
use unfold_documents::{Error, Scenario, Template};
use unfold_engine::compare::{compare, CompareProgress, Drive, Lanes};
use unfold_engine::study::{StudyReport, StudyRun, SuccessRate};
use unfold_engine::{AdapterKind, ComparisonReport, Counters, LaneSpec, RunReport};

use crate::comparisons::{
    ComparisonContext, ComparisonModel, ComparisonOutputs, ComparisonRequest, Comparisons, DocumentRef,
    ProgressListener,
};
use crate::error::{AppError, AppResult, ErrorCode};
use crate::lock;
use crate::prices::PriceFile;
use crate::run_history::OpenRunHistory;
use crate::studies::{run_study, KeptStudy, StudyRequest};
use crate::suite_cases::first_divergence_kinds;
use crate::traces::{comparison_lines, ComparisonClock, TraceContext};

/// Which part of a suite to run: the `index`-th (1-based) of `count` shards, every `count`-th case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// 1 to `count`.
    pub index: usize,
    /// At least 1.
    pub count: usize,
}

impl std::str::FromStr for Shard {
    type Err = String;
    /// `K/N`, 1 ≤ K ≤ N.
    fn from_str(text: &str) -> Result<Shard, String> {
        let wrong = || format!("'{text}' is not a shard: write K/N, K from 1 to N (2/4: the second of four)");
        let (index, count) = text.split_once('/').ok_or_else(wrong)?;
        let (index, count): (usize, usize) =
            (index.trim().parse().map_err(|_| wrong())?, count.trim().parse().map_err(|_| wrong())?);
        if count == 0 || index == 0 || index > count {
            return Err(wrong());
        }
        Ok(Shard { index, count })
    }
}

impl Shard {
    /// Whether the case at `position` (0-based, over every suite in the order given) is this shard's.
    pub fn takes(self, position: usize) -> bool {
        position % self.count == self.index - 1
    }
}

/// How a suite's cases run: against their scripts or a live model, where repeated ones keep their
/// studies, and the share of their repetitions that runs here.
#[derive(Debug, Clone, Default)]
pub struct CaseRuns {
    /// The folder each repeated case's study is kept in as it runs; none: not kept.
    pub folder: Option<PathBuf>,
    /// This machine's share of every repeated case: the repetitions r with (r − 1) mod N = K − 1;
    /// none: all of them. A share needs the folder, as its partial study is what is merged.
    pub shard: Option<Shard>,
    /// The live model every case runs against instead of its scenario's script; none: scripted.
    pub live: Option<LiveSuite>,
}

/// A live model a suite runs against (`unfold test --provider`): no baseline runs (it would be
/// paid for), and the runs are priced as the profile's model.
#[derive(Debug, Clone)]
pub struct LiveSuite {
    /// The provider profile's name.
    pub profile: String,
    /// The file it is in.
    pub profiles_file: PathBuf,
}

impl CaseRuns {
    /// Where the study of the case `name` is kept: `NAME.study.jsonl`, or under a shard
    /// `NAME.shard-K-of-N.study.jsonl` (the name with anything but letters, digits, `.`, `-` and
    /// `_` made `-`); none without a folder.
    pub fn file(&self, name: &str) -> Option<PathBuf> {
        let folder = self.folder.as_ref()?;
        let label: String =
            name.chars().map(|c| if c.is_alphanumeric() || matches!(c, '.' | '-' | '_') { c } else { '-' }).collect();
        let share = self.shard.map(|shard| format!(".shard-{}-of-{}", shard.index, shard.count)).unwrap_or_default();
        Some(folder.join(format!("{label}{share}.study.jsonl")))
    }
}

/// A case ready to run: its suite, its files read and checked.
#[derive(Debug, Clone)]
pub struct LoadedCase {
    /// The suite's name.
    pub suite: String,
    suite_path: PathBuf,
    /// The case as the file has it.
    pub case: SuiteCase,
    /// The template's path, as resolved from the suite file.
    pub template_path: PathBuf,
    scenario_path: PathBuf,
    template: Template,
    scenario: Scenario,
    /// What each of the case's lanes runs, in its order.
    lanes: Vec<LaneSpec>,
}

/// One expectation that did not hold.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Unmet {
    /// The run it is about (an adapter's name, `baseline`), or `divergence`.
    pub run: String,
    /// What was expected of it: `model_calls`, `status`, …
    pub what: String,
    /// The expectation, in words: "at most 3", "completed".
    pub expected: String,
    /// The value seen.
    pub seen: String,
}

impl Unmet {
    /// The case expects a run of `run`, and there was none.
    fn no_run(run: &str) -> Unmet {
        Unmet { run: run.to_owned(), what: "run".into(), expected: "a run".into(), seen: "none".into() }
    }
}

/// One expectation of a case, as the app lists it.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Expectation {
    /// The run it is about (an adapter's name, `baseline`), or `divergence`.
    pub run: String,
    /// What is expected of it: `model_calls`, `status`, …
    pub what: String,
    /// The expectation, in words: "at most 3", "completed".
    pub expected: String,
}

/// Every expectation of `case`, in the file's order (each run's, then the divergence's).
pub fn expectations(case: &SuiteCase) -> Vec<Expectation> {
    let mut all = Vec::new();
    for (run, expected) in &case.expect.runs {
        let of = |what: &str, words: String| Expectation { run: run.clone(), what: what.to_owned(), expected: words };
        all.extend(expected.status.map(|status| of("status", status.name().to_owned())));
        all.extend(expected.bounds().into_iter().map(|(what, bound)| of(what, bound.describe())));
        all.extend(expected.cheaper_than.as_ref().map(|other| of("cheaper_than", format!("cheaper than {other}"))));
    }
    if let Some(divergence) = case.expect.divergence {
        all.push(Expectation { run: "divergence".into(), what: "divergence".into(), expected: divergence.name() });
    }
    all
}

/// How one case went.
#[derive(Debug, Clone, serde::Serialize)]
pub struct CaseOutcome {
    /// The suite's name.
    pub suite: String,
    /// The case's name.
    pub name: String,
    /// Every expectation that did not hold (none: it passed).
    pub unmet: Vec<Unmet>,
    /// Why it could not run, if it could not (it fails).
    pub error: Option<String>,
    /// How long it took.
    #[serde(skip)]
    pub took: Duration,
    /// The comparison, when it ran once.
    #[serde(skip)]
    pub report: Option<ComparisonReport>,
    /// The study (the shard's share of it), when the case repeats and ran.
    #[serde(skip)]
    pub study: Option<StudyReport>,
    /// When its runs saw their events.
    #[serde(skip)]
    pub clock: ComparisonClock,
    /// The model its runs are priced as, if any.
    #[serde(skip)]
    pub price_as: Option<String>,
}

impl CaseOutcome {
    /// Its runs' trace lines, each run span naming the suite and the case; none when it did not
    /// run.
    pub fn trace_lines(&self) -> Vec<String> {
        let Some(report) = &self.report else { return Vec::new() };
        let context = TraceContext::scripted(self.price_as.as_deref())
            .with("unfold.suite", &self.suite)
            .with("unfold.case", &self.name);
        comparison_lines(report, &self.clock, &context)
    }

    /// Whether every expectation held.
    pub fn passed(&self) -> bool {
        self.unmet.is_empty() && self.error.is_none()
    }
}

/// Reads every suite and every case's template and scenario, and checks each scenario against its
/// template: every problem of every file, each at its place, before anything runs.
pub fn load_suites(paths: &[PathBuf]) -> AppResult<Vec<LoadedCase>> {
    let mut cases = Vec::new();
    let mut errors: Vec<Error> = Vec::new();
    for path in paths {
        let suite = match Suite::load(path) {
            Ok(suite) => suite,
            Err(error) => {
                errors.push(error);
                continue;
            }
        };
        for (index, case) in suite.cases.iter().enumerate() {
            match load_case(path, &suite.name, index, case) {
                Ok(loaded) => cases.push(loaded),
                Err(error) => errors.push(error),
            }
        }
    }
    match errors.len() {
        0 => Ok(cases),
        _ => Err(AppError::of_files(ErrorCode::InvalidRequest, &errors)),
    }
}

/// The case at `/cases/{index}` of the suite at `suite_path`, its files read and checked.
fn load_case(suite_path: &Path, suite: &str, index: usize, case: &SuiteCase) -> unfold_documents::Result<LoadedCase> {
    let template_path = Suite::resolve(suite_path, &case.template);
    let scenario_path = Suite::resolve(suite_path, &case.scenario);
    let template = Template::load(&template_path)
        .map_err(|e| unreadable_in_suite(e, suite_path, format!("/cases/{index}/template"), &case.template))?;
    let scenario = Scenario::load_for(&scenario_path, &template)
        .map_err(|e| unreadable_in_suite(e, suite_path, format!("/cases/{index}/scenario"), &case.scenario))?;
    let lanes = case
        .adapters
        .iter()
        .enumerate()
        .map(|(at, lane)| case_lane(suite_path, &format!("/cases/{index}/adapters/{at}"), lane))
        .collect::<unfold_documents::Result<_>>()?;
    Ok(LoadedCase {
        suite: suite.to_owned(),
        suite_path: suite_path.to_owned(),
        case: case.clone(),
        template_path,
        scenario_path,
        template,
        scenario,
        lanes,
    })
}

/// What the lane `lane` of a case (at `pointer` of the suite) runs: an adapter, a host preset, or
/// a host profile file relative to the suite file (its problems reported in it).
fn case_lane(suite_path: &Path, pointer: &str, lane: &str) -> unfold_documents::Result<LaneSpec> {
    let problem = |message: String| Error::problem(pointer, message).in_file(suite_path);
    match host_reference(lane) {
        Some(file) if HostProfile::names_a_file(file) => HostProfile::load(&Suite::resolve(suite_path, file))
            .map(|profile| LaneSpec::Host(Box::new(profile)))
            .map_err(|e| unreadable_in_suite(e, suite_path, pointer.to_owned(), file)),
        Some(name) => {
            HostProfile::known_preset(name).map(|profile| LaneSpec::Host(Box::new(profile.clone()))).map_err(problem)
        }
        None => lane.parse::<AdapterKind>().map(LaneSpec::Adapter).map_err(problem),
    }
}

/// A file a case names (`written`, at `pointer` of the suite) that cannot be read is a problem of
/// the suite, at that place; a file that is read keeps its problems in itself.
fn unreadable_in_suite(error: Error, suite_path: &Path, pointer: String, written: &str) -> Error {
    match error {
        Error::Io { path, action, source } => {
            Error::problem(pointer, format!("{action} '{written}' ({path}): {source}")).in_file(suite_path)
        }
        other => other,
    }
}

/// Runs `cases` on up to `threads` threads as `runs` says, telling `done` each
/// outcome as it comes (in the order they finish); the outcomes in the cases' order. When a case
/// is priced, the prices file is read first: one that cannot be read is bad input, and no case
/// runs. A price a case names that the prices do not have fails that case, not the suite.
pub fn run_cases(
    cases: &[LoadedCase],
    threads: usize,
    prices: &PriceFile,
    runs: &CaseRuns,
    done: &(dyn Fn(&CaseOutcome) + Sync),
) -> AppResult<Vec<CaseOutcome>> {
    if cases.iter().any(|loaded| loaded.case.price_as.is_some()) {
        prices.prices()?;
    }
    let profiles_file = runs.live.as_ref().map(|live| live.profiles_file.clone());
    let comparisons = Comparisons::new(suite_context(prices, profiles_file));
    let drive = CaseDrive { comparisons: &comparisons, runs };
    let next = AtomicUsize::new(0);
    let outcomes: Mutex<Vec<Option<CaseOutcome>>> = Mutex::new(vec![None; cases.len()]);
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, cases.len().max(1)) {
            scope.spawn(|| {
                // Timers and I/O for a live model's requests.
                let Ok(runtime) = tokio::runtime::Builder::new_current_thread().enable_all().build() else { return };
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some(case) = cases.get(index) else { break };
                    let span = tracing::info_span!("suite_case", suite = %case.suite, case = %case.case.name);
                    let outcome = runtime.block_on(run_case(case, prices, &drive).instrument(span));
                    done(&outcome);
                    outcomes.lock().unwrap_or_else(std::sync::PoisonError::into_inner)[index] = Some(outcome);
                }
            });
        }
    });
    let outcomes = outcomes.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
    Ok(outcomes
        .into_iter()
        .zip(cases)
        .map(|(outcome, case)| {
            outcome.unwrap_or_else(|| failed(case, "the case did not run".to_owned(), Duration::ZERO))
        })
        .collect())
}

fn failed(case: &LoadedCase, error: String, took: Duration) -> CaseOutcome {
    CaseOutcome {
        suite: case.suite.clone(),
        name: case.case.name.clone(),
        unmet: Vec::new(),
        error: Some(error),
        took,
        report: None,
        study: None,
        clock: ComparisonClock::default(),
        price_as: case.case.price_as.clone(),
    }
}

/// What a suite's studies and live runs run with: the files alone, the profiles in
/// `profiles_file`, nothing kept in the history.
fn suite_context(prices: &PriceFile, profiles_file: Option<PathBuf>) -> ComparisonContext {
    ComparisonContext {
        profiles: Arc::new(crate::profiles::Profiles(profiles_file)),
        prices: prices.clone(),
        ..ComparisonContext::of_files(OpenRunHistory::open(None))
    }
}

/// What a repeated or live case runs with.
struct CaseDrive<'a> {
    comparisons: &'a Comparisons,
    runs: &'a CaseRuns,
}

impl CaseDrive<'_> {
    /// The comparison `loaded`'s case asks for, with the suite's model.
    fn request(&self, loaded: &LoadedCase) -> ComparisonRequest {
        let model = match &self.runs.live {
            Some(live) => ComparisonModel::Live { profile: live.profile.clone() },
            None => ComparisonModel::Scripted { price_as: loaded.case.price_as.clone() },
        };
        let file = |path: &PathBuf| DocumentRef::File(path.clone());
        // A host profile file is named relative to the suite file; the request reads it as given.
        let lanes = loaded.case.adapters.iter().map(|lane| match host_reference(lane) {
            Some(file) if HostProfile::names_a_file(file) => {
                format!("{HOST_PREFIX}{}", Suite::resolve(&loaded.suite_path, file).display())
            }
            _ => lane.clone(),
        });
        ComparisonRequest {
            model,
            outputs: ComparisonOutputs { history: false, ..ComparisonOutputs::default() },
            ..ComparisonRequest::scripted(file(&loaded.template_path), file(&loaded.scenario_path), lanes.collect())
        }
    }
}

async fn run_case(loaded: &LoadedCase, prices: &PriceFile, drive: &CaseDrive<'_>) -> CaseOutcome {
    if let Some(repeat) = loaded.case.repeat {
        return run_repeated(loaded, repeat, drive).await;
    }
    if drive.runs.live.is_some() {
        return run_live(loaded, drive).await;
    }
    let started = Instant::now();
    let pricing = match &loaded.case.price_as {
        Some(model) => match prices.pricing_as(model) {
            Ok(pricing) => Some(pricing),
            Err(error) => return failed(loaded, error.message, started.elapsed()),
        },
        None => None,
    };
    let mut clock = ComparisonClock::default();
    let mut observer = |progress: CompareProgress| clock.saw(&progress);
    let lanes = Lanes::of(&loaded.template, &loaded.scenario, loaded.lanes.clone());
    let compared = compare(lanes, Drive { observer: Some(&mut observer), ..Drive::default() });
    let mut report = match compared.await {
        Ok(comparison) => comparison.report,
        Err(error) => return failed(loaded, error.to_string(), started.elapsed()),
    };
    if let Some(pricing) = &pricing {
        report.price(pricing);
    }
    let unmet = unmet_expectations(loaded, &report);
    CaseOutcome {
        suite: loaded.suite.clone(),
        name: loaded.case.name.clone(),
        unmet,
        error: None,
        took: started.elapsed(),
        report: Some(report),
        study: None,
        clock,
        price_as: loaded.case.price_as.clone(),
    }
}

/// Runs `loaded` once against the suite's live model, through the comparison use case.
async fn run_live(loaded: &LoadedCase, drive: &CaseDrive<'_>) -> CaseOutcome {
    let started = Instant::now();
    let clock: Arc<Mutex<ComparisonClock>> = Arc::default();
    let listener: ProgressListener = {
        let clock = Arc::clone(&clock);
        Arc::new(move |progress| lock(&clock).saw(&progress))
    };
    let report = match drive.comparisons.run(drive.request(loaded), listener).await {
        Ok(finished) => finished.report,
        Err(error) => return failed(loaded, error.message, started.elapsed()),
    };
    let clock = std::mem::take(&mut *lock(&clock));
    CaseOutcome {
        suite: loaded.suite.clone(),
        name: loaded.case.name.clone(),
        unmet: unmet_expectations(loaded, &report),
        error: None,
        took: started.elapsed(),
        report: Some(report),
        study: None,
        clock,
        // Priced as the live model, whatever the case says.
        price_as: None,
    }
}

/// Runs the repeated case `loaded` as a study of `repeat` repetitions, with the all-FULL baseline
/// when scripted (this shard's share of them, kept where `drive` says), its expectations held
/// to the study.
async fn run_repeated(loaded: &LoadedCase, repeat: u32, drive: &CaseDrive<'_>) -> CaseOutcome {
    let started = Instant::now();
    let runs = drive.runs;
    let shard = runs.shard.map(|shard| [shard.index, shard.count].map(|n| n as u32));
    let baseline = runs.live.is_none();
    let comparison = drive.request(loaded);
    let request = StudyRequest {
        comparison,
        repeat,
        aa: false,
        seed: 1,
        max_cost_usd: None,
        shard,
        jobs: 1,
        stop: Default::default(),
        baseline,
    };
    let kept = runs.file(&loaded.case.name).map_or(KeptStudy::Nowhere, KeptStudy::New);
    let report = match run_study(drive.comparisons, request, kept, &|_| {}).await {
        Ok(finished) => finished.report,
        Err(error) => return failed(loaded, error.message, started.elapsed()),
    };
    CaseOutcome {
        suite: loaded.suite.clone(),
        name: loaded.case.name.clone(),
        unmet: study_unmet(loaded, &report),
        error: None,
        took: started.elapsed(),
        report: None,
        study: Some(report),
        clock: ComparisonClock::default(),
        price_as: loaded.case.price_as.clone(),
    }
}

/// Every expectation of `loaded`'s repeated case that its study `report` does not meet: each
/// run's status and counters in every run, the rest of the study. A shard that ran none of the
/// repetitions has nothing to check.
fn study_unmet(loaded: &LoadedCase, report: &StudyReport) -> Vec<Unmet> {
    let mut unmet = Vec::new();
    if report.of.order.is_empty() {
        return unmet;
    }
    for (run_name, expectations) in &loaded.case.expect.runs {
        let Some(lane) = report.lanes.iter().find(|lane| lane.lane == *run_name) else {
            unmet.push(Unmet::no_run(run_name));
            continue;
        };
        unmet.extend(every_run_unmet(run_name, expectations, &lane.runs));
        unmet.extend(
            expectations.success_rate.and_then(|bound| success_rate_unmet(run_name, bound, &lane.summary.success)),
        );
        unmet.extend(expectations.saved_percent.and_then(|bound| saved_unmet(run_name, bound, report)));
        if let Some(other) = &expectations.cheaper_than {
            // As a single run's: in US dollars when the case is priced, else in prompt tokens.
            let metric = if loaded.case.price_as.is_some() { "cost_usd" } else { "prompt_tokens" };
            unmet.extend(study_cheaper_unmet((run_name, other), metric, report));
        }
    }
    unmet
}

/// The status and counters `expectations` ask of every one of `runs`, where one does not hold:
/// the first run it fails in, and in how many it does.
fn every_run_unmet(run_name: &str, expectations: &RunExpectations, runs: &[StudyRun]) -> Vec<Unmet> {
    let unmet = |what: &str, expected: String, off: Vec<(u32, String)>| {
        let (repetition, value) = off.first()?;
        let seen = format!("{value} in repetition {repetition} ({} of {} runs)", off.len(), runs.len());
        Some(Unmet {
            run: run_name.to_owned(),
            what: what.to_owned(),
            expected: format!("{expected} in every run"),
            seen,
        })
    };
    let mut all = Vec::new();
    if let Some(status) = expectations.status {
        let off =
            runs.iter().filter(|run| run.status != status).map(|run| (run.repetition, run.status.name().to_owned()));
        all.extend(unmet("status", status.name().to_owned(), off.collect()));
    }
    for (what, bound) in expectations.bounds() {
        let off = runs.iter().filter_map(|run| {
            let value = counter(&run.counters, what)?;
            (!bound.holds(value)).then(|| (run.repetition, Bound::Exact(value).describe()))
        });
        all.extend(unmet(what, bound.describe(), off.collect()));
    }
    all
}

/// The observed share of completed runs against `bound`; a failure says its Wilson interval.
fn success_rate_unmet(run_name: &str, bound: Bound, success: &SuccessRate) -> Option<Unmet> {
    let rate = success.count as f64 / success.n.max(1) as f64;
    if bound.holds(rate) {
        return None;
    }
    let interval = success.wilson95.map(|[lo, hi]| format!("; Wilson 95 % interval [{lo:.3}, {hi:.3}]"));
    let seen = format!("{rate:.3} ({}/{} runs completed{})", success.count, success.n, interval.unwrap_or_default());
    Some(Unmet { run: run_name.to_owned(), what: "success_rate".into(), expected: bound.describe(), seen })
}

/// The prompt tokens `run_name` saved against the baseline over the study, held on its whole 95 %
/// interval (`{"min": 40}`: its lower bound is at least 40).
fn saved_unmet(run_name: &str, bound: Bound, report: &StudyReport) -> Option<Unmet> {
    let saved = relative(report, run_name, BASELINE, "prompt_tokens").map(|(more, [lo, hi])| {
        let percent = |share: f64| -share * 100.0;
        (percent(more), [percent(hi), percent(lo)])
    });
    let seen = match saved {
        Some((_, [lo, hi])) if bound.holds(lo) && bound.holds(hi) => return None,
        Some((value, [lo, hi])) => {
            format!("{value:.1} % [{lo:.1} %, {hi:.1} %] of the baseline's prompt tokens saved")
        }
        None if !report.lanes.iter().any(|lane| lane.lane == BASELINE) => {
            "no baseline: a live study runs none".to_owned()
        }
        None => "no saving measured: a lane used no prompt tokens".to_owned(),
    };
    let expected = format!("{} % over the whole 95 % interval", bound.describe());
    Some(Unmet { run: run_name.to_owned(), what: "saved_percent".into(), expected, seen })
}

/// Whether `run_name` costs less than `other` over the study: the 95 % interval of their paired
/// difference in `metric` lies below zero.
fn study_cheaper_unmet((run_name, other): (&str, &str), metric: &str, report: &StudyReport) -> Option<Unmet> {
    let (unit, places) = if metric == "cost_usd" { ("USD", 6) } else { ("prompt tokens", 1) };
    let seen = match paired(report, run_name, other, metric) {
        Some((_, [_, hi])) if hi < 0.0 => return None,
        Some((mean, [lo, hi])) => format!("{mean:+.places$} {unit} per run [{lo:+.places$}, {hi:+.places$}]"),
        None => format!("no {unit} of both in one repetition"),
    };
    let expected = format!("cheaper than {other}: the paired difference's 95 % interval below 0");
    Some(Unmet { run: run_name.to_owned(), what: "cheaper_than".into(), expected, seen })
}

/// The mean of `x` − `y` in `metric` over the study's pairs and its 95 % interval.
fn paired(report: &StudyReport, x: &str, y: &str, metric: &str) -> Option<(f64, [f64; 2])> {
    let (difference, reversed) = pair_metric(report, x, y, metric)?;
    let [lo, hi] = difference.ci95;
    Some(match reversed {
        false => (difference.mean_diff, [lo, hi]),
        true => (-difference.mean_diff, [-hi, -lo]),
    })
}

/// mean(`x`) / mean(`y`) − 1 in `metric` over the study's pairs and its 95 % interval. The
/// report holds each pair one way round; the other is the same resamples' reciprocal, whose
/// percentile interval is the reciprocal of theirs.
fn relative(report: &StudyReport, x: &str, y: &str, metric: &str) -> Option<(f64, [f64; 2])> {
    let (difference, reversed) = pair_metric(report, x, y, metric)?;
    let (value, [lo, hi]) = (difference.relative?, difference.relative_ci95?);
    let reciprocal = |share: f64| 1.0 / (1.0 + share) - 1.0;
    Some(match reversed {
        false => (value, [lo, hi]),
        true => (reciprocal(value), [reciprocal(hi), reciprocal(lo)]),
    })
}

/// The study's paired difference in `metric` of `x` against `y`, and whether the report holds it
/// as `y` against `x`.
fn pair_metric<'r>(
    report: &'r StudyReport,
    x: &str,
    y: &str,
    metric: &str,
) -> Option<(&'r unfold_engine::study::MetricDifference, bool)> {
    report.pairs.iter().find_map(|pair| match (pair.a == x && pair.b == y, pair.a == y && pair.b == x) {
        (true, _) => Some((pair.metrics.get(metric)?, false)),
        (_, true) => Some((pair.metrics.get(metric)?, true)),
        _ => None,
    })
}

/// Every expectation of `loaded`'s case that `report` does not meet. An expectation names its run
/// as the case writes its lane (`host:./ours.host.json`), the report by the lane's name (`host:ours`).
fn unmet_expectations(loaded: &LoadedCase, report: &ComparisonReport) -> Vec<Unmet> {
    let mut unmet = Vec::new();
    for (run_name, expectations) in &loaded.case.expect.runs {
        let Some(run) = named_run(loaded, report, run_name) else {
            unmet.push(Unmet::no_run(run_name));
            continue;
        };
        let saved = report
            .baseline
            .as_ref()
            .and_then(|baseline| baseline.savings.iter().find(|savings| savings.adapter == run.lane())?.saved_percent);
        unmet.extend(run_unmet(run_name, expectations, run, saved));
        if let Some(other) = &expectations.cheaper_than {
            unmet.extend(cheaper_unmet(loaded, report, (run_name, run), other));
        }
    }
    if let Some(expected) = loaded.case.expect.divergence {
        if let Some(seen) = divergence_unmet(expected, report) {
            unmet.push(Unmet { run: "divergence".into(), what: "divergence".into(), expected: expected.name(), seen });
        }
    }
    unmet
}

/// The run a case names (a lane as the case writes it, or `baseline`) in `report`.
fn named_run<'r>(loaded: &LoadedCase, report: &'r ComparisonReport, run_name: &str) -> Option<&'r RunReport> {
    let lane = loaded.case.adapters.iter().position(|lane| lane == run_name).map(|at| loaded.lanes[at].lane());
    match (run_name, lane) {
        (BASELINE, _) => report.baseline.as_ref().map(|baseline| &baseline.run),
        (_, Some(lane)) => report.runs.iter().find(|run| run.lane() == lane),
        (_, None) => None,
    }
}

/// Whether `run` costs less than the case's run `other`: in US dollars when both are priced so,
/// else in prompt tokens.
fn cheaper_unmet(
    loaded: &LoadedCase,
    report: &ComparisonReport,
    (name, run): (&str, &RunReport),
    other: &str,
) -> Option<Unmet> {
    let unmet = |seen: String| Unmet {
        run: name.to_owned(),
        what: "cheaper_than".into(),
        expected: format!("cheaper than {other}"),
        seen,
    };
    let Some(against) = named_run(loaded, report, other) else {
        return Some(unmet(format!("no run {other} in the case")));
    };
    let (mine, theirs, unit) = match (measure(run, "cost_usd"), measure(against, "cost_usd")) {
        (Some(mine), Some(theirs)) => (mine, theirs, "USD"),
        _ => (run.counters.prompt_tokens as f64, against.counters.prompt_tokens as f64, "prompt tokens"),
    };
    (mine >= theirs).then(|| {
        let shown = |value: f64| Bound::Exact(value).describe();
        unmet(format!("{} {unit} against {}", shown(mine), shown(theirs)))
    })
}

fn run_unmet(
    run_name: &str,
    expectations: &RunExpectations,
    run: &RunReport,
    saved_percent: Option<f64>,
) -> Vec<Unmet> {
    let mut unmet = Vec::new();
    if let Some(status) = expectations.status {
        if status != run.status {
            unmet.push(Unmet {
                run: run_name.to_owned(),
                what: "status".into(),
                expected: status.name().to_owned(),
                seen: run.status.name().to_owned(),
            });
        }
    }
    for (what, bound) in expectations.bounds() {
        let seen = if what == "saved_percent" { saved_percent } else { measure(run, what) };
        if !seen.is_some_and(|value| bound.holds(value)) {
            unmet.push(Unmet {
                run: run_name.to_owned(),
                what: what.to_owned(),
                expected: bound.describe(),
                seen: seen.map_or_else(|| missing(what).to_owned(), |value| Bound::Exact(value).describe()),
            });
        }
    }
    unmet
}

/// Why `what` has no value: a price the run does not have, or a saving with no baseline.
fn missing(what: &str) -> &'static str {
    if what == "saved_percent" {
        "no baseline"
    } else {
        "no price"
    }
}

/// The value of the expectation `what` in `run`; none for a price the run does not have.
fn measure(run: &RunReport, what: &str) -> Option<f64> {
    match what {
        "cacheable_prompt_tokens" => Some(run.cost.as_ref()?.cacheable_prompt_tokens as f64),
        "cost_usd" => Some(run.cost.as_ref().filter(|cost| cost.currency == "USD")?.total),
        _ => counter(&run.counters, what),
    }
}

/// The counter `what` names; none for an expectation that is not a counter.
fn counter(c: &Counters, what: &str) -> Option<f64> {
    Some(match what {
        "model_calls" => c.model_calls.into(),
        "restarts" => c.restarts.into(),
        "tools_injected" => c.tools_injected.into(),
        "dynamic_expansions" => c.dynamic_expansions.into(),
        "tool_calls" => c.tool_calls.into(),
        "failed_tool_calls" => c.failed_tool_calls.into(),
        "prompt_tokens" => c.prompt_tokens as f64,
        "completion_tokens" => c.completion_tokens as f64,
        _ => return None,
    })
}

/// What the divergences show when they are not what `expected` says; none when they are.
fn divergence_unmet(expected: DivergenceExpectation, report: &ComparisonReport) -> Option<String> {
    let kinds = first_divergence_kinds(report);
    let holds = match expected {
        DivergenceExpectation::None => kinds.is_empty(),
        DivergenceExpectation::Any => !kinds.is_empty(),
        kind => kinds.contains(&kind.name()),
    };
    if holds {
        return None;
    }
    Some(if kinds.is_empty() { "none".to_owned() } else { kinds.join(", ") })
}

/// A case of an opened suite, as the app lists it before it runs.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct SuiteCaseView {
    /// The suite's name.
    pub suite: String,
    /// The case's name.
    pub name: String,
    /// Its template, as the suite names it (relative to the suite file).
    pub template: String,
    /// Its scenario, likewise.
    pub scenario: String,
    /// The adapters it compares, in order.
    pub adapters: Vec<String>,
    /// Every expectation it checks.
    pub expectations: Vec<Expectation>,
}

/// How a case went, as the app shows it: its comparison whole, for its lanes.
#[derive(Debug, Clone, serde::Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct SuiteCaseResult {
    /// The suite's name.
    pub suite: String,
    /// The case's name.
    pub name: String,
    /// Whether every expectation held.
    pub passed: bool,
    /// Every expectation that did not hold.
    pub unmet: Vec<Unmet>,
    /// Why it could not run, if it could not.
    pub error: Option<String>,
    /// How long it took, in milliseconds.
    pub took_ms: f64,
    /// The comparison, when it ran.
    pub report: Option<ComparisonReport>,
}

impl From<CaseOutcome> for SuiteCaseResult {
    fn from(outcome: CaseOutcome) -> SuiteCaseResult {
        SuiteCaseResult {
            passed: outcome.passed(),
            took_ms: outcome.took.as_secs_f64() * 1000.0,
            suite: outcome.suite,
            name: outcome.name,
            unmet: outcome.unmet,
            error: outcome.error,
            report: outcome.report,
        }
    }
}

/// The cases of the suite file `path`, every file they name loaded and checked (any problem of
/// any of them fails it, each at its place).
pub fn open_suite(path: &Path) -> AppResult<Vec<SuiteCaseView>> {
    let cases = load_suites(&[path.to_path_buf()])?;
    Ok(cases
        .into_iter()
        .map(|loaded| SuiteCaseView {
            expectations: expectations(&loaded.case),
            suite: loaded.suite,
            name: loaded.case.name,
            template: loaded.case.template,
            scenario: loaded.case.scenario,
            adapters: loaded.case.adapters,
        })
        .collect())
}

/// Runs every case of the suite file `path`, on as many threads as the machine has, priced from
/// `prices`; each case's result in the suite's order.
pub fn run_suite(path: &Path, prices: &PriceFile) -> AppResult<Vec<SuiteCaseResult>> {
    let cases = load_suites(&[path.to_path_buf()])?;
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    Ok(run_cases(&cases, threads, prices, &CaseRuns::default(), &|_| {})?
        .into_iter()
        .map(SuiteCaseResult::from)
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use unfold_engine::study::{CacheFairness, Study, StudyOf};
    use unfold_engine::RunStatus;

    /// A study of `dynamic` and the baseline whose prompt tokens vary from run to run.
    fn study(dynamic: &[u64], baseline: &[u64]) -> StudyReport {
        let runs = |tokens: &[u64]| -> Vec<StudyRun> {
            let run = |(at, tokens): (usize, &u64)| StudyRun {
                repetition: at as u32 + 1,
                status: RunStatus::Completed,
                counters: Counters { prompt_tokens: *tokens, ..Counters::default() },
                cost_usd: None,
                cached_tokens: 0,
                wall_ms: 0,
            };
            tokens.iter().enumerate().map(run).collect()
        };
        let of = StudyOf {
            template: "t".into(),
            scenario: "s".into(),
            repeat: dynamic.len() as u32,
            cache_fairness: CacheFairness::Scripted,
            seed: 1,
            order: vec![vec![]; dynamic.len()],
        };
        let lanes = vec![("dynamic".to_owned(), runs(dynamic)), (BASELINE.to_owned(), runs(baseline))];
        Study { of, lanes, aa: None, stopped: None }.report()
    }

    /// The report holds baseline against dynamic; the saving is read the other way round, its
    /// interval the same resamples' reciprocal, and the failure says all three numbers.
    #[test]
    fn a_saving_is_read_from_the_pair_the_other_way_round_with_its_interval() {
        let report = study(&[40, 60, 50, 45, 55, 52], &[100, 100, 110, 90, 100, 100]);
        assert_eq!((report.pairs[0].a.as_str(), report.pairs[0].b.as_str()), (BASELINE, "dynamic"));
        let (more, [lo, hi]) = relative(&report, "dynamic", BASELINE, "prompt_tokens").unwrap();
        assert!((more - (302.0 / 600.0 - 1.0)).abs() < 1e-12, "{more}");
        assert!(lo < more && more < hi, "{lo} < {more} < {hi}");
        let asked = Bound::Range { min: Some(49.0), max: None };
        let unmet = saved_unmet("dynamic", asked, &report).expect("the interval reaches below 49 %");
        let [lo, hi] = [hi, lo].map(|share| -share * 100.0);
        assert_eq!(
            unmet.seen,
            format!("49.7 % [{lo:.1} %, {hi:.1} %] of the baseline's prompt tokens saved"),
            "{unmet:?}"
        );
        assert_eq!(unmet.expected, "at least 49 % over the whole 95 % interval");
        let lower = Bound::Range { min: Some(lo - 0.01), max: None };
        assert_eq!(saved_unmet("dynamic", lower, &report), None, "held on the lower bound");
    }

    /// The paired difference read the other way round is negated, its interval with it.
    #[test]
    fn a_difference_is_read_from_the_pair_the_other_way_round() {
        let report = study(&[40, 60, 50, 45, 55, 52], &[100, 100, 110, 90, 100, 100]);
        let (mean, [lo, hi]) = paired(&report, "dynamic", BASELINE, "prompt_tokens").unwrap();
        assert!((mean - (302.0 - 600.0) / 6.0).abs() < 1e-9, "{mean}");
        assert!(lo < mean && mean < hi && hi < 0.0, "{lo} < {mean} < {hi} < 0");
        assert_eq!(study_cheaper_unmet(("dynamic", BASELINE), "prompt_tokens", &report), None);
        let unmet = study_cheaper_unmet((BASELINE, "dynamic"), "prompt_tokens", &report).unwrap();
        assert!(unmet.seen.starts_with("+49.7 prompt tokens per run ["), "{unmet:?}");
    }
}
