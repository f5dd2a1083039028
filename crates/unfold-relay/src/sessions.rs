//! The relay's sessions (spec 9): each with its secret token, its time to live, the plugin that
//! registered in it and its tools, its open event streams, the updates queued while none is open,
//! its rate window, and the tool requests waiting for the plugin's answer. Every change happens
//! under one short lock and never waits on a client: a stream that cannot keep up is closed (its
//! client reconnects) rather than slowing its session or another.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use indexmap::IndexMap;
use serde::Serialize;
use serde_json::{json, Value};
use tokio::sync::{mpsc, oneshot};
use unfold_documents::Tool;

use crate::error::RelayError;
use crate::plugin_tools::{accept_tools, FailedTool};
use crate::secrets::{new_code, new_token, token_matches};

/// The relay's limits (spec 9's by default; a benchmark may raise the rate).
#[derive(Debug, Clone)]
pub struct RelayLimits {
    /// A session's time to live without use.
    pub ttl: Duration,
    /// Tools one session may hold.
    pub max_tools: usize,
    /// Updates one session may make in a minute.
    pub updates_per_minute: usize,
    /// The largest request body, in bytes.
    pub max_body: usize,
    /// How often a stream hears a heartbeat.
    pub heartbeat: Duration,
    /// Events a stream may have waiting before it is closed as too slow.
    pub stream_buffer: usize,
}

impl Default for RelayLimits {
    fn default() -> RelayLimits {
        RelayLimits {
            ttl: Duration::from_secs(3600),
            max_tools: 1000,
            updates_per_minute: 10,
            max_body: 1024 * 1024,
            heartbeat: Duration::from_secs(15),
            stream_buffer: 4096,
        }
    }
}

/// An event of a session's stream: its SSE name and its JSON data.
#[derive(Debug, Clone, PartialEq)]
pub struct StreamEvent {
    /// `tool-availability-update` or `tool-request`.
    pub name: &'static str,
    /// The event's data.
    pub data: Value,
}

/// What a plugin said about itself when it registered.
#[derive(Debug, Clone, Default)]
struct Plugin {
    plugin_type: Value,
    plugin_version: Value,
    capabilities: Value,
    environment: Value,
}

struct Session {
    code: String,
    observers: Observers,
    token: String,
    ttl: Duration,
    created: Instant,
    last_used: Instant,
    plugin: Plugin,
    tools: IndexMap<String, Tool>,
    last_updated_ms: u64,
    /// How many tool updates the session has published: each update carries its number, so a
    /// listener can wait until it has heard the ones made before a call's answer.
    updates_seq: u64,
    recent_updates: VecDeque<Instant>,
    streams: Vec<OpenStream>,
    queued: Vec<StreamEvent>,
    waiting: HashMap<String, oneshot::Sender<Result<Value, String>>>,
}

/// One open event stream of a session.
struct OpenStream {
    sender: mpsc::Sender<StreamEvent>,
    /// A watcher's (`?watch=true`: a run, a viewer), not the plugin's: it hears every event, but
    /// a tool request needs a stream that is not one.
    watcher: bool,
}

/// A new session, as `POST /api/sessions` answers it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NewSession {
    /// 8 characters of `A-Z2-7`.
    pub code: String,
    /// The bearer token every later request needs.
    pub token: String,
    /// Seconds of no use before it expires.
    pub ttl: u64,
    /// When it expires if not used, in milliseconds since the Unix epoch.
    pub expires_at: u64,
}

/// What a registration or an update did, as its answer says.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolChanges {
    /// Tools new to the session.
    pub added: Vec<String>,
    /// Tools gone from it.
    pub removed: Vec<String>,
    /// Tools whose definition changed.
    pub modified: Vec<String>,
    /// Tools refused, with why.
    pub failed_tools: Vec<FailedTool>,
    /// How many tools the session holds now.
    pub tool_count: usize,
    /// The tools it holds now, by name.
    #[serde(skip)]
    pub tools: Vec<String>,
}

/// A plugin's answer to a tool request, and how many updates its session had published by then
/// (a plugin that changes its tools before it answers has its update counted).
#[derive(Debug, Clone, PartialEq)]
pub struct CallAnswer {
    /// The result, or why there is none.
    pub answer: Result<Value, String>,
    /// The session's update count when the answer came.
    pub updates_seq: u64,
}

/// Listeners of every session's events in this process (the app's live log).
type Observers = Arc<Mutex<Vec<mpsc::UnboundedSender<(String, StreamEvent)>>>>;

/// Every session of one relay.
#[derive(Default)]
pub struct Sessions {
    limits: RelayLimits,
    sessions: Mutex<HashMap<String, Session>>,
    observers: Observers,
}

/// A session as the app lists it: never its token.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SessionSummary {
    /// Its code.
    pub code: String,
    /// The plugin that registered in it, if one did.
    pub plugin_type: Option<String>,
    /// The plugin's version, as it said.
    pub plugin_version: Option<String>,
    /// Its tools now.
    pub tools: Vec<Tool>,
    /// When its tools last changed, in milliseconds since the Unix epoch.
    pub last_updated: u64,
    /// How many streams are open on it.
    pub streams: usize,
    /// Whether it expired.
    pub expired: bool,
}

/// Milliseconds since the Unix epoch: the timestamps of the relay's answers and events.
pub(crate) fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}

impl Sessions {
    /// No sessions yet, under `limits`.
    pub fn new(limits: RelayLimits) -> Sessions {
        Sessions { limits, sessions: Mutex::new(HashMap::new()), observers: Observers::default() }
    }

    /// The limits.
    pub fn limits(&self) -> &RelayLimits {
        &self.limits
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Session>> {
        // Every change under the lock is whole before it can panic: the map stays consistent.
        self.sessions.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Opens a session that lives `ttl` without use (the default when `None`).
    pub fn create(&self, ttl: Option<Duration>) -> NewSession {
        let ttl = ttl.unwrap_or(self.limits.ttl);
        let (code, token) = (new_code(), new_token());
        let session = Session {
            code: code.clone(),
            observers: Arc::clone(&self.observers),
            token: token.clone(),
            ttl,
            created: Instant::now(),
            last_used: Instant::now(),
            plugin: Plugin::default(),
            tools: IndexMap::new(),
            last_updated_ms: now_ms(),
            updates_seq: 0,
            recent_updates: VecDeque::new(),
            streams: Vec::new(),
            queued: Vec::new(),
            waiting: HashMap::new(),
        };
        let mut sessions = self.lock();
        sessions.retain(|_, s| s.last_used.elapsed() < s.ttl + Duration::from_secs(24 * 3600));
        sessions.insert(code.clone(), session);
        NewSession { code, token, ttl: ttl.as_secs(), expires_at: now_ms() + ttl.as_millis() as u64 }
    }

    /// Runs `change` on the session `code` if `token` is its own and it has not expired.
    fn with_session<T>(
        &self,
        code: &str,
        token: Option<&str>,
        change: impl FnOnce(&mut Session) -> Result<T, RelayError>,
    ) -> Result<T, RelayError> {
        let token = token.ok_or(RelayError::Unauthorized)?;
        let mut sessions = self.lock();
        let session = sessions.get_mut(code).ok_or_else(|| RelayError::UnknownSession(code.to_owned()))?;
        if !token_matches(&session.token, token) {
            return Err(RelayError::Unauthorized);
        }
        if session.last_used.elapsed() >= session.ttl {
            return Err(RelayError::Expired(code.to_owned()));
        }
        session.last_used = Instant::now();
        change(session)
    }

    /// Registers the plugin and its tools (`tools`, or `availableTools`), replacing any it had;
    /// the change reaches every stream as one update.
    pub fn register(&self, code: &str, token: Option<&str>, body: &Value) -> Result<ToolChanges, RelayError> {
        let (field, tools) = match (body.get("tools"), body.get("availableTools")) {
            (Some(tools), _) => ("tools", tools),
            (None, Some(tools)) => ("availableTools", tools),
            (None, None) => return Err(RelayError::Invalid("tools: missing (or availableTools)".to_owned())),
        };
        let values =
            tools.as_array().ok_or_else(|| RelayError::Invalid(format!("{field}: must be a list of tools")))?;
        let limit = self.limits.max_tools;
        if values.len() > limit {
            return Err(RelayError::TooManyTools { field, limit, count: values.len() });
        }
        let (accepted, failed) = accept_tools(values);
        self.with_session(code, token, |session| {
            session.plugin = Plugin {
                plugin_type: body.get("pluginType").cloned().unwrap_or(Value::Null),
                plugin_version: body.get("pluginVersion").cloned().unwrap_or(Value::Null),
                capabilities: body.get("capabilities").cloned().unwrap_or(json!([])),
                environment: body.get("environment").cloned().unwrap_or(json!({})),
            };
            let new: IndexMap<String, Tool> = accepted.into_iter().map(|t| (t.name.clone(), t)).collect();
            let removed: Vec<String> = session.tools.keys().filter(|n| !new.contains_key(*n)).cloned().collect();
            let mut changes = session.replace_tools(new, removed, "registered");
            changes.failed_tools = failed;
            Ok(changes)
        })
    }

    /// Applies `{"toolUpdates": {"added", "removed", "modified"}, "reason"}`; the change reaches every
    /// stream as one update.
    pub fn update(&self, code: &str, token: Option<&str>, body: &Value) -> Result<ToolChanges, RelayError> {
        let updates = body
            .get("toolUpdates")
            .and_then(Value::as_object)
            .ok_or_else(|| RelayError::Invalid("toolUpdates: missing, or not an object".to_owned()))?;
        let list = |key: &str| -> Result<Vec<Value>, RelayError> {
            match updates.get(key) {
                None | Some(Value::Null) => Ok(Vec::new()),
                Some(Value::Array(items)) => Ok(items.clone()),
                Some(_) => Err(RelayError::Invalid(format!("toolUpdates/{key}: must be a list"))),
            }
        };
        let (added, modified) = (list("added")?, list("modified")?);
        let removed: Vec<String> = list("removed")?
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let name = v.as_str().or_else(|| v.get("name").and_then(Value::as_str));
                name.map(str::to_owned)
                    .ok_or_else(|| RelayError::Invalid(format!("toolUpdates/removed/{i}: a tool's name")))
            })
            .collect::<Result<_, _>>()?;
        let reason = body.get("reason").and_then(Value::as_str).unwrap_or("updated").to_owned();
        let (accepted, failed) = accept_tools(&[added, modified].concat());
        let (limit, per_minute) = (self.limits.max_tools, self.limits.updates_per_minute);
        self.with_session(code, token, |session| {
            session.take_rate_slot(per_minute)?;
            let mut new = session.tools.clone();
            new.retain(|name, _| !removed.contains(name));
            new.extend(accepted.into_iter().map(|t| (t.name.clone(), t)));
            if new.len() > limit {
                return Err(RelayError::TooManyTools { field: "toolUpdates/added", limit, count: new.len() });
            }
            let gone = removed.into_iter().filter(|n| session.tools.contains_key(n)).collect();
            let mut changes = session.replace_tools(new, gone, &reason);
            changes.failed_tools = failed;
            Ok(changes)
        })
    }

    /// The session's plugin and tools, as `GET …/metadata` answers.
    pub fn metadata(&self, code: &str, token: Option<&str>) -> Result<Value, RelayError> {
        self.with_session(code, token, |session| {
            let tools: Vec<&Tool> = session.tools.values().collect();
            Ok(json!({
                "apiVersion": "1",
                "sessionId": code,
                "pluginType": session.plugin.plugin_type,
                "pluginVersion": session.plugin.plugin_version,
                "capabilities": session.plugin.capabilities,
                "tools": tools,
                "toolCount": tools.len(),
                "lastUpdated": session.last_updated_ms,
                "updatesSeq": session.updates_seq,
                "environment": session.plugin.environment,
            }))
        })
    }

    /// A new stream of the session's events: first the updates queued while none was open, in
    /// order, then each event as it happens. A `watcher`'s stream does not stand for the plugin.
    pub fn open_stream(
        &self,
        code: &str,
        token: Option<&str>,
        watcher: bool,
    ) -> Result<mpsc::Receiver<StreamEvent>, RelayError> {
        let buffer = self.limits.stream_buffer;
        self.with_session(code, token, |session| {
            let (sender, receiver) = mpsc::channel(buffer.max(session.queued.len() + 1));
            for event in session.queued.drain(..) {
                // Room was made for every queued event above.
                let _ = sender.try_send(event);
            }
            session.streams.push(OpenStream { sender, watcher });
            Ok(receiver)
        })
    }

    /// Sends `tool` with `args` to the session's plugin as a `tool-request` and waits up to
    /// `timeout` for its answer: the result, or why there is none.
    pub async fn call_tool(
        &self,
        code: &str,
        token: Option<&str>,
        tool: &str,
        args: &Value,
        timeout: Duration,
    ) -> Result<CallAnswer, RelayError> {
        let id = new_code();
        let (answer, answered) = oneshot::channel();
        let sent = self.with_session(code, token, |session| {
            session.waiting.insert(id.clone(), answer);
            session
                .publish(StreamEvent { name: "tool-request", data: json!({ "id": id, "tool": tool, "args": args }) });
            Ok(session.streams.iter().any(|stream| !stream.watcher))
        })?;
        if !sent {
            if let Some(session) = self.lock().get_mut(code) {
                session.waiting.remove(&id);
            }
            let answer = Err("the plugin is not connected: it has no stream of its session open".to_owned());
            return Ok(CallAnswer { answer, updates_seq: self.updates_seq(code) });
        }
        let answer = match tokio::time::timeout(timeout, answered).await {
            Ok(Ok(answer)) => answer,
            Ok(Err(_)) => Err("the session closed before the plugin answered".to_owned()),
            Err(_) => Err(format!("the plugin gave no answer within {} s", timeout.as_secs_f64())),
        };
        if let Some(session) = self.lock().get_mut(code) {
            session.waiting.remove(&id);
        }
        Ok(CallAnswer { answer, updates_seq: self.updates_seq(code) })
    }

    fn updates_seq(&self, code: &str) -> u64 {
        self.lock().get(code).map_or(0, |session| session.updates_seq)
    }

    /// Every event of every session from now on, with its session's code, for a listener in
    /// this process.
    pub fn observe(&self) -> mpsc::UnboundedReceiver<(String, StreamEvent)> {
        let (sender, receiver) = mpsc::unbounded_channel();
        self.observers.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(sender);
        receiver
    }

    /// Every session, newest first, without its token: a session keeps its place in a list
    /// however often its plugin updates it.
    pub fn summaries(&self) -> Vec<SessionSummary> {
        let sessions = self.lock();
        let mut listed: Vec<(&Session, SessionSummary)> = sessions
            .values()
            .map(|session| {
                let text = |value: &Value| value.as_str().map(str::to_owned);
                let summary = SessionSummary {
                    code: session.code.clone(),
                    plugin_type: text(&session.plugin.plugin_type),
                    plugin_version: text(&session.plugin.plugin_version),
                    tools: session.tools.values().cloned().collect(),
                    last_updated: session.last_updated_ms,
                    streams: session.streams.iter().filter(|s| !s.sender.is_closed()).count(),
                    expired: session.last_used.elapsed() >= session.ttl,
                };
                (session, summary)
            })
            .collect();
        listed.sort_by(|(a, _), (b, _)| b.created.cmp(&a.created).then_with(|| a.code.cmp(&b.code)));
        listed.into_iter().map(|(_, summary)| summary).collect()
    }

    /// The token of the session `code`, for a run of this process to attach to it.
    pub fn token_of(&self, code: &str) -> Option<String> {
        self.lock().get(code).map(|session| session.token.clone())
    }

    /// Ends every open stream (the relay is stopping): their clients see the stream close.
    pub fn close_streams(&self) {
        for session in self.lock().values_mut() {
            session.streams.clear();
        }
    }

    /// The plugin's answer `{"id", "result"}` or `{"id", "error"}` to a tool request.
    pub fn respond(&self, code: &str, token: Option<&str>, body: &Value) -> Result<(), RelayError> {
        let id = body.get("id").and_then(Value::as_str).ok_or_else(|| RelayError::Invalid("id: missing".to_owned()))?;
        let answer = match (body.get("result"), body.get("error")) {
            (Some(result), None) => Ok(result.clone()),
            (None, Some(error)) => Err(error.as_str().map_or_else(|| error.to_string(), str::to_owned)),
            _ => return Err(RelayError::Invalid("result or error: give exactly one".to_owned())),
        };
        self.with_session(code, token, |session| {
            let waiting = session.waiting.remove(id).ok_or_else(|| RelayError::UnknownRequest(id.to_owned()))?;
            // The caller may have timed out a moment ago: then nobody hears it, and that is fine.
            let _ = waiting.send(answer);
            Ok(())
        })
    }
}

impl Session {
    /// Takes one of the minute's update slots, or says when the next one frees.
    fn take_rate_slot(&mut self, per_minute: usize) -> Result<(), RelayError> {
        let minute = Duration::from_secs(60);
        while self.recent_updates.front().is_some_and(|at| at.elapsed() >= minute) {
            self.recent_updates.pop_front();
        }
        if self.recent_updates.len() >= per_minute {
            let oldest = self.recent_updates.front().map_or(Duration::ZERO, Instant::elapsed);
            let retry_after = minute.saturating_sub(oldest).as_secs().max(1);
            return Err(RelayError::RateLimited { limit: per_minute, retry_after });
        }
        self.recent_updates.push_back(Instant::now());
        Ok(())
    }

    /// Replaces the tools with `new` (of which `removed` were dropped) and tells every stream.
    fn replace_tools(&mut self, new: IndexMap<String, Tool>, removed: Vec<String>, reason: &str) -> ToolChanges {
        let added: Vec<&Tool> = new.values().filter(|t| !self.tools.contains_key(&t.name)).collect();
        let modified: Vec<&Tool> =
            new.values().filter(|t| self.tools.get(&t.name).is_some_and(|old| old != *t)).collect();
        let changes = ToolChanges {
            added: added.iter().map(|t| t.name.clone()).collect(),
            removed: removed.clone(),
            modified: modified.iter().map(|t| t.name.clone()).collect(),
            failed_tools: Vec::new(),
            tool_count: new.len(),
            tools: new.keys().cloned().collect(),
        };
        let timestamp = now_ms();
        self.updates_seq += 1;
        let data = json!({
            "sessionCode": self.code,
            "seq": self.updates_seq,
            "updates": { "added": added, "removed": removed, "modified": modified },
            "timestamp": timestamp,
            "reason": reason,
        });
        self.tools = new;
        self.last_updated_ms = timestamp;
        self.publish(StreamEvent { name: "tool-availability-update", data });
        changes
    }

    /// Sends `event` to every open stream, or queues it while none is open. A stream whose client
    /// is gone or cannot keep up is dropped.
    fn publish(&mut self, event: StreamEvent) {
        let mut observers = self.observers.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        observers.retain(|observer| observer.send((self.code.clone(), event.clone())).is_ok());
        drop(observers);
        self.streams.retain(|stream| stream.sender.try_send(event.clone()).is_ok());
        if self.streams.is_empty() && event.name == "tool-availability-update" {
            self.queued.push(event);
        }
    }
}
