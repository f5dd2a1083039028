//! `unfold relay` under the hostile load of issue 30, measured from outside its process as a user
//! would see it: a good plugin's session (its `GET metadata` latency, p50 / p99 / max, and its
//! registrations) alone, then while other local clients attack at once:
//!
//! - 50 sessions with a stream opened and never read, their plugins registering 207 KB tool lists
//!   as fast as they can (20,000 attempts in all, 300 of them from one session);
//! - 200 connections that send half a request and stop, and 1,100 that connect and say nothing
//!   (the relay runs with 1,024 file descriptors, as a desktop gives a process);
//! - wrong tokens guessed as fast as four clients can, sessions created past the cap, a `ttl` that
//!   overflowed the old relay, and a DNS-rebinding request.
//!
//! It prints the relay's memory (resident now and at its peak) and open descriptors before, during
//! and after, and how many of the good client's requests failed. `--unfold PATH` measures another
//! build (the previous release, say) under the same load; `--no-overflow` leaves out the `ttl`
//! that kills a relay built before the fix, to see the rest of its figures. Run with
//! `cargo bench -p unfold-cli --bench relay_hostile [-- --unfold PATH] [--no-overflow]`.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

const ATTACKING_SESSIONS: usize = 50;
const REGISTRATIONS: usize = 20_000;
const HALF_SENT: usize = 200;
const IDLE: usize = 1_100;
const GOOD_REQUESTS: usize = 500;

fn main() {
    let unfold = std::env::args()
        .skip_while(|arg| arg != "--unfold")
        .nth(1)
        .unwrap_or_else(|| env!("CARGO_BIN_EXE_unfold").to_owned());
    let mut relay = Relay::start(&unfold);
    println!("relay_hostile: {unfold} (pid {}), on {}", relay.child.id(), relay.address);
    let overflow = !std::env::args().any(|arg| arg == "--no-overflow");
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(4).enable_all().build().unwrap();
    runtime.block_on(measure(&relay, overflow));
    relay.stop();
}

/// `unfold relay` in its own process, with a desktop's 1,024 file descriptors.
struct Relay {
    child: Child,
    address: SocketAddr,
}

impl Relay {
    fn start(unfold: &str) -> Relay {
        let mut child = Command::new("sh")
            .args(["-c", "ulimit -n 1024 && exec \"$0\" relay --port 0", unfold])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("unfold relay starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("its stdout")).read_line(&mut line).expect("it says where");
        let address = line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .and_then(|address| address.parse().ok())
            .unwrap_or_else(|| panic!("no address in {line:?}"));
        Relay { child, address }
    }

    /// Resident memory now and at its peak (MB), and open file descriptors; `None` once it died.
    fn resources(&self) -> Option<(f64, f64, usize)> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let kb = |key: &str| -> Option<f64> {
            let line = status.lines().find(|line| line.starts_with(key))?;
            line.split_whitespace().nth(1)?.parse::<f64>().ok()
        };
        let fds = std::fs::read_dir(format!("/proc/{}/fd", self.child.id())).ok()?.count();
        Some((kb("VmRSS:")? / 1024.0, kb("VmHWM:")? / 1024.0, fds))
    }

    fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn report(stage: &str, relay: &Relay) {
    match relay.resources() {
        Some((rss, peak, fds)) => {
            println!("  {stage:<28} resident {rss:>7.1} MB   peak {peak:>7.1} MB   descriptors {fds:>5}")
        }
        None => println!("  {stage:<28} the relay is gone (it died)"),
    }
}

/// A session's code and token.
#[derive(Clone)]
struct Session {
    code: String,
    token: String,
}

async fn create(http: &reqwest::Client, base: &str) -> Option<Session> {
    let response = http.post(format!("{base}/api/sessions")).json(&json!({})).send().await.ok()?;
    let body: Value = response.json().await.ok()?;
    Some(Session { code: body["code"].as_str()?.to_owned(), token: body["token"].as_str()?.to_owned() })
}

/// A tool list of about 207 KB.
fn big_tools() -> String {
    let tools: Vec<Value> = (0..300)
        .map(|i| json!({ "name": format!("tool_{i}"), "description": "d".repeat(640), "parameters": { "type": "object" } }))
        .collect();
    json!({ "pluginType": "attacker", "tools": tools }).to_string()
}

/// The good plugin's `GET metadata` latencies (ms) over `count` requests, and how many failed.
async fn good_metadata(http: &reqwest::Client, base: &str, session: &Session, count: usize) -> (Vec<f64>, usize) {
    let url = format!("{base}/api/sessions/{}/metadata", session.code);
    let (mut times, mut failed) = (Vec::with_capacity(count), 0);
    for _ in 0..count {
        let started = Instant::now();
        let sent = http.get(&url).bearer_auth(&session.token).timeout(Duration::from_secs(30)).send().await;
        let answered = match sent {
            Ok(response) if response.status().is_success() => response.bytes().await.is_ok(),
            _ => false,
        };
        match answered {
            true => times.push(started.elapsed().as_secs_f64() * 1000.0),
            false => failed += 1,
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    (times, failed)
}

fn quantiles(times: &mut [f64]) -> String {
    if times.is_empty() {
        return "no answer".to_owned();
    }
    times.sort_by(f64::total_cmp);
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    format!("p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms", at(0.5), at(0.99), at(1.0))
}

async fn measure(relay: &Relay, overflow: bool) {
    let base = format!("http://{}", relay.address);
    let http = reqwest::Client::new();
    report("started", relay);
    let good = create(&http, &base).await.expect("a session for the good plugin");
    let tools: Vec<Value> = (0..20)
        .map(|i| json!({ "name": format!("good_{i}"), "description": "A tool.", "parameters": { "type": "object" } }))
        .collect();
    let registered = http
        .post(format!("{base}/api/sessions/{}/register-tools", good.code))
        .bearer_auth(&good.token)
        .json(&json!({ "pluginType": "good", "tools": tools }))
        .send()
        .await
        .map(|r| r.status().as_u16());
    println!("  the good plugin registered: {registered:?}");
    let (mut alone, failed_alone) = good_metadata(&http, &base, &good, GOOD_REQUESTS).await;
    println!("  good GET metadata, alone:    {} ({failed_alone} failed)", quantiles(&mut alone));

    let stop = Arc::new(AtomicBool::new(false));
    let attack = tokio::spawn(attack(base.clone(), relay.address, Arc::clone(&stop), overflow));
    // Let the attack reach its stride before measuring.
    tokio::time::sleep(Duration::from_secs(3)).await;
    report("under attack", relay);
    let (mut loaded, failed_loaded) = good_metadata(&http, &base, &good, GOOD_REQUESTS).await;
    println!("  good GET metadata, attacked: {} ({failed_loaded} failed)", quantiles(&mut loaded));
    report("under attack, later", relay);
    stop.store(true, Ordering::Release);
    let figures = attack.await.expect("the attack ends");
    println!("  {figures}");
    tokio::time::sleep(Duration::from_secs(2)).await;
    report("after the attack", relay);
    let (mut after, failed_after) = good_metadata(&http, &base, &good, 100).await;
    println!("  good GET metadata, after:    {} ({failed_after} failed)", quantiles(&mut after));
}

/// Everything the hostile clients do at once, until `stop`; what the relay answered them.
async fn attack(base: String, address: SocketAddr, stop: Arc<AtomicBool>, overflow: bool) -> String {
    // Bounded waits: a relay that stops answering must not hang the benchmark.
    let http = reqwest::Client::builder().pool_max_idle_per_host(64).timeout(Duration::from_secs(10)).build().unwrap();
    let body = Arc::new(big_tools());
    let (accepted, refused, failed) =
        (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let mut tasks = tokio::task::JoinSet::new();
    let mut held = Vec::new();

    // Probes the old relay died of or answered wrongly.
    let probe = |text: String| async move {
        let Ok(mut connection) = TcpStream::connect(address).await else { return "no connection".to_owned() };
        let _ = connection.write_all(text.as_bytes()).await;
        let mut answer = vec![0u8; 64];
        let read =
            tokio::time::timeout(Duration::from_secs(5), tokio::io::AsyncReadExt::read(&mut connection, &mut answer))
                .await;
        match read {
            Ok(Ok(n)) if n > 12 => String::from_utf8_lossy(&answer[9..12]).into_owned(),
            _ => "no answer".to_owned(),
        }
    };
    let overflow = match overflow {
        true => probe(format!(
            "POST /api/sessions HTTP/1.1\r\nHost: {address}\r\nContent-Type: text/plain\r\nContent-Length: 29\r\nConnection: close\r\n\r\n{{\"ttl\": 18446744073709551615}}"
        ))
        .await,
        false => "(not sent)".to_owned(),
    };
    let rebinding = probe(
        "POST /api/sessions HTTP/1.1\r\nHost: rebind.evil.example\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}"
            .to_owned(),
    )
    .await;

    // 50 sessions, each with a stream nobody reads and a plugin registering 207 KB lists.
    let mut sessions = Vec::new();
    for _ in 0..ATTACKING_SESSIONS {
        if let Some(session) = create(&http, &base).await {
            let mut stream = TcpStream::connect(address).await.expect("a connection");
            let request = format!(
                "GET /api/sessions/{}/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {}\r\n\r\n",
                session.code, session.token
            );
            let _ = stream.write_all(request.as_bytes()).await;
            held.push(stream);
            sessions.push(session);
        }
    }
    let per_session = REGISTRATIONS / sessions.len().max(1);
    for (i, session) in sessions.iter().enumerate() {
        let (http, base, body, stop) = (http.clone(), base.clone(), Arc::clone(&body), Arc::clone(&stop));
        let (accepted, refused, failed) = (Arc::clone(&accepted), Arc::clone(&refused), Arc::clone(&failed));
        let session = session.clone();
        // One session makes 300 of its own at first; every session then shares the rest.
        let count = if i == 0 { per_session + 300 } else { per_session };
        tasks.spawn(async move {
            let url = format!("{base}/api/sessions/{}/register-tools", session.code);
            for _ in 0..count {
                if stop.load(Ordering::Acquire) {
                    break;
                }
                let sent = http
                    .post(&url)
                    .bearer_auth(&session.token)
                    .header("content-type", "application/json")
                    .body(body.as_bytes().to_vec())
                    .send()
                    .await;
                match sent.map(|r| r.status()) {
                    Ok(status) if status.is_success() => accepted.fetch_add(1, Ordering::Relaxed),
                    Ok(_) => refused.fetch_add(1, Ordering::Relaxed),
                    Err(_) => failed.fetch_add(1, Ordering::Relaxed),
                };
            }
        });
    }
    // Half-sent requests and connections that say nothing.
    for i in 0..HALF_SENT + IDLE {
        if let Ok(mut connection) = TcpStream::connect(address).await {
            if i < HALF_SENT {
                let _ = connection
                    .write_all(b"POST /api/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n{")
                    .await;
            }
            held.push(connection);
        }
    }
    // Guessed tokens, and sessions past the cap.
    let guesses = Arc::new(AtomicUsize::new(0));
    for _ in 0..4 {
        let (http, base, stop, guesses) = (http.clone(), base.clone(), Arc::clone(&stop), Arc::clone(&guesses));
        tasks.spawn(async move {
            while !stop.load(Ordering::Acquire) {
                let _ = http.get(format!("{base}/api/sessions/AAAAAAAA/metadata")).bearer_auth("guess").send().await;
                guesses.fetch_add(1, Ordering::Relaxed);
            }
        });
    }
    let mut created = 0;
    for _ in 0..300 {
        if stop.load(Ordering::Acquire) {
            break;
        }
        created += usize::from(create(&http, &base).await.is_some());
    }
    while !stop.load(Ordering::Acquire) {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // What is still under way once the measure is done is abandoned, after a short grace.
    let _ = tokio::time::timeout(Duration::from_secs(10), async { while tasks.join_next().await.is_some() {} }).await;
    tasks.abort_all();
    drop(held);
    format!(
        "attack: registrations {} accepted, {} refused, {} failed; {} guesses; {created} of 300 more sessions created; \
         ttl overflow answered {overflow}; DNS rebinding answered {rebinding}",
        accepted.load(Ordering::Relaxed),
        refused.load(Ordering::Relaxed),
        failed.load(Ordering::Relaxed),
        guesses.load(Ordering::Relaxed),
    )
}
