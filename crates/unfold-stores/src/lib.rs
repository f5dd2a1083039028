//! Unfold's stores: what the app and the command line keep on disk beside the user's documents.
//! The run history (SQLite, shared by both), the crash-recovery entries of unsaved work, the
//! recent files list and the tool sources the user allowed the app to start. Each store owns its
//! folder or file; none of them ever holds a key.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod consent_store;
pub mod recent;
pub mod recovery;
pub mod run_history;
pub mod stable_hash;
