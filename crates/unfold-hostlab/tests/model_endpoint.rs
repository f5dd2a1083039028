//! The scripted model endpoint over real sockets: Unfold's own live provider as the host in every
//! API it speaks, streamed and whole; Gemini's paths; every request logged without a key; and the
//! refusals a hostile neighbour meets, each in the API's error shape; silent connections and
//! oversized bodies never keep a host from its answer.

use serde_json::{json, Value};
use unfold_documents::provider_profile::{ProviderKind, ProviderProfile};
use unfold_documents::tool::OfferedTool;
use unfold_documents::Scenario;
use unfold_engine::{Message, ModelRequest, Provider};
use unfold_hostlab::model_endpoint::RunningEndpoint;
use unfold_hostlab::MessageLog;
use unfold_hostlab::ServerBounds;
use unfold_live::{ApiKey, HttpProvider};
use unfold_test_support::repo;

use crate::slow_clients::{closed_by_server, short_bounds, trickled};

const KEY: &str = "sk-endpoint-canary-31d9";

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap()
}

fn scenario() -> Scenario {
    Scenario::load(&repo("examples/read-context-then-search.scenario.json")).unwrap()
}

fn profile(kind: ProviderKind, address: std::net::SocketAddr, stream: bool) -> ProviderProfile {
    ProviderProfile {
        name: "endpoint".into(),
        kind,
        base_url: format!("http://{address}/v1"),
        model: "scripted".into(),
        temperature: None,
        max_tokens: Some(256),
        stream,
        connect_timeout_ms: Some(2_000),
        read_timeout_ms: Some(5_000),
        api_key_env: None,
        api_key_keychain: false,
        dynamic_tools: true,
    }
}

fn tools() -> Vec<OfferedTool> {
    ["lookup", "read_section"]
        .into_iter()
        .map(|name| OfferedTool {
            name: name.into(),
            description: format!("The {name} tool."),
            parameters: json!({ "type": "object" }),
        })
        .collect()
}

#[test]
fn the_live_provider_gets_the_scripts_first_call_in_every_api_streamed_and_whole() {
    for kind in [ProviderKind::Openai, ProviderKind::OpenaiResponses, ProviderKind::Anthropic] {
        for stream in [true, false] {
            let folder = tempfile::tempdir().unwrap();
            let log_path = folder.path().join("requests.jsonl");
            let answer = runtime().block_on(async {
                let log = MessageLog::create(&log_path).unwrap();
                let endpoint =
                    RunningEndpoint::start(&scenario(), 0, Some(log.clone()), ServerBounds::default()).await.unwrap();
                let mut provider =
                    HttpProvider::new(profile(kind, endpoint.address, stream), Some(ApiKey::new(KEY))).unwrap();
                let messages = [Message::User { content: "Refactor the authentication module.".into() }];
                let tools = tools();
                let request = ModelRequest {
                    system: "You help.",
                    messages: &messages,
                    tools: &tools,
                    summarized: &[],
                    gate: Default::default(),
                };
                let answer = provider.complete(&request).await;
                endpoint.shutdown().await;
                log.finish();
                answer
            });
            let answer = answer.unwrap_or_else(|e| panic!("{kind:?} stream {stream}: {e}"));
            assert_eq!(answer.tool_calls.len(), 1, "{kind:?} stream {stream}: {answer:?}");
            assert_eq!(answer.tool_calls[0].name, "read_section");
            assert_eq!(answer.tool_calls[0].arguments, json!({ "section_key": "context" }));
            assert!(answer.usage.is_some_and(|u| u.prompt_tokens > 0), "{kind:?}: a usage");
            let logged = std::fs::read_to_string(&log_path).unwrap();
            assert!(!logged.contains(KEY), "no key is recorded");
            let entry: Value = serde_json::from_str(logged.lines().next().unwrap()).unwrap();
            assert_eq!((entry["side"].clone(), entry["stream"].clone()), (json!(false), json!(stream)));
            assert_eq!(entry["request"]["model"], "scripted", "the request as it came");
            assert!(entry["busy_us"].as_u64().is_some_and(|us| us < 5_000_000), "how long it took: {entry}");
        }
    }
}

/// `POST path` with `body` and the `host` header; the status and the answer's text.
async fn post(address: std::net::SocketAddr, path: &str, host: &str, body: &str) -> (u16, String) {
    let client = reqwest::Client::new();
    let response = client
        .post(format!("http://{address}{path}"))
        .header("host", host)
        .header("content-type", "application/json")
        .body(body.to_owned())
        .send()
        .await
        .unwrap();
    (response.status().as_u16(), response.text().await.unwrap())
}

fn json_of(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

#[test]
fn gemini_is_answered_on_its_paths_and_refusals_come_in_each_apis_error_shape() {
    runtime().block_on(async {
        let endpoint = RunningEndpoint::start(&scenario(), 0, None, ServerBounds::default()).await.unwrap();
        let address = endpoint.address;
        let gemini = json!({ "contents": [{ "role": "user", "parts": [{ "text": "Go." }] }],
                             "tools": [{ "functionDeclarations": [{ "name": "read_section", "description": "Read." }] }] })
        .to_string();
        let (status, text) = post(address, "/v1beta/models/gemini-test:generateContent", "127.0.0.1", &gemini).await;
        assert_eq!(status, 200, "{text}");
        assert_eq!(json_of(&text)["candidates"][0]["content"]["parts"][0]["functionCall"]["name"], "read_section");
        let path = "/v1beta/models/gemini-test:streamGenerateContent?alt=sse";
        let (status, text) = post(address, path, "localhost", &gemini).await;
        assert_eq!(status, 200);
        assert!(text.starts_with("data: {"), "{text}");

        // A page served from a name pointed at 127.0.0.1 (DNS rebinding) is refused, in each API's words.
        let (status, text) = post(address, "/v1/messages", "rebind.evil.example", "{}").await;
        assert_eq!(status, 403);
        assert_eq!(json_of(&text)["type"], "error", "Anthropic's shape");
        let (status, text) = post(address, "/v1/chat/completions", "rebind.evil.example", "{}").await;
        assert_eq!(status, 403);
        assert!(json_of(&text)["error"]["message"].is_string(), "OpenAI's shape");
        let (status, text) = post(address, "/v1/chat/completions", "127.0.0.1", "not json").await;
        assert_eq!(status, 400);
        assert!(text.contains("the body is not JSON"), "{text}");
        let (status, text) = post(address, "/v1beta/models/x:generateContent", "127.0.0.1", "[1]").await;
        assert_eq!(status, 400);
        assert_eq!(json_of(&text)["error"]["status"], "INVALID_ARGUMENT");
        endpoint.shutdown().await;
    });
}

#[test]
fn connections_that_say_nothing_and_bodies_past_the_bound_never_keep_a_host_from_its_answer() {
    use tokio::io::AsyncWriteExt;
    let answered = runtime().block_on(async {
        let endpoint = RunningEndpoint::start(&scenario(), 0, None, ServerBounds::default()).await.unwrap();
        let address = endpoint.address;
        // More silent connections than the endpoint holds: the oldest are closed to make room.
        let mut silent = Vec::new();
        for _ in 0..80 {
            silent.push(tokio::net::TcpStream::connect(address).await.unwrap());
        }
        assert!(closed_by_server(&mut silent[0]).await, "the oldest silent connection is closed");

        // A body announced past 32 MiB is refused before it is read, in the API's shape.
        let mut huge = tokio::net::TcpStream::connect(address).await.unwrap();
        let head = "POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
                    Content-Length: 40000000\r\nConnection: close\r\n\r\n{";
        huge.write_all(head.as_bytes()).await.unwrap();
        let mut answer = Vec::new();
        let reading = tokio::io::AsyncReadExt::read_to_end(&mut huge, &mut answer);
        tokio::time::timeout(std::time::Duration::from_secs(20), reading).await.expect("refused in time").unwrap();
        let answer = String::from_utf8_lossy(&answer).into_owned();
        assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
        assert!(answer.contains(r#""type":"invalid_request_error""#), "OpenAI's shape: {answer}");

        // Meanwhile a host's request is answered as the script says.
        let body = json!({ "model": "m", "messages": [{ "role": "user", "content": "Go." }],
                           "tools": [{ "type": "function", "function": { "name": "read_section" } }] });
        let (status, text) = post(address, "/v1/chat/completions", "127.0.0.1", &body.to_string()).await;
        endpoint.shutdown().await;
        (status, text)
    });
    assert_eq!(answered.0, 200, "{}", answered.1);
    assert_eq!(json_of(&answered.1)["choices"][0]["message"]["tool_calls"][0]["function"]["name"], "read_section");
}

#[test]
fn half_sent_headers_are_closed_and_a_trickled_body_is_refused_while_a_host_is_answered() {
    use tokio::io::AsyncWriteExt;
    runtime().block_on(async {
        let endpoint = RunningEndpoint::start(&scenario(), 0, None, short_bounds()).await.unwrap();
        let address = endpoint.address;
        let mut half = tokio::net::TcpStream::connect(address).await.unwrap();
        half.write_all(b"POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\n").await.unwrap();

        let body = json!({ "model": "m", "messages": [{ "role": "user", "content": "Go." }],
                           "tools": [{ "type": "function", "function": { "name": "read_section" } }] })
        .to_string();
        let trickling = trickled(address, "/v1/chat/completions", &body);
        let host = post(address, "/v1/chat/completions", "127.0.0.1", &body);
        let ((sent_whole, trickle_answer), (status, text)) = tokio::join!(trickling, host);
        assert!(!sent_whole, "the endpoint waited for a body sent slower than its bound");
        assert!(trickle_answer.starts_with("HTTP/1.1 408"), "{trickle_answer}");
        assert!(trickle_answer.contains(r#""type":"invalid_request_error""#), "OpenAI's shape: {trickle_answer}");
        assert_eq!(status, 200, "the host was answered meanwhile: {text}");
        assert!(closed_by_server(&mut half).await, "headers never finished are closed");
        endpoint.shutdown().await;
    });
}

#[test]
fn a_forks_recorded_answers_come_first_under_the_hosts_names_and_side_requests_leave_them_be() {
    use unfold_engine::{ModelResponse, ToolCall};
    use unfold_hostlab::model_endpoint::Answering;
    let folder = tempfile::tempdir().unwrap();
    let log_path = folder.path().join("requests.jsonl");
    let recorded = ModelResponse {
        text: Some("Looking it up.".into()),
        tool_calls: vec![ToolCall { id: "call_9".into(), name: "lookup".into(), arguments: json!({ "id": 7 }) }],
        ..ModelResponse::default()
    };
    let named = |tools: &[&str]| -> Vec<Value> {
        tools.iter().map(|name| json!({ "type": "function", "function": { "name": name, "parameters": {} } })).collect()
    };
    let chat = |tools: Vec<Value>| {
        json!({ "model": "m", "messages": [{ "role": "user", "content": "Refactor it." }], "tools": tools }).to_string()
    };
    let calls = |answer: &Value| -> Vec<(Value, Value)> {
        let calls = answer["choices"][0]["message"]["tool_calls"].as_array().cloned().unwrap_or_default();
        calls.iter().map(|call| (call["id"].clone(), call["function"]["name"].clone())).collect()
    };
    let answers = runtime().block_on(async {
        let log = MessageLog::create(&log_path).unwrap();
        let answering = Answering::script(&scenario()).after(vec![recorded]);
        let endpoint = RunningEndpoint::serve(answering, 0, Some(log.clone()), ServerBounds::default()).await.unwrap();
        let host_tools = named(&["mcp__unfold__lookup", "mcp__unfold__read_section"]);
        let mut answers = Vec::new();
        for body in [chat(Vec::new()), chat(host_tools.clone()), chat(host_tools)] {
            let (status, text) = post(endpoint.address, "/v1/chat/completions", "127.0.0.1", &body).await;
            assert_eq!(status, 200, "{text}");
            answers.push(json_of(&text));
        }
        endpoint.shutdown().await;
        log.finish();
        answers
    });
    // The side request (no tools) gets a side answer; the first request of the conversation the
    // recorded one, its call under the host's name; the next, the script's first step.
    assert!(calls(&answers[0]).is_empty(), "{}", answers[0]);
    assert_eq!(calls(&answers[1]), [(json!("call_9"), json!("mcp__unfold__lookup"))]);
    assert_eq!(answers[1]["choices"][0]["message"]["content"], "Looking it up.");
    assert_eq!(calls(&answers[2])[0].1, "mcp__unfold__read_section", "{}", answers[2]);
    let logged: Vec<Value> =
        std::fs::read_to_string(&log_path).unwrap().lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    let replayed: Vec<&Value> = logged.iter().map(|entry| &entry["replayed"]).collect();
    assert_eq!(replayed, [&Value::Null, &json!(true), &Value::Null]);
}
