//! The documents of one kind open in the app, by id: templates or scenarios, any
//! [`FileDocument`]. Opening, closing, the unsaved check, and keeping unsaved work in the crash
//! recovery store and restoring it. Keeping it is found under the documents' lock and done without
//! it ([`RecoveryWork`]): writing a large document out takes milliseconds that an edit waiting for
//! the lock would wait too.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use unfold_documents::error::{Error, Result};
use unfold_documents::save_target::{folder_of, SaveTarget};
use unfold_stores::recovery::{RecoveryEntry, RecoveryStore};

use crate::template_edit::refused;

/// A document the app opens from a file, edits and keeps for recovery: a template or a scenario.
pub trait FileDocument: Sized {
    /// What the documents of this kind are called in messages.
    const NOUN: &'static str;
    /// What the recovery id of a document never saved starts with.
    const UNTITLED: &'static str;
    /// Opens a file; nothing is loaded half-way.
    fn open(path: &Path) -> Result<Self>;
    /// A document from the text a recovery entry kept (modified, with no file yet), accepting the
    /// problems an edited document may have.
    fn recovered(text: &[u8]) -> Result<Self>;
    /// Its file, once opened or saved.
    fn path(&self) -> Option<&Path>;
    /// Makes `path` its file.
    fn set_path(&mut self, path: PathBuf);
    /// Whether it differs from its file (a never saved one always does).
    fn is_dirty(&self) -> bool;
    /// The same number whenever it holds the same state.
    fn revision(&self) -> u64;
    /// Its JSON text, as it would be saved.
    fn text(&self) -> String;
    /// A copy of what it holds, to be written out later without the documents' lock.
    type Snapshot: Send;
    /// A copy of what it holds now: a fraction of what writing its text takes.
    fn snapshot(&self) -> Self::Snapshot;
    /// The text of a snapshot: [`FileDocument::text`] of the document when it was taken.
    fn snapshot_text(snapshot: &Self::Snapshot) -> String;
    /// Its entry in the recovery store.
    fn recovery(&mut self) -> &mut RecoveryState;
    /// The checks a file of this kind gets when it is opened.
    fn check_text(text: &[u8]) -> Result<()>;
    /// Records that it was saved as it stands.
    fn mark_saved(&mut self);

    /// Saves to the document's file, atomically. Refuses what would not open again (the problems
    /// are listed), so a saved file always loads; the recovery store keeps unsaved work meanwhile.
    fn save(&mut self) -> Result<()> {
        let Some(path) = self.path().map(Path::to_owned) else {
            return Err(refused(format!("this {} has no file yet: save it as a new file", Self::NOUN)));
        };
        self.save_as(&path)
    }

    /// Saves to `path`, atomically, and makes it the document's file.
    fn save_as(&mut self, path: &Path) -> Result<()> {
        let text = self.text();
        Self::check_text(text.as_bytes()).map_err(|e| e.in_file(path))?;
        unfold_documents::document::write_atomically(path, &text)?;
        self.set_path(path.to_owned());
        self.mark_saved();
        Ok(())
    }
}

/// A document's entry in the recovery store.
#[derive(Debug, Clone, Default)]
pub struct RecoveryState {
    /// The entry's id, fixed at its first write (or by a restore) so a later "save as" or a
    /// restart still finds the same entry.
    key: Option<String>,
    /// The revision last written, if any.
    written: Option<u64>,
}

/// The documents of one kind open in the app, by id.
#[derive(Debug)]
pub struct OpenDocuments<D> {
    documents: BTreeMap<u32, D>,
    next_id: u32,
}

impl<D> Default for OpenDocuments<D> {
    fn default() -> Self {
        OpenDocuments { documents: BTreeMap::new(), next_id: 0 }
    }
}

impl<D: FileDocument> OpenDocuments<D> {
    /// Opens a file (or, if it is open already, returns that document's id). Temporary files an
    /// interrupted save left in the file's folder are swept first: no save of these documents
    /// is under way while one opens.
    pub fn open(&mut self, path: &Path) -> Result<u32> {
        let same = |document: &D| document.path().is_some_and(|p| p == path);
        if let Some((&id, _)) = self.documents.iter().find(|(_, document)| same(document)) {
            return Ok(id);
        }
        // A save goes to the folder of the file the path names, through symbolic links: there.
        let folder = match SaveTarget::of(path) {
            Ok(target) => target.folder().to_owned(),
            Err(_) => folder_of(path).to_owned(),
        };
        match unfold_stores::recovery::sweep_temp_files(&folder) {
            Ok(0) => {}
            Ok(swept) => {
                tracing::info!(swept, folder = %folder.display(), "removed temporary files of interrupted saves")
            }
            Err(error) => tracing::debug!(%error, folder = %folder.display(), "cannot list the folder to sweep"),
        }
        let document = D::open(path)?;
        Ok(self.insert(document))
    }

    /// Adds a document; returns its id.
    pub fn insert(&mut self, document: D) -> u32 {
        self.next_id += 1;
        self.documents.insert(self.next_id, document);
        self.next_id
    }

    /// Whether any open document differs from its file (or was never saved).
    pub fn has_unsaved_changes(&self) -> bool {
        self.documents.values().any(D::is_dirty)
    }

    /// The document of `id`.
    pub fn get(&self, id: u32) -> Result<&D> {
        self.documents.get(&id).ok_or_else(|| unknown_document(id))
    }

    /// The document of `id`, to change it.
    pub fn get_mut(&mut self, id: u32) -> Result<&mut D> {
        self.documents.get_mut(&id).ok_or_else(|| unknown_document(id))
    }

    /// Takes a document out (unsaved changes are the caller's to confirm first).
    pub fn remove(&mut self, id: u32) -> Result<D> {
        self.documents.remove(&id).ok_or_else(|| unknown_document(id))
    }

    /// Closes a document (unsaved changes are the caller's to confirm first). Returns the id of the
    /// recovery entry it may have, for the caller to discard: closing means its work is not wanted.
    pub fn close(&mut self, id: u32) -> Result<Option<String>> {
        Ok(self.remove(id)?.recovery().key.take())
    }

    /// Keeps the unsaved work of every open document in `store`: a document changed since its last
    /// entry is written (`now_ms` is the caller's clock), a document that no longer differs from its
    /// file loses its entry. Called every second or so, so edits reach the store within 2 s.
    /// Returns the errors, by document; a failure for one never stops the others. The app does the
    /// same in three steps, so as to write without its lock: [`OpenDocuments::recovery_work`],
    /// [`RecoveryWork::perform`], [`OpenDocuments::recovery_done`].
    pub fn flush_recovery(&mut self, store: &RecoveryStore, now_ms: u64) -> Vec<(u32, Error)> {
        let done = self.recovery_work(now_ms).perform::<D>(store);
        // Nothing was closed meanwhile: no entry is left over.
        self.recovery_done(done).errors
    }

    /// What keeping the unsaved work takes now: a snapshot of each document changed since its last
    /// entry, and the entries of documents that no longer differ from their files.
    pub fn recovery_work(&mut self, now_ms: u64) -> RecoveryWork<D::Snapshot> {
        let mut tasks = Vec::new();
        for (&id, document) in &mut self.documents {
            let path = document.path().map(|p| p.display().to_string());
            let (dirty, revision) = (document.is_dirty(), document.revision());
            let written = document.recovery().written;
            let key = document.recovery().key.get_or_insert_with(|| recovery_id::<D>(id, &path, now_ms)).clone();
            let task = if dirty && written != Some(revision) {
                RecoveryTask::Write { path, revision, snapshot: document.snapshot() }
            } else if !dirty && written.is_some() {
                RecoveryTask::Discard
            } else {
                continue;
            };
            tasks.push((id, key, task));
        }
        RecoveryWork { tasks, now_ms }
    }

    /// Records what `done` did for the documents still open (the revision their entry now holds),
    /// so that only later changes are written again.
    pub fn recovery_done(&mut self, done: RecoveryDone) -> RecoveryOutcome {
        let mut outcome = RecoveryOutcome::default();
        for (id, key, result) in done.0 {
            match (self.documents.get_mut(&id), result) {
                (Some(document), Ok(written)) => document.recovery().written = written,
                (Some(_), Err(error)) => outcome.errors.push((id, error)),
                // Closed meanwhile: its work is not wanted, whatever reached the store.
                (None, _) => outcome.left_over.push(key),
            }
        }
        outcome
    }

    /// Opens the unsaved work of a recovery entry as a document (modified, with its file if it had
    /// one). The entry stays in the store until the document is saved or the entry discarded.
    pub fn restore(&mut self, entry: &RecoveryEntry) -> Result<u32> {
        let mut document = D::recovered(entry.text.as_bytes())?;
        if let Some(path) = &entry.path {
            document.set_path(PathBuf::from(path));
        }
        document.recovery().key = Some(entry.id.clone());
        Ok(self.insert(document))
    }
}

/// What keeping the unsaved work of open documents takes, found under their lock
/// ([`OpenDocuments::recovery_work`]); [`RecoveryWork::perform`] does it without the lock.
#[derive(Debug)]
pub struct RecoveryWork<S> {
    tasks: Vec<(u32, String, RecoveryTask<S>)>,
    now_ms: u64,
}

#[derive(Debug)]
enum RecoveryTask<S> {
    /// Write the entry of a changed document.
    Write { path: Option<String>, revision: u64, snapshot: S },
    /// Remove the entry of a document that no longer differs from its file.
    Discard,
}

impl<S> RecoveryWork<S> {
    /// Writes and removes the entries in `store`; a failure for one never stops the others.
    pub fn perform<D: FileDocument<Snapshot = S>>(self, store: &RecoveryStore) -> RecoveryDone {
        let now_ms = self.now_ms;
        let done = self.tasks.into_iter().map(|(id, key, task)| {
            let result = match task {
                RecoveryTask::Write { path, revision, snapshot } => {
                    let entry =
                        RecoveryEntry { id: key.clone(), path, saved_at_ms: now_ms, text: D::snapshot_text(&snapshot) };
                    store.store(&entry).map(|()| Some(revision))
                }
                RecoveryTask::Discard => store.discard(&key).map(|()| None),
            };
            (id, key, result)
        });
        RecoveryDone(done.collect())
    }
}

/// What [`RecoveryWork::perform`] did, by document: the revision its entry now holds (`None`: it
/// has none), or why it could not.
#[derive(Debug)]
pub struct RecoveryDone(Vec<(u32, String, Result<Option<u64>>)>);

/// What [`OpenDocuments::recovery_done`] leaves to the caller.
#[derive(Debug, Default)]
pub struct RecoveryOutcome {
    /// The documents whose work could not be kept, and why.
    pub errors: Vec<(u32, Error)>,
    /// The entries of documents closed while their work was being written: to remove.
    pub left_over: Vec<String>,
}

/// The recovery id of an open document: its file, so the entry says which file it is about; for a
/// new document its kind, id and the time of its first entry, so an untitled document of a later
/// run never overwrites the work of an earlier one before it was offered back.
fn recovery_id<D: FileDocument>(id: u32, path: &Option<String>, now_ms: u64) -> String {
    match path {
        Some(path) => path.clone(),
        None => format!("{}-{now_ms}-{id}", D::UNTITLED),
    }
}

fn unknown_document(id: u32) -> Error {
    Error::UnknownDocument { id }
}
