//! What a scenario's script will do wrong on a template without being an error in either file:
//! calls to tools no section or tool change defines, arguments the tool's parameter schema refuses,
//! reads of sections the template lacks. A run still plays them (the spec gives each a failed tool
//! result, and a scenario may test exactly that), so they are warnings the editor shows before the
//! run, never reasons to refuse it.

use std::collections::HashMap;

use serde_json::{Map, Value};

use crate::error::Problem;
use crate::scenario::{Scenario, ScriptedCall, Step};
use crate::schema::shared_tool_parameters_validator;
use crate::template::Template;
use crate::tool::Builtin;

impl Scenario {
    /// The script's calls that will fail on `template`, each at its place in the scenario.
    pub fn warnings_with(&self, template: &Template) -> Vec<Problem> {
        let template = &*template.offline_view();
        let schemas = ToolSchemas::of(self, template);
        let mut warnings = Vec::new();
        for turn in self.conversation_turns() {
            for (step_index, step) in turn.script.iter().enumerate() {
                for (pointer, call) in calls_of(step, &format!("{}/{step_index}", turn.script_pointer)) {
                    warnings.extend(schemas.call_warnings(template, &pointer, call));
                }
            }
        }
        warnings
    }
}

/// Each call of `step`, which is at `pointer` in the scenario, with its own JSON pointer.
fn calls_of<'s>(step: &'s Step, pointer: &str) -> Vec<(String, &'s ScriptedCall)> {
    match step {
        Step::Call(call) => vec![(pointer.to_owned(), call)],
        Step::Calls { calls } => {
            calls.iter().enumerate().map(|(i, call)| (format!("{pointer}/calls/{i}"), call)).collect()
        }
        Step::Say { .. } => Vec::new(),
    }
}

/// The parameter schema of every tool a run of the scenario can offer: the builtins, the
/// template's tools and those its tool changes add (a later definition of a name wins, as the run
/// offers it).
struct ToolSchemas<'a> {
    by_name: HashMap<&'a str, Value>,
    template_key: &'a str,
    /// The sources that may list tools no file names ([`ToolSource::lists_beyond_snapshot`]).
    open_ended: Vec<&'a str>,
}

impl<'a> ToolSchemas<'a> {
    fn of(scenario: &'a Scenario, template: &'a Template) -> ToolSchemas<'a> {
        let builtins = Builtin::ALL.into_iter().map(|b| (b.name(), accepting_more(b.offered().parameters)));
        let written = template.all_tools().into_iter().map(|t| (t.name.as_str(), t.parameters.clone()));
        let added = scenario.changed_tools().map(|t| (t.name.as_str(), t.parameters.clone()));
        let open_ended = template.sources.iter().filter(|source| source.lists_beyond_snapshot());
        ToolSchemas {
            by_name: builtins.chain(written).chain(added).collect(),
            template_key: &template.key,
            open_ended: open_ended.map(|s| s.name.as_str()).collect(),
        }
    }

    fn call_warnings(&self, template: &Template, pointer: &str, call: &ScriptedCall) -> Vec<Problem> {
        let Some(parameters) = self.by_name.get(call.call.as_str()) else {
            let message = match self.open_ended.as_slice() {
                [] => format!(
                    "no tool '{}' in template '{}' or in tool_changes: the call will fail with \"Unknown tool\"",
                    call.call, self.template_key
                ),
                sources => format!(
                    "no tool '{}' in template '{}', its sources' snapshots or tool_changes: unless a source \
                     that lists its tools live ({}) lists it, the call will fail with \"Unknown tool\"",
                    call.call,
                    self.template_key,
                    sources.join(", ")
                ),
            };
            return vec![Problem::at(format!("{pointer}/call"), message)];
        };
        let mut warnings = argument_warnings(parameters, &call.args, pointer, &call.call);
        warnings.extend(unknown_sections(template, call, pointer));
        warnings
    }
}

/// A builtin's schema as the run applies it: the model is told `additionalProperties: false`, but
/// the run reads only the arguments it needs and ignores the rest.
fn accepting_more(mut parameters: Value) -> Value {
    if let Some(object) = parameters.as_object_mut() {
        object.remove("additionalProperties");
    }
    parameters
}

/// Where `args` do not fit `parameters` (nothing when the schema itself is invalid: the template
/// reports that).
fn argument_warnings(parameters: &Value, args: &Map<String, Value>, pointer: &str, tool: &str) -> Vec<Problem> {
    let Some(validator) = shared_tool_parameters_validator(parameters) else {
        return Vec::new();
    };
    let args = Value::Object(args.clone());
    validator
        .iter_errors(&args)
        .map(|error| {
            let message = format!("'{tool}' will refuse these arguments: {error}");
            Problem::at(format!("{pointer}/args{}", error.instance_path()), message)
        })
        .collect()
}

/// The sections a `read_section` or `open_sections` call names that `template` lacks.
fn unknown_sections(template: &Template, call: &ScriptedCall, pointer: &str) -> Vec<Problem> {
    let named: Vec<(String, &str)> = match Builtin::from_name(&call.call) {
        Some(Builtin::ReadSection) => call
            .args
            .get("section_key")
            .and_then(Value::as_str)
            .map(|key| ("/section_key".to_owned(), key))
            .into_iter()
            .collect(),
        Some(Builtin::OpenSections) => call
            .args
            .get("section_keys")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
            .filter_map(|(i, key)| key.as_str().map(|key| (format!("/section_keys/{i}"), key)))
            .collect(),
        _ => Vec::new(),
    };
    named
        .into_iter()
        .filter(|(_, key)| template.section(key).is_none())
        .map(|(place, key)| {
            let message = format!("no section '{key}' in template '{}': the call will fail", template.key);
            Problem::at(format!("{pointer}/args{place}"), message)
        })
        .collect()
}
