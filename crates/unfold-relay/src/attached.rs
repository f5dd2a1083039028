//! A run attached to a relay session (spec 9's last rule), over HTTP so the relay may be another
//! process (`unfold relay`) or this one (the app): the template's `{"relay": {"plugin"}}` sources
//! take the session's tools as tier 1 when its plugin is the one named, each run opens its own
//! stream and applies the session's updates before the next model call, and a call to a plugin's
//! tool goes to the plugin through the relay's `tool-calls` route. A session the user named is
//! checked before any run (`RelaySession::check`): one that cannot be attached is an error.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_trait::async_trait;
use serde_json::{json, Value};
use tokio::sync::Notify;
use unfold_documents::discovery::{Discovery, Tier};
use unfold_documents::source::ToolSource;
use unfold_documents::{Template, Tool};
use unfold_engine::tool_host::{ChangedList, HostAnswer, ToolHost, ToolSources};

use crate::sse::SseReader;

/// How long a run waits to hear, on its stream, the updates a plugin made before answering a call.
const UPDATE_WAIT: Duration = Duration::from_secs(5);

/// The session a run is attached to.
#[derive(Clone)]
pub struct RelaySession {
    /// The relay's root: `http://127.0.0.1:7391`.
    pub relay: String,
    /// The session's code.
    pub code: String,
    /// Its token (from `UNFOLD_RELAY_TOKEN`; never written anywhere).
    pub token: String,
    /// How long a call waits for the plugin.
    pub call_timeout: Duration,
}

impl std::fmt::Debug for RelaySession {
    // The token never reaches a log.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RelaySession").field("relay", &self.relay).field("code", &self.code).finish_non_exhaustive()
    }
}

impl RelaySession {
    fn url(&self, route: &str) -> String {
        format!("{}/api/sessions/{}/{route}", self.relay.trim_end_matches('/'), self.code)
    }

    /// Checks that the session can be attached: the relay answers, and takes the session with
    /// its token. For a session the user named, before any run: a run would otherwise give its
    /// relay sources their snapshots and say why only in its events. The reason names the relay
    /// and the session, never the token.
    pub async fn check(&self) -> Result<(), String> {
        metadata(&reqwest::Client::new(), self).await.map(drop)
    }

    /// Why the relay refused this session, from its answer's status and message.
    fn refusal(&self, status: reqwest::StatusCode, message: Option<&str>) -> String {
        let (relay, code) = (&self.relay, &self.code);
        match status {
            // The relay answers an unknown session as it answers a wrong token, telling nothing
            // about which sessions it holds.
            reqwest::StatusCode::UNAUTHORIZED | reqwest::StatusCode::NOT_FOUND => {
                format!("the relay at {relay} refused session {code} or its token ({status})")
            }
            reqwest::StatusCode::GONE => format!("session {code} of the relay at {relay} has expired ({status})"),
            _ => format!(
                "the relay at {relay} refused session {code}: {} ({status})",
                message.unwrap_or("no reason given")
            ),
        }
    }
}

/// The session's metadata (its plugin, tools and update count), or why it cannot be had.
async fn metadata(http: &reqwest::Client, session: &RelaySession) -> Result<Value, String> {
    let request = http.get(session.url("metadata")).bearer_auth(&session.token);
    let response = request.send().await.map_err(|e| format!("the relay at {} is not reachable: {e}", session.relay))?;
    let status = response.status();
    let body: Value = serde_json::from_str(&response.text().await.map_err(|e| e.to_string())?).unwrap_or_default();
    if !status.is_success() {
        return Err(session.refusal(status, body["message"].as_str()));
    }
    Ok(body)
}

/// The engine's tool sources for a template's relay sources: each run its own stream.
pub struct RelaySources {
    session: RelaySession,
    http: reqwest::Client,
}

impl RelaySources {
    /// Sources answered by `session`.
    pub fn new(session: RelaySession) -> RelaySources {
        RelaySources { session, http: reqwest::Client::new() }
    }
}

#[async_trait]
impl ToolSources for RelaySources {
    async fn open(&mut self, template: &Template) -> (Vec<Discovery>, Box<dyn ToolHost>) {
        let relayed: Vec<&ToolSource> = template.sources.iter().filter(|s| s.relay.is_some()).collect();
        let mut host = RelayHost::new(self.session.clone(), self.http.clone());
        if relayed.is_empty() {
            return (Vec::new(), Box::new(host));
        }
        // The stream first: an update made while the tools are read is heard, not lost.
        let watching = host.watch().await;
        let metadata = match watching {
            Ok(()) => metadata(&self.http, &self.session).await,
            Err(why) => Err(why),
        };
        if let Ok(metadata) = &metadata {
            // Updates made before the stream opened are in these tools: never wait to hear them.
            host.heard_until(metadata["updatesSeq"].as_u64().unwrap_or(0));
        }
        let discoveries = relayed
            .into_iter()
            .map(|source| {
                let plugin = source.relay.as_ref().map_or("", |relay| relay.plugin.as_str());
                match &metadata {
                    Ok(metadata) if metadata["pluginType"] == plugin => {
                        let tools = tools_of(&metadata["tools"]);
                        host.lists.insert(source.name.clone(), (plugin.to_owned(), tools.clone()));
                        Discovery { source: source.name.clone(), tier: Tier::Live, tools, error: None }
                    }
                    Ok(metadata) => {
                        let registered = metadata["pluginType"].as_str().unwrap_or("no plugin yet");
                        let why =
                            format!("session {} holds {registered}, not the plugin '{plugin}'", self.session.code);
                        with_reason(Discovery::offline(source), why)
                    }
                    Err(why) => with_reason(Discovery::offline(source), why.clone()),
                }
            })
            .collect();
        (discoveries, Box::new(host))
    }

    fn shared_between_runs(&self, template: &Template) -> bool {
        template.sources.iter().any(|source| source.relay.is_some())
    }
}

fn with_reason(mut discovery: Discovery, why: String) -> Discovery {
    discovery.error = Some(match discovery.error.take() {
        Some(earlier) => format!("{why}; {earlier}"),
        None => why,
    });
    discovery
}

fn tools_of(value: &Value) -> Vec<Tool> {
    let items = value.as_array().map(Vec::as_slice).unwrap_or_default();
    items.iter().filter_map(|tool| serde_json::from_value(tool.clone()).ok()).collect()
}

/// What a run's stream heard: the session's updates not yet applied, and how many it has heard.
#[derive(Default)]
struct Heard {
    updates: VecDeque<Value>,
    seq: u64,
    closed: Option<String>,
}

/// One run's side of the session.
struct RelayHost {
    session: RelaySession,
    http: reqwest::Client,
    /// Each relay source's plugin and its tools now, by source.
    lists: HashMap<String, (String, Vec<Tool>)>,
    heard: Arc<(Mutex<Heard>, Notify)>,
    /// The update count the relay gave with the last call's answer: heard before the next call.
    wanted_seq: u64,
    reader: Option<tokio::task::JoinHandle<()>>,
}

impl RelayHost {
    fn new(session: RelaySession, http: reqwest::Client) -> RelayHost {
        let heard = Arc::new((Mutex::new(Heard::default()), Notify::new()));
        RelayHost { session, http, lists: HashMap::new(), heard, wanted_seq: 0, reader: None }
    }

    /// Opens this run's stream and reads it in the background.
    async fn watch(&mut self) -> Result<(), String> {
        let request = self.http.get(self.session.url("stream?watch=true")).bearer_auth(&self.session.token);
        let mut response =
            request.send().await.map_err(|e| format!("the relay at {} is not reachable: {e}", self.session.relay))?;
        if !response.status().is_success() {
            return Err(self.session.refusal(response.status(), None));
        }
        let heard = Arc::clone(&self.heard);
        self.reader = Some(tokio::spawn(async move {
            let mut reader = SseReader::default();
            let why = loop {
                match response.chunk().await {
                    Ok(Some(chunk)) => {
                        for (name, data) in reader.push(&chunk) {
                            if name == "tool-availability-update" {
                                let mut state = heard.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                                state.seq = state.seq.max(data["seq"].as_u64().unwrap_or(0));
                                state.updates.push_back(data);
                                heard.1.notify_waiters();
                            }
                        }
                    }
                    Ok(None) => break "the relay closed the stream".to_owned(),
                    Err(error) => break format!("the stream failed: {error}"),
                }
            };
            heard.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner).closed = Some(why);
            heard.1.notify_waiters();
        }));
        Ok(())
    }

    /// Counts the session's updates up to `seq` as heard (the tools read already hold them).
    fn heard_until(&self, seq: u64) {
        let mut state = self.heard.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        state.seq = state.seq.max(seq);
        // An update the stream heard before the tools were read is in them too.
        state.updates.retain(|update| update["seq"].as_u64().unwrap_or(0) > seq);
    }

    /// Waits (a bounded time) until the stream has heard the updates made before the last answer.
    async fn catch_up(&self) {
        let deadline = tokio::time::Instant::now() + UPDATE_WAIT;
        loop {
            let notified = self.heard.1.notified();
            {
                let state = self.heard.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                if state.seq >= self.wanted_seq || state.closed.is_some() {
                    return;
                }
            }
            if tokio::time::timeout_at(deadline, notified).await.is_err() {
                tracing::warn!(code = %self.session.code, "a relay update did not arrive in time");
                return;
            }
        }
    }
}

impl Drop for RelayHost {
    fn drop(&mut self) {
        if let Some(reader) = self.reader.take() {
            reader.abort();
        }
    }
}

#[async_trait]
impl ToolHost for RelayHost {
    fn answers(&self, tool: &str) -> bool {
        self.lists.values().any(|(_, tools)| tools.iter().any(|t| t.name == tool))
    }

    async fn call(&mut self, tool: &str, arguments: &Value) -> HostAnswer {
        let timeout_ms = self.session.call_timeout.as_millis() as u64;
        let body = json!({ "tool": tool, "args": arguments, "timeoutMs": timeout_ms });
        let request = self
            .http
            .post(self.session.url("tool-calls"))
            .bearer_auth(&self.session.token)
            .header("content-type", "application/json")
            .body(body.to_string())
            .timeout(self.session.call_timeout + Duration::from_secs(5));
        let answer = match request.send().await {
            Ok(response) => response.text().await.map_err(|e| e.to_string()),
            Err(error) => Err(format!("the relay is not reachable: {error}")),
        };
        let answer: Value = match answer.map(|text| serde_json::from_str(&text)) {
            Ok(Ok(answer)) => answer,
            Ok(Err(error)) => return failed(format!("The relay answered outside its protocol: {error}")),
            Err(why) => return failed(format!("The relay failed: {why}")),
        };
        self.wanted_seq = self.wanted_seq.max(answer["updatesSeq"].as_u64().unwrap_or(0));
        match (answer.get("result"), answer.get("error")) {
            (Some(result), _) => HostAnswer { success: true, result: result.clone() },
            (None, Some(error)) => failed(format!("The plugin failed: {}", error.as_str().unwrap_or_default())),
            (None, None) => failed(format!(
                "The relay refused the call: {}",
                answer["message"].as_str().unwrap_or("no reason given")
            )),
        }
    }

    async fn changed_lists(&mut self, _before_model_call: u32) -> Vec<ChangedList> {
        if self.lists.is_empty() {
            return Vec::new();
        }
        self.catch_up().await;
        let updates: Vec<Value> = {
            let mut state = self.heard.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            state.updates.drain(..).collect()
        };
        let mut changed: Vec<String> = Vec::new();
        for update in &updates {
            for (source, (_, tools)) in self.lists.iter_mut() {
                apply(tools, &update["updates"]);
                if !changed.contains(source) {
                    changed.push(source.clone());
                }
            }
        }
        changed
            .into_iter()
            .filter_map(|source| {
                let tools = self.lists.get(&source)?.1.clone();
                Some(ChangedList { source, tools })
            })
            .collect()
    }

    async fn close(&mut self) {
        if let Some(reader) = self.reader.take() {
            reader.abort();
        }
    }
}

fn failed(message: String) -> HostAnswer {
    HostAnswer { success: false, result: Value::String(message) }
}

/// Applies one update (`added` and `modified` as tools, `removed` as names) to `tools`, keeping
/// their order: a modified tool stays in its place, an added one goes last.
fn apply(tools: &mut Vec<Tool>, updates: &Value) {
    let removed: Vec<&str> = updates["removed"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
    tools.retain(|tool| !removed.contains(&tool.name.as_str()));
    for tool in tools_of(&updates["modified"]).into_iter().chain(tools_of(&updates["added"])) {
        match tools.iter_mut().find(|t| t.name == tool.name) {
            Some(place) => *place = tool,
            None => tools.push(tool),
        }
    }
}
