//! What the scripted model endpoint adds to a host's request over loopback: 200 streamed OpenAI
//! Chat requests of a short conversation with 20 tools, each answered with the script's first
//! step, from one kept-alive connection (reqwest, as a host's SDK would), alone and then beside
//! hostile neighbours (silent connections, clients flooding it with bad bodies). Prints the median
//! and the 99th percentile of the whole round trip, client included, for each.
//! Run with `cargo bench -p unfold-hostlab --bench model_endpoint`.

use std::time::{Duration, Instant};

use serde_json::json;
use unfold_documents::Scenario;
use unfold_hostlab::model_endpoint::RunningEndpoint;
use unfold_hostlab::ServerBounds;

#[path = "support/hostile_neighbours.rs"]
mod hostile_neighbours;
use hostile_neighbours::HostileNeighbours;

const REQUESTS: usize = 200;

fn quantile(times: &mut [Duration], q: f64) -> f64 {
    times.sort();
    times[((times.len() - 1) as f64 * q).round() as usize].as_secs_f64() * 1000.0
}

fn main() {
    let runtime =
        tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("a runtime");
    let scenario = json!({ "schema_version": 1, "kind": "unfold.scenario", "name": "bench", "user": "Go.",
        "script": [{ "call": "tool_07", "args": { "id": 7 } }, { "say": "Done." }] });
    let scenario = Scenario::from_json(scenario.to_string().as_bytes()).expect("a scenario");
    let tools: Vec<serde_json::Value> = (0..20)
        .map(|n| {
            json!({ "type": "function", "function": { "name": format!("tool_{n:02}"), "description": "Does a thing.",
                         "parameters": { "type": "object", "properties": { "id": { "type": "integer" } } } } })
        })
        .collect();
    let body = json!({ "model": "m", "stream": true, "tools": tools,
                       "messages": [{ "role": "system", "content": "You help." }, { "role": "user", "content": "Go." }] })
    .to_string();
    runtime.block_on(async {
        let endpoint = RunningEndpoint::start(&scenario, 0, None, ServerBounds::default()).await.expect("it listens");
        let url = format!("http://{}/v1/chat/completions", endpoint.address);
        let quiet = round_trips(&url, &body).await;
        // Hostile neighbours: 60 connections that say nothing, and 4 clients posting bodies that
        // are not JSON as fast as they are refused.
        let neighbours = HostileNeighbours::start(endpoint.address, &url, 60, 4).await;
        let hostile = round_trips(&url, &body).await;
        drop(neighbours);
        for (what, mut times) in [("alone", quiet), ("beside 60 silent connections and 4 flooding clients", hostile)] {
            println!(
                "model endpoint, streamed OpenAI Chat answer, whole round trip, {what}: median {:.3} ms, p99 {:.3} ms ({REQUESTS} requests after 20 to warm up)",
                quantile(&mut times, 0.5),
                quantile(&mut times, 0.99)
            );
        }
        endpoint.shutdown().await;
    });
}

/// The round trips of [`REQUESTS`] requests of `body` to `url` on one kept-alive connection,
/// after 20 to warm up.
async fn round_trips(url: &str, body: &str) -> Vec<Duration> {
    let client = reqwest::Client::new();
    let mut times = Vec::with_capacity(REQUESTS + 20);
    for _ in 0..REQUESTS + 20 {
        let started = Instant::now();
        let answer = client.post(url).header("content-type", "application/json").body(body.to_owned()).send().await;
        let text = answer.expect("it answers").text().await.expect("a stream");
        times.push(started.elapsed());
        assert!(text.ends_with("data: [DONE]\n\n"), "{text}");
    }
    times.split_off(20)
}
