//! What Anthropic's Messages API refuses in the ways Unfold sends tools it does not show yet, as the
//! vendor's documentation states it (tool search and `defer_loading`:
//! platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool; mid-conversation tool
//! changes: platform.claude.com/docs/en/build-with-claude/mid-conversation-system-messages). The
//! fault server checks each request with [`refusal`], so a live run's bodies are held to the rules
//! over a real socket. Wording follows the API's where the pages quote it.

use serde_json::Value;

use crate::fault_server::Received;

/// The beta a system message's tool blocks need.
const TOOL_CHANGES_BETA: &str = "mid-conversation-tool-changes-2026-07-01";

/// Why the API would refuse `request`, the first rule it breaks; `None` when it would take it.
pub fn refusal(request: &Received) -> Option<String> {
    let body = &request.body;
    let tools = body.get("tools").and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
    let messages = body.get("messages").and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
    let declared: Vec<&str> = tools.iter().filter_map(|t| t.get("name").and_then(Value::as_str)).collect();
    deferred_tools(tools)
        .or_else(|| alternation(messages))
        .or_else(|| references(messages, &declared))
        .or_else(|| system_messages(request, messages, &declared))
}

fn deferred(tool: &Value) -> bool {
    tool.get("defer_loading") == Some(&Value::Bool(true))
}

/// At least one tool is not deferred, and no deferred tool carries a cache breakpoint.
fn deferred_tools(tools: &[Value]) -> Option<String> {
    if !tools.is_empty() && tools.iter().all(deferred) {
        return Some("At least one tool must have defer_loading=false. All tools cannot be deferred.".into());
    }
    tools
        .iter()
        .find(|t| deferred(t) && t.get("cache_control").is_some())
        .map(|t| format!("tools: deferred tool '{}' cannot have cache_control", t["name"]))
}

/// Apart from system messages, the conversation starts with the user and the roles alternate;
/// each tool result answers a `tool_use` of the assistant message just before.
fn alternation(messages: &[Value]) -> Option<String> {
    let turns: Vec<&Value> = messages.iter().filter(|m| m["role"] != "system").collect();
    for (at, message) in turns.iter().enumerate() {
        let expected = if at % 2 == 0 { "user" } else { "assistant" };
        if message["role"] != expected {
            return Some(format!("messages: roles must alternate between \"user\" and \"assistant\" (turn {at})"));
        }
        let asked: Vec<&Value> = match at.checked_sub(1).map(|before| &turns[before]["content"]) {
            Some(Value::Array(blocks)) => blocks.iter().filter(|b| b["type"] == "tool_use").map(|b| &b["id"]).collect(),
            _ => Vec::new(),
        };
        let answered = blocks(message).filter(|b| b["type"] == "tool_result").map(|b| &b["tool_use_id"]);
        if let Some(id) = answered.into_iter().find(|id| !asked.contains(id)) {
            return Some(format!("messages: unexpected `tool_use_id` {id} in `tool_result` blocks"));
        }
    }
    None
}

fn blocks(message: &Value) -> impl Iterator<Item = &Value> {
    message.get("content").and_then(Value::as_array).into_iter().flatten()
}

/// A `tool_reference` in a tool result names a declared tool by `tool_name`.
fn references(messages: &[Value], declared: &[&str]) -> Option<String> {
    let results = messages.iter().flat_map(blocks).filter(|b| b["type"] == "tool_result");
    let references = results.flat_map(blocks).filter(|b| b["type"] == "tool_reference");
    for reference in references {
        let Some(name) = reference.get("tool_name").and_then(Value::as_str) else {
            return Some("tool_reference: field `tool_name` is required".into());
        };
        if !declared.contains(&name) {
            return Some(format!("Tool reference '{name}' not found in available tools"));
        }
    }
    None
}

/// A system message in the conversation: under the beta, never first, right after a user
/// message, followed by an assistant message or nothing, never next to another, and its tool
/// blocks name declared tools by `name`.
fn system_messages(request: &Received, messages: &[Value], declared: &[&str]) -> Option<String> {
    for (at, message) in messages.iter().enumerate().filter(|(_, m)| m["role"] == "system") {
        let beta = request.header("anthropic-beta").unwrap_or_default();
        if !beta.split(',').any(|b| b.trim() == TOOL_CHANGES_BETA) {
            return Some(format!("messages.{at}: system messages need the beta {TOOL_CHANGES_BETA}"));
        }
        let before = at.checked_sub(1).map(|b| &messages[b]["role"]);
        let after = messages.get(at + 1).map(|m| &m["role"]);
        if before.is_none_or(|role| role != "user") || after.is_some_and(|role| role != "assistant") {
            return Some(format!(
                "messages.{at}: a system message must follow a user turn and be last or followed by an assistant turn"
            ));
        }
        for block in blocks(message) {
            match block["type"].as_str() {
                Some("text") => {}
                Some("tool_addition" | "tool_removal") => {
                    let tool = &block["tool"];
                    let name = tool.get("name").and_then(Value::as_str);
                    if tool["type"] != "tool_reference" || tool.get("tool_name").is_some() {
                        return Some(format!("messages.{at}: `tool` must be a tool_reference with `name`"));
                    }
                    if !name.is_some_and(|name| declared.contains(&name)) {
                        return Some(format!("messages.{at}: tool_reference_unresolved: {}", tool["name"]));
                    }
                }
                other => return Some(format!("messages.{at}: unexpected block type {other:?} in a system message")),
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::time::Instant;

    fn request(beta: &str, body: Value) -> Received {
        Received { at: Instant::now(), head: format!("POST /v1/messages HTTP/1.1\r\nanthropic-beta: {beta}"), body }
    }

    fn addition(name: &str) -> Value {
        json!({ "role": "system", "content": [{ "type": "tool_addition", "tool": { "type": "tool_reference", "name": name } }] })
    }

    fn tools() -> Value {
        json!([{ "name": "read_section" }, { "name": "search", "defer_loading": true }])
    }

    /// The conversation of a read whose result adds `search`, then `system`.
    fn after_a_read(system: Value) -> Value {
        json!({ "tools": tools(), "messages": [
            { "role": "user", "content": "Go." },
            { "role": "assistant", "content": [{ "type": "tool_use", "id": "t1", "name": "read_section", "input": {} }] },
            { "role": "user", "content": [{ "type": "tool_result", "tool_use_id": "t1", "content": "text" }] },
            system
        ] })
    }

    #[test]
    fn a_system_message_that_adds_a_declared_tool_after_a_result_is_taken() {
        assert_eq!(refusal(&request(TOOL_CHANGES_BETA, after_a_read(addition("search")))), None);
    }

    #[test]
    fn what_the_api_refuses_is_refused_with_its_reason() {
        let cases = [
            (request("", after_a_read(addition("search"))), "need the beta"),
            (request(TOOL_CHANGES_BETA, after_a_read(addition("cite"))), "tool_reference_unresolved"),
            (
                request(
                    TOOL_CHANGES_BETA,
                    after_a_read(json!({ "role": "system", "content": [{ "type": "tool_addition",
                        "tool": { "type": "tool_reference", "tool_name": "search" } }] })),
                ),
                "with `name`",
            ),
            (
                request(TOOL_CHANGES_BETA, json!({ "tools": tools(), "messages": [addition("search")] })),
                "must follow a user turn",
            ),
            (
                request("", json!({ "tools": [{ "name": "search", "defer_loading": true }], "messages": [] })),
                "All tools cannot be deferred",
            ),
            (
                request(
                    "",
                    json!({ "tools": tools(), "messages": [
                    { "role": "user", "content": "Go." },
                    { "role": "assistant", "content": [{ "type": "tool_use", "id": "t1", "name": "read_section", "input": {} }] },
                    { "role": "user", "content": [{ "type": "tool_result", "tool_use_id": "t1",
                        "content": [{ "type": "tool_reference", "tool_name": "cite" }] }] }
                ] }),
                ),
                "Tool reference 'cite' not found",
            ),
            (request("", json!({ "messages": [{ "role": "assistant", "content": "Hi." }] })), "roles must alternate"),
        ];
        for (request, reason) in cases {
            let refused = refusal(&request).unwrap_or_default();
            assert!(refused.contains(reason), "{reason}: {refused:?} for {}", request.body);
        }
    }
}
