//! The run history's commands: the kept runs (the same file `unfold history` reads), one run
//! whole, and a run beside a baseline run. Each translates into
//! `unfold_application::run_history`.

use std::sync::Arc;

use tauri::State;
use unfold_application::run_history::OpenRunHistory;
use unfold_stores::run_history::{RunComparison, RunFilter, RunSummary, StoredRun};

use crate::command_error::CommandError;

/// The kept runs `filter` matches, newest first.
#[tauri::command]
#[specta::specta]
pub async fn run_history(
    history: State<'_, Arc<OpenRunHistory>>,
    filter: RunFilter,
) -> Result<Vec<RunSummary>, CommandError> {
    Ok(history.list(&filter)?)
}

/// One kept run, whole.
#[tauri::command]
#[specta::specta]
pub async fn history_run(history: State<'_, Arc<OpenRunHistory>>, id: u32) -> Result<StoredRun, CommandError> {
    Ok(history.get(id.into())?)
}

/// The kept run `id` next to the kept run `baseline`.
#[tauri::command]
#[specta::specta]
pub async fn compare_history_runs(
    history: State<'_, Arc<OpenRunHistory>>,
    baseline: u32,
    id: u32,
) -> Result<RunComparison, CommandError> {
    Ok(history.compare(baseline.into(), id.into())?)
}
