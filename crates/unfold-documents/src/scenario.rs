//! The scenario document (`*.scenario.json`, spec 5): a user message and a script for the
//! deterministic model, scripted tool results, plugin tool changes and run limits; its own checks
//! and the checks against the template it runs on.

use std::collections::HashSet;
use std::path::Path;
use std::sync::OnceLock;

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::document::{self, DocumentKind};
use crate::error::{pointer_segment, Error, Problem, Result};
use crate::schema::DocumentSchema;
use crate::source::ToolSource;
use crate::template::{tool_name_set, Template};
use crate::tool::check_parameters_schema;
use crate::tool::{reserved_name_problem, ScriptedResult, Tool};

/// A scripted conversation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(title = "Unfold scenario")]
#[schemars(extend("additionalProperties" = false, "patternProperties" = { "^x-": true }))]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Scenario {
    /// Always 1 for this format.
    #[schemars(extend("const" = 1))]
    #[cfg_attr(feature = "specta", specta(type = u32))]
    pub schema_version: u64,
    /// Always `unfold.scenario`.
    #[schemars(extend("const" = "unfold.scenario"))]
    pub kind: String,
    /// The scenario's name, as reports show it.
    #[schemars(length(min = 1))]
    pub name: String,
    /// Parameter values over the template's defaults.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub params: IndexMap<String, String>,
    /// The user's message.
    pub user: String,
    /// What the model does, step by step; the last step, and only it, is a `say`.
    #[schemars(length(min = 1))]
    pub script: Vec<Step>,
    /// Results per tool, consumed in order (the last one repeats); over the tools' `mock`.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub tool_results: IndexMap<String, Vec<ScriptedResult>>,
    /// Tools a plugin adds or removes before a given model call.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_changes: Vec<ToolChange>,
    /// Limits over the defaults of spec 4.2.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limits: Option<ScenarioLimits>,
    /// `x-` fields, kept as they are.
    #[serde(flatten)]
    #[cfg_attr(feature = "specta", specta(skip))]
    pub extensions: Map<String, Value>,
}

/// One step of the script.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged, deny_unknown_fields)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum Step {
    /// One tool call: `{"call": "lookup", "args": {"id": 7}}`.
    Call(ScriptedCall),
    /// Parallel tool calls in one answer: `{"calls": [...]}`.
    Calls {
        /// The calls, in order.
        #[schemars(length(min = 1))]
        calls: Vec<ScriptedCall>,
    },
    /// The final answer: `{"say": "Done."}`.
    Say {
        /// Its text.
        say: String,
    },
}

/// A tool call the script makes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ScriptedCall {
    /// The tool's name.
    pub call: String,
    /// The arguments.
    #[serde(default)]
    #[cfg_attr(feature = "specta", specta(type = std::collections::BTreeMap<String, crate::json_type::JsonValue>))]
    pub args: Map<String, Value>,
}

/// A plugin's change to the available tools, before model call `at_model_call`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ToolChange {
    /// The 1-based model call (over the whole run) from which the change applies.
    #[schemars(range(min = 1))]
    pub at_model_call: u32,
    /// Tools added (full definitions).
    #[serde(default)]
    pub add: Vec<Tool>,
    /// Names of tools removed.
    #[serde(default)]
    pub remove: Vec<String>,
}

/// Run limits a scenario sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ScenarioLimits {
    /// Default 32.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub max_model_calls: Option<u32>,
    /// Default 8.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_restarts: Option<u32>,
}

impl Scenario {
    /// The JSON Schema of `*.scenario.json` files, as checked in at `schema/unfold.scenario.schema.json`.
    pub fn schema() -> &'static DocumentSchema {
        static SCHEMA: OnceLock<DocumentSchema> = OnceLock::new();
        SCHEMA.get_or_init(|| DocumentSchema::checked_in(include_str!("../../../schema/unfold.scenario.schema.json")))
    }

    /// Parses and validates a scenario from JSON text.
    pub fn from_json(bytes: &[u8]) -> Result<Scenario> {
        document::parse_versioned(bytes, DocumentKind::Scenario.tag(), Scenario::schema(), Scenario::problems)
    }

    /// Reads a scenario the editor kept (a recovery entry): any JSON of the scenario's shape, with
    /// whatever problems it had while it was being edited; they are listed once it is open.
    pub fn from_json_with_problems(bytes: &[u8]) -> Result<Scenario> {
        document::from_tree(document::parse_json(bytes)?)
    }

    /// Loads and validates a scenario file; errors name the file.
    pub fn load(path: &Path) -> Result<Scenario> {
        let bytes = document::read_document_bytes(path)?;
        Scenario::from_json(&bytes).map_err(|e| e.in_file(path))
    }

    /// Reads the scenario at `path` to run on `template`: its own problems and those of running it
    /// on that template ([`Scenario::problems_with`]) fail it, at their places in that file.
    pub fn load_for(path: &Path, template: &Template) -> Result<Scenario> {
        let scenario = Scenario::load(path)?;
        let problems = scenario.problems_with(template);
        if problems.is_empty() {
            Ok(scenario)
        } else {
            Err(Error::invalid(problems).in_file(path))
        }
    }

    /// The canonical JSON text.
    pub fn to_json(&self) -> String {
        document::to_canonical_json(self)
    }

    /// Saves the canonical JSON text atomically.
    pub fn save(&self, path: &Path) -> Result<()> {
        document::write_atomically(path, &self.to_json())
    }

    fn problems(&self) -> Vec<Problem> {
        let mut problems = Vec::new();
        let last = self.script.len().saturating_sub(1);
        for (i, step) in self.script.iter().enumerate() {
            match step {
                Step::Say { .. } if i != last => problems
                    .push(Problem::at(format!("/script/{i}"), "a \"say\" step ends the run: it must be the last step")),
                _ => {}
            }
        }
        if !matches!(self.script.last(), Some(Step::Say { .. })) {
            problems.push(Problem::at(
                format!("/script/{last}"),
                "the last step must be a \"say\" step (the final answer)",
            ));
        }
        let mut seen_calls = HashSet::new();
        let mut added = HashSet::new();
        for (i, change) in self.tool_changes.iter().enumerate() {
            if !seen_calls.insert(change.at_model_call) {
                problems.push(Problem::at(
                    format!("/tool_changes/{i}/at_model_call"),
                    format!("another change is already at model call {}: merge them", change.at_model_call),
                ));
            }
            for (j, tool) in change.add.iter().enumerate() {
                let pointer = format!("/tool_changes/{i}/add/{j}");
                if let Some(message) = reserved_name_problem(&tool.name) {
                    problems.push(Problem::at(format!("{pointer}/name"), message));
                } else if !added.insert(tool.name.as_str()) {
                    problems.push(Problem::at(format!("{pointer}/name"), format!("'{}' is added twice", tool.name)));
                }
                if let Err(problem) = check_parameters_schema(&tool.parameters) {
                    problems.push(problem.at(&format!("{pointer}/parameters")));
                }
            }
        }
        problems
    }

    /// The problems of running this scenario on `template`: parameters, tool results and tool
    /// changes that name nothing the template has.
    pub fn problems_with(&self, template: &Template) -> Vec<Problem> {
        // The tools a run can call include the sources' (their snapshots, when not started).
        let template = &*template.offline_view();
        let mut problems = Vec::new();
        let used = template.used_params();
        for name in self.params.keys() {
            if !template.params.contains_key(name) && !used.contains(name) {
                problems.push(Problem::at(
                    format!("/params/{}", pointer_segment(name)),
                    format!("unknown parameter '{name}': template '{}' neither declares nor uses it", template.key),
                ));
            }
        }
        let mut known: HashSet<&str> = tool_name_set(template);
        known.extend(self.tool_changes.iter().flat_map(|c| c.add.iter().map(|t| t.name.as_str())));
        // Such a source may list any name live: its tools cannot be known here.
        let unknowable = template.sources.iter().any(ToolSource::lists_beyond_snapshot);
        for name in self.tool_results.keys().filter(|_| !unknowable) {
            if !known.contains(name.as_str()) {
                problems.push(Problem::at(
                    format!("/tool_results/{}", pointer_segment(name)),
                    format!("no tool '{name}' in template '{}' or in tool_changes", template.key),
                ));
            }
        }
        for (i, change) in self.tool_changes.iter().enumerate() {
            for (j, name) in change.remove.iter().enumerate() {
                if !known.contains(name.as_str()) && !unknowable {
                    problems.push(Problem::at(
                        format!("/tool_changes/{i}/remove/{j}"),
                        format!("no tool '{name}' in template '{}' or in tool_changes", template.key),
                    ));
                }
            }
        }
        problems
    }
}
