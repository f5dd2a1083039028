//! Live providers: the [`HttpProvider`] that sends a run's model calls to a real API (OpenAI-compatible
//! Chat Completions, OpenAI Responses or Anthropic Messages) over reqwest, streamed or not, with the retry rules,
//! stall detection and cancellation of `docs/behaviour.md`.
//!
//! The retry rules: 408, 429 and 5xx answers and failed connections are tried again at most
//! [`RetryPolicy::max_retries`] times, after jittered exponential backoff or the server's
//! `Retry-After` (up to a cap); other answers (400, 401, 403, 404, quota errors) fail at once.
//! Once a streamed answer has started nothing is sent again: the model may already be paid for.
//!
//! An [`ApiKey`] goes into a request header marked sensitive and nowhere else: it has no
//! `Serialize`, its `Debug` hides it, and what the server sends is scrubbed of it in every form
//! before anything reads it, as are the answers once assembled, every error message and every
//! recorded call ([`redaction`]). Keys come from the environment or the OS keychain (`keychain`);
//! `cassette` records a live run and replays it.
//! The profile files that configure a provider are documents (`unfold_documents::provider_profile`).

#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod anthropic;
pub mod cassette;
pub mod keychain;
mod openai;
pub mod recorded_sources;
pub mod redaction;
mod responses;
pub mod shared_pace;
pub mod sse;
mod wire;

use std::time::Duration;

use async_trait::async_trait;
use backon::BackoffBuilder;
use reqwest::header::{HeaderMap, HeaderValue, CONTENT_TYPE};
use serde_json::Value;
pub use tokio_util::sync::CancellationToken;
use tracing::Instrument;

pub use cassette::{Cassette, RecordedCall};
pub use redaction::{SecretKind, Secrets};
pub use unfold_documents::provider_profile::{ProviderKind, ProviderProfile, ProviderProfiles, PROVIDERS_KIND};

use sse::SseDecoder;
use unfold_documents::error::{Error, Result};
use unfold_documents::host_profile::HostApi;
use unfold_engine::provider::{HiddenTools, ModelRequest, ModelResponse, Provider};
use wire::StreamStep;

/// The most of an answer kept in memory: a whole answer's body; a streamed answer's text and tool
/// calls, and the event it is reading; the stream as it came, which a recording keeps.
const MAX_BODY_BYTES: usize = 16 * 1024 * 1024;
/// [`MAX_BODY_BYTES`] in the words of a message.
const MAX_BODY_WORDS: &str = "16 MiB";

/// An API key. It is sent in a header and nowhere else.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey(String);

impl ApiKey {
    /// A key given as text.
    pub fn new(key: impl Into<String>) -> ApiKey {
        ApiKey(key.into())
    }

    /// The key `profile` names: read from its environment variable or from the OS keychain;
    /// `None` when the profile takes none. A variable that is unset or empty, a keychain without
    /// the key or no keychain at all, is an error that says which.
    pub fn for_profile(profile: &ProviderProfile) -> Result<Option<ApiKey>> {
        if profile.api_key_keychain {
            return keychain::read_key(&profile.name).map(Some);
        }
        let Some(var) = &profile.api_key_env else { return Ok(None) };
        match std::env::var(var) {
            Ok(key) if !key.trim().is_empty() => Ok(Some(ApiKey(key.trim().to_owned()))),
            _ => Err(Error::Provider(format!(
                "profile '{}' takes its API key from the environment variable {var}, which is not set",
                profile.name
            ))),
        }
    }
}

impl std::fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ApiKey([redacted])")
    }
}

/// How often and how long a failed call is tried again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Tries after the first (2).
    pub max_retries: usize,
    /// The first backoff (500 ms), doubled each time, with jitter.
    pub min_delay: Duration,
    /// The longest backoff (8 s).
    pub max_delay: Duration,
    /// The longest `Retry-After` honoured (60 s); a server asking for more fails the call.
    pub max_retry_after: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_retries: 2,
            min_delay: Duration::from_millis(500),
            max_delay: Duration::from_secs(8),
            max_retry_after: Duration::from_secs(60),
        }
    }
}

/// A model behind a real API.
#[derive(Debug)]
pub struct HttpProvider {
    profile: ProviderProfile,
    key: Option<ApiKey>,
    /// What must never leave the process: the key and the base URL's password, in every form.
    secrets: Secrets,
    client: reqwest::Client,
    retry: RetryPolicy,
    cancel: CancellationToken,
    /// Every call answered, when recording.
    recording: Option<Vec<RecordedCall>>,
    /// Hears the text of a streamed answer piece by piece, as it arrives.
    text_sink: Option<TextSink>,
    /// The pace shared with every other provider of a study sent to the same server.
    pace: Option<std::sync::Arc<shared_pace::SharedPace>>,
}

/// Where the pieces of a streamed answer's text go as they arrive (scrubbed of the key).
#[derive(Clone)]
pub struct TextSink(pub std::sync::Arc<dyn Fn(&str) + Send + Sync>);

impl std::fmt::Debug for TextSink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TextSink")
    }
}

impl HttpProvider {
    /// A provider for `profile`, sending `key` if given.
    pub fn new(profile: ProviderProfile, key: Option<ApiKey>) -> Result<HttpProvider> {
        let client = reqwest::Client::builder()
            .connect_timeout(profile.connect_timeout())
            .read_timeout(profile.read_timeout())
            .user_agent(concat!("unfold/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| Error::Provider(format!("cannot set up HTTP: {}", error_chain(&e))))?;
        Ok(HttpProvider {
            secrets: Secrets::of_provider(&profile, key.as_ref()),
            profile,
            key,
            client,
            retry: RetryPolicy::default(),
            cancel: CancellationToken::new(),
            recording: None,
            text_sink: None,
            pace: None,
        })
    }

    /// The same provider, keeping `pace` with the others that share it: each request waits for
    /// any wait a server asked of one of them, and a wait asked of this one holds them all.
    pub fn with_pace(mut self, pace: std::sync::Arc<shared_pace::SharedPace>) -> HttpProvider {
        self.pace = Some(pace);
        self
    }

    /// The same provider with another retry policy.
    pub fn with_retry(mut self, retry: RetryPolicy) -> HttpProvider {
        self.retry = retry;
        self
    }

    /// The same provider, stopped by `cancel`: a call in flight ends at once with
    /// [`Error::Cancelled`] and its connection is closed.
    pub fn with_cancel(mut self, cancel: CancellationToken) -> HttpProvider {
        self.cancel = cancel;
        self
    }

    /// The same provider, keeping each answered call (its request body and its answer as it came
    /// over the wire, redacted as `redaction` says) for a cassette.
    pub fn recording(mut self) -> HttpProvider {
        self.recording = Some(Vec::new());
        self
    }

    /// The same provider, telling `sink` each piece of a streamed answer's text as it arrives
    /// (the finished answer still comes back whole).
    pub fn with_text_sink(mut self, sink: TextSink) -> HttpProvider {
        self.text_sink = Some(sink);
        self
    }

    /// The calls kept so far, when recording.
    pub fn recorded_calls(&self) -> &[RecordedCall] {
        self.recording.as_deref().unwrap_or(&[])
    }

    /// The profile it calls.
    pub fn profile(&self) -> &ProviderProfile {
        &self.profile
    }

    /// What it keeps from leaving the process: whatever holds them is scrubbed or not written.
    pub fn secrets(&self) -> &Secrets {
        &self.secrets
    }

    /// The headers of a call; `beta`, the Anthropic beta its request needs, if any.
    fn headers(&self, beta: Option<&'static str>) -> Result<HeaderMap> {
        let mut headers = HeaderMap::new();
        headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        if self.profile.kind == ProviderKind::Anthropic {
            headers.insert("anthropic-version", HeaderValue::from_static(anthropic::API_VERSION));
            if let Some(beta) = beta {
                headers.insert("anthropic-beta", HeaderValue::from_static(beta));
            }
        }
        if let Some(ApiKey(key)) = &self.key {
            let (name, value) = match self.profile.kind {
                ProviderKind::Openai | ProviderKind::OpenaiResponses => ("authorization", format!("Bearer {key}")),
                ProviderKind::Anthropic => ("x-api-key", key.clone()),
            };
            let mut value = HeaderValue::from_str(&value).map_err(|_| {
                Error::Provider(format!("the API key of profile '{}' is not valid header text", self.profile.name))
            })?;
            value.set_sensitive(true);
            headers.insert(name, value);
        }
        Ok(headers)
    }

    /// Sends `body` until an answer starts or the retry rules give up.
    async fn send(&self, body: &Value, beta: Option<&'static str>) -> std::result::Result<reqwest::Response, String> {
        let url = self.profile.endpoint();
        // Messages name it without the credentials the base URL may hold.
        let endpoint = self.profile.shown(&url);
        let headers = self.headers(beta).map_err(|e| e.to_string())?;
        let body = serde_json::to_vec(body).map_err(|e| e.to_string())?;
        let mut backoff = backon::ExponentialBuilder::default()
            .with_min_delay(self.retry.min_delay)
            .with_max_delay(self.retry.max_delay)
            .with_max_times(self.retry.max_retries)
            .with_jitter()
            .build();
        for attempt in 1.. {
            if let Some(pace) = &self.pace {
                pace.wait().await;
            }
            // reqwest sends the base URL's credentials as HTTP Basic, and takes them out of the URL.
            let sent = self.client.post(&url).headers(headers.clone()).body(body.clone()).send().await;
            let failure = match sent {
                Ok(response) if response.status().is_success() => return Ok(response),
                Ok(response) => Failure::of_status(&endpoint, response, &self.secrets).await,
                Err(error) => Failure::of_transport(&endpoint, &error, &self.profile),
            };
            if !failure.retriable {
                return Err(failure.message);
            }
            // The server asked the provider to wait, whether or not this call tries again.
            if let (Some(pace), Some(asked)) = (&self.pace, failure.retry_after) {
                pace.hold(asked.min(self.retry.max_retry_after));
            }
            let Some(backoff) = backoff.next() else {
                return Err(format!("{} (gave up after {attempt} attempts)", failure.message));
            };
            let delay = match failure.retry_after {
                Some(asked) if asked > self.retry.max_retry_after => {
                    return Err(format!(
                        "{} (the server asks to wait {} s; this run waits at most {} s)",
                        failure.message,
                        asked.as_secs(),
                        self.retry.max_retry_after.as_secs()
                    ));
                }
                Some(asked) => asked,
                None => backoff,
            };
            // The server's words may repeat the key: the log gets them scrubbed.
            let said = self.secrets.scrub(&failure.message);
            tracing::warn!(attempt, delay_ms = delay.as_millis() as u64, "retrying: {said}");
            tokio::time::sleep(delay).await;
        }
        unreachable!("the loop over attempts only ends by returning")
    }

    /// One model call: send `body`, then read the answer whole or as a stream; the answer as it
    /// came over the wire too, when a recording keeps it and it is not too large to keep.
    async fn call(
        &self,
        body: &Value,
        beta: Option<&'static str>,
    ) -> std::result::Result<(ModelResponse, Option<WireAnswer>), String> {
        self.call_as(body, beta, self.profile.stream, self.recording.is_some()).await
    }

    /// [`call`](Self::call) read as a stream when `stream`, keeping the stream as it came when
    /// `keep_wire`.
    async fn call_as(
        &self,
        body: &Value,
        beta: Option<&'static str>,
        stream: bool,
        keep_wire: bool,
    ) -> std::result::Result<(ModelResponse, Option<WireAnswer>), String> {
        let mut response = self.send(body, beta).await?;
        let endpoint = self.profile.shown(&self.profile.endpoint());
        let is_json = response
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("application/json"));
        // A server that ignores `stream` answers whole: read it so.
        if !stream || is_json {
            let bytes = read_whole(&mut response).await.map_err(|e| body_failure(&endpoint, &e, &self.profile))?;
            // Scrubbed before it is read, so that no message quotes a secret (or the start of one).
            let scrubbed = self.secrets.scrub(&String::from_utf8_lossy(&bytes)).into_owned();
            let answer =
                decode_whole(self.profile.kind, scrubbed.as_bytes()).map_err(|e| format!("{endpoint}: {e}"))?;
            return Ok((answer, Some(WireAnswer { framing: Framing::Whole, bytes })));
        }
        self.read_stream(&endpoint, response, keep_wire).await
    }

    async fn read_stream(
        &self,
        endpoint: &str,
        mut response: reqwest::Response,
        keep_wire: bool,
    ) -> std::result::Result<(ModelResponse, Option<WireAnswer>), String> {
        let mut decoder = SseDecoder::new();
        let mut answer = StreamedAnswer::new(self.profile.kind);
        // The stream as it came, for a recording, while it is not too large to keep.
        let mut wire = keep_wire.then(Vec::new);
        let mut told = 0;
        while let Some(chunk) = response.chunk().await.map_err(|e| body_failure(endpoint, &e.into(), &self.profile))? {
            if wire.as_ref().is_some_and(|kept| kept.len() + chunk.len() > MAX_BODY_BYTES) {
                wire = None;
            }
            if let Some(kept) = &mut wire {
                kept.extend_from_slice(&chunk);
            }
            let events = decoder.feed(&chunk);
            if decoder.pending_bytes() > MAX_BODY_BYTES {
                return Err(format!("the stream from {endpoint} sent an event larger than {MAX_BODY_WORDS}"));
            }
            for mut event in events {
                // Scrubbed before it is read, so that no message quotes a secret (or the start of one).
                if let std::borrow::Cow::Owned(scrubbed) = self.secrets.scrub(&event.data) {
                    event.data = scrubbed;
                }
                let step = answer.accept(&event).map_err(|e| format!("{endpoint}: {e}"))?;
                self.tell_text(answer.text(), &mut told, step == StreamStep::End);
                match step {
                    StreamStep::More => {}
                    StreamStep::End => {
                        let wire = wire.map(|bytes| WireAnswer { framing: Framing::Stream, bytes });
                        return Ok((answer.finish(), wire));
                    }
                }
            }
        }
        Err(format!("the stream from {endpoint} {}", answer.unfinished(&decoder)))
    }
}

impl HttpProvider {
    /// Sends a request an agent host made (its body as it came, in this profile's API) to the
    /// profile's model, under the profile's model name, and answers the model's answer read as a
    /// live call reads it and as it came over the wire (whole, or the stream when `stream`),
    /// scrubbed of the secrets: the host lab's live hosts (spec 13). Retried as a call is; a
    /// failure's message is scrubbed too.
    pub async fn forward(
        &self,
        body: &Value,
        stream: bool,
    ) -> std::result::Result<(ModelResponse, WireAnswer), String> {
        let mut body = body.clone();
        if let Some(fields) = body.as_object_mut() {
            fields.insert("model".to_owned(), Value::String(self.profile.model.clone()));
        }
        let called = tokio::select! {
            biased;
            () = self.cancel.cancelled() => Err("cancelled".to_owned()),
            called = self.call_as(&body, None, stream, true) => called,
        };
        let (answer, wire) = called.map_err(|message| self.secrets.scrub(&message).into_owned())?;
        let answer = self.secrets.scrub_response(answer);
        let wire = match wire {
            Some(WireAnswer { framing, bytes }) => {
                let scrubbed = self.secrets.scrub(&String::from_utf8_lossy(&bytes)).into_owned();
                WireAnswer { framing, bytes: scrubbed.into_bytes() }
            }
            // Too large to keep as it came: the answer it made, whole.
            None => {
                WireAnswer { framing: Framing::Whole, bytes: whole_answer(self.profile.kind, &answer).into_bytes() }
            }
        };
        Ok((answer, wire))
    }

    /// Tells the text sink the part of `text` after `told` that is safe to show (a secret split
    /// across two pieces is held back until it can be scrubbed whole), and moves `told` past it.
    fn tell_text(&self, text: &str, told: &mut usize, finished: bool) {
        let Some(sink) = &self.text_sink else { return };
        if let Some(piece) = self.secrets.next_shown(text, told, finished) {
            (sink.0)(&piece);
        }
    }
}

/// How an answer was framed on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Framing {
    /// Server-sent events.
    Stream,
    /// One JSON document.
    Whole,
}

/// An answer as it came over the wire.
#[derive(Debug, Clone, PartialEq)]
pub struct WireAnswer {
    /// Its framing.
    pub framing: Framing,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

impl WireAnswer {
    /// The answer these bytes hold, read as a live call reads them.
    pub fn decode(&self, kind: ProviderKind) -> std::result::Result<ModelResponse, String> {
        match self.framing {
            Framing::Whole => decode_whole(kind, &self.bytes),
            Framing::Stream => {
                let mut decoder = SseDecoder::new();
                let mut answer = StreamedAnswer::new(kind);
                for event in decoder.feed(&self.bytes) {
                    if answer.accept(&event)? == StreamStep::End {
                        return Ok(answer.finish());
                    }
                }
                Err(format!("the stream {}", answer.unfinished(&decoder)))
            }
        }
    }
}

/// The body a call for `request` posts under `profile`.
pub fn request_body(profile: &ProviderProfile, request: &ModelRequest<'_>) -> Value {
    match profile.kind {
        ProviderKind::Openai => openai::body(profile, request),
        ProviderKind::Anthropic => anthropic::body(profile, request),
        ProviderKind::OpenaiResponses => responses::body(profile, request),
    }
}

/// `answer` as the whole JSON `kind`'s API sends when not streaming, which decodes back to it.
pub(crate) fn whole_answer(kind: ProviderKind, answer: &ModelResponse) -> String {
    unfold_engine::answer_shapes::whole(api_of(kind), answer, None).to_string()
}

/// The wire format a provider of `kind` speaks.
pub fn api_of(kind: ProviderKind) -> HostApi {
    match kind {
        ProviderKind::Openai => HostApi::OpenaiChat,
        ProviderKind::OpenaiResponses => HostApi::OpenaiResponses,
        ProviderKind::Anthropic => HostApi::Anthropic,
    }
}

/// A whole answer's JSON, in `kind`'s format.
fn decode_whole(kind: ProviderKind, bytes: &[u8]) -> std::result::Result<ModelResponse, String> {
    let value: Value = serde_json::from_slice(bytes).map_err(|e| {
        format!("the answer is malformed JSON ({e}): {}", wire::shorten(&String::from_utf8_lossy(bytes)))
    })?;
    match kind {
        ProviderKind::Openai => openai::response(&value),
        ProviderKind::Anthropic => anthropic::response(&value),
        ProviderKind::OpenaiResponses => responses::response(&value),
    }
}

#[async_trait]
impl Provider for HttpProvider {
    async fn complete(&mut self, request: &ModelRequest<'_>) -> Result<ModelResponse> {
        let span = tracing::info_span!(
            "provider_call",
            provider = %self.profile.name,
            kind = self.profile.kind.name(),
            model = %self.profile.model,
            stream = self.profile.stream,
        );
        let cancel = self.cancel.clone();
        let body = request_body(&self.profile, request);
        let beta = anthropic::beta(request.gate);
        // Dropping the call drops its response, which closes the connection.
        let outcome = tokio::select! {
            biased;
            () = cancel.cancelled() => return Err(Error::Cancelled),
            outcome = self.call(&body, beta).instrument(span) => outcome,
        };
        let outcome = outcome.map(|(answer, wire)| {
            // Scrubbed once assembled too: a secret split across two pieces is whole only now.
            let answer = self.secrets.scrub_response(answer);
            if let Some(recording) = &mut self.recording {
                let kind = self.profile.kind;
                let call = match wire {
                    Some(wire) => {
                        let response = String::from_utf8_lossy(&wire.bytes).into_owned();
                        RecordedCall { request: body, framing: wire.framing, response }
                    }
                    // A stream too large to keep is kept as the answer it made, whole.
                    None => {
                        RecordedCall { request: body, framing: Framing::Whole, response: whole_answer(kind, &answer) }
                    }
                };
                recording.push(self.secrets.redact_call(kind, call, &answer));
            }
            answer
        });
        outcome.map_err(|message| {
            let message = self.secrets.scrub(&message).into_owned();
            tracing::warn!("model call failed: {message}");
            Error::Provider(message)
        })
    }

    fn fixed_tools(&self) -> Option<String> {
        self.profile.fixed_tools()
    }

    fn refuses(&self, hidden: HiddenTools) -> Option<String> {
        refusal(&self.profile, hidden)
    }
}

/// Why `profile`'s API cannot send hidden tools the way `hidden` does, if it cannot: only OpenAI's
/// APIs have `allowed_tools` (a server that ignores it is held to it by the run); Anthropic's
/// Messages and OpenAI's Responses (by tool search) defer tools; only Anthropic's has
/// mid-conversation tool changes.
pub fn refusal(profile: &ProviderProfile, hidden: HiddenTools) -> Option<String> {
    let needs = match (hidden, profile.kind) {
        (HiddenTools::Disallowed, ProviderKind::Anthropic) => {
            "`allowed_tools` is OpenAI's; it needs an openai or openai-responses profile"
        }
        (HiddenTools::Deferred, ProviderKind::Openai) => {
            "deferred tools (`defer_loading`) are Anthropic's and OpenAI Responses'; it needs an anthropic or openai-responses profile"
        }
        (HiddenTools::Announced, ProviderKind::Openai | ProviderKind::OpenaiResponses) => {
            "mid-conversation tool changes (`tool_addition`) are Anthropic's; it needs an anthropic profile"
        }
        _ => return None,
    };
    Some(format!("profile '{}' calls the {} API, and {needs}", profile.name, profile.kind.name()))
}

/// The answer of a stream, in the provider's format.
enum StreamedAnswer {
    Openai(openai::OpenAiStream),
    Anthropic(anthropic::AnthropicStream),
    Responses(responses::ResponsesStream),
}

impl StreamedAnswer {
    fn new(kind: ProviderKind) -> StreamedAnswer {
        match kind {
            ProviderKind::Openai => StreamedAnswer::Openai(Default::default()),
            ProviderKind::Anthropic => StreamedAnswer::Anthropic(Default::default()),
            ProviderKind::OpenaiResponses => StreamedAnswer::Responses(Default::default()),
        }
    }

    /// Takes one event; an answer that grows past [`MAX_BODY_BYTES`] fails, as a whole one does.
    fn accept(&mut self, event: &sse::SseEvent) -> std::result::Result<StreamStep, String> {
        let (step, size) = match self {
            StreamedAnswer::Openai(stream) => (stream.accept(event)?, stream.size()),
            StreamedAnswer::Anthropic(stream) => (stream.accept(event)?, stream.size()),
            StreamedAnswer::Responses(stream) => (stream.accept(event)?, stream.size()),
        };
        if size > MAX_BODY_BYTES {
            return Err(format!("the stream sent an answer larger than {MAX_BODY_WORDS} (its text and tool calls)"));
        }
        Ok(step)
    }

    fn finish(self) -> ModelResponse {
        match self {
            StreamedAnswer::Openai(stream) => stream.finish(),
            StreamedAnswer::Anthropic(stream) => stream.finish(),
            StreamedAnswer::Responses(stream) => stream.finish(),
        }
    }

    /// The answer's text so far.
    fn text(&self) -> &str {
        match self {
            StreamedAnswer::Openai(stream) => stream.text(),
            StreamedAnswer::Anthropic(stream) => stream.text(),
            StreamedAnswer::Responses(stream) => stream.text(),
        }
    }

    /// What is wrong with a stream that ended before its end marker.
    fn unfinished(&self, decoder: &SseDecoder) -> String {
        let marker = match self {
            StreamedAnswer::Openai(_) => openai::END_MARKER,
            StreamedAnswer::Anthropic(_) => anthropic::END_MARKER,
            StreamedAnswer::Responses(_) => responses::END_MARKER,
        };
        let cut = if decoder.has_unfinished_event() { ", in the middle of an event" } else { "" };
        format!("ended without its end marker `{marker}`{cut}")
    }
}

/// Why an attempt failed, and whether the retry rules allow another.
struct Failure {
    message: String,
    retriable: bool,
    retry_after: Option<Duration>,
}

impl Failure {
    async fn of_status(endpoint: &str, mut response: reqwest::Response, secrets: &Secrets) -> Failure {
        let status = response.status();
        let retry_after = retry_after(response.headers());
        let body = read_whole(&mut response).await.unwrap_or_default();
        // Scrubbed before it is quoted: cut to a message's length, a secret could lose its end.
        let text = secrets.scrub(&String::from_utf8_lossy(&body)).into_owned();
        let detail = match serde_json::from_str::<Value>(&text) {
            Ok(value) => wire::error_message(value.get("error").unwrap_or(&value)),
            Err(_) => wire::shorten(text.trim()),
        };
        // A spent quota answers 429 too, but waiting does not refill it.
        let quota = text.contains("insufficient_quota") || text.contains("billing_hard_limit");
        let retriable = !quota && (status.as_u16() == 408 || status.as_u16() == 429 || status.is_server_error());
        let detail = if detail.is_empty() { String::new() } else { format!(": {detail}") };
        Failure { message: format!("{endpoint} answered {status}{detail}"), retriable, retry_after }
    }

    fn of_transport(endpoint: &str, error: &reqwest::Error, profile: &ProviderProfile) -> Failure {
        if error.is_timeout() && !error.is_connect() {
            // The request may be at work on the server: sending it again could pay twice.
            let message = format!(
                "{endpoint} sent nothing for {} s (read timeout): {}",
                profile.read_timeout().as_secs_f64(),
                error_chain(error)
            );
            return Failure { message, retriable: false, retry_after: None };
        }
        let message = format!("cannot reach {endpoint}: {}", error_chain(error));
        Failure { message, retriable: true, retry_after: None }
    }
}

/// What a failed read of an answer's body says.
fn body_failure(endpoint: &str, error: &BodyError, profile: &ProviderProfile) -> String {
    match error {
        BodyError::TooLarge => format!("{endpoint} sent an answer larger than {MAX_BODY_WORDS}"),
        BodyError::Read(error) if error.is_timeout() => format!(
            "the answer from {endpoint} stalled: nothing for {} s (read timeout)",
            profile.read_timeout().as_secs_f64()
        ),
        BodyError::Read(error) => format!("the answer from {endpoint} broke off: {}", error_chain(error)),
    }
}

enum BodyError {
    TooLarge,
    Read(reqwest::Error),
}

impl From<reqwest::Error> for BodyError {
    fn from(error: reqwest::Error) -> Self {
        BodyError::Read(error)
    }
}

async fn read_whole(response: &mut reqwest::Response) -> std::result::Result<Vec<u8>, BodyError> {
    let mut bytes = Vec::new();
    while let Some(chunk) = response.chunk().await? {
        if bytes.len() + chunk.len() > MAX_BODY_BYTES {
            return Err(BodyError::TooLarge);
        }
        bytes.extend_from_slice(&chunk);
    }
    Ok(bytes)
}

/// The wait a server asks for: `retry-after-ms` (OpenAI), else `Retry-After` in seconds.
fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    let number = |name: &str| {
        headers.get(name)?.to_str().ok()?.trim().parse::<f64>().ok().filter(|n| n.is_finite() && *n >= 0.0)
    };
    number("retry-after-ms")
        .map(|ms| Duration::from_secs_f64(ms / 1000.0))
        .or_else(|| number("retry-after").map(Duration::from_secs_f64))
}

/// An error with its causes: reqwest's own message names only the request.
fn error_chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let words = cause.to_string();
        if !text.contains(&words) {
            text.push_str(": ");
            text.push_str(&words);
        }
        source = cause.source();
    }
    text
}

/// A run of `input` with a real model under `adapter`: the tools the model calls answer with their
/// `mock` (a live run has no scenario), and `observer` sees each event as it happens.
pub async fn run_live(
    input: &unfold_engine::run::RunInput<'_>,
    adapter: unfold_engine::AdapterKind,
    provider: &mut HttpProvider,
    host: Option<&mut dyn unfold_engine::ToolHost>,
    observer: &mut (dyn FnMut(&unfold_engine::Event) + Send),
) -> Result<unfold_engine::RunReport> {
    let span = tracing::info_span!("live_run", provider = %provider.profile.name, model = %provider.profile.model);
    let mut results = unfold_engine::ScriptedToolResults::default();
    let adapter = unfold_engine::adapter_for(adapter);
    unfold_engine::run_with_host(input, adapter, provider, &mut results, host, observer).instrument(span).await
}
