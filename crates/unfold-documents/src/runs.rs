//! What runs are called in files and reports: the adapter a run goes under and how it ended.
//! Suites (spec 11) name them as reports do, so they live with the documents.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Which adapter ran.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "snake_case")]
pub enum AdapterKind {
    /// Injects a read section's tools and keeps the history.
    Dynamic,
    /// Halts, expands the section and restarts the evaluation.
    Restart,
    /// Sends every tool from the first call and widens the callable subset (OpenAI's
    /// `allowed_tools`) as sections are read: the tool list never changes.
    AllowedTools,
    /// Sends hidden tools deferred (Anthropic's `defer_loading`) and loads a read section's tools
    /// with `tool_reference` blocks in its result: the tool list never changes.
    Deferred,
    /// Sends hidden tools deferred and adds a read section's tools with a system message of
    /// `tool_addition` blocks (Anthropic's mid-conversation tool changes): the tool list never
    /// changes and no tool result carries them.
    ToolAddition,
}

impl AdapterKind {
    /// Every adapter, in the order the command line lists them.
    pub const ALL: [AdapterKind; 5] = [
        AdapterKind::Dynamic,
        AdapterKind::Restart,
        AdapterKind::AllowedTools,
        AdapterKind::Deferred,
        AdapterKind::ToolAddition,
    ];

    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            AdapterKind::Dynamic => "dynamic",
            AdapterKind::Restart => "restart",
            AdapterKind::AllowedTools => "allowed_tools",
            AdapterKind::Deferred => "deferred",
            AdapterKind::ToolAddition => "tool_addition",
        }
    }
}

impl std::str::FromStr for AdapterKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        named(&AdapterKind::ALL, AdapterKind::name, s)
            .ok_or_else(|| format!("unknown adapter '{s}' ({})", in_words(AdapterKind::ALL.map(AdapterKind::name))))
    }
}

impl std::str::FromStr for RunStatus {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        named(&RunStatus::ALL, RunStatus::name, s)
            .ok_or_else(|| format!("unknown status '{s}' ({})", in_words(RunStatus::ALL.map(RunStatus::name))))
    }
}

/// The one of `all` whose name is `text`.
fn named<T: Copy>(all: &[T], name: fn(T) -> &'static str, text: &str) -> Option<T> {
    all.iter().copied().find(|item| name(*item) == text)
}

/// Names as a list in words, from the list itself so that it never misses one: "a, b or c".
fn in_words<const N: usize>(names: [&str; N]) -> String {
    match names.split_last() {
        Some((last, [])) => (*last).to_owned(),
        Some((last, others)) => format!("{} or {last}", others.join(", ")),
        None => String::new(),
    }
}

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "snake_case")]
pub enum RunStatus {
    /// The model answered without tool calls.
    Completed,
    /// `max_model_calls` was reached.
    TurnLimit,
    /// `max_restarts` was reached.
    RestartLimit,
    /// The model went on looping after a loop warning.
    LoopDetected,
    /// The model's answer was cut at the output-token limit: what it said is not all it meant to.
    MaxTokens,
    /// The provider failed.
    Error,
}

impl RunStatus {
    /// Every status, in the order the command line lists them.
    pub const ALL: [RunStatus; 6] = [
        RunStatus::Completed,
        RunStatus::TurnLimit,
        RunStatus::RestartLimit,
        RunStatus::LoopDetected,
        RunStatus::MaxTokens,
        RunStatus::Error,
    ];

    /// The name reports, suites and the command line use.
    pub fn name(self) -> &'static str {
        match self {
            RunStatus::Completed => "completed",
            RunStatus::TurnLimit => "turn_limit",
            RunStatus::RestartLimit => "restart_limit",
            RunStatus::LoopDetected => "loop_detected",
            RunStatus::MaxTokens => "max_tokens",
            RunStatus::Error => "error",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_the_ones_files_hold() {
        for status in RunStatus::ALL {
            assert_eq!(serde_json::to_value(status).unwrap(), status.name());
        }
        for kind in AdapterKind::ALL {
            assert_eq!(serde_json::to_value(kind).unwrap(), kind.name());
        }
    }
}
