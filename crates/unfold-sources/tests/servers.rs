//! Where the test servers are, and a source definition that starts one.

use std::path::{Path, PathBuf};
use std::time::Duration;

use unfold_documents::source::McpServer;
pub use unfold_test_support::mcp_servers::{npm_bin, python};

/// Long enough for a cold Python or Node start on a busy 2-core machine; a test that waits for a
/// timeout uses its own, short one.
pub const START_TIMEOUT: Duration = Duration::from_secs(60);

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

/// An MCP server reached at `url`.
pub fn url(url: String) -> McpServer {
    McpServer { command: None, url: Some(url), ..command(&[]) }
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

/// The processes whose command line holds `marker`, now.
pub fn processes_with(marker: &str) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else { return Vec::new() };
    entries
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/cmdline"))
                .is_ok_and(|cmdline| String::from_utf8_lossy(&cmdline).contains(marker))
        })
        .collect()
}

/// The processes still running (zombies aside) in process group `pgid`, once those being killed
/// are gone: like [`processes_running`], this waits for them up to a deadline.
pub async fn group_running(pgid: u32) -> Vec<u32> {
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    loop {
        let found = group_members(pgid);
        if found.is_empty() || std::time::Instant::now() > deadline {
            return found;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The processes of group `pgid` that are not zombies, from `/proc/PID/stat` (`pid (comm) state
/// ppid pgrp …`; the command may hold spaces and parentheses, so fields are read after the last `)`).
pub fn group_members(pgid: u32) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else { return Vec::new() };
    entries
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else { return false };
            let Some((_, fields)) = stat.rsplit_once(')') else { return false };
            let fields: Vec<&str> = fields.split_whitespace().collect();
            fields.first() != Some(&"Z") && fields.get(2) == Some(&pgid.to_string().as_str())
        })
        .collect()
}
