//! `unfold run` against a real model on a real server: llama.cpp's `llama-server` serving
//! SmolLM2-135M-Instruct (`scripts/llama-server.sh`; building it takes about 10 minutes once, so
//! these tests are ignored by a plain `cargo test` and `scripts/test.sh` runs them). The model is
//! too small to call tools: the tests assert the transport — streaming framing, usage, every API,
//! real error bodies — and a live run of the example end to end, never the model's words.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, MutexGuard};

use serde_json::{json, Value};

const EXAMPLE: &str = "examples/task-executor.unfold.json";
const KEY: &str = "sk-local-canary-5e8a1c";

fn repo(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").join(path)
}

/// One test at a time: two servers on two cores would make every turn slow.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// A llama-server of this test requiring [`KEY`], stopped when dropped.
struct LlamaServer {
    port: u16,
    _turn: MutexGuard<'static, ()>,
}

impl LlamaServer {
    fn start() -> LlamaServer {
        let turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
        let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let output =
            Command::new(repo("scripts/llama-server.sh")).args(["start", &port.to_string(), KEY]).output().unwrap();
        assert!(output.status.success(), "llama-server did not start: {}", String::from_utf8_lossy(&output.stderr));
        LlamaServer { port, _turn: turn }
    }

    /// Profiles for the three APIs, streamed and whole, with the right key and a wrong one.
    fn profiles(&self, folder: &Path) -> PathBuf {
        let base = format!("http://127.0.0.1:{}/v1", self.port);
        let profile = |name: &str, kind: &str, stream: bool, key: &str| {
            json!({ "name": name, "kind": kind, "base_url": base, "model": "smollm2", "stream": stream,
                    "temperature": 0, "max_tokens": 24, "read_timeout_ms": 60000, "api_key_env": key })
        };
        let file = json!({ "schema_version": 1, "kind": "unfold.providers", "profiles": [
            profile("openai", "openai", true, "REAL_KEY"),
            profile("openai-whole", "openai", false, "REAL_KEY"),
            profile("anthropic", "anthropic", true, "REAL_KEY"),
            profile("anthropic-whole", "anthropic", false, "REAL_KEY"),
            profile("responses", "openai-responses", true, "REAL_KEY"),
            profile("responses-whole", "openai-responses", false, "REAL_KEY"),
            profile("openai-wrong-key", "openai", true, "WRONG_KEY"),
            profile("anthropic-wrong-key", "anthropic", true, "WRONG_KEY"),
        ] });
        let path = folder.join("providers.json");
        std::fs::write(&path, file.to_string()).unwrap();
        path
    }
}

impl Drop for LlamaServer {
    fn drop(&mut self) {
        let _ = Command::new(repo("scripts/llama-server.sh")).args(["stop", &self.port.to_string()]).output();
    }
}

struct Outcome {
    code: i32,
    stdout: String,
    stderr: String,
}

fn unfold(args: &[&str]) -> Outcome {
    let output = Command::new(env!("CARGO_BIN_EXE_unfold"))
        .current_dir(repo("."))
        .args(args)
        .env("UNFOLD_HISTORY", "off")
        .env("REAL_KEY", KEY)
        .env("WRONG_KEY", "sk-wrong-3b7d")
        .env("UNFOLD_LOG", "debug")
        .output()
        .unwrap();
    let outcome = Outcome {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    };
    assert!(!outcome.stdout.contains(KEY) && !outcome.stderr.contains(KEY), "the key is printed");
    outcome
}

fn run(profiles: &Path, profile: &str, extra: &[&str]) -> Outcome {
    let mut args = vec!["run", EXAMPLE, "--providers", profiles.to_str().unwrap(), "--provider", profile];
    args.extend_from_slice(&["--user", "Say hello in five words."]);
    args.extend_from_slice(extra);
    unfold(&args)
}

#[test]
#[ignore = "needs llama-server (about 10 minutes to build once); scripts/test.sh runs it"]
fn the_example_runs_on_a_real_model_over_every_api_streamed_and_whole() {
    let server = LlamaServer::start();
    let folder = tempfile::tempdir().unwrap();
    let profiles = server.profiles(folder.path());
    let rendered: Value = serde_json::from_str(&unfold(&["render", EXAMPLE, "--json"]).stdout).unwrap();
    let own_count = rendered["prompt_tokens"].as_u64().unwrap();
    for profile in ["openai", "openai-whole", "anthropic", "anthropic-whole", "responses", "responses-whole"] {
        let outcome = run(&profiles, profile, &["--json"]);
        assert_eq!(outcome.code, 0, "{profile}: {}", outcome.stderr);
        let report: Value = serde_json::from_str(&outcome.stdout).unwrap();
        let run = &report["run"];
        assert_eq!(run["status"], "completed", "{profile}: {run}");
        assert!(run["final"].as_str().is_some_and(|t| !t.trim().is_empty()), "{profile}: an answer");
        assert_eq!(run["counters"]["model_calls"], 1, "{profile}");
        // The server's own usage (its tokenizer, not Unfold's count), and an answer cut at
        // max_tokens.
        let call = run["events"].as_array().unwrap().iter().find(|e| e["type"] == "model_call").unwrap();
        // Anthropic's input tokens leave out what its cache read and wrote (llama.cpp reuses its
        // cached prompt, and says so): the whole prompt is their sum.
        let cache = &call["measured_cache"];
        let apart = |key: &str| if cache["in_prompt_tokens"] == false { cache[key].as_u64().unwrap_or(0) } else { 0 };
        let prompt = call["prompt_tokens"].as_u64().unwrap() + apart("read_tokens") + apart("write_tokens");
        let completion = call["completion_tokens"].as_u64().unwrap();
        assert!((50..4096).contains(&prompt), "{profile}: {prompt} prompt tokens");
        assert_ne!(prompt, own_count, "{profile}: the usage is the server's");
        assert!((1..=24).contains(&completion), "{profile}: {completion} completion tokens");
        assert!(outcome.stderr.contains("provider_call"), "{profile}: the call is traced");
    }
}

/// A real server takes the bodies of the two adapters that keep the prompt start: OpenAI's
/// `tool_choice` of type `allowed_tools`, Anthropic's deferred tools and OpenAI Responses' (with
/// its `tool_search`); it ignores them, and the run holds the model to the callable subset itself.
#[test]
#[ignore = "needs llama-server (about 10 minutes to build once); scripts/test.sh runs it"]
fn allowed_tools_and_deferred_run_on_a_real_model() {
    let server = LlamaServer::start();
    let folder = tempfile::tempdir().unwrap();
    let profiles = server.profiles(folder.path());
    for (profile, adapter) in [
        ("openai", "allowed_tools"),
        ("openai-whole", "allowed_tools"),
        ("anthropic", "deferred"),
        ("anthropic-whole", "deferred"),
        ("responses", "allowed_tools"),
        ("responses-whole", "deferred"),
    ] {
        let outcome = run(&profiles, profile, &["--adapter", adapter, "--json"]);
        assert_eq!(outcome.code, 0, "{profile} {adapter}: {}", outcome.stderr);
        let report: Value = serde_json::from_str(&outcome.stdout).unwrap();
        let run = &report["run"];
        assert_ne!(run["status"], "error", "{profile} {adapter}: {run}");
        assert!(run["counters"]["model_calls"].as_u64().unwrap() >= 1, "{profile} {adapter}");
        assert_eq!(run["events"][0]["adapter"], adapter, "{profile}");
    }
}

#[test]
#[ignore = "needs llama-server (about 10 minutes to build once); scripts/test.sh runs it"]
fn a_wrong_key_is_refused_once_with_the_servers_words() {
    let server = LlamaServer::start();
    let folder = tempfile::tempdir().unwrap();
    let profiles = server.profiles(folder.path());
    for profile in ["openai-wrong-key", "anthropic-wrong-key"] {
        let outcome = run(&profiles, profile, &[]);
        assert_eq!(outcome.code, 4, "{profile}: {}", outcome.stderr);
        assert!(
            outcome.stdout.contains("answered 401 Unauthorized: authentication_error: Invalid API Key"),
            "{profile}: {}",
            outcome.stdout
        );
        assert!(!outcome.stderr.contains("retrying"), "{profile}: a 401 is not retried");
        assert!(!outcome.stdout.contains("sk-wrong-3b7d") && !outcome.stderr.contains("sk-wrong-3b7d"));
    }
}

#[test]
#[ignore = "needs llama-server (about 10 minutes to build once); scripts/test.sh runs it"]
fn a_prompt_longer_than_the_context_is_a_clear_error() {
    let server = LlamaServer::start();
    let folder = tempfile::tempdir().unwrap();
    let profiles = server.profiles(folder.path());
    let objective = format!("objective={}", "Refactor the authentication module carefully. ".repeat(800));
    let outcome = run(&profiles, "openai", &["--param", &objective]);
    assert_eq!(outcome.code, 4, "{}", outcome.stderr);
    assert!(
        outcome.stdout.contains("answered 400 Bad Request: exceed_context_size_error: request ("),
        "{}",
        outcome.stdout
    );
    assert!(!outcome.stderr.contains("retrying"), "a 400 is not retried");
}

#[test]
#[ignore = "needs llama-server (about 10 minutes to build once); scripts/test.sh runs it"]
fn a_real_run_recorded_replays_offline() {
    let server = LlamaServer::start();
    let folder = tempfile::tempdir().unwrap();
    let profiles = server.profiles(folder.path());
    let cassette = folder.path().join("real.cassette.json");
    let live = run(&profiles, "anthropic", &["--json", "--record", cassette.to_str().unwrap()]);
    assert_eq!(live.code, 0, "{}", live.stderr);
    drop(server);
    let replayed = unfold(&["replay", EXAMPLE, cassette.to_str().unwrap(), "--json"]);
    assert_eq!(replayed.code, 0, "{}", replayed.stderr);
    let (live, replayed): (Value, Value) =
        (serde_json::from_str(&live.stdout).unwrap(), serde_json::from_str(&replayed.stdout).unwrap());
    assert_eq!(replayed["run"]["events"], live["run"]["events"]);
    assert!(!std::fs::read_to_string(&cassette).unwrap().contains(KEY));
}
