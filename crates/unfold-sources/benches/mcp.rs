//! What a tool source costs, against the Python SDK test server (`scripts/mcp-servers.sh install`
//! first): discovery (start the process, initialize, list every tool, shut down) and a tool call's
//! round trip on an open connection. The server's `lookup` does no work, so the call's time is the
//! overhead: JSON-RPC over stdio, the SDK's dispatch on both sides. Prints medians and spreads.
//! Run with `cargo bench -p unfold-sources --bench mcp`.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use unfold_documents::source::McpServer;
use unfold_sources::McpConnection;

const DISCOVERIES: usize = 15;
const CALLS: usize = 1000;
const TIMEOUT: Duration = Duration::from_secs(60);

fn server() -> McpServer {
    let script = unfold_test_support::mcp_servers::changing_tools_script();
    McpServer {
        command: Some(vec![unfold_test_support::mcp_servers::python(), script.display().to_string()]),
        cwd: None,
        env: Default::default(),
        url: None,
        extensions: Default::default(),
    }
}

fn user_env(name: &str) -> Option<String> {
    std::env::var(name).ok()
}

/// The `q`-quantile of `times` (sorted here), in milliseconds.
fn quantile(times: &mut [Duration], q: f64) -> f64 {
    times.sort();
    let at = ((times.len() - 1) as f64 * q).round() as usize;
    times[at].as_secs_f64() * 1000.0
}

fn main() {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let server = server();
    runtime.block_on(async {
        let mut discoveries = Vec::with_capacity(DISCOVERIES);
        for _ in 0..DISCOVERIES {
            let started = Instant::now();
            let connection = McpConnection::start(&server, &dir, &user_env, TIMEOUT).await.expect("the server starts");
            let tools = connection.list_tools(TIMEOUT).await.expect("it lists");
            assert!(!tools.is_empty());
            discoveries.push(started.elapsed());
            connection.shutdown().await;
        }
        let connection = McpConnection::start(&server, &dir, &user_env, TIMEOUT).await.expect("the server starts");
        let arguments = serde_json::json!({ "issue": 7 }).as_object().cloned().unwrap_or_default();
        let mut calls = Vec::with_capacity(CALLS);
        for _ in 0..CALLS {
            let started = Instant::now();
            let answer = connection.call("lookup", arguments.clone(), TIMEOUT).await;
            calls.push(started.elapsed());
            assert!(answer.success, "{answer:?}");
        }
        connection.shutdown().await;
        println!(
            "discovery (start, initialize, list, {DISCOVERIES} runs): median {:.1} ms, min {:.1} ms, max {:.1} ms",
            quantile(&mut discoveries, 0.5),
            quantile(&mut discoveries, 0.0),
            quantile(&mut discoveries, 1.0)
        );
        println!(
            "tool call round trip ({CALLS} calls): p50 {:.3} ms, p99 {:.3} ms, max {:.3} ms",
            quantile(&mut calls, 0.5),
            quantile(&mut calls, 0.99),
            quantile(&mut calls, 1.0)
        );
    });
}
