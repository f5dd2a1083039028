//! A real rule-based LLM server for live runs in tests: fakellm (PyPI), started by
//! `scripts/fakellm.sh` on `tests/fixtures/fakellm.yaml`, which answers the example template's
//! conversations deterministically over OpenAI's and Anthropic's APIs.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

use serde_json::json;

/// A fakellm server, stopped when dropped.
pub struct FakeLlm {
    /// The port it listens on, on 127.0.0.1.
    pub port: u16,
}

/// Starting installs fakellm the first time: one at a time.
static STARTING: Mutex<()> = Mutex::new(());

impl FakeLlm {
    /// Starts a server on a free port.
    pub fn start() -> FakeLlm {
        let _one_at_a_time = STARTING.lock().unwrap_or_else(|e| e.into_inner());
        let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let output =
            Command::new(crate::repo("scripts/fakellm.sh")).args(["start", &port.to_string()]).output().unwrap();
        assert!(output.status.success(), "fakellm did not start: {}", String::from_utf8_lossy(&output.stderr));
        FakeLlm { port }
    }

    /// A profile file with an OpenAI and an Anthropic profile on this server, streamed or not,
    /// both taking their key from `UNFOLD_TEST_KEY`.
    pub fn profiles(&self, folder: &Path) -> PathBuf {
        let profile = |name: &str, kind: &str, base: &str, stream: bool| {
            json!({ "name": name, "kind": kind, "base_url": base, "model": "fake-model", "stream": stream,
                    "temperature": 0, "max_tokens": 256, "read_timeout_ms": 10000, "api_key_env": "UNFOLD_TEST_KEY" })
        };
        let openai = self.openai_base_url();
        let file = json!({ "schema_version": 1, "kind": "unfold.providers", "profiles": [
            profile("openai", "openai", &openai, true),
            profile("openai-whole", "openai", &openai, false),
            profile("anthropic", "anthropic", &openai, true),
            profile("anthropic-whole", "anthropic", &openai, false),
        ] });
        let path = folder.join("providers.json");
        std::fs::write(&path, file.to_string()).unwrap();
        path
    }
}

impl Drop for FakeLlm {
    fn drop(&mut self) {
        let _ = Command::new(crate::repo("scripts/fakellm.sh")).args(["stop", &self.port.to_string()]).output();
    }
}

impl FakeLlm {
    /// Its OpenAI base URL (`…/v1`).
    pub fn openai_base_url(&self) -> String {
        format!("http://127.0.0.1:{}/v1", self.port)
    }
}
