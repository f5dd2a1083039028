//! What a host's request to its model says, read from each API's wire format (Anthropic Messages,
//! OpenAI Chat Completions and Responses, Gemini `generateContent`): the system prompt, the
//! conversation as Unfold's messages (a tool call keeps the id the host echoes back, which is how
//! the scripted model endpoint knows which steps are done), the tools offered as the host names
//! and orders them, and whether it asks for a stream. What the request does not say the reader
//! leaves out; what it cannot read is an error naming the place.
//!
//! A user message that carries tool results is the turn's results, not a new turn: text a host
//! adds beside them (reminders, attachments) is not a user message.

use serde_json::{json, Value};
use unfold_documents::host_profile::HostApi;
use unfold_documents::tool::OfferedTool;
use unfold_engine::{Message, ModelRequest, ToolCall};

/// A host's request to its model.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct HostRequest {
    /// The system prompt (system messages and instructions joined).
    pub system: String,
    /// The conversation after it.
    pub messages: Vec<Message>,
    /// The tools offered, in the host's order and under its names.
    pub tools: Vec<OfferedTool>,
    /// Whether the answer is to be streamed.
    pub stream: bool,
    /// The model asked for, when the body names it (Gemini's is in the path).
    pub model: Option<String>,
    /// The JSON schema the answer must fit, when the request asks for JSON (Gemini's
    /// `responseJsonSchema` or `responseSchema`; OpenAI's `response_format` or `text.format`).
    pub answer_schema: Option<Value>,
}

impl HostRequest {
    /// Reads `body`, a request in `api`'s format; `streamed` says whether the endpoint streams
    /// (Gemini's path says so; the other APIs' `stream` field).
    pub fn read(api: HostApi, body: &Value, streamed: bool) -> Result<HostRequest, String> {
        if !body.is_object() {
            return Err("the body is not a JSON object".into());
        }
        let mut request = match api {
            HostApi::OpenaiChat => chat(body)?,
            HostApi::Anthropic => anthropic(body)?,
            HostApi::OpenaiResponses => responses(body)?,
            HostApi::Gemini => gemini(body)?,
        };
        request.stream = streamed || body.get("stream") == Some(&Value::Bool(true));
        request.model = body.get("model").and_then(Value::as_str).map(str::to_owned);
        request.answer_schema = answer_schema(body);
        Ok(request)
    }

    /// The request as the scripted model reads one.
    pub fn model_request(&self) -> ModelRequest<'_> {
        ModelRequest {
            system: &self.system,
            messages: &self.messages,
            tools: &self.tools,
            summarized: &[],
            gate: Default::default(),
        }
    }
}

fn array<'v>(value: &'v Value, key: &str) -> &'v [Value] {
    value.get(key).and_then(Value::as_array).map_or(&[], Vec::as_slice)
}

fn text_of(value: &Value, key: &str) -> String {
    value.get(key).and_then(Value::as_str).unwrap_or_default().to_owned()
}

/// Content as text: a string, or the text of its text parts joined (whatever the API calls them).
fn content_text(content: &Value) -> String {
    match content {
        Value::String(text) => text.clone(),
        Value::Array(parts) => parts.iter().filter_map(|part| part.get("text").and_then(Value::as_str)).collect(),
        _ => String::new(),
    }
}

/// Arguments sent as JSON text: their value, or the text itself when it is not JSON.
fn arguments(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.to_owned()))
}

fn tool(name: &Value, description: &Value, parameters: &Value) -> Result<OfferedTool, String> {
    let name = name.as_str().ok_or("a tool without a name")?.to_owned();
    let description = description.as_str().unwrap_or_default().to_owned();
    let parameters = if parameters.is_null() { json!({ "type": "object" }) } else { parameters.clone() };
    Ok(OfferedTool { name, description, parameters })
}

/// The conversation being read, with what it needs to name a tool result's tool.
#[derive(Default)]
struct Conversation {
    system: Vec<String>,
    messages: Vec<Message>,
}

impl Conversation {
    fn name_of(&self, call_id: &str) -> String {
        let calls = self.messages.iter().flat_map(|m| match m {
            Message::Assistant { tool_calls, .. } => tool_calls.as_slice(),
            _ => &[],
        });
        calls.filter(|call| call.id == call_id).map(|call| call.name.clone()).next_back().unwrap_or_default()
    }

    fn result(&mut self, call_id: String, content: String) {
        let name = self.name_of(&call_id);
        self.messages.push(Message::Tool { call_id, name, content, references: Vec::new() });
    }

    /// Adds `text` and `calls` to the assistant message just before, or starts one.
    fn assistant(&mut self, text: Option<String>, calls: Vec<ToolCall>) {
        if let Some(Message::Assistant { content, tool_calls }) = self.messages.last_mut() {
            if tool_calls.is_empty() || text.is_none() {
                if let Some(text) = text {
                    content.get_or_insert_with(String::new).push_str(&text);
                }
                tool_calls.extend(calls);
                return;
            }
        }
        self.messages.push(Message::Assistant { content: text, tool_calls: calls });
    }

    fn into_request(self, tools: Vec<OfferedTool>) -> HostRequest {
        HostRequest { system: self.system.join("\n\n"), messages: self.messages, tools, ..HostRequest::default() }
    }
}

/// The schema a body asks its answer to fit, in whichever API's place it is.
fn answer_schema(body: &Value) -> Option<Value> {
    let places = [
        "/generationConfig/responseJsonSchema",
        "/generationConfig/responseSchema",
        "/response_format/json_schema/schema",
        "/text/format/schema",
    ];
    places.iter().find_map(|place| body.pointer(place)).filter(|schema| schema.is_object()).cloned()
}

fn chat(body: &Value) -> Result<HostRequest, String> {
    let mut read = Conversation::default();
    for (at, message) in array(body, "messages").iter().enumerate() {
        match message.get("role").and_then(Value::as_str) {
            Some("system" | "developer") => read.system.push(content_text(&message["content"])),
            Some("user") => read.messages.push(Message::User { content: content_text(&message["content"]) }),
            Some("assistant") => {
                let text = Some(content_text(&message["content"])).filter(|t| !t.is_empty());
                let calls = array(message, "tool_calls").iter().map(|call| ToolCall {
                    id: text_of(call, "id"),
                    name: text_of(&call["function"], "name"),
                    arguments: arguments(call["function"]["arguments"].as_str().unwrap_or("{}")),
                });
                read.messages.push(Message::Assistant { content: text, tool_calls: calls.collect() });
            }
            Some("tool") => read.result(text_of(message, "tool_call_id"), content_text(&message["content"])),
            other => return Err(format!("/messages/{at}: a message of role {other:?}")),
        }
    }
    let tools = array(body, "tools").iter().filter(|t| t.get("function").is_some()).map(|t| {
        let function = &t["function"];
        tool(&function["name"], &function["description"], &function["parameters"])
    });
    Ok(read.into_request(tools.collect::<Result<_, _>>()?))
}

fn anthropic(body: &Value) -> Result<HostRequest, String> {
    let mut read = Conversation::default();
    read.system.push(content_text(body.get("system").unwrap_or(&Value::Null)));
    read.system.retain(|s| !s.is_empty());
    for (at, message) in array(body, "messages").iter().enumerate() {
        let blocks: Vec<Value> = match &message["content"] {
            Value::String(text) => vec![json!({ "type": "text", "text": text })],
            Value::Array(blocks) => blocks.clone(),
            _ => return Err(format!("/messages/{at}/content: neither text nor blocks")),
        };
        let of_type = |kind: &'static str| blocks.iter().filter(move |b| b["type"] == kind);
        match message.get("role").and_then(Value::as_str) {
            Some("user") => {
                let results: Vec<&Value> = of_type("tool_result").collect();
                if results.is_empty() {
                    let text = of_type("text").filter_map(|b| b["text"].as_str()).collect::<String>();
                    read.messages.push(Message::User { content: text });
                }
                for result in results {
                    read.result(text_of(result, "tool_use_id"), content_text(&result["content"]));
                }
            }
            Some("assistant") => {
                let text: String = of_type("text").filter_map(|b| b["text"].as_str()).collect();
                let calls = of_type("tool_use").map(|call| ToolCall {
                    id: text_of(call, "id"),
                    name: text_of(call, "name"),
                    arguments: call.get("input").cloned().unwrap_or_else(|| json!({})),
                });
                read.messages.push(Message::Assistant {
                    content: Some(text).filter(|t| !t.is_empty()),
                    tool_calls: calls.collect(),
                });
            }
            // Mid-conversation system messages (tool changes) say nothing the script reads.
            Some("system") => {}
            other => return Err(format!("/messages/{at}: a message of role {other:?}")),
        }
    }
    // Server tools (tool search, web search) have a `type` and no `input_schema`: not the host's.
    let tools = array(body, "tools").iter().filter(|t| t.get("input_schema").is_some());
    let tools = tools.map(|t| tool(&t["name"], &t["description"], &t["input_schema"]));
    Ok(read.into_request(tools.collect::<Result<_, _>>()?))
}

fn responses(body: &Value) -> Result<HostRequest, String> {
    let mut read = Conversation::default();
    if let Some(instructions) = body.get("instructions").and_then(Value::as_str) {
        read.system.push(instructions.to_owned());
    }
    let items = match body.get("input") {
        Some(Value::String(text)) => vec![json!({ "role": "user", "content": text })],
        Some(Value::Array(items)) => items.clone(),
        _ => Vec::new(),
    };
    let mut added = Vec::new();
    for (at, item) in items.iter().enumerate() {
        match (item.get("type").and_then(Value::as_str), item.get("role").and_then(Value::as_str)) {
            (Some("function_call"), _) => {
                // A namespaced function is offered, and so named here, as `namespace.function`.
                let name = match item.get("namespace").and_then(Value::as_str) {
                    Some(namespace) => format!("{namespace}.{}", text_of(item, "name")),
                    None => text_of(item, "name"),
                };
                let call = ToolCall {
                    id: text_of(item, "call_id"),
                    name,
                    arguments: arguments(item["arguments"].as_str().unwrap_or("{}")),
                };
                read.assistant(None, vec![call]);
            }
            (Some("function_call_output"), _) => read.result(text_of(item, "call_id"), content_text(&item["output"])),
            (Some("message") | None, Some("assistant")) => {
                read.assistant(Some(content_text(&item["content"])).filter(|t| !t.is_empty()), Vec::new());
            }
            (Some("message") | None, Some("user")) => {
                read.messages.push(Message::User { content: content_text(&item["content"]) });
            }
            (Some("message") | None, Some("system" | "developer")) => read.system.push(content_text(&item["content"])),
            // Tools a host adds mid-conversation (pydantic-ai does) are offered from here on.
            (Some("additional_tools"), _) => added.extend(array(item, "tools").iter().cloned()),
            // Reasoning, tool search and other items say nothing the script reads.
            (Some(_), _) => {}
            (None, role) => return Err(format!("/input/{at}: an item of role {role:?}")),
        }
    }
    let mut tools = Vec::new();
    for declared in array(body, "tools").iter().chain(&added) {
        match declared["type"].as_str() {
            Some("function") => tools.push(tool(&declared["name"], &declared["description"], &declared["parameters"])?),
            // A namespace's functions, as the model calls them: `namespace.function`.
            Some("namespace") => {
                for function in array(declared, "tools").iter().filter(|t| t["type"] == "function") {
                    let mut inner = tool(&function["name"], &function["description"], &function["parameters"])?;
                    inner.name = format!("{}.{}", text_of(declared, "name"), inner.name);
                    tools.push(inner);
                }
            }
            _ => {}
        }
    }
    Ok(read.into_request(tools))
}

fn gemini(body: &Value) -> Result<HostRequest, String> {
    let mut read = Conversation::default();
    let system = body.get("systemInstruction").or_else(|| body.get("system_instruction"));
    if let Some(system) = system {
        read.system.push(content_text(system.get("parts").unwrap_or(&Value::Null)));
    }
    for (at, content) in array(body, "contents").iter().enumerate() {
        let parts = array(content, "parts");
        match content.get("role").and_then(Value::as_str) {
            Some("user") | None => {
                let responses: Vec<&Value> = parts.iter().filter_map(|p| p.get("functionResponse")).collect();
                if responses.is_empty() {
                    read.messages.push(Message::User { content: content_text(&Value::Array(parts.to_vec())) });
                }
                for response in responses {
                    let id = response
                        .get("id")
                        .and_then(Value::as_str)
                        .map_or_else(|| text_of(response, "name"), str::to_owned);
                    read.result(id, response["response"].to_string());
                }
            }
            Some("model") => {
                let text: String = parts.iter().filter_map(|p| p.get("text").and_then(Value::as_str)).collect();
                let calls = parts.iter().filter_map(|p| p.get("functionCall")).map(|call| ToolCall {
                    // Gemini's calls may have no id: its result then names the function.
                    id: call.get("id").and_then(Value::as_str).map_or_else(|| text_of(call, "name"), str::to_owned),
                    name: text_of(call, "name"),
                    arguments: call.get("args").cloned().unwrap_or_else(|| json!({})),
                });
                read.messages.push(Message::Assistant {
                    content: Some(text).filter(|t| !t.is_empty()),
                    tool_calls: calls.collect(),
                });
            }
            other => return Err(format!("/contents/{at}: a content of role {other:?}")),
        }
    }
    let declarations = array(body, "tools").iter().flat_map(|t| array(t, "functionDeclarations"));
    let tools = declarations.map(|f| {
        let parameters = f.get("parametersJsonSchema").or_else(|| f.get("parameters")).unwrap_or(&Value::Null);
        tool(&f["name"], &f["description"], parameters)
    });
    Ok(read.into_request(tools.collect::<Result<_, _>>()?))
}
