//! Events as the lines a person follows on a terminal: one line each for what the summary does not
//! cover, as `unfold run`, `replay` and `history show` print them.

use unfold_documents::discovery::Tier;
use unfold_engine::{Event, EventKind};

/// What a source offered a run, in words: "tools from ide (its snapshot): grep, open"; `remark`
/// goes beside where they came from: "tools from ide (its snapshot, reason 1): grep".
pub fn discovery_text(source: &str, tier: Tier, tools: &[String], remark: Option<&str>) -> String {
    let origin = match tier {
        Tier::Live => "listed live",
        Tier::Snapshot => "its snapshot",
        Tier::None => "none",
    };
    let remark = remark.map(|remark| format!(", {remark}")).unwrap_or_default();
    let listed = if tools.is_empty() { "no tools".to_owned() } else { tools.join(", ") };
    format!("tools from {source} ({origin}{remark}): {listed}")
}

/// One line for an event a person follows live; `None` for those the summary covers.
pub fn event_line(event: &Event) -> Option<String> {
    Some(match &event.kind {
        EventKind::RunStarted { adapter, template } => format!("run {template} under the {} adapter", adapter.name()),
        EventKind::AdapterSubstituted { adapter, reason, .. } => {
            format!("  the {} adapter runs instead: {reason}", adapter.name())
        }
        EventKind::ToolsDiscovered { source, tier, tools, error } => {
            let why = error.as_ref().map(|e| format!(" ({e})")).unwrap_or_default();
            format!("  {}{why}", discovery_text(source, *tier, tools, None))
        }
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
        EventKind::ToolsInjected { section_key, tool_names, delivery } => {
            format!(
                "  tools {} from {}: {}",
                delivery.verb(),
                section_key.as_deref().unwrap_or("a plugin change"),
                tool_names.join(", ")
            )
        }
        EventKind::Restart { reason, section_keys, .. } => {
            format!("restart ({}) {}", serde_json::to_value(reason).ok()?.as_str()?, section_keys.join(", "))
        }
        EventKind::LoopWarning { found, .. } => format!("  loop warning: {}", found.summary()),
        EventKind::LimitReached { limit, value } => {
            format!("limit reached: {} = {value}", serde_json::to_value(limit).ok()?.as_str()?)
        }
        EventKind::RunCompleted { status, final_text, error } => {
            let status = status.name().to_owned();
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
