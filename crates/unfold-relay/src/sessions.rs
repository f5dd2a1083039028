//! Every session of one relay: creating them within the bounds, and the one door to a session —
//! its code and token, checked in time that does not depend on whether the code exists, with
//! failed attempts limited in all. The map is locked only to find a session; each session has its
//! own lock, and its registrations and updates take turns, so one session's large change never
//! holds up another session.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::{json, Value};
use tokio::sync::oneshot;
use unfold_documents::Tool;

use crate::budget::{ByteBudget, Charge};
use crate::error::RelayError;
use crate::limits::RelayLimits;
use crate::secrets::{new_code, new_token, token_matches};
use crate::session::{now_ms, Observers, Session};
use crate::streams::{counted_channel, CountedReceiver, SharedEvent};
use crate::tool_changes::{PreparedChange, ToolChanges, Tools};

/// An event of a session, as an in-process observer hears it: its SSE name and its JSON data.
#[derive(Debug, Clone, PartialEq)]
pub struct StreamEvent {
    /// `tool-availability-update` or `tool-request`.
    pub name: &'static str,
    /// The event's data.
    pub data: Value,
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

/// A plugin's answer to a tool request, and how many updates its session had published by then
/// (a plugin that changes its tools before it answers has its update counted).
#[derive(Debug, Clone, PartialEq)]
pub struct CallAnswer {
    /// The result, or why there is none.
    pub answer: Result<Value, String>,
    /// The session's update count when the answer came.
    pub updates_seq: u64,
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

/// A session found by its code and token: its state, and its turn for changes.
pub struct OpenSession {
    state: Mutex<Session>,
    /// Registrations and updates of one session take turns (in the order they came), so that each
    /// is worked out against the tools the one before left.
    changing: tokio::sync::Mutex<()>,
}

/// A session that expired: still told apart (410, to its token) for a while.
struct Expired {
    token: String,
    at: Instant,
}

/// Failed attempts at a session, across the relay: a bucket that refills at a steady rate.
struct Attempts {
    left: f64,
    at: Instant,
}

/// A stream's place among the relay's open streams, given back when it closes.
pub struct StreamSlot(#[allow(dead_code)] Charge);

/// Every session of one relay.
pub struct Sessions {
    limits: RelayLimits,
    live: Mutex<HashMap<String, Arc<OpenSession>>>,
    expired: Mutex<HashMap<String, Expired>>,
    observers: Observers,
    /// The bytes kept for clients, in all.
    kept: ByteBudget,
    /// The streams open, in all (a count, not bytes).
    streams: ByteBudget,
    attempts: Mutex<Attempts>,
}

fn locked<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // Every change under these locks is whole before it can panic: the state stays consistent.
    mutex.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A token no session has, compared against when the code is unknown so that the answer takes as
/// long as for a known code.
const NO_TOKEN: &str = "0000000000000000000000000000000000000000000";

impl Default for Sessions {
    fn default() -> Sessions {
        Sessions::new(RelayLimits::default())
    }
}

impl Sessions {
    /// No sessions yet, under `limits`.
    pub fn new(limits: RelayLimits) -> Sessions {
        Sessions {
            kept: ByteBudget::new(limits.total_bytes),
            streams: ByteBudget::new(limits.max_streams),
            attempts: Mutex::new(Attempts { left: f64::from(limits.failed_attempts_burst), at: Instant::now() }),
            limits,
            live: Mutex::new(HashMap::new()),
            expired: Mutex::new(HashMap::new()),
            observers: Observers::default(),
        }
    }

    /// The limits.
    pub fn limits(&self) -> &RelayLimits {
        &self.limits
    }

    /// The bytes kept for clients now, in all.
    pub fn kept_bytes(&self) -> usize {
        self.kept.used()
    }

    /// Opens a session that lives `ttl` seconds without use (the default when `None`).
    pub fn create(&self, ttl: Option<u64>) -> Result<NewSession, RelayError> {
        let max = self.limits.max_ttl.as_secs();
        let ttl = match ttl {
            None => self.limits.ttl,
            Some(seconds) if (1..=max).contains(&seconds) => Duration::from_secs(seconds),
            Some(_) => return Err(RelayError::Invalid(format!("ttl: a whole number of seconds from 1 to {max}"))),
        };
        let (code, token) = (new_code(), new_token());
        let mut live = locked(&self.live);
        self.sweep(&mut live);
        if live.len() >= self.limits.max_sessions {
            return Err(RelayError::TooManySessions { limit: self.limits.max_sessions });
        }
        let session = Session::new(code.clone(), token.clone(), ttl, Arc::clone(&self.observers));
        let open = OpenSession { state: Mutex::new(session), changing: tokio::sync::Mutex::new(()) };
        live.insert(code.clone(), Arc::new(open));
        let expires_at = now_ms().saturating_add(u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX));
        Ok(NewSession { code, token, ttl: ttl.as_secs(), expires_at })
    }

    /// Moves the sessions that expired out of `live` (their tools and streams are let go) and
    /// forgets those expired long enough ago.
    fn sweep(&self, live: &mut HashMap<String, Arc<OpenSession>>) {
        let mut expired = locked(&self.expired);
        live.retain(|code, open| {
            let mut session = locked(&open.state);
            if !session.expired() {
                return true;
            }
            session.close_streams();
            expired.insert(code.clone(), Expired { token: std::mem::take(&mut session.token), at: Instant::now() });
            false
        });
        let kept = self.limits.expired_kept;
        expired.retain(|_, gone| gone.at.elapsed() < kept);
        // However many expire within a day, their codes stay a bounded list: the oldest go first.
        let most = self.limits.max_sessions.saturating_mul(4);
        while expired.len() > most {
            let Some(oldest) = expired.iter().min_by_key(|(_, gone)| gone.at).map(|(code, _)| code.clone()) else {
                break;
            };
            expired.remove(&oldest);
        }
    }

    /// The session `code` if `token` is its own and it has not expired; it counts as used. Any
    /// other answer is the same 401 whether or not the code exists, and too many of them in all
    /// are 429.
    pub fn authorize(&self, code: &str, token: Option<&str>) -> Result<Arc<OpenSession>, RelayError> {
        let Some(token) = token else { return Err(self.failed_attempt()) };
        let mut live = locked(&self.live);
        let Some(open) = live.get(code).cloned() else {
            drop(live);
            let expired = locked(&self.expired);
            return match expired.get(code) {
                Some(gone) if token_matches(&gone.token, token) => Err(RelayError::Expired(code.to_owned())),
                _ => {
                    let _ = token_matches(NO_TOKEN, token);
                    drop(expired);
                    Err(self.failed_attempt())
                }
            };
        };
        let mut session = locked(&open.state);
        if !token_matches(&session.token, token) {
            drop(session);
            drop(live);
            return Err(self.failed_attempt());
        }
        if session.expired() {
            drop(session);
            self.sweep(&mut live);
            return Err(RelayError::Expired(code.to_owned()));
        }
        session.last_used = Instant::now();
        drop(session);
        Ok(open)
    }

    /// Counts a failed attempt: 401, or 429 once the relay's bucket of them is empty.
    fn failed_attempt(&self) -> RelayError {
        let mut attempts = locked(&self.attempts);
        let rate = f64::from(self.limits.failed_attempts_per_second.max(1));
        let burst = f64::from(self.limits.failed_attempts_burst.max(1));
        attempts.left = (attempts.left + attempts.at.elapsed().as_secs_f64() * rate).min(burst);
        attempts.at = Instant::now();
        if attempts.left >= 1.0 {
            attempts.left -= 1.0;
            return RelayError::Unauthorized;
        }
        let retry_after = ((1.0 - attempts.left) / rate).ceil().max(1.0) as u64;
        RelayError::TooManyAttempts { retry_after }
    }

    /// Takes one of `session`'s update slots for the minute.
    pub fn take_rate_slot(&self, session: &OpenSession) -> Result<(), RelayError> {
        locked(&session.state).take_rate_slot(self.limits.updates_per_minute)
    }

    /// `session`'s turn to change its tools, once the change before it is done.
    pub async fn turn<'s>(&self, session: &'s OpenSession) -> tokio::sync::MutexGuard<'s, ()> {
        session.changing.lock().await
    }

    /// `session`'s tools now (a change worked out against them must hold its turn).
    pub fn tools(&self, session: &OpenSession) -> Arc<Tools> {
        Arc::clone(&locked(&session.state).tools)
    }

    /// Takes a change worked out against `session`'s tools.
    pub fn install(&self, session: &OpenSession, prepared: PreparedChange) -> Result<ToolChanges, RelayError> {
        locked(&session.state).install(prepared, &self.limits, &self.kept)
    }

    /// The session's plugin and tools, as `GET …/metadata` answers: pieces of JSON text the
    /// session keeps, so an answer costs no serialization however many tools it holds.
    pub fn metadata(&self, session: &OpenSession) -> Vec<bytes::Bytes> {
        let session = locked(&session.state);
        let head = format!("{{\"apiVersion\":\"1\",\"sessionId\":{},", Value::from(session.code.as_str()));
        let counts = format!(
            ",\"toolCount\":{},\"lastUpdated\":{},\"updatesSeq\":{},\"environment\":",
            session.tools.len(),
            session.last_updated_ms,
            session.updates_seq
        );
        vec![
            head.into(),
            session.plugin.members.clone(),
            bytes::Bytes::from_static(b",\"tools\":"),
            session.tools_json.clone(),
            counts.into(),
            session.plugin.environment.clone(),
            bytes::Bytes::from_static(b"}"),
        ]
    }

    /// What a registration echoes of the plugin's description.
    pub fn configuration(&self, session: &OpenSession) -> (Value, Value) {
        locked(&session.state).plugin.configuration.clone()
    }

    /// A new stream of `session`'s events: first the updates queued while none was open, then each
    /// event as it happens. A `watcher`'s stream does not stand for the plugin.
    pub fn open_stream(
        &self,
        session: &OpenSession,
        watcher: bool,
    ) -> Result<(CountedReceiver<SharedEvent>, StreamSlot), RelayError> {
        let limit = self.limits.max_streams;
        let slot = self.streams.try_charge(1, false).ok_or(RelayError::TooManyStreams { limit, of: "relay" })?;
        let receiver = locked(&session.state).open_stream(watcher, &self.limits, &self.kept)?;
        Ok((receiver, StreamSlot(slot)))
    }

    /// Sends `tool` with `args` to `session`'s plugin as a `tool-request` and waits up to `timeout`
    /// for its answer: the result, or why there is none.
    pub async fn call_tool(&self, session: &OpenSession, tool: &str, args: &Value, timeout: Duration) -> CallAnswer {
        let id = new_code();
        let (answer, answered) = oneshot::channel();
        let data: Arc<str> = Arc::from(json!({ "id": id, "tool": tool, "args": args }).to_string());
        let heard = locked(&session.state).request_tool(&id, data, answer, &self.limits, &self.kept);
        let answer = if heard {
            match tokio::time::timeout(timeout, answered).await {
                Ok(Ok(answer)) => answer,
                Ok(Err(_)) => Err("the session closed before the plugin answered".to_owned()),
                Err(_) => Err(format!("the plugin gave no answer within {} s", timeout.as_secs_f64())),
            }
        } else {
            Err("the plugin is not connected: it has no stream of its session open".to_owned())
        };
        let mut state = locked(&session.state);
        state.forget_request(&id);
        CallAnswer { answer, updates_seq: state.updates_seq }
    }

    /// The plugin's answer `{"id", "result"}` or `{"id", "error"}` to a tool request.
    pub fn respond(&self, session: &OpenSession, body: &Value) -> Result<(), RelayError> {
        let id = body.get("id").and_then(Value::as_str).ok_or_else(|| RelayError::Invalid("id: missing".to_owned()))?;
        let answer = match (body.get("result"), body.get("error")) {
            (Some(result), None) => Ok(result.clone()),
            (None, Some(error)) => Err(error.as_str().map_or_else(|| error.to_string(), str::to_owned)),
            _ => return Err(RelayError::Invalid("result or error: give exactly one".to_owned())),
        };
        locked(&session.state).answer_request(id, answer)
    }

    /// Every event of every session from now on, with its session's code, for a listener in this
    /// process (it misses events while it has too many bytes waiting).
    pub fn observe(&self) -> Observer {
        let (sender, receiver) = counted_channel(self.limits.stream_bytes, &self.kept);
        locked(&self.observers).push(sender);
        Observer { receiver }
    }

    /// Every session, newest first, without its token: a session keeps its place in a list
    /// however often its plugin updates it.
    pub fn summaries(&self) -> Vec<SessionSummary> {
        let live = locked(&self.live);
        let mut listed: Vec<(Instant, SessionSummary)> = live
            .values()
            .map(|open| {
                let session = locked(&open.state);
                let summary = SessionSummary {
                    code: session.code.clone(),
                    plugin_type: session.plugin.plugin_type.clone(),
                    plugin_version: session.plugin.plugin_version.clone(),
                    tools: session.tools.values().cloned().collect(),
                    last_updated: session.last_updated_ms,
                    streams: session.open_streams(),
                    expired: session.expired(),
                };
                (session.created, summary)
            })
            .collect();
        listed.sort_by(|(a, x), (b, y)| b.cmp(a).then_with(|| x.code.cmp(&y.code)));
        listed.into_iter().map(|(_, summary)| summary).collect()
    }

    /// The token of the session `code`, for a run of this process to attach to it.
    pub fn token_of(&self, code: &str) -> Option<String> {
        let open = locked(&self.live).get(code).cloned()?;
        let token = locked(&open.state).token.clone();
        Some(token)
    }

    /// Ends every open stream (the relay is stopping): their clients see the stream close.
    pub fn close_streams(&self) {
        for open in locked(&self.live).values() {
            locked(&open.state).close_streams();
        }
    }
}

/// An in-process listener of every session's events (the app's live log).
pub struct Observer {
    receiver: CountedReceiver<(String, SharedEvent)>,
}

impl Observer {
    /// The next event and its session's code; `None` once the relay is gone.
    pub async fn recv(&mut self) -> Option<(String, StreamEvent)> {
        self.receiver.recv().await.map(heard)
    }

    /// The next event if one is waiting now.
    pub fn try_recv(&mut self) -> Option<(String, StreamEvent)> {
        self.receiver.try_recv().map(heard)
    }
}

fn heard((code, event): (String, SharedEvent)) -> (String, StreamEvent) {
    (code, StreamEvent { name: event.name, data: serde_json::from_str(&event.data).unwrap_or(Value::Null) })
}
