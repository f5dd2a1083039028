//! Host profiles (spec 12, `*.host.json`, kind `unfold.host`): a lane's whole behaviour named after
//! the agent host it stands for — which API it speaks, how it hands the model new tools, when the
//! model first sees them, where they go in the list and what they are called — with the evidence
//! for it. Unfold ships presets (`data/hosts/`); a user's file is a lane as well.

use std::path::Path;
use std::sync::OnceLock;

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::error::{Problem, Result};
use crate::refresh::Refresh;
use crate::schema::DocumentSchema;

/// The `kind` of a host profile file.
pub const HOST_KIND: &str = "unfold.host";

/// The wire format a host speaks to its model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum HostApi {
    /// Anthropic Messages.
    Anthropic,
    /// OpenAI Chat Completions.
    OpenaiChat,
    /// OpenAI Responses.
    OpenaiResponses,
    /// Gemini `generateContent`.
    Gemini,
}

impl HostApi {
    /// Its name as files write it.
    pub fn name(self) -> &'static str {
        match self {
            HostApi::Anthropic => "anthropic",
            HostApi::OpenaiChat => "openai-chat",
            HostApi::OpenaiResponses => "openai-responses",
            HostApi::Gemini => "gemini",
        }
    }
}

/// How a host hands the model tools that appear mid-conversation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum HostStrategy {
    /// A new tool list in the next request (the dynamic adapter's way).
    Inject,
    /// Halt and start the conversation again (the restart adapter's way).
    Restart,
    /// Every tool from the start, a callable subset that grows.
    AllowedTools,
    /// Hidden tools sent deferred and loaded by reference.
    Deferred,
    /// Hidden tools sent deferred and added by a system message (Anthropic's mid-conversation
    /// tool changes).
    ToolAddition,
}

impl HostStrategy {
    /// Its name as files write it.
    pub fn name(self) -> &'static str {
        match self {
            HostStrategy::Inject => "inject",
            HostStrategy::Restart => "restart",
            HostStrategy::AllowedTools => "allowed_tools",
            HostStrategy::Deferred => "deferred",
            HostStrategy::ToolAddition => "tool_addition",
        }
    }
}

impl HostStrategy {
    /// The APIs that have this way of sending hidden tools; none when every API has it.
    pub fn apis(self) -> Option<&'static [HostApi]> {
        match self {
            HostStrategy::Inject | HostStrategy::Restart => None,
            // Gemini names them in `allowedFunctionNames`.
            HostStrategy::AllowedTools => Some(&[HostApi::OpenaiChat, HostApi::OpenaiResponses, HostApi::Gemini]),
            HostStrategy::Deferred => Some(&[HostApi::Anthropic, HostApi::OpenaiResponses]),
            HostStrategy::ToolAddition => Some(&[HostApi::Anthropic]),
        }
    }
}

/// Where a host puts tools in the list it sends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum ToolOrder {
    /// New tools after the ones already listed.
    #[default]
    Append,
    /// Sorted by name.
    Sorted,
    /// The template's own tools first, the tool sources' after them.
    SourcesLast,
}

impl ToolOrder {
    /// Its name as files write it.
    pub fn name(self) -> &'static str {
        match self {
            ToolOrder::Append => "append",
            ToolOrder::Sorted => "sorted",
            ToolOrder::SourcesLast => "sources_last",
        }
    }
}

/// How a host names tools to the model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum ToolNames {
    /// As the template names them.
    #[default]
    #[serde(rename = "plain")]
    Plain,
    /// A source's tools prefixed as MCP hosts do (`mcp__{source}__{tool}`).
    #[serde(rename = "mcp__{source}__{tool}")]
    McpPrefixed,
}

impl ToolNames {
    /// Its name as files write it.
    pub fn name(self) -> &'static str {
        match self {
            ToolNames::Plain => "plain",
            ToolNames::McpPrefixed => "mcp__{source}__{tool}",
        }
    }
}

/// Why a profile says what it says.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum Evidence {
    /// Measured: how many runs, and at which request the revealed tool first reached the model.
    Measured {
        /// How it was measured (`unfold hosts probe`, or the setup used).
        measured: String,
        /// How many runs.
        runs: u32,
        /// Runs by when the tool was first visible: `next_call`, `late_1`, `late_2`, …,
        /// `next_turn`, `never`.
        visible_at: IndexMap<String, u32>,
    },
    /// Reported: a public source and what it says.
    Reported {
        /// A URL or an issue.
        source: String,
        /// What it shows.
        note: String,
    },
}

/// A host profile file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(title = "Unfold host profile")]
#[schemars(extend("additionalProperties" = false, "patternProperties" = { "^x-": true }))]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct HostProfile {
    /// Always 1.
    #[schemars(extend("const" = 1))]
    pub schema_version: u32,
    /// Always `unfold.host`.
    #[schemars(extend("const" = "unfold.host"))]
    pub kind: String,
    /// How a lane names it (`host:NAME`): lowercase letters, digits, `-`, `_` and `.`.
    #[schemars(regex(pattern = r"^[a-z0-9][a-z0-9._-]*$"))]
    pub name: String,
    /// The host as its users call it: `Claude Code`.
    #[schemars(length(min = 1))]
    pub host: String,
    /// The host's version the profile holds for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// The API it speaks to its model.
    pub api: HostApi,
    /// How it hands the model new tools.
    pub strategy: HostStrategy,
    /// When the model first sees them.
    pub refresh: Refresh,
    /// Where they go in the list.
    #[serde(default)]
    pub tool_order: ToolOrder,
    /// What they are called.
    #[serde(default)]
    pub tool_names: ToolNames,
    /// Why the profile says so.
    #[serde(default)]
    pub evidence: Vec<Evidence>,
}

/// The presets Unfold ships, in the order `unfold hosts list` shows them.
const PRESETS: [&str; 10] = [
    include_str!("../data/hosts/claude-code.host.json"),
    include_str!("../data/hosts/codex.host.json"),
    include_str!("../data/hosts/codex-list-changed.host.json"),
    include_str!("../data/hosts/gemini-cli.host.json"),
    include_str!("../data/hosts/openai-agents.host.json"),
    include_str!("../data/hosts/openai-agents-cached.host.json"),
    include_str!("../data/hosts/pydantic-ai.host.json"),
    include_str!("../data/hosts/pydantic-ai-cached.host.json"),
    include_str!("../data/hosts/copilot-cli.host.json"),
    include_str!("../data/hosts/claude-agent-sdk.host.json"),
];

/// What a host lane's name starts with, and a lane asked for by a host's name or file
/// (`host:claude-code`, `host:./ours.host.json`).
pub const HOST_PREFIX: &str = "host:";

/// The host a lane asked for as `host:REFERENCE` names: a preset's name or a host profile file.
pub fn host_reference(lane: &str) -> Option<&str> {
    lane.strip_prefix(HOST_PREFIX)
}

impl HostProfile {
    /// Whether a host lane's reference (`host:REFERENCE`) is a host profile file rather than a
    /// preset's name: it holds a `/` or ends with `.host.json`.
    pub fn names_a_file(reference: &str) -> bool {
        reference.contains('/') || reference.ends_with(".host.json")
    }

    /// The preset named `name`; else why not, naming the presets there are.
    pub fn known_preset(name: &str) -> std::result::Result<&'static HostProfile, String> {
        HostProfile::preset(name).ok_or_else(|| {
            let names: Vec<&str> = HostProfile::presets().iter().map(|profile| profile.name.as_str()).collect();
            format!("'{name}' is not a host Unfold knows ({}), nor a .host.json file", names.join(", "))
        })
    }

    /// The JSON Schema of host profile files, as checked in at `schema/unfold.host.schema.json`.
    pub fn schema() -> &'static DocumentSchema {
        static SCHEMA: OnceLock<DocumentSchema> = OnceLock::new();
        SCHEMA.get_or_init(|| DocumentSchema::checked_in(include_str!("../../../schema/unfold.host.schema.json")))
    }

    /// The profiles Unfold ships.
    pub fn presets() -> &'static [HostProfile] {
        static SHIPPED: OnceLock<Vec<HostProfile>> = OnceLock::new();
        SHIPPED.get_or_init(|| {
            PRESETS
                .iter()
                .map(|text| HostProfile::from_json(text.as_bytes()).expect("the presets are checked by a test"))
                .collect()
        })
    }

    /// The preset named `name`.
    pub fn preset(name: &str) -> Option<&'static HostProfile> {
        HostProfile::presets().iter().find(|profile| profile.name == name)
    }

    /// Reads and checks a host profile file; every problem names the file and its place.
    pub fn load(path: &Path) -> Result<HostProfile> {
        let bytes = crate::document::read_document_bytes(path)?;
        HostProfile::from_json(&bytes).map_err(|e| e.in_file(path))
    }

    /// The canonical JSON text.
    pub fn to_json(&self) -> String {
        crate::document::to_canonical_json(self)
    }

    /// Saves the canonical JSON text atomically.
    pub fn save(&self, path: &Path) -> Result<()> {
        crate::document::write_atomically(path, &self.to_json())
    }

    /// Parses and checks the text of a host profile.
    pub fn from_json(bytes: &[u8]) -> Result<HostProfile> {
        crate::document::parse_versioned(bytes, HOST_KIND, HostProfile::schema(), HostProfile::problems)
    }

    fn problems(&self) -> Vec<Problem> {
        let mut problems = Vec::new();
        if self.strategy == HostStrategy::Restart && self.refresh != Refresh::Restart {
            problems.push(Problem::at("/refresh", "a host that restarts refreshes by restarting: `\"restart\"`"));
        }
        if self.refresh == Refresh::Restart && self.strategy != HostStrategy::Restart {
            problems.push(Problem::at("/refresh", "`\"restart\"` is the refresh of the `restart` strategy"));
        }
        if let Some(apis) = self.strategy.apis().filter(|apis| !apis.contains(&self.api)) {
            let names: Vec<String> = apis.iter().map(|api| format!("`\"{}\"`", api.name())).collect();
            let message =
                format!("the `{}` strategy needs an API that has it: {}", self.strategy.name(), names.join(" or "));
            problems.push(Problem::at("/api", message));
        }
        for (index, evidence) in self.evidence.iter().enumerate() {
            if let Evidence::Measured { runs, visible_at, .. } = evidence {
                problems.extend(measured_problems(index, *runs, visible_at));
            }
        }
        problems
    }
}

/// A measurement's problems: moments it cannot name, and counts that do not add up to its runs.
fn measured_problems(index: usize, runs: u32, visible_at: &IndexMap<String, u32>) -> Vec<Problem> {
    let place = format!("/evidence/{index}");
    let mut problems: Vec<Problem> = visible_at
        .keys()
        .filter(|moment| !is_visibility_moment(moment))
        .map(|moment| {
            Problem::at(
                format!("{place}/visible_at/{}", crate::error::pointer_segment(moment)),
                format!("`{moment}` is not a moment: next_call, late_1, late_2, …, next_turn or never"),
            )
        })
        .collect();
    let counted: u64 = visible_at.values().map(|&count| u64::from(count)).sum();
    if counted != u64::from(runs) {
        problems.push(Problem::at(
            format!("{place}/visible_at"),
            format!("the counts add up to {counted}, not to the {runs} runs"),
        ));
    }
    problems
}

/// Whether `moment` names when a tool became visible: `next_call`, `late_K` (K ≥ 1), `next_turn`
/// or `never`.
fn is_visibility_moment(moment: &str) -> bool {
    match moment.strip_prefix("late_") {
        Some(calls) => calls.parse::<u32>().is_ok_and(|calls| calls >= 1) && !calls.starts_with('0'),
        None => matches!(moment, "next_call" | "next_turn" | "never"),
    }
}
