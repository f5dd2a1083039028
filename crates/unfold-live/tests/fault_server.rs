//! A fault-injection HTTP server for the live provider's tests: a raw tokio listener on a real
//! socket that answers each request with the next scripted [`Reply`], which can stall, cut a body
//! mid-stream, send malformed SSE or refuse, and records what it was sent and when the client hung
//! up. Every answer closes its connection, so a request is a connection. A server may check each
//! request as the API it stands in for would, and refuse one it would refuse with a `400`.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Notify;

/// How the server answers one request.
#[derive(Debug, Clone)]
pub enum Reply {
    /// A status with headers and a body, whole.
    Status { status: u16, headers: Vec<(&'static str, String)>, body: String },
    /// `200`, `text/event-stream`, then each piece written with a pause before it; then the
    /// connection closes, or stays open and silent when `stall` is set.
    Stream { pieces: Vec<(Duration, String)>, stall: bool },
    /// The connection is closed before any answer.
    Hangup,
}

impl Reply {
    /// `200` with a JSON body.
    pub fn json(body: serde_json::Value) -> Reply {
        Reply::Status {
            status: 200,
            headers: vec![("content-type", "application/json".into())],
            body: body.to_string(),
        }
    }

    /// A status with a JSON error body and extra headers.
    pub fn error(status: u16, body: serde_json::Value, headers: &[(&'static str, &str)]) -> Reply {
        let mut all = vec![("content-type", "application/json".to_owned())];
        all.extend(headers.iter().map(|(name, value)| (*name, (*value).to_owned())));
        Reply::Status { status, headers: all, body: body.to_string() }
    }

    /// A stream of these pieces written at once, then closed.
    pub fn stream(pieces: &[&str]) -> Reply {
        Reply::Stream { pieces: pieces.iter().map(|p| (Duration::ZERO, (*p).to_owned())).collect(), stall: false }
    }

    /// A stream of these pieces, then silence with the connection open.
    pub fn stalled(pieces: &[&str]) -> Reply {
        Reply::Stream { pieces: pieces.iter().map(|p| (Duration::ZERO, (*p).to_owned())).collect(), stall: true }
    }
}

/// A request the server was sent.
#[derive(Debug, Clone)]
pub struct Received {
    /// When its head was read.
    pub at: Instant,
    /// The request line and headers, lower-cased names.
    pub head: String,
    /// The body, as JSON.
    pub body: serde_json::Value,
}

impl Received {
    /// A header's value.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.head.lines().find_map(|line| {
            let (key, value) = line.split_once(':')?;
            key.eq_ignore_ascii_case(name).then(|| value.trim())
        })
    }
}

#[derive(Default)]
struct Shared {
    received: Vec<Received>,
    /// When the client closed a connection the server was keeping open (a stall).
    hung_up: Vec<Instant>,
    /// When the last piece of a stalled stream was written.
    stalled_at: Option<Instant>,
}

/// Why the API a server stands in for would refuse a request, if it would.
pub type Check = fn(&Received) -> Option<String>;

/// A running server; it stops when dropped.
pub struct FaultServer {
    /// `http://127.0.0.1:PORT/v1`
    pub base_url: String,
    shared: Arc<Mutex<Shared>>,
    stalled: Arc<Notify>,
    task: tokio::task::JoinHandle<()>,
}

impl FaultServer {
    /// Starts a server answering the n-th request with `replies[n]` (the last one repeats).
    pub async fn start(replies: Vec<Reply>) -> FaultServer {
        FaultServer::checking(replies, |_| None).await
    }

    /// [`Self::start`], answering a request `check` refuses with a `400` that says why, as
    /// Anthropic's API words an invalid request.
    pub async fn checking(replies: Vec<Reply>, check: Check) -> FaultServer {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind a local port");
        let base_url = format!("http://{}/v1", listener.local_addr().unwrap());
        let shared = Arc::new(Mutex::new(Shared::default()));
        let stalled = Arc::new(Notify::new());
        let (task_shared, task_stalled) = (shared.clone(), stalled.clone());
        let task = tokio::spawn(async move {
            for n in 0.. {
                let Ok((socket, _)) = listener.accept().await else { return };
                let reply = replies[n.min(replies.len() - 1)].clone();
                tokio::spawn(serve(socket, reply, check, task_shared.clone(), task_stalled.clone()));
            }
        });
        FaultServer { base_url, shared, stalled, task }
    }

    /// Every request received so far.
    pub fn received(&self) -> Vec<Received> {
        self.shared.lock().unwrap().received.clone()
    }

    /// Waits until a stalled stream has written its pieces; returns when that was.
    pub async fn wait_for_stall(&self) -> Instant {
        loop {
            let notified = self.stalled.notified();
            if let Some(at) = self.shared.lock().unwrap().stalled_at {
                return at;
            }
            notified.await;
        }
    }

    /// Waits (up to `limit`) until the client closes a stalled connection; returns when it did.
    pub async fn wait_for_hangup(&self, limit: Duration) -> Option<Instant> {
        let deadline = Instant::now() + limit;
        while Instant::now() < deadline {
            if let Some(at) = self.shared.lock().unwrap().hung_up.first() {
                return Some(*at);
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        None
    }
}

impl Drop for FaultServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn serve(mut socket: TcpStream, reply: Reply, check: Check, shared: Arc<Mutex<Shared>>, stalled: Arc<Notify>) {
    let Some((head, body)) = read_request(&mut socket).await else { return };
    let body = serde_json::from_slice(&body).unwrap_or(serde_json::Value::Null);
    let received = Received { at: Instant::now(), head, body };
    let refused = check(&received).map(|message| {
        let error =
            serde_json::json!({ "type": "error", "error": { "type": "invalid_request_error", "message": message } });
        Reply::error(400, error, &[])
    });
    shared.lock().unwrap().received.push(received);
    let reply = refused.unwrap_or(reply);
    match reply {
        Reply::Hangup => {}
        Reply::Status { status, headers, body } => {
            let mut text = format!("HTTP/1.1 {status} X\r\ncontent-length: {}\r\nconnection: close\r\n", body.len());
            for (name, value) in headers {
                text.push_str(&format!("{name}: {value}\r\n"));
            }
            text.push_str("\r\n");
            text.push_str(&body);
            let _ = socket.write_all(text.as_bytes()).await;
        }
        Reply::Stream { pieces, stall } => {
            let head = "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nconnection: close\r\n\r\n";
            if socket.write_all(head.as_bytes()).await.is_err() {
                return;
            }
            for (pause, piece) in pieces {
                tokio::time::sleep(pause).await;
                if socket.write_all(piece.as_bytes()).await.is_err() || socket.flush().await.is_err() {
                    return;
                }
            }
            if stall {
                shared.lock().unwrap().stalled_at = Some(Instant::now());
                stalled.notify_waiters();
                // Silent until the client goes: a read of 0 bytes (or an error) is its hangup.
                let mut buffer = [0u8; 64];
                while matches!(socket.read(&mut buffer).await, Ok(n) if n > 0) {}
                shared.lock().unwrap().hung_up.push(Instant::now());
            }
        }
    }
    let _ = socket.shutdown().await;
}

/// Reads one request: its head (up to the blank line) and a body of its `content-length`.
async fn read_request(socket: &mut TcpStream) -> Option<(String, Vec<u8>)> {
    let mut bytes = Vec::new();
    let mut buffer = [0u8; 8192];
    let end = loop {
        if let Some(at) = bytes.windows(4).position(|w| w == b"\r\n\r\n") {
            break at;
        }
        let n = socket.read(&mut buffer).await.ok().filter(|n| *n > 0)?;
        bytes.extend_from_slice(&buffer[..n]);
    };
    let head = String::from_utf8_lossy(&bytes[..end]).into_owned();
    let length: usize = head
        .lines()
        .find_map(|l| l.split_once(':').filter(|(k, _)| k.eq_ignore_ascii_case("content-length")))
        .and_then(|(_, v)| v.trim().parse().ok())
        .unwrap_or(0);
    let mut body = bytes[end + 4..].to_vec();
    while body.len() < length {
        let n = socket.read(&mut buffer).await.ok().filter(|n| *n > 0)?;
        body.extend_from_slice(&buffer[..n]);
    }
    Some((head, body))
}
