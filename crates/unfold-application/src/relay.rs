//! The plugin relay (spec 9): as `unfold relay` serves it, on this machine only until the caller's
//! stop comes (every stream closed and the port free when it returns); and as the app runs it,
//! started and stopped on request, its sessions listed and attachable to a comparison.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Mutex;

use unfold_relay::attached::RelaySession;
use unfold_relay::sessions::Observer;
use unfold_relay::{AllowedOrigins, RelayLimits, RelaySettings, RunningRelay};

use crate::error::{AppError, AppResult, ErrorCode};
use crate::lock;

pub use unfold_relay::DEFAULT_PORT;

/// Serves the relay on 127.0.0.1:`port` (0: a free one) to this machine's clients and the pages
/// of the web `origins` the user allowed, tells `listening` where, and stops when `stop` completes.
pub async fn serve_relay(
    port: u16,
    origins: &[String],
    listening: impl FnOnce(SocketAddr),
    stop: impl Future<Output = ()>,
) -> AppResult<()> {
    let allowed_origins = AllowedOrigins::new(origins)
        .map_err(|why| AppError::new(ErrorCode::InvalidRequest, format!("--allow-origin: {why}")))?;
    let settings = RelaySettings { limits: RelayLimits::default(), allowed_origins };
    let relay = RunningRelay::start(port, settings).await.map_err(|error| {
        AppError::new(ErrorCode::Unavailable, format!("the relay cannot listen on 127.0.0.1:{port}: {error}"))
    })?;
    listening(relay.address);
    stop.await;
    relay.shutdown().await;
    Ok(())
}

/// The app's own relay: started and stopped from its Sources panel, its sessions listed, and a
/// comparison attached to one of them (the app holds the token; the UI never sees it).
#[derive(Default)]
pub struct RelayService {
    running: Mutex<Option<RunningRelay>>,
}

/// The app's relay as the UI shows it.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct RelayStatus {
    /// Where it listens (`http://127.0.0.1:7391`), or none when it is stopped.
    pub listening: Option<String>,
    /// Its sessions, the newest first.
    pub sessions: Vec<RelaySessionView>,
}

/// One session of the app's relay.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct RelaySessionView {
    /// Its code.
    pub code: String,
    /// The plugin that registered in it, if one did.
    pub plugin_type: Option<String>,
    /// The plugin's version.
    pub plugin_version: Option<String>,
    /// Its tools now.
    pub tools: Vec<unfold_documents::Tool>,
    /// When its tools last changed (milliseconds since the Unix epoch).
    #[cfg_attr(feature = "specta", specta(type = f64))]
    pub last_updated: u64,
    /// How many streams are open on it.
    pub streams: u32,
    /// Whether it expired.
    pub expired: bool,
}

impl RelayService {
    /// Starts the relay on 127.0.0.1:`port` (0: a free one); already running, it stays as it is.
    pub async fn start(&self, port: u16) -> AppResult<RelayStatus> {
        if lock(&self.running).is_none() {
            let relay = RunningRelay::start(port, RelayLimits::default()).await.map_err(|error| {
                AppError::new(ErrorCode::Unavailable, format!("the relay cannot listen on 127.0.0.1:{port}: {error}"))
            })?;
            *lock(&self.running) = Some(relay);
        }
        Ok(self.status())
    }

    /// Stops the relay: its streams close and its sessions are forgotten.
    pub async fn stop(&self) -> RelayStatus {
        let relay = lock(&self.running).take();
        if let Some(relay) = relay {
            relay.shutdown().await;
        }
        self.status()
    }

    /// Where the relay listens and its sessions.
    pub fn status(&self) -> RelayStatus {
        let running = lock(&self.running);
        let Some(relay) = running.as_ref() else { return RelayStatus { listening: None, sessions: Vec::new() } };
        let sessions = relay
            .sessions
            .summaries()
            .into_iter()
            .map(|s| RelaySessionView {
                code: s.code,
                plugin_type: s.plugin_type,
                plugin_version: s.plugin_version,
                tools: s.tools,
                last_updated: s.last_updated,
                streams: s.streams as u32,
                expired: s.expired,
            })
            .collect();
        RelayStatus { listening: Some(format!("http://{}", relay.address)), sessions }
    }

    /// The session `code` of the app's relay, for a run to attach to.
    pub fn attach(&self, code: &str) -> AppResult<RelaySession> {
        let running = lock(&self.running);
        let relay = running
            .as_ref()
            .ok_or_else(|| AppError::new(ErrorCode::InvalidRequest, "the relay is not running: start it first"))?;
        let token = relay
            .sessions
            .token_of(code)
            .ok_or_else(|| AppError::new(ErrorCode::NotFound, format!("the relay has no session '{code}'")))?;
        Ok(RelaySession {
            relay: format!("http://{}", relay.address),
            code: code.to_owned(),
            token,
            call_timeout: std::time::Duration::from_secs(30),
        })
    }

    /// Every event of every session from now on (the app's live log); none while stopped.
    pub fn observe(&self) -> Option<Observer> {
        lock(&self.running).as_ref().map(|relay| relay.sessions.observe())
    }
}
