//! The relay's HTTP routes (spec 9) over [`Sessions`]: each handler reads the token and a bounded
//! JSON body, makes one call on the sessions and answers with its JSON, or with the refusal's
//! status and `{"error", "message"}`. The event stream is server-sent events with a heartbeat.

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
use futures_util::{Stream, StreamExt};
use serde_json::{json, Value};
use tokio::sync::mpsc;

use crate::error::RelayError;
use crate::sessions::{now_ms, Sessions, StreamEvent};

/// How long a tool call made through `POST …/tool-calls` waits for the plugin by default.
pub const DEFAULT_CALL_TIMEOUT: Duration = Duration::from_secs(30);

/// Every route of the relay, over `sessions`.
pub fn router(sessions: Arc<Sessions>) -> Router {
    Router::new()
        .route("/api/sessions", post(create))
        .route("/api/sessions/{code}/register-tools", post(register))
        .route("/api/sessions/{code}/update-tools", post(update))
        .route("/api/sessions/{code}/metadata", get(metadata))
        .route("/api/sessions/{code}/stream", get(stream))
        .route("/api/sessions/{code}/response", post(respond))
        .route("/api/sessions/{code}/tool-calls", post(call_tool))
        .with_state(sessions)
}

/// The body's bytes, at most `limit` of them: past it, the rest is read and dropped (up to
/// [`DRAINED_AT_MOST`]) and the body is too large.
async fn body_within(body: Body, limit: usize) -> Result<Vec<u8>, RelayError> {
    let mut chunks = body.into_data_stream();
    let mut kept = Vec::new();
    let mut read = 0;
    while let Some(chunk) = chunks.next().await {
        let chunk = chunk.map_err(|e| RelayError::Invalid(format!("body: not read whole ({e})")))?;
        read += chunk.len();
        if read > DRAINED_AT_MOST {
            break;
        }
        if read <= limit {
            kept.extend_from_slice(&chunk);
        }
    }
    if read > limit {
        return Err(RelayError::TooLarge(limit));
    }
    Ok(kept)
}

/// The bearer token of the request, if it has one.
fn token(headers: &HeaderMap) -> Option<&str> {
    headers.get(header::AUTHORIZATION)?.to_str().ok()?.strip_prefix("Bearer ").map(str::trim)
}

/// How much of a body over the limit is still read, and dropped, so that its client, still
/// sending, hears the 413 rather than a broken connection; a larger one is cut off at once.
const DRAINED_AT_MOST: usize = 16 << 20;

/// The body as a JSON object, kept no further than `limit` bytes; an empty body is `{}`.
async fn json_body(headers: &HeaderMap, body: Body, limit: usize) -> Result<Value, RelayError> {
    let declared = headers.get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()?.parse::<usize>().ok());
    if declared.is_some_and(|length| length > DRAINED_AT_MOST) {
        return Err(RelayError::TooLarge(limit));
    }
    let bytes = body_within(body, limit).await?;
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(json!({}));
    }
    let value: Value =
        serde_json::from_slice(&bytes).map_err(|e| RelayError::Invalid(format!("body: not JSON ({e})")))?;
    if !value.is_object() {
        return Err(RelayError::Invalid("body: must be a JSON object".to_owned()));
    }
    Ok(value)
}

async fn create(State(sessions): State<Arc<Sessions>>, headers: HeaderMap, body: Body) -> Result<Response, RelayError> {
    let body = json_body(&headers, body, sessions.limits().max_body).await?;
    let ttl = match body.get("ttl") {
        None | Some(Value::Null) => None,
        Some(value) => match value.as_u64() {
            Some(seconds) if seconds > 0 => Some(Duration::from_secs(seconds)),
            _ => return Err(RelayError::Invalid("ttl: a whole number of seconds, at least 1".to_owned())),
        },
    };
    Ok((StatusCode::CREATED, Json(sessions.create(ttl))).into_response())
}

async fn register(
    State(sessions): State<Arc<Sessions>>,
    Path(code): Path<String>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, RelayError> {
    let body = json_body(&headers, body, sessions.limits().max_body).await?;
    let changes = sessions.register(&code, token(&headers), &body)?;
    let answer = json!({
        "success": changes.failed_tools.is_empty(),
        "registeredTools": changes.tools,
        "failedTools": changes.failed_tools,
        "sessionConfiguration": {
            "toolCount": changes.tool_count,
            "capabilities": body.get("capabilities").cloned().unwrap_or(json!([])),
            "environment": body.get("environment").cloned().unwrap_or(json!({})),
        },
    });
    Ok((StatusCode::CREATED, Json(answer)).into_response())
}

async fn update(
    State(sessions): State<Arc<Sessions>>,
    Path(code): Path<String>,
    headers: HeaderMap,
    body: Body,
) -> Result<Json<Value>, RelayError> {
    let body = json_body(&headers, body, sessions.limits().max_body).await?;
    let changes = sessions.update(&code, token(&headers), &body)?;
    let mut answer = serde_json::to_value(&changes).unwrap_or_default();
    answer["success"] = json!(changes.failed_tools.is_empty());
    Ok(Json(answer))
}

async fn metadata(
    State(sessions): State<Arc<Sessions>>,
    Path(code): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, RelayError> {
    Ok(Json(sessions.metadata(&code, token(&headers))?))
}

async fn respond(
    State(sessions): State<Arc<Sessions>>,
    Path(code): Path<String>,
    headers: HeaderMap,
    body: Body,
) -> Result<Json<Value>, RelayError> {
    let body = json_body(&headers, body, sessions.limits().max_body).await?;
    sessions.respond(&code, token(&headers), &body)?;
    Ok(Json(json!({ "success": true })))
}

/// Unfold's own route for a run in another process: sends a `tool-request` to the plugin and
/// answers `{"result"}` or `{"error"}` once it answered or timed out, with `updatesSeq`: the
/// session's update count then, so the run can wait to have heard every update made before.
async fn call_tool(
    State(sessions): State<Arc<Sessions>>,
    Path(code): Path<String>,
    headers: HeaderMap,
    body: Body,
) -> Result<Json<Value>, RelayError> {
    let body = json_body(&headers, body, sessions.limits().max_body).await?;
    let tool =
        body.get("tool").and_then(Value::as_str).ok_or_else(|| RelayError::Invalid("tool: missing".to_owned()))?;
    let args = body.get("args").cloned().unwrap_or(json!({}));
    let timeout = match body.get("timeoutMs") {
        None => DEFAULT_CALL_TIMEOUT,
        Some(ms) => Duration::from_millis(
            ms.as_u64().ok_or_else(|| RelayError::Invalid("timeoutMs: a whole number of milliseconds".to_owned()))?,
        ),
    };
    let called = sessions.call_tool(&code, token(&headers), tool, &args, timeout).await?;
    Ok(Json(match called.answer {
        Ok(result) => json!({ "result": result, "updatesSeq": called.updates_seq }),
        Err(error) => json!({ "error": error, "updatesSeq": called.updates_seq }),
    }))
}

async fn stream(
    State(sessions): State<Arc<Sessions>>,
    Path(code): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, RelayError> {
    // Unfold's own addition: `?watch=true` marks a watcher's stream (a run, a viewer), which does
    // not stand for the plugin when a tool is called.
    let watcher = query.is_some_and(|query| query.split('&').any(|pair| matches!(pair, "watch" | "watch=true")));
    let events = sessions.open_stream(&code, token(&headers), watcher)?;
    Ok(Sse::new(with_heartbeat(events, sessions.limits().heartbeat)))
}

/// The session's events as SSE, with a `heartbeat` every `period`; ends when the session drops
/// the stream (its client could not keep up).
fn with_heartbeat(
    events: mpsc::Receiver<StreamEvent>,
    period: Duration,
) -> impl Stream<Item = Result<Event, Infallible>> {
    let ticks = tokio::time::interval_at(tokio::time::Instant::now() + period, period);
    futures_util::stream::unfold((events, ticks), |(mut events, mut ticks)| async move {
        let event = tokio::select! {
            event = events.recv() => {
                let event = event?;
                Event::default().event(event.name).data(event.data.to_string())
            }
            _ = ticks.tick() => Event::default().event("heartbeat").data(json!({ "timestamp": now_ms() }).to_string()),
        };
        Some((Ok(event), (events, ticks)))
    })
}
