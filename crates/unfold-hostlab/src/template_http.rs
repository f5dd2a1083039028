//! The template server over MCP's streamable HTTP (spec 13, `unfold mcp serve --http PORT`): one
//! [`TemplateServer`] (one conversation) at `http://127.0.0.1:PORT/mcp`, served by rmcp's
//! streamable HTTP service without sessions, so no client can make the server keep one per
//! `initialize`; every request of every protocol version is answered on its own, the newest
//! (2026-07-28) as it asks, an older one as a stateless server (a change notice reaches it on the
//! stream of the call that revealed the tools).
//!
//! Served through `unfold_loopback`, like the model endpoint: a request must name a loopback host
//! and no web page may use it; each body is read within the bounds (its size, its time, the bytes
//! of all bodies at once) and logged, as it came, before it is answered.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Router;
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use serde_json::json;
use tokio_util::sync::CancellationToken;
use unfold_loopback::{AllowedOrigins, Bodies, BodyError, Listening};

use crate::message_log::MessageLog;
use crate::{ServerBounds, TemplateServer};

/// Where the server answers.
pub const MCP_PATH: &str = "/mcp";
/// The largest message a host sends: a call's arguments.
const MAX_BODY: usize = 4 << 20;

/// What the requests' reading shares: the bodies in flight, and the log.
#[derive(Clone)]
struct Reading {
    bodies: Bodies,
    log: Option<MessageLog>,
}

/// A template served over HTTP until dropped or shut down.
pub struct RunningTemplateServer {
    /// Where it listens.
    pub address: SocketAddr,
    listening: Listening,
    /// Ends the event streams rmcp keeps open (a `subscriptions/listen`).
    streams: CancellationToken,
}

impl RunningTemplateServer {
    /// Serves `server` on 127.0.0.1:`port` (0: any free port), logging every message a host sends
    /// (and what the server answered) to `log` when given.
    pub async fn start(
        server: TemplateServer,
        port: u16,
        log: Option<MessageLog>,
        bounds: ServerBounds,
    ) -> std::io::Result<RunningTemplateServer> {
        let server = server.logging_to(log.clone());
        // Admission is `unfold_loopback`'s (below), before rmcp sees a request; rmcp's own Host
        // check would only answer the same question in other words.
        let config = StreamableHttpServerConfig::default()
            .with_legacy_session_mode(false)
            .disable_allowed_hosts()
            .with_max_request_body_bytes(MAX_BODY)
            .with_sse_keep_alive(Some(Duration::from_secs(15)));
        let streams = config.cancellation_token.clone();
        let service =
            StreamableHttpService::new(move || Ok(server.clone()), Arc::new(NeverSessionManager::default()), config);
        let reading = Reading { bodies: Bodies::new(4 * MAX_BODY, bounds.body_timeout), log };
        let router = Router::new()
            .route_service(MCP_PATH, service)
            .layer(axum::middleware::from_fn_with_state(reading, read_and_log))
            .layer(axum::middleware::from_fn(admit));
        let listening = Listening::start(port, router, bounds.connections).await?;
        let address = listening.address;
        tracing::info!(%address, "template server listening");
        Ok(RunningTemplateServer { address, listening, streams })
    }

    /// The URL a host is given.
    pub fn url(&self) -> String {
        format!("http://{}{MCP_PATH}", self.address)
    }

    /// Stops serving; the port is free once this returns.
    pub async fn shutdown(self) {
        self.streams.cancel();
        self.listening.shutdown().await;
    }
}

/// Refuses a request to a name that is not this machine, or from a web page, in JSON-RPC's words.
async fn admit(request: Request, next: Next) -> Response {
    match unfold_loopback::admission::check(request.headers(), &AllowedOrigins::default()) {
        Ok(()) => next.run(request).await,
        Err(refusal) => refused(StatusCode::FORBIDDEN, &refusal.to_string()),
    }
}

/// Reads a POST's body within the bounds and logs it, then hands it on whole.
async fn read_and_log(State(reading): State<Reading>, request: Request, next: Next) -> Response {
    if request.method() != Method::POST {
        return next.run(request).await;
    }
    let (parts, body) = request.into_parts();
    let mut read = match reading.bodies.read(&parts.headers, body, MAX_BODY).await {
        Ok(read) => read,
        Err(error) => {
            let status = match error {
                BodyError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
                BodyError::Timeout(_) => StatusCode::REQUEST_TIMEOUT,
                BodyError::Unreadable(_) => StatusCode::BAD_REQUEST,
            };
            return refused(status, &error.to_string());
        }
    };
    if let Some(log) = &reading.log {
        log.record_message(&read.bytes);
    }
    let request = Request::from_parts(parts, Body::from(std::mem::take(&mut read.bytes)));
    // The body keeps its room among those in flight until it is answered.
    let response = next.run(request).await;
    drop(read);
    response
}

/// A refusal as a JSON-RPC error to no request in particular.
fn refused(status: StatusCode, message: &str) -> Response {
    let body = json!({ "jsonrpc": "2.0", "id": null, "error": { "code": -32600, "message": message } });
    (status, [(header::CONTENT_TYPE, "application/json")], body.to_string()).into_response()
}
