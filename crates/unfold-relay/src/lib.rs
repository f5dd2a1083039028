//! Unfold's plugin relay (spec 9), served on this machine only: a plugin opens a session, registers
//! its tools and updates them while the user works; every stream of the session (the plugin's and
//! each watcher's) hears each update at once, in order, and updates made while none is open wait
//! for the next. A run calls a plugin's tool through the session (`tool-request` on the stream,
//! answered by `POST …/response`).
//!
//! Anything on the machine can reach it, web pages included, so every number and byte a client
//! sends is bounded (`limits`): `unfold_loopback` lets in only requests to a loopback name and from
//! no web page the user did not allow, bounds connections and slow clients and what a request
//! sends; `budget` counts what the relay keeps, `work_lane` keeps the CPU work of one client from
//! holding up another.
//!
//! `secrets` makes the codes and tokens, `plugin_tools` takes tools in either shape,
//! `tool_changes` works out what a registration or update changes, `session` is one session's
//! state, `sessions` all of them and the door to each, `streams` the event streams, `routes` the
//! HTTP surface, `error` the refusals; `attached` is a run's side of a session (the engine's tool
//! sources over HTTP), `sse` reads a stream.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod attached;
pub mod budget;
pub mod error;
pub mod limits;
pub mod plugin_tools;
pub mod routes;
pub mod secrets;
pub mod session;
pub mod sessions;
pub mod sse;
pub mod streams;
pub mod tool_changes;
pub mod work_lane;

use std::net::SocketAddr;
use std::sync::Arc;

pub use error::RelayError;
pub use limits::RelayLimits;
pub use sessions::Sessions;
pub use unfold_loopback::AllowedOrigins;

/// How a relay is served: its bounds, and the web pages allowed to use it.
#[derive(Debug, Clone, Default)]
pub struct RelaySettings {
    /// Its bounds.
    pub limits: RelayLimits,
    /// The web origins whose pages may use it (none unless the user names them).
    pub allowed_origins: AllowedOrigins,
}

impl From<RelayLimits> for RelaySettings {
    fn from(limits: RelayLimits) -> RelaySettings {
        RelaySettings { limits, allowed_origins: AllowedOrigins::default() }
    }
}

/// The port `unfold relay` listens on unless told otherwise.
pub const DEFAULT_PORT: u16 = 7391;

/// A relay serving on a loopback port until dropped or shut down.
pub struct RunningRelay {
    /// Where it listens.
    pub address: SocketAddr,
    /// Its sessions, for the runs of this process.
    pub sessions: Arc<Sessions>,
    listening: unfold_loopback::Listening,
}

impl RunningRelay {
    /// Starts a relay on 127.0.0.1:`port` (0: any free port) as `settings` say.
    pub async fn start(port: u16, settings: impl Into<RelaySettings>) -> std::io::Result<RunningRelay> {
        let RelaySettings { limits, allowed_origins } = settings.into();
        let connection_limits = unfold_loopback::ConnectionLimits {
            max_connections: limits.max_connections,
            header_timeout: limits.header_timeout,
            write_timeout: limits.write_timeout,
        };
        let sessions = Arc::new(Sessions::new(limits));
        let app = routes::router(Arc::clone(&sessions), allowed_origins);
        let listening = unfold_loopback::Listening::start(port, app, connection_limits).await?;
        let address = listening.address;
        tracing::info!(%address, "relay listening");
        Ok(RunningRelay { address, sessions, listening })
    }

    /// Stops serving: open streams end, and the port is free once this returns.
    pub async fn shutdown(self) {
        // Its streams end first: the server's grace is for requests, not for streams that never end.
        self.sessions.close_streams();
        self.listening.shutdown().await;
    }
}
