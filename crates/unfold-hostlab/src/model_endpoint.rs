//! The scripted model endpoint (spec 13, `unfold model serve`): a model on 127.0.0.1 speaking the
//! wire formats hosts speak — Anthropic Messages (`POST /v1/messages`), OpenAI Chat Completions
//! (`POST /v1/chat/completions`) and Responses (`POST /v1/responses`), Gemini
//! (`POST /v1beta/models/MODEL:generateContent` and `:streamGenerateContent`, or under `/v1/models/`)
//! — streamed or not,
//! answering as the scenario's script says ([`ScriptedEndpoint`]). Anthropic's token counting
//! (`/v1/messages/count_tokens`) and the model list (`GET /v1/models`) get plausible answers.
//!
//! A fork's host (spec 15) is first answered as its recording says ([`Answering::after`]): the
//! script or the real model answers only the requests after those.
//!
//! Every request is recorded, as it came, with what it was answered (the text, the calls and
//! their tokens; whether it was a side request; how long the endpoint worked on it); no header
//! is, so no key is. Any key is accepted. Served through `unfold_loopback`: a request must name a
//! loopback host and no web page may use it; a refusal, a body too large or not JSON, is answered
//! in the API's own error shape.

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Path, Request, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use serde_json::{json, Value};
use tokio::sync::Mutex;
use unfold_documents::host_profile::HostApi;
use unfold_documents::Scenario;
use unfold_engine::{answer_shapes, ModelResponse};
use unfold_loopback::{AllowedOrigins, Bodies, Listening};

use crate::forwarding::{Forwarded, Upstream};
use crate::host_requests::HostRequest;
use crate::message_log::{busy_us, MessageLog, BUSY_FIELD};
use crate::scripted_endpoint::{recorded_answer, Answered, ScriptedEndpoint};
use crate::ServerBounds;

/// The largest request body: a long conversation with many tools.
const MAX_BODY: usize = 32 << 20;
/// The model the endpoint says it is when a request names none.
const MODEL: &str = "unfold-scripted";

/// What answers the host: the scenario's script, or a real model each request is forwarded to.
#[derive(Clone)]
enum Model {
    Scripted(Arc<Mutex<ScriptedEndpoint>>),
    Forwarded(Arc<dyn Upstream>),
}

/// What answers a host's requests: a model, after the answers of a recording.
pub struct Answering {
    model: Model,
    recorded: Vec<ModelResponse>,
}

impl Answering {
    /// The script of `scenario`.
    pub fn script(scenario: &Scenario) -> Answering {
        Answering {
            model: Model::Scripted(Arc::new(Mutex::new(ScriptedEndpoint::new(scenario)))),
            recorded: Vec::new(),
        }
    }

    /// A real model each request is forwarded to: see [`RunningEndpoint::forwarding`].
    pub fn forwarded(upstream: Arc<dyn Upstream>) -> Answering {
        Answering { model: Model::Forwarded(upstream), recorded: Vec::new() }
    }

    /// The model, after `recorded`: the host's first requests of the conversation (those that
    /// offer tools) get these answers in turn, and the model is not asked for them.
    pub fn after(self, recorded: Vec<ModelResponse>) -> Answering {
        Answering { recorded, ..self }
    }
}

/// The endpoint's state: what answers, and the log.
#[derive(Clone)]
struct Endpoint {
    model: Model,
    /// The answers left of a recording, given before the model answers.
    recorded: Arc<Mutex<VecDeque<ModelResponse>>>,
    bodies: Bodies,
    log: Option<MessageLog>,
}

/// An endpoint serving until dropped or shut down.
pub struct RunningEndpoint {
    /// Where it listens.
    pub address: SocketAddr,
    listening: Listening,
}

impl RunningEndpoint {
    /// Starts the endpoint of `scenario` on 127.0.0.1:`port` (0: any free port) within `bounds`,
    /// recording every request to `log` when given.
    pub async fn start(
        scenario: &Scenario,
        port: u16,
        log: Option<MessageLog>,
        bounds: ServerBounds,
    ) -> std::io::Result<RunningEndpoint> {
        RunningEndpoint::serve(Answering::script(scenario), port, log, bounds).await
    }

    /// [`start`](Self::start) with each request forwarded to `upstream`, a real model, and its
    /// answer given to the host as it came; both are recorded. A request in another API than the
    /// upstream's is refused.
    pub async fn forwarding(
        upstream: Arc<dyn Upstream>,
        port: u16,
        log: Option<MessageLog>,
        bounds: ServerBounds,
    ) -> std::io::Result<RunningEndpoint> {
        RunningEndpoint::serve(Answering::forwarded(upstream), port, log, bounds).await
    }

    /// Starts the endpoint answering as `answering` says, as [`start`](Self::start) starts it.
    pub async fn serve(
        answering: Answering,
        port: u16,
        log: Option<MessageLog>,
        bounds: ServerBounds,
    ) -> std::io::Result<RunningEndpoint> {
        let Answering { model, recorded } = answering;
        let endpoint = Endpoint {
            model,
            recorded: Arc::new(Mutex::new(recorded.into())),
            bodies: Bodies::new(4 * MAX_BODY, bounds.body_timeout),
            log,
        };
        let listening = Listening::start(port, router(endpoint), bounds.connections).await?;
        let address = listening.address;
        tracing::info!(%address, "model endpoint listening");
        Ok(RunningEndpoint { address, listening })
    }

    /// Stops serving; the port is free, and the log's handle dropped, once this returns.
    pub async fn shutdown(self) {
        self.listening.shutdown().await;
    }
}

fn router(endpoint: Endpoint) -> Router {
    Router::new()
        .route("/v1/chat/completions", post(|s, h, b| answer(HostApi::OpenaiChat, false, s, h, b)))
        .route("/v1/responses", post(|s, h, b| answer(HostApi::OpenaiResponses, false, s, h, b)))
        .route("/v1/messages", post(|s, h, b| answer(HostApi::Anthropic, false, s, h, b)))
        .route("/v1/messages/count_tokens", post(count_tokens))
        .route("/v1beta/models/{model_and_method}", post(gemini))
        // google-genai speaks Gemini's `v1` unless told `v1beta`.
        .route("/v1/models/{model_and_method}", post(gemini))
        .route("/v1/models", get(models))
        .with_state(endpoint)
        .layer(axum::middleware::from_fn(admit))
}

/// The API a path speaks, for its error shape.
fn api_of_path(path: &str) -> HostApi {
    if path.starts_with("/v1/messages") {
        HostApi::Anthropic
    } else if path.starts_with("/v1beta") || path.starts_with("/v1/models/") {
        HostApi::Gemini
    } else if path.starts_with("/v1/responses") {
        HostApi::OpenaiResponses
    } else {
        HostApi::OpenaiChat
    }
}

/// Refuses a request to a name that is not this machine, or from a web page.
async fn admit(request: Request, next: Next) -> Response {
    match unfold_loopback::admission::check(request.headers(), &AllowedOrigins::default()) {
        Ok(()) => next.run(request).await,
        Err(refusal) => {
            failure(api_of_path(request.uri().path()), StatusCode::FORBIDDEN, "permission_error", &refusal.to_string())
        }
    }
}

/// An error in `api`'s shape.
fn failure(api: HostApi, status: StatusCode, kind: &str, message: &str) -> Response {
    let body = match api {
        HostApi::Anthropic => json!({ "type": "error", "error": { "type": kind, "message": message } }),
        HostApi::Gemini => json!({ "error": { "code": status.as_u16(), "message": message,
                                              "status": if status == StatusCode::FORBIDDEN { "PERMISSION_DENIED" } else { "INVALID_ARGUMENT" } } }),
        HostApi::OpenaiChat | HostApi::OpenaiResponses => {
            json!({ "error": { "message": message, "type": kind, "param": null, "code": null } })
        }
    };
    (status, [(header::CONTENT_TYPE, "application/json")], body.to_string()).into_response()
}

/// The body as JSON, within bounds; else the error to answer.
async fn json_body(
    api: HostApi,
    endpoint: &Endpoint,
    headers: &HeaderMap,
    body: Body,
) -> Result<(Value, String), Response> {
    let read = endpoint.bodies.read(headers, body, MAX_BODY).await.map_err(|error| {
        let status = match error {
            unfold_loopback::BodyError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            unfold_loopback::BodyError::Timeout(_) => StatusCode::REQUEST_TIMEOUT,
            unfold_loopback::BodyError::Unreadable(_) => StatusCode::BAD_REQUEST,
        };
        failure(api, status, "invalid_request_error", &error.to_string())
    })?;
    let text = String::from_utf8_lossy(&read.bytes).into_owned();
    let value = serde_json::from_str(&text).map_err(|error| {
        failure(api, StatusCode::BAD_REQUEST, "invalid_request_error", &format!("the body is not JSON: {error}"))
    })?;
    Ok((value, text))
}

async fn answer(
    api: HostApi,
    streamed: bool,
    State(endpoint): State<Endpoint>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    let (value, text) = match json_body(api, &endpoint, &headers, body).await {
        Ok(read) => read,
        Err(refused) => return refused,
    };
    // From the whole body read (the host's sending is not Unfold's time) to the answer made.
    let started = std::time::Instant::now();
    let request = match HostRequest::read(api, &value, streamed) {
        Ok(request) => request,
        Err(why) => return failure(api, StatusCode::BAD_REQUEST, "invalid_request_error", &why),
    };
    // A side request is no part of the recorded conversation.
    if !request.tools.is_empty() {
        let recorded = endpoint.recorded.lock().await.pop_front();
        if let Some(recorded) = recorded {
            let answer = recorded_answer(recorded, &request, &text);
            let given = Given { answer, side: false, not_shown: Vec::new(), replayed: true };
            return give(api, &endpoint, &request, given, (value, started));
        }
    }
    let script = match &endpoint.model {
        Model::Scripted(script) => script,
        Model::Forwarded(upstream) => return forward(api, &endpoint, upstream.as_ref(), request, value, started).await,
    };
    let given = match script.lock().await.answer(&request, &text).await {
        Answered::Main { answer, not_shown } => Given { answer, side: false, not_shown, replayed: false },
        Answered::Side { answer } => Given { answer, side: true, not_shown: Vec::new(), replayed: false },
    };
    give(api, &endpoint, &request, given, (value, started))
}

/// How the endpoint answered one request, for the host and the log.
struct Given {
    answer: ModelResponse,
    /// Whether the request was a side request.
    side: bool,
    /// The scripted calls not made: their tools were not offered.
    not_shown: Vec<String>,
    /// Whether the answer is a recording's (a fork's).
    replayed: bool,
}

/// Gives the host `given` in `api`'s shape, and logs it with `body` as it came and the
/// endpoint's time since `started`.
fn give(
    api: HostApi,
    endpoint: &Endpoint,
    request: &HostRequest,
    given: Given,
    (body, started): (Value, std::time::Instant),
) -> Response {
    let response = shaped(api, &given.answer, request.stream, Some(request.model.as_deref().unwrap_or(MODEL)));
    if let Some(log) = &endpoint.log {
        let mut entry = logged_request(api, request, given.side, &given.not_shown, body, busy_us(started));
        entry["answer"] = logged_answer(&given.answer);
        if given.replayed {
            entry["replayed"] = Value::Bool(true);
        }
        log.record_value(entry);
    }
    response
}

/// `answer` in `api`'s shape, streamed when `stream`, naming `model`.
fn shaped(api: HostApi, answer: &unfold_engine::ModelResponse, stream: bool, model: Option<&str>) -> Response {
    match stream {
        true => event_stream(answer_shapes::stream(api, answer, model).concat()),
        false => json_answer(answer_shapes::whole(api, answer, model).to_string()),
    }
}

/// A stream of server-sent events.
fn event_stream(events: impl Into<Body>) -> Response {
    ([(header::CONTENT_TYPE, "text/event-stream"), (header::CACHE_CONTROL, "no-cache")], events.into()).into_response()
}

/// One JSON document.
fn json_answer(document: impl Into<Body>) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], document.into()).into_response()
}

/// What the log keeps of every request, whoever answered it: its API, framing, whether it was a
/// side request, the scripted calls not made, the body as it came, the endpoint's own time.
fn logged_request(
    api: HostApi,
    request: &HostRequest,
    side: bool,
    not_shown: &[String],
    body: Value,
    busy: u64,
) -> Value {
    json!({ "api": api.name(), "stream": request.stream, "side": side, "tool_not_shown": not_shown,
            "request": body, BUSY_FIELD: busy })
}

/// Forwards the host's `request` (`body` as it came) to `upstream` and answers as the model did;
/// records both, with the endpoint's own time (not the model's).
async fn forward(
    api: HostApi,
    endpoint: &Endpoint,
    upstream: &dyn Upstream,
    request: HostRequest,
    body: Value,
    started: std::time::Instant,
) -> Response {
    if upstream.api() != api {
        let why = format!(
            "this endpoint forwards to {}, which speaks {}: a {} request cannot be sent there",
            upstream.describe(),
            upstream.api().name(),
            api.name()
        );
        return failure(api, StatusCode::BAD_REQUEST, "invalid_request_error", &why);
    }
    let asked = std::time::Instant::now();
    let forwarded = upstream.forward(&body, request.stream).await;
    let model_time = asked.elapsed();
    let (response, answered) = match forwarded {
        Ok(forwarded) => (answer_forwarded(api, &request, &forwarded), Ok(forwarded)),
        Err(why) => (failure(api, StatusCode::BAD_GATEWAY, "api_error", &why), Err(why)),
    };
    if let Some(log) = &endpoint.log {
        let busy = busy_us(started).saturating_sub(u64::try_from(model_time.as_micros()).unwrap_or(u64::MAX));
        let mut entry = logged_request(api, &request, request.tools.is_empty(), &[], body, busy);
        entry["forwarded_to"] = Value::String(upstream.describe());
        match answered {
            Ok(forwarded) => {
                entry["answer"] = logged_answer(&forwarded.answer);
                entry["response"] = Value::String(String::from_utf8_lossy(&forwarded.bytes).into_owned());
            }
            Err(why) => entry["forward_failed"] = Value::String(why),
        }
        log.record_value(entry);
    }
    response
}

/// The model's answer as the host gets it: as it came, or, when the host asked for a stream and
/// the answer could only be kept whole, streamed again from what it said.
fn answer_forwarded(api: HostApi, request: &HostRequest, forwarded: &Forwarded) -> Response {
    match (forwarded.streamed, request.stream) {
        (true, _) => event_stream(forwarded.bytes.clone()),
        (false, true) => shaped(api, &forwarded.answer, true, request.model.as_deref()),
        (false, false) => json_answer(forwarded.bytes.clone()),
    }
}

/// What the log keeps of an answer: its text, its calls, its tokens.
fn logged_answer(answer: &unfold_engine::ModelResponse) -> Value {
    let calls: Vec<Value> = answer
        .tool_calls
        .iter()
        .map(|call| json!({ "id": call.id, "name": call.name, "arguments": call.arguments }))
        .collect();
    let completion_tokens = answer.usage.map_or(0, |usage| usage.completion_tokens);
    json!({ "text": answer.text, "tool_calls": calls, "completion_tokens": completion_tokens })
}

/// Gemini names the model and the method in one path segment: `MODEL:generateContent`.
async fn gemini(
    Path(model_and_method): Path<String>,
    state: State<Endpoint>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    match model_and_method.rsplit_once(':').map(|(_, method)| method) {
        Some("generateContent") => answer(HostApi::Gemini, false, state, headers, body).await,
        Some("streamGenerateContent") => answer(HostApi::Gemini, true, state, headers, body).await,
        _ => failure(HostApi::Gemini, StatusCode::NOT_FOUND, "not_found", &format!("no method '{model_and_method}'")),
    }
}

async fn count_tokens(State(endpoint): State<Endpoint>, headers: HeaderMap, body: Body) -> Response {
    match json_body(HostApi::Anthropic, &endpoint, &headers, body).await {
        Ok((_, text)) => {
            let counted = json!({ "input_tokens": unfold_engine::tokens::count_text(&text) });
            json_answer(counted.to_string())
        }
        Err(refused) => refused,
    }
}

async fn models() -> Response {
    let listed =
        json!({ "object": "list", "data": [{ "id": MODEL, "object": "model", "created": 0, "owned_by": "unfold" }] });
    json_answer(listed.to_string())
}
