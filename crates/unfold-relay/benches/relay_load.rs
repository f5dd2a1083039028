//! The relay under load, over real sockets: 50 sessions, each with a plugin pushing tool updates
//! and a watcher reading the session's stream. Checks that every watcher hears every update of its
//! session, in order, and nothing of another session; prints the updates per second and the
//! latency from an `update-tools` POST to the event at the watcher (p50, p99). Then, for a run
//! attached to a session, the latency from the POST to the run's next model call seeing the new
//! tools, and the part of it spent inside the run (applying a heard update).
//! Run with `cargo bench -p unfold-relay --bench relay_load`. The spec's 10 updates a minute per
//! session is raised for the benchmark: the point is the relay's own cost.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tokio::sync::Mutex;
use unfold_engine::ToolSources;
use unfold_relay::attached::{RelaySession, RelaySources};
use unfold_relay::sse::SseReader;
use unfold_relay::{RelayLimits, RunningRelay};

const SESSIONS: usize = 50;
const UPDATES_PER_SESSION: usize = 25;
const RUN_UPDATES: usize = 1_000;

struct Session {
    code: String,
    token: String,
}

fn tool(name: &str) -> Value {
    json!({ "name": name, "description": "A tool.", "parameters": { "type": "object" } })
}

fn quantile(times: &mut [Duration], q: f64) -> f64 {
    times.sort();
    let at = ((times.len() - 1) as f64 * q).round() as usize;
    times[at].as_secs_f64() * 1000.0
}

async fn post(http: &reqwest::Client, url: String, token: &str, body: Value) -> Value {
    let response = http
        .post(url)
        .bearer_auth(token)
        .header("content-type", "application/json")
        .body(body.to_string())
        .send()
        .await
        .expect("the relay answers");
    assert!(response.status().is_success(), "{}", response.status());
    serde_json::from_str(&response.text().await.expect("a body")).expect("JSON")
}

/// Reads `session`'s stream until it has heard `count` updates; their (seq, first added tool,
/// session code, time heard).
async fn watch(
    http: reqwest::Client,
    base: String,
    session: Arc<Session>,
    count: usize,
) -> Vec<(u64, String, String, Instant)> {
    let mut response =
        http.get(format!("{base}/{}/stream", session.code)).bearer_auth(&session.token).send().await.expect("a stream");
    let mut reader = SseReader::default();
    let mut heard = Vec::with_capacity(count);
    while heard.len() < count {
        let chunk = response.chunk().await.expect("the stream").expect("open");
        let at = Instant::now();
        for (name, data) in reader.push(&chunk) {
            // The registration, queued before the stream opened, comes first: not one of the updates.
            if name == "tool-availability-update" && data["updates"]["added"][0]["name"] != "base" {
                let tool = data["updates"]["added"][0]["name"].as_str().unwrap_or_default().to_owned();
                let code = data["sessionCode"].as_str().unwrap_or_default().to_owned();
                heard.push((data["seq"].as_u64().unwrap_or(0), tool, code, at));
            }
        }
    }
    heard
}

fn main() {
    let runtime =
        tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("a runtime");
    runtime.block_on(async {
        let limits = RelayLimits { updates_per_minute: 1_000_000, ..RelayLimits::default() };
        let relay = RunningRelay::start(0, limits).await.expect("a port");
        let base = format!("http://{}/api/sessions", relay.address);
        let http = reqwest::Client::new();
        let mut sessions = Vec::new();
        for _ in 0..SESSIONS {
            let created = post(&http, base.clone(), "", json!({})).await;
            let session = Session {
                code: created["code"].as_str().unwrap().to_owned(),
                token: created["token"].as_str().unwrap().to_owned(),
            };
            post(
                &http,
                format!("{base}/{}/register-tools", session.code),
                &session.token,
                json!({ "tools": [tool("base")] }),
            )
            .await;
            sessions.push(Arc::new(session));
        }
        let watchers: Vec<_> = sessions
            .iter()
            .map(|s| tokio::spawn(watch(http.clone(), base.clone(), Arc::clone(s), UPDATES_PER_SESSION)))
            .collect();
        // Let every watcher's stream open before the first update (they would be queued otherwise).
        tokio::time::sleep(Duration::from_millis(300)).await;
        let sent: Arc<Mutex<HashMap<(String, String), Instant>>> = Arc::default();
        let started = Instant::now();
        let plugins: Vec<_> = sessions
            .iter()
            .map(|session| {
                let (http, base, session, sent) = (http.clone(), base.clone(), Arc::clone(session), Arc::clone(&sent));
                tokio::spawn(async move {
                    for i in 0..UPDATES_PER_SESSION {
                        let name = format!("t{i}");
                        sent.lock().await.insert((session.code.clone(), name.clone()), Instant::now());
                        let update = json!({ "toolUpdates": { "added": [tool(&name)] } });
                        post(&http, format!("{base}/{}/update-tools", session.code), &session.token, update).await;
                    }
                })
            })
            .collect();
        for plugin in plugins {
            plugin.await.expect("a plugin");
        }
        let mut latencies = Vec::new();
        for (session, watcher) in sessions.iter().zip(watchers) {
            let heard = watcher.await.expect("a watcher");
            let names: Vec<&str> = heard.iter().map(|(_, tool, _, _)| tool.as_str()).collect();
            let expected: Vec<String> = (0..UPDATES_PER_SESSION).map(|i| format!("t{i}")).collect();
            assert_eq!(names, expected, "every update of session {}, in order", session.code);
            assert!(heard.iter().all(|(_, _, code, _)| *code == session.code), "nothing from another session");
            assert!(heard.windows(2).all(|w| w[0].0 < w[1].0), "in order");
            let sent = sent.lock().await;
            latencies.extend(
                heard.iter().map(|(_, tool, _, at)| at.duration_since(sent[&(session.code.clone(), tool.clone())])),
            );
        }
        let elapsed = started.elapsed();
        let total = SESSIONS * UPDATES_PER_SESSION;
        println!(
            "{SESSIONS} sessions, {total} updates: {:.0} updates/s; POST to watcher: p50 {:.2} ms, p99 {:.2} ms",
            total as f64 / elapsed.as_secs_f64(),
            quantile(&mut latencies, 0.5),
            quantile(&mut latencies, 0.99)
        );
        run_latency(&relay, &http, &base).await;
        relay.shutdown().await;
    });
}

/// A run attached to a session: from an update's POST to the run's next model call seeing it.
async fn run_latency(relay: &RunningRelay, http: &reqwest::Client, base: &str) {
    let created = post(http, base.to_owned(), "", json!({})).await;
    let (code, token) = (created["code"].as_str().unwrap().to_owned(), created["token"].as_str().unwrap().to_owned());
    post(
        http,
        format!("{base}/{code}/register-tools"),
        &token,
        json!({ "pluginType": "bench", "tools": [tool("base")] }),
    )
    .await;
    let mut template = unfold_documents::Template::blank();
    template.sources =
        serde_json::from_value(json!([{ "name": "bench", "section": null, "relay": { "plugin": "bench" } }])).unwrap();
    let session = RelaySession {
        relay: format!("http://{}", relay.address),
        code: code.clone(),
        token: token.clone(),
        call_timeout: Duration::from_secs(10),
    };
    let (_, mut host) = RelaySources::new(session).open(&template).await;
    let (mut to_run, mut inside) = (Vec::new(), Vec::new());
    for i in 0..RUN_UPDATES {
        let posted = Instant::now();
        post(
            http,
            format!("{base}/{code}/update-tools"),
            &token,
            // One tool in, the one before out: the session stays under its 1,000 tools.
            json!({ "toolUpdates": { "added": [tool(&format!("r{i}"))], "removed": (0..i).rev().take(1).map(|j| format!("r{j}")).collect::<Vec<_>>() } }),
        )
        .await;
        // The run asks before each model call; here it asks until the update is there.
        loop {
            let asked = Instant::now();
            let lists = host.changed_lists(1).await;
            if !lists.is_empty() {
                inside.push(asked.elapsed());
                to_run.push(posted.elapsed());
                break;
            }
            tokio::task::yield_now().await;
        }
    }
    println!(
        "run attached, {RUN_UPDATES} updates: POST to the next model call: p50 {:.2} ms, p99 {:.2} ms; inside the run: p50 {:.3} ms, p99 {:.3} ms",
        quantile(&mut to_run, 0.5),
        quantile(&mut to_run, 0.99),
        quantile(&mut inside, 0.5),
        quantile(&mut inside, 0.99)
    );
    host.close().await;
}
