//! Token counts with a real tokenizer (o200k_base, as OpenAI's current models use): of texts,
//! messages and tool definitions. A model call's prompt tokens are the sum over its system prompt,
//! its messages and its tools serialized as OpenAI JSON; no per-message framing is added, so counts
//! are comparable across providers and adapters.

use crate::provider::{Message, ModelResponse, ToolCall};
use crate::tool::OfferedTool;

/// Tokens of a text.
pub fn count_text(text: &str) -> u64 {
    if text.is_empty() {
        return 0;
    }
    tiktoken_rs::o200k_base_singleton().encode_ordinary(text).len() as u64
}

/// Tokens of a tool list, as the JSON array of OpenAI chat tool objects.
pub fn count_tools(tools: &[OfferedTool]) -> u64 {
    if tools.is_empty() {
        return 0;
    }
    count_text(&serde_json::to_string(tools).unwrap_or_default())
}

fn count_calls(calls: &[ToolCall]) -> u64 {
    calls.iter().map(|c| count_text(&c.name) + count_text(&c.arguments.to_string())).sum()
}

/// Tokens of one message.
pub fn count_message(message: &Message) -> u64 {
    match message {
        Message::User { content } | Message::Tool { content, .. } => count_text(content),
        Message::Assistant { content, tool_calls } => {
            content.as_deref().map_or(0, count_text) + count_calls(tool_calls)
        }
    }
}

/// Tokens of a model's answer: its text and its tool calls.
pub fn count_response(response: &ModelResponse) -> u64 {
    response.text.as_deref().map_or(0, count_text) + count_calls(&response.tool_calls)
}
