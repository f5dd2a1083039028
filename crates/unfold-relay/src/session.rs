//! One relay session (spec 9): its token and time to live, the plugin that registered in it and its
//! tools (kept with their JSON text, so that reading them costs no serialization), its open
//! streams, the updates queued while none is open, its rate window, and the tool requests waiting
//! for the plugin's answer. Everything it keeps for its client is charged to the relay's
//! [`ByteBudget`]; a session never holds more than its own bound.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use bytes::Bytes;
use serde_json::Value;
use tokio::sync::oneshot;

use crate::budget::{ByteBudget, Charge};
use crate::error::RelayError;
use crate::limits::RelayLimits;
use crate::streams::{counted_channel, CountedReceiver, CountedSender, Refused, SharedEvent};
use crate::tool_changes::{
    fingerprints, merged_updates_json, Fingerprints, PluginDescription, PreparedChange, ToolChanges, Tools,
};

/// The name of the event that tells a tool list changed.
pub const UPDATE_EVENT: &str = "tool-availability-update";

/// The name of the event that asks the plugin to run a tool.
pub const TOOL_REQUEST_EVENT: &str = "tool-request";

/// Milliseconds since the Unix epoch: the timestamps of the relay's answers and events.
pub(crate) fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// In-process listeners of every session's events (the app's live log): each hears an event with
/// its session's code, and misses the ones it was too slow to take.
pub(crate) type Observers = Arc<Mutex<Vec<CountedSender<(String, SharedEvent)>>>>;

/// One session, as the relay keeps it.
pub(crate) struct Session {
    pub code: String,
    pub token: String,
    pub ttl: Duration,
    pub created: Instant,
    pub last_used: Instant,
    pub plugin: PluginDescription,
    pub tools: Arc<Tools>,
    pub tools_json: Bytes,
    /// What the tools and the plugin's description keep, charged to the relay's total.
    kept: Charge,
    pub last_updated_ms: u64,
    /// How many tool updates the session has published: each update carries its number, so a
    /// listener can wait until it has heard the ones made before a call's answer.
    pub updates_seq: u64,
    recent_updates: VecDeque<Instant>,
    streams: Vec<OpenStream>,
    queue: Option<Queue>,
    waiting: HashMap<String, oneshot::Sender<Result<Value, String>>>,
    observers: Observers,
}

/// One open event stream of a session.
struct OpenStream {
    sender: CountedSender<SharedEvent>,
    /// A watcher's (`?watch=true`: a run, a viewer), not the plugin's: it hears every event, but
    /// a tool request needs a stream that is not one.
    watcher: bool,
}

/// The updates made while no stream was open, for the next one.
struct Queue {
    /// The tools before the first of them.
    before: Fingerprints,
    /// Each update in order, while they fit the session's queue bound; then none, and the next
    /// stream hears one update that merges them all.
    events: Vec<(SharedEvent, Charge)>,
    bytes: usize,
    merged: bool,
    count: usize,
}

impl Session {
    /// A new session with no plugin and no tools.
    pub fn new(code: String, token: String, ttl: Duration, observers: Observers) -> Session {
        let now = Instant::now();
        Session {
            code,
            token,
            ttl,
            created: now,
            last_used: now,
            plugin: PluginDescription::unregistered(),
            tools: Arc::new(Tools::new()),
            tools_json: Bytes::from_static(b"[]"),
            kept: Charge::none(),
            last_updated_ms: now_ms(),
            updates_seq: 0,
            recent_updates: VecDeque::new(),
            streams: Vec::new(),
            queue: None,
            waiting: HashMap::new(),
            observers,
        }
    }

    /// Whether it went unused for its time to live.
    pub fn expired(&self) -> bool {
        self.last_used.elapsed() >= self.ttl
    }

    /// Takes one of the minute's update slots, or says when the next one frees.
    pub fn take_rate_slot(&mut self, per_minute: usize) -> Result<(), RelayError> {
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

    /// Takes a prepared registration or update: the tools (and plugin) it brings are kept if they
    /// fit the session's bound and the relay's, and the change reaches every stream as one update.
    pub fn install(
        &mut self,
        prepared: PreparedChange,
        limits: &RelayLimits,
        total: &ByteBudget,
    ) -> Result<ToolChanges, RelayError> {
        let plugin = prepared.plugin.unwrap_or_else(|| self.plugin.clone());
        let bytes = prepared.tools_json.len().saturating_add(plugin.bytes());
        if bytes > limits.session_bytes {
            return Err(RelayError::SessionTooLarge { limit: limits.session_bytes, bytes });
        }
        self.kept = total.try_charge(bytes, false).ok_or(RelayError::RelayFull)?;
        let before = std::mem::replace(&mut self.tools, prepared.tools);
        self.tools_json = prepared.tools_json;
        self.plugin = plugin;
        self.last_updated_ms = now_ms();
        self.updates_seq += 1;
        let data = self.update_data(&prepared.updates_json, &prepared.reason);
        self.publish(SharedEvent { name: UPDATE_EVENT, data }, Some(&before), limits, total);
        Ok(prepared.changes)
    }

    /// An update event's data, numbered and stamped now.
    fn update_data(&self, updates_json: &str, reason: &str) -> Arc<str> {
        let text = |value: &str| Value::from(value).to_string();
        Arc::from(format!(
            "{{\"sessionCode\":{},\"seq\":{},\"updates\":{},\"timestamp\":{},\"reason\":{}}}",
            text(&self.code),
            self.updates_seq,
            updates_json,
            self.last_updated_ms,
            text(reason)
        ))
    }

    /// Sends `event` to the observers and every open stream; an update made while no stream is
    /// open is queued (`before`: the tools it changed). A stream whose client is gone or cannot
    /// keep up is closed.
    fn publish(&mut self, event: SharedEvent, before: Option<&Tools>, limits: &RelayLimits, total: &ByteBudget) {
        let bytes = event.data.len();
        {
            let mut observers = self.observers.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            observers.retain(|observer| match observer.send((self.code.clone(), event.clone()), bytes) {
                Err(Refused::Closed) => false,
                Err(Refused::TooSlow) => {
                    tracing::warn!(code = %self.code, "a relay observer missed an event: too many bytes waiting");
                    true
                }
                Ok(()) => true,
            });
        }
        let code = &self.code;
        self.streams.retain(|stream| match stream.sender.send(event.clone(), bytes) {
            Ok(()) => true,
            Err(Refused::Closed) => false,
            Err(Refused::TooSlow) => {
                tracing::warn!(%code, "a relay stream is closed: its client has too many bytes waiting");
                false
            }
        });
        if let (true, Some(before)) = (self.streams.is_empty(), before) {
            self.enqueue(event, before, limits, total);
        }
    }

    /// Keeps an update for the next stream, in order while the queue fits its bound; past it, the
    /// queue only remembers that the next stream must hear everything merged.
    fn enqueue(&mut self, event: SharedEvent, before: &Tools, limits: &RelayLimits, total: &ByteBudget) {
        let queue = self.queue.get_or_insert_with(|| Queue {
            before: fingerprints(before),
            events: Vec::new(),
            bytes: 0,
            merged: false,
            count: 0,
        });
        queue.count += 1;
        if queue.merged {
            return;
        }
        let bytes = event.data.len();
        let charge = (queue.bytes.saturating_add(bytes) <= limits.queued_bytes)
            .then(|| total.try_charge(bytes, false))
            .flatten();
        match charge {
            Some(charge) => {
                queue.bytes += bytes;
                queue.events.push((event, charge));
            }
            None => {
                queue.merged = true;
                queue.events.clear();
                queue.bytes = 0;
            }
        }
    }

    /// A new stream of the session's events: first the updates queued while none was open (in
    /// order, or merged into one), then each event as it happens.
    pub fn open_stream(
        &mut self,
        watcher: bool,
        limits: &RelayLimits,
        total: &ByteBudget,
    ) -> Result<CountedReceiver<SharedEvent>, RelayError> {
        self.streams.retain(|stream| !stream.sender.is_closed());
        if self.streams.len() >= limits.streams_per_session {
            return Err(RelayError::TooManyStreams { limit: limits.streams_per_session, of: "session" });
        }
        let (sender, receiver) = counted_channel(limits.stream_bytes.max(self.queued_bytes()), total);
        for event in self.queued_events() {
            let bytes = event.data.len();
            sender.send(event, bytes).map_err(|_| RelayError::RelayFull)?;
        }
        self.queue = None;
        self.streams.push(OpenStream { sender, watcher });
        Ok(receiver)
    }

    fn queued_bytes(&self) -> usize {
        self.queue.as_ref().map_or(0, |queue| queue.bytes)
    }

    /// The queued updates as the next stream hears them.
    fn queued_events(&self) -> Vec<SharedEvent> {
        match &self.queue {
            None => Vec::new(),
            Some(queue) if !queue.merged => queue.events.iter().map(|(event, _)| event.clone()).collect(),
            Some(queue) => {
                let updates = merged_updates_json(&queue.before, &self.tools);
                let reason = format!("{} updates made while no stream was open, merged", queue.count);
                vec![SharedEvent { name: UPDATE_EVENT, data: self.update_data(&updates, &reason) }]
            }
        }
    }

    /// Sends a `tool-request` for `id`, whose answer goes to `answer`; whether the plugin has a
    /// stream open to hear it.
    pub fn request_tool(
        &mut self,
        id: &str,
        data: Arc<str>,
        answer: oneshot::Sender<Result<Value, String>>,
        limits: &RelayLimits,
        total: &ByteBudget,
    ) -> bool {
        self.waiting.insert(id.to_owned(), answer);
        self.publish(SharedEvent { name: TOOL_REQUEST_EVENT, data }, None, limits, total);
        self.streams.iter().any(|stream| !stream.watcher)
    }

    /// Forgets the tool request `id` (answered elsewhere, timed out or never sent).
    pub fn forget_request(&mut self, id: &str) {
        self.waiting.remove(id);
    }

    /// Gives the plugin's answer to the tool request `id`.
    pub fn answer_request(&mut self, id: &str, answer: Result<Value, String>) -> Result<(), RelayError> {
        let waiting = self.waiting.remove(id).ok_or_else(|| RelayError::UnknownRequest(id.to_owned()))?;
        // The caller may have timed out a moment ago: then nobody hears it, and that is fine.
        let _ = waiting.send(answer);
        Ok(())
    }

    /// How many of its streams are open.
    pub fn open_streams(&self) -> usize {
        self.streams.iter().filter(|s| !s.sender.is_closed()).count()
    }

    /// Ends every open stream: their clients see the stream close.
    pub fn close_streams(&mut self) {
        self.streams.clear();
    }

    /// The session's tools as JSON, rebuilt (only a test of the kept text needs it).
    #[cfg(test)]
    pub fn tools_json_now(&self) -> String {
        crate::tool_changes::tools_json(&self.tools)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tool_changes::{registration, update};
    use serde_json::json;

    fn tool(name: &str, description: &str) -> Value {
        json!({ "name": name, "description": description, "parameters": { "type": "object" } })
    }

    fn session() -> Session {
        Session::new("CODE2345".into(), "t".into(), Duration::from_secs(60), Observers::default())
    }

    fn register(session: &mut Session, limits: &RelayLimits, total: &ByteBudget, tools: Vec<Value>) {
        let body = json!({ "tools": tools }).to_string();
        let prepared = registration(body.as_bytes(), &session.tools, limits.max_tools).unwrap();
        session.install(prepared, limits, total).unwrap();
        assert_eq!(session.tools_json, session.tools_json_now(), "the kept text is the tools'");
    }

    fn update_with(session: &mut Session, limits: &RelayLimits, total: &ByteBudget, updates: Value) {
        let body = json!({ "toolUpdates": updates }).to_string();
        let prepared = update(body.as_bytes(), &session.tools, limits.max_tools).unwrap();
        session.install(prepared, limits, total).unwrap();
    }

    fn heard(receiver: &mut CountedReceiver<SharedEvent>) -> Vec<Value> {
        std::iter::from_fn(|| receiver.try_recv()).map(|e| serde_json::from_str(&e.data).unwrap()).collect()
    }

    #[test]
    fn updates_queued_past_the_bound_reach_the_next_stream_as_one_merged_update() {
        let limits = RelayLimits { queued_bytes: 600, ..RelayLimits::default() };
        let total = ByteBudget::new(1 << 20);
        let mut session = session();
        register(&mut session, &limits, &total, vec![tool("keep", "k"), tool("change", "v1"), tool("drop", "d")]);
        drop(session.open_stream(false, &limits, &total).unwrap());
        for i in 0..20 {
            let updates =
                json!({ "added": [tool(&format!("new_{i}"), "n")], "modified": [tool("change", &format!("v{i}"))] });
            update_with(&mut session, &limits, &total, updates);
        }
        update_with(&mut session, &limits, &total, json!({ "removed": ["drop", "new_3"] }));
        assert!(total.used() < 2000, "the queue keeps no more than its bound: {}", total.used());

        let mut stream = session.open_stream(false, &limits, &total).unwrap();
        let events = heard(&mut stream);
        assert_eq!(events.len(), 1, "{events:?}");
        let merged = &events[0];
        let names = |list: &Value| -> Vec<String> {
            list.as_array().unwrap().iter().map(|t| t.as_str().or(t["name"].as_str()).unwrap().to_owned()).collect()
        };
        let mut added = names(&merged["updates"]["added"]);
        added.sort();
        let mut expected: Vec<String> = (0..20).filter(|i| *i != 3).map(|i| format!("new_{i}")).collect();
        expected.sort();
        assert_eq!(added, expected);
        assert_eq!(names(&merged["updates"]["removed"]), ["drop"]);
        assert_eq!(names(&merged["updates"]["modified"]), ["change"]);
        assert_eq!(merged["updates"]["modified"][0]["description"], "v19");
        assert_eq!(merged["seq"], 22, "the seq of the last update merged");
        assert_eq!(merged["reason"], "21 updates made while no stream was open, merged");
    }

    #[test]
    fn updates_queued_within_the_bound_reach_the_next_stream_each_in_order() {
        let limits = RelayLimits::default();
        let total = ByteBudget::new(1 << 20);
        let mut session = session();
        register(&mut session, &limits, &total, vec![tool("a", "a")]);
        update_with(&mut session, &limits, &total, json!({ "added": [tool("b", "b")] }));
        let mut stream = session.open_stream(true, &limits, &total).unwrap();
        let seqs: Vec<Value> = heard(&mut stream).iter().map(|e| e["seq"].clone()).collect();
        assert_eq!(seqs, [json!(1), json!(2)]);
        drop(stream);
        assert_eq!(total.used(), session.tools_json.len() + session.plugin.bytes(), "only the tools stay charged");
    }

    #[test]
    fn a_session_keeps_no_more_than_its_bytes_nor_the_relay_more_than_its_total() {
        let limits = RelayLimits { session_bytes: 2000, ..RelayLimits::default() };
        let total = ByteBudget::new(1 << 20);
        let mut session = session();
        let big: Vec<Value> = (0..40).map(|i| tool(&format!("t{i}"), &"x".repeat(40))).collect();
        let body = json!({ "tools": big }).to_string();
        let prepared = registration(body.as_bytes(), &session.tools, limits.max_tools).unwrap();
        let refused = session.install(prepared, &limits, &total).unwrap_err();
        assert!(matches!(refused, RelayError::SessionTooLarge { limit: 2000, .. }), "{refused:?}");
        assert!(session.tools.is_empty(), "nothing of a refused change is kept");

        let small = ByteBudget::new(100);
        let body = json!({ "tools": [tool("a", &"y".repeat(200))] }).to_string();
        let prepared = registration(body.as_bytes(), &session.tools, limits.max_tools).unwrap();
        assert_eq!(session.install(prepared, &limits, &small).unwrap_err(), RelayError::RelayFull);
        assert_eq!(small.used(), 0);
    }
}
