//! A process Unfold starts because a user asked (a tool source's server, an agent host) and
//! everything it starts, ended together. Such programs are often started through a wrapper that
//! starts the real one (`npx`, `uv run`, a shell line), and an agent host starts servers of its
//! own, so signalling the direct child alone leaves them running. The child is started as the leader of a process
//! group of its own (process-wrap's `ProcessGroup`, which the MCP SDK's shutdown then signals
//! whole), and [`ChildGroup`] ends what is left of the group once the leader is gone, or kills
//! the whole group at once if it is dropped first (a start that failed or timed out, a run
//! cancelled).
//!
//! A process that leaves the group on purpose (`setsid`, a daemon) is beyond this.

#![deny(missing_docs)]

use std::time::Duration;

use process_wrap::tokio::{CommandWrap, ProcessGroup};
use rustix::process::{kill_process_group, test_kill_process_group, Pid, Signal};

/// How long what is left of a group has after SIGTERM before it is killed: as long as the
/// leader gets between each step of its own shutdown.
const GRACE: Duration = Duration::from_secs(3);

/// `command`, to be started as the leader of a new process group.
pub fn group_leader(command: tokio::process::Command) -> CommandWrap {
    let mut wrapped = CommandWrap::from(command);
    wrapped.wrap(ProcessGroup::leader());
    wrapped
}

/// The process group a child leads, until it is ended.
#[derive(Debug)]
pub struct ChildGroup {
    /// The group's id (its leader's process id); none once ended.
    pgid: Option<Pid>,
}

impl ChildGroup {
    /// The group led by the child with process id `leader`, started by [`group_leader`].
    pub fn led_by(leader: Option<u32>) -> ChildGroup {
        ChildGroup { pgid: leader.and_then(|pid| i32::try_from(pid).ok()).and_then(Pid::from_raw) }
    }

    /// Ends what is left of the group after its leader was shut down: SIGTERM, then SIGKILL to
    /// whatever has not gone within [`GRACE`]. Nothing when the group is already empty.
    pub async fn end(mut self) {
        let Some(pgid) = self.pgid.take() else { return };
        // An error is ESRCH: no process is left in the group.
        if kill_process_group(pgid, Signal::TERM).is_err() {
            return;
        }
        tracing::debug!(pgid = pgid.as_raw_pid(), "a child left processes behind; ending them");
        let deadline = tokio::time::Instant::now() + GRACE;
        // A process reparented to an init that does not reap it stays a zombie and still counts
        // here: then the whole grace passes, and the kill below does nothing.
        while test_kill_process_group(pgid).is_ok() && tokio::time::Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let _ = kill_process_group(pgid, Signal::KILL);
    }
}

impl Drop for ChildGroup {
    /// Kills the whole group at once, synchronously, so it holds even while the runtime shuts
    /// down. A group's id is not given to another process while anyone is in the group; once it
    /// is empty, only after the system has handed out every other process id.
    fn drop(&mut self) {
        if let Some(pgid) = self.pgid.take() {
            let _ = kill_process_group(pgid, Signal::KILL);
        }
    }
}
