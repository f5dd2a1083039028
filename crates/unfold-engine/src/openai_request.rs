//! The OpenAI Chat Completions request body of a model call: what a run sent the model, in the
//! format a QA engineer can read, diff, or send to a real endpoint. It holds only the request
//! (system prompt, messages, tools); no `model`, no settings and nothing from the environment, so
//! an exported body never carries a secret.

use serde_json::{json, Map, Value};

use crate::provider::{Message, ModelRequest, ModelResponse, ToolCall, ToolGate};

/// The body of `POST /v1/chat/completions` for `request`, without `model`:
/// `{"messages": [system, user, assistant with tool_calls, tool, …], "tools": [...]}`. `tools` is
/// left out when none is offered, as the API refuses an empty list. A tool call's `arguments`
/// are the JSON text of the arguments, as the API has them. A callable subset is the
/// `tool_choice` of type `allowed_tools`.
///
/// The chat API has no deferred tools: for a deferred run's calls, kept to be read, a deferred
/// tool carries Anthropic's `"defer_loading": true` and a tool message the names it loads in
/// `"tool_references"`, Unfold's notation for what Anthropic's `tool_reference` blocks say. A
/// `tool_addition` run's system message in the conversation is likewise
/// `{"role": "system", "tool_additions": [...], "tool_removals": [...]}`.
pub fn chat_completions_body(request: &ModelRequest<'_>) -> Value {
    let mut messages = Vec::with_capacity(request.messages.len() + 1);
    messages.push(json!({ "role": "system", "content": request.system }));
    messages.extend(request.messages.iter().map(message));
    let mut body = Map::new();
    body.insert("messages".to_owned(), Value::Array(messages));
    if !request.tools.is_empty() {
        let tools = request.tools.iter().map(|tool| {
            let mut object = tool.to_openai();
            if request.gate.defers(&tool.name) {
                object["defer_loading"] = Value::Bool(true);
            }
            object
        });
        body.insert("tools".to_owned(), tools.collect());
    }
    if let ToolGate::Allowed(names) = request.gate {
        body.insert("tool_choice".to_owned(), allowed_tools(names));
    }
    Value::Object(body)
}

/// `{"type": "allowed_tools", "allowed_tools": {"mode": "auto", "tools": [...]}}`: the model may
/// call only `names` of the tools sent, or answer.
fn allowed_tools(names: &[String]) -> Value {
    let tools: Vec<Value> =
        names.iter().map(|name| json!({ "type": "function", "function": { "name": name } })).collect();
    json!({ "type": "allowed_tools", "allowed_tools": { "mode": "auto", "tools": tools } })
}

/// A model's answer as the assistant message of an OpenAI chat completion:
/// `{"role": "assistant", "content": text or null, "tool_calls": [...]}` (no `tool_calls` when it
/// made none).
pub fn chat_completions_message(response: &ModelResponse) -> Value {
    message(&Message::Assistant { content: response.text.clone(), tool_calls: response.tool_calls.clone() })
}

fn message(message: &Message) -> Value {
    match message {
        Message::User { content } => json!({ "role": "user", "content": content }),
        Message::Assistant { content, tool_calls } => {
            let mut fields = Map::new();
            fields.insert("role".to_owned(), Value::from("assistant"));
            fields.insert("content".to_owned(), content.clone().map_or(Value::Null, Value::String));
            if !tool_calls.is_empty() {
                fields.insert("tool_calls".to_owned(), tool_calls.iter().map(tool_call).collect());
            }
            Value::Object(fields)
        }
        Message::Tool { call_id, content, references, .. } => {
            let mut fields = json!({ "role": "tool", "tool_call_id": call_id, "content": content });
            if !references.is_empty() {
                fields["tool_references"] = json!(references);
            }
            fields
        }
        Message::System { added, removed } => {
            let mut fields = json!({ "role": "system" });
            if !added.is_empty() {
                fields["tool_additions"] = json!(added);
            }
            if !removed.is_empty() {
                fields["tool_removals"] = json!(removed);
            }
            fields
        }
    }
}

/// Arguments a model sent that were not JSON are kept as their text (a JSON string, see
/// `live`): they go back as that text, so the model sees what it wrote.
fn tool_call(call: &ToolCall) -> Value {
    let arguments = match &call.arguments {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    };
    json!({
        "id": call.id,
        "type": "function",
        "function": { "name": call.name, "arguments": arguments }
    })
}
