//! Runs with a real model, as `unfold run`, `unfold replay` and `unfold to-scenario` make them: a
//! template run once under one adapter with a provider profile (recorded into a cassette on
//! request), a recorded run answered again from its cassette, and a cassette turned into a
//! scenario; every run timed and kept in the run history.
//!
//! Nothing of a live run leaves it holding the provider's secrets: its events as they are told,
//! its report, its cassette and its history row are scrubbed of them in every form, and what is
//! written is checked once more first ([`crate::redaction`]). A cassette is replayed and turned
//! into a scenario redacted with the secrets of the profile it names, when they can be read: one
//! recorded by an earlier version may hold a key split across a stream's pieces.

use std::path::Path;
use std::time::Instant;

use indexmap::IndexMap;
use unfold_documents::prices::Pricing;
use unfold_documents::provider_profile::ProviderProfile;
use unfold_documents::{Scenario, Template};
use unfold_engine::{adapter_for, AdapterKind, Event, RunInput, RunLimits, RunReport};
use unfold_engine::{ToolHost, ToolSources};
use unfold_live::recorded_sources::RecordingHost;
use unfold_live::{ApiKey, Cassette, HttpProvider, Secrets};
use unfold_stores::run_history::{now_ms, RunOrigin, RunRecord};

use crate::error::{AppError, AppResult, ErrorCode};
use crate::profiles::Profiles;
use crate::redaction;
use crate::run_history::OpenRunHistory;
use crate::sources::SourceReach;

/// A live run to make.
pub struct LiveRunRequest<'a> {
    /// The template, and its file.
    pub template: (&'a Template, &'a Path),
    /// The provider profile (with any model override already applied).
    pub profile: ProviderProfile,
    /// The user's messages, one per turn (at least one).
    pub user_turns: Vec<String>,
    /// Parameter values over the template's defaults.
    pub params: IndexMap<String, String>,
    /// The adapter.
    pub adapter: AdapterKind,
    /// The run's limits.
    pub limits: RunLimits,
    /// Whether to record the run into a cassette.
    pub record: bool,
    /// What the run may reach of the template's tool sources (nothing: their snapshots).
    pub access: SourceReach,
    /// The model's price, when a prices file has it: the run is priced at it.
    pub pricing: Option<Pricing>,
}

/// A finished run, its cassette when it was recorded, and why the history did not keep it if it
/// did not (the run stands all the same).
#[derive(Debug)]
pub struct FinishedRun {
    /// The run's report.
    pub report: RunReport,
    /// The recorded run.
    pub cassette: Option<Cassette>,
    /// Why the history did not keep it.
    pub not_kept: Option<AppError>,
    /// What nothing written of the run may hold (its trace, its cassette).
    pub secrets: Secrets,
}

impl FinishedRun {
    /// Writes the run's cassette, if it was recorded, to `path`; refused if it holds a secret.
    pub fn write_cassette(&self, path: &Path) -> AppResult<()> {
        match &self.cassette {
            Some(cassette) => Ok(cassette.write(path, &self.secrets)?),
            None => Ok(()),
        }
    }
}

/// The secrets of the profile a cassette names, as far as they can be read now (none when the
/// profile is gone).
fn cassette_secrets(cassette: &Cassette, profiles: &Profiles) -> Secrets {
    profiles.get(&cassette.provider.name).map_or_else(|_| Secrets::none(), |profile| redaction::secrets_of(&profile))
}

/// Refuses, before anything is sent, an adapter `profile`'s API cannot run: `allowed_tools` needs
/// OpenAI's chat API, `deferred` Anthropic's Messages API.
pub(crate) fn check_adapters(profile: &ProviderProfile, adapters: &[AdapterKind]) -> AppResult<()> {
    let refusals: Vec<String> = adapters
        .iter()
        .filter_map(|&kind| {
            let why = unfold_live::refusal(profile, adapter_for(kind).hidden_tools())?;
            Some(format!("the {} adapter cannot run on it: {why}", kind.name()))
        })
        .collect();
    if refusals.is_empty() {
        Ok(())
    } else {
        Err(AppError::new(ErrorCode::InvalidRequest, refusals.join("; ")))
    }
}

/// Runs `run` with its provider, telling `observer` each event as it happens, and keeps it.
pub async fn run_live_and_keep(
    run: LiveRunRequest<'_>,
    observer: &mut (dyn FnMut(&Event) + Send),
    history: &OpenRunHistory,
) -> AppResult<FinishedRun> {
    check_adapters(&run.profile, &[run.adapter])?;
    run.access.check_relay().await?;
    let (template, template_path) = run.template;
    let key = ApiKey::for_profile(&run.profile)?;
    let mut provider = HttpProvider::new(run.profile.clone(), key)?;
    if run.record {
        provider = provider.recording();
    }
    let secrets = provider.secrets().clone();
    let (discoveries, mut host) = if run.access.reaches(template) {
        let mut sources = run.access.sources(Some(template_path));
        let (discoveries, host) = sources.open(template).await;
        (discoveries, Some(host))
    } else {
        (template.offline_discoveries(), None)
    };
    let (seen, discoveries) = template.with_discovered(discoveries);
    let input = RunInput {
        template: &seen,
        params: run.params,
        user_turns: run.user_turns,
        tool_changes: &[],
        discoveries: &discoveries,
        limits: run.limits,
        tool_policy: unfold_engine::ToolPolicy::default(),
    };
    let started = (now_ms(), Instant::now());
    // Reborrowed: the host's trait object lives longer than this run's borrow of it.
    let mut recording = host.as_deref_mut().map(|host| RecordingHost::new(&mut *host));
    let lent = recording.as_mut().map(|host| -> &mut dyn ToolHost { host });
    let mut scrubbed = |event: &Event| observer(&redaction::told_event(&secrets, event));
    let report = unfold_live::run_live(&input, run.adapter, &mut provider, lent, &mut scrubbed).await;
    let recorded = recording.map(|host| host.recorded).unwrap_or_default();
    if let Some(host) = &mut host {
        host.close().await;
    }
    let mut report = report.map_err(|e| e.in_file(template_path))?;
    secrets.scrub_serialized(&mut report);
    if let Some(pricing) = &run.pricing {
        report.price(pricing);
    }
    let users: Vec<String> = input.user_turns.iter().map(|user| secrets.scrub(user).into_owned()).collect();
    let origin = SingleRun {
        source: RunOrigin::Live,
        template: (template, template_path),
        provider: (&run.profile.name, &run.profile.model),
        user_turns: users.iter().map(String::as_str).collect(),
    };
    let not_kept = origin.keep(&report, started, history, &secrets);
    let cassette = run.record.then(|| Cassette::record(&input, run.adapter, &provider, recorded, report.clone()));
    Ok(FinishedRun { report, cassette, not_kept, secrets })
}

/// The run `cassette` recorded, again, answered from the cassette offline (its tool sources too,
/// unless `access` reaches them: then they answer live), redacted with the secrets of the profile
/// it names in `profiles`; kept as a replay.
pub async fn replay_and_keep(
    (template, template_path): (&Template, &Path),
    (cassette, cassette_path): (&Cassette, &Path),
    (access, profiles): (&SourceReach, &Profiles),
    history: &OpenRunHistory,
) -> AppResult<FinishedRun> {
    let secrets = cassette_secrets(cassette, profiles);
    let mut cassette = cassette.clone();
    cassette.redact(&secrets);
    let started = (now_ms(), Instant::now());
    let report = if access.reaches(template) {
        let mut sources = access.sources(Some(template_path));
        cassette.replay_with_sources(template, &mut sources).await
    } else {
        cassette.replay(template).await
    };
    let mut report = report.map_err(|e| e.in_file(cassette_path))?;
    secrets.scrub_serialized(&mut report);
    let origin = SingleRun {
        source: RunOrigin::Replay,
        template: (template, template_path),
        provider: (&cassette.provider.name, &cassette.provider.model),
        user_turns: cassette.user_turns().collect(),
    };
    let not_kept = origin.keep(&report, started, history, &secrets);
    Ok(FinishedRun { report, cassette: None, not_kept, secrets })
}

/// Where a run that is not part of a comparison came from: what the history keeps it with.
struct SingleRun<'a> {
    source: RunOrigin,
    template: (&'a Template, &'a Path),
    /// The provider profile's name and its model.
    provider: (&'a str, &'a str),
    /// The user's messages, one per turn.
    user_turns: Vec<&'a str>,
}

impl SingleRun<'_> {
    /// Keeps `report`, started at `started`, in `history`; why it was not kept, if it was not
    /// (a row that would hold one of `secrets` is not).
    fn keep(
        &self,
        report: &RunReport,
        started: (u64, Instant),
        history: &OpenRunHistory,
        secrets: &Secrets,
    ) -> Option<AppError> {
        let record = RunRecord {
            started_at_ms: started.0,
            duration_ms: started.1.elapsed().as_millis() as u64,
            source: self.source,
            template: self.template.0,
            template_path: Some(self.template.1),
            scenario: None,
            scenario_path: None,
            provider: self.provider.0,
            model: Some(self.provider.1),
            lane: None,
            user_turns: self.user_turns.clone(),
            report,
            forked_from: None,
        };
        redaction::keep(history, &[record], secrets).err()
    }
}

/// The scenario a recorded run makes on `template`: its script and tool results, so a comparison
/// replays what the live model did under both adapters; the cassette redacted with the secrets of
/// the profile it names in `profiles`, and refused if the scenario would hold one all the same.
pub fn cassette_to_scenario(template_path: &Path, cassette_path: &Path, profiles: &Profiles) -> AppResult<Scenario> {
    let template = Template::load(template_path).map_err(AppError::invalid_as(ErrorCode::InvalidTemplate))?;
    let mut cassette = Cassette::load(cassette_path)?;
    let secrets = cassette_secrets(&cassette, profiles);
    cassette.redact(&secrets);
    let scenario = cassette.to_scenario(&template).map_err(|e| e.in_file(cassette_path))?;
    redaction::check_file(cassette_path, &scenario, &secrets)?;
    Ok(scenario)
}
