//! The study commands (spec 14): a comparison repeated off the UI's thread, each repetition's end
//! told through a channel (with the history ids of its runs, for the timeline), and its cancel.
//! Each translates into `unfold_application::running_studies`.

use std::sync::Arc;

use tauri::ipc::Channel;
use tauri::State;
use unfold_application::comparisons::Comparisons;
use unfold_application::running_studies::{RunningStudies, StudyAsked};
use unfold_application::studies::StudyProgress;
use unfold_engine::study::StudyReport;

use crate::command_error::CommandError;

/// Runs the study the UI asks for; each repetition's end goes to `progress`, every run is kept in
/// the history. Answers the `unfold.study` report (its `stopped` says a cancel).
#[tauri::command]
#[specta::specta]
pub async fn run_study(
    comparisons: State<'_, Arc<Comparisons>>,
    studies: State<'_, Arc<RunningStudies>>,
    asked: StudyAsked,
    progress: Channel<StudyProgress>,
) -> Result<StudyReport, CommandError> {
    let (comparisons, studies) = (Arc::clone(&comparisons), Arc::clone(&studies));
    let told = move |message: StudyProgress| {
        if let Err(error) = progress.send(message) {
            tracing::warn!(%error, "cannot send a study's progress to the UI");
        }
    };
    let run = move || tauri::async_runtime::block_on(studies.run(&comparisons, asked, &told));
    Ok(tauri::async_runtime::spawn_blocking(run).await??.report)
}

/// Stops the study `study_id`: no repetition starts after, and those under way are left out.
#[tauri::command]
#[specta::specta]
pub async fn cancel_study(studies: State<'_, Arc<RunningStudies>>, study_id: u32) -> Result<(), CommandError> {
    studies.cancel(study_id);
    Ok(())
}
