//! `unfold run`, `replay`, `to-scenario` and `key`: a live run's events printed as they happen
//! (or its report as JSON), with the provider profile found as the README says and recorded into
//! a cassette on request; a cassette replayed offline or turned into a scenario; keys kept in the
//! OS keychain.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use indexmap::IndexMap;
use serde_json::json;
use unfold_application::folders::default_prices_file;
use unfold_application::live_runs::{self, FinishedRun, LiveRunRequest};
use unfold_application::prices::PriceFile;
use unfold_application::profiles::Profiles;
use unfold_application::run_history::OpenRunHistory;
use unfold_application::sources::SourceReach;
use unfold_application::traces::{self, RunClock, TraceContext};
use unfold_application::{AppError, AppResult, ErrorCode};
use unfold_documents::provider_profile::ProviderProfile;
use unfold_documents::{Error, Template};
use unfold_engine::{AdapterKind, RunLimits, RunReport, RunStatus};
use unfold_live::Cassette;

use crate::event_lines::event_line;
use crate::money::{money, priced_as};
use crate::output::{out, outln, write_json};
use crate::runtime::block_on;

/// What `unfold run` is given.
pub struct LiveRunArgs {
    pub template: PathBuf,
    pub provider: String,
    pub providers: Option<PathBuf>,
    pub model: Option<String>,
    /// The user's messages, one per turn.
    pub user_turns: Vec<String>,
    pub adapter: AdapterKind,
    pub params: IndexMap<String, String>,
    pub max_model_calls: Option<u32>,
    pub json: bool,
    pub record: Option<PathBuf>,
    /// What the user allowed of the template's tool sources.
    pub access: SourceReach,
    /// The file to write the run's trace to.
    pub otel: Option<PathBuf>,
}

/// What `unfold replay` prints and writes.
pub struct ReplayOutput<'a> {
    /// The report as JSON instead of the events and counters.
    pub json: bool,
    /// The file to write the run's trace to.
    pub otel: Option<&'a Path>,
}

/// Exit code of a run that ended with status `error` (the provider failed).
const RUN_FAILED: u8 = 4;

/// `unfold run`.
pub fn run(args: LiveRunArgs, history: &OpenRunHistory) -> AppResult<ExitCode> {
    let template = Template::load(&args.template).map_err(AppError::invalid_as(ErrorCode::InvalidTemplate))?;
    if let Some(path) = &args.record {
        unfold_application::files::check_output_file(path, "--record")?;
    }
    if let Some(path) = &args.otel {
        unfold_application::files::check_output_file(path, "--otel")?;
    }
    let mut profile = named_profile(args.providers.as_deref(), &args.provider)?;
    if let Some(model) = args.model {
        profile.model = model;
    }
    let limits = RunLimits {
        max_model_calls: args.max_model_calls.unwrap_or(RunLimits::default().max_model_calls),
        ..RunLimits::default()
    };
    let json = args.json;
    let request = LiveRunRequest {
        template: (&template, &args.template),
        profile: profile.clone(),
        user_turns: args.user_turns,
        params: args.params,
        adapter: args.adapter,
        limits,
        record: args.record.is_some(),
        access: args.access.clone(),
        // Read before the run: a prices file that cannot be read must not cost a paid run.
        pricing: PriceFile(default_prices_file()).pricing_of(&profile.model)?,
    };
    let mut clock = RunClock::start();
    let mut print_event = |event: &unfold_engine::Event| {
        clock.saw(event);
        if let Some(line) = event_line(event).filter(|_| !json) {
            // A reader gone mid-run costs only the lines: the run ends and is kept, and the
            // report's write below ends the command quietly.
            let _ = outln!("{line}");
        }
    };
    let finished = block_on(live_runs::run_live_and_keep(request, &mut print_event, history))??;
    if let Some(path) = &args.otel {
        let context = TraceContext::live(profile.kind, &profile.model);
        let line = traces::run_line(&finished.report, &template.key, &clock.times(), &context);
        traces::write_trace_file(path, &[line], &finished.secrets)?;
    }
    warn_not_kept(&finished);
    crate::sources::warn_about_runs(&args.template, &template, &args.access, [&finished.report]);
    if let Some(path) = &args.record {
        finished.write_cassette(path)?;
    }
    // The base URL is left out: it may carry credentials.
    let provider = json!({ "name": profile.name, "kind": profile.kind, "model": profile.model });
    print_report(&finished.report, json.then_some(("provider", provider)), &template)?;
    Ok(exit_code(&finished.report))
}

/// `unfold replay`: the run a cassette recorded, again, answered from the cassette (its sources
/// too, unless `access` reaches them).
pub fn replay(
    template_path: &Path,
    cassette_path: &Path,
    output: ReplayOutput<'_>,
    access: &SourceReach,
    history: &OpenRunHistory,
) -> AppResult<ExitCode> {
    let ReplayOutput { json, otel } = output;
    if let Some(path) = otel {
        unfold_application::files::check_output_file(path, "--otel")?;
    }
    let template = Template::load(template_path).map_err(AppError::invalid_as(ErrorCode::InvalidTemplate))?;
    let cassette = Cassette::load(cassette_path)?;
    // A replay tells no events as they happen: they are spread over the time it took.
    let clock = RunClock::start();
    let profiles = Profiles(unfold_application::folders::default_profiles_file());
    let replay = live_runs::replay_and_keep(
        (&template, template_path),
        (&cassette, cassette_path),
        (access, &profiles),
        history,
    );
    let finished = block_on(replay)??;
    if let Some(path) = otel {
        let context =
            TraceContext::live(cassette.provider.kind, &cassette.provider.model).with("unfold.replay", "true");
        let line = traces::run_line(&finished.report, &template.key, &clock.times(), &context);
        traces::write_trace_file(path, &[line], &finished.secrets)?;
    }
    warn_not_kept(&finished);
    crate::sources::warn_about_runs(template_path, &template, access, [&finished.report]);
    if !json {
        for line in finished.report.events.iter().filter_map(event_line) {
            outln!("{line}")?;
        }
    }
    let source = json!({ "provider": cassette.provider.name, "model": cassette.provider.model });
    print_report(&finished.report, json.then_some(("cassette", source)), &template)?;
    Ok(exit_code(&finished.report))
}

/// `unfold to-scenario`: the scenario a recorded run makes, printed or written to `output`.
pub fn to_scenario(template: &Path, cassette: &Path, output: Option<&Path>) -> AppResult<ExitCode> {
    let profiles = Profiles(unfold_application::folders::default_profiles_file());
    let scenario = live_runs::cassette_to_scenario(template, cassette, &profiles)?;
    match output {
        Some(path) => unfold_application::files::write_scenario(path, &scenario)?,
        None => out!("{}", scenario.to_json())?,
    }
    Ok(ExitCode::SUCCESS)
}

/// `unfold key set|delete PROFILE`: the key goes from stdin to the keychain, never to the screen.
pub fn key(action: crate::args::KeyAction) -> AppResult<ExitCode> {
    use unfold_application::keys;
    match action {
        crate::args::KeyAction::Set { profile } => {
            let mut line = String::new();
            std::io::stdin().read_line(&mut line).map_err(|source| Error::Io {
                path: "stdin".into(),
                action: "cannot read the key from",
                source,
            })?;
            keys::store_key(&profile, line.trim())?;
            eprintln!("kept the key of profile '{profile}' in the OS keychain");
        }
        crate::args::KeyAction::Delete { profile } => {
            let message =
                if keys::delete_key(&profile)? { "forgot the key of" } else { "the keychain held no key for" };
            eprintln!("{message} profile '{profile}'");
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// A run the history could not keep is a warning, never a failed run.
fn warn_not_kept(finished: &FinishedRun) {
    if let Some(error) = &finished.not_kept {
        eprintln!("warning: the run was not kept in the history: {error}");
    }
}

fn exit_code(report: &RunReport) -> ExitCode {
    if report.status == RunStatus::Error {
        ExitCode::from(RUN_FAILED)
    } else {
        ExitCode::SUCCESS
    }
}

/// The JSON report (with `source` naming where the answers came from), or the counters line.
fn print_report(
    report: &RunReport,
    json_with: Option<(&str, serde_json::Value)>,
    template: &Template,
) -> AppResult<()> {
    if let Some((field, source)) = json_with {
        let mut out = json!({ "schema_version": 1, "kind": "unfold.run", "template": template.key });
        out[field] = source;
        out["run"] = json!(report);
        return write_json(&out);
    }
    let c = &report.counters;
    let cost = report.cost.as_ref().map_or(String::new(), |cost| {
        let measured = cost.measured.map_or(String::new(), |m| {
            let spent = money(m.cost, &cost.currency, false);
            format!(" · cache read {} and written {} tokens as measured: {spent}", m.read_tokens, m.write_tokens)
        });
        format!(" · cost {} ({}){measured}", money(cost.total, &cost.currency, false), priced_as(cost))
    });
    outln!(
        "model calls {} · restarts {} · tool calls {} ({} failed) · prompt tokens {} · completion tokens {}{cost}",
        c.model_calls,
        c.restarts,
        c.tool_calls,
        c.failed_tool_calls,
        c.prompt_tokens,
        c.completion_tokens
    )
}

/// The provider profile `--provider NAME` names, in the profile file (`--providers FILE`, else
/// where the app keeps them); a name the file does not hold is said of `--provider`.
pub fn named_profile(providers: Option<&Path>, name: &str) -> AppResult<ProviderProfile> {
    let profiles_file = profiles_path(providers)?;
    Profiles(Some(profiles_file.clone())).get_from_file(name).map_err(|error| {
        // The profile the user named is missing: said of the flag that named it.
        match (error.code, error.problems.as_slice()) {
            (ErrorCode::NotFound, [problem]) => {
                let flagged = Error::argument("--provider", problem.message.clone()).in_file(&profiles_file);
                AppError::invalid_as(ErrorCode::NotFound)(flagged)
            }
            _ => error,
        }
    })
}

/// The profile file: `--providers`, else where the app looks too (`$UNFOLD_PROVIDERS`, else
/// `~/.config/unfold/providers.json`).
pub fn profiles_path(given: Option<&Path>) -> AppResult<PathBuf> {
    match given {
        Some(path) => Ok(path.to_owned()),
        None => unfold_application::folders::default_profiles_file()
            .ok_or_else(|| Error::argument("--providers", "no profile file given and no HOME to look in").into()),
    }
}
