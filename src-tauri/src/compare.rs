//! The compare view's commands: scenarios open beside the template (new, open, edit, undo, redo,
//! save, close, restore, recent), a comparison request run off the UI's thread with its progress
//! and a live model's text streamed through a channel, its cancel, the request and answer of any
//! model call of the last comparison, its exports, and the host presets a lane can run as. Each translates into
//! `unfold_application::scenarios` or `comparisons`.

use std::sync::Arc;

use tauri::ipc::Channel;
use tauri::State;
use unfold_application::chart_images::ChartImage;
use unfold_application::comparisons::{ComparisonRequest, Comparisons, ProgressListener};
use unfold_application::exports::ReportFormat;
use unfold_application::recent::{Recent, RecentFileDto};
use unfold_application::recovery::Recovery;
use unfold_application::scenarios::Scenarios;
use unfold_application::templates::Templates;
use unfold_documents::host_profile::HostProfile;
use unfold_documents::Scenario;
use unfold_editing::scenario_edit::ScenarioView;
use unfold_engine::compare::{CallRequest, CompareProgress, Lane};
use unfold_engine::request_shapes::RequestShape;
use unfold_engine::ComparisonReport;

use crate::command_error::CommandError;

/// The recently opened scenarios (a list of their own: the start page's list is of templates).
pub struct RecentScenarios(pub Recent);

/// The agent hosts a comparison can run as lanes (`host:NAME`), with their evidence.
#[tauri::command]
#[specta::specta]
pub fn host_presets() -> Result<Vec<HostProfile>, CommandError> {
    Ok(unfold_application::hosts::presets().to_vec())
}

/// A new scenario for the open template `template_id`.
#[tauri::command]
#[specta::specta]
pub async fn new_scenario(
    templates: State<'_, Arc<Templates>>,
    scenarios: State<'_, Arc<Scenarios>>,
    template_id: u32,
) -> Result<ScenarioView, CommandError> {
    Ok(scenarios.create(&templates, template_id)?)
}

/// Opens a scenario file, checked against the open template `template_id` when given.
#[tauri::command]
#[specta::specta]
pub async fn open_scenario(
    templates: State<'_, Arc<Templates>>,
    scenarios: State<'_, Arc<Scenarios>>,
    recent: State<'_, RecentScenarios>,
    path: String,
    template_id: Option<u32>,
) -> Result<ScenarioView, CommandError> {
    let opened = scenarios.open(&templates, &path, template_id)?;
    recent.0.remember(opened.status.path.as_deref());
    Ok(opened)
}

/// Replaces an open scenario with what the scenario panel holds; changes of one `group` in a row
/// undo as one step.
#[tauri::command]
#[specta::specta]
pub async fn edit_scenario(
    templates: State<'_, Arc<Templates>>,
    scenarios: State<'_, Arc<Scenarios>>,
    id: u32,
    scenario: Scenario,
    group: Option<String>,
    template_id: Option<u32>,
) -> Result<ScenarioView, CommandError> {
    Ok(scenarios.edit(&templates, id, scenario, group, template_id)?)
}

/// Undoes (`back`) or redoes one step of an open scenario.
#[tauri::command]
#[specta::specta]
pub async fn step_scenario(
    templates: State<'_, Arc<Templates>>,
    scenarios: State<'_, Arc<Scenarios>>,
    id: u32,
    back: bool,
    template_id: Option<u32>,
) -> Result<ScenarioView, CommandError> {
    Ok(scenarios.step(&templates, id, back, template_id)?)
}

/// Saves an open scenario to its file, or to `path` ("save as"); one with problems is refused.
#[tauri::command]
#[specta::specta]
pub async fn save_scenario(
    templates: State<'_, Arc<Templates>>,
    scenarios: State<'_, Arc<Scenarios>>,
    recent: State<'_, RecentScenarios>,
    id: u32,
    path: Option<String>,
    template_id: Option<u32>,
) -> Result<ScenarioView, CommandError> {
    let saved = scenarios.save(&templates, id, path.as_deref(), template_id)?;
    if path.is_some() {
        recent.0.remember(saved.status.path.as_deref());
    }
    Ok(saved)
}

/// Closes an open scenario and forgets its unsaved work (the UI asks first).
#[tauri::command]
#[specta::specta]
pub async fn close_scenario(
    scenarios: State<'_, Arc<Scenarios>>,
    recovery: State<'_, Recovery>,
    id: u32,
) -> Result<(), CommandError> {
    Ok(scenarios.close(id, recovery.0.as_ref())?)
}

/// Opens a scenario's unsaved work kept from an earlier run, checked against the open template.
#[tauri::command]
#[specta::specta]
pub async fn restore_scenario(
    templates: State<'_, Arc<Templates>>,
    scenarios: State<'_, Arc<Scenarios>>,
    recovery: State<'_, Recovery>,
    recovery_id: String,
    template_id: Option<u32>,
) -> Result<ScenarioView, CommandError> {
    Ok(scenarios.restore(&templates, recovery.store()?, &recovery_id, template_id)?)
}

/// The recently opened scenarios, newest first.
#[tauri::command]
#[specta::specta]
pub async fn recent_scenarios(recent: State<'_, RecentScenarios>) -> Result<Vec<RecentFileDto>, CommandError> {
    Ok(recent.0.list())
}

/// Runs the comparison the UI asks for (its open template and scenario, by id), off the UI's
/// thread; every lane's start, every event and a live model's text go to `progress` as they
/// happen. The request's `run_id` is the UI's name for it (to cancel it, and to ask for its calls
/// and exports). Every lane is kept in the history.
#[tauri::command]
#[specta::specta]
pub async fn run_comparison(
    comparisons: State<'_, Arc<Comparisons>>,
    request: ComparisonRequest,
    progress: Channel<CompareProgress>,
) -> Result<ComparisonReport, CommandError> {
    let comparisons = Arc::clone(&comparisons);
    let listener: ProgressListener = Arc::new(move |message| {
        if let Err(error) = progress.send(message) {
            tracing::warn!(%error, "cannot send a comparison's progress to the UI");
        }
    });
    let run = move || tauri::async_runtime::block_on(comparisons.run(request, listener));
    Ok(tauri::async_runtime::spawn_blocking(run).await??.report)
}

/// Stops the comparison `run_id` before its next model call.
#[tauri::command]
#[specta::specta]
pub async fn cancel_comparison(comparisons: State<'_, Arc<Comparisons>>, run_id: u32) -> Result<(), CommandError> {
    comparisons.cancel(run_id);
    Ok(())
}

/// The request model call `call_index` of `lane` sent in the comparison `run_id`, and its answer.
#[tauri::command]
#[specta::specta]
pub async fn comparison_call(
    comparisons: State<'_, Arc<Comparisons>>,
    run_id: u32,
    lane: Lane,
    call_index: u32,
) -> Result<CallRequest, CommandError> {
    Ok(comparisons.call(run_id, lane, call_index)?)
}

/// Writes the report of the comparison `run_id` to `path` in `format` (JSON, or Markdown to paste
/// into a pull request).
#[tauri::command]
#[specta::specta]
pub async fn export_comparison(
    comparisons: State<'_, Arc<Comparisons>>,
    run_id: u32,
    path: String,
    format: ReportFormat,
) -> Result<(), CommandError> {
    Ok(comparisons.export_report(run_id, &path, format)?)
}

/// Writes the chart of the comparison `run_id`, as the UI drew it, to `path` as an SVG or a PNG.
#[tauri::command]
#[specta::specta]
pub async fn export_chart(
    comparisons: State<'_, Arc<Comparisons>>,
    run_id: u32,
    path: String,
    image: ChartImage,
) -> Result<(), CommandError> {
    Ok(comparisons.export_chart(run_id, &path, &image)?)
}

/// Adds the comparison `run_id` of the files `template` and `scenario` to the suite file `suite`
/// (made if there is none) as a case expecting what its runs showed; answers the case's name.
#[tauri::command]
#[specta::specta]
pub async fn add_to_suite(
    comparisons: State<'_, Arc<Comparisons>>,
    run_id: u32,
    suite: String,
    template: String,
    scenario: String,
) -> Result<String, CommandError> {
    Ok(comparisons.add_to_suite(run_id, &suite, &template, &scenario)?)
}

/// Writes the request bodies of the comparison `run_id` into the new or empty `folder`, in the
/// shape of `api`.
#[tauri::command]
#[specta::specta]
pub async fn export_requests(
    comparisons: State<'_, Arc<Comparisons>>,
    run_id: u32,
    folder: String,
    api: RequestShape,
) -> Result<u32, CommandError> {
    Ok(comparisons.export_requests(run_id, &folder, api)?)
}
