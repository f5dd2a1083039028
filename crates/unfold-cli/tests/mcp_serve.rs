//! `unfold mcp serve` to the official MCP SDKs as hosts (`mcp_serve/sdk_client.py`, Python;
//! `mcp_serve/sdk_client.cjs`, TypeScript), over stdio and over streamable HTTP: the template's
//! tools, a hidden one unknown until its section is read, the read answered and
//! `tools/list_changed` sent, the revealed tool answered from the scenario, and every message the
//! host sent logged with its time. Over HTTP, only this machine's hosts, and no web page, get in.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::{json, Value};
use unfold_test_support::{mcp_servers, process_running};

const TEMPLATE: &str = "examples/task-executor.unfold.json";
const SCENARIO: &str = "examples/read-context-then-search.scenario.json";

fn repo(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").join(path)
}

/// What a client printed, having run its steps.
fn seen_by(mut client: Command) -> Value {
    let output = client.current_dir(repo(".")).env("UNFOLD_HISTORY", "off").output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_str(&stdout).unwrap()
}

/// What a client that reads then searches sends, in order.
const READ_THEN_SEARCH_METHODS: [&str; 7] =
    ["initialize", "notifications/initialized", "tools/list", "tools/call", "tools/call", "tools/list", "tools/call"];

fn assert_read_then_search(seen: &Value) {
    assert_eq!((&seen["server"], &seen["list_changed"]), (&json!("unfold"), &json!(true)));
    assert_eq!(seen["before"], json!(["lookup", "read_section"]));
    assert_eq!(seen["hidden"], json!({ "error": true, "text": "Unknown tool: 'search'" }));
    assert_eq!(seen["read"]["expanded_tools"], json!(["search", "cite"]));
    assert!(seen["read"]["content"].as_str().unwrap().starts_with("## 2 Project Context"));
    assert_eq!(seen["after"], json!(["lookup", "search", "cite", "read_section"]));
    // The template's mock for `search` (the scenario scripts no result for it).
    assert_eq!(seen["searched"], json!({ "error": false, "text": "3 hits: auth.md, session.md, tokens.md" }));
}

/// `unfold mcp serve --http 0`, killed when dropped: a test that fails leaves nothing running.
struct ServedOverHttp {
    process: std::process::Child,
    url: String,
}

impl ServedOverHttp {
    /// The server of the task executor, logging to `log`, and where it listens, as it says.
    fn start(log: &Path) -> ServedOverHttp {
        let mut process = Command::new(env!("CARGO_BIN_EXE_unfold"))
            .current_dir(repo("."))
            .args(["mcp", "serve", TEMPLATE, "--scenario", SCENARIO, "--http", "0", "--log"])
            .arg(log)
            .env("UNFOLD_HISTORY", "off")
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(process.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let url = line
            .trim()
            .strip_prefix("template server listening on ")
            .and_then(|rest| rest.strip_suffix(" (Ctrl+C stops it)"))
            .unwrap_or_else(|| panic!("{line}"))
            .to_owned();
        ServedOverHttp { process, url }
    }

    fn address(&self) -> &str {
        self.url.trim_start_matches("http://").trim_end_matches("/mcp")
    }

    /// Ctrl+C: the server ends cleanly, its port free.
    fn interrupt(mut self) {
        let interrupted = Command::new("kill").args(["-INT", &self.process.id().to_string()]).status().unwrap();
        assert!(interrupted.success());
        assert!(self.process.wait().unwrap().success(), "Ctrl+C stops it cleanly");
        assert!(std::net::TcpStream::connect(self.address()).is_err(), "and the port is free");
    }
}

impl Drop for ServedOverHttp {
    fn drop(&mut self) {
        let _ = self.process.kill();
        let _ = self.process.wait();
    }
}

fn python_client() -> Command {
    let mut client = Command::new(mcp_servers::python());
    client.arg(repo("crates/unfold-cli/tests/mcp_serve/sdk_client.py"));
    client
}

fn typescript_client() -> Command {
    let mut client = Command::new("node");
    client.env("NODE_PATH", mcp_servers::npm_modules()).arg(repo("crates/unfold-cli/tests/mcp_serve/sdk_client.cjs"));
    client
}

/// The log's entries: what the host sent, and beside it what the server answered.
fn logged(log: &Path) -> (Vec<Value>, Vec<Value>) {
    let entries: Vec<Value> =
        std::fs::read_to_string(log).unwrap().lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    entries.into_iter().partition(|entry| entry.get("message").is_some())
}

#[test]
fn the_python_sdk_reads_a_section_hears_its_tools_arrive_and_every_message_is_logged() {
    let folder = tempfile::tempdir().unwrap();
    let log = folder.path().join("messages.jsonl");
    let mut client = python_client();
    client.arg(env!("CARGO_BIN_EXE_unfold")).args([TEMPLATE, SCENARIO]).arg(&log);
    let seen = seen_by(client);
    assert_read_then_search(&seen);
    assert_eq!(seen["protocol"], "2025-11-25", "the newest version the SDK speaks");

    let entries: Vec<Value> =
        std::fs::read_to_string(&log).unwrap().lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    // What the host sent, and beside it what the server answered: each listing, each call.
    let (logged, answers): (Vec<Value>, Vec<Value>) =
        entries.into_iter().partition(|entry| entry.get("message").is_some());
    let listed: Vec<&Value> = answers.iter().filter_map(|entry| entry.get("listed")).collect();
    assert_eq!(listed, [&json!(["lookup", "read_section"]), &json!(["lookup", "search", "cite", "read_section"])]);
    let read = answers.iter().find_map(|entry| entry.get("answered").filter(|a| a["tool"] == "read_section")).unwrap();
    assert_eq!(
        (&read["success"], &read["added"], &read["removed"]),
        (&json!(true), &json!(["search", "cite"]), &json!([]))
    );
    // Each listing and call ends with how long the server worked on it (Unfold's share of a run).
    let busy: Vec<u64> = answers.iter().filter_map(|entry| entry["busy_us"].as_u64()).collect();
    let handled = logged
        .iter()
        .filter(|entry| ["tools/list", "tools/call"].contains(&entry["message"]["method"].as_str().unwrap()));
    assert_eq!(busy.len(), handled.count(), "{answers:?}");
    assert!(busy.iter().all(|&us| us < 5_000_000), "{busy:?}");
    let methods: Vec<&str> = logged.iter().map(|entry| entry["message"]["method"].as_str().unwrap()).collect();
    assert_eq!(methods, READ_THEN_SEARCH_METHODS);
    let times: Vec<u64> = logged.iter().map(|entry| entry["at_unix_ms"].as_u64().unwrap()).collect();
    assert!(times.windows(2).all(|pair| pair[0] <= pair[1]), "in the order they came: {times:?}");
    assert_eq!(
        logged[4]["message"]["params"],
        json!({ "name": "read_section", "arguments": { "section_key": "context" } })
    );
}

#[test]
fn the_typescript_sdk_does_the_same() {
    let mut client = typescript_client();
    client.arg(env!("CARGO_BIN_EXE_unfold")).args([TEMPLATE, SCENARIO]);
    assert_read_then_search(&seen_by(client));
}

#[test]
fn over_http_the_python_sdk_hears_the_change_on_its_call_and_every_request_is_logged() {
    let folder = tempfile::tempdir().unwrap();
    let log = folder.path().join("messages.jsonl");
    let served = ServedOverHttp::start(&log);
    assert!(served.url.starts_with("http://127.0.0.1:"), "only this machine: {}", served.url);
    let mut client = python_client();
    client.args(["--url", &served.url]);
    assert_read_then_search(&seen_by(client));
    served.interrupt();

    let (logged, answers) = logged(&log);
    let methods: Vec<&str> = logged.iter().map(|entry| entry["message"]["method"].as_str().unwrap()).collect();
    assert_eq!(methods, READ_THEN_SEARCH_METHODS);
    let listed: Vec<&Value> = answers.iter().filter_map(|entry| entry.get("listed")).collect();
    assert_eq!(listed, [&json!(["lookup", "read_section"]), &json!(["lookup", "search", "cite", "read_section"])]);
}

#[test]
fn over_http_the_typescript_sdk_does_the_same() {
    let folder = tempfile::tempdir().unwrap();
    let served = ServedOverHttp::start(&folder.path().join("messages.jsonl"));
    let mut client = typescript_client();
    client.args(["--url", &served.url]);
    assert_read_then_search(&seen_by(client));
    served.interrupt();
}

/// The status line of what the server answered `request` (the head; the body after it).
fn answered(address: &str, head: &str, body: &[u8]) -> String {
    let mut socket = std::net::TcpStream::connect(address).unwrap();
    let head = format!("{head}Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n", body.len());
    socket.write_all(head.as_bytes()).unwrap();
    // A server that refuses before reading the body may close while it is still being sent.
    let _ = socket.write_all(body);
    let mut answer = String::new();
    let _ = socket.read_to_string(&mut answer);
    answer.lines().next().unwrap_or("").to_owned()
}

#[test]
fn over_http_a_web_page_a_rebound_name_and_a_huge_body_are_refused_unlogged() {
    let folder = tempfile::tempdir().unwrap();
    let log = folder.path().join("messages.jsonl");
    let served = ServedOverHttp::start(&log);
    let address = served.address().to_owned();
    let initialize = br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;

    // DNS rebinding: a page of a name its owner points at 127.0.0.1.
    let rebound = answered(&address, "POST /mcp HTTP/1.1\r\nHost: attacker.example:80\r\n", initialize);
    assert_eq!(rebound, "HTTP/1.1 403 Forbidden");
    // A page's POST needs no preflight: its Origin gives it away.
    let page = format!("POST /mcp HTTP/1.1\r\nHost: {address}\r\nOrigin: https://attacker.example\r\n");
    assert_eq!(answered(&address, &page, initialize), "HTTP/1.1 403 Forbidden");
    let huge = vec![b' '; 5 << 20];
    let plain = format!("POST /mcp HTTP/1.1\r\nHost: {address}\r\n");
    assert_eq!(answered(&address, &plain, &huge), "HTTP/1.1 413 Payload Too Large");
    assert_eq!(answered(&address, &plain, initialize), "HTTP/1.1 200 OK", "a host of this machine gets in");
    served.interrupt();

    let (logged, _) = logged(&log);
    assert_eq!(logged.len(), 1, "only what was admitted is logged: {logged:?}");
    assert_eq!(logged[0]["message"]["method"], "initialize");
}

#[test]
fn a_template_that_is_not_there_is_named_and_nothing_is_served() {
    let output = Command::new(env!("CARGO_BIN_EXE_unfold"))
        .current_dir(repo("."))
        .args(["mcp", "serve", "examples/nowhere.unfold.json"])
        .output()
        .unwrap();
    assert_ne!(output.status.code(), Some(0));
    assert!(output.stdout.is_empty(), "stdout is the MCP channel: nothing else is written there");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("nowhere.unfold.json"), "{stderr}");
}

/// The task executor with a source on `context`: the test MCP server whose `unlock` adds
/// `deploy`, started with `marker` among its arguments, and a snapshot of its `unlock` alone.
fn template_with_a_source(dir: &Path, marker: &str) -> PathBuf {
    let mut doc: Value = serde_json::from_str(&std::fs::read_to_string(repo(TEMPLATE)).unwrap()).unwrap();
    let server = mcp_servers::changing_tools_script().display().to_string();
    doc["sources"] = json!([{
        "name": "ide", "section": "context", "mcp": { "command": [mcp_servers::python(), server, marker] },
        "snapshot": [{ "name": "unlock", "description": "Unlock the deploy tool.", "parameters": { "type": "object" } }]
    }]);
    let path = dir.join("sourced.unfold.json");
    std::fs::write(&path, doc.to_string()).unwrap();
    path
}

#[test]
fn with_allow_sources_a_sources_tools_are_its_own_and_its_new_list_reaches_the_host() {
    let folder = tempfile::tempdir().unwrap();
    let marker = format!("unfold-mcp-serve-source-{}", std::process::id());
    let template = template_with_a_source(folder.path(), &marker);
    let client = |flags: &[&str]| {
        let mut client = Command::new(mcp_servers::python());
        client.arg(repo("crates/unfold-cli/tests/mcp_serve/sources_client.py")).arg(env!("CARGO_BIN_EXE_unfold"));
        client.arg(&template).args(flags);
        seen_by(client)
    };

    let live = client(&["--allow-sources"]);
    // The server's own `lookup` gives way to the template's, whose mock answers it.
    assert_eq!(live["read"], json!(["lookup", "search", "cite", "unlock", "fail", "crash", "huge", "read_section"]));
    assert_eq!(live["unlock"], json!({ "error": false, "text": "deploy unlocked" }));
    let unlocked = json!(["lookup", "search", "cite", "unlock", "fail", "crash", "huge", "deploy", "read_section"]);
    assert_eq!(live["unlocked"], unlocked, "the source's new list is the host's: {live}");
    assert_eq!(live["deploy"], json!({ "error": false, "text": "deployed to staging" }));
    assert_eq!(live["lookup"]["text"], r#"{"id":7,"title":"Login fails"}"#);
    assert!(!process_running(&marker), "the source ended with the server");

    // Without consent nothing starts: the snapshot's tool answers from the scenario (none here).
    let offline = client(&[]);
    assert_eq!(offline["read"], json!(["lookup", "search", "cite", "unlock", "read_section"]));
    assert_eq!(offline["unlock"], json!({ "error": true, "text": "No result scripted for tool 'unlock'" }));
    assert_eq!((&offline["unlocked"], &offline["deploy"]["text"]), (&json!(null), &json!("Unknown tool: 'deploy'")));
}
