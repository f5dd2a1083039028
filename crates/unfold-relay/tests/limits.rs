//! Every refusal of spec 9 with its status and a message that names the field or the limit, and
//! clients that misbehave never holding up another.

use std::time::Duration;

use reqwest::StatusCode;
use serde_json::{json, Value};
use tokio::io::AsyncWriteExt;
use unfold_relay::{RelayLimits, RunningRelay};

use crate::client::{Client, EventReader, Session};

fn tools(count: usize) -> Vec<Value> {
    (0..count)
        .map(|i| json!({ "name": format!("t{i}"), "description": "", "parameters": { "type": "object" } }))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_missing_or_wrong_token_is_401_and_says_nothing_of_the_session() {
    let relay = RunningRelay::start(0, RelayLimits::default()).await.unwrap();
    let client = Client::new(relay.address);
    let session = client.create_session().await;
    let url = client.url(&session, "metadata");
    let (missing, body, _) = client.send(client.http().get(&url)).await;
    let (wrong, wrong_body, _) = client.send(client.http().get(&url).bearer_auth("not-the-token")).await;
    let other = client.create_session().await;
    let (borrowed, borrowed_body, _) = client.send(client.http().get(&url).bearer_auth(&other.token)).await;
    assert_eq!(
        (missing, wrong, borrowed),
        (StatusCode::UNAUTHORIZED, StatusCode::UNAUTHORIZED, StatusCode::UNAUTHORIZED)
    );
    assert_eq!(
        body,
        json!({ "error": "unauthorized", "message": "this session needs its token: Authorization: Bearer <token>" })
    );
    assert_eq!((&wrong_body, &borrowed_body), (&body, &body), "the same answer, whatever the token");
    // An unknown code is answered as a wrong token is: the answer never tells whether a code exists.
    let unknown = Session { code: "AAAAAAAA".to_owned(), token: session.token.clone() };
    let (status, unknown_body) = client.get(&unknown, "metadata").await;
    assert_eq!((status, &unknown_body), (StatusCode::UNAUTHORIZED, &body));
    relay.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_unused_for_its_ttl_is_410() {
    let relay = RunningRelay::start(0, RelayLimits::default()).await.unwrap();
    let client = Client::new(relay.address);
    let (session, ttl) = client.create_session_with(json!({ "ttl": 1 })).await;
    assert_eq!(ttl, 1);
    // Only ever later than the ttl: being slow cannot make this pass or fail otherwise.
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let (status, body) = client.get(&session, "metadata").await;
    assert_eq!((status, &body["error"]), (StatusCode::GONE, &json!("session_expired")));
    relay.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_bodies_are_400_413_or_422_naming_the_field_or_the_limit() {
    let relay = RunningRelay::start(0, RelayLimits::default()).await.unwrap();
    let client = Client::new(relay.address);
    let session = client.create_session().await;
    let raw = |route: &str, body: String| {
        client.http().post(client.url(&session, route)).bearer_auth(&session.token).body(body)
    };
    let (status, body, _) = client.send(raw("register-tools", "{\"tools\": [".to_owned())).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(body["message"].as_str().unwrap().starts_with("body: not JSON"), "{body}");
    let (status, body) = client.post(&session, "register-tools", json!({ "plugin": "x" })).await;
    assert_eq!((status, &body["message"]), (StatusCode::BAD_REQUEST, &json!("tools: missing (or availableTools)")));
    let (status, body) = client.post(&session, "update-tools", json!({ "toolUpdates": { "added": "x" } })).await;
    assert_eq!((status, &body["message"]), (StatusCode::BAD_REQUEST, &json!("toolUpdates/added: must be a list")));
    let (status, body) = client.post(&session, "response", json!({ "id": "x" })).await;
    assert_eq!((status, &body["message"]), (StatusCode::BAD_REQUEST, &json!("result or error: give exactly one")));

    let huge = format!("{{\"tools\": [], \"environment\": \"{}\"}}", "x".repeat(1024 * 1024));
    let (status, body, _) = client.send(raw("register-tools", huge)).await;
    assert_eq!((status, &body["error"]), (StatusCode::PAYLOAD_TOO_LARGE, &json!("body_too_large")));

    let (status, body) = client.post(&session, "register-tools", json!({ "tools": tools(1001) })).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(body["message"], "tools: a session holds at most 1000 tools; this would make 1001");
    let (status, _) = client.post(&session, "register-tools", json!({ "tools": tools(1000) })).await;
    assert_eq!(status, StatusCode::CREATED);
    let one_more = json!({ "toolUpdates": { "added": [{ "name": "extra", "description": "", "parameters": { "type": "object" } }] } });
    let (status, body) = client.post(&session, "update-tools", one_more).await;
    assert_eq!((status, &body["error"]), (StatusCode::UNPROCESSABLE_ENTITY, &json!("too_many_tools")));
    relay.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_eleventh_update_in_a_minute_is_429_with_retry_after() {
    let relay = RunningRelay::start(0, RelayLimits::default()).await.unwrap();
    let client = Client::new(relay.address);
    let session = client.create_session().await;
    let update = json!({ "toolUpdates": { "removed": [] } });
    for _ in 0..10 {
        assert_eq!(client.post(&session, "update-tools", update.clone()).await.0, StatusCode::OK);
    }
    let (status, body, retry_after) = client
        .send(client.http().post(client.url(&session, "update-tools")).bearer_auth(&session.token).json(&update))
        .await;
    assert_eq!((status, &body["error"]), (StatusCode::TOO_MANY_REQUESTS, &json!("rate_limited")));
    let seconds: u64 = retry_after.expect("Retry-After").parse().unwrap();
    assert!((1..=60).contains(&seconds), "{seconds}");
    let other = client.create_session().await;
    assert_eq!(client.post(&other, "update-tools", update).await.0, StatusCode::OK, "another session is not limited");
    relay.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_sends_nothing_or_never_reads_blocks_no_one() {
    let relay = RunningRelay::start(0, RelayLimits::default()).await.unwrap();
    let client = Client::new(relay.address);
    // A connection that sends half a request and stops, and a stream nobody reads.
    let mut idle = tokio::net::TcpStream::connect(relay.address).await.unwrap();
    idle.write_all(b"POST /api/sessions HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{").await.unwrap();
    let stalled = client.create_session().await;
    let _unread = EventReader::open(&client, &stalled).await;
    for _ in 0..5 {
        client.post(&stalled, "update-tools", json!({ "toolUpdates": { "added": tools(50) } })).await;
    }
    let session = client.create_session().await;
    let mut watcher = EventReader::open(&client, &session).await;
    let (status, _) = client.post(&session, "register-tools", json!({ "tools": tools(2) })).await;
    assert_eq!(status, StatusCode::CREATED);
    assert_eq!(watcher.next_events(1).await.len(), 1, "the other session's watcher hears its update");
    drop(idle);
    relay.shutdown().await;
}
