//! The compare view's commands: scenarios open beside the template (new, open, edit, undo, redo,
//! save, close, restore, recent), a comparison run off the UI's thread with its progress and a
//! live model's text streamed through a channel, its cancel, the request and answer of any model
//! call of the last comparison, and its exports. Each translates into
//! `unfold_application::scenarios` or `comparisons`.

use std::sync::Arc;

use serde::Deserialize;
use specta::Type;
use tauri::ipc::Channel;
use tauri::State;
use unfold_application::comparisons::{ComparedDocuments, ComparisonModel, Comparisons, LiveModel};
use unfold_application::profiles::Profiles;
use unfold_application::recent::{Recent, RecentFileDto};
use unfold_application::recovery::Recovery;
use unfold_application::relay::RelayService;
use unfold_application::run_history::OpenRunHistory;
use unfold_application::scenarios::Scenarios;
use unfold_application::source_permissions::SourcePermissions;
use unfold_application::sources::SourceAccess;
use unfold_application::templates::Templates;
use unfold_documents::Scenario;
use unfold_editing::scenario_edit::ScenarioView;
use unfold_engine::compare::{CallRequest, CompareProgress, Lane};
use unfold_engine::request_shapes::RequestShape;
use unfold_engine::{AdapterKind, ComparisonReport};
use unfold_live::TextSink;

use crate::command_error::CommandError;

/// The recently opened scenarios (a list of their own: the start page's list is of templates).
pub struct RecentScenarios(pub Recent);

/// What the UI asks to compare: the open template and scenario, the UI's name for the run, and
/// with `live` a real model instead of the scenario's script.
#[derive(Debug, Clone, PartialEq, Deserialize, Type)]
pub struct ComparisonRequest {
    /// The open template.
    pub template_id: u32,
    /// The open scenario.
    pub scenario_id: u32,
    /// The UI's id for this run (for cancel and the request bodies).
    pub run_id: u32,
    /// The adapters to run, in order (at least one); each run after the first is set against it.
    pub adapters: Vec<AdapterKind>,
    /// A live run, or `null` for the scenario's scripted model.
    pub live: Option<LiveRun>,
    /// The session of the app's relay the runs are attached to, or `null`.
    pub relay_session: Option<String>,
    /// The model a scripted comparison's runs are priced as, or `null` (a live one is priced as
    /// its own model).
    pub price_as: Option<String>,
}

/// A comparison with a real model instead of the scenario's script.
#[derive(Debug, Clone, PartialEq, Deserialize, Type)]
pub struct LiveRun {
    /// The provider profile's name.
    pub profile: String,
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

/// What a comparison needs from the app's state.
struct ComparisonState {
    templates: Arc<Templates>,
    scenarios: Arc<Scenarios>,
    comparisons: Arc<Comparisons>,
    profiles: Arc<Profiles>,
    permissions: Arc<SourcePermissions>,
    relay: Arc<RelayService>,
    history: Arc<OpenRunHistory>,
}

impl ComparisonState {
    /// Runs `request`, its progress and a live model's text sent to `progress`.
    fn run(
        &self,
        request: ComparisonRequest,
        progress: Channel<CompareProgress>,
    ) -> Result<ComparisonReport, CommandError> {
        let ComparisonRequest { template_id, scenario_id, run_id, adapters, live, relay_session, price_as } = request;
        let (template, template_path) = self.templates.document(template_id)?;
        let (scenario, scenario_path) = self.scenarios.document(scenario_id)?;
        let documents = ComparedDocuments {
            template: &template,
            template_path: template_path.as_deref(),
            scenario: &scenario,
            scenario_path: scenario_path.as_deref(),
        };
        let text_channel = progress.clone();
        let text = move |lane: Lane| {
            let channel = text_channel.clone();
            TextSink(Arc::new(move |text: &str| {
                if let Err(error) = channel.send(CompareProgress::Text { lane, text: text.to_owned() }) {
                    tracing::warn!(%error, "cannot send a live model's text to the UI");
                }
            }))
        };
        let model = |token| match live {
            None => Ok(ComparisonModel::Scripted { adapters, price_as }),
            Some(live) => {
                let model = LiveModel::of_profile(&self.profiles, &live.profile, adapters, &text, token)?;
                Ok(ComparisonModel::Live(model))
            }
        };
        let mut send = |message: CompareProgress| {
            if let Err(error) = progress.send(message) {
                tracing::warn!(%error, "cannot send a comparison's progress to the UI");
            }
        };
        let mut access: SourceAccess = self.permissions.consent(&template, template_path.as_deref()).into();
        if let Some(code) = relay_session {
            access.relay = Some(self.relay.attach(&code)?);
        }
        let run = self.comparisons.run(run_id, documents, model, &access, &mut send, &self.history);
        Ok(tauri::async_runtime::block_on(run)?)
    }
}

/// Runs the open scenario on the open template under both adapters and the baseline (or, with
/// `live`, with a real model under the adapters it names), with the sources the user allowed
/// started for each run, off the UI's thread; every run's start
/// and every event goes to `progress` as it happens. `run_id` is the UI's name for the run (to
/// cancel it, and to ask for its request bodies). Every run is kept in the history.
#[tauri::command]
#[specta::specta]
#[allow(clippy::too_many_arguments)]
pub async fn run_comparison(
    templates: State<'_, Arc<Templates>>,
    scenarios: State<'_, Arc<Scenarios>>,
    comparisons: State<'_, Arc<Comparisons>>,
    profiles: State<'_, Arc<Profiles>>,
    permissions: State<'_, Arc<SourcePermissions>>,
    relay: State<'_, Arc<RelayService>>,
    history: State<'_, Arc<OpenRunHistory>>,
    request: ComparisonRequest,
    progress: Channel<CompareProgress>,
) -> Result<ComparisonReport, CommandError> {
    let state = ComparisonState {
        templates: Arc::clone(&templates),
        scenarios: Arc::clone(&scenarios),
        comparisons: Arc::clone(&comparisons),
        profiles: Arc::clone(&profiles),
        permissions: Arc::clone(&permissions),
        relay: Arc::clone(&relay),
        history: Arc::clone(&history),
    };
    tauri::async_runtime::spawn_blocking(move || state.run(request, progress)).await?
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

/// Writes the report of the comparison `run_id` to `path`.
#[tauri::command]
#[specta::specta]
pub async fn export_comparison(
    comparisons: State<'_, Arc<Comparisons>>,
    run_id: u32,
    path: String,
) -> Result<(), CommandError> {
    Ok(comparisons.export_report(run_id, &path)?)
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
