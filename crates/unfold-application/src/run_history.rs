//! The run history as the command line and the app hold it: open, turned off (`UNFOLD_HISTORY=off`),
//! or failed to open. Keeping a run never fails the run: a history that cannot keep it says so and
//! the run's result stands; asking the history for runs fails with what went wrong.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use unfold_stores::run_history::{RunComparison, RunFilter, RunHistory, RunRecord, RunSummary, StoredRun};

use crate::error::{AppError, AppResult, ErrorCode};
use crate::lock;

/// The run history, whatever became of opening it.
#[derive(Debug)]
pub struct OpenRunHistory(Mutex<Opened>);

#[derive(Debug)]
enum Opened {
    Off,
    Open(RunHistory),
    Failed(AppError),
}

impl OpenRunHistory {
    /// Opens the history file at `path`; `None` is a history turned off. A failure is logged and
    /// kept: runs still run, and each use of the history says why it is not there.
    pub fn open(path: Option<PathBuf>) -> OpenRunHistory {
        let opened = match path {
            None => Opened::Off,
            Some(path) => match RunHistory::open(&path) {
                Ok(history) => Opened::Open(history),
                Err(error) => {
                    tracing::error!(%error, "the run history cannot be opened; runs will not be kept");
                    Opened::Failed(error.into())
                }
            },
        };
        OpenRunHistory(Mutex::new(opened))
    }

    /// The history file at `path`, already open.
    pub fn at(path: &Path) -> AppResult<OpenRunHistory> {
        Ok(OpenRunHistory(Mutex::new(Opened::Open(RunHistory::open(path)?))))
    }

    fn with<T>(&self, work: impl FnOnce(&RunHistory) -> unfold_documents::Result<T>) -> AppResult<T> {
        match &*lock(&self.0) {
            Opened::Open(history) => Ok(work(history)?),
            Opened::Off => {
                Err(AppError::new(ErrorCode::Unavailable, "UNFOLD_HISTORY=off: the run history is turned off"))
            }
            Opened::Failed(error) => Err(error.clone()),
        }
    }

    /// Keeps `records` (a comparison's runs), all or none: a comparison is never kept with some
    /// of its runs missing. With the history turned off nothing is kept and nothing fails; a
    /// history that cannot keep them answers why (and logs it), and the caller's run stands.
    pub fn keep(&self, records: &[RunRecord<'_>]) -> AppResult<()> {
        self.keep_ids(records).map(drop)
    }

    /// [`keep`](Self::keep), answering the ids the runs are kept under, in order (none with the
    /// history turned off).
    pub fn keep_ids(&self, records: &[RunRecord<'_>]) -> AppResult<Vec<i64>> {
        if matches!(&*lock(&self.0), Opened::Off) {
            return Ok(Vec::new());
        }
        let kept = self.with(|history| history.record_all(records));
        if let Err(error) = &kept {
            tracing::warn!(%error, "a run was not kept in the history");
        }
        kept
    }

    /// The kept runs `filter` matches, newest first.
    pub fn list(&self, filter: &RunFilter) -> AppResult<Vec<RunSummary>> {
        self.with(|history| history.list(filter))
    }

    /// One kept run, whole.
    pub fn get(&self, id: i64) -> AppResult<StoredRun> {
        self.with(|history| history.get(id)).map_err(not_found)
    }

    /// The kept run `id` beside the kept run `baseline`.
    pub fn compare(&self, baseline: i64, id: i64) -> AppResult<RunComparison> {
        self.with(|history| history.compare(baseline, id)).map_err(not_found)
    }
}

/// A run asked for by an id the history does not hold is not found, not an invalid request.
fn not_found(error: AppError) -> AppError {
    match error.code {
        ErrorCode::InvalidRequest => AppError { code: ErrorCode::NotFound, ..error },
        _ => error,
    }
}
