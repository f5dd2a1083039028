//! Comparisons as the compare view and `unfold compare` run them: progress as it happens, every
//! run kept in the history, the calls and exports of the last one, cancel, and live models that
//! cannot run.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use unfold_application::comparisons::{self, ComparedDocuments, ComparisonModel, Comparisons, LiveModel};
use unfold_application::exports;
use unfold_application::profiles::Profiles;
use unfold_application::run_history::OpenRunHistory;
use unfold_application::scenarios::Scenarios;
use unfold_application::sources::SourceAccess;
use unfold_application::templates::Templates;
use unfold_application::ErrorCode;
use unfold_documents::{Scenario, Template};
use unfold_engine::compare::{CompareControl, CompareProgress, Lane};
use unfold_engine::{AdapterKind, ComparisonReport, EventKind};
use unfold_live::{ApiKey, Secrets, TextSink};

use crate::scenarios::opened;

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().build().unwrap()
}

/// The open template and scenario, with their files.
fn documents(
    templates: &Templates,
    scenarios: &Scenarios,
    ids: (u32, u32),
) -> ((Template, String), (Scenario, String)) {
    let (template, template_path) = templates.document(ids.0).unwrap();
    let (scenario, scenario_path) = scenarios.document(ids.1).unwrap();
    let path = |p: Option<std::path::PathBuf>| p.unwrap().to_string_lossy().into_owned();
    ((template, path(template_path)), (scenario, path(scenario_path)))
}

/// A history in a temporary folder.
fn history() -> (tempfile::TempDir, OpenRunHistory) {
    let dir = tempfile::tempdir().unwrap();
    let history = OpenRunHistory::at(&dir.path().join("history.sqlite3")).unwrap();
    (dir, history)
}

fn scripted(_token: unfold_live::CancellationToken) -> unfold_application::AppResult<ComparisonModel<'static>> {
    Ok(scripted_model())
}

/// The scenario's script under the dynamic and restart adapters, then the all-FULL baseline.
fn scripted_model() -> ComparisonModel<'static> {
    ComparisonModel::Scripted { adapters: vec![AdapterKind::Dynamic, AdapterKind::Restart], price_as: None }
}

#[test]
fn a_comparison_streams_its_events_keeps_its_runs_and_calls_and_exports() {
    let (templates, scenarios, comparisons) = (Templates::default(), Scenarios::default(), Comparisons::default());
    let ids = opened(&templates, &scenarios);
    let ((template, template_path), (scenario, scenario_path)) = documents(&templates, &scenarios, ids);
    let compared = ComparedDocuments {
        template: &template,
        template_path: Some(template_path.as_ref()),
        scenario: &scenario,
        scenario_path: Some(scenario_path.as_ref()),
    };
    let mut heard = Vec::new();
    let (dir, history) = history();
    let report = runtime()
        .block_on(comparisons.run(7, compared, scripted, &SourceAccess::default(), &mut |p| heard.push(p), &history))
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
    let kept = history.list(&Default::default()).unwrap();
    let lanes: Vec<Option<&str>> = kept.iter().map(|run| run.lane.as_deref()).collect();
    assert_eq!(lanes, [Some("baseline"), Some("restart"), Some("dynamic")], "every run is kept");
    assert!(kept.iter().all(|run| run.provider == "scripted" && run.scenario_path.as_deref() == Some(&scenario_path)));

    let call = comparisons.call(7, Lane::Restart, 3).unwrap();
    assert_eq!((call.attempt, call.body["messages"].as_array().map(Vec::len)), (2, Some(2)));
    assert_eq!(comparisons.call(7, Lane::Restart, 99).unwrap_err().code, ErrorCode::NotFound);
    let gone = comparisons.call(8, Lane::Restart, 1).unwrap_err();
    assert!(gone.code == ErrorCode::NotFound && gone.message.contains("run it again"), "{gone:?}");

    let file = dir.path().join("report.json");
    comparisons.export_report(7, &file.to_string_lossy()).unwrap();
    let written: ComparisonReport = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(written, report);
    let folder = dir.path().join("bodies");
    assert_eq!(comparisons.export_requests(7, &folder.to_string_lossy(), Default::default()).unwrap(), 4 + 5 + 3);
    let full = comparisons.export_requests(7, &folder.to_string_lossy(), Default::default()).unwrap_err();
    assert_eq!(full.code, ErrorCode::InvalidRequest, "not into a full folder: {full:?}");
}

#[test]
fn request_bodies_go_only_into_a_new_or_empty_folder() {
    let template = unfold_test_support::load_template("examples/task-executor.unfold.json");
    let scenario = Scenario::load(&unfold_test_support::repo("examples/lookup-first.scenario.json")).unwrap();
    let compared =
        ComparedDocuments { template: &template, template_path: None, scenario: &scenario, scenario_path: None };
    let never = AtomicBool::new(false);
    let off = OpenRunHistory::open(None);
    let model = ComparisonModel::Scripted { adapters: vec![AdapterKind::Dynamic], price_as: None };
    let control = CompareControl { observer: &mut |_| {}, cancel: &never, keep_requests: true };
    let kept = runtime().block_on(comparisons::compare_and_keep(compared, model, control, &off)).unwrap();
    assert!(kept.not_kept.is_none(), "a history turned off keeps nothing and fails nothing");
    let requests = &kept.comparison.requests;
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("bodies");
    assert_eq!(
        exports::write_request_files(&folder, requests, Default::default(), &Secrets::none()).unwrap(),
        4 + 3,
        "the dynamic run's and the baseline's"
    );
    let body: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(folder.join("dynamic-call-001.json")).unwrap()).unwrap();
    assert_eq!(body, requests[0].calls[0].body);
    let error = exports::write_request_files(&folder, requests, Default::default(), &Secrets::none()).unwrap_err();
    assert!(error.message.starts_with(&folder.display().to_string()) && error.message.contains("not empty"), "{error}");
    std::fs::write(dir.path().join("a-file"), "").unwrap();
    let problem = exports::request_folder_problem(&dir.path().join("a-file")).unwrap();
    assert_eq!(problem, Some("this is a file: give a new or empty folder"));
}

#[test]
fn a_comparison_is_kept_in_the_history_whole_or_not_at_all() {
    // A process killed while keeping a comparison left it with one or two of its three runs. Here
    // the history refuses the last run (as a full disk would): none of the three may stay.
    let template = unfold_test_support::load_template("examples/task-executor.unfold.json");
    let scenario = Scenario::load(&unfold_test_support::repo("examples/lookup-first.scenario.json")).unwrap();
    let compared =
        ComparedDocuments { template: &template, template_path: None, scenario: &scenario, scenario_path: None };
    let (dir, history) = history();
    let file = rusqlite::Connection::open(dir.path().join("history.sqlite3")).unwrap();
    file.execute_batch(
        "CREATE TRIGGER full_disk BEFORE INSERT ON runs WHEN NEW.lane = 'baseline'
         BEGIN SELECT RAISE(ABORT, 'disk full'); END;",
    )
    .unwrap();
    let never = AtomicBool::new(false);
    let control = CompareControl { observer: &mut |_| {}, cancel: &never, keep_requests: false };
    let kept =
        runtime().block_on(comparisons::compare_and_keep(compared, scripted_model(), control, &history)).unwrap();
    let why = kept.not_kept.expect("the history said it could not keep the comparison");
    assert!(why.message.contains("disk full"), "{why}");
    assert_eq!(history.list(&Default::default()).unwrap(), [], "no run of the comparison is kept");
}

#[test]
fn a_cancelled_comparison_stops_and_says_so() {
    let (templates, scenarios, comparisons) = (Templates::default(), Scenarios::default(), Comparisons::default());
    let ids = opened(&templates, &scenarios);
    let ((template, _), (scenario, _)) = documents(&templates, &scenarios, ids);
    let compared =
        ComparedDocuments { template: &template, template_path: None, scenario: &scenario, scenario_path: None };
    let mut calls = 0;
    let mut cancel_after_first_call = |progress: CompareProgress| {
        if let CompareProgress::Event { event, .. } = progress {
            if matches!(event.kind, EventKind::ModelCall { .. }) {
                calls += 1;
                comparisons.cancel(3);
            }
        }
    };
    let (_dir, history) = history();
    let outcome = runtime().block_on(comparisons.run(
        3,
        compared,
        scripted,
        &SourceAccess::default(),
        &mut cancel_after_first_call,
        &history,
    ));
    assert_eq!(outcome.expect_err("cancelled").code, ErrorCode::Cancelled);
    assert_eq!(calls, 1);
    comparisons.cancel(3); // ended: nothing to cancel, no error
}

#[test]
fn a_live_model_needs_an_adapter_and_a_known_profile() {
    let dir = tempfile::tempdir().unwrap();
    let profiles = Profiles(Some(dir.path().join("providers.json")));
    let text = |_: Lane| TextSink(Arc::new(|_: &str| {}));
    let token = unfold_live::CancellationToken::new();
    let model = |name: &str, adapters: Vec<AdapterKind>| {
        LiveModel::of_profile(&profiles, name, adapters, &text, token.clone()).map(|_| ())
    };
    let none = model("nope", Vec::new()).unwrap_err();
    assert_eq!(none.code, ErrorCode::InvalidRequest);
    assert!(none.message.contains("choose at least one adapter"), "{}", none.message);
    let unknown = model("nope", vec![AdapterKind::Dynamic]).unwrap_err();
    assert_eq!(unknown.code, ErrorCode::NotFound);
    assert!(unknown.message.contains("no profile named 'nope'"), "{}", unknown.message);
}

/// A live comparison in the app against a server that hides the provider's secret in its answers
/// (split across deltas, JSON-escaped), with a tool result that repeats it JSON-escaped inside a
/// JSON text (a tool answering with a configuration file): nothing the UI is told or shown, no
/// history row and no exported file holds any piece of it.
#[test]
fn a_live_comparison_keeps_the_secret_out_of_the_ui_the_history_and_every_export() {
    use unfold_test_support::hostile_stream::{assert_no_key_piece, hidden_key_streams, stream_server, KEY};
    let dir = tempfile::tempdir().unwrap();
    let files = dir.path().join("written");
    std::fs::create_dir(&files).unwrap();
    // The secret is the base URL's password, a secret like the key and found the same way: a key
    // would come from an environment variable, which a test cannot set while others run beside it.
    let base_url = stream_server(hidden_key_streams()).replacen("http://", &format!("http://proxy:{KEY}@"), 1);
    let profile = serde_json::json!({ "name": "local", "kind": "openai", "base_url": base_url, "model": "m" });
    let profiles = Profiles(Some(dir.path().join("providers.json")));
    let profile_file = serde_json::json!({ "schema_version": 1, "kind": "unfold.providers", "profiles": [profile] });
    std::fs::write(profiles.0.as_ref().unwrap(), profile_file.to_string()).unwrap();
    let config = serde_json::json!({ "api_key": KEY }).to_string().replace('-', "\\u002d");
    let scenario_path = dir.path().join("hidden.scenario.json");
    let scenario = serde_json::json!({ "schema_version": 1, "kind": "unfold.scenario", "name": "hidden",
        "user": "Find issue 7.", "script": [{ "say": "Done." }], "tool_results": { "lookup": [{ "result": { "issue": 7, "config": config } }] } });
    std::fs::write(&scenario_path, scenario.to_string()).unwrap();
    let template = unfold_test_support::load_template("examples/task-executor.unfold.json");
    let scenario = Scenario::load(&scenario_path).unwrap();
    let compared = ComparedDocuments {
        template: &template,
        template_path: None,
        scenario: &scenario,
        scenario_path: Some(&scenario_path),
    };

    let shown = Arc::new(std::sync::Mutex::new(String::new()));
    let text = |_: Lane| {
        let shown = Arc::clone(&shown);
        TextSink(Arc::new(move |piece: &str| shown.lock().unwrap().push_str(piece)))
    };
    let model = |token| LiveModel::of_profile(&profiles, "local", vec![AdapterKind::Dynamic], &text, token);
    let live = |token| model(token).map(ComparisonModel::Live);
    let mut told = Vec::new();
    let history = OpenRunHistory::at(&files.join("history.sqlite3")).unwrap();
    let comparisons = Comparisons::with_prices(unfold_application::prices::PriceFile(None));
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let report = runtime
        .block_on(comparisons.run(
            4,
            compared,
            live,
            &SourceAccess::default(),
            &mut |p| told.push(serde_json::to_string(&p).unwrap()),
            &history,
        ))
        .unwrap();
    let report_text = serde_json::to_string(&report).unwrap();
    let redacted = "Your key is [redacted password] and again [redacted password].";
    assert!(report_text.contains(redacted), "{report_text}");
    assert!(report_text.contains("[redacted password]\\\"}"), "the tool's result was scrubbed: {report_text}");
    assert_eq!(history.list(&Default::default()).unwrap().len(), 1, "the run is kept, scrubbed");
    comparisons.export_report(4, &files.join("report.json").to_string_lossy()).unwrap();
    assert_eq!(comparisons.export_requests(4, &files.join("bodies").to_string_lossy(), Default::default()).unwrap(), 2);
    let calls: Vec<String> = (1..=2)
        .map(|call| serde_json::to_string(&comparisons.call(4, Lane::Dynamic, call).unwrap()).unwrap())
        .collect();
    drop(history);

    let shown = shown.lock().unwrap().clone();
    let texts = [("the report", &report_text), ("the text shown", &shown)].into_iter();
    let texts = texts.chain(told.iter().map(|t| ("an event told", t))).chain(calls.iter().map(|c| ("a call", c)));
    for (name, text) in texts {
        assert_no_key_piece(name, text);
    }
    let written = std::fs::read_dir(&files).unwrap().chain(std::fs::read_dir(files.join("bodies")).unwrap());
    for path in written.map(|entry| entry.unwrap().path()).filter(|path| path.is_file()) {
        let text = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
        assert_no_key_piece(&path.display().to_string(), &text);
    }
}

/// The last check before an export: a report or request bodies that still hold the key (here a
/// scripted comparison's, which nothing scrubbed) are refused, naming the file and the place,
/// and nothing is written.
#[test]
fn an_export_that_would_hold_the_key_is_refused_and_writes_nothing() {
    use unfold_test_support::hostile_stream::KEY;
    let template = unfold_test_support::load_template("examples/task-executor.unfold.json");
    let scenario = unfold_test_support::scenario(serde_json::json!({
        "script": [{ "call": "lookup", "args": { "id": 7 } }, { "say": "Done." }],
        "tool_results": { "lookup": [{ "result": { "token": KEY } }] },
    }));
    let compared =
        ComparedDocuments { template: &template, template_path: None, scenario: &scenario, scenario_path: None };
    let never = AtomicBool::new(false);
    let model = ComparisonModel::Scripted { adapters: vec![AdapterKind::Dynamic], price_as: None };
    let control = CompareControl { observer: &mut |_| {}, cancel: &never, keep_requests: true };
    let off = OpenRunHistory::open(None);
    let kept = runtime().block_on(comparisons::compare_and_keep(compared, model, control, &off)).unwrap();
    let profile =
        serde_json::json!({ "name": "local", "kind": "openai", "base_url": "http://127.0.0.1:9/v1", "model": "m" });
    let secrets = Secrets::of_provider(&serde_json::from_value(profile).unwrap(), Some(&ApiKey::new(KEY)));

    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("report.json");
    let refused = exports::write_report(&file, &kept.comparison.report, &secrets).unwrap_err();
    let place = format!("{}: /runs/0/events/2/result/token: holds the API key", file.display());
    assert!(refused.to_string().contains(&place), "{refused}");
    let folder = dir.path().join("bodies");
    let refused = exports::write_request_files(&folder, &kept.comparison.requests, Default::default(), &secrets);
    let refused = refused.unwrap_err().to_string();
    assert!(refused.contains("dynamic-call-002.json: /messages/3/content: holds the API key"), "{refused}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "nothing is written");
}
