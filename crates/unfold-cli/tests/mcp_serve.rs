//! `unfold mcp serve` to the official MCP SDKs as hosts (`mcp_serve/sdk_client.py`, Python;
//! `mcp_serve/sdk_client.cjs`, TypeScript): the template's tools, a hidden one unknown until its
//! section is read, the read answered and `tools/list_changed` sent, the revealed tool answered
//! from the scenario, and every message the host sent logged with its time.

use std::path::PathBuf;
use std::process::Command;

use serde_json::{json, Value};
use unfold_test_support::mcp_servers;

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

#[test]
fn the_python_sdk_reads_a_section_hears_its_tools_arrive_and_every_message_is_logged() {
    let folder = tempfile::tempdir().unwrap();
    let log = folder.path().join("messages.jsonl");
    let mut client = Command::new(mcp_servers::python());
    client.arg(repo("crates/unfold-cli/tests/mcp_serve/sdk_client.py")).arg(env!("CARGO_BIN_EXE_unfold"));
    client.args([TEMPLATE, SCENARIO]).arg(&log);
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
    let methods: Vec<&str> = logged.iter().map(|entry| entry["message"]["method"].as_str().unwrap()).collect();
    assert_eq!(
        methods,
        [
            "initialize",
            "notifications/initialized",
            "tools/list",
            "tools/call",
            "tools/call",
            "tools/list",
            "tools/call"
        ]
    );
    let times: Vec<u64> = logged.iter().map(|entry| entry["at_unix_ms"].as_u64().unwrap()).collect();
    assert!(times.windows(2).all(|pair| pair[0] <= pair[1]), "in the order they came: {times:?}");
    assert_eq!(
        logged[4]["message"]["params"],
        json!({ "name": "read_section", "arguments": { "section_key": "context" } })
    );
}

#[test]
fn the_typescript_sdk_does_the_same() {
    let mut client = Command::new("node");
    client.env("NODE_PATH", mcp_servers::npm_modules()).arg(repo("crates/unfold-cli/tests/mcp_serve/sdk_client.cjs"));
    client.arg(env!("CARGO_BIN_EXE_unfold")).args([TEMPLATE, SCENARIO]);
    assert_read_then_search(&seen_by(client));
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
