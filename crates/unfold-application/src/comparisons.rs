//! Comparisons, as `unfold compare` and the compare view make them: a [`ComparisonRequest`]
//! resolved (its documents opened or read, its model made, its sources reached as the user
//! allowed, its relay session attached), run by the engine's one entry with its progress told as
//! it happens, priced, kept in the run history and written as it asks; and, for the app, the
//! comparisons under way (to cancel them) and the last one finished (its calls and exports).
//!
//! Nothing of a live comparison leaves it holding the provider's secrets: its progress as it is
//! told, its report, its calls, its history rows and its exports go out as a live run's do
//! ([`crate::redaction`]).

use std::borrow::Cow;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use unfold_documents::provider_profile::ProviderProfile;
use unfold_documents::{Scenario, Template};
use unfold_engine::compare::{CallRequest, CompareProgress, Comparison, Drive, Lane, LaneModel, Lanes};
use unfold_engine::fork::Fork;
use unfold_engine::lane::REAL_HOST_PREFIX;
use unfold_engine::request_shapes::{RequestModel, RequestShape};
use unfold_engine::{AdapterKind, ComparisonReport, LaneSpec, Provider, RunReport};
use unfold_live::shared_pace::SharedPace;
use unfold_live::{ApiKey, CancellationToken, HttpProvider, Secrets, TextSink};
use unfold_stores::run_history::ForkedFrom;
use unfold_stores::run_history::{now_ms, ComparisonOrigin};

use crate::cache_nonce::{conversation_nonce, Nonced};
use crate::chart_images::{self, ChartImage};
pub use crate::comparison_request::{
    ComparisonModel, ComparisonOutputs, ComparisonRequest, DocumentRef, RelayAttachment, RequestFiles, SourceUse,
};
use crate::consents::Consents;
use crate::error::{AppError, AppResult, ErrorCode};
use crate::exports::ReportFormat;
use crate::live_hosts::LiveModel;
use crate::prices::PriceFile;
use crate::profiles::Profiles;
use crate::real_hosts::{self, HostLab, HostRunOptions, PreparedHost};
use crate::relay::RelayService;
use crate::run_history::OpenRunHistory;
use crate::scenarios::Scenarios;
use crate::sources::{Consent, SourceReach, SourceShortfall};
use crate::templates::Templates;
use crate::traces::{self, ComparisonClock, TraceContext};
use crate::{exports, files, lock, redaction, suite_cases};

/// Told every lane's start, every event and a live model's text as they happen.
pub type ProgressListener = Arc<dyn Fn(CompareProgress) + Send + Sync>;

/// What comparisons read and where they are kept: the documents open in the app, the provider
/// profiles, the prices, what the user allowed of each source, the app's relay and the history.
#[derive(Clone)]
pub struct ComparisonContext {
    /// The templates open in the app (none open for the command line).
    pub templates: Arc<Templates>,
    /// The scenarios open in the app.
    pub scenarios: Arc<Scenarios>,
    /// The provider profiles a live model is found in.
    pub profiles: Arc<Profiles>,
    /// The prices the lanes are costed at.
    pub prices: PriceFile,
    /// What the user allowed of each source in the app; none: [`SourceUse::Allowed`] allows
    /// nothing.
    pub consents: Option<Arc<Consents>>,
    /// The app's own relay, whose sessions a request names by code alone.
    pub relay: Option<Arc<RelayService>>,
    /// Where every lane is kept.
    pub history: Arc<OpenRunHistory>,
    /// Where real hosts' lanes run; none: a request naming one fails.
    pub host_lab: Option<Arc<HostLab>>,
}

impl ComparisonContext {
    /// No document open, the profiles and prices where the user keeps them, no permission and
    /// no relay of the app's: what the command line has.
    pub fn of_files(history: OpenRunHistory) -> ComparisonContext {
        ComparisonContext {
            templates: Arc::default(),
            scenarios: Arc::default(),
            profiles: Arc::new(Profiles(crate::folders::default_profiles_file())),
            prices: PriceFile(crate::folders::default_prices_file()),
            consents: None,
            relay: None,
            history: Arc::new(history),
            host_lab: None,
        }
    }
}

/// A finished comparison.
#[derive(Debug)]
pub struct FinishedComparison {
    /// The report, priced and scrubbed of a live model's secrets.
    pub report: ComparisonReport,
    /// Why the history did not keep it, if it did not (the comparison stands all the same).
    pub not_kept: Option<AppError>,
    /// The history's ids of its runs, in the report's order (lanes, then the baseline); none when
    /// the history did not keep them.
    pub kept: Vec<i64>,
    /// How many request bodies were written, when asked.
    pub requests_written: Option<usize>,
    /// Each source a lane reached for that gave less than its live list, once.
    pub shortfalls: Vec<SourceShortfall>,
    /// Calls of the scenario that will fail (it may test them), found before it ran; none for a
    /// study's repetition, whose study finds them once.
    pub scenario_warnings: Vec<String>,
}

/// The comparisons of one front: those under way (their cancel flag and token, by the caller's
/// run id) and the last one finished that had a run id, whose calls the UI asks for one at a time.
pub struct Comparisons {
    context: ComparisonContext,
    running: Mutex<HashMap<u32, ComparisonStop>>,
    /// The last comparison that had a run id.
    last: Mutex<Option<KeptComparison>>,
}

/// A finished comparison kept for the UI's later questions.
struct KeptComparison {
    run_id: u32,
    comparison: Comparison,
    /// What nothing written of it may hold.
    secrets: Secrets,
    /// The model its request bodies are ready to be sent to: the live profile's, else the one it
    /// was priced as.
    sent_to: Option<RequestModel>,
    /// Where the history keeps its runs: its lanes', then the baseline's (none: not kept).
    kept: Vec<i64>,
}

impl std::fmt::Debug for Comparisons {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Comparisons").finish_non_exhaustive()
    }
}

/// A request's documents, read or taken from the app.
#[derive(Debug, Clone)]
pub(crate) struct Resolved {
    template: Arc<Template>,
    template_path: Option<PathBuf>,
    scenario: Arc<Scenario>,
    scenario_path: Option<PathBuf>,
}

impl Resolved {
    /// The template.
    pub(crate) fn template(&self) -> &Template {
        &self.template
    }

    /// The template's file, if it has one.
    pub(crate) fn template_path(&self) -> Option<&Path> {
        self.template_path.as_deref()
    }

    /// The scenario.
    pub(crate) fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// The scenario's calls that will fail on the template (it may test them).
    pub(crate) fn scenario_warnings(&self) -> Vec<String> {
        self.scenario.warnings_with(&self.template).iter().map(ToString::to_string).collect()
    }
}

/// How a study runs a comparison again and again: a live lane's prompts after a nonce, the
/// documents read once, no all-FULL baseline.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Repetition<'a> {
    /// What a live lane's prompts start with (with the lane's name), if anything.
    pub nonce: Option<&'a str>,
    /// The documents as the study read them, instead of the request's.
    pub documents: Option<&'a Resolved>,
    /// Whether the scripted model's baseline is left out.
    pub no_baseline: bool,
    /// The pace a live lane's requests keep with the other repetitions under way.
    pub pace: Option<&'a Arc<SharedPace>>,
    /// The stop of this repetition (the study's stops it too).
    pub stop: Option<&'a ComparisonStop>,
    /// The clock its lanes are timed with, a real host's too.
    pub clock: Option<&'a Mutex<ComparisonClock>>,
    /// The recorded conversation its lanes go on from, and the kept run it is, if it is kept.
    pub fork: Option<(&'a Fork, Option<ForkedFrom>)>,
}

/// Stops comparisons under way: a scripted one before its next model call, a live one at once
/// (its call in flight is dropped).
#[derive(Debug, Clone, Default)]
pub struct ComparisonStop {
    flag: Arc<AtomicBool>,
    token: CancellationToken,
    /// The flags of the stops made from this one, which it stops too.
    children: Arc<Mutex<Vec<std::sync::Weak<AtomicBool>>>>,
}

impl ComparisonStop {
    /// Stops them.
    pub fn stop(&self) {
        self.flag.store(true, Ordering::Relaxed);
        self.token.cancel();
        for child in lock(&self.children).drain(..).filter_map(|child| child.upgrade()) {
            child.store(true, Ordering::Relaxed);
        }
    }

    /// A stop of its own for a part of what this one stops (a repetition of a study): this one
    /// stops it too, and stopping it stops nothing else.
    pub(crate) fn child(&self) -> ComparisonStop {
        let flag = Arc::new(AtomicBool::new(false));
        let mut children = lock(&self.children);
        children.retain(|child| child.strong_count() > 0);
        children.push(Arc::downgrade(&flag));
        // Under the lock, so a stop that comes now reaches it either way.
        flag.store(self.stopped(), Ordering::Relaxed);
        ComparisonStop { flag, token: self.token.child_token(), children: Arc::default() }
    }

    /// Whether they were stopped.
    pub fn stopped(&self) -> bool {
        self.flag.load(Ordering::Relaxed)
    }
}

impl Comparisons {
    /// No comparison yet.
    pub fn new(context: ComparisonContext) -> Comparisons {
        Comparisons { context, running: Mutex::default(), last: Mutex::default() }
    }

    /// Runs `request`, telling `listener` as it goes: checks what it would write, reads its
    /// documents, prices it (a price that cannot be had, a live model that cannot run every lane
    /// or a relay session that cannot be attached fails before anything runs), runs its lanes,
    /// keeps them in the history and writes what it asks.
    pub async fn run(&self, request: ComparisonRequest, listener: ProgressListener) -> AppResult<FinishedComparison> {
        self.run_again(request, listener, Repetition::default()).await
    }

    /// What its comparisons read.
    pub(crate) fn context(&self) -> &ComparisonContext {
        &self.context
    }

    /// Runs `request` as [`Comparisons::run`] does, as one repetition of a study: see
    /// [`Repetition`].
    pub(crate) async fn run_again(
        &self,
        request: ComparisonRequest,
        listener: ProgressListener,
        repetition: Repetition<'_>,
    ) -> AppResult<FinishedComparison> {
        let Repetition { nonce, documents: read, no_baseline, pace, stop, clock, fork } = repetition;
        let (fork, forked_from) = (fork.map(|(fork, _)| fork), fork.and_then(|(_, kept)| kept));
        let (real, simulated): (Vec<String>, Vec<String>) =
            request.lanes.iter().cloned().partition(|lane| Lane::named(lane).real_host_name().is_some());
        let lanes = distinct(crate::hosts::lane_specs(&simulated)?, LaneSpec::lane);
        let real_hosts = self.real_hosts(&real)?;
        // A fork may go on in real hosts alone: it runs no baseline to set them against.
        let hosts_alone = no_baseline && !real_hosts.is_empty();
        if lanes.is_empty() && !hosts_alone {
            let what = match request.model {
                ComparisonModel::Scripted { .. } => "choose at least one adapter to compare",
                ComparisonModel::Live { .. } => "choose at least one adapter to run live",
            };
            return Err(AppError::new(ErrorCode::InvalidRequest, what));
        }
        check_outputs(&request.outputs)?;
        let documents = match read {
            Some(read) => read.clone(),
            None => self.resolve(&request)?,
        };
        let profile = match &request.model {
            ComparisonModel::Live { profile } => {
                let profile = self.context.profiles.get(profile)?;
                // Before any lane is paid for: a lane its API cannot run would fail after the others.
                let adapters: Vec<AdapterKind> = lanes.iter().map(LaneSpec::adapter).collect();
                crate::live_runs::check_adapters(&profile, &adapters)?;
                Some(profile)
            }
            ComparisonModel::Scripted { .. } => None,
        };
        // The real hosts of a live comparison talk to its model; one of another API fails now.
        let host_model = match (&profile, real_hosts.is_empty()) {
            (Some(profile), false) => Some(LiveModel::of_profile(profile.clone())?),
            _ => None,
        };
        if let Some(model) = &host_model {
            real_hosts.iter().try_for_each(|host| model.check_host(host.name(), host.api()))?;
        }
        let pricing = match (&request.model, &profile) {
            (ComparisonModel::Scripted { price_as: Some(model) }, _) => Some(self.context.prices.pricing_as(model)?),
            (ComparisonModel::Scripted { price_as: None }, _) => self.context.prices.default_pricing()?,
            (ComparisonModel::Live { .. }, Some(profile)) => self.context.prices.pricing_of(&profile.model)?,
            (ComparisonModel::Live { .. }, None) => None,
        };
        let access = self.access(&request, &documents)?;
        access.check_relay().await?;
        let secrets = profile.as_ref().map_or_else(Secrets::none, redaction::secrets_of);
        let sent_to = match &profile {
            Some(profile) => Some(RequestModel { model: profile.model.clone(), max_tokens: profile.max_tokens }),
            None => pricing.as_ref().map(|pricing| RequestModel { model: pricing.model.clone(), max_tokens: None }),
        };

        let stop = stop.cloned().unwrap_or_default();
        if let Some(id) = request.run_id {
            lock(&self.running).insert(id, stop.clone());
        }
        let ComparisonStop { flag: cancel, token, .. } = stop;
        let live = profile.as_ref().map(|profile| LiveLanes { profile, token, listener: &listener, nonce, pace });
        let own_clock = Mutex::default();
        let clock = clock.unwrap_or(&own_clock);
        let started = (now_ms(), std::time::Instant::now());
        let drive = LaneDrive { live, access: &access, secrets: &secrets, cancel: &cancel, clock, no_baseline, fork };
        let outcome = self.run_lanes(&request, &documents, lanes, drive, &listener).await;
        if let Some(id) = request.run_id {
            lock(&self.running).remove(&id);
        }
        let mut comparison = outcome?;
        let hosts = RealHostRuns { hosts: &real_hosts, model: host_model.as_ref(), fork };
        let told = |progress: CompareProgress| {
            lock(clock).saw(&progress);
            listener(progress);
        };
        self.run_real_hosts(hosts, &documents, &mut comparison, &cancel, &told).await?;
        redaction::scrub_comparison(&secrets, &mut comparison);
        if let Some(pricing) = &pricing {
            comparison.report.price(pricing);
        }
        let kept = match request.outputs.history {
            true => self.keep(&documents, profile.as_ref(), &comparison, &secrets, (started, forked_from)),
            false => Ok(Vec::new()),
        };
        let (kept, not_kept) = match kept {
            Ok(ids) => (ids, None),
            Err(error) => (Vec::new(), Some(error)),
        };
        if let Some(path) = &request.outputs.trace {
            let context = match &profile {
                Some(profile) => TraceContext::live(profile.kind, &profile.model),
                None => TraceContext::scripted(pricing.as_ref().map(|pricing| pricing.model.as_str())),
            };
            let lines = traces::comparison_lines(&comparison.report, &lock(clock), &context);
            traces::write_trace_file(path, &lines, &secrets)?;
        }
        let requests_written = match &request.outputs.requests {
            Some(RequestFiles { folder, shape }) => {
                Some(exports::write_request_files(folder, &comparison.requests, *shape, sent_to.as_ref(), &secrets)?)
            }
            None => None,
        };
        let report = &comparison.report;
        let runs = report.runs.iter().chain(report.baseline.iter().map(|baseline| &baseline.run));
        let shortfalls = crate::sources::shortfalls(&documents.template, &access, runs);
        let finished = FinishedComparison {
            report: comparison.report.clone(),
            not_kept,
            kept,
            requests_written,
            shortfalls,
            scenario_warnings: match read {
                Some(_) => Vec::new(),
                None => documents.scenario_warnings(),
            },
        };
        if let Some(id) = request.run_id {
            let kept = finished.kept.clone();
            *lock(&self.last) = Some(KeptComparison { run_id: id, comparison, secrets, sent_to, kept });
        }
        Ok(finished)
    }

    /// The real hosts `lanes` name (`real:NAME`, each once), found and allowed, before anything
    /// runs. They answer to the scenario's script, or with a live model are forwarded to it (live
    /// hosts).
    fn real_hosts(&self, lanes: &[String]) -> AppResult<Vec<PreparedHost>> {
        if lanes.is_empty() {
            return Ok(Vec::new());
        }
        let Some(lab) = &self.context.host_lab else {
            return Err(AppError::new(ErrorCode::Unavailable, "real hosts cannot run here"));
        };
        let names = lanes.iter().filter_map(|lane| lane.strip_prefix(REAL_HOST_PREFIX)).collect();
        let names: Vec<&str> = distinct(names, |name: &&str| *name);
        let prepared = names.iter().map(|name| lab.prepare(name, &[])).collect::<AppResult<Vec<_>>>()?;
        match prepared.iter().find(|host| !lab.allowed(host)) {
            Some(host) => Err(HostLab::not_allowed(host)),
            None => Ok(prepared),
        }
    }

    /// Runs each of `hosts` once, after the simulated lanes, into `comparison`: its run set
    /// against the first lane and weighed with the others, its requests kept for the inspector.
    async fn run_real_hosts(
        &self,
        RealHostRuns { hosts, model, fork }: RealHostRuns<'_>,
        documents: &Resolved,
        comparison: &mut Comparison,
        cancel: &Arc<AtomicBool>,
        told: &(dyn Fn(CompareProgress) + Sync),
    ) -> AppResult<()> {
        let Some(lab) = &self.context.host_lab else { return Ok(()) };
        // A fork's host is given the fork's results by the order of its calls.
        let scenario = match fork {
            Some(fork) => Cow::Owned(fork.scenario_for_host(&documents.scenario, &documents.template)),
            None => Cow::Borrowed(documents.scenario.as_ref()),
        };
        for host in hosts {
            let lane = Lane::real_host(host.name());
            told(CompareProgress::RunStarted { lane: lane.clone() });
            // After its start is told: whoever heard it may have stopped it (a study's budget).
            if cancel.load(Ordering::Relaxed) {
                return Err(AppError::new(ErrorCode::Cancelled, "the comparison was cancelled"));
            }
            let options = HostRunOptions {
                cancel: Some(Arc::clone(cancel)),
                model: model.cloned(),
                recorded: fork.map(|fork| fork.answers_for(&lane)).unwrap_or_default(),
                ..HostRunOptions::default()
            };
            let runs = lab.run(host, &documents.template, &scenario, &options, &mut |_, _| {}).await?;
            for run in runs {
                for event in &run.report.events {
                    told(CompareProgress::Event { lane: lane.clone(), event: Box::new(event.clone()) });
                }
                // The inspector's calls: the lanes' in the report's order, then the baseline's.
                let before_baseline = comparison
                    .requests
                    .iter()
                    .position(|calls| calls.lane.is_baseline())
                    .unwrap_or(comparison.requests.len());
                comparison.requests.insert(before_baseline, real_hosts::run_requests(host.name(), &run));
                comparison.report.add_runs(vec![run.report]);
            }
        }
        Ok(())
    }

    /// The request's template and scenario: open in the app, or read from their files.
    /// The template and scenario `request` names, as they are now.
    /// The documents `request` runs on, read from their files or taken from the app.
    pub(crate) fn resolve(&self, request: &ComparisonRequest) -> AppResult<Resolved> {
        let (template, template_path) = match &request.template {
            DocumentRef::Open(id) => self.context.templates.document(*id)?,
            DocumentRef::File(path) => {
                let template = Template::load(path).map_err(AppError::invalid_as(ErrorCode::InvalidTemplate))?;
                (template, Some(path.clone()))
            }
        };
        let (scenario, scenario_path) = match &request.scenario {
            DocumentRef::Open(id) => self.context.scenarios.document(*id)?,
            DocumentRef::File(path) => {
                let scenario = Scenario::load(path).map_err(AppError::invalid_as(ErrorCode::InvalidScenario))?;
                (scenario, Some(path.clone()))
            }
        };
        Ok(Resolved { template: Arc::new(template), template_path, scenario: Arc::new(scenario), scenario_path })
    }

    /// What the lanes may reach of the template's sources, as the request says.
    fn access(&self, request: &ComparisonRequest, documents: &Resolved) -> AppResult<SourceReach> {
        let consent = match &request.sources {
            SourceUse::Snapshots => Consent::default(),
            SourceUse::Allowed => match &self.context.consents {
                Some(consents) => consents.consent(&documents.template, documents.template_path.as_deref()),
                None => Consent::default(),
            },
            SourceUse::Every { remote } => Consent::every_source(true, remote.iter().cloned()),
        };
        let relay = match &request.relay_session {
            None => None,
            Some(attachment) => match (attachment.session_elsewhere()?, &self.context.relay) {
                (Some(elsewhere), _) => Some(elsewhere),
                (None, Some(own)) => Some(own.attach(&attachment.code)?),
                (None, None) => {
                    let why = "no relay runs here: say where the session's relay listens";
                    return Err(AppError::new(ErrorCode::InvalidRequest, why));
                }
            },
        };
        Ok(SourceReach { consent, relay })
    }

    /// The engine's comparison of `lanes` as `drive` says, told to `listener`.
    async fn run_lanes(
        &self,
        request: &ComparisonRequest,
        documents: &Resolved,
        lanes: Vec<LaneSpec>,
        drive: LaneDrive<'_>,
        listener: &ProgressListener,
    ) -> AppResult<Comparison> {
        let LaneDrive { live, access, secrets, cancel, clock, no_baseline, fork } = drive;
        let mut told = |progress: CompareProgress| {
            lock(clock).saw(&progress);
            listener(redaction::told_progress(secrets, progress));
        };
        let mut providers = live.map(|live| move |lane: Lane| live.provider(lane));
        let mut sources = access.sources(documents.template_path.as_deref());
        let drive = Drive {
            model: match providers.as_mut() {
                Some(providers) => LaneModel::Live(providers),
                None => LaneModel::Scripted,
            },
            sources: access.reaches(&documents.template).then_some(&mut sources),
            observer: Some(&mut told),
            cancel: Some(cancel),
            // The app's call inspector shows every call of the comparison it names.
            keep_requests: request.run_id.is_some() || request.outputs.requests.is_some(),
            no_baseline,
            fork,
        };
        let lanes = Lanes::of(&documents.template, &documents.scenario, lanes);
        unfold_engine::compare(lanes, drive)
            .await
            .map_err(|error| match &documents.scenario_path {
                Some(path) => error.in_file(path),
                None => error,
            })
            .map_err(AppError::invalid_as(ErrorCode::InvalidScenario))
    }

    /// Keeps every lane in the history, with the scenario (scrubbed of `secrets`) beside each.
    fn keep(
        &self,
        documents: &Resolved,
        profile: Option<&ProviderProfile>,
        comparison: &Comparison,
        secrets: &Secrets,
        (started, forked_from): ((u64, std::time::Instant), Option<ForkedFrom>),
    ) -> AppResult<Vec<i64>> {
        let mut scenario = Cow::Borrowed(&documents.scenario);
        if !secrets.is_empty() {
            secrets.scrub_serialized(scenario.to_mut());
        }
        let origin = ComparisonOrigin {
            template: &documents.template,
            template_path: documents.template_path.as_deref(),
            scenario: &scenario,
            scenario_path: documents.scenario_path.as_deref(),
            live: profile.map(|profile| (profile.name.as_str(), profile.model.as_str())),
            started_at_ms: started.0,
            duration_ms: started.1.elapsed().as_millis() as u64,
            forked_from,
        };
        redaction::keep(&self.context.history, &origin.records(&comparison.report), secrets)
    }

    /// Asks the comparison `run_id` to stop: a scripted one before its next model call, a live one
    /// at once (its call in flight is dropped); nothing when it has ended.
    pub fn cancel(&self, run_id: u32) {
        if let Some(stop) = lock(&self.running).get(&run_id) {
            stop.stop();
        }
    }

    /// `work` on the last comparison, which must be `run_id`, and its secrets.
    fn with_last<T>(&self, run_id: u32, work: impl FnOnce(&KeptComparison) -> AppResult<T>) -> AppResult<T> {
        match &*lock(&self.last) {
            Some(kept) if kept.run_id == run_id => work(kept),
            _ => {
                Err(AppError::new(ErrorCode::NotFound, format!("comparison {run_id} is no longer kept: run it again")))
            }
        }
    }

    /// The run of `lane` in the comparison `run_id`, and where the history keeps it.
    pub(crate) fn last_run(&self, run_id: u32, lane: &Lane) -> AppResult<(RunReport, Option<i64>)> {
        self.with_last(run_id, |KeptComparison { comparison, kept, .. }| {
            let report = &comparison.report;
            let runs = report.runs.iter().chain(report.baseline.iter().map(|baseline| &baseline.run));
            let lanes = report.runs.iter().map(RunReport::lane).chain(report.baseline.iter().map(|_| Lane::baseline()));
            let found = runs.zip(lanes).enumerate().find(|(_, (_, name))| name == lane);
            match found {
                Some((index, (run, _))) => Ok((run.clone(), kept.get(index).copied())),
                None => {
                    let message = format!("comparison {run_id} has no {} lane", lane.name());
                    Err(AppError::new(ErrorCode::NotFound, message))
                }
            }
        })
    }

    /// What model call `call_index` of `lane` was sent, and what it answered.
    pub fn call(&self, run_id: u32, lane: Lane, call_index: u32) -> AppResult<CallRequest> {
        self.with_last(run_id, |KeptComparison { comparison, .. }| {
            comparison.call(&lane, call_index).cloned().ok_or_else(|| {
                let message = format!("the {} run made no model call {call_index}", lane.name());
                AppError::new(ErrorCode::NotFound, message)
            })
        })
    }

    /// Writes the comparison report (`unfold compare --json`, or its Markdown) to `path`,
    /// atomically; refused if it holds a live model's secrets.
    pub fn export_report(&self, run_id: u32, path: &str, format: ReportFormat) -> AppResult<()> {
        self.with_last(run_id, |KeptComparison { comparison, secrets, .. }| {
            exports::write_report(Path::new(path), &comparison.report, format, secrets)
        })
    }

    /// Writes the chart of the comparison `run_id`, as the app drew it, to `path`; refused if its
    /// SVG holds a live model's secrets (see [`chart_images::write_chart`]).
    pub fn export_chart(&self, run_id: u32, path: &str, image: &ChartImage) -> AppResult<()> {
        self.with_last(run_id, |KeptComparison { secrets, .. }| {
            chart_images::write_chart(Path::new(path), image, secrets)
        })
    }

    /// Adds the comparison `run_id` of the files `template` and `scenario` to the suite file
    /// `suite` as a case whose expectations are what its runs showed (see [`suite_cases`]);
    /// returns the case's name.
    pub fn add_to_suite(&self, run_id: u32, suite: &str, template: &str, scenario: &str) -> AppResult<String> {
        self.with_last(run_id, |KeptComparison { comparison, .. }| {
            suite_cases::add_case(Path::new(suite), Path::new(template), Path::new(scenario), &comparison.report)
        })
    }

    /// Writes every model call's request body into `folder` (new or empty) in `shape`, ready to
    /// send, none if one holds a live model's secrets; returns how many.
    pub fn export_requests(&self, run_id: u32, folder: &str, shape: RequestShape) -> AppResult<u32> {
        self.with_last(run_id, |KeptComparison { comparison, secrets, sent_to, .. }| {
            let written = exports::write_request_files(
                Path::new(folder),
                &comparison.requests,
                shape,
                sent_to.as_ref(),
                secrets,
            )?;
            Ok(u32::try_from(written).unwrap_or(u32::MAX))
        })
    }
}

/// How a request's lanes are driven: a live model's, what they reach, what nothing told may hold,
/// their stop, and the clock of their trace.
struct LaneDrive<'a> {
    live: Option<LiveLanes<'a>>,
    access: &'a SourceReach,
    secrets: &'a Secrets,
    cancel: &'a AtomicBool,
    clock: &'a Mutex<ComparisonClock>,
    no_baseline: bool,
    fork: Option<&'a Fork>,
}

/// The real hosts a comparison runs after its lanes, the live model they talk to and the fork
/// they go on from, if any.
struct RealHostRuns<'a> {
    hosts: &'a [PreparedHost],
    model: Option<&'a LiveModel>,
    /// The fork they go on from, if any.
    fork: Option<&'a Fork>,
}

/// A live model's lanes: a new provider of `profile` for each, cancelled by `token`, its text
/// told to `listener` as it is written, its prompts starting with `nonce` when there is one.
struct LiveLanes<'a> {
    profile: &'a ProviderProfile,
    token: CancellationToken,
    listener: &'a ProgressListener,
    nonce: Option<&'a str>,
    pace: Option<&'a Arc<SharedPace>>,
}

impl LiveLanes<'_> {
    /// A new provider for `lane`, with the key as the profile says now.
    fn provider(&self, lane: Lane) -> unfold_documents::Result<Box<dyn Provider + Send>> {
        let key = ApiKey::for_profile(self.profile)?;
        let nonce = self.nonce.map(|nonce| conversation_nonce(nonce, lane.name()));
        let listener = Arc::clone(self.listener);
        let text = TextSink(Arc::new(move |text: &str| {
            listener(CompareProgress::Text { lane: lane.clone(), text: text.to_owned() });
        }));
        let mut provider =
            HttpProvider::new(self.profile.clone(), key)?.with_cancel(self.token.clone()).with_text_sink(text);
        if let Some(pace) = self.pace {
            provider = provider.with_pace(Arc::clone(pace));
        }
        Ok(match nonce {
            Some(nonce) => Box::new(Nonced::new(Box::new(provider), nonce)),
            None => Box::new(provider),
        })
    }
}

/// `items` in the order asked, each once by `key` (a lane named twice runs once).
fn distinct<T, K: PartialEq>(items: Vec<T>, key: impl Fn(&T) -> K) -> Vec<T> {
    let mut unique: Vec<T> = Vec::new();
    for item in items {
        if !unique.iter().any(|kept| key(kept) == key(&item)) {
            unique.push(item);
        }
    }
    unique
}

/// Checks, before anything runs, that what the request writes can be written.
fn check_outputs(outputs: &ComparisonOutputs) -> AppResult<()> {
    if let Some(path) = &outputs.trace {
        files::check_output_file(path, "the trace")?;
    }
    if let Some(RequestFiles { folder, .. }) = &outputs.requests {
        if let Some(problem) = exports::request_folder_problem(folder)? {
            let message = format!("{}: {problem}", unfold_documents::error::printable_path(folder));
            return Err(AppError::new(ErrorCode::InvalidRequest, message));
        }
    }
    Ok(())
}
