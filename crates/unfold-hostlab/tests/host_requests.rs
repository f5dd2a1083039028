//! A host's request to its model read back from each API's format: the bodies Unfold's own
//! request shapes write for a conversation read as that conversation, and a Gemini body as written
//! by hand from its API reference.

use serde_json::{json, Value};
use unfold_documents::host_profile::HostApi;
use unfold_documents::tool::OfferedTool;
use unfold_engine::openai_request::chat_completions_body;
use unfold_engine::request_shapes::RequestShape;
use unfold_engine::{Message, ModelRequest, ToolCall};
use unfold_hostlab::host_requests::HostRequest;

fn call(id: &str, name: &str, arguments: Value) -> ToolCall {
    ToolCall { id: id.into(), name: name.into(), arguments }
}

fn result(id: &str, name: &str) -> Message {
    Message::Tool { call_id: id.into(), name: name.into(), content: format!("{name} answered"), references: Vec::new() }
}

/// Two turns: text and two parallel calls, their results, one more call, its result, an answer,
/// then the second user message.
fn conversation() -> Vec<Message> {
    vec![
        Message::User { content: "Find issue 7.".into() },
        Message::Assistant {
            content: Some("Looking.".into()),
            tool_calls: vec![
                call("call_0_0", "lookup", json!({ "id": 7 })),
                call("call_0_1", "read_section", json!({ "section_key": "docs" })),
            ],
        },
        result("call_0_0", "lookup"),
        result("call_0_1", "read_section"),
        Message::Assistant { content: None, tool_calls: vec![call("call_1_0", "search", json!({ "query": "login" }))] },
        result("call_1_0", "search"),
        Message::Assistant { content: Some("Found it.".into()), tool_calls: Vec::new() },
        Message::User { content: "And issue 8?".into() },
    ]
}

fn tools() -> Vec<OfferedTool> {
    ["lookup", "search", "read_section"]
        .into_iter()
        .map(|name| OfferedTool {
            name: name.into(),
            description: format!("The {name} tool."),
            parameters: json!({ "type": "object", "properties": { "id": { "type": "integer" } } }),
        })
        .collect()
}

#[test]
fn the_bodies_unfold_writes_read_back_as_their_conversation_in_every_api() {
    let (messages, tools) = (conversation(), tools());
    let request = ModelRequest {
        system: "You fix bugs.",
        messages: &messages,
        tools: &tools,
        summarized: &[],
        gate: Default::default(),
    };
    let chat = chat_completions_body(&request);
    for (api, shape) in [
        (HostApi::OpenaiChat, RequestShape::OpenAiChat),
        (HostApi::Anthropic, RequestShape::AnthropicMessages),
        (HostApi::OpenaiResponses, RequestShape::OpenAiResponses),
    ] {
        let mut body = shape.body(&chat);
        body["stream"] = json!(true);
        body["model"] = json!("m");
        let read = HostRequest::read(api, &body, false).unwrap();
        assert_eq!(read.system, "You fix bugs.", "{api:?}");
        assert_eq!(read.messages, messages, "{api:?}");
        assert_eq!(read.tools, tools, "{api:?}");
        assert!(read.stream, "{api:?}");
        assert_eq!(read.model.as_deref(), Some("m"), "{api:?}");
    }
}

#[test]
fn a_gemini_request_reads_with_its_calls_named_by_id_or_by_function() {
    let body = json!({
        "systemInstruction": { "parts": [{ "text": "You fix bugs." }] },
        "contents": [
            { "role": "user", "parts": [{ "text": "Find issue 7." }] },
            { "role": "model", "parts": [{ "functionCall": { "id": "g1", "name": "lookup", "args": { "id": 7 } } }] },
            { "role": "user", "parts": [{ "functionResponse": { "id": "g1", "name": "lookup", "response": { "title": "Login fails" } } }] },
            { "role": "model", "parts": [{ "functionCall": { "name": "search", "args": { "query": "login" } } }] },
            { "role": "user", "parts": [{ "functionResponse": { "name": "search", "response": { "hits": 2 } } }] }
        ],
        "tools": [{ "functionDeclarations": [
            { "name": "lookup", "description": "Look up.", "parametersJsonSchema": { "type": "object" } },
            { "name": "search", "description": "Search.", "parameters": { "type": "OBJECT" } }
        ] }]
    });
    let read = HostRequest::read(HostApi::Gemini, &body, true).unwrap();
    assert_eq!(read.system, "You fix bugs.");
    assert!(read.stream, "the streaming path says so");
    assert_eq!(
        read.messages,
        [
            Message::User { content: "Find issue 7.".into() },
            Message::Assistant { content: None, tool_calls: vec![call("g1", "lookup", json!({ "id": 7 }))] },
            Message::Tool {
                call_id: "g1".into(),
                name: "lookup".into(),
                content: r#"{"title":"Login fails"}"#.into(),
                references: Vec::new()
            },
            Message::Assistant {
                content: None,
                tool_calls: vec![call("search", "search", json!({ "query": "login" }))]
            },
            Message::Tool {
                call_id: "search".into(),
                name: "search".into(),
                content: r#"{"hits":2}"#.into(),
                references: Vec::new()
            },
        ]
    );
    let names: Vec<&str> = read.tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["lookup", "search"]);
}

#[test]
fn text_a_host_puts_beside_tool_results_is_no_new_turn_and_server_tools_are_not_its_tools() {
    let body = json!({
        "system": [{ "type": "text", "text": "You fix bugs." }],
        "messages": [
            { "role": "user", "content": "Find issue 7." },
            { "role": "assistant", "content": [{ "type": "tool_use", "id": "t1", "name": "mcp__unfold__lookup", "input": { "id": 7 } }] },
            { "role": "user", "content": [
                { "type": "tool_result", "tool_use_id": "t1", "content": [{ "type": "text", "text": "Login fails" }] },
                { "type": "text", "text": "<system-reminder>Be brief.</system-reminder>" }
            ] }
        ],
        "tools": [
            { "name": "mcp__unfold__lookup", "description": "Look up.", "input_schema": { "type": "object" } },
            { "type": "web_search_20250305", "name": "web_search" }
        ]
    });
    let read = HostRequest::read(HostApi::Anthropic, &body, false).unwrap();
    let users = read.messages.iter().filter(|m| matches!(m, Message::User { .. })).count();
    assert_eq!(users, 1, "{:?}", read.messages);
    assert_eq!(
        read.messages[2],
        Message::Tool {
            call_id: "t1".into(),
            name: "mcp__unfold__lookup".into(),
            content: "Login fails".into(),
            references: Vec::new()
        }
    );
    assert_eq!(read.tools.len(), 1);
    assert!(!read.stream);
}

#[test]
fn a_body_that_is_not_a_request_is_an_error_naming_the_place() {
    assert_eq!(
        HostRequest::read(HostApi::OpenaiChat, &json!([1]), false).unwrap_err(),
        "the body is not a JSON object"
    );
    let odd = json!({ "messages": [{ "role": "user", "content": "Hi." }, { "role": "robot", "content": "?" }] });
    assert_eq!(
        HostRequest::read(HostApi::OpenaiChat, &odd, false).unwrap_err(),
        "/messages/1: a message of role Some(\"robot\")"
    );
    let no_name = json!({ "tools": [{ "type": "function", "function": { "description": "?" } }] });
    assert_eq!(HostRequest::read(HostApi::OpenaiChat, &no_name, false).unwrap_err(), "a tool without a name");
}

#[test]
fn codexs_namespaced_tools_and_calls_read_as_one_name_and_are_answered_in_their_namespace() {
    // As Codex sends it: the MCP server's tools in a namespace group, and its own earlier call
    // echoed by the function's name with the namespace beside it.
    let body = json!({
        "model": "m", "stream": true, "instructions": "You fix bugs.",
        "input": [
            { "type": "message", "role": "user", "content": [{ "type": "input_text", "text": "Fix it." }] },
            { "type": "function_call", "call_id": "c1", "name": "read_file", "namespace": "mcp__unfold",
              "arguments": "{\"path\":\"a.py\"}" },
            { "type": "function_call_output", "call_id": "c1", "output": "print(1)" }
        ],
        "tools": [
            { "type": "function", "name": "shell", "parameters": { "type": "object" } },
            { "type": "namespace", "name": "mcp__unfold", "tools": [
                { "type": "function", "name": "read_file", "parameters": { "type": "object" } },
                { "type": "function", "name": "read_section", "parameters": { "type": "object" } }
            ] }
        ]
    });
    let read = HostRequest::read(HostApi::OpenaiResponses, &body, false).unwrap();
    let names: Vec<&str> = read.tools.iter().map(|tool| tool.name.as_str()).collect();
    assert_eq!(names, ["shell", "mcp__unfold.read_file", "mcp__unfold.read_section"]);
    assert!(read.messages.contains(&Message::Assistant {
        content: None,
        tool_calls: vec![call("c1", "mcp__unfold.read_file", json!({ "path": "a.py" }))]
    }));

    let answer = unfold_engine::ModelResponse {
        text: None,
        tool_calls: vec![call("c2", "mcp__unfold.read_section", json!({ "section_key": "editing" }))],
        ..unfold_engine::ModelResponse::default()
    };
    let item = &unfold_engine::answer_shapes::whole(HostApi::OpenaiResponses, &answer, Some("m"))["output"][0];
    assert_eq!((&item["name"], &item["namespace"]), (&json!("read_section"), &json!("mcp__unfold")));
    let streamed = unfold_engine::answer_shapes::stream(HostApi::OpenaiResponses, &answer, Some("m")).concat();
    let done = streamed
        .lines()
        .filter_map(|line| line.strip_prefix("data: "))
        .map(|data| -> Value { serde_json::from_str(data).unwrap() });
    let done = done.filter(|event| event["type"] == "response.output_item.done").collect::<Vec<_>>();
    assert_eq!(
        (&done[0]["item"]["name"], &done[0]["item"]["namespace"]),
        (&json!("read_section"), &json!("mcp__unfold"))
    );
}

#[test]
fn the_schema_an_answer_must_fit_is_read_wherever_each_api_puts_it() {
    let schema = json!({ "type": "object", "properties": { "score": { "type": "integer" } } });
    let user = json!([{ "role": "user", "parts": [{ "text": "Rate it." }] }]);
    let gemini = json!({ "contents": user, "generationConfig": { "responseJsonSchema": schema } });
    let chat = json!({ "messages": [{ "role": "user", "content": "Rate it." }],
                       "response_format": { "type": "json_schema", "json_schema": { "name": "r", "schema": schema } } });
    let responses = json!({ "input": "Rate it.", "text": { "format": { "type": "json_schema", "schema": schema } } });
    for (api, body) in [(HostApi::Gemini, gemini), (HostApi::OpenaiChat, chat), (HostApi::OpenaiResponses, responses)] {
        assert_eq!(HostRequest::read(api, &body, false).unwrap().answer_schema.as_ref(), Some(&schema), "{api:?}");
    }
    let plain = json!({ "messages": [{ "role": "user", "content": "Title this." }] });
    assert_eq!(HostRequest::read(HostApi::OpenaiChat, &plain, false).unwrap().answer_schema, None);
}

#[test]
fn each_answer_has_an_id_of_its_own_in_every_api() {
    // Claude Code merges the blocks of answers that share an id into one message, rewriting the
    // conversation it sends next.
    let answer = |id: &str| unfold_engine::ModelResponse {
        text: None,
        tool_calls: vec![call(id, "read_section", json!({ "section_key": "editing" }))],
        ..unfold_engine::ModelResponse::default()
    };
    for api in [HostApi::Anthropic, HostApi::OpenaiChat, HostApi::OpenaiResponses] {
        let id = |answer| unfold_engine::answer_shapes::whole(api, &answer, Some("m"))["id"].clone();
        assert_ne!(id(answer("c1")), id(answer("c2")), "{api:?}");
        assert_eq!(id(answer("c1")), id(answer("c1")), "{api:?}: the same answer, the same id");
    }
}
