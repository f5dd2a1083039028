//! Server-sent events as LLM APIs stream them, decoded from bytes as they arrive.
//!
//! Written here rather than taken from a crate because a truncated stream must be visible: the
//! WHATWG rule drops an unfinished event silently, and a model's answer cut mid-way must end the
//! run with an error instead (`../shared/setup/PITFALLS.md`). The decoder follows the WHATWG
//! format otherwise: CR, LF and CRLF line ends (a CR at the end of one chunk and an LF at the start
//! of the next are one line end), `:` comments, several `data:` lines joined by LF, a leading BOM.

/// One event: its `event:` name, if any, and its data lines joined by LF.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SseEvent {
    /// The `event:` field, when the server names the event (Anthropic does, OpenAI does not).
    pub name: Option<String>,
    /// The data.
    pub data: String,
}

/// Turns chunks of a response body into events.
#[derive(Debug, Default)]
pub struct SseDecoder {
    /// Bytes of a line not ended yet.
    line: Vec<u8>,
    /// The last byte seen was a CR: an LF right after it ends no second line.
    after_cr: bool,
    /// Whether the start of the stream (and its BOM, if any) is behind us.
    started: bool,
    name: Option<String>,
    data: Option<String>,
}

const BOM: &[u8] = b"\xEF\xBB\xBF";

impl SseDecoder {
    /// A decoder at the start of a stream.
    pub fn new() -> SseDecoder {
        SseDecoder::default()
    }

    /// Decodes `chunk`, returning every event it completes.
    pub fn feed(&mut self, chunk: &[u8]) -> Vec<SseEvent> {
        let mut events = Vec::new();
        for &byte in chunk {
            match byte {
                b'\n' if self.after_cr => self.after_cr = false,
                b'\r' | b'\n' => {
                    self.after_cr = byte == b'\r';
                    self.end_line(&mut events);
                }
                _ => {
                    self.after_cr = false;
                    self.line.push(byte);
                    if !self.started && self.line.len() == BOM.len() {
                        self.started = true;
                        if self.line == BOM {
                            self.line.clear();
                        }
                    }
                }
            }
        }
        events
    }

    /// How many bytes of an event not ended yet it holds: what a stream that never ends one costs.
    pub fn pending_bytes(&self) -> usize {
        let name = self.name.as_ref().map_or(0, String::len);
        self.line.len() + name + self.data.as_ref().map_or(0, String::len)
    }

    /// Whether bytes of an event that no blank line ended yet are pending: at the end of the body,
    /// that is a truncated stream.
    pub fn has_unfinished_event(&self) -> bool {
        !self.line.is_empty() || self.data.is_some() || self.name.is_some()
    }

    fn end_line(&mut self, events: &mut Vec<SseEvent>) {
        self.started = true;
        let line = String::from_utf8_lossy(&self.line).into_owned();
        self.line.clear();
        if line.is_empty() {
            if let Some(data) = self.data.take() {
                events.push(SseEvent { name: self.name.take(), data });
            }
            self.name = None;
            return;
        }
        if line.starts_with(':') {
            return;
        }
        let (field, value) = match line.split_once(':') {
            Some((field, value)) => (field, value.strip_prefix(' ').unwrap_or(value)),
            None => (line.as_str(), ""),
        };
        match field {
            "event" => self.name = Some(value.to_owned()),
            "data" => match &mut self.data {
                Some(data) => {
                    data.push('\n');
                    data.push_str(value);
                }
                None => self.data = Some(value.to_owned()),
            },
            // `id` and `retry` steer a browser's reconnection; an LLM call is never resumed.
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(name: Option<&str>, data: &str) -> SseEvent {
        SseEvent { name: name.map(str::to_owned), data: data.to_owned() }
    }

    fn decode_in_pieces(stream: &[u8], piece: usize) -> (Vec<SseEvent>, bool) {
        let mut decoder = SseDecoder::new();
        let events = stream.chunks(piece).flat_map(|chunk| decoder.feed(chunk)).collect();
        (events, decoder.has_unfinished_event())
    }

    #[test]
    fn decodes_every_line_ending_and_chunking_alike() {
        let expected = vec![event(None, "{\"a\":1}"), event(Some("message_stop"), "x\ny"), event(None, "[DONE]")];
        for ending in ["\n", "\r", "\r\n"] {
            let stream = [
                "data: {\"a\":1}",
                "",
                ": keep-alive",
                "event: message_stop",
                "data: x",
                "data:y",
                "",
                "data: [DONE]",
                "",
                "",
            ]
            .join(ending);
            for piece in 1..=stream.len() {
                let (events, unfinished) = decode_in_pieces(stream.as_bytes(), piece);
                assert_eq!(events, expected, "ending {ending:?}, pieces of {piece}");
                assert!(!unfinished);
            }
        }
    }

    #[test]
    fn skips_a_leading_bom_and_keeps_utf8_split_across_chunks() {
        let stream = "\u{feff}data: héllo ✓\n\n".as_bytes();
        for piece in 1..=stream.len() {
            assert_eq!(decode_in_pieces(stream, piece).0, [event(None, "héllo ✓")], "pieces of {piece}");
        }
    }

    #[test]
    fn reports_an_event_cut_before_its_blank_line() {
        for cut in ["data: {\"a\"", "data: {\"a\":1}\n", "event: ping\n", "data: [DONE]"] {
            let (events, unfinished) = decode_in_pieces(cut.as_bytes(), 4);
            assert_eq!(events, []);
            assert!(unfinished, "{cut:?}");
        }
    }

    #[test]
    fn an_event_without_data_is_not_dispatched() {
        assert_eq!(decode_in_pieces(b"event: ping\n\ndata: 1\n\n", 3).0, [event(None, "1")]);
    }

    #[test]
    fn a_field_without_colon_and_unknown_fields_are_ignored_or_empty() {
        let (events, _) = decode_in_pieces(b"id: 4\nretry: 10\ndata\n\n", 5);
        assert_eq!(events, [event(None, "")]);
    }
}
