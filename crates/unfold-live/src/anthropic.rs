//! The Anthropic Messages wire format: the request body a live call posts, and its answer read
//! whole or assembled from the streamed events (`message_start` … `message_stop`; `ping` and event
//! types this version does not know are skipped, an `error` event ends the call).

use serde_json::{json, Value};

use super::sse::SseEvent;
use super::wire::{error_message, PartialCall, StreamStep, CALL_SIZE};
use super::ProviderProfile;
use unfold_engine::openai_request::chat_completions_body;
use unfold_engine::provider::{MeasuredCache, ModelRequest, ModelResponse, ToolGate, Usage};
use unfold_engine::request_shapes::{anthropic_messages, ANTHROPIC_MAX_TOKENS};

/// The API version every request names.
pub(crate) const API_VERSION: &str = "2023-06-01";
/// The beta that lets a request defer tools and a tool result load them by reference.
pub(crate) const TOOL_SEARCH_BETA: &str = "advanced-tool-use-2025-11-20";
/// The beta that lets a system message in the conversation add and remove deferred tools.
pub(crate) const TOOL_CHANGES_BETA: &str = "mid-conversation-tool-changes-2026-07-01";

/// The body of one call: the request in Anthropic's shape (`request_shapes`, what exports show
/// too), with the profile's model and settings.
pub(crate) fn body(profile: &ProviderProfile, request: &ModelRequest<'_>) -> Value {
    let mut body = anthropic_messages(&chat_completions_body(request));
    let fields = body.as_object_mut().expect("anthropic_messages makes an object");
    fields.insert("model".to_owned(), Value::from(profile.model.as_str()));
    fields.insert("max_tokens".to_owned(), json!(profile.max_tokens.unwrap_or(ANTHROPIC_MAX_TOKENS)));
    if let Some(temperature) = profile.temperature {
        fields.insert("temperature".to_owned(), json!(temperature));
    }
    if profile.stream {
        fields.insert("stream".to_owned(), Value::Bool(true));
    }
    body
}

/// The beta a request that sends tools as `gate` says needs: every call of a run names the same
/// one, from the first, which defers tools before anything loads or adds them.
pub(crate) fn beta(gate: ToolGate<'_>) -> Option<&'static str> {
    match gate {
        ToolGate::Deferred(names) if !names.is_empty() => Some(TOOL_SEARCH_BETA),
        ToolGate::Announced(names) if !names.is_empty() => Some(TOOL_CHANGES_BETA),
        _ => None,
    }
}

/// The answer of a call that was not streamed.
pub(crate) fn response(value: &Value) -> Result<ModelResponse, String> {
    if value.get("type").is_some_and(|t| t == "error") {
        let error = value.get("error").unwrap_or(value);
        return Err(format!("the answer is an error: {}", error_message(error)));
    }
    let blocks = value.get("content").and_then(Value::as_array).ok_or("the answer has no content")?;
    let mut stream = AnthropicStream::default();
    for block in blocks {
        stream.start_block(block);
    }
    if let Some(usage) = value.get("usage") {
        stream.add_usage(usage);
    }
    stream.read_stop_reason(value);
    Ok(stream.finish())
}

/// A streamed answer, event by event.
#[derive(Debug, Default)]
pub(crate) struct AnthropicStream {
    text: String,
    calls: Vec<PartialCall>,
    /// For each content block index, the call it is (text blocks are `None`).
    blocks: Vec<Option<usize>>,
    input_tokens: Option<u64>,
    output_tokens: Option<u64>,
    cache_read_tokens: Option<u64>,
    cache_write_tokens: Option<u64>,
    /// `stop_reason: "max_tokens"`: the answer reached the request's `max_tokens`.
    cut_at_limit: bool,
    /// The bytes of text, blocks and tool calls kept so far.
    size: usize,
}

impl AnthropicStream {
    /// The answer's text so far.
    pub(crate) fn text(&self) -> &str {
        &self.text
    }

    /// The bytes of text, blocks and tool calls kept so far.
    pub(crate) fn size(&self) -> usize {
        self.size
    }

    /// Takes one event of the stream.
    pub(crate) fn accept(&mut self, event: &SseEvent) -> Result<StreamStep, String> {
        let data: Value = serde_json::from_str(&event.data).map_err(|e| super::wire::malformed(&event.data, &e))?;
        let kind = data.get("type").and_then(Value::as_str).or(event.name.as_deref()).unwrap_or("");
        match kind {
            "message_start" => {
                if let Some(usage) = data.pointer("/message/usage") {
                    self.add_usage(usage);
                }
            }
            "content_block_start" => {
                if let Some(block) = data.get("content_block") {
                    self.start_block(block);
                }
            }
            "content_block_delta" => self.delta(&data),
            "message_delta" => {
                if let Some(usage) = data.get("usage") {
                    self.add_usage(usage);
                }
                if let Some(delta) = data.get("delta") {
                    self.read_stop_reason(delta);
                }
            }
            "message_stop" => return Ok(StreamStep::End),
            "error" => {
                let error = data.get("error").unwrap_or(&data);
                return Err(format!("the stream carried an error: {}", error_message(error)));
            }
            // `ping`, `content_block_stop`, and event types added to the API later.
            _ => {}
        }
        Ok(StreamStep::More)
    }

    fn start_block(&mut self, block: &Value) {
        // Every block is kept (as its index), whatever it holds.
        self.size += CALL_SIZE;
        match block.get("type").and_then(Value::as_str) {
            Some("tool_use") => {
                let mut call = PartialCall::default();
                let (id, name) = (block.get("id").and_then(Value::as_str), block.get("name").and_then(Value::as_str));
                self.size += call.add(id, name, None);
                if let Some(input) = block.get("input") {
                    self.size += input.to_string().len();
                    call.set_input(input.clone());
                }
                self.calls.push(call);
                self.blocks.push(Some(self.calls.len() - 1));
            }
            Some("text") => {
                let text = block.get("text").and_then(Value::as_str).unwrap_or("");
                self.text.push_str(text);
                self.size += text.len();
                self.blocks.push(None);
            }
            _ => self.blocks.push(None),
        }
    }

    fn delta(&mut self, data: &Value) {
        let Some(delta) = data.get("delta") else { return };
        match delta.get("type").and_then(Value::as_str) {
            Some("text_delta") => {
                let text = delta.get("text").and_then(Value::as_str).unwrap_or("");
                self.text.push_str(text);
                self.size += text.len();
            }
            Some("input_json_delta") => {
                let index = data.get("index").and_then(Value::as_u64).unwrap_or(0) as usize;
                if let Some(Some(call)) = self.blocks.get(index) {
                    self.size += self.calls[*call].add(None, None, delta.get("partial_json").and_then(Value::as_str));
                }
            }
            _ => {}
        }
    }

    /// Takes the `stop_reason` of a whole answer or of a stream's `message_delta`.
    fn read_stop_reason(&mut self, holder: &Value) {
        self.cut_at_limit |= holder.get("stop_reason").and_then(Value::as_str) == Some("max_tokens");
    }

    /// Takes a usage object: each count it has replaces the one before (a stream's last is the
    /// whole). The cache's reads and writes are kept apart from the input tokens, as Anthropic
    /// counts them.
    fn add_usage(&mut self, usage: &Value) {
        let count = |key: &str| usage.get(key).and_then(Value::as_u64);
        for (key, kept) in [
            ("input_tokens", &mut self.input_tokens),
            ("output_tokens", &mut self.output_tokens),
            ("cache_read_input_tokens", &mut self.cache_read_tokens),
            ("cache_creation_input_tokens", &mut self.cache_write_tokens),
        ] {
            if let Some(value) = count(key) {
                *kept = Some(value);
            }
        }
    }

    /// The answer, once `message_stop` came.
    pub(crate) fn finish(self) -> ModelResponse {
        let cache = match (self.cache_read_tokens, self.cache_write_tokens) {
            (None, None) => None,
            (read, write) => Some(MeasuredCache {
                read_tokens: read.unwrap_or(0),
                write_tokens: write.unwrap_or(0),
                in_prompt_tokens: false,
            }),
        };
        let usage = match (self.input_tokens, self.output_tokens) {
            (None, None) => None,
            (input, output) => {
                Some(Usage { prompt_tokens: input.unwrap_or(0), completion_tokens: output.unwrap_or(0), cache })
            }
        };
        ModelResponse {
            text: Some(self.text).filter(|t| !t.is_empty()),
            tool_calls: PartialCall::finish_all(self.calls),
            usage,
            cut_at_limit: self.cut_at_limit,
        }
    }
}

/// The end marker, named in the error when a stream ends without it.
pub(crate) const END_MARKER: &str = "event: message_stop";
