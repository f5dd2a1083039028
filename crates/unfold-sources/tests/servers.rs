//! Where the test servers are, and a source definition that starts one.

use std::path::{Path, PathBuf};
use std::time::Duration;

use unfold_documents::source::McpServer;

/// Long enough for a cold Python or Node start on a busy 2-core machine; a test that waits for a
/// timeout uses its own, short one.
pub const START_TIMEOUT: Duration = Duration::from_secs(60);

/// Where `scripts/mcp-servers.sh` installs (`UNFOLD_CACHE`, else `~/.cache/unfold`).
fn cache() -> PathBuf {
    if let Some(cache) = std::env::var_os("UNFOLD_CACHE") {
        return PathBuf::from(cache);
    }
    let home = std::env::var_os("HOME").expect("HOME is set");
    PathBuf::from(home).join(".cache/unfold")
}

/// The Python that has the `mcp` package (`UNFOLD_MCP_PYTHON`, else the install script's venv).
pub fn python() -> String {
    let python = std::env::var("UNFOLD_MCP_PYTHON")
        .unwrap_or_else(|_| cache().join("mcp-venv/bin/python").display().to_string());
    assert!(Path::new(&python).exists(), "{python} is missing: run scripts/mcp-servers.sh install first");
    python
}

/// A program the npm servers installed (`UNFOLD_MCP_NPM`, else the install script's folder).
pub fn npm_bin(name: &str) -> String {
    let folder = std::env::var("UNFOLD_MCP_NPM").map(PathBuf::from).unwrap_or_else(|_| cache().join("mcp-npm"));
    let bin = folder.join("node_modules/.bin").join(name);
    assert!(bin.exists(), "{} is missing: run scripts/mcp-servers.sh install first", bin.display());
    bin.display().to_string()
}

/// The folder of this crate's test servers.
pub fn servers_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/servers")
}

/// An MCP server started by `command`.
pub fn command(command: &[&str]) -> McpServer {
    McpServer {
        command: Some(command.iter().map(|s| (*s).to_owned()).collect()),
        cwd: None,
        env: Default::default(),
        url: None,
        extensions: Default::default(),
    }
}

/// The Python SDK server whose tool list changes.
pub fn changing_tools() -> McpServer {
    let python = python();
    command(&[&python, "changing_tools.py"])
}

/// The user's environment as the tests see it.
pub fn user_env(name: &str) -> Option<String> {
    std::env::var(name).ok()
}

/// Whether process `pid` is still there (a zombie counts: nobody reaped it).
pub fn process_exists(pid: u32) -> bool {
    Path::new(&format!("/proc/{pid}")).exists()
}

/// The processes whose command line holds `marker`, once those being killed are gone: a kill is
/// asynchronous, so this waits for them up to a deadline (reached only by a process left behind).
pub async fn processes_running(marker: &str) -> Vec<u32> {
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    loop {
        let found = processes_with(marker);
        if found.is_empty() || std::time::Instant::now() > deadline {
            return found;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn processes_with(marker: &str) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else { return Vec::new() };
    entries
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/cmdline"))
                .is_ok_and(|cmdline| String::from_utf8_lossy(&cmdline).contains(marker))
        })
        .collect()
}
