//! Unsaved work kept for crash recovery in the app's data folder: what is kept from an earlier
//! run, the entry to restore, and the thread that keeps the open templates' and scenarios' work
//! every second while the app runs.

use std::time::Duration;

use unfold_documents::document::DocumentKind;
use unfold_stores::recovery::{RecoveredDocument, RecoveryEntry, RecoveryStore};

use crate::error::{AppError, AppResult, ErrorCode};

/// The recovery store, or none when its folder cannot be made (then nothing is kept, and the log
/// says so).
#[derive(Debug)]
pub struct Recovery(pub Option<RecoveryStore>);

impl Recovery {
    /// The store in `folder`; none (logged) when there is no folder or it cannot be made.
    pub fn open(folder: Option<std::path::PathBuf>) -> Recovery {
        let Some(folder) = folder else {
            tracing::error!("unsaved work cannot be kept for recovery: there is no data folder");
            return Recovery(None);
        };
        match RecoveryStore::open(&folder) {
            Ok(store) => Recovery(Some(store)),
            Err(error) => {
                tracing::error!(%error, "unsaved work cannot be kept for recovery");
                Recovery(None)
            }
        }
    }

    /// The store, or why there is none.
    pub fn store(&self) -> AppResult<&RecoveryStore> {
        self.0.as_ref().ok_or_else(|| AppError::new(ErrorCode::Unavailable, "the recovery folder is not available"))
    }
}

/// What kind of document unsaved work belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "snake_case")]
pub enum RecoveredKind {
    /// A template (`restore_document` opens it in the editor).
    Template,
    /// A scenario (`restore_scenario` opens it in the compare view).
    Scenario,
}

impl From<DocumentKind> for RecoveredKind {
    fn from(kind: DocumentKind) -> RecoveredKind {
        match kind {
            DocumentKind::Template => RecoveredKind::Template,
            DocumentKind::Scenario => RecoveredKind::Scenario,
        }
    }
}

/// Unsaved work kept from an earlier run, offered back after a crash.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct RecoveredDto {
    /// The entry's id (what `restore_document`, `restore_scenario` and `discard_recovered` take).
    pub id: String,
    /// A template's or a scenario's.
    pub kind: RecoveredKind,
    /// The file the work belongs to; none for a template never saved.
    pub path: Option<String>,
    /// When it was kept, in milliseconds since the Unix epoch (a JavaScript `Date` value).
    pub saved_at_ms: f64,
}

/// The unsaved work found in the recovery store, templates and scenarios (broken entries, and
/// entries of neither kind, are skipped and logged). Work its file already holds is not offered
/// but forgotten: it was saved after it was kept (the app was gone before its next round).
pub fn recovered(store: &RecoveryStore) -> Vec<RecoveredDto> {
    let found = store.entries();
    for (file, why) in &found.skipped {
        tracing::warn!(file = %file.display(), why, "skipped a recovery entry");
    }
    found.documents.iter().filter(|document| !forget_if_saved(store, &document.entry)).filter_map(dto).collect()
}

/// Whether `entry`'s file holds exactly its text; if so the entry is discarded.
fn forget_if_saved(store: &RecoveryStore, entry: &RecoveryEntry) -> bool {
    let Some(path) = &entry.path else { return false };
    // Read as a document is, so that a FIFO or a device put at the path cannot hold up the start.
    let saved = unfold_documents::document::read_document_bytes(std::path::Path::new(path)).ok();
    if saved.as_deref() != Some(entry.text.as_bytes()) {
        return false;
    }
    if let Err(error) = store.discard(&entry.id) {
        tracing::warn!(id = entry.id, %error, "cannot forget a recovery entry of saved work");
    }
    true
}

fn dto(document: &RecoveredDocument) -> Option<RecoveredDto> {
    let kind = document.entry.document_kind();
    if kind.is_none() {
        tracing::warn!(file = %document.file.display(), "skipped a recovery entry of no known kind");
    }
    Some(RecoveredDto {
        id: document.entry.id.clone(),
        kind: kind?.into(),
        path: document.entry.path.clone(),
        saved_at_ms: document.entry.saved_at_ms as f64,
    })
}

/// The entry `recovery_id` of the recovery store.
pub fn recovered_entry(store: &RecoveryStore, recovery_id: &str) -> AppResult<RecoveryEntry> {
    let found = store.entries();
    let entry = found.documents.into_iter().find(|d| d.entry.id == recovery_id).map(|d| d.entry);
    entry.ok_or_else(|| AppError::new(ErrorCode::NotFound, format!("no unsaved work is kept as '{recovery_id}'")))
}

/// Calls `keep` with the store and the time every second, for as long as the process runs: the
/// app keeps the unsaved work of its open templates and scenarios so (`Documents::flush_recovery`).
pub fn keep_for_recovery(store: RecoveryStore, keep: impl Fn(&RecoveryStore, u64) + Send + 'static) {
    std::thread::spawn(move || loop {
        std::thread::sleep(Duration::from_secs(1));
        keep(&store, unfold_stores::run_history::now_ms());
    });
}
