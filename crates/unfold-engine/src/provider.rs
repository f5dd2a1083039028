//! The model side of a run: the request a model is sent (system prompt, messages, tools), its
//! response (text and/or tool calls, usage), and the async `Provider` trait every model implements,
//! scripted or over HTTP.

use async_trait::async_trait;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::render::SummarizedSection;
use unfold_documents::tool::OfferedTool;

/// One message of a conversation after the system prompt.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "role", rename_all = "snake_case")]
pub enum Message {
    /// The user's message.
    User {
        /// Its text.
        content: String,
    },
    /// A model's answer that asked for tool calls (and may carry text).
    Assistant {
        /// Its text, if any.
        content: Option<String>,
        /// The calls, in order.
        tool_calls: Vec<ToolCall>,
    },
    /// The result of one tool call.
    Tool {
        /// The call answered.
        call_id: String,
        /// The tool's name.
        name: String,
        /// What the model reads.
        content: String,
        /// Deferred tools this result loads (`tool_reference` blocks, the deferred adapter).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        references: Vec<String>,
    },
    /// A system message in the conversation that changes which of the deferred tools the model
    /// sees from here on (Anthropic's `tool_addition` and `tool_removal` blocks, the
    /// `tool_addition` adapter). It follows a turn's tool results or a user message.
    System {
        /// The deferred tools it adds.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        added: Vec<String>,
        /// The tools it takes away.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        removed: Vec<String>,
    },
}

/// A tool call a model asked for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    /// The id the model gave it.
    pub id: String,
    /// The tool's name.
    pub name: String,
    /// The arguments.
    pub arguments: Value,
}

/// Everything one model call is sent; borrowed from the run, which owns the conversation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ModelRequest<'a> {
    /// The rendered system prompt.
    pub system: &'a str,
    /// The conversation.
    pub messages: &'a [Message],
    /// The tools offered, in order.
    pub tools: &'a [OfferedTool],
    /// The sections the system prompt shows summarized: the same facts as its summary lines, in a
    /// form a scripted model can read without parsing prose. HTTP providers ignore it.
    pub summarized: &'a [SummarizedSection],
    /// Which of `tools` the model may call now, when not all (spec 10).
    pub gate: ToolGate<'a>,
}

/// How an adapter sends the tools of sections the prompt shows summarized (spec 10).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HiddenTools {
    /// Not sent until their section is read (dynamic, restart): the tool list changes.
    Withheld,
    /// Sent from the first call, outside the callable subset (`allowed_tools`).
    Disallowed,
    /// Sent from the first call with `defer_loading`, loaded by reference (`deferred`).
    Deferred,
    /// Sent from the first call with `defer_loading`, added and removed by system messages
    /// (`tool_addition`).
    Announced,
}

/// Which of a request's tools the model may call.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ToolGate<'a> {
    /// Every tool sent.
    #[default]
    Open,
    /// Only these (OpenAI's `tool_choice` of type `allowed_tools`).
    Allowed(&'a [String]),
    /// Every tool but these, which are sent with `defer_loading` (Anthropic's tool search) and
    /// callable once a tool result's `tool_reference` loaded them.
    Deferred(&'a [String]),
    /// Every tool but these, which are sent with `defer_loading` and callable once a system
    /// message's `tool_addition` named them (Anthropic's mid-conversation tool changes).
    Announced(&'a [String]),
}

impl ToolGate<'_> {
    /// Whether the tool `name` is sent deferred.
    pub fn defers(&self, name: &str) -> bool {
        matches!(self, ToolGate::Deferred(names) | ToolGate::Announced(names) if names.iter().any(|n| n == name))
    }
}

/// A model's answer.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ModelResponse {
    /// Text, if any.
    pub text: Option<String>,
    /// Tool calls, if any; none means the answer is final.
    pub tool_calls: Vec<ToolCall>,
    /// Token usage as the provider reports it, when it does.
    pub usage: Option<Usage>,
    /// The answer was cut at the output-token limit (OpenAI's `finish_reason: "length"`,
    /// Anthropic's `stop_reason: "max_tokens"`, an incomplete Responses answer): its text is not
    /// all the model meant to say, and its tool calls may be broken.
    pub cut_at_limit: bool,
}

/// Token usage a provider reports for one call.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Usage {
    /// Tokens read, as the provider counts them (Anthropic's `input_tokens` leave out the tokens
    /// read from and written to its cache; OpenAI's `prompt_tokens` hold those read).
    pub prompt_tokens: u64,
    /// Tokens written.
    pub completion_tokens: u64,
    /// What the provider's prompt cache did for the call, when it says.
    pub cache: Option<MeasuredCache>,
}

/// What a provider's prompt cache did for one call, as the provider measured it (spec 10): kept
/// apart from the estimate Unfold makes of every call.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct MeasuredCache {
    /// Prompt tokens read from the cache (OpenAI's `prompt_tokens_details.cached_tokens`,
    /// Anthropic's `cache_read_input_tokens`).
    #[cfg_attr(feature = "specta", specta(type = u32))]
    pub read_tokens: u64,
    /// Prompt tokens written to it (Anthropic's `cache_creation_input_tokens`; OpenAI does not
    /// charge for writing, nor say).
    #[cfg_attr(feature = "specta", specta(type = u32))]
    pub write_tokens: u64,
    /// Whether the call's prompt tokens count these too (OpenAI's do; Anthropic's do not).
    pub in_prompt_tokens: bool,
}

impl MeasuredCache {
    /// Every prompt token of a call whose provider counted `prompt_tokens`.
    pub fn whole_prompt(&self, prompt_tokens: u64) -> u64 {
        if self.in_prompt_tokens {
            prompt_tokens
        } else {
            prompt_tokens + self.read_tokens + self.write_tokens
        }
    }
}

/// A model: scripted, or a real API.
#[async_trait]
pub trait Provider: Send {
    /// Answers one request.
    async fn complete(&mut self, request: &ModelRequest<'_>) -> unfold_documents::Result<ModelResponse>;

    /// Why this provider cannot take new tools in the middle of a conversation, if it cannot
    /// (weakincentives' `supports_dynamic_tools = false`): a run asked for the dynamic adapter
    /// then runs the restart adapter and says why.
    fn fixed_tools(&self) -> Option<String> {
        None
    }

    /// Why this provider's API cannot send hidden tools the way `hidden` does, if it cannot: the
    /// run then fails before its first call rather than send what the API does not mean.
    fn refuses(&self, hidden: HiddenTools) -> Option<String> {
        let _ = hidden;
        None
    }
}
