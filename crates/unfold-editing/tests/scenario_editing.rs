//! Editing a scenario in the compare view: whole-scenario changes with grouped undo and redo, the
//! dirty state, saves that refuse what would not open again, and problems alone and against the
//! template the scenario runs on.

use unfold_documents::scenario::Step;
use unfold_documents::Scenario;
use unfold_editing::open_documents::{FileDocument, OpenDocuments};
use unfold_editing::scenario_edit::{starter_scenario, ScenarioDocument};

use unfold_test_support::{load_template, repo};

fn lookup_first() -> Scenario {
    Scenario::load(&repo("examples/lookup-first.scenario.json")).unwrap()
}

fn with_user(scenario: &Scenario, user: &str) -> Scenario {
    Scenario { user: Some(user.to_owned()), ..scenario.clone() }
}

#[test]
fn typing_in_one_field_undoes_as_one_step_and_redo_brings_it_back() {
    let original = lookup_first();
    let mut document = ScenarioDocument::new(original.clone());
    for typed in ["F", "Fi", "Fix"] {
        document.replace(with_user(&original, typed), Some("user".into()));
    }
    document.replace(Scenario { name: "renamed".into(), ..document.scenario().clone() }, Some("name".into()));
    assert!(document.undo());
    assert_eq!(document.scenario().user.as_deref(), Some("Fix"), "the name's step alone");
    assert!(document.undo());
    assert_eq!(document.scenario(), &original, "three keystrokes undone at once");
    assert!(!document.undo(), "nothing more to undo");
    assert!(document.redo());
    assert_eq!(document.scenario().user.as_deref(), Some("Fix"));
}

#[test]
fn a_scenario_knows_when_it_differs_from_its_file_and_saves_only_what_opens_again() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.scenario.json");
    std::fs::copy(repo("examples/lookup-first.scenario.json"), &path).unwrap();
    let mut document = ScenarioDocument::open(&path).unwrap();
    assert!(!document.is_dirty());
    let original = document.scenario().clone();
    document.replace(original.clone(), None);
    assert!(!document.is_dirty(), "the same scenario is no change");

    let mut broken = original.clone();
    broken.script.push(Step::Say { say: "again".into() });
    broken.script.swap(0, 4);
    document.replace(broken, None);
    assert!(document.is_dirty());
    let error = document.save().unwrap_err().to_string();
    assert!(error.starts_with(&path.display().to_string()) && error.contains("/script/0"), "{error}");
    assert_eq!(Scenario::load(&path).unwrap(), original, "nothing is written");

    document.undo();
    assert!(!document.is_dirty(), "undo back to the saved state is clean");
    document.replace(with_user(&original, "Saved words."), None);
    document.save().unwrap();
    assert!(!document.is_dirty());
    assert_eq!(Scenario::load(&path).unwrap().user.as_deref(), Some("Saved words."));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), document.scenario().to_json());
}

#[test]
fn problems_are_listed_alone_and_against_the_template() {
    let template = load_template("examples/task-executor.unfold.json");
    let mut scenario = lookup_first();
    scenario.params.insert("nope".into(), "x".into());
    let document = ScenarioDocument::new(scenario);
    assert!(document.problems(None).is_empty(), "alone, a parameter is only a name");
    let view = document.view(3, Some(&template));
    let listed: Vec<String> = view.status.problems.iter().map(|p| format!("{}: {}", p.location, p.message)).collect();
    assert_eq!(
        listed,
        ["/params/nope: unknown parameter 'nope': template 'task-executor' neither declares nor uses it"]
    );
    assert!(view.status.dirty && view.status.path.is_none() && view.status.id == 3);

    let mut broken = lookup_first();
    broken.script.clear();
    let problems = ScenarioDocument::new(broken).problems(Some(&template));
    assert!(problems.iter().any(|p| p.location.to_string() == "/script"), "{problems:?}");
}

#[test]
fn a_new_scenario_runs_on_its_template_and_saves() {
    let template = load_template("examples/task-executor.unfold.json");
    let mut documents: OpenDocuments<ScenarioDocument> = Default::default();
    let id = documents.insert(ScenarioDocument::new(starter_scenario(&template)));
    let document = documents.get_mut(id).unwrap();
    assert!(document.problems(Some(&template)).is_empty());
    assert!(documents.has_unsaved_changes());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("new.scenario.json");
    documents.get_mut(id).unwrap().save_as(&path).unwrap();
    assert!(!documents.has_unsaved_changes());
    assert_eq!(documents.open(&path).unwrap(), id, "an open file answers with its document");
    assert_eq!(&Scenario::load(&path).unwrap(), documents.get(id).unwrap().scenario());
}

#[test]
fn unsaved_scenarios_are_kept_for_recovery_and_come_back_as_they_were() {
    let dir = tempfile::tempdir().unwrap();
    let store = unfold_stores::recovery::RecoveryStore::open(&dir.path().join("recovery")).unwrap();
    let path = dir.path().join("s.scenario.json");
    std::fs::copy(repo("examples/lookup-first.scenario.json"), &path).unwrap();
    let template = load_template("examples/task-executor.unfold.json");

    let mut before: OpenDocuments<ScenarioDocument> = Default::default();
    let titled = before.open(&path).unwrap();
    let edited = with_user(&lookup_first(), "Unsaved words.");
    before.get_mut(titled).unwrap().replace(edited.clone(), None);
    let mut broken = starter_scenario(&template);
    broken.script.insert(0, Step::Say { say: "too early".into() });
    let untitled = before.insert(ScenarioDocument::new(broken.clone()));
    assert!(before.flush_recovery(&store, 5).is_empty());

    let entries = store.entries().documents;
    assert_eq!(entries.len(), 2);
    assert!(entries
        .iter()
        .all(|d| d.entry.document_kind() == Some(unfold_documents::document::DocumentKind::Scenario)));
    assert!(entries.iter().any(|d| d.entry.id == format!("untitled-scenario-5-{untitled}")), "{entries:?}");

    let mut after: OpenDocuments<ScenarioDocument> = Default::default();
    for recovered in &entries {
        let id = after.restore(&recovered.entry).expect("restores, problems and all");
        let document = after.get(id).unwrap();
        assert!(document.is_dirty());
        match recovered.entry.path.as_deref() {
            Some(file) => {
                assert_eq!((document.scenario(), document.path()), (&edited, Some(std::path::Path::new(file))));
            }
            None => {
                assert_eq!(document.scenario(), &broken);
                assert_eq!(document.problems(None)[0].location.to_string(), "/script/0", "its problems come back too");
            }
        }
    }
    // Saved, the scenario's entry goes at the next flush; the untitled one's stays.
    before.get_mut(titled).unwrap().save().unwrap();
    assert!(before.flush_recovery(&store, 6).is_empty());
    let left: Vec<String> = store.entries().documents.into_iter().map(|d| d.entry.id).collect();
    assert_eq!(left, [format!("untitled-scenario-5-{untitled}")]);
}
