//! The OpenAI Responses wire format: the request body a live call posts (the shape
//! `request_shapes` writes, what exports show too), and its answer read whole or assembled from
//! the streamed events (`response.output_text.delta` … `response.completed`, which carries the
//! whole response; other event types are skipped, `error` and `response.failed` end the call).
//!
//! A model may call the client-run `tool_search` the deferred lane declares instead of reading a
//! section: that comes back as a call of a tool named [`TOOL_SEARCH`], which the run answers as
//! any tool it does not know, and the next body sends back as the search call it was.

use serde_json::{json, Value};

use super::sse::SseEvent;
use super::wire::{error_message, PartialCall, StreamStep, CALL_SIZE};
use super::ProviderProfile;
use unfold_engine::openai_request::chat_completions_body;
use unfold_engine::provider::{MeasuredCache, ModelRequest, ModelResponse, Usage};
use unfold_engine::request_shapes::{openai_responses, TOOL_SEARCH};

/// The body of one call: the request in Responses' shape, with the profile's model and settings.
/// Nothing is stored on OpenAI's side (`store: false`): every call sends the whole conversation.
pub(crate) fn body(profile: &ProviderProfile, request: &ModelRequest<'_>) -> Value {
    let mut body = openai_responses(&chat_completions_body(request));
    let fields = body.as_object_mut().expect("openai_responses makes an object");
    fields.insert("model".to_owned(), Value::from(profile.model.as_str()));
    fields.insert("store".to_owned(), Value::Bool(false));
    if let Some(temperature) = profile.temperature {
        fields.insert("temperature".to_owned(), json!(temperature));
    }
    if let Some(max_tokens) = profile.max_tokens {
        fields.insert("max_output_tokens".to_owned(), json!(max_tokens));
    }
    if profile.stream {
        fields.insert("stream".to_owned(), Value::Bool(true));
    }
    body
}

/// The answer of a call that was not streamed: a response object.
pub(crate) fn response(value: &Value) -> Result<ModelResponse, String> {
    if let Some(error) = value.get("error").filter(|error| !error.is_null()) {
        return Err(format!("the answer is an error: {}", error_message(error)));
    }
    let output = value.get("output").and_then(Value::as_array).ok_or("the answer has no output")?;
    let mut text = String::new();
    let mut calls = Vec::new();
    for item in output {
        match item.get("type").and_then(Value::as_str) {
            Some("message") => {
                for part in item.get("content").and_then(Value::as_array).into_iter().flatten() {
                    let said = part.get("text").or_else(|| part.get("refusal"));
                    text.push_str(said.and_then(Value::as_str).unwrap_or_default());
                }
            }
            Some("function_call") => {
                let mut call = PartialCall::default();
                call.add(
                    item.get("call_id").and_then(Value::as_str),
                    item.get("name").and_then(Value::as_str),
                    item.get("arguments").and_then(Value::as_str),
                );
                calls.push(call);
            }
            Some("tool_search_call") => {
                let mut call = PartialCall::default();
                call.add(item.get("call_id").and_then(Value::as_str), Some(TOOL_SEARCH), None);
                call.set_input(item.get("arguments").cloned().unwrap_or_else(|| json!({})));
                calls.push(call);
            }
            // Reasoning, and what this version does not know, is not part of the answer.
            _ => {}
        }
    }
    Ok(ModelResponse {
        text: Some(text).filter(|t| !t.is_empty()),
        tool_calls: PartialCall::finish_all(calls),
        usage: value.get("usage").and_then(usage),
        // `incomplete` for `max_output_tokens`; the other reason, a content filter, is not a cut.
        cut_at_limit: value.pointer("/incomplete_details/reason").and_then(Value::as_str) == Some("max_output_tokens"),
    })
}

fn usage(value: &Value) -> Option<Usage> {
    // As Chat Completions: the tokens read from the cache are among the input tokens.
    let cached = value.pointer("/input_tokens_details/cached_tokens").and_then(Value::as_u64);
    Some(Usage {
        prompt_tokens: value.get("input_tokens")?.as_u64()?,
        completion_tokens: value.get("output_tokens")?.as_u64()?,
        cache: cached.map(|read_tokens| MeasuredCache { read_tokens, write_tokens: 0, in_prompt_tokens: true }),
    })
}

/// A streamed answer, event by event: the text as it comes, the whole answer from the event that
/// completes it.
#[derive(Debug, Default)]
pub(crate) struct ResponsesStream {
    text: String,
    answer: Option<ModelResponse>,
    /// The bytes of text and tool calls kept so far.
    size: usize,
}

impl ResponsesStream {
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
        let data: Value = serde_json::from_str(&event.data).map_err(|e| super::wire::malformed(&event.data, &e))?;
        match data.get("type").and_then(Value::as_str) {
            Some("response.output_text.delta") => {
                let delta = data.get("delta").and_then(Value::as_str).unwrap_or_default();
                self.text.push_str(delta);
                self.size += delta.len();
                Ok(StreamStep::More)
            }
            Some("response.completed" | "response.incomplete") => {
                let answer = response(data.get("response").unwrap_or(&Value::Null))?;
                let calls: usize = answer.tool_calls.iter().map(|c| CALL_SIZE + c.arguments.to_string().len()).sum();
                self.size = answer.text.as_ref().map_or(0, String::len) + calls;
                // The completed text is the text; the deltas told so far must stay its start.
                if let Some(whole) = answer.text.as_ref().filter(|whole| whole.starts_with(&self.text)) {
                    self.text.clone_from(whole);
                }
                self.answer = Some(answer);
                Ok(StreamStep::End)
            }
            Some("response.failed") => {
                let error = data.pointer("/response/error").unwrap_or(&Value::Null);
                Err(format!("the response failed: {}", error_message(error)))
            }
            Some("error") => Err(format!("the stream carried an error: {}", error_message(&data))),
            _ => Ok(StreamStep::More),
        }
    }

    /// The answer, once the completing event came.
    pub(crate) fn finish(self) -> ModelResponse {
        self.answer.unwrap_or_default()
    }
}

/// The event that ends a stream, named in the error when a stream ends without it.
pub(crate) const END_MARKER: &str = "event: response.completed";

#[cfg(test)]
mod tests {
    use super::*;
    use unfold_documents::host_profile::HostApi;
    use unfold_engine::provider::ToolCall;

    #[test]
    fn a_whole_answer_reads_back_as_the_answer_it_was_a_search_too() {
        let answer = ModelResponse {
            text: Some("Searching.".into()),
            tool_calls: vec![
                ToolCall { id: "c1".into(), name: "lookup".into(), arguments: json!({ "id": 7 }) },
                ToolCall { id: "c2".into(), name: TOOL_SEARCH.into(), arguments: json!({ "names": ["search"] }) },
            ],
            usage: Some(Usage {
                prompt_tokens: 50,
                completion_tokens: 4,
                cache: Some(MeasuredCache { read_tokens: 32, write_tokens: 0, in_prompt_tokens: true }),
            }),
            cut_at_limit: false,
        };
        let whole = unfold_engine::answer_shapes::whole(HostApi::OpenaiResponses, &answer, None);
        assert_eq!(whole["output"][2]["type"], "tool_search_call");
        assert_eq!(response(&whole), Ok(answer));
    }
}
