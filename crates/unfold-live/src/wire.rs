//! What the two wire formats share: tool calls assembled from pieces, the words for an API's error
//! object, and for malformed JSON.

use serde_json::Value;

use unfold_engine::provider::ToolCall;

/// What one event of a stream means for the answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StreamStep {
    /// More is coming.
    More,
    /// The end marker: the answer is whole.
    End,
}

/// What a tool call costs an answer's size besides its text: a stream of empty calls is bounded too.
pub(crate) const CALL_SIZE: usize = 64;

/// A tool call whose id, name and argument text arrive in pieces.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct PartialCall {
    id: String,
    name: String,
    arguments: String,
    /// Arguments given whole as JSON (Anthropic's `input` of a call not streamed).
    input: Option<Value>,
}

impl PartialCall {
    /// Adds the pieces one chunk carries; how many bytes they are.
    pub(crate) fn add(&mut self, id: Option<&str>, name: Option<&str>, arguments: Option<&str>) -> usize {
        if let Some(id) = id.filter(|id| !id.is_empty()) {
            self.id = id.to_owned();
        }
        if let Some(name) = name {
            self.name.push_str(name);
        }
        if let Some(arguments) = arguments {
            self.arguments.push_str(arguments);
        }
        [id, name, arguments].iter().flatten().map(|piece| piece.len()).sum()
    }

    /// Arguments given as a JSON value, used when no argument text arrives.
    pub(crate) fn set_input(&mut self, input: Value) {
        self.input = Some(input);
    }

    /// The finished calls, in order; a call without an id gets `call_N` (some local servers leave
    /// it out, and the tool result must name its call).
    pub(crate) fn finish_all(calls: Vec<PartialCall>) -> Vec<ToolCall> {
        calls.into_iter().enumerate().map(|(i, call)| call.finish(i)).collect()
    }

    /// Arguments that are not JSON stay their text, a JSON string: the run then answers the call
    /// with a failed tool result that quotes it, without running the tool (the model may fix it).
    fn finish(self, position: usize) -> ToolCall {
        let arguments = if self.arguments.trim().is_empty() {
            // No argument text: a tool without parameters, or Anthropic's whole `input`.
            self.input.unwrap_or_else(|| Value::Object(serde_json::Map::new()))
        } else {
            serde_json::from_str(&self.arguments).unwrap_or(Value::String(self.arguments))
        };
        let id = if self.id.is_empty() { format!("call_{position}") } else { self.id };
        ToolCall { id, name: self.name, arguments }
    }
}

/// The words of an API error object: OpenAI's `{"message", "type", "code"}` and Anthropic's
/// `{"type", "message"}`, or the JSON itself when it has neither.
pub(crate) fn error_message(error: &Value) -> String {
    let text = |key: &str| error.get(key).and_then(Value::as_str).filter(|s| !s.is_empty());
    match (text("type").or(text("code")), text("message")) {
        (Some(kind), Some(message)) => format!("{kind}: {message}"),
        (None, Some(message)) => message.to_owned(),
        _ => match error.as_str() {
            Some(text) => text.to_owned(),
            None => shorten(&error.to_string()),
        },
    }
}

/// The message for a stream event whose data is not JSON.
pub(crate) fn malformed(data: &str, error: &serde_json::Error) -> String {
    format!("the stream holds malformed JSON ({error}): {}", shorten(data))
}

/// `text` cut to a length a message can quote.
pub(crate) fn shorten(text: &str) -> String {
    const MAX: usize = 300;
    match text.char_indices().nth(MAX) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn assembles_arguments_from_pieces_and_keeps_bad_ones_as_text() {
        let mut whole = PartialCall::default();
        whole.add(Some("c1"), Some("look"), Some("{\"id\""));
        whole.add(None, Some("up"), Some(": 7}"));
        let mut broken = PartialCall::default();
        broken.add(None, Some("lookup"), Some("{\"id\": 7"));
        let mut empty = PartialCall::default();
        empty.add(Some(""), Some("now"), None);
        let calls = PartialCall::finish_all(vec![whole, broken, empty]);
        assert_eq!(calls[0], ToolCall { id: "c1".into(), name: "lookup".into(), arguments: json!({ "id": 7 }) });
        assert_eq!(calls[1], ToolCall { id: "call_1".into(), name: "lookup".into(), arguments: json!("{\"id\": 7") });
        assert_eq!(calls[2], ToolCall { id: "call_2".into(), name: "now".into(), arguments: json!({}) });
    }

    #[test]
    fn words_error_objects_of_both_apis() {
        let openai = json!({ "message": "Rate limit reached", "type": "requests", "code": "rate_limit_exceeded" });
        assert_eq!(error_message(&openai), "requests: Rate limit reached");
        let anthropic = json!({ "type": "overloaded_error", "message": "Overloaded" });
        assert_eq!(error_message(&anthropic), "overloaded_error: Overloaded");
        assert_eq!(error_message(&json!("plain")), "plain");
        assert_eq!(error_message(&json!({ "detail": 1 })), "{\"detail\":1}");
    }
}
