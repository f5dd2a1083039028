//! A host's process, run once to its end: started as the leader of a process group of its own
//! with only the environment its [`Launch`] gives, in the run's folder, its stdin empty; what it
//! prints kept in files up to [`MAX_KEPT_OUTPUT`] bytes each (it is read to the end, so a host
//! that floods its output never blocks on it); stopped when the time is up or the run is
//! cancelled; and, however it
//! ended, its whole group ended with it (the MCP server it started, anything else it left).

use std::path::Path;
use std::process::Stdio;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use unfold_process_groups::{group_leader, ChildGroup};

use crate::hosts::Launch;

/// The most of each of stdout and stderr kept in the run's folder.
pub const MAX_KEPT_OUTPUT: usize = 1 << 20;
/// How often a running host's cancel flag is looked at.
const CANCEL_POLL: Duration = Duration::from_millis(50);

/// How a host's process ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ended {
    /// It exited with this status.
    Exited(i32),
    /// A signal ended it.
    Signalled,
    /// It was still running when the time was up, and was stopped.
    TimedOut(Duration),
    /// The run was cancelled, and it was stopped.
    Cancelled,
}

impl Ended {
    /// Whether it exited by itself with status 0.
    pub fn succeeded(&self) -> bool {
        *self == Ended::Exited(0)
    }
}

impl std::fmt::Display for Ended {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Ended::Exited(code) => write!(f, "exited with status {code}"),
            Ended::Signalled => f.write_str("was ended by a signal"),
            Ended::TimedOut(after) => write!(f, "was stopped after {} s", after.as_secs()),
            Ended::Cancelled => f.write_str("was stopped: the run was cancelled"),
        }
    }
}

/// What a run of a host's process left: how it ended, and the end of its stderr (for a reason).
#[derive(Debug, Clone)]
pub struct ProcessOutcome {
    /// How it ended.
    pub ended: Ended,
    /// The last lines of what it printed on stderr.
    pub stderr_tail: String,
}

/// Runs `launch` (its placeholders filled) in `folder`, keeping its output in `folder/stdout.txt`
/// and `folder/stderr.txt`, for at most `timeout`, or until `cancel` is set.
pub async fn run_to_end(
    launch: &Launch,
    folder: &Path,
    timeout: Duration,
    cancel: Option<&AtomicBool>,
) -> std::io::Result<ProcessOutcome> {
    let mut command = tokio::process::Command::new(&launch.program);
    command
        .args(&launch.args)
        .env_clear()
        .envs(&launch.env)
        .current_dir(folder)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = group_leader(command).spawn()?;
    let group = ChildGroup::led_by(child.id());
    let stdout = child.stdout().take().map(|out| tokio::spawn(keep(out, folder.join("stdout.txt"))));
    let stderr = child.stderr().take().map(|err| tokio::spawn(keep(err, folder.join("stderr.txt"))));
    let cancelled = async {
        while !cancel.is_some_and(|cancel| cancel.load(Ordering::Relaxed)) {
            tokio::time::sleep(CANCEL_POLL).await;
        }
    };
    let stopped = tokio::select! {
        status = child.wait() => Err(status?),
        () = tokio::time::sleep(timeout) => Ok(Ended::TimedOut(timeout)),
        () = cancelled => Ok(Ended::Cancelled),
    };
    let ended = match stopped {
        Err(status) => match status.code() {
            Some(code) => Ended::Exited(code),
            None => Ended::Signalled,
        },
        Ok(stopped) => {
            // Killed whole, then reaped.
            let _ = child.start_kill();
            let _ = child.wait().await;
            stopped
        }
    };
    // What the host started and left behind goes too, so its output pipes close.
    group.end().await;
    // A process that left the group on purpose may hold the pipes open: its output is not waited for.
    for mut keeper in [stdout, stderr].into_iter().flatten() {
        if tokio::time::timeout(Duration::from_secs(2), &mut keeper).await.is_err() {
            keeper.abort();
        }
    }
    let stderr_tail = tail(&std::fs::read(folder.join("stderr.txt")).unwrap_or_default());
    Ok(ProcessOutcome { ended, stderr_tail })
}

/// Copies `output` to `file` up to [`MAX_KEPT_OUTPUT`] bytes, and reads the rest away.
async fn keep(mut output: impl AsyncRead + Unpin, file: std::path::PathBuf) {
    let Ok(mut file) = tokio::fs::File::create(&file).await else { return };
    let mut buffer = vec![0u8; 64 * 1024];
    let mut kept = 0;
    while let Ok(read) = output.read(&mut buffer).await {
        if read == 0 {
            break;
        }
        let keep = read.min(MAX_KEPT_OUTPUT - kept);
        if keep > 0 && file.write_all(&buffer[..keep]).await.is_ok() {
            kept += keep;
        }
    }
    let _ = file.flush().await;
}

/// The last few lines of `output`, for a message.
fn tail(output: &[u8]) -> String {
    let text = String::from_utf8_lossy(output);
    let lines: Vec<&str> = text.lines().filter(|line| !line.trim().is_empty()).collect();
    lines[lines.len().saturating_sub(5)..].join("\n")
}
