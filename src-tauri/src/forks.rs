//! The fork's command (spec 15): a lane of the app's last comparison, or a kept run, forked at one
//! of its events with a change, its lanes run on from there off the UI's thread; translates into
//! `unfold_application::forks`.

use std::sync::Arc;

use serde::Serialize;
use tauri::State;
use unfold_application::comparisons::Comparisons;
use unfold_application::forks::ForkRequest;
use unfold_engine::ComparisonReport;

use crate::command_error::CommandError;

/// A fork's answer: its report, and where the history keeps its runs (its lanes' in order).
#[derive(Debug, Serialize, specta::Type)]
pub struct ForkAnswer {
    /// The report; its `fork` names the parent.
    pub report: ComparisonReport,
    /// The history's ids of its runs.
    #[specta(type = Vec<f64>)]
    pub kept: Vec<i64>,
}

/// Runs the fork `request` asks for, keeping its runs as its parent's children when the parent is
/// kept.
#[tauri::command]
#[specta::specta]
pub async fn fork_run(
    comparisons: State<'_, Arc<Comparisons>>,
    request: ForkRequest,
) -> Result<ForkAnswer, CommandError> {
    let comparisons = Arc::clone(&comparisons);
    let fork = move || tauri::async_runtime::block_on(comparisons.fork(request, Arc::new(|_| {})));
    let finished = tauri::async_runtime::spawn_blocking(fork).await??;
    Ok(ForkAnswer { report: finished.report, kept: finished.kept })
}
