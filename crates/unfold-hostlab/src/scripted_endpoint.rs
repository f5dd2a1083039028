//! What the scripted model endpoint (spec 13, `unfold model serve`) answers a host's request: the
//! scenario's script, turn by turn, as the scripted model of a run plays it (`ScriptedProvider`,
//! which knows the steps done by the call ids the host echoes back), with what a real host needs
//! besides:
//!
//! - a scripted tool is called by the name the host shows it under: a name in a host's namespace
//!   (`mcp__{server}__{tool}`, the scripted model's own rule; `mcp_{server}_{tool}`, Gemini CLI's;
//!   one ending in `__tool`, `.tool` or `/tool`), else its own: a host that shows both has a
//!   tool of its own by that name (Gemini CLI's `read_file`);
//! - a scripted call to a tool the host did not offer in that request is not made (a model cannot
//!   call a tool it was not shown): it is recorded as not shown, and the script goes on with its
//!   next step, for good;
//! - a request that offers no tools at all is a side request (a title, a summary, a check): it gets
//!   a short plausible answer (JSON that fits the schema the request gives, when it asks for JSON:
//!   Gemini CLI's model router waits a minute and a half for one) and leaves the script where it
//!   was.
//!
//! Usage is Unfold's count of the request's text and of the answer, so a host that reads usage
//! sees plausible numbers.

use serde_json::{json, Value};
use unfold_documents::{Scenario, Template};
use unfold_engine::{tokens, Message, ModelRequest, ModelResponse, Provider, ScriptedProvider, ToolCall, Usage};

use crate::host_requests::HostRequest;

/// What a side request is answered.
const SIDE_ANSWER: &str = "OK.";

/// How the endpoint answered one request.
#[derive(Debug, Clone, PartialEq)]
pub enum Answered {
    /// A step of the script: its answer, and the scripted calls skipped first because the host
    /// did not offer their tools (by the script's names).
    Main {
        /// The answer.
        answer: ModelResponse,
        /// Tools the script called that the request did not offer.
        not_shown: Vec<String>,
    },
    /// A request outside the conversation (it offers no tools).
    Side {
        /// The answer.
        answer: ModelResponse,
    },
}

/// The script's state across one host's requests.
#[derive(Debug)]
pub struct ScriptedEndpoint {
    model: ScriptedProvider,
    /// The scripted calls skipped for good, shown to the scripted model as made.
    skipped: Vec<ToolCall>,
}

impl ScriptedEndpoint {
    /// The endpoint of `scenario`. The scripted model is shown no template: a host's request says
    /// nothing of which sections are summarized, so a step is done only when the host echoes its
    /// call back.
    pub fn new(scenario: &Scenario) -> ScriptedEndpoint {
        ScriptedEndpoint { model: ScriptedProvider::new(scenario, &Template::blank()), skipped: Vec::new() }
    }

    /// The answer to `request`, body text `body` (for its usage).
    pub async fn answer(&mut self, request: &HostRequest, body: &str) -> Answered {
        let prompt_tokens = tokens::count_text(body);
        if request.tools.is_empty() {
            let text = match &request.answer_schema {
                Some(schema) => fitting(schema).to_string(),
                None => SIDE_ANSWER.to_owned(),
            };
            let answer = ModelResponse { text: Some(text), ..ModelResponse::default() };
            return Answered::Side { answer: with_usage(answer, prompt_tokens) };
        }
        let mut not_shown = Vec::new();
        loop {
            let mut messages = request.messages.clone();
            if !self.skipped.is_empty() {
                messages.push(Message::Assistant { content: None, tool_calls: self.skipped.clone() });
            }
            let shown = ModelRequest { messages: &messages, ..request.model_request() };
            // The scripted model never fails.
            let mut answer = self.model.complete(&shown).await.unwrap_or_default();
            let (mut made, mut unshown) = (Vec::new(), Vec::new());
            for call in std::mem::take(&mut answer.tool_calls) {
                match shown_name(&call.name, request) {
                    Some(name) => made.push(ToolCall { name, ..call }),
                    None => unshown.push(call),
                }
            }
            // Calls of one step not shown beside ones that are: those shown are made, the others
            // skipped with them. A step with none shown gives way to the next one.
            let none_shown = made.is_empty() && !unshown.is_empty();
            not_shown.extend(unshown.iter().map(|call| call.name.clone()));
            self.skipped.extend(unshown);
            if none_shown {
                continue;
            }
            answer.tool_calls = made;
            return Answered::Main { answer: with_usage(answer, prompt_tokens), not_shown };
        }
    }
}

/// A recorded answer (a fork's, spec 15) as the endpoint gives it to `request`, body text `body`:
/// each call by the name the host shows its tool under (else its own: the host is told of a
/// call it cannot make, as the recording had it made), with the endpoint's usage.
pub fn recorded_answer(answer: ModelResponse, request: &HostRequest, body: &str) -> ModelResponse {
    let calls = answer.tool_calls.into_iter().map(|call| match shown_name(&call.name, request) {
        Some(name) => ToolCall { name, ..call },
        None => call,
    });
    let answer = ModelResponse { tool_calls: calls.collect(), ..answer };
    with_usage(answer, tokens::count_text(body))
}

fn with_usage(answer: ModelResponse, prompt_tokens: u64) -> ModelResponse {
    let usage = Usage { prompt_tokens, completion_tokens: tokens::count_response(&answer), cache: None };
    ModelResponse { usage: Some(usage), ..answer }
}

/// The name `request` offers the script's tool `name` under, when it offers it: one in a
/// namespace first (beside it, the same name is the host's own tool), else the same name.
fn shown_name(name: &str, request: &HostRequest) -> Option<String> {
    let mut offered = request.tools.iter().map(|tool| tool.name.as_str());
    let namespaced = offered.clone().find(|offered| *offered != name && names_tool(offered, name));
    namespaced.or_else(|| offered.find(|offered| *offered == name)).map(str::to_owned)
}

/// Whether a host's tool name `offered` is the template's tool `name`: the same name, or it in a
/// host's namespace (`…__name`, `….name`, `…/name`, or Gemini CLI's `mcp_server_name`).
pub fn names_tool(offered: &str, name: &str) -> bool {
    let in_namespace = |head: &str| ["__", ".", "/"].iter().any(|separator| head.ends_with(separator));
    let gemini = |head: &str| head.strip_prefix("mcp_").is_some_and(|server| server.len() > 1 && server.ends_with('_'));
    offered == name || offered.strip_suffix(name).is_some_and(|head| in_namespace(head) || gemini(head))
}

/// A value that fits `schema` (a JSON schema; Gemini's types in capitals too): each property of
/// an object, the first of an enum, a short text, the least number allowed, an empty list.
fn fitting(schema: &Value) -> Value {
    if let Some(first) = schema.get("enum").and_then(Value::as_array).and_then(|values| values.first()) {
        return first.clone();
    }
    let kind = schema.get("type").and_then(Value::as_str).unwrap_or("object").to_ascii_lowercase();
    match kind.as_str() {
        "object" => {
            let properties = schema.get("properties").and_then(Value::as_object);
            let fields = properties.into_iter().flatten().map(|(name, property)| (name.clone(), fitting(property)));
            Value::Object(fields.collect())
        }
        "array" => json!([]),
        "integer" | "number" => schema.get("minimum").cloned().unwrap_or(json!(1)),
        "boolean" => json!(false),
        "null" => Value::Null,
        _ => json!(SIDE_ANSWER),
    }
}
