//! A fork of a recorded run at one of its events (spec 15): the conversation before the event as
//! recorded (the model's answers, and the results of the tools it called that are not Unfold's
//! disclosure tools), a change there (another result for a tool call, sections read), and then
//! each lane's own model. The disclosure tools are answered by the fork's session again, so a
//! lane under another adapter reveals and injects as that adapter does. A real host's lane goes on
//! from the same answers and results: its calls reach the template server without their ids, so
//! their results are given by tool, in the order each tool is called ([`Fork::scenario_for_host`]).

use std::collections::{BTreeMap, VecDeque};

use async_trait::async_trait;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use unfold_documents::tool::{Builtin, ScriptedResult};
use unfold_documents::Scenario;

use crate::events::{EventKind, RunReport};
use crate::lane::Lane;
use crate::provider::{HiddenTools, ModelRequest, ModelResponse, Provider, ToolCall, Usage};
use crate::scripted::GivenResults;

/// What a fork changes at its event.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ForkChange {
    /// Tool calls answered with another result: calls at or after the event.
    pub results: Vec<ChangedResult>,
    /// Sections the model reads at the event, before its next answer of its own.
    pub expand: Vec<String>,
}

/// A tool call given another result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ChangedResult {
    /// The call's id.
    pub call_id: String,
    /// Its result.
    #[cfg_attr(feature = "specta", specta(type = unfold_documents::json_type::JsonValue))]
    pub result: Value,
}

/// Where a fork's conversation came from: what its report names.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ForkOrigin {
    /// The parent: `run 42` (its id in the history), or the report file it was read from.
    pub parent: String,
    /// The parent's lane.
    pub lane: String,
    /// The parent's event the fork left it at.
    pub at_seq: u32,
    /// How many of the model's answers the fork replayed (the model was not asked for them).
    pub replayed_calls: u32,
    /// The tool calls given another result.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub changed_results: Vec<String>,
    /// The sections read at the event.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub expanded: Vec<String>,
}

/// A run's conversation up to one of its events, with a change, for each lane of a fork to go on
/// from.
#[derive(Debug, Clone, PartialEq)]
pub struct Fork {
    /// The model's answers before the event, in the order of its calls.
    answers: Vec<ModelResponse>,
    /// The results tool calls are given by id: as recorded before the event, as changed.
    given: GivenResults,
    expand: Vec<String>,
    /// The same results by tool and by the number of the call among that tool's calls (from 0),
    /// for a real host's template server.
    in_order: BTreeMap<String, BTreeMap<usize, ScriptedResult>>,
    /// The parent's lane: only its own replay keeps the tokens the parent's calls were counted.
    lane: Lane,
}

impl Fork {
    /// The fork of `parent` at its event `seq` with `change`; what is wrong with the asking is said
    /// in words (no such event, a changed call answered before the event or not in the run).
    pub fn at(parent: &RunReport, seq: u32, change: ForkChange) -> Result<Fork, String> {
        let last = parent.events.last().map_or(0, |event| event.seq);
        if parent.events.iter().all(|event| event.seq != seq) {
            return Err(format!("the run has no event {seq}: its events are 0 to {last}"));
        }
        let before = |event_seq: u32| event_seq < seq;
        let mut answers: Vec<(u32, ModelResponse)> = parent
            .events
            .iter()
            .filter(|event| before(event.seq))
            .filter_map(|event| match &event.kind {
                EventKind::ModelCall { call_index, prompt_tokens, completion_tokens, measured_cache, text, .. } => {
                    let usage = Usage {
                        prompt_tokens: *prompt_tokens,
                        completion_tokens: *completion_tokens,
                        cache: *measured_cache,
                    };
                    let answer = ModelResponse {
                        text: text.clone(),
                        tool_calls: Vec::new(),
                        usage: Some(usage),
                        cut_at_limit: false,
                    };
                    Some((*call_index, answer))
                }
                _ => None,
            })
            .collect();
        let mut given = GivenResults::default();
        let mut in_order: BTreeMap<String, BTreeMap<usize, ScriptedResult>> = BTreeMap::new();
        // Each call of the run that is not a disclosure tool's: its tool, and its number among
        // that tool's calls.
        let mut numbered: Vec<(&str, &str, usize)> = Vec::new();
        let mut after: Vec<&str> = Vec::new();
        for event in &parent.events {
            let EventKind::ToolCall { call_index, call_id, name, args, success, result } = &event.kind else {
                continue;
            };
            // A call made in an answer before the event is in that answer, whenever it was answered.
            if let Some((_, answer)) = answers.iter_mut().find(|(index, _)| index == call_index) {
                answer.tool_calls.push(ToolCall { id: call_id.clone(), name: name.clone(), arguments: args.clone() });
            }
            let nth = match Builtin::from_name(name) {
                Some(_) => None,
                None => {
                    let nth = numbered.iter().filter(|(tool, _, _)| tool == name).count();
                    numbered.push((name, call_id, nth));
                    Some(nth)
                }
            };
            if !before(event.seq) {
                after.push(call_id);
            } else if let Some(nth) = nth {
                given.recorded.entry(call_id.clone()).or_default().push_back((*success, result.clone()));
                in_order.entry(name.clone()).or_default().insert(nth, scripted(*success, result));
            }
        }
        words_of_earlier_replies(parent, &mut answers)?;
        for ChangedResult { call_id, result } in &change.results {
            if !after.contains(&call_id.as_str()) {
                let known = if after.is_empty() { "none".to_owned() } else { after.join(", ") };
                return Err(format!(
                    "{call_id} is not a tool call of the run at or after event {seq} (those are: {known})"
                ));
            }
            let called = parent.events.iter().find_map(|event| match &event.kind {
                EventKind::ToolCall { call_id: id, name, .. } if id == call_id => Some(name.as_str()),
                _ => None,
            });
            if let Some(builtin) = called.filter(|name| Builtin::from_name(name).is_some()) {
                return Err(format!(
                    "{call_id} calls {builtin}, which the fork's session answers: fork with --expand instead"
                ));
            }
            given.changed.insert(call_id.clone(), result.clone());
            for (tool, _, nth) in numbered.iter().filter(|(_, id, _)| id == call_id) {
                in_order.entry((*tool).to_owned()).or_default().insert(*nth, ScriptedResult::Result(result.clone()));
            }
        }
        let answers = answers.into_iter().map(|(_, answer)| answer).collect();
        Ok(Fork { answers, given, expand: change.expand, in_order, lane: parent.lane() })
    }

    /// How many of the model's answers the fork replays.
    pub fn replayed_calls(&self) -> usize {
        self.answers.len()
    }

    /// `model` for `lane`, answering the calls before the event as recorded (it is not called for
    /// them), then reading the sections the change reads, then answering itself. Another lane's
    /// prompts are not the parent's: its replayed calls are counted as its own.
    pub fn provider(&self, lane: &Lane, model: Box<dyn Provider + Send>) -> Box<dyn Provider + Send> {
        Box::new(ReplayingProvider { answers: self.answers_for(lane).into(), model })
    }

    /// The answers given before `lane`'s model answers: the recording's, then the reads of the
    /// sections the change reads. Another lane's prompts are not the parent's: its replayed
    /// answers keep no usage.
    pub fn answers_for(&self, lane: &Lane) -> Vec<ModelResponse> {
        let same_lane = *lane == self.lane;
        let replayed = self
            .answers
            .iter()
            .map(|answer| ModelResponse { usage: answer.usage.filter(|_| same_lane), ..answer.clone() });
        let mut answers: Vec<ModelResponse> = replayed.collect();
        if !self.expand.is_empty() {
            let reads = self.expand.iter().enumerate().map(|(index, key)| ToolCall {
                id: format!("fork_read_{}", index + 1),
                name: Builtin::ReadSection.name().to_owned(),
                arguments: json!({ "section_key": key }),
            });
            answers.push(ModelResponse { text: None, tool_calls: reads.collect(), usage: None, cut_at_limit: false });
        }
        answers
    }

    /// `scenario` with the results the fork gives put in its `tool_results`, for a real host's
    /// template server, which is not told a call's id: the nth result of a tool is the one the
    /// fork gives the tool's nth call, else the scenario's; after the last given, the scenario's
    /// own go on. `template` gives the mock a tool with no scripted results answers with.
    pub fn scenario_for_host(&self, scenario: &Scenario, template: &unfold_documents::Template) -> Scenario {
        let mut scenario = scenario.clone();
        for (tool, given) in &self.in_order {
            let scripted = scenario.tool_results.get(tool).cloned().unwrap_or_default();
            let mock =
                template.all_tools().into_iter().find(|known| &known.name == tool).and_then(|known| known.mock.clone());
            let fallback = || ScriptedResult::Error(crate::scripted::no_result(tool));
            // The scenario's result for the call numbered `nth`: its last one repeats, else the mock.
            let own = |nth: usize| match scripted.last() {
                Some(last) => scripted.get(nth).unwrap_or(last).clone(),
                None => mock.clone().unwrap_or_else(fallback),
            };
            let end = given.keys().next_back().map_or(0, |last| last + 1).max(scripted.len());
            let mut results: Vec<ScriptedResult> =
                (0..end).map(|nth| given.get(&nth).cloned().unwrap_or_else(|| own(nth))).collect();
            // What repeats once they are used up: the scenario's last, as without the fork.
            results.push(own(end));
            scenario.tool_results.insert(tool.clone(), results);
        }
        scenario
    }

    /// The results the fork gives tool calls by id: the recording's before the event, the change's.
    pub fn given_results(&self) -> GivenResults {
        self.given.clone()
    }
}

/// A recorded call's result as a script gives it.
fn scripted(success: bool, result: &Value) -> ScriptedResult {
    match (success, result) {
        (true, _) => ScriptedResult::Result(result.clone()),
        (false, Value::String(message)) => ScriptedResult::Error(message.clone()),
        (false, other) => ScriptedResult::Error(other.to_string()),
    }
}

/// Answers from a recording first, then from the model.
struct ReplayingProvider {
    answers: VecDeque<ModelResponse>,
    model: Box<dyn Provider + Send>,
}

#[async_trait]
impl Provider for ReplayingProvider {
    async fn complete(&mut self, request: &ModelRequest<'_>) -> unfold_documents::Result<ModelResponse> {
        match self.answers.pop_front() {
            Some(answer) => Ok(answer),
            None => self.model.complete(request).await,
        }
    }

    fn fixed_tools(&self) -> Option<String> {
        self.model.fixed_tools()
    }

    fn refuses(&self, hidden: HiddenTools) -> Option<String> {
        self.model.refuses(hidden)
    }
}

/// Gives the replies that ended a user turn their words where the run's events do not: a report
/// written before `model_call` kept them has the last one's in its final answer only, so a fork
/// after another reply of such a report is refused rather than replayed without it.
fn words_of_earlier_replies(parent: &RunReport, answers: &mut [(u32, ModelResponse)]) -> Result<(), String> {
    let keeps_words =
        parent.events.iter().any(|event| matches!(&event.kind, EventKind::ModelCall { text: Some(_), .. }));
    if keeps_words {
        return Ok(());
    }
    let final_text = parent.events.iter().find_map(|event| match &event.kind {
        EventKind::RunCompleted { final_text, .. } => Some(final_text.clone()),
        _ => None,
    });
    let last_call = parent.events.iter().rev().find_map(|event| match event.kind {
        EventKind::ModelCall { call_index, .. } => Some(call_index),
        _ => None,
    });
    for (index, answer) in answers.iter_mut().filter(|(_, answer)| answer.tool_calls.is_empty()) {
        match &final_text {
            Some(text) if Some(*index) == last_call => answer.text = text.clone(),
            _ => {
                return Err(format!(
                    "the run was recorded before Unfold kept the words of each answer, and its answer to call \
                     {index} ended a user turn: fork at an event before it"
                ))
            }
        }
    }
    Ok(())
}
