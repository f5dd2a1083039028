//! What the template server costs a host: `tools/list` of a template offering 100 tools, and a
//! scripted tool call, each a round trip over an in-memory pipe: written as JSON-RPC lines and the
//! answer's line read back whole, so the figures are the server's work and its JSON (no client's
//! parsing); then the same through rmcp's client, parsing included; then `tools/list` over
//! streamable HTTP (one kept-alive connection, reqwest, the body read whole), alone and beside
//! hostile neighbours (silent connections, clients flooding it with bad bodies). Prints the median
//! and the 99th percentile of 2,000 of each.
//! Run with `cargo bench -p unfold-hostlab --bench template_server`.

use std::time::{Duration, Instant};

use rmcp::model::CallToolRequestParams;
use rmcp::ServiceExt;
use serde_json::json;
use unfold_documents::Template;
use unfold_hostlab::template_http::RunningTemplateServer;
use unfold_hostlab::{ServerBounds, TemplateServer};

#[path = "support/hostile_neighbours.rs"]
mod hostile_neighbours;
use hostile_neighbours::HostileNeighbours;

const TOOLS: usize = 100;
const ROUNDS: usize = 2000;

/// A template of one FULL section offering `TOOLS` tools, each with a mock and a small schema.
fn template() -> Template {
    let tools: Vec<serde_json::Value> = (0..TOOLS)
        .map(|n| {
            json!({ "name": format!("tool_{n:03}"), "description": format!("Does thing {n} to an issue, by its id."),
                    "parameters": { "type": "object", "properties": { "id": { "type": "integer" }, "note": { "type": "string" } },
                                    "required": ["id"] },
                    "mock": { "result": { "ok": true, "n": n } } })
        })
        .collect();
    let template = json!({ "schema_version": 1, "kind": "unfold.template", "key": "bench", "name": "Bench",
        "sections": [{ "key": "tools", "title": "Tools", "template": "Use the tools.", "tools": tools }] });
    Template::from_json(template.to_string().as_bytes()).expect("a valid template")
}

fn quantile(times: &mut [Duration], q: f64) -> f64 {
    times.sort();
    times[((times.len() - 1) as f64 * q).round() as usize].as_secs_f64() * 1000.0
}

/// Round trips of `request` (a JSON-RPC line without its id) written raw; their times.
async fn raw_round_trips(request: &str) -> Vec<Duration> {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    let (server_side, client_side) = tokio::io::duplex(1024 * 1024);
    let (reader, writer) = tokio::io::split(server_side);
    tokio::spawn(TemplateServer::new(template(), None).expect("it serves").serve(reader, writer));
    let (read, mut write) = tokio::io::split(client_side);
    let mut lines = BufReader::new(read).lines();
    let initialize = json!({ "jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": { "name": "bench", "version": "1" } } });
    write.write_all(format!("{initialize}\n").as_bytes()).await.expect("it reads");
    lines.next_line().await.expect("it answers").expect("a line");
    write.write_all(b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n").await.expect("it reads");
    let mut times = Vec::with_capacity(ROUNDS);
    for id in 1..=ROUNDS {
        let line = format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},{request}}}\n");
        let started = Instant::now();
        write.write_all(line.as_bytes()).await.expect("it reads");
        let answer = lines.next_line().await.expect("it answers").expect("a line");
        times.push(started.elapsed());
        assert!(answer.contains("\"result\""), "{answer}");
    }
    times
}

fn main() {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
    runtime.block_on(async {
        let mut lists = raw_round_trips(r#""method":"tools/list""#).await;
        let call = r#""method":"tools/call","params":{"name":"tool_042","arguments":{"id":7}}"#;
        let mut calls = raw_round_trips(call).await;
        for (what, times) in [("tools/list of 100 tools", &mut lists), ("tools/call, scripted", &mut calls)] {
            let (median, p99) = (quantile(times, 0.5), quantile(times, 0.99));
            println!("{what}, the server alone: median {median:.3} ms, p99 {p99:.3} ms ({ROUNDS} round trips)");
        }
    });
    runtime.block_on(async {
        let (server_side, client_side) = tokio::io::duplex(1024 * 1024);
        let (reader, writer) = tokio::io::split(server_side);
        let server = TemplateServer::new(template(), None).expect("it serves");
        tokio::spawn(server.serve(reader, writer));
        let client = ().serve(client_side).await.expect("the client starts");
        let mut lists = Vec::with_capacity(ROUNDS);
        let mut calls = Vec::with_capacity(ROUNDS);
        let arguments = json!({ "id": 7 }).as_object().cloned().unwrap_or_default();
        for _ in 0..ROUNDS {
            let started = Instant::now();
            let listed = client.list_tools(None).await.expect("it lists");
            lists.push(started.elapsed());
            assert_eq!(listed.tools.len(), TOOLS);
            let started = Instant::now();
            let call = CallToolRequestParams::new("tool_042").with_arguments(arguments.clone());
            let answer = client.call_tool(call).await.expect("it answers");
            calls.push(started.elapsed());
            assert_eq!(answer.is_error, Some(false));
        }
        println!(
            "tools/list of {TOOLS} tools, through rmcp's client: median {:.3} ms, p99 {:.3} ms ({ROUNDS} round trips)",
            quantile(&mut lists, 0.5),
            quantile(&mut lists, 0.99)
        );
        println!(
            "tools/call, scripted, through rmcp's client: median {:.3} ms, p99 {:.3} ms ({ROUNDS} round trips)",
            quantile(&mut calls, 0.5),
            quantile(&mut calls, 0.99)
        );
        let _ = client.cancel().await;
    });
    runtime.block_on(async {
        let http = RunningTemplateServer::start(TemplateServer::new(template(), None).expect("it serves"), 0, None, ServerBounds::default())
            .await
            .expect("it listens");
        let url = http.url();
        let quiet = http_lists(&url).await;
        let neighbours = HostileNeighbours::start(http.address, &url, 60, 4).await;
        let hostile = http_lists(&url).await;
        drop(neighbours);
        for (what, mut times) in [("alone", quiet), ("beside 60 silent connections and 4 flooding clients", hostile)] {
            println!(
                "tools/list of {TOOLS} tools over streamable HTTP, whole round trip, {what}: median {:.3} ms, p99 {:.3} ms ({ROUNDS} round trips)",
                quantile(&mut times, 0.5),
                quantile(&mut times, 0.99)
            );
        }
        http.shutdown().await;
    });
}

/// The round trips of [`ROUNDS`] `tools/list` requests to the server at `url`, as a client of the
/// 2025-11-25 protocol sends them after its `initialize`, on one kept-alive connection.
async fn http_lists(url: &str) -> Vec<Duration> {
    let client = reqwest::Client::new();
    let mut times = Vec::with_capacity(ROUNDS);
    for id in 1..=ROUNDS {
        let body = format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"tools/list\"}}");
        let started = Instant::now();
        let answer = client
            .post(url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", "2025-11-25")
            .body(body)
            .send()
            .await
            .expect("it answers");
        let text = answer.text().await.expect("the whole answer");
        times.push(started.elapsed());
        assert!(text.contains("tool_099"), "{text}");
    }
    times
}
