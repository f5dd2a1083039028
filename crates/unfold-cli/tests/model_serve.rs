//! `unfold model serve`: the scripted model endpoint as the command line starts it, on this machine
//! only, answering a host's request as the script says, logging it without its key, and stopped
//! cleanly by Ctrl+C.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};

fn repo(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").join(path)
}

/// The endpoint's process, killed when dropped: a test that fails leaves nothing running.
struct Served(std::process::Child);

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn the_endpoint_answers_the_scripts_first_step_logs_no_key_and_stops_on_ctrl_c() {
    let folder = tempfile::tempdir().unwrap();
    let log = folder.path().join("model.jsonl");
    let mut served = Served(
        Command::new(env!("CARGO_BIN_EXE_unfold"))
            .current_dir(repo("."))
            .args(["model", "serve", "examples/read-context-then-search.scenario.json", "--port", "0", "--log"])
            .arg(&log)
            .stdout(Stdio::piped())
            .spawn()
            .unwrap(),
    );
    let mut line = String::new();
    BufReader::new(served.0.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let address = line
        .trim()
        .strip_prefix("model endpoint listening on http://")
        .and_then(|rest| rest.strip_suffix("/v1 (Ctrl+C stops it)"))
        .unwrap_or_else(|| panic!("{line}"))
        .to_owned();
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

    let interrupted = Command::new("kill").args(["-INT", &served.0.id().to_string()]).status().unwrap();
    assert!(interrupted.success());
    assert!(served.0.wait().unwrap().success(), "Ctrl+C stops it cleanly");
    assert!(std::net::TcpStream::connect(&address).is_err(), "and the port is free");
    let logged = std::fs::read_to_string(&log).unwrap();
    assert_eq!(logged.lines().count(), 1, "{logged}");
    assert!(logged.contains(r#""api":"openai-chat""#) && !logged.contains("sk-canary-model-7e1"), "{logged}");
}
