//! The scenario document (`*.scenario.json`, spec 5 and 12): the user's turns, each with a script
//! for the deterministic model (one turn as `user` + `script`, several as `turns`), scripted tool
//! results, plugin tool changes and run limits; its own checks and the checks against the template
//! it runs on.

use std::collections::{HashMap, HashSet};
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
use crate::template::{tool_name_set, Section, Template, Visibility};
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
    /// The user's message, in the one-turn form (`turns` holds a conversation of several).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user: Option<String>,
    /// What the model does in the one-turn form, step by step; the last step, and only it, is a `say`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub script: Vec<Step>,
    /// The user's turns in order, each with what the model does in it: the form of several turns.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub turns: Vec<Turn>,
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

/// One user turn: the user's message and what the model does before its answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Turn {
    /// The user's message.
    pub user: String,
    /// What the model does, step by step; the last step, and only it, is a `say`.
    #[schemars(length(min = 1))]
    pub script: Vec<Step>,
}

/// One turn of a scenario as a run plays it, whichever form the file uses.
#[derive(Debug, Clone, PartialEq)]
pub struct TurnRef<'a> {
    /// The user's message.
    pub user: &'a str,
    /// What the model does.
    pub script: &'a [Step],
    /// Where its script is in the file (`/script` or `/turns/N/script`).
    pub script_pointer: String,
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

/// A plugin's change to the available tools: before model call `at_model_call`, or before the
/// first model call of user turn `at_turn` (exactly one of the two).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ToolChange {
    /// The 1-based model call (over the whole run) from which the change applies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub at_model_call: Option<u32>,
    /// The 1-based user turn before whose first model call the change applies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub at_turn: Option<u32>,
    /// Tools added (full definitions).
    #[serde(default)]
    pub add: Vec<Tool>,
    /// Names of tools removed.
    #[serde(default)]
    pub remove: Vec<String>,
    /// Tools given a new definition under the same name (a new description or schema).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub modify: Vec<Tool>,
}

/// When a tool change applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ChangeMoment {
    /// Before the 1-based model call, counted over the whole run.
    ModelCall(u32),
    /// Before the first model call of the 1-based user turn.
    Turn(u32),
}

impl ToolChange {
    /// When it applies: its `at_model_call`, else its `at_turn` (validation makes it exactly one;
    /// a change the editor holds with neither applies before the first call).
    pub fn moment(&self) -> ChangeMoment {
        match (self.at_model_call, self.at_turn) {
            (Some(call), _) => ChangeMoment::ModelCall(call),
            (None, Some(turn)) => ChangeMoment::Turn(turn),
            (None, None) => ChangeMoment::ModelCall(1),
        }
    }

    /// Every tool it defines: those it adds and those it modifies.
    pub fn defined(&self) -> impl Iterator<Item = &Tool> {
        self.add.iter().chain(&self.modify)
    }
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

    /// The conversation's turns in order, whichever form the file uses: one for `user` + `script`.
    pub fn conversation_turns(&self) -> Vec<TurnRef<'_>> {
        if self.turns.is_empty() {
            let user = self.user.as_deref().unwrap_or_default();
            return vec![TurnRef { user, script: &self.script, script_pointer: "/script".to_owned() }];
        }
        self.turns
            .iter()
            .enumerate()
            .map(|(i, turn)| TurnRef {
                user: &turn.user,
                script: &turn.script,
                script_pointer: format!("/turns/{i}/script"),
            })
            .collect()
    }

    /// The first turn's user message: what a list of runs shows of the conversation.
    pub fn first_user(&self) -> &str {
        self.turns.first().map_or(self.user.as_deref().unwrap_or_default(), |turn| turn.user.as_str())
    }

    /// The user's messages, one per turn, in order.
    pub fn user_turns(&self) -> Vec<String> {
        self.conversation_turns().iter().map(|turn| turn.user.to_owned()).collect()
    }

    /// Every tool the scenario's changes define (added or modified), in the file's order.
    pub fn changed_tools(&self) -> impl Iterator<Item = &Tool> {
        self.tool_changes.iter().flat_map(ToolChange::defined)
    }

    fn problems(&self) -> Vec<Problem> {
        let mut problems = self.form_problems();
        for turn in self.conversation_turns() {
            problems.extend(script_problems(turn.script, &turn.script_pointer));
        }
        problems.extend(self.change_problems());
        problems
    }

    /// Whether the file holds its conversation in exactly one of the two forms.
    fn form_problems(&self) -> Vec<Problem> {
        let one_turn = self.user.is_some() || !self.script.is_empty();
        if !self.turns.is_empty() && one_turn {
            let message = "give either \"user\" and \"script\" (one turn) or \"turns\", not both";
            return vec![Problem::at("/turns", message)];
        }
        if self.turns.is_empty() && self.user.is_none() {
            return vec![Problem::at(
                "/user",
                "the user's message is missing: give \"user\" and \"script\", or \"turns\"",
            )];
        }
        Vec::new()
    }

    /// The tool changes' own problems: when each applies, and what it adds, removes and modifies.
    fn change_problems(&self) -> Vec<Problem> {
        let mut problems = Vec::new();
        let turns = self.conversation_turns().len();
        let mut moments = HashSet::new();
        let mut added: HashMap<&str, usize> = HashMap::new();
        for (i, change) in self.tool_changes.iter().enumerate() {
            let at = format!("/tool_changes/{i}");
            match (change.at_model_call, change.at_turn) {
                (Some(_), Some(_)) => {
                    problems.push(Problem::at(format!("{at}/at_turn"), "give at_model_call or at_turn, not both"))
                }
                (None, None) => problems.push(Problem::at(&at, "say when it applies: at_model_call or at_turn")),
                (None, Some(turn)) if turn as usize > turns => problems.push(Problem::at(
                    format!("{at}/at_turn"),
                    format!("there is no turn {turn}: the scenario has {turns}"),
                )),
                _ => {}
            }
            if !moments.insert(change.moment()) {
                let (field, when) = match change.moment() {
                    ChangeMoment::ModelCall(call) => ("at_model_call", format!("model call {call}")),
                    ChangeMoment::Turn(turn) => ("at_turn", format!("turn {turn}")),
                };
                problems.push(Problem::at(
                    format!("{at}/{field}"),
                    format!("another change is already at {when}: merge them"),
                ));
            }
            for (j, tool) in change.add.iter().enumerate() {
                let pointer = format!("{at}/add/{j}/name");
                if let Some(&other) = added.get(tool.name.as_str()) {
                    problems.push(Problem::at(
                        pointer,
                        format!(
                            "'{}' is already added by /tool_changes/{other}: use modify to change its definition",
                            tool.name
                        ),
                    ));
                } else if change.remove.contains(&tool.name) {
                    problems.push(Problem::at(
                        pointer,
                        format!(
                            "'{}' is removed and added in one change: use modify to change its definition",
                            tool.name
                        ),
                    ));
                }
                added.entry(&tool.name).or_insert(i);
            }
            problems.extend(definition_problems(&change.add, &format!("{at}/add")));
            problems.extend(definition_problems(&change.modify, &format!("{at}/modify")));
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
        let offered = offered_from_the_start(template);
        let removed: HashSet<&str> = self.tool_changes.iter().flat_map(|c| &c.remove).map(String::as_str).collect();
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
            let unknown = |name: &str| !known.contains(name) && !unknowable;
            for (j, name) in change.remove.iter().enumerate().filter(|(_, name)| unknown(name)) {
                problems.push(Problem::at(
                    format!("/tool_changes/{i}/remove/{j}"),
                    format!("no tool '{name}' in template '{}' or in tool_changes", template.key),
                ));
            }
            for (j, tool) in change.modify.iter().enumerate().filter(|(_, tool)| unknown(&tool.name)) {
                problems.push(Problem::at(
                    format!("/tool_changes/{i}/modify/{j}/name"),
                    format!("no tool '{}' to modify in template '{}' or in tool_changes", tool.name, template.key),
                ));
            }
            // A tool offered from the first call, added again under its name (not after a change
            // removed it). One a summarized section holds may be added: reading the section then
            // skips it, as spec 4.1 says.
            for (j, tool) in change.add.iter().enumerate() {
                let name = tool.name.as_str();
                if offered.contains(name) && !removed.contains(name) {
                    problems.push(Problem::at(
                        format!("/tool_changes/{i}/add/{j}/name"),
                        format!(
                            "'{name}' is offered from the first call by template '{}': use modify to change its definition",
                            template.key
                        ),
                    ));
                }
            }
        }
        problems
    }
}

/// The names of the tools `template` offers from the first model call: its own, and those of the
/// sections shown in full with every ancestor.
fn offered_from_the_start(template: &Template) -> HashSet<&str> {
    fn full_sections<'t>(sections: &'t [Section], names: &mut HashSet<&'t str>) {
        for section in sections.iter().filter(|section| section.visibility == Visibility::Full) {
            names.extend(section.tools.iter().map(|tool| tool.name.as_str()));
            full_sections(&section.children, names);
        }
    }
    let mut names: HashSet<&str> = template.tools.iter().map(|tool| tool.name.as_str()).collect();
    full_sections(&template.sections, &mut names);
    names
}

/// The problems of one turn's script at `pointer`: steps, and a `say` last and only last.
fn script_problems(script: &[Step], pointer: &str) -> Vec<Problem> {
    let Some(last) = script.len().checked_sub(1) else {
        return vec![Problem::at(pointer, "the script needs at least one step, the last a \"say\" (the final answer)")];
    };
    let mut problems: Vec<Problem> = script[..last]
        .iter()
        .enumerate()
        .filter(|(_, step)| matches!(step, Step::Say { .. }))
        .map(|(i, _)| Problem::at(format!("{pointer}/{i}"), "a \"say\" step ends the turn: it must be the last step"))
        .collect();
    if !matches!(script[last], Step::Say { .. }) {
        problems
            .push(Problem::at(format!("{pointer}/{last}"), "the last step must be a \"say\" step (the final answer)"));
    }
    problems
}

/// The problems of tool definitions a change adds or modifies, at `pointer`: reserved names and
/// parameter schemas.
fn definition_problems(tools: &[Tool], pointer: &str) -> Vec<Problem> {
    let mut problems = Vec::new();
    for (j, tool) in tools.iter().enumerate() {
        if let Some(message) = reserved_name_problem(&tool.name) {
            problems.push(Problem::at(format!("{pointer}/{j}/name"), message));
        }
        if let Err(problem) = check_parameters_schema(&tool.parameters) {
            problems.push(problem.at(&format!("{pointer}/{j}/parameters")));
        }
    }
    problems
}
