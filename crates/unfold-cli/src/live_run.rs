//! `unfold run`: one live run of a template with a real model, its events printed as they happen
//! (or the run's report as JSON), with the provider profile found as the README says; recorded
//! into a cassette on request, and `unfold replay` of such a cassette.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use indexmap::IndexMap;
use serde_json::json;
use unfold_documents::{Error, Result, Template};
use unfold_engine::{AdapterKind, Event, EventKind, RunInput, RunLimits, RunReport, RunStatus};
use unfold_live::{ApiKey, HttpProvider, ProviderProfiles};
use unfold_stores::run_history::{RunRecord, RunSource};

/// What `unfold run` is given.
pub struct LiveRunArgs {
    pub template: PathBuf,
    pub provider: String,
    pub providers: Option<PathBuf>,
    pub model: Option<String>,
    pub user: String,
    pub adapter: AdapterKind,
    pub params: IndexMap<String, String>,
    pub max_model_calls: Option<u32>,
    pub json: bool,
    pub record: Option<PathBuf>,
}

/// Exit code of a run that ended with status `error` (the provider failed).
const RUN_FAILED: u8 = 4;

pub fn execute(args: LiveRunArgs) -> Result<ExitCode> {
    let template = Template::load(&args.template)?;
    if let Some(path) = &args.record {
        // Checked before the run: a paid run must not be lost to a folder that is not there.
        let folder = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
        if !folder.is_dir() {
            return Err(Error::argument(format!("--record {}", path.display()), "its folder does not exist"));
        }
    }
    let profiles_path = profiles_path(args.providers.as_deref())?;
    let profiles = ProviderProfiles::load(&profiles_path)?;
    let mut profile = profiles.get(&args.provider).map_err(|e| e.in_file(&profiles_path))?.clone();
    if let Some(model) = args.model {
        profile.model = model;
    }
    let key = ApiKey::for_profile(&profile)?;
    let mut provider = HttpProvider::new(profile.clone(), key)?;
    if args.record.is_some() {
        provider = provider.recording();
    }
    let limits = RunLimits {
        max_model_calls: args.max_model_calls.unwrap_or(RunLimits::default().max_model_calls),
        ..RunLimits::default()
    };
    let input = RunInput { template: &template, params: args.params, user: args.user, tool_changes: &[], limits };
    let json = args.json;
    let started = (unfold_stores::run_history::now_ms(), std::time::Instant::now());
    let report = crate::commands::runtime()?
        .block_on(unfold_live::run_live(&input, args.adapter, &mut provider, &mut |event| {
            if !json {
                if let Some(line) = event_line(event) {
                    println!("{line}");
                }
            }
        }))
        .map_err(|e| e.in_file(&args.template))?;
    crate::history::keep(&[RunRecord {
        started_at_ms: started.0,
        duration_ms: started.1.elapsed().as_millis() as u64,
        source: RunSource::Live,
        template: &template,
        template_path: Some(&args.template),
        scenario: None,
        scenario_path: None,
        provider: &profile.name,
        model: Some(&profile.model),
        lane: None,
        user: &input.user,
        report: &report,
    }]);
    if let Some(path) = &args.record {
        let cassette = unfold_live::Cassette::record(&input, args.adapter, &provider, report.clone());
        unfold_documents::document::write_atomically(path, &cassette.to_json())?;
    }
    // The base URL is left out: it may carry credentials.
    let provider = json!({ "name": profile.name, "kind": profile.kind, "model": profile.model });
    print_report(&report, json.then_some(("provider", provider)), &template);
    Ok(exit_code(&report))
}

/// `unfold replay`: the run a cassette recorded, again, answered from the cassette.
pub fn replay(template_path: &Path, cassette_path: &Path, json: bool) -> Result<ExitCode> {
    let template = Template::load(template_path)?;
    let cassette = unfold_live::Cassette::load(cassette_path)?;
    let started = (unfold_stores::run_history::now_ms(), std::time::Instant::now());
    let report =
        crate::commands::runtime()?.block_on(cassette.replay(&template)).map_err(|e| e.in_file(cassette_path))?;
    crate::history::keep(&[RunRecord {
        started_at_ms: started.0,
        duration_ms: started.1.elapsed().as_millis() as u64,
        source: RunSource::Replay,
        template: &template,
        template_path: Some(template_path),
        scenario: None,
        scenario_path: None,
        provider: &cassette.provider.name,
        model: Some(&cassette.provider.model),
        lane: None,
        user: &cassette.user,
        report: &report,
    }]);
    if !json {
        for event in &report.events {
            if let Some(line) = event_line(event) {
                println!("{line}");
            }
        }
    }
    let source = json!({ "provider": cassette.provider.name, "model": cassette.provider.model });
    print_report(&report, json.then_some(("cassette", source)), &template);
    Ok(exit_code(&report))
}

fn exit_code(report: &RunReport) -> ExitCode {
    if report.status == RunStatus::Error {
        ExitCode::from(RUN_FAILED)
    } else {
        ExitCode::SUCCESS
    }
}

/// The JSON report (with `source` naming where the answers came from), or the counters line.
fn print_report(report: &RunReport, json_with: Option<(&str, serde_json::Value)>, template: &Template) {
    if let Some((field, source)) = json_with {
        let mut out = json!({ "schema_version": 1, "kind": "unfold.run", "template": template.key });
        out[field] = source;
        out["run"] = json!(report);
        println!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
        return;
    }
    let c = &report.counters;
    println!(
        "model calls {} · restarts {} · tool calls {} ({} failed) · prompt tokens {} · completion tokens {}",
        c.model_calls, c.restarts, c.tool_calls, c.failed_tool_calls, c.prompt_tokens, c.completion_tokens
    );
}

/// The profile file: `--providers`, else where the app looks too (`$UNFOLD_PROVIDERS`, else
/// `~/.config/unfold/providers.json`).
fn profiles_path(given: Option<&Path>) -> Result<PathBuf> {
    match given {
        Some(path) => Ok(path.to_owned()),
        None => ProviderProfiles::default_path()
            .ok_or_else(|| Error::argument("--providers", "no profile file given and no HOME to look in")),
    }
}

/// One line for an event a person follows live; `None` for those the summary covers.
pub fn event_line(event: &Event) -> Option<String> {
    Some(match &event.kind {
        EventKind::RunStarted { adapter, template } => format!("run {template} under the {} adapter", adapter.name()),
        EventKind::ModelCall { call_index, prompt_tokens, completion_tokens, .. } => {
            format!(
                "call {call_index} (attempt {}): {prompt_tokens} prompt tokens, {completion_tokens} completion tokens",
                event.attempt
            )
        }
        EventKind::ToolCall { name, args, success, result, .. } => {
            let outcome = if *success { "ok" } else { "failed" };
            let result = match result {
                serde_json::Value::String(text) => text.clone(),
                other => other.to_string(),
            };
            format!("  {name} {args} -> {outcome}: {}", shorten(&result))
        }
        EventKind::ToolsInjected { section_key, tool_names } => {
            format!(
                "  tools injected from {}: {}",
                section_key.as_deref().unwrap_or("a plugin change"),
                tool_names.join(", ")
            )
        }
        EventKind::Restart { reason, section_keys, .. } => {
            format!("restart ({}) {}", serde_json::to_value(reason).ok()?.as_str()?, section_keys.join(", "))
        }
        EventKind::LimitReached { limit, value } => {
            format!("limit reached: {} = {value}", serde_json::to_value(limit).ok()?.as_str()?)
        }
        EventKind::RunCompleted { status, final_text, error } => {
            let status = serde_json::to_value(status).ok()?.as_str()?.to_owned();
            match (final_text, error) {
                (_, Some(error)) => format!("{status}: {error}"),
                (Some(text), None) => format!("{status}: {text}"),
                (None, None) => status,
            }
        }
        _ => return None,
    })
}

fn shorten(text: &str) -> String {
    let line = text.lines().next().unwrap_or("");
    match line.char_indices().nth(100) {
        Some((cut, _)) => format!("{}…", &line[..cut]),
        None if line.len() < text.len() => format!("{line}…"),
        None => line.to_owned(),
    }
}
