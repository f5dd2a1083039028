//! Comparisons as the compare view and `unfold compare` run them: progress as it happens, every
//! run kept in the history, the calls and exports of the last one, cancel, and live models that
//! cannot run.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use unfold_application::comparisons::{
    ComparisonContext, ComparisonModel, ComparisonRequest, Comparisons, DocumentRef, ProgressListener,
};
use unfold_application::exports;
use unfold_application::prices::PriceFile;
use unfold_application::profiles::Profiles;
use unfold_application::run_history::OpenRunHistory;
use unfold_application::scenarios::Scenarios;
use unfold_application::templates::Templates;
use unfold_application::ErrorCode;
use unfold_documents::Scenario;
use unfold_engine::compare::{CompareProgress, Comparison, Drive, Lane, Lanes};
use unfold_engine::{AdapterKind, ComparisonReport, EventKind};
use unfold_live::{ApiKey, Secrets};

use crate::scenarios::opened;

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().build().unwrap()
}

/// A history in a temporary folder.
fn history() -> (tempfile::TempDir, Arc<OpenRunHistory>) {
    let dir = tempfile::tempdir().unwrap();
    let history = OpenRunHistory::at(&dir.path().join("history.sqlite3")).unwrap();
    (dir, Arc::new(history))
}

/// What a comparison reads: no document open, no profile, the shipped prices, no permission and
/// no relay; kept in `history`.
pub fn context(history: Arc<OpenRunHistory>) -> ComparisonContext {
    ComparisonContext {
        templates: Arc::default(),
        scenarios: Arc::default(),
        profiles: Arc::new(Profiles(None)),
        prices: PriceFile(None),
        consents: None,
        relay: None,
        history,
        host_lab: None,
    }
}

/// A history that keeps nothing.
pub fn no_history() -> Arc<OpenRunHistory> {
    Arc::new(OpenRunHistory::open(None))
}

/// An example file, as a comparison's document.
pub fn example(path: &str) -> DocumentRef {
    DocumentRef::File(unfold_test_support::repo(path))
}

/// A listener that keeps what it is told.
fn keeping() -> (Arc<Mutex<Vec<CompareProgress>>>, ProgressListener) {
    let heard = Arc::new(Mutex::new(Vec::new()));
    let keep = Arc::clone(&heard);
    (heard, Arc::new(move |progress| keep.lock().unwrap().push(progress)))
}

/// A listener told nothing worth keeping.
pub fn deaf() -> ProgressListener {
    Arc::new(|_| {})
}

/// The example scenario `lookup-first` on the task executor, under `lanes`, scripted.
fn lookup_first(lanes: Vec<AdapterKind>) -> ComparisonRequest {
    let template = example("examples/task-executor.unfold.json");
    let lanes = lanes.into_iter().map(|lane| lane.name().to_owned()).collect();
    ComparisonRequest::scripted(template, example("examples/lookup-first.scenario.json"), lanes)
}

/// The engine's comparison of `scenario` on the task executor under the dynamic adapter, with
/// every call's request kept.
fn engine_comparison(scenario: &Scenario) -> Comparison {
    let template = unfold_test_support::load_template("examples/task-executor.unfold.json");
    let lanes = Lanes::new(&template, scenario, &[AdapterKind::Dynamic]);
    runtime().block_on(unfold_engine::compare(lanes, Drive { keep_requests: true, ..Drive::default() })).unwrap()
}

#[test]
fn a_comparison_streams_its_events_keeps_its_runs_and_calls_and_exports() {
    let (templates, scenarios) = (Arc::new(Templates::default()), Arc::new(Scenarios::default()));
    let ids = opened(&templates, &scenarios);
    let (_, scenario_path) = scenarios.document(ids.1).unwrap();
    let scenario_path = scenario_path.unwrap().to_string_lossy().into_owned();
    let (dir, history) = history();
    let comparisons = Comparisons::new(ComparisonContext {
        templates: Arc::clone(&templates),
        scenarios: Arc::clone(&scenarios),
        ..context(Arc::clone(&history))
    });
    let lanes = vec!["dynamic".to_owned(), "restart".to_owned()];
    let request = ComparisonRequest {
        run_id: Some(7),
        ..ComparisonRequest::scripted(DocumentRef::Open(ids.0), DocumentRef::Open(ids.1), lanes)
    };
    let (heard, listener) = keeping();
    let report = runtime().block_on(comparisons.run(request, listener)).unwrap().report;
    let heard = heard.lock().unwrap();
    let events = |lane: Lane| {
        heard
            .iter()
            .filter_map(|p| match p {
                CompareProgress::Event { lane: l, event } if *l == lane => Some((**event).clone()),
                _ => None,
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(events(Lane::DYNAMIC), report.runs[0].events);
    assert_eq!(events(Lane::RESTART), report.runs[1].events);
    assert_eq!(events(Lane::BASELINE), report.baseline.as_ref().unwrap().run.events);
    let kept = history.list(&Default::default()).unwrap();
    let lanes: Vec<Option<&str>> = kept.iter().map(|run| run.lane.as_deref()).collect();
    assert_eq!(lanes, [Some("baseline"), Some("restart"), Some("dynamic")], "every run is kept");
    assert!(kept.iter().all(|run| run.provider == "scripted" && run.scenario_path.as_deref() == Some(&scenario_path)));

    let call = comparisons.call(7, Lane::RESTART, 3).unwrap();
    assert_eq!((call.attempt, call.body["messages"].as_array().map(Vec::len)), (2, Some(2)));
    assert_eq!(comparisons.call(7, Lane::RESTART, 99).unwrap_err().code, ErrorCode::NotFound);
    let gone = comparisons.call(8, Lane::RESTART, 1).unwrap_err();
    assert!(gone.code == ErrorCode::NotFound && gone.message.contains("run it again"), "{gone:?}");

    let file = dir.path().join("report.json");
    comparisons.export_report(7, &file.to_string_lossy(), exports::ReportFormat::Json).unwrap();
    let written: ComparisonReport = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(written, report);
    let markdown = dir.path().join("report.md");
    comparisons.export_report(7, &markdown.to_string_lossy(), exports::ReportFormat::Markdown).unwrap();
    let text = std::fs::read_to_string(&markdown).unwrap();
    let headline = report.verdict.as_ref().map(|verdict| verdict.headline.replace('$', "\\$")).unwrap();
    assert!(text.contains(&format!("**Verdict:** {headline}")), "the verdict first: {text}");
    let folder = dir.path().join("bodies");
    assert_eq!(comparisons.export_requests(7, &folder.to_string_lossy(), Default::default()).unwrap(), 4 + 5 + 3);
    let full = comparisons.export_requests(7, &folder.to_string_lossy(), Default::default()).unwrap_err();
    assert_eq!(full.code, ErrorCode::InvalidRequest, "not into a full folder: {full:?}");
}

#[test]
fn request_bodies_go_only_into_a_new_or_empty_folder() {
    let scenario = Scenario::load(&unfold_test_support::repo("examples/lookup-first.scenario.json")).unwrap();
    let comparison = engine_comparison(&scenario);
    let requests = &comparison.requests;
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("bodies");
    assert_eq!(
        exports::write_request_files(&folder, requests, Default::default(), None, &Secrets::none()).unwrap(),
        4 + 3,
        "the dynamic run's and the baseline's"
    );
    let body: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(folder.join("dynamic-call-001.json")).unwrap()).unwrap();
    assert_eq!(body, requests[0].calls[0].body);
    let error =
        exports::write_request_files(&folder, requests, Default::default(), None, &Secrets::none()).unwrap_err();
    assert!(error.message.starts_with(&folder.display().to_string()) && error.message.contains("not empty"), "{error}");
    std::fs::write(dir.path().join("a-file"), "").unwrap();
    let problem = exports::request_folder_problem(&dir.path().join("a-file")).unwrap();
    assert_eq!(problem, Some("this is a file: give a new or empty folder"));

    // A comparison asked to write into the full folder refuses before any lane runs.
    let comparisons = Comparisons::new(context(no_history()));
    let mut request = lookup_first(vec![AdapterKind::Dynamic]);
    let shape = Default::default();
    request.outputs.requests = Some(unfold_application::comparisons::RequestFiles { folder: folder.clone(), shape });
    let (heard, listener) = keeping();
    let refused = runtime().block_on(comparisons.run(request, listener)).unwrap_err();
    assert!(refused.message.starts_with(&folder.display().to_string()) && refused.message.contains("not empty"));
    assert!(heard.lock().unwrap().is_empty(), "no lane ran");
}

#[test]
fn a_comparison_is_kept_in_the_history_whole_or_not_at_all() {
    // A process killed while keeping a comparison left it with one or two of its three runs. Here
    // the history refuses the last run (as a full disk would): none of the three may stay.
    let (dir, history) = history();
    let file = rusqlite::Connection::open(dir.path().join("history.sqlite3")).unwrap();
    file.execute_batch(
        "CREATE TRIGGER full_disk BEFORE INSERT ON runs WHEN NEW.lane = 'baseline'
         BEGIN SELECT RAISE(ABORT, 'disk full'); END;",
    )
    .unwrap();
    let comparisons = Comparisons::new(context(Arc::clone(&history)));
    let request = lookup_first(vec![AdapterKind::Dynamic, AdapterKind::Restart]);
    let kept = runtime().block_on(comparisons.run(request, deaf())).unwrap();
    let why = kept.not_kept.expect("the history said it could not keep the comparison");
    assert!(why.message.contains("disk full"), "{why}");
    assert_eq!(history.list(&Default::default()).unwrap(), [], "no run of the comparison is kept");
}

#[test]
fn a_cancelled_comparison_stops_and_says_so() {
    let (templates, scenarios) = (Arc::new(Templates::default()), Arc::new(Scenarios::default()));
    let ids = opened(&templates, &scenarios);
    let (_dir, history) = history();
    let comparisons =
        Arc::new(Comparisons::new(ComparisonContext { templates, scenarios, ..context(Arc::clone(&history)) }));
    let calls = Arc::new(AtomicUsize::new(0));
    let cancel_after_first_call: ProgressListener = {
        let (comparisons, calls) = (Arc::clone(&comparisons), Arc::clone(&calls));
        Arc::new(move |progress| {
            if let CompareProgress::Event { event, .. } = progress {
                if matches!(event.kind, EventKind::ModelCall { .. }) {
                    calls.fetch_add(1, Ordering::Relaxed);
                    comparisons.cancel(3);
                }
            }
        })
    };
    let lanes = vec!["dynamic".to_owned(), "restart".to_owned()];
    let request = ComparisonRequest {
        run_id: Some(3),
        ..ComparisonRequest::scripted(DocumentRef::Open(ids.0), DocumentRef::Open(ids.1), lanes)
    };
    let outcome = runtime().block_on(comparisons.run(request, cancel_after_first_call));
    assert_eq!(outcome.expect_err("cancelled").code, ErrorCode::Cancelled);
    assert_eq!(calls.load(Ordering::Relaxed), 1);
    comparisons.cancel(3); // ended: nothing to cancel, no error
}

#[test]
fn a_live_model_needs_an_adapter_and_a_known_profile() {
    let dir = tempfile::tempdir().unwrap();
    let profiles = Arc::new(Profiles(Some(dir.path().join("providers.json"))));
    let comparisons = Comparisons::new(ComparisonContext { profiles, ..context(no_history()) });
    let live = |lanes: Vec<AdapterKind>| {
        let request =
            ComparisonRequest { model: ComparisonModel::Live { profile: "nope".to_owned() }, ..lookup_first(lanes) };
        runtime().block_on(comparisons.run(request, deaf())).unwrap_err()
    };
    let none = live(Vec::new());
    assert_eq!(none.code, ErrorCode::InvalidRequest);
    assert!(none.message.contains("choose at least one adapter"), "{}", none.message);
    let unknown = live(vec![AdapterKind::Dynamic]);
    assert_eq!(unknown.code, ErrorCode::NotFound);
    assert!(unknown.message.contains("no profile named 'nope'"), "{}", unknown.message);
    assert!(!unknown.message.contains("--"), "the app has no flags to name: {}", unknown.message);
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
    let history = Arc::new(OpenRunHistory::at(&files.join("history.sqlite3")).unwrap());
    let comparisons =
        Comparisons::new(ComparisonContext { profiles: Arc::new(profiles), ..context(Arc::clone(&history)) });
    let request = ComparisonRequest {
        model: ComparisonModel::Live { profile: "local".to_owned() },
        run_id: Some(4),
        ..ComparisonRequest::scripted(
            example("examples/task-executor.unfold.json"),
            DocumentRef::File(scenario_path),
            vec!["dynamic".to_owned()],
        )
    };
    let (heard, listener) = keeping();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let report = runtime.block_on(comparisons.run(request, listener)).unwrap().report;
    let heard = heard.lock().unwrap();
    let told: Vec<String> = heard.iter().map(|p| serde_json::to_string(p).unwrap()).collect();
    // What the compare view shows as the model writes: the pieces of text it is told.
    let shown: String = heard
        .iter()
        .filter_map(|p| match p {
            CompareProgress::Text { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    let report_text = serde_json::to_string(&report).unwrap();
    let redacted = "Your key is [redacted password] and again [redacted password].";
    assert!(report_text.contains(redacted), "{report_text}");
    assert!(report_text.contains("[redacted password]\\\"}"), "the tool's result was scrubbed: {report_text}");
    assert_eq!(history.list(&Default::default()).unwrap().len(), 1, "the run is kept, scrubbed");
    comparisons.export_report(4, &files.join("report.json").to_string_lossy(), Default::default()).unwrap();
    assert_eq!(comparisons.export_requests(4, &files.join("bodies").to_string_lossy(), Default::default()).unwrap(), 2);
    let calls: Vec<String> = (1..=2)
        .map(|call| serde_json::to_string(&comparisons.call(4, Lane::DYNAMIC, call).unwrap()).unwrap())
        .collect();
    drop((history, comparisons));

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
    let scenario = unfold_test_support::scenario(serde_json::json!({
        "script": [{ "call": "lookup", "args": { "id": 7 } }, { "say": "Done." }],
        "tool_results": { "lookup": [{ "result": { "token": KEY } }] },
    }));
    let kept = engine_comparison(&scenario);
    let profile =
        serde_json::json!({ "name": "local", "kind": "openai", "base_url": "http://127.0.0.1:9/v1", "model": "m" });
    let secrets = Secrets::of_provider(&serde_json::from_value(profile).unwrap(), Some(&ApiKey::new(KEY)));

    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("report.json");
    for format in [exports::ReportFormat::Json, exports::ReportFormat::Markdown] {
        let refused = exports::write_report(&file, &kept.report, format, &secrets).unwrap_err();
        let place = format!("{}: /runs/0/events/2/result/token: holds the API key", file.display());
        assert!(refused.to_string().contains(&place), "{format:?}: {refused}");
    }
    let folder = dir.path().join("bodies");
    let refused = exports::write_request_files(&folder, &kept.requests, Default::default(), None, &secrets);
    let refused = refused.unwrap_err().to_string();
    assert!(refused.contains("dynamic-call-002.json: /messages/3/content: holds the API key"), "{refused}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "nothing is written");
}
