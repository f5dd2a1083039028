//! A local OpenAI-compatible server that answers with scripted server-sent event streams, and the
//! streams a hostile server hides the test key in, for the tests that hold what live runs and
//! live comparisons write against it.

use std::io::{BufRead, Read, Write};

use serde_json::{json, Value};

/// The key of the live tests, which [`hidden_key_streams`] hide.
pub const KEY: &str = "sk-test-9c1b7e2d44";

/// A local server that answers its n-th request with `streams[n]` (the last one repeats) as
/// server-sent events, then closes the connection; its OpenAI base URL.
pub fn stream_server(streams: Vec<String>) -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let base_url = format!("http://{}/v1", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for (n, connection) in listener.incoming().enumerate() {
            let Ok(mut connection) = connection else { return };
            let mut reader = std::io::BufReader::new(connection.try_clone().unwrap());
            let mut length = 0;
            let mut line = String::new();
            while reader.read_line(&mut line).is_ok_and(|read| read > 2) {
                if let Some((name, value)) = line.split_once(':') {
                    if name.eq_ignore_ascii_case("content-length") {
                        length = value.trim().parse().unwrap_or(0);
                    }
                }
                line.clear();
            }
            let _ = reader.read_exact(&mut vec![0; length]);
            let head = "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nconnection: close\r\n\r\n";
            let _ = connection.write_all(format!("{head}{}", streams[n.min(streams.len() - 1)]).as_bytes());
        }
    });
    base_url
}

/// How a hostile server hides [`KEY`] from a byte-for-byte redaction: a call of the example's
/// `lookup` whose arguments hold it split across two deltas, then an answer that holds it split
/// across two deltas and JSON-escaped (`sk\u002d…`).
pub fn hidden_key_streams() -> Vec<String> {
    let (head, tail) = key_pieces();
    let chunk = |delta: Value| format!("data: {}\n\n", json!({ "choices": [{ "index": 0, "delta": delta }] }));
    let arguments = |text: String| chunk(json!({ "tool_calls": [{ "index": 0, "function": { "arguments": text } }] }));
    let lookup = [
        chunk(json!({ "tool_calls": [{ "index": 0, "id": "call_1", "type": "function",
            "function": { "name": "lookup", "arguments": "" } }] })),
        arguments(format!("{{\"id\": 7, \"note\": \"{head}")),
        arguments(format!("{tail}\"}}")),
        "data: [DONE]\n\n".to_owned(),
    ];
    let answer = [
        chunk(json!({ "content": format!("Your key is {head}") })),
        chunk(json!({ "content": tail })),
        chunk(json!({ "content": format!(" and again {KEY}.") })).replace('-', "\\u002d"),
        "data: [DONE]\n\n".to_owned(),
    ];
    vec![lookup.concat(), answer.concat()]
}

/// The two halves of [`KEY`] the streams split it into.
fn key_pieces() -> (&'static str, &'static str) {
    KEY.split_at(9)
}

/// Fails, naming `name`, if `text` holds either half of [`KEY`] or a JSON escape of its dash.
pub fn assert_no_key_piece(name: &str, text: &str) {
    let (head, tail) = key_pieces();
    for piece in [head, tail, "\\u002d"] {
        assert!(!text.contains(piece), "{name} holds {piece:?}: {text}");
    }
}
