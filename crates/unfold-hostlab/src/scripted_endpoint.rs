//! What the scripted model endpoint (spec 13, `unfold model serve`) answers a host's request: the
//! scenario's script, turn by turn, as the scripted model of a run plays it (`ScriptedProvider`,
//! which knows the steps done by the call ids the host echoes back), with what a real host needs
//! besides:
//!
//! - a scripted tool is called by the name the host shows it under: its own, `mcp__{server}__{tool}`
//!   (the scripted model's own rule), or a name ending in `__tool`, `.tool` or `/tool` (a host's
//!   namespace);
//! - a scripted call to a tool the host did not offer in that request is not made (a model cannot
//!   call a tool it was not shown): it is recorded as not shown, and the script goes on with its
//!   next step, for good;
//! - a request that offers no tools at all is a side request (a title, a summary, a check): it gets
//!   a short plausible answer and leaves the script where it was.
//!
//! Usage is Unfold's count of the request's text and of the answer, so a host that reads usage
//! sees plausible numbers.

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
            let answer = ModelResponse { text: Some(SIDE_ANSWER.to_owned()), ..ModelResponse::default() };
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

fn with_usage(answer: ModelResponse, prompt_tokens: u64) -> ModelResponse {
    let usage = Usage { prompt_tokens, completion_tokens: tokens::count_response(&answer), cache: None };
    ModelResponse { usage: Some(usage), ..answer }
}

/// The name `request` offers the script's tool `name` under, when it offers it: the same name
/// first, else one in a namespace.
fn shown_name(name: &str, request: &HostRequest) -> Option<String> {
    let offered = request.tools.iter().map(|tool| tool.name.as_str());
    if offered.clone().any(|offered| offered == name) {
        return Some(name.to_owned());
    }
    offered.clone().find(|offered| names_tool(offered, name)).map(str::to_owned)
}

/// Whether a host's tool name `offered` is the template's tool `name`: the same name, or it in a
/// host's namespace (`…__name`, `….name`, `…/name`).
pub fn names_tool(offered: &str, name: &str) -> bool {
    offered == name
        || offered
            .strip_suffix(name)
            .is_some_and(|head| ["__", ".", "/"].iter().any(|separator| head.ends_with(separator)))
}
