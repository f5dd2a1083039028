//! A local OpenAI-compatible model that is really random, with a seed: the live model of the
//! study tests. Each answer is drawn: the first call of a conversation looks issue 7 up or reads
//! the `context` section; later calls answer "Done." or call another tool, and any answer after
//! the first may be cut at the output limit (a run then ends `max_tokens`). Lanes therefore
//! succeed and fail at random, as a real model's do, and one seed replays the same draws.
//!
//! It keeps the first line of every system prompt it was sent, where a study's nonce is.

use std::io::{BufRead, Read, Write};
use std::sync::{Arc, Mutex};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

/// The chance that an answer after the first is cut at the output limit.
const CUT: f64 = 0.2;

/// The running server.
pub struct RandomModel {
    /// Its OpenAI base URL (`…/v1`).
    pub base_url: String,
    /// The first line of each request's system prompt, in the order they came.
    pub first_lines: Arc<Mutex<Vec<String>>>,
}

/// Starts the model with `seed` on a free port; it answers one request per connection, in turn.
pub fn start(seed: u64) -> RandomModel {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let base_url = format!("http://{}/v1", listener.local_addr().unwrap());
    let first_lines = Arc::new(Mutex::new(Vec::new()));
    let kept = Arc::clone(&first_lines);
    std::thread::spawn(move || {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for connection in listener.incoming() {
            let Ok(mut connection) = connection else { return };
            let Some(body) = read_body(&mut connection) else { continue };
            let system = body.pointer("/messages/0/content").and_then(Value::as_str).unwrap_or_default();
            kept.lock().unwrap().push(system.lines().next().unwrap_or_default().to_owned());
            let answer = draw(&body, &mut rng).to_string();
            let head = format!(
                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
                answer.len()
            );
            let _ = connection.write_all(format!("{head}{answer}").as_bytes());
        }
    });
    RandomModel { base_url, first_lines }
}

fn read_body(connection: &mut std::net::TcpStream) -> Option<Value> {
    let mut reader = std::io::BufReader::new(connection.try_clone().ok()?);
    let (mut length, mut line) = (0, String::new());
    while reader.read_line(&mut line).is_ok_and(|read| read > 2) {
        if let Some((name, value)) = line.split_once(':') {
            if name.eq_ignore_ascii_case("content-length") {
                length = value.trim().parse().unwrap_or(0);
            }
        }
        line.clear();
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

/// The answer to a Chat Completions request `body`, drawn from `rng`.
fn draw(body: &Value, rng: &mut ChaCha8Rng) -> Value {
    let messages = body["messages"].as_array().map_or(0, Vec::len);
    let results = body["messages"].as_array().map_or(0, |all| all.iter().filter(|m| m["role"] == "tool").count());
    let call = |name: &str, arguments: Value| {
        let id = format!("call_{messages}");
        let call =
            json!({ "id": id, "type": "function", "function": { "name": name, "arguments": arguments.to_string() } });
        (json!({ "role": "assistant", "content": null, "tool_calls": [call] }), "tool_calls")
    };
    let (message, finish) = if results > 0 && rng.gen_bool(CUT) {
        (json!({ "role": "assistant", "content": "The login fails be" }), "length")
    } else if results == 0 {
        if rng.gen_bool(0.5) {
            call("lookup", json!({ "id": 7 }))
        } else {
            call("read_section", json!({ "section_key": "context" }))
        }
    } else if results < 3 && rng.gen_bool(0.5) {
        call("lookup", json!({ "id": results + 7 }))
    } else {
        (json!({ "role": "assistant", "content": "Done." }), "stop")
    };
    json!({ "id": format!("random-{messages}"), "object": "chat.completion", "model": body["model"],
            "choices": [{ "index": 0, "message": message, "finish_reason": finish }],
            "usage": { "prompt_tokens": 100 * messages, "completion_tokens": 10 } })
}
