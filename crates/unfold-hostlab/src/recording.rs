//! A host's run as Unfold's other runs are told (spec 13): the two logs of a host run (what the
//! host sent its model, from the model endpoint; what it asked the template's MCP server and
//! what the server answered) made into a [`RunReport`] whose events are what the host really did.
//!
//! - a `model_call` per request of the conversation (side requests are counted, not told), with
//!   the tools the host offered in it under its names and in its order, the tokens of the
//!   request's parts and the prompt-cache analysis of its real bytes (the tools, then the system
//!   prompt, then each message as the host sent them);
//! - a `tool_call` per call the server answered, named as the template names the tool, and a
//!   `tool_not_shown` per call of the script the endpoint could not make (the request offered no
//!   such tool);
//! - `tools_listed` each time the host fetched the list of tools;
//! - `visibility_changed` when a read made sections FULL; the tools it revealed `tools_injected`
//!   just before the first request that offered them, or `tools_pending` (never) when no request
//!   did;
//! - `run_completed`, `completed` when the host ended well after talking to its model.
//!
//! The logs are read in time order; a call the server answered in the same millisecond as a
//! model request comes after it (a call follows the answer that asked for it), a listing before
//! it (a host lists tools for the request it is about to send).

use std::collections::HashSet;

use serde::Deserialize;
use serde_json::Value;
use unfold_documents::host_profile::HostApi;
use unfold_documents::runs::{AdapterKind, RunStatus};
use unfold_engine::compare::CallRequest;
use unfold_engine::prompt_prefix::{Piece, PromptShape};
use unfold_engine::{tokens, Counters, Event, EventKind, PendingShows, RealHost, RunReport};

use crate::host_requests::HostRequest;
use crate::scripted_endpoint::names_tool;

/// What a host run recorded: each log's entries, as written (`MessageLog` lines).
#[derive(Debug, Clone, Default)]
pub struct Recording {
    /// The model endpoint's log: each request with its answer.
    pub model: Vec<Value>,
    /// The template server's log: what the host sent, and what the server answered.
    pub mcp: Vec<Value>,
}

/// How the host's process went, for the run's status.
#[derive(Debug, Clone)]
pub struct HostOutcome {
    /// The host, its version, how its process ended.
    pub host: RealHost,
    /// Whether it ended well (exited with status 0).
    pub succeeded: bool,
    /// Why not, when it did not.
    pub failure: Option<String>,
}

impl Recording {
    /// The entries of the JSON-lines log `text` (a line that is not JSON is skipped).
    pub fn entries(text: &str) -> Vec<Value> {
        text.lines().filter_map(|line| serde_json::from_str(line).ok()).collect()
    }

    /// The run the recording tells, of the template keyed `template`.
    pub fn run_report(&self, template: &str, outcome: HostOutcome) -> RunReport {
        let requests = self.requests();
        let mut telling = Telling::new(&requests);
        telling.push(EventKind::RunStarted { adapter: AdapterKind::Dynamic, template: template.to_owned() });
        let mut answers = Vec::new();
        for (entry, request) in self.steps(requests) {
            telling.tell(entry, request, &mut answers);
        }
        telling.tell_answers(&mut answers);
        let HostOutcome { mut host, succeeded, failure } = outcome;
        host.side_requests = telling.side_requests;
        let failure =
            failure.or_else(|| (telling.call_index == 0).then(|| format!("{} never called the model", host.name)));
        let status = if succeeded && failure.is_none() { RunStatus::Completed } else { RunStatus::Error };
        let final_text = telling.final_text.take();
        telling.push(EventKind::RunCompleted { status, final_text: final_text.clone(), error: failure });
        let events = telling.events;
        RunReport {
            adapter: AdapterKind::Dynamic,
            host: None,
            real_host: Some(host),
            status,
            final_text,
            counters: Counters::of(&events),
            cost: None,
            events,
        }
    }

    /// Each request of the conversation as the host sent it, with the answer it got, numbered as
    /// the run's model calls are.
    pub fn calls(&self) -> Vec<CallRequest> {
        let main = self.model.iter().zip(self.requests()).filter(|(_, request)| request.is_some());
        main.map(|(entry, _)| entry)
            .zip(1..)
            .map(|(entry, call_index)| CallRequest {
                call_index,
                attempt: 1,
                body: entry["request"].clone(),
                response: entry["answer"].clone(),
            })
            .collect()
    }

    /// Each model log entry's request, read once: none for a side request or one not read.
    fn requests(&self) -> Vec<Option<(HostApi, HostRequest)>> {
        self.model
            .iter()
            .map(|entry| (entry["side"] != Value::Bool(true)).then(|| read_request(entry)).flatten())
            .collect()
    }

    /// Both logs' entries in the order they happened, each model entry with its request read.
    fn steps(&self, requests: Vec<Option<(HostApi, HostRequest)>>) -> Vec<(&Value, Option<(HostApi, HostRequest)>)> {
        let at = |entry: &Value| entry["at_unix_ms"].as_u64().unwrap_or(0);
        // Within one millisecond: listings, then model requests, then calls.
        let rank = |entry: &Value| match () {
            () if entry.get("listed").is_some() => 0,
            () if entry.get("answered").is_some() => 2,
            () => 1,
        };
        let answers = self.mcp.iter().filter(|entry| is_server_answer(entry)).map(|entry| (entry, None));
        let mut steps: Vec<(&Value, Option<(HostApi, HostRequest)>)> =
            self.model.iter().zip(requests).chain(answers).collect();
        steps.sort_by_key(|(entry, _)| (at(entry), rank(entry)));
        steps
    }
}

/// Whether a template server's log entry is what it answered (not what the host sent).
fn is_server_answer(entry: &Value) -> bool {
    entry.get("listed").is_some() || entry.get("answered").is_some()
}

/// A tool revealed by a read, until a request offers it.
struct Revealed {
    name: String,
    section_key: Option<String>,
}

/// The events told so far, and what telling the next needs.
struct Telling {
    events: Vec<Event>,
    call_index: u32,
    side_requests: u32,
    previous_shape: Option<PromptShape>,
    /// The tools the last answer called, by the host's names, with their ids.
    last_calls: Vec<(String, String)>,
    revealed: Vec<Revealed>,
    /// Every tool name any request of the conversation offered.
    ever_offered: HashSet<String>,
    final_text: Option<String>,
}

impl Telling {
    fn new(requests: &[Option<(HostApi, HostRequest)>]) -> Telling {
        let offered = requests.iter().flatten().flat_map(|(_, request)| &request.tools);
        let ever_offered = offered.map(|tool| tool.name.clone()).collect();
        Telling {
            events: Vec::new(),
            call_index: 0,
            side_requests: 0,
            previous_shape: None,
            last_calls: Vec::new(),
            revealed: Vec::new(),
            ever_offered,
            final_text: None,
        }
    }

    fn push(&mut self, kind: EventKind) {
        let seq = u32::try_from(self.events.len()).unwrap_or(u32::MAX);
        self.events.push(Event { kind, seq, attempt: 1 });
    }

    /// Tells `entry`. The calls of one answer are told together, once the next other entry
    /// comes, in the order the model made them: a host may run them at once, in any order.
    fn tell<'e>(&mut self, entry: &'e Value, request: Option<(HostApi, HostRequest)>, answers: &mut Vec<&'e Value>) {
        if let Some(answered) = entry.get("answered") {
            answers.push(answered);
            return;
        }
        self.tell_answers(answers);
        if let Some(listed) = entry.get("listed") {
            self.push(EventKind::ToolsListed { tool_names: strings(listed) });
        } else if entry["side"] == Value::Bool(true) {
            self.side_requests += 1;
        } else if let Some((api, request)) = request {
            self.tell_request(entry, api, &request);
        }
    }

    /// Tells the calls the server answered since the last other entry, in the answer's order.
    fn tell_answers(&mut self, answers: &mut Vec<&Value>) {
        let asked = |answered: &&Value| {
            let tool = answered["tool"].as_str().unwrap_or_default();
            self.last_calls.iter().position(|(called, _)| names_tool(called, tool)).unwrap_or(usize::MAX)
        };
        answers.sort_by_key(asked);
        for answered in answers.drain(..) {
            self.tell_call(answered);
        }
    }

    fn tell_request(&mut self, entry: &Value, api: HostApi, request: &HostRequest) {
        let offered: Vec<String> = request.tools.iter().map(|tool| tool.name.clone()).collect();
        let (shown, waiting): (Vec<Revealed>, Vec<Revealed>) = std::mem::take(&mut self.revealed)
            .into_iter()
            .partition(|revealed| offered.iter().any(|name| names_tool(name, &revealed.name)));
        self.revealed = waiting;
        for (section_key, group) in by_section(shown) {
            let tool_names =
                group.iter().filter_map(|tool| offered.iter().find(|name| names_tool(name, tool)).cloned()).collect();
            self.push(EventKind::ToolsInjected { section_key, tool_names, delivery: Default::default() });
        }
        self.call_index += 1;
        let shape = prompt_shape(api, &entry["request"]);
        let prefix = shape.against(self.previous_shape.as_ref());
        let answer = &entry["answer"];
        let words = answer["text"].as_str().map(str::to_owned);
        self.push(EventKind::ModelCall {
            call_index: self.call_index,
            tools_offered: offered,
            prompt_tokens: shape.tokens(),
            completion_tokens: answer["completion_tokens"].as_u64().unwrap_or(0),
            prefix: Some(prefix),
            measured_cache: None,
            text: words.clone(),
        });
        self.previous_shape = Some(shape);
        for tool_name in strings(&entry["tool_not_shown"]) {
            self.push(EventKind::ToolNotShown { call_index: self.call_index, tool_name });
        }
        let calls = answer["tool_calls"].as_array().map_or(&[][..], Vec::as_slice);
        self.last_calls = calls.iter().map(|call| (text(&call["name"]), text(&call["id"]))).collect();
        if calls.is_empty() {
            self.final_text = words;
        }
    }

    fn tell_call(&mut self, answered: &Value) {
        let name = text(&answered["tool"]);
        let arguments = answered["arguments"].clone();
        let at = self.last_calls.iter().position(|(called, _)| names_tool(called, &name));
        let call_id = at.map_or_else(|| format!("mcp-{}", self.events.len()), |at| self.last_calls.remove(at).1);
        let success = answered["success"] != Value::Bool(false);
        self.push(EventKind::ToolCall {
            call_index: self.call_index,
            call_id,
            name: name.clone(),
            args: arguments.clone(),
            success,
            // The server sends a result as text: JSON when the scenario's result was a value.
            result: answered["result"].as_str().map_or(Value::Null, |text| {
                serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.to_owned()))
            }),
        });
        let added = strings(&answered["added"]);
        if !success {
            return;
        }
        let section_keys = match name.as_str() {
            "read_section" => arguments["section_key"].as_str().map(|key| vec![key.to_owned()]).unwrap_or_default(),
            "open_sections" => strings(&arguments["section_keys"]),
            _ => Vec::new(),
        };
        let section_key = section_keys.first().cloned();
        if !section_keys.is_empty() {
            self.push(EventKind::VisibilityChanged { section_keys });
        }
        let (later, never): (Vec<String>, Vec<String>) =
            added.into_iter().partition(|tool| self.ever_offered.iter().any(|name| names_tool(name, tool)));
        if !never.is_empty() {
            self.push(EventKind::ToolsPending {
                section_key: section_key.clone(),
                added: never,
                removed: Vec::new(),
                modified: Vec::new(),
                shows: PendingShows::Never,
            });
        }
        self.revealed.extend(later.into_iter().map(|name| Revealed { name, section_key: section_key.clone() }));
    }
}

/// The request of a model log entry, read in its API's format.
fn read_request(entry: &Value) -> Option<(HostApi, HostRequest)> {
    // The log writes the API by its name, as files do.
    let api = HostApi::deserialize(&entry["api"]).ok()?;
    let request = HostRequest::read(api, &entry["request"], false).ok()?;
    Some((api, request))
}

/// Revealed tools grouped by the section that revealed them, in the order they came.
fn by_section(tools: Vec<Revealed>) -> Vec<(Option<String>, Vec<String>)> {
    let mut groups: Vec<(Option<String>, Vec<String>)> = Vec::new();
    for tool in tools {
        match groups.iter_mut().find(|(section, _)| *section == tool.section_key) {
            Some((_, names)) => names.push(tool.name),
            None => groups.push((tool.section_key, vec![tool.name])),
        }
    }
    groups
}

fn strings(value: &Value) -> Vec<String> {
    value.as_array().map_or_else(Vec::new, |items| items.iter().filter_map(Value::as_str).map(str::to_owned).collect())
}

fn text(value: &Value) -> String {
    value.as_str().unwrap_or_default().to_owned()
}

/// A request's parts in the order a provider caches them, from the bytes the host sent: its
/// tools, its system prompt, then each message (item, content) in order.
pub fn prompt_shape(api: HostApi, body: &Value) -> PromptShape {
    // Anthropic's cache breakpoints mark where a cached prefix ends; they are not part of it. A
    // host moves its marker to the newest message at every request (Claude Code does), which
    // leaves the prefix cached before it.
    let unmarked;
    let body = match api {
        HostApi::Anthropic => {
            unmarked = without_cache_marks(body);
            &unmarked
        }
        _ => body,
    };
    let piece = |value: Option<&Value>| -> Piece {
        let text = match value {
            None | Some(Value::Null) => String::new(),
            Some(Value::String(text)) => text.clone(),
            Some(other) => other.to_string(),
        };
        Piece::of(&text, tokens::count_text(&text))
    };
    let list = |key: &str| body.get(key).and_then(Value::as_array).cloned().unwrap_or_default();
    let (system, messages): (Option<Value>, Vec<Value>) = match api {
        HostApi::Anthropic => (body.get("system").cloned(), list("messages")),
        HostApi::OpenaiResponses => {
            let input = match body.get("input") {
                Some(Value::Array(items)) => items.clone(),
                Some(other) => vec![other.clone()],
                None => Vec::new(),
            };
            (body.get("instructions").cloned(), input)
        }
        HostApi::Gemini => {
            (body.get("systemInstruction").or_else(|| body.get("system_instruction")).cloned(), list("contents"))
        }
        HostApi::OpenaiChat => {
            let (system, messages): (Vec<Value>, Vec<Value>) =
                list("messages").into_iter().partition(|m| matches!(m["role"].as_str(), Some("system" | "developer")));
            (Some(Value::Array(system)).filter(|system| system.as_array().is_some_and(|s| !s.is_empty())), messages)
        }
    };
    PromptShape {
        attempt: 1,
        tools: piece(body.get("tools")),
        system: piece(system.as_ref()),
        messages: messages.iter().map(|message| piece(Some(message))).collect(),
    }
}

/// `value` without its `cache_control` fields, at any depth.
fn without_cache_marks(value: &Value) -> Value {
    match value {
        Value::Object(fields) => Value::Object(
            fields
                .iter()
                .filter(|(key, _)| *key != "cache_control")
                .map(|(key, field)| (key.clone(), without_cache_marks(field)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(without_cache_marks).collect()),
        other => other.clone(),
    }
}
