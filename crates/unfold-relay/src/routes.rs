//! The relay's HTTP routes (spec 9). Each handler first finds the session by its code and token
//! (nothing about a session is read or parsed for a client without its token), then reads its
//! bounded body, has the CPU work done in the [`WorkLane`], makes one call on the sessions and
//! answers with its JSON, or with the refusal's status and `{"error", "message"}`. The event
//! stream is server-sent events with a heartbeat.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::{Path, RawQuery, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::sse::{Event, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use futures_util::Stream;
use serde_json::{json, Value};

use crate::error::RelayError;
use crate::session::now_ms;
use crate::sessions::{OpenSession, Sessions, StreamSlot};
use crate::streams::{CountedReceiver, SharedEvent};
use crate::tool_changes::{self, PreparedChange, Tools};
use crate::work_lane::WorkLane;
use unfold_loopback::{AllowedOrigins, Bodies};

/// How long a tool call made through `POST …/tool-calls` waits for the plugin by default.
pub const DEFAULT_CALL_TIMEOUT: Duration = Duration::from_secs(30);

/// The largest body of `POST /api/sessions`, which anyone may send (it holds a `ttl`, nothing more).
const CREATE_BODY_MAX: usize = 4096;

/// What every handler works with.
#[derive(Clone)]
struct Relay {
    sessions: Arc<Sessions>,
    bodies: Bodies,
    lane: WorkLane,
}

/// Every route of the relay, over `sessions`, for this machine's clients and the web `origins`
/// the user allowed.
pub fn router(sessions: Arc<Sessions>, origins: AllowedOrigins) -> Router {
    let limits = sessions.limits();
    let bodies = Bodies::new(limits.bodies_in_flight, limits.body_timeout);
    let relay = Relay { sessions, bodies, lane: WorkLane::default() };
    Router::new()
        .route("/api/sessions", post(create))
        .route("/api/sessions/{code}/register-tools", post(register))
        .route("/api/sessions/{code}/update-tools", post(update))
        .route("/api/sessions/{code}/metadata", get(metadata))
        .route("/api/sessions/{code}/stream", get(stream))
        .route("/api/sessions/{code}/response", post(respond))
        .route("/api/sessions/{code}/tool-calls", post(call_tool))
        .with_state(relay)
        .layer(origins.cors())
        .layer(axum::middleware::from_fn_with_state(origins, admit))
}

/// Refuses a request whose `Host` is not a loopback name, or whose `Origin` was not allowed.
async fn admit(
    axum::extract::State(origins): axum::extract::State<AllowedOrigins>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    match unfold_loopback::admission::check(request.headers(), &origins) {
        Ok(()) => next.run(request).await,
        Err(refusal) => RelayError::from(refusal).into_response(),
    }
}

/// The bearer token of the request, if it has one.
fn token(headers: &HeaderMap) -> Option<&str> {
    headers.get(header::AUTHORIZATION)?.to_str().ok()?.strip_prefix("Bearer ").map(str::trim)
}

impl Relay {
    /// The session `code`, if the request carries its token.
    fn session(&self, code: &str, headers: &HeaderMap) -> Result<Arc<OpenSession>, RelayError> {
        self.sessions.authorize(code, token(headers))
    }

    /// The body as a JSON object, parsed in the work lane.
    async fn json_body(&self, headers: &HeaderMap, body: Body) -> Result<Value, RelayError> {
        let body = self.bodies.read(headers, body, self.sessions.limits().max_body).await?;
        self.lane.run(move || tool_changes::json_object(&body.bytes)).await?
    }

    /// A registration or an update of `code`'s tools: its rate slot, its body, its turn, the change
    /// worked out in the work lane against the tools of that moment, and taken.
    async fn change_tools(
        &self,
        code: &str,
        headers: &HeaderMap,
        body: Body,
        prepare: fn(&[u8], &Tools, usize) -> Result<PreparedChange, RelayError>,
    ) -> Result<(Arc<OpenSession>, tool_changes::ToolChanges), RelayError> {
        let session = self.session(code, headers)?;
        self.sessions.take_rate_slot(&session)?;
        let body = self.bodies.read(headers, body, self.sessions.limits().max_body).await?;
        let changes = {
            let _turn = self.sessions.turn(&session).await;
            let current = self.sessions.tools(&session);
            let max_tools = self.sessions.limits().max_tools;
            let prepared = self.lane.run(move || prepare(&body.bytes, &current, max_tools)).await??;
            self.sessions.install(&session, prepared)?
        };
        Ok((session, changes))
    }
}

async fn create(State(relay): State<Relay>, headers: HeaderMap, body: Body) -> Result<Response, RelayError> {
    let body = relay.bodies.read(&headers, body, CREATE_BODY_MAX).await?;
    let body = tool_changes::json_object(&body.bytes)?;
    let ttl = match body.get("ttl") {
        None | Some(Value::Null) => None,
        Some(value) => Some(value.as_u64().ok_or_else(|| {
            let max = relay.sessions.limits().max_ttl.as_secs();
            RelayError::Invalid(format!("ttl: a whole number of seconds from 1 to {max}"))
        })?),
    };
    Ok((StatusCode::CREATED, Json(relay.sessions.create(ttl)?)).into_response())
}

async fn register(
    State(relay): State<Relay>,
    Path(code): Path<String>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, RelayError> {
    let (session, changes) = relay.change_tools(&code, &headers, body, tool_changes::registration).await?;
    let (capabilities, environment) = relay.sessions.configuration(&session);
    let answer = json!({
        "success": changes.failed_tools.is_empty(),
        "registeredTools": changes.tools,
        "failedTools": changes.failed_tools,
        "sessionConfiguration": {
            "toolCount": changes.tool_count,
            "capabilities": capabilities,
            "environment": environment,
        },
    });
    Ok((StatusCode::CREATED, Json(answer)).into_response())
}

async fn update(
    State(relay): State<Relay>,
    Path(code): Path<String>,
    headers: HeaderMap,
    body: Body,
) -> Result<Json<Value>, RelayError> {
    let (_, changes) = relay.change_tools(&code, &headers, body, tool_changes::update).await?;
    let mut answer = serde_json::to_value(&changes).unwrap_or_default();
    answer["success"] = json!(changes.failed_tools.is_empty());
    Ok(Json(answer))
}

async fn metadata(
    State(relay): State<Relay>,
    Path(code): Path<String>,
    headers: HeaderMap,
) -> Result<Response, RelayError> {
    let session = relay.session(&code, &headers)?;
    let pieces = relay.sessions.metadata(&session);
    let body = Body::from_stream(futures_util::stream::iter(pieces.into_iter().map(Ok::<_, Infallible>)));
    Ok(([(header::CONTENT_TYPE, "application/json")], body).into_response())
}

async fn respond(
    State(relay): State<Relay>,
    Path(code): Path<String>,
    headers: HeaderMap,
    body: Body,
) -> Result<Json<Value>, RelayError> {
    let session = relay.session(&code, &headers)?;
    let body = relay.json_body(&headers, body).await?;
    relay.sessions.respond(&session, &body)?;
    Ok(Json(json!({ "success": true })))
}

/// Unfold's own route for a run in another process: sends a `tool-request` to the plugin and
/// answers `{"result"}` or `{"error"}` once it answered or timed out, with `updatesSeq`: the
/// session's update count then, so the run can wait to have heard every update made before.
async fn call_tool(
    State(relay): State<Relay>,
    Path(code): Path<String>,
    headers: HeaderMap,
    body: Body,
) -> Result<Json<Value>, RelayError> {
    let session = relay.session(&code, &headers)?;
    let body = relay.json_body(&headers, body).await?;
    let tool =
        body.get("tool").and_then(Value::as_str).ok_or_else(|| RelayError::Invalid("tool: missing".to_owned()))?;
    let args = body.get("args").cloned().unwrap_or(json!({}));
    let longest = relay.sessions.limits().max_call_timeout;
    let timeout = match body.get("timeoutMs") {
        None => DEFAULT_CALL_TIMEOUT,
        Some(ms) => ms.as_u64().map(Duration::from_millis).filter(|wait| *wait <= longest).ok_or_else(|| {
            RelayError::Invalid(format!("timeoutMs: a whole number of milliseconds up to {}", longest.as_millis()))
        })?,
    };
    let called = relay.sessions.call_tool(&session, tool, &args, timeout).await;
    Ok(Json(match called.answer {
        Ok(result) => json!({ "result": result, "updatesSeq": called.updates_seq }),
        Err(error) => json!({ "error": error, "updatesSeq": called.updates_seq }),
    }))
}

async fn stream(
    State(relay): State<Relay>,
    Path(code): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, RelayError> {
    let session = relay.session(&code, &headers)?;
    // Unfold's own addition: `?watch=true` marks a watcher's stream (a run, a viewer), which does
    // not stand for the plugin when a tool is called.
    let watcher = query.is_some_and(|query| query.split('&').any(|pair| matches!(pair, "watch" | "watch=true")));
    let (events, slot) = relay.sessions.open_stream(&session, watcher)?;
    Ok(Sse::new(with_heartbeat(events, slot, relay.sessions.limits().heartbeat)))
}

/// The session's events as SSE, with a `heartbeat` every `period`; ends when the session drops
/// the stream (its client could not keep up, or the relay stops). The stream holds its `slot`
/// among the relay's streams until its connection drops it.
fn with_heartbeat(
    events: CountedReceiver<SharedEvent>,
    slot: StreamSlot,
    period: Duration,
) -> impl Stream<Item = Result<Event, Infallible>> {
    let ticks = tokio::time::interval_at(tokio::time::Instant::now() + period, period);
    futures_util::stream::unfold((events, ticks, slot), |(mut events, mut ticks, slot)| async move {
        let event = tokio::select! {
            event = events.recv() => {
                let event = event?;
                Event::default().event(event.name).data(&*event.data)
            }
            _ = ticks.tick() => Event::default().event("heartbeat").data(json!({ "timestamp": now_ms() }).to_string()),
        };
        Some((Ok(event), (events, ticks, slot)))
    })
}
