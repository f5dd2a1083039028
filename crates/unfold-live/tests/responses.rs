//! The OpenAI Responses wire against a real local server: answers streamed and whole, failures,
//! and the lanes an `openai-responses` profile runs held to what the API takes
//! (`responses_rules`): the deferred lane's client tool search, a model's own search, and the
//! callable subset.

use serde_json::{json, Value};
use unfold_engine::{
    adapter_for, run, AdapterKind, EventKind, MeasuredCache, ModelResponse, RunReport, RunStatus, ScriptedToolResults,
    ToolCall, Usage,
};
use unfold_live::ProviderKind;
use unfold_test_support::load_template;

use crate::fault_server::{FaultServer, Received, Reply};
use crate::http_provider::{ask, asking, profile, provider, runtime};
use crate::responses_rules;

fn event(data: Value) -> String {
    format!("event: {}\ndata: {data}\n\n", data["type"].as_str().unwrap())
}

/// A response that says "Looking." and calls `lookup`, having read 16 of its 31 input tokens
/// from the cache.
fn looking() -> Value {
    json!({ "object": "response", "status": "completed", "error": null, "output": [
        { "type": "reasoning", "id": "rs_1", "summary": [] },
        { "type": "message", "role": "assistant", "content": [{ "type": "output_text", "text": "Looking.", "annotations": [] }] },
        { "type": "function_call", "call_id": "call_a", "name": "lookup", "arguments": "{\"id\": 7}" }
    ], "usage": { "input_tokens": 31, "output_tokens": 9, "input_tokens_details": { "cached_tokens": 16 } } })
}

fn looking_answer() -> ModelResponse {
    ModelResponse {
        text: Some("Looking.".into()),
        tool_calls: vec![ToolCall { id: "call_a".into(), name: "lookup".into(), arguments: json!({ "id": 7 }) }],
        usage: Some(Usage {
            prompt_tokens: 31,
            completion_tokens: 9,
            cache: Some(MeasuredCache { read_tokens: 16, write_tokens: 0, in_prompt_tokens: true }),
        }),
        cut_at_limit: false,
    }
}

fn looking_stream() -> Vec<String> {
    vec![
        event(json!({ "type": "response.created", "response": { "status": "in_progress", "output": [] } })),
        event(json!({ "type": "response.output_text.delta", "output_index": 1, "delta": "Look" })),
        event(json!({ "type": "response.output_text.delta", "output_index": 1, "delta": "ing." })),
        event(json!({ "type": "response.function_call_arguments.delta", "output_index": 2, "delta": "{\"id\": 7}" })),
        event(json!({ "type": "response.completed", "response": looking() })),
    ]
}

#[test]
fn responses_answers_streamed_and_whole_read_text_calls_and_cached_usage() {
    let stream = looking_stream();
    let pieces: Vec<&str> = stream.iter().map(String::as_str).collect();
    for (reply, streamed) in [(Reply::stream(&pieces), true), (Reply::json(looking()), false)] {
        let (answer, received) = runtime().block_on(async {
            let server = FaultServer::start(vec![reply]).await;
            let answer = ask(&mut provider(profile(ProviderKind::OpenaiResponses, &server, streamed))).await;
            (answer, server.received())
        });
        assert_eq!(answer.unwrap(), looking_answer(), "streamed: {streamed}");
        let request = &received[0];
        assert_eq!(responses_rules::refusal(request), None, "{}", request.body);
        assert_eq!(request.header("authorization"), Some("Bearer sk-test-4f1e9c0d"));
        let body = &request.body;
        assert_eq!((&body["store"], &body["max_output_tokens"]), (&json!(false), &json!(64)));
        assert_eq!(body["stream"] == true, streamed);
        assert_eq!(body["instructions"], "You fix bugs.");
    }
}

#[test]
fn a_responses_stream_that_fails_or_stops_short_says_why() {
    let failed = event(json!({ "type": "response.failed", "response": {
        "status": "failed", "error": { "code": "server_error", "message": "The model crashed." } } }));
    let short = looking_stream()[..3].concat();
    for (piece, expected) in
        [(failed, "The model crashed."), (short, "ended without its end marker `event: response.completed`")]
    {
        let answer = runtime().block_on(async {
            let server = FaultServer::start(vec![Reply::stream(&[&piece])]).await;
            ask(&mut provider(profile(ProviderKind::OpenaiResponses, &server, true))).await
        });
        let message = answer.unwrap_err().to_string();
        assert!(message.contains(expected), "{message}");
    }
}

fn message(text: &str) -> Value {
    json!({ "object": "response", "status": "completed", "error": null, "output": [
        { "type": "message", "role": "assistant", "content": [{ "type": "output_text", "text": text }] }
    ], "usage": { "input_tokens": 100, "output_tokens": 3 } })
}

fn calling(item: Value) -> Value {
    json!({ "object": "response", "status": "completed", "error": null, "output": [item],
            "usage": { "input_tokens": 90, "output_tokens": 12 } })
}

/// A live run of the task executor under `adapter` on the Responses wire, against a server that
/// refuses what the API would: the model does `first`, then answers. The report and the requests.
fn first_then_answer(adapter: AdapterKind, first: Value) -> (RunReport, Vec<Received>) {
    let template = load_template("examples/task-executor.unfold.json");
    runtime().block_on(async {
        let replies = vec![Reply::json(calling(first)), Reply::json(message("Done."))];
        let server = FaultServer::checking(replies, responses_rules::refusal).await;
        let mut live = provider(profile(ProviderKind::OpenaiResponses, &server, false));
        let input = asking(&template, "Refactor the authentication module.");
        let report = run(&input, adapter_for(adapter), &mut live, &mut ScriptedToolResults::default(), &mut |_| {})
            .await
            .unwrap();
        (report, server.received())
    })
}

fn read_context() -> Value {
    json!({ "type": "function_call", "call_id": "call_1", "name": "read_section", "arguments": "{\"section_key\":\"context\"}" })
}

fn kinds(body: &Value) -> Vec<&str> {
    body["input"].as_array().unwrap().iter().map(|item| item["type"].as_str().unwrap_or("message")).collect()
}

#[test]
fn every_lane_an_openai_responses_profile_runs_sends_bodies_the_api_takes() {
    for adapter in [AdapterKind::Dynamic, AdapterKind::Restart, AdapterKind::AllowedTools, AdapterKind::Deferred] {
        let (report, received) = first_then_answer(adapter, read_context());
        assert_eq!(report.status, RunStatus::Completed, "{adapter:?}: {:?}", report.events.last());
        assert!(received.len() >= 2, "{adapter:?}");
    }
}

#[test]
fn a_deferred_run_loads_a_read_sections_tools_by_a_client_tool_search() {
    let (_, received) = first_then_answer(AdapterKind::Deferred, read_context());
    let bodies: Vec<&Value> = received.iter().map(|r| &r.body).collect();
    let tools = bodies[0]["tools"].as_array().unwrap();
    let deferred: Vec<&Value> = tools.iter().filter(|t| t["defer_loading"] == true).map(|t| &t["name"]).collect();
    assert_eq!(deferred, ["search", "cite"]);
    let search = tools.iter().find(|t| t["type"] == "tool_search").unwrap();
    assert_eq!(search["execution"], "client");
    assert_eq!(bodies[0]["tools"], bodies[1]["tools"], "the tool list, the start of the prompt, stays");
    assert_eq!(
        kinds(bodies[1]),
        ["message", "function_call", "function_call_output", "tool_search_call", "tool_search_output"]
    );
    let loaded = &bodies[1]["input"][4]["tools"];
    let names: Vec<&Value> = loaded.as_array().unwrap().iter().map(|t| &t["name"]).collect();
    assert_eq!(names, ["search", "cite"]);
    assert!(loaded[0].get("defer_loading").is_none(), "a loaded tool is no longer deferred");
}

#[test]
fn a_models_own_tool_search_is_answered_as_unknown_and_sent_back_as_the_search_it_was() {
    let searching = json!({ "type": "tool_search_call", "call_id": "ts_1", "execution": "client",
                            "arguments": { "names": ["search"] }, "status": "completed" });
    let (report, received) = first_then_answer(AdapterKind::Deferred, searching);
    assert_eq!(report.status, RunStatus::Completed, "{:?}", report.events.last());
    let call = report.events.iter().find_map(|e| match &e.kind {
        EventKind::ToolCall { name, success, .. } => Some((name.clone(), *success)),
        _ => None,
    });
    assert_eq!(call, Some(("tool_search".to_owned(), false)), "the run loads tools only by reading a section");
    let second = &received[1].body;
    assert_eq!(kinds(second), ["message", "tool_search_call", "tool_search_output"]);
    assert_eq!(second["input"][1]["arguments"], json!({ "names": ["search"] }));
    assert_eq!((&second["input"][2]["call_id"], &second["input"][2]["tools"]), (&json!("ts_1"), &json!([])));
}
