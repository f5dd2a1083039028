//! The scripted model and the scripted tool results of spec 5: a deterministic provider that is a
//! pure function of the request it is shown, and the results tools give in a scripted run.

use std::collections::{HashMap, HashSet, VecDeque};

use async_trait::async_trait;
use serde_json::Value;

use crate::provider::{Message, ModelRequest, ModelResponse, Provider, ToolCall};
use crate::sent_names::mcp_tool;
use unfold_documents::scenario::{Scenario, ScriptedCall, Step};
use unfold_documents::template::Template;
use unfold_documents::tool::{Builtin, ScriptedResult, Tool};

/// A model that follows a scenario's script. At each call it takes the script of the turn it is
/// in (the user messages it is shown say which), walks it from the top and answers with the first
/// step not yet satisfied in what it is shown: a call is satisfied when the conversation holds it
/// (its id carries the turn and step), a `read_section` / `open_sections` call also when its
/// sections are rendered in full, a `pick_tools` call also when its tools are offered with their
/// full descriptions. So after a restart it redoes the work the restart threw away.
#[derive(Debug, Clone)]
pub struct ScriptedProvider {
    /// Each turn's script.
    turns: Vec<Vec<Step>>,
    /// The id of each call of each step of each turn (`call_<step>_<index>` in the first turn,
    /// `t<turn>_call_<step>_<index>` in later ones): how the model tags its calls.
    call_ids: Vec<Vec<Vec<String>>>,
    section_paths: HashSet<String>,
    full_descriptions: HashMap<String, String>,
}

impl ScriptedProvider {
    /// The model of `scenario`, knowing `template`'s section paths and tool descriptions.
    pub fn new(scenario: &Scenario, template: &Template) -> ScriptedProvider {
        let mut section_paths = HashSet::new();
        template.walk(&mut |path, _| {
            section_paths.insert(path.to_owned());
        });
        let full_descriptions = template
            .all_tools()
            .into_iter()
            .chain(scenario.changed_tools())
            .map(|t| (t.name.clone(), t.description.clone()))
            .collect();
        let turns: Vec<Vec<Step>> = scenario.conversation_turns().iter().map(|turn| turn.script.to_vec()).collect();
        let call_ids = turns.iter().enumerate().map(|(turn, script)| call_ids(turn, script)).collect();
        ScriptedProvider { turns, call_ids, section_paths, full_descriptions }
    }

    fn answer(&self, request: &ModelRequest<'_>) -> ModelResponse {
        // The calls this conversation holds, gathered once: a call is looked up per step below.
        let made: HashSet<&str> = request
            .messages
            .iter()
            .flat_map(|m| match m {
                Message::Assistant { tool_calls, .. } => tool_calls.as_slice(),
                _ => &[],
            })
            .map(|c| c.id.as_str())
            .collect();
        // The turn it is in: one user message per turn given so far.
        let users = request.messages.iter().filter(|m| matches!(m, Message::User { .. })).count();
        let turn = users.clamp(1, self.turns.len().max(1)) - 1;
        let (Some(script), Some(ids)) = (self.turns.get(turn), self.call_ids.get(turn)) else {
            return ModelResponse { text: Some(String::new()), ..ModelResponse::default() };
        };
        for (step_index, step) in script.iter().enumerate() {
            let calls = match step {
                Step::Say { say } => return ModelResponse { text: Some(say.clone()), ..ModelResponse::default() },
                Step::Call(call) => std::slice::from_ref(call),
                Step::Calls { calls } => calls.as_slice(),
            };
            let pending: Vec<ToolCall> = calls
                .iter()
                .zip(&ids[step_index])
                .filter(|(call, id)| !made.contains(id.as_str()) && !self.shown_done(call, request))
                .map(|(call, id)| ToolCall {
                    id: id.clone(),
                    name: sent_name(&call.call, request),
                    arguments: Value::Object(call.args.clone()),
                })
                .collect();
            if !pending.is_empty() {
                return ModelResponse { tool_calls: pending, ..ModelResponse::default() };
            }
        }
        // Validation makes the last step a `say`; a script that runs out anyway ends quietly.
        ModelResponse { text: Some(String::new()), ..ModelResponse::default() }
    }

    /// Whether the request shows that a builtin call needs no making: its sections are rendered
    /// in full, or its tools are offered with their full descriptions.
    fn shown_done(&self, call: &ScriptedCall, request: &ModelRequest<'_>) -> bool {
        match Builtin::from_name(&call.call) {
            Some(Builtin::ReadSection) => {
                call.args.get("section_key").and_then(Value::as_str).is_some_and(|key| self.shown_full(key, request))
            }
            Some(Builtin::OpenSections) => string_list(call.args.get("section_keys"))
                .is_some_and(|keys| !keys.is_empty() && keys.iter().all(|key| self.shown_full(key, request))),
            Some(Builtin::PickTools) => string_list(call.args.get("tools")).is_some_and(|names| {
                names.iter().all(|name| {
                    let offered = request.tools.iter().find(|t| t.name == *name);
                    offered.is_some_and(|t| self.full_descriptions.get(*name) == Some(&t.description))
                })
            }),
            None => false,
        }
    }

    /// A section is shown in full when it exists and neither it nor an ancestor is summarized.
    fn shown_full(&self, key: &str, request: &ModelRequest<'_>) -> bool {
        self.section_paths.contains(key)
            && !request
                .summarized
                .iter()
                .any(|s| key == s.path || (key.starts_with(&s.path) && key.as_bytes().get(s.path.len()) == Some(&b'.')))
    }
}

/// The name a script's call of `tool` is made by: the name the request sends it under, when a host
/// prefixes it as MCP hosts do (`mcp__{source}__{tool}`); else the script's.
fn sent_name(tool: &str, request: &ModelRequest<'_>) -> String {
    let sent = request.tools.iter().map(|t| t.name.as_str());
    let mut prefixed = sent.clone().filter(|name| mcp_tool(name) == Some(tool));
    match prefixed.next() {
        Some(name) if !sent.clone().any(|name| name == tool) => name.to_owned(),
        _ => tool.to_owned(),
    }
}

/// The ids the model gives the calls of each step of turn `turn` (0-based): the first turn's keep
/// the one-turn form's ids, so its runs read as they always have.
fn call_ids(turn: usize, script: &[Step]) -> Vec<Vec<String>> {
    let prefix = if turn == 0 { String::new() } else { format!("t{}_", turn + 1) };
    script
        .iter()
        .enumerate()
        .map(|(step, s)| {
            let count = match s {
                Step::Say { .. } => 0,
                Step::Call(_) => 1,
                Step::Calls { calls } => calls.len(),
            };
            (0..count).map(|index| format!("{prefix}call_{step}_{index}")).collect()
        })
        .collect()
}

fn string_list(value: Option<&Value>) -> Option<Vec<&str>> {
    value?.as_array()?.iter().map(Value::as_str).collect()
}

#[async_trait]
impl Provider for ScriptedProvider {
    async fn complete(&mut self, request: &ModelRequest<'_>) -> unfold_documents::Result<ModelResponse> {
        Ok(self.answer(request))
    }
}

/// The results tools give in a scripted run: the scenario's `tool_results` for the tool, consumed
/// in order with the last one repeating, else the tool's `mock`, else a failure.
#[derive(Debug, Clone, Default)]
pub struct ScriptedToolResults {
    queues: HashMap<String, (Vec<ScriptedResult>, usize)>,
    given: GivenResults,
}

/// Results given by call id (a fork's, spec 15): they win over the script and a tool source.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GivenResults {
    /// Each call's results as recorded (whether it succeeded, and the result), in turn.
    pub recorded: HashMap<String, VecDeque<(bool, Value)>>,
    /// A call's result each time it is made past its recorded results (a restart makes it again).
    pub changed: HashMap<String, Value>,
}

impl ScriptedToolResults {
    /// The results of `scenario`.
    pub fn new(scenario: &Scenario) -> ScriptedToolResults {
        let queues = scenario.tool_results.iter().map(|(name, results)| (name.clone(), (results.clone(), 0))).collect();
        ScriptedToolResults { queues, given: GivenResults::default() }
    }

    /// These results, and `given` by call id before them.
    pub fn with_given(self, given: GivenResults) -> ScriptedToolResults {
        ScriptedToolResults { given, ..self }
    }

    /// The result given to the call `call_id` of `tool`, if one is (whether it succeeded, and
    /// the result); the script moves on as if it had answered.
    pub fn given(&mut self, call_id: &str, tool: &Tool) -> Option<(bool, Value)> {
        // Made before the event, a call has its recorded results; made again after, the change.
        let recorded = self.given.recorded.get_mut(call_id).and_then(VecDeque::pop_front);
        let given = match recorded {
            Some(given) => given,
            None => (true, self.given.changed.get(call_id)?.clone()),
        };
        let _ = self.next(tool);
        Some(given)
    }

    /// Whether the scenario scripts results for `tool` (they then win over its tool source).
    pub fn scripts(&self, tool: &str) -> bool {
        self.queues.get(tool).is_some_and(|(results, _)| !results.is_empty())
    }

    /// The next result of `tool`: `Ok(value)` or `Err(message)`.
    pub fn next(&mut self, tool: &Tool) -> Result<Value, String> {
        let scripted = match self.queues.get_mut(&tool.name) {
            Some((results, next)) if !results.is_empty() => {
                let result = results[(*next).min(results.len() - 1)].clone();
                *next += 1;
                Some(result)
            }
            _ => tool.mock.clone(),
        };
        match scripted {
            Some(ScriptedResult::Result(value)) => Ok(value),
            Some(ScriptedResult::Error(message)) => Err(message),
            None => Err(no_result(&tool.name)),
        }
    }
}

/// What a call of `tool` is answered when nothing scripts its result and it has no mock.
pub fn no_result(tool: &str) -> String {
    format!("No result scripted for tool '{tool}'")
}
