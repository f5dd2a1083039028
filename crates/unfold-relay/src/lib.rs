//! Unfold's plugin relay (spec 9), served on this machine only: a plugin opens a session, registers
//! its tools and updates them while the user works; every stream of the session (the plugin's and
//! each watcher's) hears each update at once, in order, and updates made while none is open wait
//! for the next. A run calls a plugin's tool through the session (`tool-request` on the stream,
//! answered by `POST …/response`).
//!
//! `secrets` makes the codes and tokens, `plugin_tools` takes tools in either shape, `sessions`
//! holds the state and the limits, `routes` is the HTTP surface, `error` the refusals; `attached`
//! is a run's side of a session (the engine's tool sources over HTTP), `sse` reads a stream.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod attached;
pub mod error;
pub mod plugin_tools;
pub mod routes;
pub mod secrets;
pub mod sessions;
pub mod sse;

use std::net::SocketAddr;
use std::sync::Arc;

pub use error::RelayError;
pub use sessions::{RelayLimits, Sessions};

/// The port `unfold relay` listens on unless told otherwise.
pub const DEFAULT_PORT: u16 = 7391;

/// A relay serving on a loopback port until dropped or shut down.
pub struct RunningRelay {
    /// Where it listens.
    pub address: SocketAddr,
    /// Its sessions, for the runs of this process.
    pub sessions: Arc<Sessions>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<()>,
}

impl RunningRelay {
    /// Starts a relay on 127.0.0.1:`port` (0: any free port) under `limits`.
    pub async fn start(port: u16, limits: RelayLimits) -> std::io::Result<RunningRelay> {
        let listener = tokio::net::TcpListener::bind((std::net::Ipv4Addr::LOCALHOST, port)).await?;
        let address = listener.local_addr()?;
        let sessions = Arc::new(Sessions::new(limits));
        let app = routes::router(Arc::clone(&sessions));
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            let server = axum::serve(listener, app).with_graceful_shutdown(async {
                let _ = stopped.await;
            });
            if let Err(error) = server.await {
                tracing::error!(%error, "the relay stopped");
            }
        });
        tracing::info!(%address, "relay listening");
        Ok(RunningRelay { address, sessions, stop: Some(stop), task })
    }

    /// Stops serving: open streams end, and the port is free once this returns.
    pub async fn shutdown(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        self.sessions.close_streams();
        // A client that keeps a connection open without a request is not waited for long.
        let _ = tokio::time::timeout(std::time::Duration::from_secs(2), &mut self.task).await;
        self.task.abort();
    }
}
