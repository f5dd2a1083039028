//! The compare view's scenarios: edits checked against the template, undo, saves, and unsaved
//! work that outlives the app.

use unfold_application::recovery::{self, RecoveredKind};
use unfold_application::scenarios::Scenarios;
use unfold_application::templates::Templates;
use unfold_application::ErrorCode;
use unfold_documents::Scenario;
use unfold_stores::recovery::RecoveryStore;

use crate::example;

/// The example template open in the editor, and lookup-first open beside it.
pub fn opened(templates: &Templates, scenarios: &Scenarios) -> (u32, u32) {
    let template = templates.open(&example("task-executor.unfold.json")).expect("the example opens").status.id;
    let view = scenarios.open(templates, &example("lookup-first.scenario.json"), Some(template)).expect("opens");
    assert!(!view.status.dirty && view.status.problems.is_empty(), "{view:?}");
    (template, view.status.id)
}

#[test]
fn calls_that_will_fail_are_warned_about_while_the_scenario_still_runs() {
    let (templates, scenarios) = (Templates::default(), Scenarios::default());
    let (template, id) = opened(&templates, &scenarios);
    let mut scenario = scenarios.document(id).unwrap().0;
    let call = serde_json::json!({ "call": "lookup", "args": { "id": "seven" } });
    scenario.script.insert(0, serde_json::from_value(call).unwrap());
    let edited = scenarios.edit(&templates, id, scenario, None, Some(template)).unwrap();
    assert!(edited.status.problems.is_empty(), "{:?}", edited.status.problems);
    let warnings: Vec<String> = edited.warnings.iter().map(|w| format!("{}: {}", w.location, w.message)).collect();
    assert_eq!(
        warnings,
        [r#"/script/0/args/id: 'lookup' will refuse these arguments: "seven" is not of type "integer""#]
    );
    // Without a template there is nothing to check the calls against.
    assert!(scenarios.edit(&templates, id, edited.scenario.clone(), None, None).unwrap().warnings.is_empty());
}

#[test]
fn a_scenario_is_edited_undone_and_saved_and_checked_against_the_template() {
    let (templates, scenarios) = (Templates::default(), Scenarios::default());
    let (template, id) = opened(&templates, &scenarios);
    let mut scenario = scenarios.document(id).unwrap().0;
    scenario.params.insert("nope".into(), "x".into());
    let edited = scenarios.edit(&templates, id, scenario, None, Some(template)).unwrap();
    assert!(edited.status.dirty && edited.status.can_undo);
    assert_eq!(edited.status.problems[0].location, "/params/nope");
    assert!(scenarios.edit(&templates, id, edited.scenario.clone(), None, None).unwrap().status.problems.is_empty());

    let undone = scenarios.step(&templates, id, true, Some(template)).unwrap();
    assert!(!undone.status.dirty && undone.status.can_redo && undone.status.problems.is_empty());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("copy.scenario.json");
    let saved = scenarios.save(&templates, id, Some(&path.to_string_lossy()), Some(template)).unwrap();
    assert_eq!(saved.status.path.as_deref(), Some(path.to_str().unwrap()));
    assert_eq!(Scenario::load(&path).unwrap(), saved.scenario);

    let created = scenarios.create(&templates, template).unwrap();
    assert!(created.status.dirty && created.status.problems.is_empty());
    assert!(scenarios.has_unsaved_changes());
    scenarios.close(created.status.id, None).unwrap();
    assert!(!scenarios.has_unsaved_changes());
    let error = scenarios.open(&templates, &example("task-executor.unfold.json"), None).expect_err("a template");
    assert_eq!(error.code, ErrorCode::InvalidScenario);
}

#[test]
fn a_scenarios_unsaved_work_outlives_the_app_and_closing_forgets_it() {
    let dir = tempfile::tempdir().unwrap();
    let store = RecoveryStore::open(&dir.path().join("recovery")).unwrap();
    let (templates, before_crash) = (Templates::default(), Scenarios::default());
    let (template, id) = opened(&templates, &before_crash);
    let mut scenario = before_crash.document(id).unwrap().0;
    scenario.user = Some("Unsaved words.".into());
    before_crash.edit(&templates, id, scenario, None, Some(template)).unwrap();
    before_crash.flush_recovery(&store, 1_000);
    drop(before_crash);

    let offered = recovery::recovered(&store);
    assert_eq!(offered.len(), 1);
    assert_eq!(offered[0].kind, RecoveredKind::Scenario);
    let after_crash = Scenarios::default();
    let restored = after_crash.restore(&templates, &store, &offered[0].id, Some(template)).expect("restores");
    assert!(restored.status.dirty && restored.status.problems.is_empty());
    assert_eq!(restored.scenario.user.as_deref(), Some("Unsaved words."));
    assert_eq!(restored.status.path.as_deref(), Some(example("lookup-first.scenario.json").as_str()));
    let error = templates.restore(&store, &offered[0].id).expect_err("a scenario is no template");
    assert_eq!(error.code, ErrorCode::InvalidTemplate);

    after_crash.close(restored.status.id, Some(&store)).unwrap();
    assert!(recovery::recovered(&store).is_empty(), "closing without saving lets the work go");
}
