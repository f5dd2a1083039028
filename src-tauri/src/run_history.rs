//! The run history's commands: the kept runs (the same file `unfold history` reads), one run
//! whole, a run beside a baseline run, and a run's trace written out. Each translates into
//! `unfold_application::run_history` (or `traces`).

use std::sync::Arc;

use tauri::State;
use unfold_application::profiles::Profiles;
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

/// Writes the trace of the kept run `id` to `path`: OTLP JSON, its events spread over the time it
/// took.
#[tauri::command]
#[specta::specta]
pub async fn export_run_trace(
    history: State<'_, Arc<OpenRunHistory>>,
    profiles: State<'_, Arc<Profiles>>,
    id: u32,
    path: String,
) -> Result<(), CommandError> {
    Ok(unfold_application::traces::export_stored_run(&history, &profiles, id.into(), std::path::Path::new(&path))?)
}
