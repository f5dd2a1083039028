//! Every bound the relay keeps: what a client may ask for (a time to live, tools, a body), how often
//! (updates, failed attempts), how many things it may open (sessions, streams, connections), how
//! long it may take to send a request, and how many bytes it can make the relay keep, per session,
//! per stream and in all. Spec 9's numbers are the defaults; `docs/behaviour.md` says the rest in
//! words. Any process on the machine (a web page too) can reach the relay, so nothing a client
//! sends is trusted to be small.

use std::time::Duration;

/// A mebibyte.
const MIB: usize = 1 << 20;

/// The relay's bounds (spec 9's by default; a benchmark may raise the rate).
#[derive(Debug, Clone)]
pub struct RelayLimits {
    /// A session's time to live without use, when its creator asks for none.
    pub ttl: Duration,
    /// The longest time to live a creator may ask for.
    pub max_ttl: Duration,
    /// How long an expired session still answers 410 (to its token) before it is forgotten.
    pub expired_kept: Duration,
    /// Sessions alive at once.
    pub max_sessions: usize,
    /// Tools one session may hold.
    pub max_tools: usize,
    /// Registrations and updates one session may make in a minute.
    pub updates_per_minute: usize,
    /// Requests with a wrong token (or none, or for no session) the relay answers in a burst, in
    /// all; past it they are refused with 429 until the bucket refills.
    pub failed_attempts_burst: u32,
    /// How many failed attempts a second refill the bucket.
    pub failed_attempts_per_second: u32,
    /// The largest request body, in bytes.
    pub max_body: usize,
    /// Bytes of request bodies being read at once, in all (a body waits for room).
    pub bodies_in_flight: usize,
    /// How long a client may take to send a request's headers (a new connection's first request,
    /// or the next one on a kept-alive connection).
    pub header_timeout: Duration,
    /// How long a client may take to send a request's body.
    pub body_timeout: Duration,
    /// How long a client may read nothing of what the relay sends it (a reply, its stream) before
    /// its connection is closed.
    pub write_timeout: Duration,
    /// Open connections; at the cap the oldest one with no request under way is closed.
    pub max_connections: usize,
    /// How often a stream hears a heartbeat.
    pub heartbeat: Duration,
    /// Streams open on one session.
    pub streams_per_session: usize,
    /// Streams open in all.
    pub max_streams: usize,
    /// Bytes of events a stream may have waiting for its client before it is closed as too slow
    /// (a stream with nothing waiting always takes the next event, however large).
    pub stream_bytes: usize,
    /// Bytes of tools and plugin description (as their JSON text) one session may hold.
    pub session_bytes: usize,
    /// Bytes of updates queued for the next stream while none is open; past it they are merged
    /// into one update saying what changed in all.
    pub queued_bytes: usize,
    /// The longest a `tool-calls` request may ask to wait for the plugin.
    pub max_call_timeout: Duration,
    /// Bytes the relay keeps for clients in all: sessions' tools, queued updates and events
    /// waiting in streams.
    pub total_bytes: usize,
}

impl Default for RelayLimits {
    fn default() -> RelayLimits {
        RelayLimits {
            ttl: Duration::from_secs(3600),
            max_ttl: Duration::from_secs(24 * 3600),
            expired_kept: Duration::from_secs(24 * 3600),
            max_sessions: 256,
            max_tools: 1000,
            updates_per_minute: 10,
            failed_attempts_burst: 100,
            failed_attempts_per_second: 10,
            max_body: MIB,
            bodies_in_flight: 64 * MIB,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(30),
            write_timeout: Duration::from_secs(30),
            max_connections: 256,
            heartbeat: Duration::from_secs(15),
            streams_per_session: 16,
            max_streams: 128,
            stream_bytes: 4 * MIB,
            session_bytes: 8 * MIB,
            queued_bytes: 4 * MIB,
            max_call_timeout: Duration::from_secs(600),
            total_bytes: 256 * MIB,
        }
    }
}
