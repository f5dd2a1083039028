//! The live provider against a real local server (`fault_server`): both wire formats streamed and
//! whole, and every fault of the retry, stall, stream and cancel rules.

use std::time::Duration;

use serde_json::{json, Value};
use tokio_util::sync::CancellationToken;
use unfold_documents::{Error, OfferedTool};
use unfold_engine::{
    adapter_for, run, AdapterKind, Drive, EventKind, LaneModel, Lanes, MeasuredCache, Message, ModelRequest,
    ModelResponse, Provider, RunInput, RunLimits, RunStatus, ScriptedToolResults, ToolCall, Usage,
};
use unfold_live::{ApiKey, HttpProvider, ProviderKind, ProviderProfile, RetryPolicy};

use crate::anthropic_rules;
use crate::fault_server::{FaultServer, Reply};
use crate::log_capture::capture_log;
use unfold_test_support::load_template;

const KEY: &str = "sk-test-4f1e9c0d";

pub(crate) fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap()
}

pub(crate) fn profile(kind: ProviderKind, server: &FaultServer, stream: bool) -> ProviderProfile {
    profile_at(kind, &server.base_url, stream)
}

fn profile_at(kind: ProviderKind, base_url: &str, stream: bool) -> ProviderProfile {
    ProviderProfile {
        name: "local".into(),
        kind,
        base_url: base_url.into(),
        model: "test-model".into(),
        temperature: Some(0.0),
        max_tokens: Some(64),
        stream,
        connect_timeout_ms: Some(2_000),
        read_timeout_ms: Some(5_000),
        api_key_env: None,
        api_key_keychain: false,
        dynamic_tools: true,
    }
}

/// Retries as the default policy rules them, with short waits.
fn quick_retries() -> RetryPolicy {
    RetryPolicy {
        max_retries: 2,
        min_delay: Duration::from_millis(10),
        max_delay: Duration::from_millis(20),
        max_retry_after: Duration::from_secs(5),
    }
}

pub(crate) fn provider(profile: ProviderProfile) -> HttpProvider {
    HttpProvider::new(profile, Some(ApiKey::new(KEY))).unwrap().with_retry(quick_retries())
}

fn lookup_tool() -> OfferedTool {
    OfferedTool {
        name: "lookup".into(),
        description: "Look up an issue by id.".into(),
        parameters: json!({ "type": "object", "properties": { "id": { "type": "integer" } } }),
    }
}

/// One call with a short conversation and the `lookup` tool.
pub(crate) async fn ask(provider: &mut HttpProvider) -> unfold_documents::Result<ModelResponse> {
    let messages = [Message::User { content: "Find issue 7.".into() }];
    let tools = [lookup_tool()];
    let request = ModelRequest {
        system: "You fix bugs.",
        messages: &messages,
        tools: &tools,
        summarized: &[],
        gate: Default::default(),
    };
    provider.complete(&request).await
}

fn ask_once(
    replies: Vec<Reply>,
    kind: ProviderKind,
    stream: bool,
) -> (unfold_documents::Result<ModelResponse>, FaultServer) {
    runtime().block_on(async {
        let server = FaultServer::start(replies).await;
        let result = ask(&mut provider(profile(kind, &server, stream))).await;
        (result, server)
    })
}

fn error_text(result: unfold_documents::Result<ModelResponse>) -> String {
    match result {
        Err(Error::Provider(message)) => message,
        other => panic!("expected a provider error, got {other:?}"),
    }
}

fn openai_chunk(delta: Value) -> String {
    format!("data: {}\n\n", json!({ "choices": [{ "index": 0, "delta": delta, "finish_reason": null }] }))
}

fn anthropic_event(name: &str, data: Value) -> String {
    format!("event: {name}\ndata: {data}\n\n")
}

/// A streamed OpenAI answer: text in two pieces, two tool calls whose arguments arrive split,
/// a usage chunk and the end marker.
fn openai_tool_stream() -> Vec<String> {
    vec![
        ": keep-alive\n\n".to_owned(),
        openai_chunk(json!({ "role": "assistant", "content": "Look" })),
        openai_chunk(json!({ "content": "ing." })),
        openai_chunk(json!({ "tool_calls": [{ "index": 0, "id": "call_a", "type": "function",
            "function": { "name": "lookup", "arguments": "{\"id\"" } }] })),
        openai_chunk(json!({ "tool_calls": [{ "index": 1, "id": "call_b", "type": "function",
            "function": { "name": "lookup", "arguments": "{\"id\": 8}" } }] })),
        openai_chunk(json!({ "tool_calls": [{ "index": 0, "function": { "arguments": ": 7}" } }] })),
        format!("data: {}\n\n", json!({ "choices": [], "usage": { "prompt_tokens": 31, "completion_tokens": 9 } })),
        "data: [DONE]\n\n".to_owned(),
    ]
}

fn lookup(id: &str, n: i64) -> ToolCall {
    ToolCall { id: id.into(), name: "lookup".into(), arguments: json!({ "id": n }) }
}

#[test]
fn openai_streams_text_parallel_tool_calls_and_usage() {
    let pieces = openai_tool_stream();
    // Cut the stream at awkward places: inside a line, between CR and LF…
    let joined = pieces.concat().replace('\n', "\r\n");
    let cuts: Vec<String> = joined.as_bytes().chunks(7).map(|c| String::from_utf8_lossy(c).into_owned()).collect();
    let reply =
        Reply::Stream { pieces: cuts.into_iter().map(|p| (Duration::from_millis(1), p)).collect(), stall: false };
    let (result, server) = ask_once(vec![reply], ProviderKind::Openai, true);
    let response = result.unwrap();
    assert_eq!(response.text.as_deref(), Some("Looking."));
    assert_eq!(response.tool_calls, [lookup("call_a", 7), lookup("call_b", 8)]);
    assert_eq!(response.usage, Some(Usage { prompt_tokens: 31, completion_tokens: 9, cache: None }));

    let [request] = server.received().try_into().unwrap();
    assert!(request.head.starts_with("POST /v1/chat/completions "), "{}", request.head);
    assert_eq!(request.header("authorization"), Some(format!("Bearer {KEY}").as_str()));
    assert_eq!(request.body["model"], "test-model");
    assert_eq!(request.body["stream"], true);
    assert_eq!(request.body["stream_options"], json!({ "include_usage": true }));
    assert_eq!(request.body["max_tokens"], 64);
    assert_eq!(request.body["messages"][0], json!({ "role": "system", "content": "You fix bugs." }));
    assert_eq!(request.body["tools"][0]["function"]["name"], "lookup");
}

#[test]
fn openai_answers_whole_when_not_streamed_or_when_the_server_ignores_stream() {
    let whole = json!({
        "choices": [{ "index": 0, "finish_reason": "tool_calls", "message": { "role": "assistant", "content": null,
            "tool_calls": [{ "id": "call_a", "type": "function", "function": { "name": "lookup", "arguments": "{\"id\":7}" } }] } }],
        "usage": { "prompt_tokens": 12, "completion_tokens": 3, "prompt_tokens_details": { "cached_tokens": 8 } }
    });
    for stream in [false, true] {
        let (result, server) = ask_once(vec![Reply::json(whole.clone())], ProviderKind::Openai, stream);
        let response = result.unwrap();
        assert_eq!(response.text, None);
        assert_eq!(response.tool_calls, [lookup("call_a", 7)]);
        // The cached tokens are among the prompt tokens, kept apart as measured.
        let cache = MeasuredCache { read_tokens: 8, write_tokens: 0, in_prompt_tokens: true };
        assert_eq!(response.usage, Some(Usage { prompt_tokens: 12, completion_tokens: 3, cache: Some(cache) }));
        assert_eq!(server.received()[0].body.get("stream").is_some(), stream);
    }
}

#[test]
fn anthropic_streams_tool_use_and_skips_ping_and_unknown_events() {
    let pieces = [
        anthropic_event(
            "message_start",
            json!({ "type": "message_start", "message": { "id": "m1", "usage": { "input_tokens": 40, "output_tokens": 1,
                "cache_read_input_tokens": 1200, "cache_creation_input_tokens": 300 } } }),
        ),
        anthropic_event("ping", json!({ "type": "ping" })),
        anthropic_event(
            "content_block_start",
            json!({ "type": "content_block_start", "index": 0, "content_block": { "type": "text", "text": "" } }),
        ),
        anthropic_event(
            "content_block_delta",
            json!({ "type": "content_block_delta", "index": 0, "delta": { "type": "text_delta", "text": "On it." } }),
        ),
        anthropic_event("content_block_stop", json!({ "type": "content_block_stop", "index": 0 })),
        anthropic_event(
            "content_block_start",
            json!({ "type": "content_block_start", "index": 1, "content_block": { "type": "tool_use", "id": "toolu_1", "name": "lookup", "input": {} } }),
        ),
        anthropic_event(
            "content_block_delta",
            json!({ "type": "content_block_delta", "index": 1, "delta": { "type": "input_json_delta", "partial_json": "{\"id\":" } }),
        ),
        anthropic_event("brand_new_event", json!({ "type": "brand_new_event", "anything": [1, 2] })),
        anthropic_event(
            "content_block_delta",
            json!({ "type": "content_block_delta", "index": 1, "delta": { "type": "input_json_delta", "partial_json": " 7}" } }),
        ),
        anthropic_event("content_block_stop", json!({ "type": "content_block_stop", "index": 1 })),
        anthropic_event(
            "message_delta",
            json!({ "type": "message_delta", "delta": { "stop_reason": "tool_use" }, "usage": { "output_tokens": 17 } }),
        ),
        anthropic_event("message_stop", json!({ "type": "message_stop" })),
    ];
    let pieces: Vec<&str> = pieces.iter().map(String::as_str).collect();
    let (result, server) = ask_once(vec![Reply::stream(&pieces)], ProviderKind::Anthropic, true);
    let response = result.unwrap();
    assert_eq!(response.text.as_deref(), Some("On it."));
    assert_eq!(response.tool_calls, [lookup("toolu_1", 7)]);
    // Anthropic counts the cache's reads and writes apart from its input tokens: so does Unfold.
    let cache = MeasuredCache { read_tokens: 1200, write_tokens: 300, in_prompt_tokens: false };
    assert_eq!(response.usage, Some(Usage { prompt_tokens: 40, completion_tokens: 17, cache: Some(cache) }));

    let [request] = server.received().try_into().unwrap();
    assert!(request.head.starts_with("POST /v1/messages "), "{}", request.head);
    assert_eq!(request.header("x-api-key"), Some(KEY));
    assert_eq!(request.header("anthropic-version"), Some("2023-06-01"));
    assert_eq!(request.header("authorization"), None);
    assert_eq!(request.body["system"], "You fix bugs.");
    assert_eq!(request.body["messages"], json!([{ "role": "user", "content": "Find issue 7." }]));
    assert_eq!(request.body["tools"][0]["input_schema"]["type"], "object");
    assert_eq!(request.body["max_tokens"], 64);
}

#[test]
fn anthropic_answers_whole_when_not_streamed() {
    let whole = json!({ "type": "message", "content": [
        { "type": "text", "text": "Done." },
        { "type": "tool_use", "id": "toolu_2", "name": "lookup", "input": { "id": 7 } }
    ], "usage": { "input_tokens": 10, "output_tokens": 4 } });
    let (result, _server) = ask_once(vec![Reply::json(whole)], ProviderKind::Anthropic, false);
    let response = result.unwrap();
    assert_eq!(response.text.as_deref(), Some("Done."));
    assert_eq!(response.tool_calls, [lookup("toolu_2", 7)]);
    assert_eq!(response.usage, Some(Usage { prompt_tokens: 10, completion_tokens: 4, cache: None }));
}

#[test]
fn a_stream_without_its_end_marker_is_an_error_that_says_so() {
    let cut_openai = [openai_chunk(json!({ "content": "Hal" }))];
    let (result, server) = ask_once(vec![Reply::stream(&[&cut_openai[0]])], ProviderKind::Openai, true);
    assert!(error_text(result).contains("ended without its end marker `data: [DONE]`"));
    assert_eq!(server.received().len(), 1, "nothing is sent again once an answer started");

    let cut_mid_event = "data: {\"choices\": [{\"delta\": {\"content\": \"Hal";
    let (result, _) = ask_once(vec![Reply::stream(&[cut_mid_event])], ProviderKind::Openai, true);
    assert!(error_text(result).contains("in the middle of an event"));

    let start = anthropic_event(
        "message_start",
        json!({ "type": "message_start", "message": { "usage": { "input_tokens": 3 } } }),
    );
    let (result, _) = ask_once(vec![Reply::stream(&[&start])], ProviderKind::Anthropic, true);
    assert!(error_text(result).contains("ended without its end marker `event: message_stop`"));
}

#[test]
fn an_error_event_or_malformed_json_in_a_stream_ends_the_call() {
    let openai_error = format!(
        "{}data: {}\n\n",
        openai_chunk(json!({ "content": "Hi" })),
        json!({ "error": { "message": "model crashed", "type": "server_error" } })
    );
    let (result, _) = ask_once(vec![Reply::stream(&[&openai_error])], ProviderKind::Openai, true);
    assert!(error_text(result).contains("the stream carried an error: server_error: model crashed"));

    let anthropic_error = anthropic_event(
        "error",
        json!({ "type": "error", "error": { "type": "overloaded_error", "message": "Overloaded" } }),
    );
    let (result, _) = ask_once(vec![Reply::stream(&[&anthropic_error])], ProviderKind::Anthropic, true);
    assert!(error_text(result).contains("the stream carried an error: overloaded_error: Overloaded"));

    let (result, _) = ask_once(vec![Reply::stream(&["data: {\"choices\": [oops]}\n\n"])], ProviderKind::Openai, true);
    let message = error_text(result);
    assert!(message.contains("malformed JSON") && message.contains("[oops]"), "{message}");
}

#[test]
fn a_stalled_stream_fails_after_the_read_timeout_and_is_not_sent_again() {
    runtime().block_on(async {
        let server = FaultServer::start(vec![Reply::stalled(&[&openai_chunk(json!({ "content": "Thinking" }))])]).await;
        let mut slow = profile(ProviderKind::Openai, &server, true);
        slow.read_timeout_ms = Some(300);
        let message = error_text(ask(&mut provider(slow)).await);
        assert!(message.contains("stalled: nothing for 0.3 s (read timeout)"), "{message}");
        assert_eq!(server.received().len(), 1);
    });
}

#[test]
fn rate_limits_and_unavailable_servers_are_retried_after_the_time_they_ask() {
    let ok = Reply::json(json!({ "choices": [{ "message": { "content": "Fine." } }] }));
    let limited =
        Reply::error(429, json!({ "error": { "message": "Slow down", "type": "requests" } }), &[("retry-after", "1")]);
    let (result, server) = ask_once(vec![limited, ok.clone()], ProviderKind::Openai, false);
    assert_eq!(result.unwrap().text.as_deref(), Some("Fine."));
    let received = server.received();
    assert_eq!(received.len(), 2);
    let waited = received[1].at - received[0].at;
    assert!(waited >= Duration::from_millis(950), "Retry-After: 1 was honoured ({waited:?})");

    let unavailable = Reply::error(503, json!({ "error": "busy" }), &[("retry-after-ms", "400")]);
    let (result, server) = ask_once(vec![unavailable, ok], ProviderKind::Openai, false);
    assert!(result.is_ok());
    let received = server.received();
    assert!(received[1].at - received[0].at >= Duration::from_millis(380));
}

#[test]
fn a_wait_the_server_asks_of_one_provider_holds_every_provider_that_shares_its_pace() {
    let ok = Reply::json(json!({ "choices": [{ "message": { "content": "Fine." } }] }));
    let limited = Reply::error(429, json!({ "error": { "message": "Slow down" } }), &[("retry-after-ms", "400")]);
    let (first, second, server) = runtime().block_on(async {
        let server = FaultServer::start(vec![limited, ok]).await;
        let pace = std::sync::Arc::new(unfold_live::shared_pace::SharedPace::default());
        let no_retries = RetryPolicy { max_retries: 0, ..quick_retries() };
        let mut refused =
            provider(profile(ProviderKind::Openai, &server, false)).with_retry(no_retries).with_pace(pace.clone());
        let mut other = provider(profile(ProviderKind::Openai, &server, false)).with_pace(pace);
        let first = ask(&mut refused).await;
        let second = ask(&mut other).await;
        (first, second, server)
    });
    assert!(first.is_err(), "the first gave up at the 429");
    assert_eq!(second.unwrap().text.as_deref(), Some("Fine."));
    let received = server.received();
    let waited = received[1].at - received[0].at;
    assert!(waited >= Duration::from_millis(380), "the other provider waited as asked of the first ({waited:?})");
}

#[test]
fn server_errors_and_lost_connections_are_retried_at_most_twice() {
    for failing in [
        Reply::error(500, json!({ "error": { "message": "boom" } }), &[]),
        Reply::error(502, json!({}), &[]),
        Reply::error(408, json!({}), &[]),
        Reply::error(
            529,
            json!({ "type": "error", "error": { "type": "overloaded_error", "message": "Overloaded" } }),
            &[],
        ),
        Reply::Hangup,
    ] {
        let (result, server) = ask_once(vec![failing.clone()], ProviderKind::Openai, true);
        let message = error_text(result);
        assert!(message.contains("gave up after 3 attempts"), "{failing:?}: {message}");
        assert_eq!(server.received().len(), 3, "{failing:?}");
    }
}

#[test]
fn client_errors_and_spent_quotas_are_never_retried() {
    let cases = [
        (400, json!({ "error": { "message": "bad request", "type": "invalid_request_error" } })),
        (
            401,
            json!({ "error": { "message": "Incorrect API key provided: sk-test-4f1e9c0d", "type": "invalid_request_error" } }),
        ),
        (403, json!({ "error": { "message": "forbidden" } })),
        (404, json!({ "error": { "message": "no such model" } })),
        (429, json!({ "error": { "message": "You exceeded your current quota", "type": "insufficient_quota" } })),
    ];
    for (status, body) in cases {
        let (result, server) =
            ask_once(vec![Reply::error(status, body, &[("retry-after", "0")])], ProviderKind::Openai, true);
        let message = error_text(result);
        assert_eq!(server.received().len(), 1, "{status}: {message}");
        assert!(message.contains(&format!("answered {status}")), "{message}");
        assert!(!message.contains(KEY), "the key is scrubbed from errors: {message}");
    }
}

#[test]
fn a_wait_longer_than_the_cap_fails_at_once() {
    let limited = Reply::error(429, json!({ "error": { "message": "Slow down" } }), &[("retry-after", "3600")]);
    let (result, server) = ask_once(vec![limited], ProviderKind::Openai, false);
    let message = error_text(result);
    assert!(message.contains("asks to wait 3600 s; this run waits at most 5 s"), "{message}");
    assert_eq!(server.received().len(), 1);
}

/// A profile whose stall detector would wait ten minutes: a connection that closes before that
/// was closed by something else (a cancel).
fn patient_profile(server: &FaultServer) -> ProviderProfile {
    ProviderProfile { read_timeout_ms: Some(600_000), ..profile(ProviderKind::Openai, server, true) }
}

/// Far below the patient profile's stall timeout, far above any pause a busy machine makes.
const HANGUP_WAIT: Duration = Duration::from_secs(60);

#[test]
fn cancel_closes_the_connection_at_once() {
    runtime().block_on(async {
        let server = FaultServer::start(vec![Reply::stalled(&[&openai_chunk(json!({ "content": "Thinking" }))])]).await;
        let cancel = CancellationToken::new();
        let mut live = provider(patient_profile(&server)).with_cancel(cancel.clone());
        let call = tokio::spawn(async move { ask(&mut live).await });
        server.wait_for_stall().await;
        cancel.cancel();
        let outcome = call.await.unwrap();
        assert!(matches!(outcome, Err(Error::Cancelled)), "{outcome:?}");
        assert!(server.wait_for_hangup(HANGUP_WAIT).await.is_some(), "the cancel closed the connection");
    });
}

#[test]
fn malformed_tool_arguments_go_back_to_the_model_and_the_run_goes_on() {
    let bad_call = openai_chunk(json!({ "tool_calls": [{ "index": 0, "id": "call_x", "type": "function",
        "function": { "name": "lookup", "arguments": "{\"id\": 7" } }] }));
    let answer = openai_chunk(json!({ "content": "Sorry, fixed." }));
    let replies = vec![Reply::stream(&[&bad_call, "data: [DONE]\n\n"]), Reply::stream(&[&answer, "data: [DONE]\n\n"])];
    let template = load_template("examples/task-executor.unfold.json");
    let (report, server) = runtime().block_on(async {
        let server = FaultServer::start(replies).await;
        let mut live = provider(profile(ProviderKind::Openai, &server, true));
        let input = asking(&template, "Find issue 7.");
        let adapter = adapter_for(AdapterKind::Dynamic);
        let report = run(&input, adapter, &mut live, &mut ScriptedToolResults::default(), &mut |_| {}).await.unwrap();
        (report, server)
    });
    assert_eq!(report.status, RunStatus::Completed);
    assert_eq!(report.final_text.as_deref(), Some("Sorry, fixed."));
    let failed = report
        .events
        .iter()
        .find_map(|e| match &e.kind {
            EventKind::ToolCall { success: false, result, .. } => Some(result.clone()),
            _ => None,
        })
        .expect("a failed tool call");
    assert!(failed.as_str().unwrap().contains("not valid JSON"), "{failed}");
    let second = &server.received()[1].body;
    let messages = second["messages"].as_array().unwrap();
    assert_eq!(messages[2]["tool_calls"][0]["function"]["arguments"], "{\"id\": 7", "the model's own text goes back");
    assert_eq!(messages[3]["role"], "tool");
    assert!(messages[3]["content"].as_str().unwrap().contains("not valid JSON"));
}

/// A live run of the example recorded against the fault server: lookup, then an answer that
/// echoes the key (a server may), both streamed.
fn recorded_run(template: &unfold_documents::Template) -> unfold_live::Cassette {
    let lookup = openai_chunk(json!({ "tool_calls": [{ "index": 0, "id": "call_1", "type": "function",
        "function": { "name": "lookup", "arguments": "{\"id\": 7}" } }] }));
    let answer = openai_chunk(json!({ "content": format!("Done; your key is {KEY}.") }));
    let replies = vec![Reply::stream(&[&lookup, "data: [DONE]\n\n"]), Reply::stream(&[&answer, "data: [DONE]\n\n"])];
    recorded_run_of(template, replies)
}

/// A live run of the example on the Restart adapter recorded against a server answering `replies`.
fn recorded_run_of(template: &unfold_documents::Template, replies: Vec<Reply>) -> unfold_live::Cassette {
    runtime().block_on(async {
        let server = FaultServer::start(replies).await;
        let mut live = provider(profile(ProviderKind::Openai, &server, true)).recording();
        let input = asking(template, "Find issue 7.");
        let report = unfold_live::run_live(&input, AdapterKind::Restart, &mut live, None, &mut |_| {}).await.unwrap();
        unfold_live::Cassette::record(&input, AdapterKind::Restart, &live, Default::default(), report)
    })
}

#[test]
fn a_recorded_run_replays_without_the_network_and_holds_no_key() {
    let template = load_template("examples/task-executor.unfold.json");
    let cassette = recorded_run(&template);
    assert_eq!(cassette.calls.len(), 2);
    let text = cassette.to_json();
    assert!(!text.contains(KEY), "the cassette holds no key");
    assert!(text.contains("[redacted key]"));

    let reread = unfold_live::Cassette::from_json(text.as_bytes()).unwrap();
    assert_eq!(reread, cassette, "a cassette reads back as written");
    let replayed = runtime().block_on(reread.replay(&template)).unwrap();
    assert_eq!(replayed.events, cassette.run.events, "the replay makes the recorded run's events");
    assert_eq!(replayed.final_text.as_deref(), Some("Done; your key is [redacted key]."));
}

/// The streamed answers of a run in which a hostile server hides the key from a byte-for-byte
/// redaction, piece by piece: split across two deltas of a tool call's arguments, then across two
/// deltas of the text, and JSON-escaped (`sk\u002d…`) in a third.
fn hidden_key_pieces() -> [Vec<String>; 2] {
    let (head, tail) = KEY.split_at(7);
    let arguments =
        |text: String| openai_chunk(json!({ "tool_calls": [{ "index": 0, "function": { "arguments": text } }] }));
    let escaped = openai_chunk(json!({ "content": format!(" and again {KEY}.") })).replace('-', "\\u002d");
    [
        vec![
            openai_chunk(json!({ "tool_calls": [{ "index": 0, "id": "call_1", "type": "function",
                "function": { "name": "lookup", "arguments": "" } }] })),
            arguments(format!("{{\"id\": 7, \"note\": \"{head}")),
            arguments(format!("{tail}\"}}")),
            "data: [DONE]\n\n".to_owned(),
        ],
        vec![
            openai_chunk(json!({ "content": format!("Done; your key is {head}") })),
            openai_chunk(json!({ "content": tail })),
            escaped,
            "data: [DONE]\n\n".to_owned(),
        ],
    ]
}

fn hidden_key_replies() -> Vec<Reply> {
    let streams = hidden_key_pieces();
    streams.iter().map(|pieces| Reply::stream(&pieces.iter().map(String::as_str).collect::<Vec<_>>())).collect()
}

/// No piece of the key, and no JSON escape of it, in `text`.
fn assert_holds_no_key(text: &str, what: &str) {
    let (head, tail) = KEY.split_at(7);
    for piece in [head, tail, "\\u002d"] {
        assert!(!text.contains(piece), "{what} holds {piece:?}: {text}");
    }
}

#[test]
fn a_key_split_across_deltas_or_json_escaped_reaches_no_cassette_replay_or_scenario() {
    let template = load_template("examples/task-executor.unfold.json");
    let cassette = recorded_run_of(&template, hidden_key_replies());
    let said = "Done; your key is [redacted key] and again [redacted key].";
    assert_eq!(cassette.run.final_text.as_deref(), Some(said), "the live run shows no key");
    assert_holds_no_key(&cassette.to_json(), "the cassette");

    let replayed = runtime().block_on(cassette.replay(&template)).unwrap();
    assert_eq!(replayed.events, cassette.run.events, "the replay makes the recorded run's events");
    assert_holds_no_key(&serde_json::to_string(&replayed).unwrap(), "the replay's report");

    let scenario = cassette.to_scenario(&template).unwrap();
    assert_holds_no_key(&scenario.to_json(), "the scenario");
    assert_eq!(
        serde_json::to_value(&scenario.script).unwrap(),
        json!([{ "call": "lookup", "args": { "id": 7, "note": "[redacted key]" } }, { "say": said }])
    );
}

#[test]
fn a_cassette_that_holds_a_split_key_is_never_written_and_is_redacted_with_the_key() {
    let template = load_template("examples/task-executor.unfold.json");
    let clean = recorded_run_of(&template, hidden_key_replies());
    // As an earlier version recorded it: each stream as it came (no piece is the whole key).
    let mut old = clean.clone();
    for (call, pieces) in old.calls.iter_mut().zip(hidden_key_pieces()) {
        call.framing = unfold_live::Framing::Stream;
        call.response = pieces.concat();
    }
    let folder = tempfile::tempdir().unwrap();
    let path = folder.path().join("old.cassette.json");
    let profile = profile_at(ProviderKind::Openai, "http://127.0.0.1:9/v1", true);
    let secrets = unfold_live::Secrets::of_provider(&profile, Some(&ApiKey::new(KEY)));
    let refused = old.write(&path, &secrets).unwrap_err().to_string();
    let expected =
        format!("{}: /calls/0/response: holds the API key in some form, so it is not written", path.display());
    assert_eq!(refused, expected);
    assert!(!path.exists(), "nothing is written");

    old.redact(&secrets);
    assert_holds_no_key(&old.to_json(), "the redacted cassette");
    old.write(&path, &secrets).unwrap();
    let replayed = runtime().block_on(old.replay(&template)).unwrap();
    assert_eq!(replayed.events, clean.run.events, "the redacted cassette replays the run as it was shown");
}

#[test]
fn a_replay_that_sends_another_request_fails_naming_the_first_difference() {
    let template = load_template("examples/task-executor.unfold.json");
    let cassette = recorded_run(&template);
    let mut changed = template.clone();
    changed.sections[0].template = "Complete this instead: ${objective}".into();
    let error = runtime().block_on(cassette.replay(&changed)).unwrap_err().to_string();
    assert_eq!(
        error,
        "/calls/0/request/messages/0/content: model call 1 differs from the recording: \
         recorded \"## 1 Task\\n\\nComplete the following: Refactor the authentication module\\n\\n#…\", \
         sent \"## 1 Task\\n\\nComplete this instead: Refactor the authentication module\\n\\n##…\""
    );

    let mut other_user = cassette.clone();
    other_user.calls.truncate(1);
    let error = runtime().block_on(other_user.replay(&template)).unwrap_err().to_string();
    assert_eq!(error, "/calls: the replay makes model call 2; the cassette holds 1");

    let mut longer = cassette.clone();
    longer.calls.push(longer.calls[1].clone());
    let error = runtime().block_on(longer.replay(&template)).unwrap_err().to_string();
    assert_eq!(error, "/calls: the replay ended after 2 model calls; the cassette holds 3");

    let mut other = template.clone();
    other.key = "other".into();
    let error = runtime().block_on(cassette.replay(&other)).unwrap_err().to_string();
    assert_eq!(error, "/template: the cassette was recorded on the template 'task-executor', not 'other'");
}

#[test]
fn a_recorded_run_becomes_a_scenario_the_scripted_model_replays() {
    let template = load_template("examples/task-executor.unfold.json");
    let cassette = recorded_run(&template);
    let scenario = cassette.to_scenario(&template).unwrap();
    let text = scenario.to_json();
    let reloaded = unfold_documents::Scenario::from_json(text.as_bytes()).unwrap();
    assert_eq!(reloaded.script.len(), 2);
    assert_eq!(
        serde_json::to_value(&reloaded.script).unwrap(),
        json!([
            { "call": "lookup", "args": { "id": 7 } },
            { "say": "Done; your key is [redacted key]." }
        ])
    );
    assert_eq!(
        serde_json::to_value(&reloaded.tool_results).unwrap(),
        json!({ "lookup": [{ "result": { "id": 7, "title": "Login fails" } }] })
    );
    let report = runtime()
        .block_on(unfold_engine::compare(
            Lanes::new(&template, &reloaded, &[AdapterKind::Dynamic, AdapterKind::Restart]),
            Drive::default(),
        ))
        .map(|comparison| comparison.report)
        .unwrap();
    for run in &report.runs {
        let calls: Vec<_> = run
            .events
            .iter()
            .filter_map(|e| match &e.kind {
                EventKind::ToolCall { name, args, .. } => Some((name.clone(), args.clone())),
                _ => None,
            })
            .collect();
        assert_eq!(calls, [("lookup".to_owned(), json!({ "id": 7 }))]);
        assert_eq!(run.final_text, cassette.run.final_text);
    }
}

#[test]
fn a_recorded_run_of_two_turns_becomes_a_scenario_of_two_turns() {
    let template = load_template("examples/task-executor.unfold.json");
    let call = |id: u32| {
        let call = openai_chunk(json!({ "tool_calls": [{ "index": 0, "id": format!("call_{id}"), "type": "function",
            "function": { "name": "lookup", "arguments": format!("{{\"id\": {id}}}") } }] }));
        Reply::stream(&[&call, "data: [DONE]\n\n"])
    };
    let say = |text: &str| Reply::stream(&[&openai_chunk(json!({ "content": text })), "data: [DONE]\n\n"]);
    let replies = vec![call(7), say("Issue 7 is a login bug."), call(8), say("Issue 8 is a typo.")];
    let cassette = runtime().block_on(async {
        let server = FaultServer::start(replies).await;
        let mut live = provider(profile(ProviderKind::Openai, &server, true)).recording();
        let input =
            RunInput { user_turns: vec!["Find issue 7.".into(), "Now issue 8.".into()], ..asking(&template, "") };
        let report = unfold_live::run_live(&input, AdapterKind::Dynamic, &mut live, None, &mut |_| {}).await.unwrap();
        unfold_live::Cassette::record(&input, AdapterKind::Dynamic, &live, Default::default(), report)
    });
    let scenario = cassette.to_scenario(&template).unwrap();
    let reloaded = unfold_documents::Scenario::from_json(scenario.to_json().as_bytes()).unwrap();
    assert_eq!(
        serde_json::to_value(&reloaded.turns).unwrap(),
        json!([
            { "user": "Find issue 7.", "script": [{ "call": "lookup", "args": { "id": 7 } }, { "say": "Issue 7 is a login bug." }] },
            { "user": "Now issue 8.", "script": [{ "call": "lookup", "args": { "id": 8 } }, { "say": "Issue 8 is a typo." }] }
        ])
    );
    // The scripted model replays it as the live model answered, turn by turn, under either adapter.
    let report = runtime()
        .block_on(unfold_engine::compare(
            Lanes::new(&template, &reloaded, &[AdapterKind::Dynamic, AdapterKind::Restart]),
            Drive::default(),
        ))
        .unwrap()
        .report;
    for run in &report.runs {
        let calls: Vec<_> = run
            .events
            .iter()
            .filter_map(|e| match &e.kind {
                EventKind::ToolCall { args, .. } => Some(args["id"].clone()),
                _ => None,
            })
            .collect();
        assert_eq!(calls, [json!(7), json!(8)], "{}", run.lane());
        assert_eq!(run.final_text.as_deref(), Some("Issue 8 is a typo."));
    }
}

#[test]
fn a_live_comparison_runs_each_adapter_with_a_new_provider_and_no_baseline() {
    let answer = openai_chunk(json!({ "content": "Nothing to do." }));
    let template = load_template("examples/task-executor.unfold.json");
    let scenario = unfold_test_support::scenario(json!({ "user": "Just answer.", "script": [{ "say": "unused" }] }));
    let (comparison, made, lanes, server) = runtime().block_on(async {
        let server = FaultServer::start(vec![Reply::stream(&[&answer, "data: [DONE]\n\n"])]).await;
        let mut made = 0;
        let mut providers = |_lane| {
            made += 1;
            Ok(Box::new(provider(profile(ProviderKind::Openai, &server, true))) as Box<dyn Provider + Send>)
        };
        let mut lanes = Vec::new();
        let mut observer = |progress| {
            if let unfold_engine::compare::CompareProgress::RunStarted { lane } = progress {
                lanes.push(lane);
            }
        };
        let drive = Drive {
            model: LaneModel::Live(&mut providers),
            observer: Some(&mut observer),
            keep_requests: true,
            ..Drive::default()
        };
        let adapters = [AdapterKind::Dynamic, AdapterKind::Restart];
        let comparison = unfold_engine::compare(Lanes::new(&template, &scenario, &adapters), drive).await.unwrap();
        (comparison, made, lanes, server)
    });
    assert_eq!(made, 2);
    assert_eq!(lanes, [unfold_engine::compare::Lane::DYNAMIC, unfold_engine::compare::Lane::RESTART]);
    let report = &comparison.report;
    assert!(report.baseline.is_none(), "a live comparison pays for no baseline");
    assert_eq!(report.runs.iter().map(|r| r.final_text.as_deref()).collect::<Vec<_>>(), [Some("Nothing to do."); 2]);
    assert!(report.divergences[0].first.is_none());
    let received = server.received();
    assert_eq!(received.len(), 2);
    assert_eq!(received[0].body["messages"][1], json!({ "role": "user", "content": "Just answer." }));
    let call = comparison.call(&unfold_engine::compare::Lane::RESTART, 1).unwrap();
    assert_eq!(call.response["content"], "Nothing to do.");
}

#[test]
fn streamed_text_reaches_the_sink_piece_by_piece_with_a_split_key_still_scrubbed() {
    let (head, tail) = KEY.split_at(7);
    let pieces = [
        openai_chunk(json!({ "content": "Working. " })),
        openai_chunk(json!({ "content": format!("Your key is {head}") })),
        openai_chunk(json!({ "content": format!("{tail}, and ") })),
        openai_chunk(json!({ "content": "that is all." })),
        "data: [DONE]\n\n".to_owned(),
    ];
    let reply =
        Reply::Stream { pieces: pieces.into_iter().map(|p| (Duration::from_millis(5), p)).collect(), stall: false };
    let heard = std::sync::Arc::new(std::sync::Mutex::new(Vec::<String>::new()));
    let response = runtime().block_on(async {
        let server = FaultServer::start(vec![reply]).await;
        let sink = heard.clone();
        let sink =
            unfold_live::TextSink(std::sync::Arc::new(move |text: &str| sink.lock().unwrap().push(text.to_owned())));
        ask(&mut provider(profile(ProviderKind::Openai, &server, true)).with_text_sink(sink)).await.unwrap()
    });
    let heard = heard.lock().unwrap().clone();
    assert!(heard.len() >= 3, "the text arrives in pieces: {heard:?}");
    assert_eq!(heard.concat(), "Working. Your key is [redacted key], and that is all.");
    assert_eq!(response.text.as_deref(), Some("Working. Your key is [redacted key], and that is all."));
    assert!(heard.iter().all(|piece| !piece.contains(head)), "no piece shows part of the key: {heard:?}");
}

#[test]
fn a_cancelled_live_run_ends_with_no_event_after_the_cancel() {
    let template = load_template("examples/task-executor.unfold.json");
    let (outcome, events_at_cancel, events_after, server_hung_up) = runtime().block_on(async {
        let server = FaultServer::start(vec![Reply::stalled(&[&openai_chunk(json!({ "content": "Thinking" }))])]).await;
        let cancel = CancellationToken::new();
        let mut live = provider(patient_profile(&server)).with_cancel(cancel.clone());
        let heard = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let sink = heard.clone();
        let run = tokio::spawn(async move {
            let input = asking(&template, "Go.");
            unfold_live::run_live(&input, AdapterKind::Dynamic, &mut live, None, &mut |event| {
                sink.lock().unwrap().push(event.clone());
            })
            .await
        });
        server.wait_for_stall().await;
        let at_cancel = heard.lock().unwrap().len();
        cancel.cancel();
        let outcome = run.await.unwrap();
        let hung_up = server.wait_for_hangup(HANGUP_WAIT).await.is_some();
        let after = heard.lock().unwrap().len();
        (outcome, at_cancel, after, hung_up)
    });
    assert!(matches!(outcome, Err(Error::Cancelled)), "{outcome:?}");
    assert_eq!(events_at_cancel, 1, "only run_started came before the answer");
    assert_eq!(events_after, events_at_cancel, "nothing arrives after the cancel");
    assert!(server_hung_up);
}

#[test]
fn the_log_never_holds_the_key_even_when_the_server_repeats_it() {
    let echo = json!({ "error": { "message": format!("upstream rejected key {KEY}"), "type": "server_error" } });
    let answer = openai_chunk(json!({ "content": format!("Your key {KEY} works.") }));
    let replies = vec![Reply::error(500, echo, &[]), Reply::stream(&[&answer, "data: [DONE]\n\n"])];
    // The runtime runs on this thread, so everything the call logs is in this thread's capture.
    let (response, log) = capture_log(|| ask_once(replies, ProviderKind::Openai, true).0);
    assert_eq!(response.unwrap().text.as_deref(), Some("Your key [redacted key] works."));
    assert!(log.contains("retrying") && log.contains("provider_call"), "the log is on: {log}");
    assert!(!log.contains(KEY), "the log holds the key: {log}");
}

#[test]
fn a_live_runs_measured_cache_reaches_its_events_and_its_price() {
    let whole = |usage: serde_json::Value| {
        Reply::json(json!({ "type": "message", "content": [{ "type": "text", "text": "Done." }], "usage": usage }))
    };
    let usage = json!({ "input_tokens": 40, "output_tokens": 10,
                        "cache_read_input_tokens": 1200, "cache_creation_input_tokens": 300 });
    let template = load_template("examples/task-executor.unfold.json");
    let report = runtime().block_on(async {
        let server = FaultServer::start(vec![whole(usage)]).await;
        let mut live = provider(profile(ProviderKind::Anthropic, &server, false));
        let input = asking(&template, "Find issue 7.");
        let adapter = adapter_for(AdapterKind::Dynamic);
        run(&input, adapter, &mut live, &mut ScriptedToolResults::default(), &mut |_| {}).await.unwrap()
    });
    let measured = report.events.iter().find_map(|e| match &e.kind {
        EventKind::ModelCall { prompt_tokens, measured_cache, .. } => Some((*prompt_tokens, *measured_cache)),
        _ => None,
    });
    let cache = MeasuredCache { read_tokens: 1200, write_tokens: 300, in_prompt_tokens: false };
    assert_eq!(measured, Some((40, Some(cache))), "Anthropic's input tokens, and its cache apart");
    let mut priced = report.clone();
    priced.price(&unfold_documents::prices::Prices::shipped().pricing("claude-sonnet-4-5").unwrap());
    let cost = priced.cost.unwrap();
    // Every prompt token plainly: (40 + 1,200 + 300) at $3 and 10 at $15; as measured, each at its price.
    assert!((cost.total - (1540.0 * 3.0 + 10.0 * 15.0) / 1e6).abs() < 1e-12, "{cost:?}");
    let measured = cost.measured.unwrap();
    assert!((measured.cost - (40.0 * 3.0 + 1200.0 * 0.3 + 300.0 * 3.75 + 10.0 * 15.0) / 1e6).abs() < 1e-12);
}

/// A run of `template` on the user's message `user`, with its defaults.
pub(crate) fn asking<'t>(template: &'t unfold_documents::Template, user: &str) -> RunInput<'t> {
    RunInput {
        template,
        params: Default::default(),
        user_turns: vec![user.into()],
        tool_changes: &[],
        discoveries: &[],
        limits: RunLimits::default(),
        tool_policy: unfold_engine::ToolPolicy::default(),
    }
}

/// The model's answers of a run that reads `context` and then answers, on the Anthropic wire.
fn anthropic_read_then_answer() -> Vec<Reply> {
    let read = json!({ "type": "message", "content": [
        { "type": "tool_use", "id": "toolu_1", "name": "read_section", "input": { "section_key": "context" } }
    ], "usage": { "input_tokens": 90, "output_tokens": 12 } });
    let done = json!({ "type": "message", "content": [{ "type": "text", "text": "Done." }],
                       "usage": { "input_tokens": 140, "output_tokens": 3 } });
    vec![Reply::json(read), Reply::json(done)]
}

/// A live run of the task executor under `adapter` that reads `context` and answers, on the
/// Anthropic wire against a server that refuses what the API would; it must complete. The requests
/// the server received.
fn read_then_answer_on_anthropic(adapter: AdapterKind) -> Vec<crate::fault_server::Received> {
    let template = load_template("examples/task-executor.unfold.json");
    let (report, received) = runtime().block_on(async {
        let server = FaultServer::checking(anthropic_read_then_answer(), anthropic_rules::refusal).await;
        let mut live = provider(profile(ProviderKind::Anthropic, &server, false));
        let input = asking(&template, "Refactor the authentication module.");
        let report = run(&input, adapter_for(adapter), &mut live, &mut ScriptedToolResults::default(), &mut |_| {})
            .await
            .unwrap();
        (report, server.received())
    });
    assert_eq!(report.status, RunStatus::Completed, "{:?}", report.events.last());
    received
}

/// The names of the tools `body` sends deferred.
fn deferred_names(body: &Value) -> Vec<&str> {
    let tools = body["tools"].as_array().unwrap();
    tools.iter().filter(|t| t["defer_loading"] == true).map(|t| t["name"].as_str().unwrap()).collect()
}

#[test]
fn a_deferred_run_sends_hidden_tools_deferred_and_loads_them_by_reference_on_the_anthropic_wire() {
    let received = read_then_answer_on_anthropic(AdapterKind::Deferred);
    let bodies: Vec<&Value> = received.iter().map(|r| &r.body).collect();
    assert_eq!(deferred_names(bodies[0]), ["search", "cite"]);
    assert_eq!(bodies[0]["tools"], bodies[1]["tools"], "the tool list, the start of the prompt, stays");
    let result = &bodies[1]["messages"][2]["content"][0];
    assert_eq!(result["type"], "tool_result");
    let blocks = result["content"].as_array().unwrap();
    assert_eq!(blocks[0]["type"], "text");
    assert_eq!(
        blocks[1..],
        [
            json!({ "type": "tool_reference", "tool_name": "search" }),
            json!({ "type": "tool_reference", "tool_name": "cite" })
        ]
    );
    assert!(received.iter().all(|r| r.header("anthropic-beta") == Some("advanced-tool-use-2025-11-20")));
}

#[test]
fn a_tool_addition_run_adds_tools_by_a_system_message_the_anthropic_api_takes() {
    let received = read_then_answer_on_anthropic(AdapterKind::ToolAddition);
    let bodies: Vec<&Value> = received.iter().map(|r| &r.body).collect();
    assert_eq!(bodies[0]["tools"], bodies[1]["tools"], "the tool list, the start of the prompt, stays");
    assert_eq!(deferred_names(bodies[0]), ["search", "cite"]);
    let messages = bodies[1]["messages"].as_array().unwrap();
    assert_eq!(messages[0], bodies[0]["messages"][0]);
    assert!(messages[2]["content"][0]["content"].is_string(), "the result is its text alone: {}", messages[2]);
    let added = |name: &str| json!({ "type": "tool_addition", "tool": { "type": "tool_reference", "name": name } });
    assert_eq!(messages[3], json!({ "role": "system", "content": [added("search"), added("cite")] }));
    assert_eq!(messages.len(), 4);
    assert!(received.iter().all(|r| r.header("anthropic-beta") == Some("mid-conversation-tool-changes-2026-07-01")));
}

#[test]
fn an_allowed_tools_run_sends_every_tool_and_the_callable_subset_on_the_openai_wire() {
    let read = json!({ "choices": [{ "message": { "role": "assistant", "content": null, "tool_calls": [
        { "id": "call_1", "type": "function", "function": { "name": "read_section", "arguments": "{\"section_key\":\"context\"}" } }
    ] } }] });
    let done = json!({ "choices": [{ "message": { "role": "assistant", "content": "Done." } }] });
    let template = load_template("examples/task-executor.unfold.json");
    let received = runtime().block_on(async {
        let server = FaultServer::start(vec![Reply::json(read), Reply::json(done)]).await;
        let mut live = provider(profile(ProviderKind::Openai, &server, false));
        let input = asking(&template, "Refactor the authentication module.");
        let adapter = adapter_for(AdapterKind::AllowedTools);
        run(&input, adapter, &mut live, &mut ScriptedToolResults::default(), &mut |_| {}).await.unwrap();
        server.received()
    });
    let bodies: Vec<Value> = received.iter().map(|r| r.body.clone()).collect();
    let allowed = |body: &Value| -> Vec<String> {
        let tools = body["tool_choice"]["allowed_tools"]["tools"].as_array().unwrap();
        tools.iter().map(|t| t["function"]["name"].as_str().unwrap().to_owned()).collect()
    };
    assert_eq!(allowed(&bodies[0]), ["lookup", "read_section"]);
    assert_eq!(allowed(&bodies[1]), ["lookup", "search", "cite", "read_section"]);
    assert_eq!(bodies[0]["tools"], bodies[1]["tools"]);
    assert_eq!(bodies[0]["tools"].as_array().unwrap().len(), 4);
}

#[test]
fn an_api_that_cannot_send_hidden_tools_that_way_refuses_the_adapter_before_any_call() {
    let template = load_template("examples/task-executor.unfold.json");
    for (kind, adapter, needs) in [
        (ProviderKind::Openai, AdapterKind::Deferred, "it needs an anthropic or openai-responses profile"),
        (ProviderKind::Openai, AdapterKind::ToolAddition, "it needs an anthropic profile"),
        (ProviderKind::OpenaiResponses, AdapterKind::ToolAddition, "it needs an anthropic profile"),
        (ProviderKind::Anthropic, AdapterKind::AllowedTools, "it needs an openai or openai-responses profile"),
    ] {
        let (outcome, received) = runtime().block_on(async {
            let server = FaultServer::start(Vec::new()).await;
            let mut live = provider(profile(kind, &server, false));
            let input = asking(&template, "Hello.");
            let outcome =
                run(&input, adapter_for(adapter), &mut live, &mut ScriptedToolResults::default(), &mut |_| {}).await;
            (outcome, server.received())
        });
        let message = outcome.unwrap_err().to_string();
        assert!(message.contains(&format!("the {} adapter cannot run on this model", adapter.name())), "{message}");
        assert!(message.contains("profile 'local'") && message.contains(needs), "{message}");
        assert!(received.is_empty(), "nothing was sent");
    }
}

/// A password in a profile's base URL, which HTTP Basic sends.
const PASSWORD: &str = "pw-7f3a9c2e";

fn with_password(base_url: &str) -> String {
    base_url.replacen("http://", &format!("http://proxy:{PASSWORD}@"), 1)
}

#[test]
fn a_password_in_the_base_url_is_sent_but_never_shown_logged_or_recorded() {
    use base64::Engine;
    let basic = format!("Basic {}", base64::engine::general_purpose::STANDARD.encode(format!("proxy:{PASSWORD}")));
    let echo = json!({ "error": { "message": format!("{basic} may not use this model"), "type": "server_error" } });
    let answer = openai_chunk(json!({ "content": format!("The proxy's password is {PASSWORD}.") }));
    let replies = vec![Reply::error(500, echo, &[]), Reply::stream(&[&answer, "data: [DONE]\n\n"])];
    let ((response, received, recorded, shown), log) = capture_log(|| {
        runtime().block_on(async {
            let server = FaultServer::start(replies).await;
            let profile = profile_at(ProviderKind::Openai, &with_password(&server.base_url), true);
            let mut provider = HttpProvider::new(profile, None).unwrap().with_retry(quick_retries()).recording();
            let response = ask(&mut provider).await.unwrap();
            let recorded = serde_json::to_string(provider.recorded_calls()).unwrap();
            (response, server.received(), recorded, format!("{provider:?}"))
        })
    });
    assert_eq!(received[0].header("authorization"), Some(basic.as_str()), "the password is sent");
    assert_eq!(response.text.as_deref(), Some("The proxy's password is [redacted password]."));
    assert!(log.contains("retrying: http://***@127.0.0.1:"), "the log shows where it was sent: {log}");
    for (what, text) in [("the log", &log), ("the recording", &recorded), ("the provider's Debug", &shown)] {
        assert!(!text.contains(PASSWORD) && !text.contains(&basic[6..]), "{what} holds the password: {text}");
    }
}

#[test]
fn an_unreachable_server_is_named_without_its_password() {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let profile = profile_at(ProviderKind::Openai, &with_password(&format!("http://127.0.0.1:{port}/v1")), true);
    let failed = runtime().block_on(ask(&mut HttpProvider::new(profile, None).unwrap().with_retry(quick_retries())));
    let message = error_text(failed);
    let shown = format!("cannot reach http://***@127.0.0.1:{port}/v1/chat/completions: ");
    assert!(message.starts_with(&shown), "{message}");
    assert!(!message.contains(PASSWORD), "{message}");
}

/// The provider error of a call that must fail; a huge answer it gave instead is told by its size.
fn refusal(result: unfold_documents::Result<ModelResponse>) -> String {
    match result {
        Err(Error::Provider(message)) => message,
        Ok(answer) => panic!("the call succeeded with {} bytes of text", answer.text.map_or(0, |t| t.len())),
        Err(other) => panic!("expected a provider error, got {other}"),
    }
}

/// One streamed call answered by `reply`, with no key (so nothing to scrub in what it sends).
fn ask_keyless(reply: Reply, kind: ProviderKind) -> unfold_documents::Result<ModelResponse> {
    runtime().block_on(async {
        let server = FaultServer::start(vec![reply]).await;
        ask(&mut HttpProvider::new(profile(kind, &server, true), None).unwrap()).await
    })
}

/// 17 pieces of 1 MiB: one more than a streamed answer may hold.
fn seventeen_mib(piece: impl Fn(String) -> String) -> Vec<String> {
    (0..17).map(|_| piece("x".repeat(1 << 20))).chain(["data: [DONE]\n\n".to_owned()]).collect()
}

#[test]
fn a_streamed_answer_larger_than_16_mib_fails_the_call_as_a_whole_one_does() {
    let text = seventeen_mib(|text| openai_chunk(json!({ "content": text })));
    let mut arguments = vec![openai_chunk(json!({ "tool_calls": [{ "index": 0, "id": "call_1", "type": "function",
        "function": { "name": "lookup", "arguments": "{\"note\": \"" } }] }))];
    arguments.extend(seventeen_mib(|text| {
        openai_chunk(json!({ "tool_calls": [{ "index": 0, "function": { "arguments": text } }] }))
    }));
    let events = seventeen_mib(|text| {
        let delta =
            json!({ "type": "content_block_delta", "index": 0, "delta": { "type": "text_delta", "text": text } });
        anthropic_event("content_block_delta", delta)
    });
    let start = anthropic_event(
        "content_block_start",
        json!({ "type": "content_block_start", "index": 0,
        "content_block": { "type": "text", "text": "" } }),
    );
    let anthropic: Vec<String> = std::iter::once(start).chain(events).collect();
    for (kind, stream) in
        [(ProviderKind::Openai, text), (ProviderKind::Openai, arguments), (ProviderKind::Anthropic, anthropic)]
    {
        let pieces: Vec<&str> = stream.iter().map(String::as_str).collect();
        let message = refusal(ask_keyless(Reply::stream(&pieces), kind));
        assert!(message.contains("an answer larger than 16 MiB"), "{kind:?}: {}", &message[..message.len().min(400)]);
        assert!(message.len() < 1000, "the message quotes none of it: {} bytes", message.len());
    }
}

#[test]
fn a_stream_event_that_never_ends_fails_the_call_once_past_16_mib() {
    let endless = format!("data: {{\"choices\": [{{\"delta\": {{\"content\": \"{}", "x".repeat(17 << 20));
    let message = refusal(ask_keyless(Reply::stream(&[&endless]), ProviderKind::Openai));
    assert!(message.contains("an event larger than 16 MiB"), "{}", &message[..message.len().min(400)]);
}

#[test]
fn a_recording_keeps_a_stream_too_large_to_keep_as_its_answer_whole() {
    // Small deltas padded with what no answer reads: 17 MiB on the wire for a few words.
    let padded = |text: &str| {
        format!(
            "data: {}\n\n",
            json!({ "padding": "x".repeat(1 << 20), "choices": [{ "index": 0, "delta": { "content": text } }] })
        )
    };
    let stream: Vec<String> =
        (0..17).map(|i| padded(&format!("word{i} "))).chain(["data: [DONE]\n\n".to_owned()]).collect();
    let pieces: Vec<&str> = stream.iter().map(String::as_str).collect();
    let template = load_template("examples/task-executor.unfold.json");
    let cassette = recorded_run_of(&template, vec![Reply::stream(&pieces)]);
    assert_eq!(cassette.calls[0].framing, unfold_live::Framing::Whole);
    let text = cassette.to_json();
    assert!(text.len() < 1 << 20, "the cassette keeps the answer, not the wire: {} bytes", text.len());
    let replayed = runtime().block_on(unfold_live::Cassette::from_json(text.as_bytes()).unwrap().replay(&template));
    assert_eq!(replayed.unwrap().final_text, cassette.run.final_text);
}

/// An answer cut at the output limit, as each API says so, whole and streamed.
fn cut_answers() -> Vec<(ProviderKind, bool, Reply)> {
    let said = "The login fails be";
    let usage = json!({ "prompt_tokens": 12, "completion_tokens": 64 });
    let anthropic_usage = json!({ "input_tokens": 12, "output_tokens": 64 });
    let responses_whole = json!({ "id": "resp_1", "object": "response", "status": "incomplete",
        "incomplete_details": { "reason": "max_output_tokens" },
        "output": [{ "type": "message", "role": "assistant", "content": [{ "type": "output_text", "text": said }] }],
        "usage": { "input_tokens": 12, "output_tokens": 64 } });
    let openai_end = format!(
        "data: {}\n\n",
        json!({ "choices": [{ "index": 0, "delta": {}, "finish_reason": "length" }], "usage": usage })
    );
    let responses_delta = json!({ "type": "response.output_text.delta", "delta": said });
    let responses_end = json!({ "type": "response.incomplete", "response": responses_whole });
    vec![
        (
            ProviderKind::Openai,
            false,
            Reply::json(json!({ "choices": [{ "index": 0, "message": { "role": "assistant", "content": said },
                "finish_reason": "length" }], "usage": usage })),
        ),
        (
            ProviderKind::Openai,
            true,
            Reply::stream(&[&openai_chunk(json!({ "content": said })), &openai_end, "data: [DONE]\n\n"]),
        ),
        (
            ProviderKind::Anthropic,
            false,
            Reply::json(json!({ "type": "message", "content": [{ "type": "text", "text": said }],
                "stop_reason": "max_tokens", "usage": anthropic_usage })),
        ),
        (
            ProviderKind::Anthropic,
            true,
            Reply::stream(&[
                &anthropic_event(
                    "message_start",
                    json!({ "type": "message_start", "message": { "usage": anthropic_usage } }),
                ),
                &anthropic_event(
                    "content_block_start",
                    json!({ "type": "content_block_start", "index": 0,
                    "content_block": { "type": "text", "text": "" } }),
                ),
                &anthropic_event(
                    "content_block_delta",
                    json!({ "type": "content_block_delta", "index": 0,
                    "delta": { "type": "text_delta", "text": said } }),
                ),
                &anthropic_event(
                    "message_delta",
                    json!({ "type": "message_delta",
                    "delta": { "stop_reason": "max_tokens", "stop_sequence": null }, "usage": { "output_tokens": 64 } }),
                ),
                &anthropic_event("message_stop", json!({ "type": "message_stop" })),
            ]),
        ),
        (ProviderKind::OpenaiResponses, false, Reply::json(responses_whole.clone())),
        (
            ProviderKind::OpenaiResponses,
            true,
            Reply::stream(&[
                &format!("event: response.output_text.delta\ndata: {responses_delta}\n\n"),
                &format!("event: response.incomplete\ndata: {responses_end}\n\n"),
            ]),
        ),
    ]
}

#[test]
fn an_answer_cut_at_the_output_limit_ends_a_live_run_as_max_tokens_in_every_api() {
    let template = load_template("examples/task-executor.unfold.json");
    for (kind, stream, reply) in cut_answers() {
        let report = runtime().block_on(async {
            let server = FaultServer::start(vec![reply]).await;
            let mut live = provider(profile(kind, &server, stream));
            let input = asking(&template, "Find issue 7.");
            let adapter = adapter_for(AdapterKind::Dynamic);
            run(&input, adapter, &mut live, &mut ScriptedToolResults::default(), &mut |_| {}).await.unwrap()
        });
        let case = format!("{kind:?}, streamed: {stream}");
        assert_eq!(report.status, RunStatus::MaxTokens, "{case}");
        assert_eq!(report.final_text.as_deref(), Some("The login fails be"), "{case}");
    }
}

#[test]
fn an_answer_that_ends_on_its_own_is_not_cut() {
    for (kind, stream, reply) in [
        (
            ProviderKind::Openai,
            true,
            Reply::stream(&openai_tool_stream().iter().map(String::as_str).collect::<Vec<_>>()),
        ),
        (
            ProviderKind::Anthropic,
            false,
            Reply::json(json!({ "type": "message", "content": [{ "type": "text", "text": "Done." }],
                "stop_reason": "end_turn" })),
        ),
    ] {
        let (result, _server) = ask_once(vec![reply], kind, stream);
        assert!(!result.unwrap().cut_at_limit, "{kind:?}");
    }
}
