//! A real model behind the model endpoint (spec 13, live hosts): instead of answering from the
//! script, the endpoint hands each request of the host to an [`Upstream`] and gives the host the
//! model's answer as it came, recording both. What the upstream is (a provider profile's model,
//! its key) is the application's business: the host lab knows only this trait, so it needs no
//! HTTP client of its own, and a key never reaches it.

use std::future::Future;
use std::pin::Pin;

use serde_json::Value;
use unfold_documents::host_profile::HostApi;
use unfold_engine::ModelResponse;

/// What the model answered one forwarded request.
#[derive(Debug, Clone, PartialEq)]
pub struct Forwarded {
    /// The answer as the model gave it: its text, its tool calls, its usage.
    pub answer: ModelResponse,
    /// The answer's bytes as they came (scrubbed of any secret).
    pub bytes: Vec<u8>,
    /// Whether `bytes` are a stream of server-sent events (else one JSON document).
    pub streamed: bool,
}

/// A future an [`Upstream`] answers with.
pub type Forwarding<'a> = Pin<Box<dyn Future<Output = Result<Forwarded, String>> + Send + 'a>>;

/// A real model the endpoint forwards a host's requests to.
pub trait Upstream: Send + Sync + std::fmt::Debug {
    /// The API it speaks: a request in another cannot be forwarded.
    fn api(&self) -> HostApi;
    /// Which model it is, as a report names it (`claude-sonnet-4-6 at https://…`).
    fn describe(&self) -> String;
    /// Sends the host's request `body` (as it came) and answers the model's answer, streamed when
    /// `stream`; why not, when the model could not be reached or refused (no secret in it).
    fn forward<'a>(&'a self, body: &'a Value, stream: bool) -> Forwarding<'a>;
}
