//! The log of every message a host sends a server, each with when it arrived: a reader that
//! passes the host's bytes on untouched and copies each line (a JSON-RPC message on stdio) to a
//! [`MessageLog`], which writes them as JSON lines on a thread of its own, so a slow disk never
//! slows the session; an HTTP endpoint logs each request it answered there too.
//!
//! A line is kept up to [`MAX_LOGGED_LINE`] bytes; a longer one is logged cut, with its length, so
//! a host cannot make the server keep what it sends.

use std::io::Write;
use std::path::Path;
use std::pin::Pin;
use std::sync::mpsc;
use std::task::{Context, Poll};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use serde_json::{json, Value};
use tokio::io::{AsyncRead, ReadBuf};

/// The field of a log entry that says how long a server worked on a request, in microseconds.
pub const BUSY_FIELD: &str = "busy_us";

/// Microseconds since `started`.
pub fn busy_us(started: Instant) -> u64 {
    u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX)
}

/// How long the servers whose logs are `entries` worked, all told (their `busy_us`).
pub fn busy_time(entries: &[Value]) -> std::time::Duration {
    let micros = entries.iter().filter_map(|entry| entry[BUSY_FIELD].as_u64()).fold(0u64, u64::saturating_add);
    std::time::Duration::from_micros(micros)
}

/// The most of one line a log keeps.
pub const MAX_LOGGED_LINE: usize = 1024 * 1024;

/// Where the lines go: a writer thread, stopped when every sender is dropped.
#[derive(Debug, Clone)]
pub struct MessageLog {
    /// Lines to write; `None` ends the log.
    lines: mpsc::Sender<Option<String>>,
    writer: std::sync::Arc<std::sync::Mutex<Option<std::thread::JoinHandle<()>>>>,
}

impl MessageLog {
    /// A log written to `path` (created, or emptied), one JSON object per line:
    /// `{"at_unix_ms": …, "message": {…}}` (`"text"` for a line that is not JSON, with
    /// `"cut_from_bytes"` when it was longer than [`MAX_LOGGED_LINE`]).
    pub fn create(path: &Path) -> Result<MessageLog, crate::Error> {
        let file = std::fs::File::create(path).map_err(|source| crate::Error::Log { path: path.to_owned(), source })?;
        let (lines, received) = mpsc::channel::<Option<String>>();
        let writer = std::thread::Builder::new()
            .name("unfold-message-log".into())
            .spawn(move || {
                let mut file = std::io::BufWriter::new(file);
                for line in received.iter().map_while(|line| line) {
                    // A log that cannot be written is not worth ending the session for.
                    if writeln!(file, "{line}").and_then(|()| file.flush()).is_err() {
                        tracing::warn!("the message log could not be written");
                    }
                }
            })
            .map_err(|source| crate::Error::Log { path: path.to_owned(), source })?;
        Ok(MessageLog { lines, writer: std::sync::Arc::new(std::sync::Mutex::new(Some(writer))) })
    }

    /// Ends the log: every line logged before is written when this returns; any logged after, by
    /// a handle still held elsewhere, is not.
    pub fn finish(self) {
        let writer = self.writer.lock().ok().and_then(|mut writer| writer.take());
        let _ = self.lines.send(None);
        if let Some(writer) = writer {
            let _ = writer.join();
        }
    }

    /// Logs `entry` (an object), with when it was logged: a request an endpoint answered.
    pub fn record_value(&self, entry: Value) {
        let mut logged = json!({ "at_unix_ms": now_unix_ms() });
        if let (Some(logged), Value::Object(fields)) = (logged.as_object_mut(), entry) {
            logged.extend(fields);
        }
        let _ = self.lines.send(Some(logged.to_string()));
    }

    /// Logs how long a server worked on one request since `started`: `{"busy_us": …}`, Unfold's
    /// share of a host run (see [`busy_us`]).
    pub fn record_busy(&self, started: Instant) {
        self.record_value(json!({ BUSY_FIELD: busy_us(started) }));
    }

    /// Logs one message a host sent over HTTP (a request's body), as it arrived now: kept as a
    /// line of stdio would be.
    pub fn record_message(&self, body: &[u8]) {
        self.record(&body[..body.len().min(MAX_LOGGED_LINE)], body.len());
    }

    /// Logs one line the host sent, as it arrived now.
    fn record(&self, line: &[u8], length: usize) {
        let at_unix_ms = now_unix_ms();
        let text = String::from_utf8_lossy(line);
        let mut entry = match serde_json::from_str::<Value>(text.trim_end()) {
            Ok(message) if length == line.len() => json!({ "at_unix_ms": at_unix_ms, "message": message }),
            _ => json!({ "at_unix_ms": at_unix_ms, "text": text.trim_end() }),
        };
        if length > line.len() {
            entry["cut_from_bytes"] = json!(length);
        }
        let _ = self.lines.send(Some(entry.to_string()));
    }
}

fn now_unix_ms() -> u128 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis())
}

/// A reader of what a host sends that logs each line as it passes.
#[derive(Debug)]
pub struct LoggedReader<R> {
    inner: R,
    log: MessageLog,
    /// The line read so far (at most [`MAX_LOGGED_LINE`] bytes of it).
    line: Vec<u8>,
    /// Its whole length, kept or not.
    length: usize,
}

impl<R> LoggedReader<R> {
    /// `inner`, logged to `log`.
    pub fn new(inner: R, log: MessageLog) -> LoggedReader<R> {
        LoggedReader { inner, log, line: Vec::new(), length: 0 }
    }

    fn take(&mut self, bytes: &[u8]) {
        for piece in bytes.split_inclusive(|b| *b == b'\n') {
            let room = MAX_LOGGED_LINE.saturating_sub(self.line.len());
            self.line.extend_from_slice(&piece[..piece.len().min(room)]);
            self.length += piece.len();
            if piece.ends_with(b"\n") {
                if self.length > 1 {
                    self.log.record(&self.line, self.length);
                }
                self.line.clear();
                self.length = 0;
            }
        }
    }
}

impl<R: AsyncRead + Unpin> AsyncRead for LoggedReader<R> {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.inner).poll_read(cx, buf);
        if let Poll::Ready(Ok(())) = &polled {
            let read = buf.filled()[before..].to_vec();
            self.take(&read);
        }
        polled
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncReadExt;

    fn lines_of(path: &Path) -> Vec<Value> {
        let text = std::fs::read_to_string(path).unwrap();
        text.lines().map(|l| serde_json::from_str(l).unwrap()).collect()
    }

    #[test]
    fn every_line_is_logged_as_it_passes_untouched_and_a_long_one_cut() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("messages.jsonl");
        let long = format!("{{\"x\":\"{}\"}}\n", "a".repeat(MAX_LOGGED_LINE));
        let sent = format!("{{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"id\":1}}\nnot json\n{long}");
        let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
        let log = MessageLog::create(&path).unwrap();
        let passed = runtime.block_on(async {
            let mut reader = LoggedReader::new(sent.as_bytes(), log.clone());
            let mut passed = String::new();
            reader.read_to_string(&mut passed).await.unwrap();
            passed
        });
        log.finish();
        assert_eq!(passed, sent, "the bytes pass untouched");
        let lines = lines_of(&path);
        assert_eq!(lines[0]["message"]["method"], "ping");
        assert!(lines[0]["at_unix_ms"].as_u64().unwrap() > 1_700_000_000_000);
        assert_eq!(lines[1]["text"], "not json");
        assert_eq!(lines[2]["cut_from_bytes"], long.len());
        assert!(lines[2]["text"].as_str().unwrap().len() <= MAX_LOGGED_LINE);
    }
}
