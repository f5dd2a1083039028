//! `unfold model serve`: the scripted model endpoint as the command line starts it, on this machine
//! only, answering a host's request as the script says, logging it without its key, and stopped
//! cleanly by Ctrl+C; its answers parsed by the official Python SDKs of OpenAI, Anthropic and
//! Google (installed by `scripts/hosts.sh install`).

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::Command;

use serde_json::json;
use unfold_test_support::scripted_model::{serve_model, ServedModel};

fn repo(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").join(path)
}

/// `unfold model serve` of the scenario whose first step reads `context`, logging to `log`; where
/// it listens, as it says.
fn serve(log: &std::path::Path) -> (ServedModel, String) {
    let served =
        serve_model(env!("CARGO_BIN_EXE_unfold"), &repo("."), "examples/read-context-then-search.scenario.json", log);
    let address = served.address.clone();
    (served, address)
}

#[test]
fn the_endpoint_answers_the_scripts_first_step_logs_no_key_and_stops_on_ctrl_c() {
    let folder = tempfile::tempdir().unwrap();
    let log = folder.path().join("model.jsonl");
    let (mut served, address) = serve(&log);
    assert!(address.starts_with("127.0.0.1:"), "only this machine: {address}");

    let body = r#"{"model":"m","messages":[{"role":"user","content":"Go."}],"tools":[{"type":"function","function":{"name":"read_section","parameters":{"type":"object"}}}]}"#;
    let request = format!(
        "POST /v1/chat/completions HTTP/1.1\r\nHost: {address}\r\nAuthorization: Bearer sk-canary-model-7e1\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let mut socket = std::net::TcpStream::connect(&address).unwrap();
    socket.write_all(request.as_bytes()).unwrap();
    let mut answer = String::new();
    socket.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains(r#""name":"read_section","arguments":"{\"section_key\":\"context\"}""#), "{answer}");

    let interrupted = Command::new("kill").args(["-INT", &served.child.id().to_string()]).status().unwrap();
    assert!(interrupted.success());
    assert!(served.child.wait().unwrap().success(), "Ctrl+C stops it cleanly");
    assert!(std::net::TcpStream::connect(&address).is_err(), "and the port is free");
    let logged = std::fs::read_to_string(&log).unwrap();
    assert_eq!(logged.lines().count(), 1, "{logged}");
    assert!(logged.contains(r#""api":"openai-chat""#) && !logged.contains("sk-canary-model-7e1"), "{logged}");
}

#[test]
fn the_official_sdks_parse_its_answers_whole_and_streamed_in_every_api() {
    let folder = tempfile::tempdir().unwrap();
    let log = folder.path().join("model.jsonl");
    let (_served, address) = serve(&log);
    let output = Command::new(unfold_test_support::agent_hosts::model_sdks_python())
        .arg(repo("crates/unfold-cli/tests/model_serve/sdk_clients.py"))
        .arg(format!("http://{address}"))
        .env_clear()
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let parsed: Vec<serde_json::Value> =
        String::from_utf8_lossy(&output.stdout).lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    let clients: Vec<&str> = parsed.iter().map(|seen| seen["client"].as_str().unwrap()).collect();
    assert_eq!(
        clients,
        [
            "openai chat",
            "openai chat stream",
            "openai responses",
            "openai responses stream",
            "anthropic",
            "anthropic stream",
            "gemini",
            "gemini stream"
        ]
    );
    for seen in &parsed {
        assert_eq!(
            (&seen["tool"], &seen["arguments"]),
            (&json!("read_section"), &json!({ "section_key": "context" })),
            "{seen}"
        );
    }
    let logged = std::fs::read_to_string(&log).unwrap();
    assert_eq!(logged.lines().count(), 8, "every request logged: {logged}");
    assert!(!logged.contains("sk-unfold-test"), "no key is logged");
}
