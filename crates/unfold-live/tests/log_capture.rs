//! The whole trace log a piece of work writes on the calling thread, for tests that read it.
//!
//! Why not `tracing::subscriber::with_default`: a scoped subscriber is thread-local, but tracing
//! caches each callsite's interest process-wide, computed when the callsite is first hit. With
//! only a scoped subscriber alive, a test on another thread that hits a callsite first (the retry
//! warning, the `provider_call` span) caches "never" for it, and the log comes back empty. Here one
//! process-wide subscriber is installed once, as the CLI and the app install theirs, so every
//! callsite's interest is "always", and its writer keeps what each capturing thread writes apart.

use std::cell::RefCell;
use std::io::Write;
use std::sync::Once;

thread_local! {
    /// The log of the capture running on this thread, if one is.
    static CAPTURED: RefCell<Option<Vec<u8>>> = const { RefCell::new(None) };
}

/// Runs `work` on this thread and returns what it logged at every level, with no colour codes.
/// Whatever other threads log at the same time is not in it.
pub fn capture_log<R>(work: impl FnOnce() -> R) -> (R, String) {
    install_once();
    CAPTURED.with(|log| *log.borrow_mut() = Some(Vec::new()));
    let result = work();
    let bytes = CAPTURED.with(|log| log.borrow_mut().take()).unwrap_or_default();
    (result, String::from_utf8(bytes).expect("the log is UTF-8"))
}

fn install_once() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let subscriber = tracing_subscriber::fmt()
            .with_max_level(tracing::Level::TRACE)
            .with_ansi(false)
            .with_writer(|| ThreadLog)
            .finish();
        tracing::subscriber::set_global_default(subscriber).expect("no other test installs a global subscriber");
    });
}

/// Writes into the capture of the thread that logs, or nowhere.
struct ThreadLog;

impl Write for ThreadLog {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        CAPTURED.with(|log| {
            if let Some(log) = log.borrow_mut().as_mut() {
                log.extend_from_slice(bytes);
            }
        });
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
