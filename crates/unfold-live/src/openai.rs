//! The OpenAI Chat Completions wire format: the request body a live call posts, and its answer
//! read whole or assembled from the streamed chunks (`data: {…}` lines ending with `data: [DONE]`).

use std::collections::BTreeMap;

use serde_json::{json, Value};

use super::sse::SseEvent;
use super::wire::{error_message, PartialCall, StreamStep, CALL_SIZE};
use super::ProviderProfile;
use unfold_engine::openai_request::chat_completions_body;
use unfold_engine::provider::{MeasuredCache, ModelRequest, ModelResponse, Usage};

/// The body of one call: the request as [`chat_completions_body`] writes it, with the profile's
/// model and settings.
pub(crate) fn body(profile: &ProviderProfile, request: &ModelRequest<'_>) -> Value {
    let mut body = chat_completions_body(request);
    let fields = body.as_object_mut().expect("chat_completions_body makes an object");
    fields.insert("model".to_owned(), Value::from(profile.model.as_str()));
    if let Some(temperature) = profile.temperature {
        fields.insert("temperature".to_owned(), json!(temperature));
    }
    if let Some(max_tokens) = profile.max_tokens {
        fields.insert("max_tokens".to_owned(), json!(max_tokens));
    }
    if profile.stream {
        fields.insert("stream".to_owned(), Value::Bool(true));
        // Without it the usage of a streamed answer is never sent.
        fields.insert("stream_options".to_owned(), json!({ "include_usage": true }));
    }
    body
}

/// The answer of a call that was not streamed.
pub(crate) fn response(value: &Value) -> Result<ModelResponse, String> {
    if let Some(error) = value.get("error") {
        return Err(format!("the answer is an error: {}", error_message(error)));
    }
    let message =
        value.pointer("/choices/0/message").ok_or_else(|| "the answer has no choices[0].message".to_owned())?;
    let mut calls = Vec::new();
    for call in message.get("tool_calls").and_then(Value::as_array).into_iter().flatten() {
        let mut partial = PartialCall::default();
        partial.add(
            call.get("id").and_then(Value::as_str),
            call.pointer("/function/name").and_then(Value::as_str),
            call.pointer("/function/arguments").and_then(Value::as_str),
        );
        calls.push(partial);
    }
    Ok(ModelResponse {
        text: message.get("content").and_then(Value::as_str).filter(|t| !t.is_empty()).map(str::to_owned),
        tool_calls: PartialCall::finish_all(calls),
        usage: value.get("usage").and_then(usage),
        cut_at_limit: cut_at_limit(value.pointer("/choices/0/finish_reason")),
    })
}

/// `finish_reason: "length"`: the answer reached `max_tokens` (or the context's end).
fn cut_at_limit(finish_reason: Option<&Value>) -> bool {
    finish_reason.and_then(Value::as_str) == Some("length")
}

fn usage(value: &Value) -> Option<Usage> {
    // The tokens read from the cache are among the prompt tokens; OpenAI does not count writes.
    let cached = value.pointer("/prompt_tokens_details/cached_tokens").and_then(Value::as_u64);
    Some(Usage {
        prompt_tokens: value.get("prompt_tokens")?.as_u64()?,
        completion_tokens: value.get("completion_tokens")?.as_u64()?,
        cache: cached.map(|read_tokens| MeasuredCache { read_tokens, write_tokens: 0, in_prompt_tokens: true }),
    })
}

/// A streamed answer, chunk by chunk.
#[derive(Debug, Default)]
pub(crate) struct OpenAiStream {
    text: String,
    /// Tool calls by the `index` the chunks give them (found in log time, however many).
    calls: BTreeMap<u64, PartialCall>,
    usage: Option<Usage>,
    /// A chunk's `finish_reason` said the answer was cut.
    cut_at_limit: bool,
    /// The bytes of text and tool calls kept so far.
    size: usize,
}

impl OpenAiStream {
    /// The answer's text so far.
    pub(crate) fn text(&self) -> &str {
        &self.text
    }

    /// The bytes of text and tool calls kept so far.
    pub(crate) fn size(&self) -> usize {
        self.size
    }

    /// Takes one event of the stream.
    pub(crate) fn accept(&mut self, event: &SseEvent) -> Result<StreamStep, String> {
        if event.data.trim() == "[DONE]" {
            return Ok(StreamStep::End);
        }
        let chunk: Value = serde_json::from_str(&event.data).map_err(|e| super::wire::malformed(&event.data, &e))?;
        if let Some(error) = chunk.get("error") {
            return Err(format!("the stream carried an error: {}", error_message(error)));
        }
        if let Some(usage) = chunk.get("usage").and_then(usage) {
            self.usage = Some(usage);
        }
        self.cut_at_limit |= cut_at_limit(chunk.pointer("/choices/0/finish_reason"));
        let Some(delta) = chunk.pointer("/choices/0/delta") else { return Ok(StreamStep::More) };
        if let Some(text) = delta.get("content").and_then(Value::as_str) {
            self.text.push_str(text);
            self.size += text.len();
        }
        for call in delta.get("tool_calls").and_then(Value::as_array).into_iter().flatten() {
            let index = call.get("index").and_then(Value::as_u64).unwrap_or(0);
            let partial = self.calls.entry(index).or_insert_with(|| {
                self.size += CALL_SIZE;
                PartialCall::default()
            });
            self.size += partial.add(
                call.get("id").and_then(Value::as_str),
                call.pointer("/function/name").and_then(Value::as_str),
                call.pointer("/function/arguments").and_then(Value::as_str),
            );
        }
        Ok(StreamStep::More)
    }

    /// The answer, once the end marker came.
    pub(crate) fn finish(self) -> ModelResponse {
        ModelResponse {
            text: Some(self.text).filter(|t| !t.is_empty()),
            tool_calls: PartialCall::finish_all(self.calls.into_values().collect()),
            usage: self.usage,
            cut_at_limit: self.cut_at_limit,
        }
    }
}

/// The end marker, named in the error when a stream ends without it.
pub(crate) const END_MARKER: &str = "data: [DONE]";
