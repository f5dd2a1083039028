//! Server-sent events as they come over a connection: text in, whole events out, whatever the
//! chunks' boundaries.

use serde_json::Value;

/// Collects a stream's text and hands out its events.
#[derive(Debug, Default)]
pub struct SseReader {
    buffer: String,
}

impl SseReader {
    /// Takes the next chunk of the stream and returns the events it completed, each as its name
    /// and its JSON data (an event without a name or JSON data is skipped).
    pub fn push(&mut self, chunk: &[u8]) -> Vec<(String, Value)> {
        self.buffer.push_str(&String::from_utf8_lossy(chunk).replace("\r\n", "\n"));
        let mut events = Vec::new();
        while let Some(end) = self.buffer.find("\n\n") {
            let block: String = self.buffer.drain(..end + 2).collect();
            events.extend(parse_block(&block));
        }
        events
    }
}

fn parse_block(block: &str) -> Option<(String, Value)> {
    let mut name = None;
    let mut data = String::new();
    for line in block.lines() {
        if let Some(value) = line.strip_prefix("event:") {
            name = Some(value.trim().to_owned());
        } else if let Some(value) = line.strip_prefix("data:") {
            data.push_str(value.strip_prefix(' ').unwrap_or(value));
        }
    }
    Some((name?, serde_json::from_str(&data).ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_are_whole_wherever_the_chunks_cut_them() {
        let text = b"event: heartbeat\ndata: {}\n\nevent: tool-request\ndata: {\"id\":\"A\"}\n\n: a comment\n\n";
        for cut in 0..text.len() {
            let mut reader = SseReader::default();
            let mut events = reader.push(&text[..cut]);
            events.extend(reader.push(&text[cut..]));
            let names: Vec<&str> = events.iter().map(|(name, _)| name.as_str()).collect();
            assert_eq!(names, ["heartbeat", "tool-request"], "cut at {cut}");
            assert_eq!(events[1].1["id"], "A");
        }
    }
}
