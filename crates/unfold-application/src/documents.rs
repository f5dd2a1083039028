//! The documents of one kind open in the app (templates in the editor, scenarios in the compare
//! view), shared by every command behind one lock: closing with the unsaved work forgotten, the
//! unsaved check before the window closes, and keeping unsaved work for crash recovery.

use std::sync::Mutex;

use unfold_editing::open_documents::{FileDocument, OpenDocuments};
use unfold_stores::recovery::RecoveryStore;

use crate::error::AppResult;
use crate::lock;

/// The open documents of one kind.
#[derive(Debug)]
pub struct Documents<D>(Mutex<OpenDocuments<D>>);

impl<D> Default for Documents<D> {
    fn default() -> Self {
        Documents(Mutex::new(OpenDocuments::default()))
    }
}

impl<D: FileDocument> Documents<D> {
    /// `work` on the open documents, holding the lock.
    pub fn with<T>(&self, work: impl FnOnce(&mut OpenDocuments<D>) -> AppResult<T>) -> AppResult<T> {
        work(&mut lock(&self.0))
    }

    /// Closes a document and forgets its unsaved work: the user chose not to keep it.
    pub fn close(&self, id: u32, recovery: Option<&RecoveryStore>) -> AppResult<()> {
        let entry = self.with(|documents| Ok(documents.close(id)?))?;
        if let (Some(store), Some(entry)) = (recovery, entry) {
            store.discard(&entry)?;
        }
        Ok(())
    }

    /// Whether any open document has unsaved changes.
    pub fn has_unsaved_changes(&self) -> bool {
        lock(&self.0).has_unsaved_changes()
    }

    /// Writes every document's unsaved work to the recovery store (see
    /// `OpenDocuments::flush_recovery`); a document that cannot be kept is logged.
    pub fn flush_recovery(&self, store: &RecoveryStore, now_ms: u64) {
        let work = lock(&self.0).recovery_work(now_ms);
        // Without the lock: writing a 5,000-section template out takes milliseconds, which a
        // keystroke's edit would otherwise wait for.
        let done = work.perform::<D>(store);
        let outcome = lock(&self.0).recovery_done(done);
        for key in outcome.left_over {
            if let Err(error) = store.discard(&key) {
                tracing::warn!(%error, kind = D::NOUN, "cannot remove the recovery entry of a closed document");
            }
        }
        for (id, error) in outcome.errors {
            tracing::warn!(id, %error, kind = D::NOUN, "cannot keep a document for recovery");
        }
    }
}
