//! The crate's one error: why a source could not be started, listed or called, in words a discovery
//! event or a failed tool result carries as it is.

use std::time::Duration;

/// Why a source did not do what was asked.
#[derive(Debug, thiserror::Error)]
pub enum SourceError {
    /// Its definition cannot be started as written (a variable not set, a folder missing, …).
    #[error("{0}")]
    Definition(String),
    /// The program could not be started.
    #[error("cannot start '{program}': {reason}")]
    Start {
        /// The program, as the definition names it.
        program: String,
        /// The operating system's reason.
        reason: String,
    },
    /// The source did not answer in time.
    #[error("no answer within {} s", .0.as_secs_f64())]
    Timeout(Duration),
    /// The source answered outside the protocol, or its connection closed.
    #[error("{0}")]
    Protocol(String),
}
