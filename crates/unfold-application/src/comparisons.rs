//! Comparing adapters, as `unfold compare` and the compare view do it: one scenario on one
//! template under several adapters, with the scenario's scripted model (and the all-FULL
//! baseline) or with a real model, timed and kept in the run history; and, for the app, the
//! comparisons under way (to cancel them) and the last one finished (its calls and exports).
//!
//! Nothing of a live comparison leaves it holding the provider's secrets: its progress as it is
//! told, its report, its calls, its history rows and its exports go out as a live run's do
//! ([`crate::redaction`]).

use std::borrow::Cow;
use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use unfold_documents::prices::Pricing;
use unfold_documents::provider_profile::ProviderProfile;
use unfold_documents::{Scenario, Template};
use unfold_engine::compare::{CallRequest, CompareControl, CompareProgress, Comparison, Lane};
use unfold_engine::request_shapes::RequestShape;
use unfold_engine::{AdapterKind, Provider};
use unfold_live::{ApiKey, CancellationToken, HttpProvider, Secrets, TextSink};
use unfold_stores::run_history::{now_ms, ComparisonOrigin};

use crate::error::{AppError, AppResult, ErrorCode};
use crate::exports;
use crate::lock;
use crate::prices::PriceFile;
use crate::profiles::Profiles;
use crate::redaction;
use crate::run_history::OpenRunHistory;
use crate::sources::SourceAccess;

/// The documents a comparison runs, with their files when they have them (the history keeps
/// where each run came from).
#[derive(Debug, Clone, Copy)]
pub struct ComparedDocuments<'a> {
    /// The template.
    pub template: &'a Template,
    /// Its file.
    pub template_path: Option<&'a Path>,
    /// The scenario.
    pub scenario: &'a Scenario,
    /// Its file.
    pub scenario_path: Option<&'a Path>,
}

/// The model a comparison's runs talk to.
pub enum ComparisonModel<'a> {
    /// The scenario's script under each of the adapters, then the all-FULL baseline; priced as
    /// the model `price_as` names, if it names one.
    Scripted {
        /// The adapters, in order.
        adapters: Vec<AdapterKind>,
        /// The model every run is priced as.
        price_as: Option<String>,
    },
    /// A real model under each of the adapters (one or more); no baseline (it would be paid for).
    Live(LiveModel<'a>),
}

impl ComparisonModel<'_> {
    /// The price its runs are costed at: a scripted comparison's as its `price_as` asks (an error
    /// when no file prices that model), a live one's as its model when a file prices it.
    pub fn pricing(&self, prices: &PriceFile) -> AppResult<Option<Pricing>> {
        match self {
            ComparisonModel::Scripted { price_as: Some(model), .. } => prices.pricing_as(model).map(Some),
            ComparisonModel::Scripted { price_as: None, .. } => Ok(None),
            ComparisonModel::Live(live) => prices.pricing_of(&live.profile.model),
        }
    }
}

/// A real model for a comparison: a new provider of `profile` for each run.
pub struct LiveModel<'a> {
    /// The provider profile.
    pub profile: ProviderProfile,
    /// The adapters to run, in order.
    pub adapters: Vec<AdapterKind>,
    /// Where each lane's model text goes as it is written.
    pub text: &'a (dyn Fn(Lane) -> TextSink + Sync),
    /// Cancelling it drops a call in flight.
    pub token: CancellationToken,
}

impl<'a> LiveModel<'a> {
    /// The live model of the profile `name` as the profile file says now, under `adapters` (at
    /// least one).
    pub fn of_profile(
        profiles: &Profiles,
        name: &str,
        adapters: Vec<AdapterKind>,
        text: &'a (dyn Fn(Lane) -> TextSink + Sync),
        token: CancellationToken,
    ) -> AppResult<LiveModel<'a>> {
        if adapters.is_empty() {
            return Err(AppError::new(ErrorCode::InvalidRequest, "choose at least one adapter to run live"));
        }
        let profile = profiles.get(name)?;
        // Before any run is paid for: a lane its API cannot run would fail after the others.
        crate::live_runs::check_adapters(&profile, &adapters)?;
        Ok(LiveModel { profile, adapters, text, token })
    }
}

/// A finished comparison, and why it was not kept in the run history if it was not (the
/// comparison stands all the same).
#[derive(Debug)]
pub struct KeptComparison {
    /// The comparison with every call's request and answer.
    pub comparison: Comparison,
    /// Why the history did not keep it.
    pub not_kept: Option<AppError>,
    /// What nothing written of it may hold (its exports, its trace): a live model's secrets.
    pub secrets: Secrets,
}

/// Runs the comparison under `control` (its observer told every run's start and event as it
/// happens, stopping before the next model call once its cancel flag is set), priced from the
/// shipped prices as the model asks, then keeps each run in `history`.
pub async fn compare_and_keep(
    documents: ComparedDocuments<'_>,
    model: ComparisonModel<'_>,
    control: CompareControl<'_>,
    history: &OpenRunHistory,
) -> AppResult<KeptComparison> {
    // The shipped prices alone: no user's file is read.
    let shipped = PriceFile(None);
    compare_with_consent_and_keep(documents, model, &SourceAccess::default(), &shipped, control, history).await
}

/// [`compare_and_keep`] with the template's tool sources reached for every run as `access`
/// allows (each run its own connections, closed when it ends; otherwise the runs see snapshots),
/// and every run priced from `prices` as the model asks ([`ComparisonModel::pricing`]): a price
/// that cannot be had, or a relay session that cannot be attached, fails before anything runs.
pub async fn compare_with_consent_and_keep(
    documents: ComparedDocuments<'_>,
    model: ComparisonModel<'_>,
    access: &SourceAccess,
    prices: &PriceFile,
    control: CompareControl<'_>,
    history: &OpenRunHistory,
) -> AppResult<KeptComparison> {
    if matches!(&model, ComparisonModel::Scripted { adapters, .. } if adapters.is_empty()) {
        return Err(AppError::new(ErrorCode::InvalidRequest, "choose at least one adapter to compare"));
    }
    let pricing = model.pricing(prices)?;
    access.check_relay().await?;
    let secrets = match &model {
        ComparisonModel::Live(live) => redaction::secrets_of(&live.profile),
        ComparisonModel::Scripted { .. } => Secrets::none(),
    };
    let CompareControl { observer, cancel, keep_requests } = control;
    let mut told = |progress| observer(redaction::told_progress(&secrets, progress));
    let control = CompareControl { observer: &mut told, cancel, keep_requests };
    let ComparedDocuments { template, scenario, .. } = documents;
    let started = (now_ms(), std::time::Instant::now());
    let mut comparison = match (&model, access.reaches(template)) {
        (ComparisonModel::Scripted { adapters, .. }, false) => {
            unfold_engine::compare::compare_observed(template, scenario, adapters, control).await
        }
        (ComparisonModel::Live(live), false) => {
            let mut providers = |lane: Lane| live_provider(live, lane);
            unfold_engine::compare::compare_live(template, scenario, &live.adapters, &mut providers, control).await
        }
        (model, true) => {
            let mut sources = access.sources(documents.template_path);
            let (adapters, mut make) = match model {
                ComparisonModel::Scripted { adapters, .. } => (adapters.clone(), None),
                ComparisonModel::Live(live) => (live.adapters.clone(), Some(|lane: Lane| live_provider(live, lane))),
            };
            let providers = make.as_mut().map(|make| make as &mut (dyn FnMut(Lane) -> _ + Send));
            unfold_engine::compare::compare_with_sources(
                template,
                scenario,
                &adapters,
                providers,
                &mut sources,
                control,
            )
            .await
        }
    }
    .map_err(|error| match documents.scenario_path {
        Some(path) => error.in_file(path),
        None => error,
    })
    .map_err(AppError::invalid_as(ErrorCode::InvalidScenario))?;
    redaction::scrub_comparison(&secrets, &mut comparison);
    if let Some(pricing) = &pricing {
        comparison.report.price(pricing);
    }
    // The history keeps the scenario's name and user message beside each run.
    let mut scenario = Cow::Borrowed(scenario);
    if !secrets.is_empty() {
        secrets.scrub_serialized(scenario.to_mut());
    }
    let origin = ComparisonOrigin {
        template,
        template_path: documents.template_path,
        scenario: &scenario,
        scenario_path: documents.scenario_path,
        live: match &model {
            ComparisonModel::Live(live) => Some((live.profile.name.as_str(), live.profile.model.as_str())),
            ComparisonModel::Scripted { .. } => None,
        },
        started_at_ms: started.0,
        duration_ms: started.1.elapsed().as_millis() as u64,
    };
    let not_kept = redaction::keep(history, &origin.records(&comparison.report), &secrets);
    Ok(KeptComparison { comparison, not_kept, secrets })
}

/// A new provider of the live model for `lane`, with the key as the profile says now.
fn live_provider(live: &LiveModel<'_>, lane: Lane) -> unfold_documents::Result<Box<dyn Provider + Send>> {
    let key = ApiKey::for_profile(&live.profile)?;
    let provider =
        HttpProvider::new(live.profile.clone(), key)?.with_cancel(live.token.clone()).with_text_sink((live.text)(lane));
    Ok(Box::new(provider))
}

/// The app's comparisons: those under way (their cancel flag and token, by the UI's run id) and
/// the last one finished, whose calls the UI asks for one at a time; a live one is priced as its
/// model from `prices`.
#[derive(Debug)]
pub struct Comparisons {
    running: Mutex<HashMap<u32, (Arc<AtomicBool>, CancellationToken)>>,
    /// The last comparison, by its run id, with what nothing written of it may hold.
    last: Mutex<Option<(u32, Comparison, Secrets)>>,
    prices: PriceFile,
}

impl Default for Comparisons {
    /// Priced from the user's prices file where the command line reads it too.
    fn default() -> Comparisons {
        Comparisons::with_prices(PriceFile(crate::folders::default_prices_file()))
    }
}

impl Comparisons {
    /// No comparison yet; live ones priced from `prices`.
    pub fn with_prices(prices: PriceFile) -> Comparisons {
        Comparisons { running: Mutex::default(), last: Mutex::default(), prices }
    }

    /// Runs a comparison the UI names `run_id` (for `cancel`, and for its calls afterwards), with
    /// the template's sources reached as `access` allows, a live one priced as its model when a
    /// prices file has it, and keeps it as the last one.
    pub async fn run<'m>(
        &self,
        run_id: u32,
        documents: ComparedDocuments<'_>,
        model: impl FnOnce(CancellationToken) -> AppResult<ComparisonModel<'m>>,
        access: &SourceAccess,
        observer: &mut (dyn FnMut(CompareProgress) + Send),
        history: &OpenRunHistory,
    ) -> AppResult<unfold_engine::ComparisonReport> {
        let (cancel, token) = (Arc::new(AtomicBool::new(false)), CancellationToken::new());
        let model = model(token.clone())?;
        lock(&self.running).insert(run_id, (Arc::clone(&cancel), token));
        // The app's call inspector shows every call's request.
        let control = CompareControl { observer, cancel: &cancel, keep_requests: true };
        let outcome = compare_with_consent_and_keep(documents, model, access, &self.prices, control, history).await;
        lock(&self.running).remove(&run_id);
        let kept = outcome?;
        let report = kept.comparison.report.clone();
        *lock(&self.last) = Some((run_id, kept.comparison, kept.secrets));
        Ok(report)
    }

    /// Asks the comparison `run_id` to stop: a scripted one before its next model call, a live one
    /// at once (its call in flight is dropped); nothing when it has ended.
    pub fn cancel(&self, run_id: u32) {
        if let Some((flag, token)) = lock(&self.running).get(&run_id) {
            flag.store(true, Ordering::Relaxed);
            token.cancel();
        }
    }

    /// `work` on the last comparison, which must be `run_id`, and its secrets.
    fn with_last<T>(&self, run_id: u32, work: impl FnOnce(&Comparison, &Secrets) -> AppResult<T>) -> AppResult<T> {
        match &*lock(&self.last) {
            Some((id, comparison, secrets)) if *id == run_id => work(comparison, secrets),
            _ => {
                Err(AppError::new(ErrorCode::NotFound, format!("comparison {run_id} is no longer kept: run it again")))
            }
        }
    }

    /// What model call `call_index` of `lane` was sent, and what it answered.
    pub fn call(&self, run_id: u32, lane: Lane, call_index: u32) -> AppResult<CallRequest> {
        self.with_last(run_id, |comparison, _| {
            comparison.call(lane, call_index).cloned().ok_or_else(|| {
                let message = format!("the {} run made no model call {call_index}", lane.name());
                AppError::new(ErrorCode::NotFound, message)
            })
        })
    }

    /// Writes the comparison report (`unfold compare --json`) to `path`, atomically; refused if
    /// it holds a live model's secrets.
    pub fn export_report(&self, run_id: u32, path: &str) -> AppResult<()> {
        self.with_last(run_id, |comparison, secrets| {
            exports::write_report(Path::new(path), &comparison.report, secrets)
        })
    }

    /// Writes every model call's request body into `folder` (new or empty) in `shape`, none if one
    /// holds a live model's secrets; returns how many.
    pub fn export_requests(&self, run_id: u32, folder: &str, shape: RequestShape) -> AppResult<u32> {
        self.with_last(run_id, |comparison, secrets| {
            let written = exports::write_request_files(Path::new(folder), &comparison.requests, shape, secrets)?;
            Ok(u32::try_from(written).unwrap_or(u32::MAX))
        })
    }
}
