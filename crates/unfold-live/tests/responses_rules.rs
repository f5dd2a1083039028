//! What OpenAI's Responses API refuses in the bodies Unfold sends, as the vendor's documentation
//! states it (function calling, and tool search with client execution:
//! developers.openai.com/api/docs/guides/function-calling and …/guides/tools-tool-search). The
//! fault server checks each request with [`refusal`], so a live run's bodies are held to the rules
//! over a real socket.

use serde_json::Value;

use crate::fault_server::Received;

/// The fields a Responses body may have, of those Unfold could send.
const BODY_FIELDS: &[&str] =
    &["model", "input", "instructions", "tools", "tool_choice", "stream", "store", "temperature", "max_output_tokens"];

/// Why the API would refuse `request`, the first rule it breaks; `None` when it would take it.
pub fn refusal(request: &Received) -> Option<String> {
    let body = &request.body;
    if !request.head.starts_with("POST /v1/responses ") {
        return Some(format!("not the Responses endpoint: {}", request.head.lines().next().unwrap_or_default()));
    }
    if let Some(field) = body.as_object()?.keys().find(|key| !BODY_FIELDS.contains(&key.as_str())) {
        return Some(format!("Unknown parameter: '{field}'."));
    }
    if body.get("model").and_then(Value::as_str).is_none() {
        return Some("Missing required parameter: 'model'.".into());
    }
    let tools = body.get("tools").and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
    let input = body.get("input").and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
    deferred_tools(tools).or_else(|| outputs(input)).or_else(|| allowed(body, tools))
}

/// Deferred functions need a `tool_search` tool to find them.
fn deferred_tools(tools: &[Value]) -> Option<String> {
    let deferred = tools.iter().any(|t| t.get("defer_loading") == Some(&Value::Bool(true)));
    let searches = tools.iter().any(|t| t["type"] == "tool_search");
    (deferred && !searches).then(|| "tools: `defer_loading` needs a `tool_search` tool in `tools`".into())
}

/// Every output answers a call of its kind earlier in the input, by `call_id`.
fn outputs(input: &[Value]) -> Option<String> {
    for (at, item) in input.iter().enumerate() {
        let asked = match item["type"].as_str() {
            Some("function_call_output") => "function_call",
            Some("tool_search_output") => "tool_search_call",
            _ => continue,
        };
        let earlier = &input[..at];
        if !earlier.iter().any(|call| call["type"] == asked && call["call_id"] == item["call_id"]) {
            return Some(format!(
                "input[{at}]: No {asked} found for {} with call_id {}",
                item["type"], item["call_id"]
            ));
        }
        if asked == "tool_search_call" && item["tools"].as_array().is_none() {
            return Some(format!("input[{at}]: a tool_search_output needs `tools`"));
        }
    }
    None
}

/// An `allowed_tools` choice names tools the request declares.
fn allowed(body: &Value, tools: &[Value]) -> Option<String> {
    let named = body.pointer("/tool_choice/tools").and_then(Value::as_array)?;
    let declared: Vec<&Value> = tools.iter().map(|tool| &tool["name"]).collect();
    named
        .iter()
        .find(|tool| !declared.contains(&&tool["name"]))
        .map(|tool| format!("tool_choice: tool {} is not in tools", tool["name"]))
}
