//! Tool sources (spec 8): a template's `sources`, tools that come from the environment at run time
//! (an MCP server, a plugin through the relay) rather than being written in the file. This module
//! owns their definitions and the checks a schema cannot express; what they offer a run is
//! `discovery.rs`'s. Nothing here starts a process or opens a connection: opening, validating and
//! rendering a template never do.

use std::collections::HashMap;

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::error::{pointer_segment, Problem};
use crate::tool::{check_parameters_schema, Tool};

/// A source of tools: where its tools come from, which section they belong to, and what it offered
/// when last asked (its `snapshot`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(extend("additionalProperties" = false, "patternProperties" = { "^x-": true }))]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ToolSource {
    /// The source's name (a tool name's pattern), unique among the template's sources.
    #[schemars(regex(pattern = r"^[A-Za-z0-9_-]{1,64}$"))]
    pub name: String,
    /// The path of the section whose tools these are; `null` for the template's own tools.
    #[serde(default)]
    pub section: Option<String>,
    // The optional objects are described as their type, not as "it or null" (they are left out,
    // never written null), so a problem inside one is reported at its own place.
    /// An MCP server (exactly one of `mcp` and `relay`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "McpServer")]
    pub mcp: Option<McpServer>,
    /// A plugin's session on Unfold's relay (exactly one of `mcp` and `relay`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "RelayPlugin")]
    pub relay: Option<RelayPlugin>,
    /// The tools the source offered when last asked (`unfold sources snapshot`): what runs,
    /// renders and comparisons use when the source is not started.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Vec<Tool>")]
    pub snapshot: Option<Vec<Tool>>,
    /// `x-` fields, kept as they are.
    #[serde(flatten, deserialize_with = "crate::unique_keys::extensions")]
    #[cfg_attr(feature = "specta", specta(skip))]
    pub extensions: Map<String, Value>,
}

impl ToolSource {
    /// Whether a run may be offered tools of this source that no file names: a source without a
    /// snapshot lists whatever it lists, and a relay plugin registers its tools per session and
    /// changes them as the user works (its snapshot is only what it had when written).
    pub fn lists_beyond_snapshot(&self) -> bool {
        self.snapshot.is_none() || self.relay.is_some()
    }
}

/// How to reach an MCP server: a child process over stdio, or a streamable HTTP endpoint.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(extend("additionalProperties" = false, "patternProperties" = { "^x-": true }))]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct McpServer {
    /// The program and its arguments, as a list (never a shell line).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<Vec<String>>,
    /// The child's working folder; relative to the template's folder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    /// Variables the child gets beside `PATH`, `HOME` and `LANG`; a value `${env:NAME}` is taken
    /// from the user's environment when the source starts.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty", deserialize_with = "crate::unique_keys::string_map")]
    #[cfg_attr(feature = "specta", specta(type = IndexMap<String, String>))]
    pub env: IndexMap<String, String>,
    /// A streamable HTTP endpoint (`http://` or `https://`), instead of `command`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// `x-` fields, kept as they are.
    #[serde(flatten, deserialize_with = "crate::unique_keys::extensions")]
    #[cfg_attr(feature = "specta", specta(skip))]
    pub extensions: Map<String, Value>,
}

/// A plugin that registers its tools for a session on Unfold's relay (spec 9).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(extend("additionalProperties" = false, "patternProperties" = { "^x-": true }))]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct RelayPlugin {
    /// The plugin's name, as it registers.
    pub plugin: String,
    /// `x-` fields, kept as they are.
    #[serde(flatten, deserialize_with = "crate::unique_keys::extensions")]
    #[cfg_attr(feature = "specta", specta(skip))]
    pub extensions: Map<String, Value>,
}

/// The problems of a template's `sources` a schema cannot express, each at its place;
/// `has_section` tells whether the template has a section at a path.
pub(crate) fn source_problems(sources: &[ToolSource], has_section: &dyn Fn(&str) -> bool) -> Vec<Problem> {
    let mut problems = Vec::new();
    let mut names: HashMap<&str, usize> = HashMap::new();
    for (i, source) in sources.iter().enumerate() {
        let pointer = format!("/sources/{i}");
        if let Some(first) = names.insert(&source.name, i) {
            let message = format!("duplicate source name '{}': /sources/{first} has it too", source.name);
            problems.push(Problem::at(format!("{pointer}/name"), message));
        }
        if let Some(path) = &source.section {
            if !has_section(path) {
                problems
                    .push(Problem::at(format!("{pointer}/section"), format!("no section '{path}' in the template")));
            }
        }
        match (&source.mcp, &source.relay) {
            (Some(mcp), None) => problems.extend(mcp_problems(mcp, &pointer)),
            (None, Some(relay)) if relay.plugin.trim().is_empty() => {
                problems.push(Problem::at(format!("{pointer}/relay/plugin"), "name the plugin"));
            }
            (None, Some(_)) => {}
            _ => {
                problems.push(Problem::at(pointer.clone(), "a source is either \"mcp\" or \"relay\": give exactly one"))
            }
        }
        problems.extend(snapshot_problems(source.snapshot.as_deref().unwrap_or_default(), &pointer));
    }
    problems
}

/// A snapshot's tools are checked as written ones are, apart from names the template has: a run
/// leaves such a tool out and says so (the template may have gained the name since the snapshot).
fn snapshot_problems(tools: &[Tool], source: &str) -> Vec<Problem> {
    let mut problems = Vec::new();
    let mut names: HashMap<&str, usize> = HashMap::new();
    for (j, tool) in tools.iter().enumerate() {
        let pointer = format!("{source}/snapshot/{j}");
        if let Some(first) = names.insert(&tool.name, j) {
            let message = format!("duplicate tool name '{}': {source}/snapshot/{first} has it too", tool.name);
            problems.push(Problem::at(format!("{pointer}/name"), message));
        }
        if let Err(problem) = check_parameters_schema(&tool.parameters) {
            problems.push(problem.at(&format!("{pointer}/parameters")));
        }
    }
    problems
}

fn mcp_problems(mcp: &McpServer, source: &str) -> Vec<Problem> {
    let pointer = format!("{source}/mcp");
    let mut problems = Vec::new();
    match (&mcp.command, &mcp.url) {
        (Some(command), None) => {
            if command.first().is_none_or(|program| program.trim().is_empty()) {
                problems.push(Problem::at(format!("{pointer}/command"), "name the program to run first"));
            }
        }
        (None, Some(url)) => {
            if !(url.starts_with("http://") || url.starts_with("https://")) {
                problems.push(Problem::at(format!("{pointer}/url"), "must start with http:// or https://"));
            }
            if mcp.cwd.is_some() || !mcp.env.is_empty() {
                problems.push(Problem::at(pointer.clone(), "\"cwd\" and \"env\" are for a \"command\", not a \"url\""));
            }
        }
        _ => problems.push(Problem::at(
            pointer.clone(),
            "an MCP server has either a \"command\" or a \"url\": give exactly one",
        )),
    }
    for (name, value) in &mcp.env {
        if let Some(problem) = env_problem(name, value) {
            problems.push(Problem::at(format!("{pointer}/env/{}", pointer_segment(name)), problem));
        }
    }
    problems
}

/// Why `name = value` cannot be given to a child: a name the OS cannot hold, or a reference to the
/// user's environment that is not a whole `${env:NAME}`.
fn env_problem(name: &str, value: &str) -> Option<String> {
    let valid_name = |n: &str| {
        n.bytes().next().is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
            && n.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
    };
    if !valid_name(name) {
        return Some(format!("'{name}' is not a variable name: use letters, digits and _, not starting with a digit"));
    }
    match value.strip_prefix("${env:").and_then(|rest| rest.strip_suffix('}')) {
        Some(reference) if !valid_name(reference) => Some(format!("'{reference}' is not a variable name")),
        None if value.contains("${env:") => {
            Some("a value taken from your environment is a whole \"${env:NAME}\", with nothing around it".to_owned())
        }
        _ => None,
    }
}
