//! `unfold run`: one live run of a template with a real model, its events printed as they happen
//! (or the run's report as JSON), with the provider profile found as the README says.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use indexmap::IndexMap;
use serde_json::json;
use unfold_core::live::{self, ApiKey, HttpProvider, ProviderProfiles};
use unfold_core::{AdapterKind, Error, Event, EventKind, Result, RunInput, RunLimits, RunStatus, Template};

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
}

/// Exit code of a run that ended with status `error` (the provider failed).
const RUN_FAILED: u8 = 4;

pub fn execute(args: LiveRunArgs) -> Result<ExitCode> {
    let template = Template::load(&args.template)?;
    let profiles_path = profiles_path(args.providers.as_deref())?;
    let profiles = ProviderProfiles::load(&profiles_path)?;
    let mut profile = profiles.get(&args.provider).map_err(|e| e.in_file(&profiles_path))?.clone();
    if let Some(model) = args.model {
        profile.model = model;
    }
    let key = ApiKey::for_profile(&profile)?;
    let mut provider = HttpProvider::new(profile.clone(), key)?;
    let limits = RunLimits {
        max_model_calls: args.max_model_calls.unwrap_or(RunLimits::default().max_model_calls),
        ..RunLimits::default()
    };
    let input = RunInput { template: &template, params: args.params, user: args.user, tool_changes: &[], limits };
    let json = args.json;
    let report = crate::commands::runtime()?
        .block_on(live::run_live(&input, args.adapter, &mut provider, &mut |event| {
            if !json {
                if let Some(line) = event_line(event) {
                    println!("{line}");
                }
            }
        }))
        .map_err(|e| e.in_file(&args.template))?;
    if json {
        let out = json!({
            "schema_version": 1,
            "kind": "unfold.run",
            "template": template.key,
            // The base URL is left out: it may carry credentials.
            "provider": { "name": profile.name, "kind": profile.kind, "model": profile.model },
            "run": report,
        });
        println!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
    } else {
        let c = &report.counters;
        println!(
            "model calls {} · restarts {} · tool calls {} ({} failed) · prompt tokens {} · completion tokens {}",
            c.model_calls, c.restarts, c.tool_calls, c.failed_tool_calls, c.prompt_tokens, c.completion_tokens
        );
    }
    if report.status == RunStatus::Error {
        return Ok(ExitCode::from(RUN_FAILED));
    }
    Ok(ExitCode::SUCCESS)
}

/// The profile file: `--providers`, else `$UNFOLD_PROVIDERS`, else `unfold/providers.json` in the
/// user's configuration folder (`$XDG_CONFIG_HOME`, else `~/.config`).
fn profiles_path(given: Option<&Path>) -> Result<PathBuf> {
    if let Some(path) = given {
        return Ok(path.to_owned());
    }
    if let Some(path) = std::env::var_os("UNFOLD_PROVIDERS").filter(|p| !p.is_empty()) {
        return Ok(PathBuf::from(path));
    }
    let config = std::env::var_os("XDG_CONFIG_HOME")
        .filter(|p| !p.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".config")));
    match config {
        Some(folder) => Ok(folder.join("unfold").join("providers.json")),
        None => Err(Error::argument("--providers", "no profile file given and no HOME to look in")),
    }
}

/// One line for an event a person follows live; `None` for those the summary covers.
fn event_line(event: &Event) -> Option<String> {
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
