//! A model call's request in each API's shape (spec 11), worked from its OpenAI Chat Completions
//! body (`openai_request`), which holds all of it: the system prompt, the messages with their tool
//! calls and results, the tools (deferred ones marked) and the callable subset. The live Anthropic
//! provider sends this shape too, so what an export shows is what a live run sends. Like the Chat
//! body, no shape holds settings or anything from the environment; a body to send
//! ([`RequestShape::ready_to_send`]) adds the model the API requires.

use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

/// The shape of a request body.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum RequestShape {
    /// OpenAI Chat Completions (`POST /v1/chat/completions`).
    #[default]
    #[serde(rename = "openai-chat")]
    OpenAiChat,
    /// OpenAI Responses (`POST /v1/responses`).
    #[serde(rename = "openai-responses")]
    OpenAiResponses,
    /// Anthropic Messages (`POST /v1/messages`).
    #[serde(rename = "anthropic")]
    AnthropicMessages,
}

/// What an API requires of a body beside the conversation: the model, and for Anthropic the most
/// tokens an answer may have.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestModel {
    /// The model's name as the API takes it.
    pub model: String,
    /// `max_tokens`; Anthropic requires one: [`ANTHROPIC_MAX_TOKENS`] when none is set.
    pub max_tokens: Option<u32>,
}

/// Anthropic's `max_tokens` when a profile sets none.
pub const ANTHROPIC_MAX_TOKENS: u32 = 1024;

impl RequestShape {
    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            RequestShape::OpenAiChat => "openai-chat",
            RequestShape::OpenAiResponses => "openai-responses",
            RequestShape::AnthropicMessages => "anthropic",
        }
    }

    /// `chat` in this shape with what the API requires to take it: `model`, and for Anthropic
    /// `max_tokens` (for OpenAI only when set).
    pub fn ready_to_send(self, chat: &Value, model: &RequestModel) -> Value {
        let mut body = self.body(chat);
        if let Value::Object(fields) = &mut body {
            fields.insert("model".to_owned(), Value::from(model.model.as_str()));
            let max_tokens = match self {
                RequestShape::AnthropicMessages => Some(model.max_tokens.unwrap_or(ANTHROPIC_MAX_TOKENS)),
                RequestShape::OpenAiChat | RequestShape::OpenAiResponses => model.max_tokens,
            };
            let key = match self {
                RequestShape::OpenAiResponses => "max_output_tokens",
                RequestShape::OpenAiChat => "max_completion_tokens",
                RequestShape::AnthropicMessages => "max_tokens",
            };
            if let Some(max_tokens) = max_tokens {
                fields.insert(key.to_owned(), Value::from(max_tokens));
            }
        }
        body
    }

    /// `chat`, an OpenAI Chat Completions body, in this shape.
    pub fn body(self, chat: &Value) -> Value {
        match self {
            RequestShape::OpenAiChat => chat.clone(),
            RequestShape::OpenAiResponses => openai_responses(chat),
            RequestShape::AnthropicMessages => anthropic_messages(chat),
        }
    }
}

impl std::str::FromStr for RequestShape {
    type Err = String;
    fn from_str(text: &str) -> Result<RequestShape, String> {
        [RequestShape::OpenAiChat, RequestShape::OpenAiResponses, RequestShape::AnthropicMessages]
            .into_iter()
            .find(|shape| shape.name() == text)
            .ok_or_else(|| format!("unknown API '{text}' (openai-chat, openai-responses or anthropic)"))
    }
}

fn messages(chat: &Value) -> &[Value] {
    chat.get("messages").and_then(Value::as_array).map_or(&[], Vec::as_slice)
}

fn text<'a>(value: &'a Value, key: &str) -> &'a str {
    value.get(key).and_then(Value::as_str).unwrap_or_default()
}

/// The tools of `chat`, each as `shape` makes it from its name, description and parameters,
/// `defer_loading` kept (Anthropic and OpenAI's Responses both name it so).
fn tools(chat: &Value, shape: impl Fn(&str, &Value, &Value) -> Value) -> Option<Value> {
    let tools = chat.get("tools")?.as_array()?;
    let shaped = tools.iter().map(|tool| {
        let function = &tool["function"];
        let mut shaped = shape(text(function, "name"), &function["description"], &function["parameters"]);
        if tool.get("defer_loading") == Some(&Value::Bool(true)) {
            shaped["defer_loading"] = Value::Bool(true);
        }
        shaped
    });
    Some(shaped.collect())
}

/// The names of the callable subset, when `chat` has one (`tool_choice` of type `allowed_tools`).
fn allowed(chat: &Value) -> Option<Vec<&str>> {
    let choice = chat.get("tool_choice")?;
    let tools = choice.pointer("/allowed_tools/tools")?.as_array()?;
    Some(tools.iter().map(|tool| text(&tool["function"], "name")).collect())
}

/// The Anthropic Messages body: the system prompt apart, tool calls as `tool_use` blocks, the
/// results of one turn as `tool_result` blocks of one user message (roles must alternate), a
/// result that loads deferred tools with a `tool_reference` block each, a system message in the
/// conversation that adds or removes tools with `tool_addition` and `tool_removal` blocks.
/// Anthropic has no callable subset: an `allowed_tools` choice is left out.
pub fn anthropic_messages(chat: &Value) -> Value {
    let mut body = Map::new();
    let mut out: Vec<Value> = Vec::new();
    for message in messages(chat) {
        match text(message, "role") {
            "system" if message.get("content").is_none() => out.push(tool_changes(message)),
            "system" => {
                body.insert("system".to_owned(), message["content"].clone());
            }
            "assistant" => {
                let said = message.get("content").and_then(Value::as_str).filter(|t| !t.is_empty());
                let said = said.map(|t| json!({ "type": "text", "text": t }));
                let calls = message.get("tool_calls").and_then(Value::as_array).into_iter().flatten().map(tool_use);
                out.push(json!({ "role": "assistant", "content": said.into_iter().chain(calls).collect::<Vec<_>>() }));
            }
            "tool" => {
                let block = json!({ "type": "tool_result", "tool_use_id": message["tool_call_id"], "content": result_content(message) });
                match out.last_mut().and_then(results_message) {
                    Some(blocks) => blocks.push(block),
                    None => out.push(json!({ "role": "user", "content": [block] })),
                }
            }
            _ => out.push(json!({ "role": "user", "content": message["content"] })),
        }
    }
    body.insert("messages".to_owned(), Value::Array(out));
    let shaped = tools(
        chat,
        |name, description, parameters| json!({ "name": name, "description": description, "input_schema": parameters }),
    );
    if let Some(tools) = shaped {
        body.insert("tools".to_owned(), tools);
    }
    Value::Object(body)
}

/// A system message of the conversation that adds and removes tools, by name: the names must be
/// of tools the request declares (`name`, where a `tool_reference` in a tool result has
/// `tool_name`).
fn tool_changes(message: &Value) -> Value {
    let blocks = |key: &str, kind: &'static str| {
        let names = message.get(key).and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
        names.iter().map(move |name| json!({ "type": kind, "tool": { "type": "tool_reference", "name": name } }))
    };
    let content: Vec<Value> =
        blocks("tool_removals", "tool_removal").chain(blocks("tool_additions", "tool_addition")).collect();
    json!({ "role": "system", "content": content })
}

/// A tool result's content: its text, and a `tool_reference` block for each deferred tool it loads.
fn result_content(message: &Value) -> Value {
    let references = message.get("tool_references").and_then(Value::as_array).filter(|r| !r.is_empty());
    let Some(references) = references else { return message["content"].clone() };
    let said = json!({ "type": "text", "text": message["content"] });
    let loaded = references.iter().map(|name| json!({ "type": "tool_reference", "tool_name": name }));
    Value::Array(std::iter::once(said).chain(loaded).collect())
}

/// The blocks of `message` when it is a user message of tool results.
fn results_message(message: &mut Value) -> Option<&mut Vec<Value>> {
    if message.get("role")? != "user" {
        return None;
    }
    let blocks = message.get_mut("content")?.as_array_mut()?;
    blocks.iter().all(|b| b.get("type").is_some_and(|t| t == "tool_result")).then_some(blocks)
}

/// A Chat tool call as a `tool_use` block. Its `input` must be an object: arguments the model sent
/// malformed (kept as text) go back as `{}`; the failed tool result quotes them.
fn tool_use(call: &Value) -> Value {
    let input = arguments_object(&call["function"]);
    json!({ "type": "tool_use", "id": call["id"], "name": call["function"]["name"], "input": input })
}

/// The OpenAI Responses body: the system prompt as `instructions`, the conversation as `input`
/// items (messages, `function_call`, `function_call_output`), tools flat, the callable subset as a
/// `tool_choice` of type `allowed_tools`. Deferred tools are OpenAI's tool search run by the
/// client: the functions keep `defer_loading`, a `tool_search` tool of `execution: "client"` is
/// declared, and a result that loads tools is followed by the search that loads them, a
/// `tool_search_call` and its `tool_search_output` with their definitions.
///
/// The model may call that search itself: a call of a tool named [`TOOL_SEARCH`] (as a live
/// provider reads one) goes back as the `tool_search_call` it was, its result as a
/// `tool_search_output` that loads nothing (a section's tools load when it is read).
pub fn openai_responses(chat: &Value) -> Value {
    let mut body = Map::new();
    let mut input: Vec<Value> = Vec::new();
    let searches = declares_deferred(chat);
    let mut search_ids: Vec<&Value> = Vec::new();
    for message in messages(chat) {
        match text(message, "role") {
            // OpenAI has no mid-conversation tool changes: Unfold's notation stays, to be read.
            "system" if message.get("content").is_none() => input.push(message.clone()),
            "system" => {
                body.insert("instructions".to_owned(), message["content"].clone());
            }
            "assistant" => {
                if let Some(said) = message.get("content").and_then(Value::as_str).filter(|t| !t.is_empty()) {
                    input.push(json!({ "role": "assistant", "content": said }));
                }
                for call in message.get("tool_calls").and_then(Value::as_array).into_iter().flatten() {
                    let function = &call["function"];
                    if searches && function["name"] == TOOL_SEARCH {
                        search_ids.push(&call["id"]);
                        input.push(json!({ "type": "tool_search_call", "call_id": call["id"], "execution": "client",
                                           "arguments": arguments_object(function), "status": "completed" }));
                        continue;
                    }
                    input.push(json!({ "type": "function_call", "call_id": call["id"], "name": function["name"], "arguments": function["arguments"] }));
                }
            }
            "tool" if search_ids.contains(&&message["tool_call_id"]) => {
                input.push(
                    json!({ "type": "tool_search_output", "call_id": message["tool_call_id"], "execution": "client",
                                   "status": "completed", "tools": [] }),
                );
            }
            "tool" => {
                input.push(json!({ "type": "function_call_output", "call_id": message["tool_call_id"], "output": message["content"] }));
                input.extend(tool_search(chat, message));
            }
            _ => input.push(json!({ "role": "user", "content": message["content"] })),
        }
    }
    body.insert("input".to_owned(), Value::Array(input));
    if let Some(Value::Array(mut tools)) = tools(chat, responses_function) {
        if searches {
            tools.push(json!({
                "type": "tool_search",
                "execution": "client",
                "description": "Loads deferred tools by name.",
                "parameters": {
                    "type": "object",
                    "properties": { "names": { "type": "array", "items": { "type": "string" } } },
                    "required": ["names"]
                }
            }));
        }
        body.insert("tools".to_owned(), Value::Array(tools));
    }
    if let Some(names) = allowed(chat) {
        let tools: Vec<Value> = names.iter().map(|name| json!({ "type": "function", "name": name })).collect();
        body.insert("tool_choice".to_owned(), json!({ "type": "allowed_tools", "mode": "auto", "tools": tools }));
    }
    Value::Object(body)
}

/// The name a model's call of the client-run tool search goes by in Unfold's conversation.
pub const TOOL_SEARCH: &str = "tool_search";

/// Whether `chat` sends deferred tools, which Responses searches with a declared `tool_search`.
fn declares_deferred(chat: &Value) -> bool {
    let tools = chat.get("tools").and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
    tools.iter().any(|tool| tool.get("defer_loading") == Some(&Value::Bool(true)))
}

/// A Chat call's arguments as the object they are (`{}` when they are not one).
fn arguments_object(function: &Value) -> Value {
    let parsed = serde_json::from_str::<Value>(text(function, "arguments")).ok();
    parsed.filter(Value::is_object).unwrap_or_else(|| json!({}))
}

/// A function tool as Responses declares it, flat.
fn responses_function(name: &str, description: &Value, parameters: &Value) -> Value {
    json!({ "type": "function", "name": name, "description": description, "parameters": parameters })
}

/// The client-run tool search that loads the tools a result references: the call, then its
/// output with their definitions (bare: a loaded tool is no longer deferred). None when the
/// result loads no deferred tool.
fn tool_search(chat: &Value, result: &Value) -> Vec<Value> {
    let Some(names) = result.get("tool_references").and_then(Value::as_array).filter(|n| !n.is_empty()) else {
        return Vec::new();
    };
    let declared = chat.get("tools").and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
    let loaded: Vec<Value> = declared
        .iter()
        .filter(|tool| tool.get("defer_loading") == Some(&Value::Bool(true)))
        .map(|tool| &tool["function"])
        .filter(|function| names.contains(&function["name"]))
        .map(|function| responses_function(text(function, "name"), &function["description"], &function["parameters"]))
        .collect();
    if loaded.is_empty() {
        return Vec::new();
    }
    let names: Vec<&Value> = loaded.iter().map(|tool| &tool["name"]).collect();
    let call_id = format!("{}_tool_search", text(result, "tool_call_id"));
    vec![
        json!({ "type": "tool_search_call", "call_id": call_id, "execution": "client",
                "arguments": { "names": names }, "status": "completed" }),
        json!({ "type": "tool_search_output", "call_id": call_id, "execution": "client",
                "status": "completed", "tools": loaded }),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openai_request::chat_completions_body;
    use crate::provider::{Message, ModelRequest, ToolCall, ToolGate};
    use unfold_documents::tool::OfferedTool;

    fn call(id: &str, arguments: Value) -> ToolCall {
        ToolCall { id: id.into(), name: "lookup".into(), arguments }
    }

    fn result(id: &str, references: &[&str]) -> Message {
        let references = references.iter().map(|r| (*r).to_owned()).collect();
        Message::Tool { call_id: id.into(), name: "lookup".into(), content: "ok".into(), references }
    }

    /// A turn of two calls, then one whose arguments were not JSON, its result loading `search`.
    fn chat(gate: ToolGate<'_>) -> Value {
        let conversation = [
            Message::User { content: "Go.".into() },
            Message::Assistant {
                content: Some("Looking.".into()),
                tool_calls: vec![call("a", json!({ "id": 7 })), call("b", json!({ "id": 8 }))],
            },
            result("a", &[]),
            result("b", &[]),
            Message::Assistant { content: None, tool_calls: vec![call("c", json!("{bad"))] },
            result("c", &["search"]),
        ];
        let tool = |name: &str| OfferedTool {
            name: name.into(),
            description: format!("{name} things"),
            parameters: json!({ "type": "object" }),
        };
        let tools = [tool("lookup"), tool("search")];
        chat_completions_body(&ModelRequest {
            system: "Be brief.",
            messages: &conversation,
            tools: &tools,
            summarized: &[],
            gate,
        })
    }

    #[test]
    fn anthropic_puts_one_turns_results_in_one_user_message_and_loads_deferred_tools_by_reference() {
        let deferred = ["search".to_owned()];
        let body = anthropic_messages(&chat(ToolGate::Deferred(&deferred)));
        assert_eq!(body["system"], "Be brief.");
        let sent = body["messages"].as_array().unwrap();
        assert_eq!(sent.len(), 5);
        assert_eq!(sent[1]["content"][0], json!({ "type": "text", "text": "Looking." }));
        assert_eq!(sent[1]["content"][2]["id"], "b");
        let ids: Vec<&Value> = sent[2]["content"].as_array().unwrap().iter().map(|b| &b["tool_use_id"]).collect();
        assert_eq!(ids, ["a", "b"]);
        assert_eq!(sent[3]["content"][0]["input"], json!({}), "arguments that were not JSON go back as {{}}");
        assert_eq!(sent[4]["content"][0]["content"][1], json!({ "type": "tool_reference", "tool_name": "search" }));
        assert_eq!(
            body["tools"][1],
            json!({ "name": "search", "description": "search things", "input_schema": { "type": "object" }, "defer_loading": true })
        );
    }

    #[test]
    fn anthropic_adds_and_removes_tools_with_a_system_message_of_tool_reference_blocks_by_name() {
        let tool = |name: &str| OfferedTool { name: name.into(), description: String::new(), parameters: json!({}) };
        let conversation = [
            Message::User { content: "Go.".into() },
            Message::Assistant { content: None, tool_calls: vec![call("a", json!({ "id": 7 }))] },
            result("a", &[]),
            Message::System { added: vec!["search".into()], removed: vec!["lookup".into()] },
        ];
        let deferred = ["search".to_owned()];
        let chat = chat_completions_body(&ModelRequest {
            system: "Be brief.",
            messages: &conversation,
            tools: &[tool("lookup"), tool("search")],
            summarized: &[],
            gate: ToolGate::Announced(&deferred),
        });
        let body = anthropic_messages(&chat);
        assert_eq!(body["system"], "Be brief.", "the prompt stays the system prompt");
        assert_eq!(
            body["messages"][3],
            json!({ "role": "system", "content": [
                { "type": "tool_removal", "tool": { "type": "tool_reference", "name": "lookup" } },
                { "type": "tool_addition", "tool": { "type": "tool_reference", "name": "search" } }
            ] })
        );
        assert_eq!(body["tools"][1]["defer_loading"], true);
        assert_eq!(openai_responses(&chat)["instructions"], "Be brief.");
    }

    #[test]
    fn responses_has_instructions_items_flat_tools_and_the_callable_subset() {
        let allowed = ["lookup".to_owned()];
        let body = openai_responses(&chat(ToolGate::Allowed(&allowed)));
        assert_eq!(body["instructions"], "Be brief.");
        let kinds: Vec<String> = body["input"]
            .as_array()
            .unwrap()
            .iter()
            .map(|item| item.get("type").or(item.get("role")).and_then(Value::as_str).unwrap().to_owned())
            .collect();
        assert_eq!(
            kinds,
            [
                "user",
                "assistant",
                "function_call",
                "function_call",
                "function_call_output",
                "function_call_output",
                "function_call",
                "function_call_output"
            ]
        );
        assert_eq!(
            body["input"][2],
            json!({ "type": "function_call", "call_id": "a", "name": "lookup", "arguments": "{\"id\":7}" })
        );
        assert_eq!(
            body["tools"][0],
            json!({ "type": "function", "name": "lookup", "description": "lookup things", "parameters": { "type": "object" } })
        );
        assert_eq!(
            body["tool_choice"],
            json!({ "type": "allowed_tools", "mode": "auto", "tools": [{ "type": "function", "name": "lookup" }] })
        );
    }

    /// Every key OpenAI's Responses API defines on the items and tools Unfold sends (from the
    /// API's reference, as its SDK types have them).
    fn responses_keys(object: &Value) -> &'static [&'static str] {
        match (object.get("type").and_then(Value::as_str), object.get("role")) {
            (None, Some(_)) => &["role", "content"],
            (Some("function"), _) => &["type", "name", "description", "parameters", "strict", "defer_loading"],
            (Some("function_call"), _) => &["type", "call_id", "name", "arguments", "id", "status"],
            (Some("function_call_output"), _) => &["type", "call_id", "output", "id", "status"],
            (Some("tool_search"), _) => &["type", "execution", "description", "parameters"],
            (Some("tool_search_call"), _) => &["type", "call_id", "execution", "arguments", "status", "id"],
            (Some("tool_search_output"), _) => &["type", "call_id", "execution", "status", "tools", "id"],
            _ => &[],
        }
    }

    #[test]
    fn responses_loads_deferred_tools_by_a_client_tool_search_with_only_fields_openai_defines() {
        let deferred = ["search".to_owned()];
        let body = openai_responses(&chat(ToolGate::Deferred(&deferred)));
        let tools = body["tools"].as_array().unwrap();
        let items = body["input"].as_array().unwrap();
        for object in tools.iter().chain(items).chain(tools.iter().filter_map(|t| t.get("tools"))) {
            let unknown: Vec<&String> = object
                .as_object()
                .unwrap()
                .keys()
                .filter(|key| !responses_keys(object).contains(&key.as_str()))
                .collect();
            assert!(unknown.is_empty(), "{unknown:?} in {object}");
        }
        assert_eq!(tools[1]["defer_loading"], true);
        assert_eq!(tools.iter().filter(|t| t["type"] == "tool_search").count(), 1);
        assert_eq!(tools.last().unwrap()["execution"], "client");
        // The result that loads `search` is followed by the search that loads it, call and output.
        let kinds: Vec<&str> = items[6..].iter().map(|item| item["type"].as_str().unwrap()).collect();
        assert_eq!(kinds, ["function_call", "function_call_output", "tool_search_call", "tool_search_output"]);
        assert_eq!(items[8]["call_id"], items[9]["call_id"]);
        assert_eq!(items[8]["arguments"], json!({ "names": ["search"] }));
        assert_eq!(
            items[9]["tools"],
            json!([{ "type": "function", "name": "search", "description": "search things", "parameters": { "type": "object" } }])
        );
        let open = openai_responses(&chat(ToolGate::Open));
        assert!(
            open["tools"].as_array().unwrap().iter().all(|t| t["type"] == "function"),
            "no search without deferral"
        );
    }

    #[test]
    fn the_chat_shape_is_the_body_as_kept_and_names_parse() {
        let body = chat(ToolGate::Open);
        assert_eq!(RequestShape::OpenAiChat.body(&body), body);
        assert_eq!("anthropic".parse::<RequestShape>(), Ok(RequestShape::AnthropicMessages));
        assert!("grpc".parse::<RequestShape>().unwrap_err().contains("openai-chat, openai-responses or anthropic"));
    }
}
