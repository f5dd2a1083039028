//! The compare view's commands: scenarios open beside the template (new, open, edit, undo, redo,
//! save, close, each a few lines over `unfold_editing::scenario_edit`), a comparison of the open
//! template and scenario run off the UI's thread with its progress streamed through a channel and
//! a cancel, the request and answer of any model call of the last comparison, and its exports.
//! The command bodies are plain functions over the state, so the tests call them with no window.

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use serde::Deserialize;
use specta::Type;
use tauri::ipc::Channel;
use tauri::State;
use unfold_documents::{Scenario, Template};
use unfold_editing::edit::FileDocument;
use unfold_editing::scenario_edit::{starter_scenario, ScenarioDocument, ScenarioView};
use unfold_engine::compare::{CallRequest, CompareProgress, Comparison, Lane};
use unfold_engine::{AdapterKind, ComparisonReport};
use unfold_live::{ApiKey, CancellationToken, HttpProvider, TextSink};
use unfold_stores::recovery::RecoveryStore;
use unfold_stores::run_history::ComparisonOrigin;

use crate::commands::CommandError;
use crate::editor::{lock, Documents, Editor, Recovery};
use crate::files::Recent;
use crate::live::{History, Profiles};

/// The scenarios open in the compare view.
pub type Scenarios = Documents<ScenarioDocument>;

/// The recently opened scenarios (a list of their own: the start page's list is of templates).
pub struct RecentScenarios(pub Recent);

/// The comparisons under way (their cancel flag and token, by the UI's run id) and the last one
/// finished, whose request bodies the UI asks for one at a time.
#[derive(Debug, Default)]
pub struct Comparisons {
    running: Mutex<HashMap<u32, (Arc<AtomicBool>, CancellationToken)>>,
    last: Mutex<Option<(u32, Comparison)>>,
}

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
    /// A live run, or `null` for the scenario's scripted model.
    pub live: Option<LiveRun>,
}

/// Who hears a comparison as it runs: its progress, and for a live run the pieces of text each
/// lane's model writes.
pub struct Progress<'a> {
    /// Every run's start and event.
    pub events: &'a mut (dyn FnMut(CompareProgress) + Send),
    /// The sink of a lane's streamed text.
    pub text: &'a (dyn Fn(Lane) -> TextSink + Sync),
}

/// A comparison with a real model instead of the scenario's script.
#[derive(Debug, Clone, PartialEq, Deserialize, Type)]
pub struct LiveRun {
    /// The provider profile's name.
    pub profile: String,
    /// The adapters to run, in order (one or both).
    pub adapters: Vec<AdapterKind>,
}

/// What a comparison needs besides the open documents: the profiles of a live run, and the
/// history every run is kept in.
pub struct RunContext<'a> {
    /// The provider profiles.
    pub profiles: &'a Profiles,
    /// The run history.
    pub history: &'a History,
}

impl Scenarios {
    /// `work` on the scenario `id`, then its view checked against the template `template_id`.
    fn change(
        &self,
        editor: &Editor,
        id: u32,
        template_id: Option<u32>,
        work: impl FnOnce(&mut ScenarioDocument) -> Result<(), CommandError>,
    ) -> Result<ScenarioView, CommandError> {
        let template = template_of(editor, template_id)?;
        self.with(|scenarios| {
            let document = scenarios.get_mut(id)?;
            work(document)?;
            Ok(document.view(id, template.as_ref()))
        })
    }

    /// A new scenario for the open template.
    pub fn create(&self, editor: &Editor, template_id: u32) -> Result<ScenarioView, CommandError> {
        let template = editor.with(|documents| Ok(documents.get(template_id)?.template().clone()))?;
        self.with(|scenarios| {
            let id = scenarios.insert(ScenarioDocument::new(starter_scenario(&template)));
            Ok(scenarios.get(id)?.view(id, Some(&template)))
        })
    }

    /// Opens a scenario file; an invalid one opens nothing and lists every problem.
    pub fn open(&self, editor: &Editor, path: &str, template_id: Option<u32>) -> Result<ScenarioView, CommandError> {
        let template = template_of(editor, template_id)?;
        self.with(|scenarios| {
            let id = scenarios.open(Path::new(path))?;
            Ok(scenarios.get(id)?.view(id, template.as_ref()))
        })
    }

    /// Replaces the scenario `id` with what the panel holds.
    pub fn edit(
        &self,
        editor: &Editor,
        id: u32,
        scenario: Scenario,
        group: Option<String>,
        template_id: Option<u32>,
    ) -> Result<ScenarioView, CommandError> {
        self.change(editor, id, template_id, |document| {
            document.replace(scenario, group);
            Ok(())
        })
    }

    /// Undoes (`back`) or redoes one step of the scenario `id`.
    pub fn step(
        &self,
        editor: &Editor,
        id: u32,
        back: bool,
        template_id: Option<u32>,
    ) -> Result<ScenarioView, CommandError> {
        self.change(editor, id, template_id, |document| {
            if back {
                document.undo()
            } else {
                document.redo()
            };
            Ok(())
        })
    }

    /// Saves the scenario `id` to its file, or to `path`.
    pub fn save(
        &self,
        editor: &Editor,
        id: u32,
        path: Option<&str>,
        template_id: Option<u32>,
    ) -> Result<ScenarioView, CommandError> {
        self.change(editor, id, template_id, |document| {
            match path {
                Some(path) => document.save_as(Path::new(path))?,
                None => document.save()?,
            }
            Ok(())
        })
    }

    /// Opens the recovery entry `recovery_id` as a modified scenario.
    pub fn restore(
        &self,
        editor: &Editor,
        store: &RecoveryStore,
        recovery_id: &str,
        template_id: Option<u32>,
    ) -> Result<ScenarioView, CommandError> {
        let entry = crate::editor::recovered_entry(store, recovery_id)?;
        let template = template_of(editor, template_id)?;
        self.with(|scenarios| {
            let id = scenarios.restore(&entry)?;
            Ok(scenarios.get(id)?.view(id, template.as_ref()))
        })
    }
}

/// The template `template_id` as it stands, to check a scenario against.
fn template_of(editor: &Editor, template_id: Option<u32>) -> Result<Option<Template>, CommandError> {
    template_id.map(|id| editor.with(|documents| Ok(documents.get(id)?.template().clone()))).transpose()
}

impl Comparisons {
    /// Runs the scenario `scenario_id` on the template `template_id` under both adapters and the
    /// baseline, telling `progress` every run's start and event; the UI's `run_id` names the run
    /// for `cancel` and for the request bodies afterwards.
    /// With `live`, the scenario's user message goes to a real model under the adapters it names
    /// instead. Every run is kept in the history.
    pub fn run(
        &self,
        (editor, scenarios): (&Editor, &Scenarios),
        context: &RunContext<'_>,
        (template_id, scenario_id, run_id): (u32, u32, u32),
        live: Option<LiveRun>,
        progress: Progress<'_>,
    ) -> Result<ComparisonReport, CommandError> {
        let (template, template_path) = editor.with(|documents| {
            let document = documents.get(template_id)?;
            Ok((document.template().clone(), document.path().map(Path::to_path_buf)))
        })?;
        let (scenario, scenario_path) = scenarios.with(|open| {
            let document = open.get(scenario_id)?;
            Ok((document.scenario().clone(), document.path().map(Path::to_path_buf)))
        })?;
        let (cancel, token) = (Arc::new(AtomicBool::new(false)), CancellationToken::new());
        lock(&self.running).insert(run_id, (Arc::clone(&cancel), token.clone()));
        let started = (unfold_stores::run_history::now_ms(), std::time::Instant::now());
        let outcome = match &live {
            None => {
                let adapters = [AdapterKind::Dynamic, AdapterKind::Restart];
                let comparison =
                    unfold_engine::compare::compare_observed(&template, &scenario, &adapters, progress.events, &cancel);
                tauri::async_runtime::block_on(comparison)
            }
            Some(live) => live_comparison(context.profiles, live, (&template, &scenario), progress, (&cancel, &token)),
        };
        lock(&self.running).remove(&run_id);
        let comparison = outcome?;
        let provider = live.as_ref().map(|l| context.profiles.get(&l.profile)).transpose().ok().flatten();
        let origin = ComparisonOrigin {
            template: &template,
            template_path: template_path.as_deref(),
            scenario: &scenario,
            scenario_path: scenario_path.as_deref(),
            live: provider.as_ref().map(|p| (p.name.as_str(), p.model.as_str())),
            started_at_ms: started.0,
            duration_ms: started.1.elapsed().as_millis() as u64,
        };
        context.history.keep(&origin.records(&comparison.report));
        let report = comparison.report.clone();
        *lock(&self.last) = Some((run_id, comparison));
        Ok(report)
    }

    /// Asks the comparison `run_id` to stop: a scripted one before its next model call, a live one
    /// at once (its call in flight is dropped); nothing when it has ended.
    pub fn cancel(&self, run_id: u32) {
        if let Some((flag, token)) = lock(&self.running).get(&run_id) {
            flag.store(true, Ordering::Relaxed);
            token.cancel();
        }
    }

    /// `work` on the last comparison, which must be `run_id`.
    fn with_last<T>(
        &self,
        run_id: u32,
        work: impl FnOnce(&Comparison) -> Result<T, CommandError>,
    ) -> Result<T, CommandError> {
        match &*lock(&self.last) {
            Some((id, comparison)) if *id == run_id => work(comparison),
            _ => Err(gone(run_id)),
        }
    }

    /// What model call `call_index` of `lane` was sent, and what it answered.
    pub fn call(&self, run_id: u32, lane: Lane, call_index: u32) -> Result<CallRequest, CommandError> {
        self.with_last(run_id, |comparison| {
            comparison.call(lane, call_index).cloned().ok_or_else(|| {
                CommandError::from(unfold_documents::Error::problem(
                    "",
                    format!("the {} run made no model call {call_index}", lane.name()),
                ))
            })
        })
    }

    /// Writes the comparison report (`unfold compare --json`) to `path`, atomically.
    pub fn export_report(&self, run_id: u32, path: &str) -> Result<(), CommandError> {
        self.with_last(run_id, |comparison| {
            let text = unfold_documents::document::to_canonical_json(&comparison.report);
            Ok(unfold_documents::document::write_atomically(Path::new(path), &text)?)
        })
    }

    /// Writes every model call's request body into `folder` (new or empty); returns how many.
    pub fn export_requests(&self, run_id: u32, folder: &str) -> Result<u32, CommandError> {
        self.with_last(run_id, |comparison| {
            let written = unfold_engine::compare::write_request_files(Path::new(folder), &comparison.requests)?;
            Ok(u32::try_from(written).unwrap_or(u32::MAX))
        })
    }
}

/// A comparison of the scenario's user message with a real model, each run with a new provider
/// of the profile as its file says now.
fn live_comparison(
    profiles: &Profiles,
    live: &LiveRun,
    (template, scenario): (&Template, &Scenario),
    progress: Progress<'_>,
    (cancel, token): (&AtomicBool, &CancellationToken),
) -> Result<Comparison, unfold_documents::Error> {
    if live.adapters.is_empty() {
        return Err(unfold_documents::Error::problem("", "choose at least one adapter to run live"));
    }
    let profile = profiles.get(&live.profile).map_err(|e| unfold_documents::Error::Provider(e.message))?;
    let mut providers = |lane: Lane| {
        let key = ApiKey::for_profile(&profile)?;
        let sink = (progress.text)(lane);
        let provider = HttpProvider::new(profile.clone(), key)?.with_cancel(token.clone()).with_text_sink(sink);
        Ok(Box::new(provider) as Box<dyn unfold_engine::Provider + Send>)
    };
    let comparison = unfold_engine::compare::compare_live(
        template,
        scenario,
        &live.adapters,
        &mut providers,
        progress.events,
        cancel,
    );
    tauri::async_runtime::block_on(comparison)
}

fn gone(run_id: u32) -> CommandError {
    CommandError::from(unfold_documents::Error::problem(
        "",
        format!("comparison {run_id} is no longer kept: run it again"),
    ))
}

/// A new scenario for the open template `template_id`.
#[tauri::command]
#[specta::specta]
pub async fn new_scenario(
    editor: State<'_, Arc<Editor>>,
    scenarios: State<'_, Arc<Scenarios>>,
    template_id: u32,
) -> Result<ScenarioView, CommandError> {
    scenarios.create(&editor, template_id)
}

/// Opens a scenario file, checked against the open template `template_id` when given.
#[tauri::command]
#[specta::specta]
pub async fn open_scenario(
    editor: State<'_, Arc<Editor>>,
    scenarios: State<'_, Arc<Scenarios>>,
    recent: State<'_, RecentScenarios>,
    path: String,
    template_id: Option<u32>,
) -> Result<ScenarioView, CommandError> {
    let opened = scenarios.open(&editor, &path, template_id)?;
    recent.0.remember(opened.status.path.as_deref());
    Ok(opened)
}

/// Replaces an open scenario with what the scenario panel holds; changes of one `group` in a row
/// undo as one step.
#[tauri::command]
#[specta::specta]
pub async fn edit_scenario(
    editor: State<'_, Arc<Editor>>,
    scenarios: State<'_, Arc<Scenarios>>,
    id: u32,
    scenario: Scenario,
    group: Option<String>,
    template_id: Option<u32>,
) -> Result<ScenarioView, CommandError> {
    scenarios.edit(&editor, id, scenario, group, template_id)
}

/// Undoes (`back`) or redoes one step of an open scenario.
#[tauri::command]
#[specta::specta]
pub async fn step_scenario(
    editor: State<'_, Arc<Editor>>,
    scenarios: State<'_, Arc<Scenarios>>,
    id: u32,
    back: bool,
    template_id: Option<u32>,
) -> Result<ScenarioView, CommandError> {
    scenarios.step(&editor, id, back, template_id)
}

/// Saves an open scenario to its file, or to `path` ("save as"); one with problems is refused.
#[tauri::command]
#[specta::specta]
pub async fn save_scenario(
    editor: State<'_, Arc<Editor>>,
    scenarios: State<'_, Arc<Scenarios>>,
    recent: State<'_, RecentScenarios>,
    id: u32,
    path: Option<String>,
    template_id: Option<u32>,
) -> Result<ScenarioView, CommandError> {
    let saved = scenarios.save(&editor, id, path.as_deref(), template_id)?;
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
    scenarios.close(id, recovery.0.as_ref())
}

/// Opens a scenario's unsaved work kept from an earlier run, checked against the open template.
#[tauri::command]
#[specta::specta]
pub async fn restore_scenario(
    editor: State<'_, Arc<Editor>>,
    scenarios: State<'_, Arc<Scenarios>>,
    recovery: State<'_, Recovery>,
    recovery_id: String,
    template_id: Option<u32>,
) -> Result<ScenarioView, CommandError> {
    scenarios.restore(&editor, recovery.store()?, &recovery_id, template_id)
}

/// The recently opened scenarios, newest first.
#[tauri::command]
#[specta::specta]
pub async fn recent_scenarios(
    recent: State<'_, RecentScenarios>,
) -> Result<Vec<crate::files::RecentFileDto>, CommandError> {
    Ok(recent.0.list())
}

/// Runs the open scenario on the open template under both adapters and the baseline, off the
/// UI's thread; every run's start and every event goes to `progress` as it happens. `run_id` is
/// the UI's name for the run (to cancel it, and to ask for its request bodies).
#[tauri::command]
#[specta::specta]
pub async fn run_comparison(
    editor: State<'_, Arc<Editor>>,
    scenarios: State<'_, Arc<Scenarios>>,
    comparisons: State<'_, Arc<Comparisons>>,
    profiles: State<'_, Arc<Profiles>>,
    history: State<'_, Arc<History>>,
    request: ComparisonRequest,
    progress: Channel<CompareProgress>,
) -> Result<ComparisonReport, CommandError> {
    let ComparisonRequest { template_id, scenario_id, run_id, live } = request;
    let (editor, scenarios, comparisons) = (Arc::clone(&editor), Arc::clone(&scenarios), Arc::clone(&comparisons));
    let (profiles, history) = (Arc::clone(&profiles), Arc::clone(&history));
    let text_channel = progress.clone();
    tauri::async_runtime::spawn_blocking(move || {
        let mut send = |message: CompareProgress| {
            if let Err(error) = progress.send(message) {
                tracing::warn!(%error, "cannot send a comparison's progress to the UI");
            }
        };
        let context = RunContext { profiles: &profiles, history: &history };
        let text = |lane: Lane| {
            let channel = text_channel.clone();
            TextSink(Arc::new(move |text: &str| {
                if let Err(error) = channel.send(CompareProgress::Text { lane, text: text.to_owned() }) {
                    tracing::warn!(%error, "cannot send a live model's text to the UI");
                }
            }))
        };
        let progress = Progress { events: &mut send, text: &text };
        comparisons.run((&editor, &scenarios), &context, (template_id, scenario_id, run_id), live, progress)
    })
    .await?
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
    comparisons.call(run_id, lane, call_index)
}

/// Writes the report of the comparison `run_id` to `path`.
#[tauri::command]
#[specta::specta]
pub async fn export_comparison(
    comparisons: State<'_, Arc<Comparisons>>,
    run_id: u32,
    path: String,
) -> Result<(), CommandError> {
    comparisons.export_report(run_id, &path)
}

/// Writes the request bodies of the comparison `run_id` into the new or empty `folder`.
#[tauri::command]
#[specta::specta]
pub async fn export_requests(
    comparisons: State<'_, Arc<Comparisons>>,
    run_id: u32,
    folder: String,
) -> Result<u32, CommandError> {
    comparisons.export_requests(run_id, &folder)
}

#[cfg(test)]
mod tests {
    //! The compare view's command bodies over real files, with no window.

    use unfold_engine::EventKind;

    use super::*;
    use crate::commands::CommandErrorCode;

    fn example(name: &str) -> String {
        format!("{}/../examples/{name}", env!("CARGO_MANIFEST_DIR"))
    }

    /// The example template open in the editor, and lookup-first open beside it.
    fn opened(editor: &Editor, scenarios: &Scenarios) -> (u32, u32) {
        let template = editor.open(&example("task-executor.unfold.json")).expect("the example opens").status.id;
        let view = scenarios.open(editor, &example("lookup-first.scenario.json"), Some(template)).expect("opens");
        assert!(!view.status.dirty && view.status.problems.is_empty(), "{view:?}");
        (template, view.status.id)
    }

    #[test]
    fn a_scenario_is_edited_undone_and_saved_and_checked_against_the_template() {
        let (editor, scenarios) = (Editor::default(), Scenarios::default());
        let (template, id) = opened(&editor, &scenarios);
        let mut scenario = scenarios.with(|open| Ok(open.get(id)?.scenario().clone())).unwrap();
        scenario.params.insert("nope".into(), "x".into());
        let edited = scenarios.edit(&editor, id, scenario, None, Some(template)).unwrap();
        assert!(edited.status.dirty && edited.status.can_undo);
        assert_eq!(edited.status.problems[0].location, "/params/nope");
        assert!(scenarios.edit(&editor, id, edited.scenario.clone(), None, None).unwrap().status.problems.is_empty());

        let undone = scenarios.step(&editor, id, true, Some(template)).unwrap();
        assert!(!undone.status.dirty && undone.status.can_redo && undone.status.problems.is_empty());
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("copy.scenario.json");
        let saved = scenarios.save(&editor, id, Some(&path.to_string_lossy()), Some(template)).unwrap();
        assert_eq!(saved.status.path.as_deref(), Some(path.to_str().unwrap()));
        assert_eq!(Scenario::load(&path).unwrap(), saved.scenario);

        let created = scenarios.create(&editor, template).unwrap();
        assert!(created.status.dirty && created.status.problems.is_empty());
        assert!(scenarios.has_unsaved_changes());
        scenarios.close(created.status.id, None).unwrap();
        assert!(!scenarios.has_unsaved_changes());
        let error = scenarios.open(&editor, &example("task-executor.unfold.json"), None).expect_err("a template");
        assert_eq!(error.code, CommandErrorCode::InvalidTemplate);
    }

    /// Progress to `events`, with no text sink.
    fn progress(events: &mut (dyn FnMut(CompareProgress) + Send)) -> Progress<'_> {
        Progress { events, text: &|_| TextSink(Arc::new(|_| {})) }
    }

    /// Provider profiles (none yet) and a run history in a temporary folder.
    fn context() -> (tempfile::TempDir, Profiles, History) {
        let dir = tempfile::tempdir().unwrap();
        let profiles = Profiles(Some(dir.path().join("providers.json")));
        let history = unfold_stores::run_history::RunHistory::open(&dir.path().join("history.sqlite3")).unwrap();
        (dir, profiles, History(Mutex::new(Some(history))))
    }

    #[test]
    fn a_comparison_streams_its_events_keeps_its_calls_and_exports() {
        let (editor, scenarios, comparisons) = (Editor::default(), Scenarios::default(), Comparisons::default());
        let (template, scenario) = opened(&editor, &scenarios);
        let mut heard = Vec::new();
        let (dir, profiles, history) = context();
        let context = RunContext { profiles: &profiles, history: &history };
        let report = comparisons
            .run((&editor, &scenarios), &context, (template, scenario, 7), None, progress(&mut |p| heard.push(p)))
            .unwrap();
        let events = |lane: Lane| {
            heard
                .iter()
                .filter_map(|p| match p {
                    CompareProgress::Event { lane: l, event } if *l == lane => Some((**event).clone()),
                    _ => None,
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(events(Lane::Dynamic), report.runs[0].events);
        assert_eq!(events(Lane::Restart), report.runs[1].events);
        assert_eq!(events(Lane::Baseline), report.baseline.as_ref().unwrap().run.events);
        let kept = history.0.lock().unwrap().as_ref().unwrap().list(&Default::default()).unwrap();
        let lanes: Vec<Option<&str>> = kept.iter().map(|run| run.lane.as_deref()).collect();
        assert_eq!(lanes, [Some("baseline"), Some("restart"), Some("dynamic")], "every run is kept");
        assert!(kept.iter().all(|run| run.provider == "scripted" && run.scenario_path.is_some()));

        let call = comparisons.call(7, Lane::Restart, 3).unwrap();
        assert_eq!((call.attempt, call.body["messages"].as_array().map(Vec::len)), (2, Some(2)));
        assert!(comparisons.call(7, Lane::Restart, 99).is_err());
        assert!(comparisons.call(8, Lane::Restart, 1).unwrap_err().message.contains("run it again"));

        let file = dir.path().join("report.json");
        comparisons.export_report(7, &file.to_string_lossy()).unwrap();
        let written: ComparisonReport = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        assert_eq!(written, report);
        let folder = dir.path().join("bodies");
        assert_eq!(comparisons.export_requests(7, &folder.to_string_lossy()).unwrap(), 4 + 5 + 3);
        assert!(comparisons.export_requests(7, &folder.to_string_lossy()).is_err(), "not into a full folder");
    }

    #[test]
    fn a_cancelled_comparison_stops_and_says_so() {
        let (editor, scenarios, comparisons) = (Editor::default(), Scenarios::default(), Comparisons::default());
        let (template, scenario) = opened(&editor, &scenarios);
        let mut calls = 0;
        let mut cancel_after_first_call = |progress: CompareProgress| {
            if let CompareProgress::Event { event, .. } = progress {
                if matches!(event.kind, EventKind::ModelCall { .. }) {
                    calls += 1;
                    comparisons.cancel(3);
                }
            }
        };
        let (_dir, profiles, history) = context();
        let context = RunContext { profiles: &profiles, history: &history };
        let ids = (template, scenario, 3);
        let error = comparisons.run((&editor, &scenarios), &context, ids, None, progress(&mut cancel_after_first_call));
        assert_eq!(error.expect_err("cancelled").code, CommandErrorCode::Cancelled);
        assert_eq!(calls, 1);
        comparisons.cancel(3); // ended: nothing to cancel, no error
    }

    #[test]
    fn a_live_comparison_needs_a_known_profile_and_an_adapter() {
        let (editor, scenarios, comparisons) = (Editor::default(), Scenarios::default(), Comparisons::default());
        let (template, scenario) = opened(&editor, &scenarios);
        let (_dir, profiles, history) = context();
        let context = RunContext { profiles: &profiles, history: &history };
        let live = |profile: &str, adapters: Vec<AdapterKind>| Some(LiveRun { profile: profile.into(), adapters });
        let run = |live| {
            comparisons.run((&editor, &scenarios), &context, (template, scenario, 5), live, progress(&mut |_| {}))
        };
        let unknown = run(live("nope", vec![AdapterKind::Dynamic])).unwrap_err();
        assert_eq!(unknown.code, CommandErrorCode::Provider);
        assert!(unknown.message.contains("no profile named 'nope'"), "{}", unknown.message);
        let none = run(live("nope", Vec::new())).unwrap_err();
        assert!(none.message.contains("choose at least one adapter"), "{}", none.message);
    }

    #[test]
    fn a_scenarios_unsaved_work_outlives_the_app_and_closing_forgets_it() {
        let dir = tempfile::tempdir().unwrap();
        let store = RecoveryStore::open(&dir.path().join("recovery")).unwrap();
        let (editor, before_crash) = (Editor::default(), Scenarios::default());
        let (template, id) = opened(&editor, &before_crash);
        let mut scenario = before_crash.with(|open| Ok(open.get(id)?.scenario().clone())).unwrap();
        scenario.user = "Unsaved words.".into();
        before_crash.edit(&editor, id, scenario, None, Some(template)).unwrap();
        before_crash.flush_recovery(&store, 1_000);
        drop(before_crash);

        let offered = Editor::recovered(&store);
        assert_eq!(offered.len(), 1);
        assert_eq!(offered[0].kind, crate::editor::RecoveredKind::Scenario);
        let after_crash = Scenarios::default();
        let restored = after_crash.restore(&editor, &store, &offered[0].id, Some(template)).expect("restores");
        assert!(restored.status.dirty && restored.status.problems.is_empty());
        assert_eq!(restored.scenario.user, "Unsaved words.");
        assert_eq!(restored.status.path.as_deref(), Some(example("lookup-first.scenario.json").as_str()));
        let error = editor.restore(&store, &offered[0].id).expect_err("a scenario is no template");
        assert_eq!(error.code, CommandErrorCode::InvalidTemplate);

        after_crash.close(restored.status.id, Some(&store)).unwrap();
        assert!(Editor::recovered(&store).is_empty(), "closing without saving lets the work go");
    }
}
