//! Unfold's application layer: every use case the `unfold` command line and the desktop app offer,
//! written once over the library crates, with one error type ([`AppError`]) whose code says what
//! happened. The CLI and the app's commands only translate: arguments or IPC calls in, output or
//! IPC answers out. Nothing here knows of Tauri, of a terminal or of a UI.
//!
//! What it holds: the documents open in the app ([`templates`], [`scenarios`], [`recovery`]),
//! comparisons and their exports ([`comparisons`], [`exports`], [`chart_images`]), suites and
//! the cases saved from comparisons ([`suites`], [`suite_cases`]), live runs and replays
//! ([`live_runs`]), what of them leaves the process, scrubbed of secrets ([`redaction`]), the run history ([`run_history`]), provider profiles and keys ([`profiles`],
//! [`keys`]), what runs cost ([`prices`]), recent files ([`recent`]), files read by the command line ([`files`]), host profiles ([`hosts`], and those the host probe writes: [`probed_profiles`]), tool sources
//! ([`sources`]) and which of them the user allowed ([`consents`]), the plugin relay
//! ([`relay`]), the template served to an agent host over MCP ([`template_server`]), real agent
//! hosts run against it ([`real_hosts`]; with a real model, [`live_hosts`]), Agent Skills
//! imported as templates and exported back ([`skills`]), and where all of it is kept
//! ([`folders`]).

#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod cache_nonce;
pub mod chart_images;
mod comparison_request;
pub mod comparisons;
pub mod consents;
pub mod documents;
pub mod error;
pub mod examples;
pub mod exports;
pub mod files;
pub mod folders;
pub mod forks;
pub mod host_probe;
pub mod hosts;
pub mod keys;
pub mod live_hosts;
pub mod live_runs;
pub mod prices;
pub mod probed_profiles;
pub mod profiles;
pub mod real_hosts;
pub mod recent;
pub mod recovery;
pub mod redaction;
pub mod relay;
pub mod run_history;
pub mod running_studies;
pub mod scenarios;
pub mod skills;
pub mod sources;
pub mod studies;
mod study_budget;
pub mod study_journal;
pub mod suite_cases;
pub mod suites;
pub mod template_exports;
pub mod template_server;
pub mod templates;
pub mod traces;

use std::sync::{Mutex, MutexGuard, PoisonError};

pub use error::{AppError, AppResult, ErrorCode};

/// Locks `mutex`, even when a thread panicked while holding it: every change under the
/// application's locks is whole or not at all (a library edit changes nothing unless it
/// succeeds), so the state behind it is consistent. Keep serving it.
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}
