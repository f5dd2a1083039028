//! A plugin's or a watcher's side of the relay, as a real client: reqwest over a socket, and a
//! server-sent events reader over the stream's bytes as they arrive.

use std::net::SocketAddr;
use std::time::Duration;

use reqwest::StatusCode;
use serde_json::Value;
use unfold_relay::sse::SseReader;

/// How long a test waits for an event before it fails (never reached when the relay works).
const EVENT_WAIT: Duration = Duration::from_secs(20);

#[derive(Clone)]
pub struct Client {
    http: reqwest::Client,
    base: String,
}

#[derive(Clone, Debug)]
pub struct Session {
    pub code: String,
    pub token: String,
}

impl Client {
    pub fn new(address: SocketAddr) -> Client {
        Client { http: reqwest::Client::new(), base: format!("http://{address}/api/sessions") }
    }

    pub async fn create_session(&self) -> Session {
        let (session, ttl) = self.create_session_with(serde_json::json!({})).await;
        assert_eq!(ttl, 3600);
        session
    }

    /// A session made with `body` (`{"ttl": seconds}`), and its ttl as answered.
    pub async fn create_session_with(&self, body: Value) -> (Session, u64) {
        let response = self.http.post(&self.base).json(&body).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::CREATED);
        let body: Value = response.json().await.unwrap();
        let session = Session {
            code: body["code"].as_str().unwrap().to_owned(),
            token: body["token"].as_str().unwrap().to_owned(),
        };
        (session, body["ttl"].as_u64().unwrap())
    }

    pub fn url(&self, session: &Session, route: &str) -> String {
        format!("{}/{}/{route}", self.base, session.code)
    }

    /// POSTs `body` to the session's `route` with its token.
    pub async fn post(&self, session: &Session, route: &str, body: Value) -> (StatusCode, Value) {
        let request = self.http.post(self.url(session, route)).bearer_auth(&session.token).json(&body);
        answer(request.send().await.unwrap()).await
    }

    /// GETs the session's `route` with its token.
    pub async fn get(&self, session: &Session, route: &str) -> (StatusCode, Value) {
        answer(self.http.get(self.url(session, route)).bearer_auth(&session.token).send().await.unwrap()).await
    }

    /// Sends `request` as it is (for the refusals: no token, a wrong one, a raw body).
    pub async fn send(&self, request: reqwest::RequestBuilder) -> (StatusCode, Value, Option<String>) {
        let response = request.send().await.unwrap();
        let retry_after = response.headers().get("retry-after").map(|v| v.to_str().unwrap().to_owned());
        let (status, body) = answer(response).await;
        (status, body, retry_after)
    }

    pub fn http(&self) -> &reqwest::Client {
        &self.http
    }
}

async fn answer(response: reqwest::Response) -> (StatusCode, Value) {
    let status = response.status();
    let text = response.text().await.unwrap();
    (status, serde_json::from_str(&text).unwrap_or(Value::String(text)))
}

/// A session's event stream, read as it arrives.
pub struct EventReader {
    response: reqwest::Response,
    reader: SseReader,
    events: std::collections::VecDeque<(String, Value)>,
}

impl EventReader {
    pub async fn open(client: &Client, session: &Session) -> EventReader {
        EventReader::open_route(client, session, "stream").await
    }

    /// A watcher's stream (`?watch=true`): it hears every event but does not stand for the plugin.
    pub async fn watch(client: &Client, session: &Session) -> EventReader {
        EventReader::open_route(client, session, "stream?watch=true").await
    }

    async fn open_route(client: &Client, session: &Session, route: &str) -> EventReader {
        let response = client.http.get(client.url(session, route)).bearer_auth(&session.token).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(response.headers()["content-type"], "text/event-stream");
        EventReader { response, reader: SseReader::default(), events: Default::default() }
    }

    /// The next `count` events other than heartbeats, each as its name and JSON data.
    pub async fn next_events(&mut self, count: usize) -> Vec<(String, Value)> {
        while self.events.len() < count {
            let chunk = tokio::time::timeout(EVENT_WAIT, self.response.chunk()).await.expect("an event in time");
            let chunk = chunk.unwrap().expect("the stream stays open");
            self.events.extend(self.reader.push(&chunk).into_iter().filter(|(name, _)| name != "heartbeat"));
        }
        self.events.drain(..count).collect()
    }
}
