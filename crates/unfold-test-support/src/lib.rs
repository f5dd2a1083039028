//! What the tests and benchmarks of Unfold's crates share: paths to the repository's fixtures, a
//! scenario built over a minimal valid one, a readable trace of a run's event log, the benchmark
//! template, the proptest generators of valid documents, a local server of scripted streams (and
//! the streams a hostile one hides a key in), and the real programs tests run against (MCP servers,
//! fakellm, promptfoo, the OpenTelemetry protobuf definitions, `unfold model serve`). A dev-dependency
//! only: it is never part of a build a user runs.

pub mod agent_hosts;
pub mod bench_template;
pub mod fakellm;
pub mod generators;
pub mod hostile_stream;
pub mod interop_tools;
pub mod mcp_servers;
pub mod random_model;
pub mod scripted_model;

use std::path::PathBuf;

use serde_json::Value;
use unfold_documents::{Scenario, Template};
use unfold_engine::{EventKind, RunReport};

/// Whether a process whose command line holds `marker` is running: how a test sees that what it
/// started (a host, a source, their children) was all stopped.
pub fn process_running(marker: &str) -> bool {
    let Ok(processes) = std::fs::read_dir("/proc") else { return false };
    processes.flatten().any(|entry| {
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        String::from_utf8_lossy(&cmdline).replace('\0', " ").contains(marker)
    })
}

/// Where the install scripts put the programs tests run against: `UNFOLD_CACHE`, else
/// `~/.cache/unfold`.
pub(crate) fn cache() -> PathBuf {
    if let Some(cache) = std::env::var_os("UNFOLD_CACHE") {
        return PathBuf::from(cache);
    }
    let home = std::env::var_os("HOME").expect("HOME is set");
    PathBuf::from(home).join(".cache/unfold")
}

/// A path from the repository's root.
pub fn repo(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").join(path)
}

pub fn load_template(path: &str) -> Template {
    Template::load(&repo(path)).unwrap_or_else(|e| panic!("{e}"))
}

/// A scenario with `fields` over a minimal valid one.
pub fn scenario(fields: Value) -> Scenario {
    let mut doc = serde_json::json!({ "schema_version": 1, "kind": "unfold.scenario", "name": "case" });
    // The one-turn form's user message, unless the fields hold the turns.
    if fields.get("turns").is_none() {
        doc["user"] = "Go.".into();
    }
    for (key, value) in fields.as_object().expect("fields are an object") {
        doc[key] = value.clone();
    }
    Scenario::from_json(doc.to_string().as_bytes()).unwrap_or_else(|e| panic!("{e}"))
}

/// One line per event, for snapshots a reviewer can read against the spec.
pub fn trace(run: &RunReport) -> String {
    let mut lines = Vec::new();
    for event in &run.events {
        let line = match &event.kind {
            EventKind::RunStarted { .. } => continue,
            EventKind::AdapterSubstituted { requested, adapter, .. } => {
                format!("{} runs as {}", requested.name(), adapter.name())
            }
            EventKind::ToolsDiscovered { source, tier, tools, error } => {
                let why = error.as_deref().map(|e| format!(" ({e})")).unwrap_or_default();
                format!("discovered {source} {} [{}]{why}", name(tier), tools.join(", "))
            }
            EventKind::ModelCall { call_index, tools_offered, .. } => {
                format!("call {call_index} [{}]", tools_offered.join(", "))
            }
            EventKind::ToolCall { name, args, success, result, .. } => {
                let outcome = if *success { "ok" } else { "failed" };
                format!("  {name} {args} -> {outcome} {}", summarize(result))
            }
            EventKind::ToolsInjected { section_key, tool_names, delivery } => {
                let from = section_key.as_deref().unwrap_or("plugin");
                format!("  {} [{}] from {from}", delivery.verb(), tool_names.join(", "))
            }
            EventKind::ToolInjectionSkipped { section_key, tool_name } => {
                format!("  skipped {tool_name} from {}", section_key.as_deref().unwrap_or("plugin"))
            }
            EventKind::ToolsRemoved { tool_names } => format!("  removed [{}]", tool_names.join(", ")),
            EventKind::ToolsListed { tool_names } => format!("  listed [{}]", tool_names.join(", ")),
            EventKind::ToolNotShown { tool_name, .. } => format!("  not shown {tool_name}: not called"),
            EventKind::ToolsModified { tool_names } => format!("  redefined [{}]", tool_names.join(", ")),
            EventKind::UserTurn { turn } => format!("USER turn {turn}"),
            EventKind::ToolsPending { added, removed, modified, shows, .. } => {
                let shows = serde_json::to_string(shows).unwrap_or_default();
                format!(
                    "  pending +[{}] -[{}] ~[{}] {shows}",
                    added.join(", "),
                    removed.join(", "),
                    modified.join(", ")
                )
            }
            EventKind::VisibilityChanged { section_keys } => format!("  visibility [{}]", section_keys.join(", ")),
            EventKind::Restart { reason, section_keys, .. } => {
                format!("RESTART {} [{}] -> attempt {}", name(reason), section_keys.join(", "), event.attempt + 1)
            }
            EventKind::ToolAvailabilityChanged { at_model_call, added, removed, source, modified } => {
                let from = source.as_deref().map(|s| format!(" ({s})")).unwrap_or_default();
                let modified = if modified.is_empty() { String::new() } else { format!(" ~[{}]", modified.join(", ")) };
                format!(
                    "tools changed before call {at_model_call}{from}: +[{}] -[{}]{modified}",
                    added.join(", "),
                    removed.join(", ")
                )
            }
            EventKind::LoopWarning { found, .. } => format!("  LOOP WARNING {}", found.summary()),
            EventKind::LimitReached { limit, value } => format!("LIMIT {} {value}", name(limit)),
            EventKind::RunCompleted { status, final_text, .. } => {
                format!("{} {}", name(status), final_text.as_deref().map_or("-".into(), |t| format!("{t:?}")))
            }
        };
        lines.push(line);
    }
    lines.join("\n")
}

fn name(value: &impl serde::Serialize) -> String {
    serde_json::to_value(value).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default()
}

/// A tool result on one line: strings as they are; a read's content by its first line.
fn summarize(result: &Value) -> String {
    match result {
        Value::String(text) => format!("{text:?}"),
        Value::Object(fields) if fields.contains_key("content") => {
            let first_line = fields["content"].as_str().and_then(|c| c.lines().next()).unwrap_or_default();
            let mut parts = vec![format!("content {first_line:?}")];
            for (key, value) in fields.iter().filter(|(k, _)| *k != "content") {
                parts.push(format!("{key} {value}"));
            }
            parts.join(", ")
        }
        other => other.to_string(),
    }
}
