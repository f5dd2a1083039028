//! Suites as the app opens and runs them, a template exported from the editor as it is now, and a
//! kept run's trace: over the bundled examples, in temporary folders.

use unfold_application::comparisons::{ComparisonRequest, Comparisons, DocumentRef};
use unfold_application::prices::PriceFile;
use unfold_application::profiles::Profiles;
use unfold_application::run_history::OpenRunHistory;
use unfold_application::suites::{open_suite, run_suite};
use unfold_application::template_exports::{export_document, ExportFormat, ExportRequest};
use unfold_application::{traces, ErrorCode};
use unfold_documents::Template;
use unfold_engine::AdapterKind;

use unfold_test_support::repo;

use crate::example_copy;

#[test]
fn an_opened_suite_lists_its_cases_and_running_it_gives_each_cases_lanes() {
    let suite = repo("examples/regressions.suite.json");
    let cases = open_suite(&suite).unwrap();
    assert_eq!(cases.len(), 5);
    assert_eq!(cases[0].template, "task-executor.unfold.json");
    assert_eq!(cases[1].adapters, ["dynamic", "restart"], "the default adapters");
    // Every expectation listed, in the file's order, in words.
    let listed: Vec<String> =
        cases[0].expectations.iter().map(|e| format!("{} {}: {}", e.run, e.what, e.expected)).collect();
    assert_eq!(
        listed,
        [
            "dynamic status: completed",
            "dynamic model_calls: 3",
            "dynamic restarts: 0",
            "dynamic tools_injected: 2",
            "restart status: completed",
            "restart restarts: 1",
            "restart prompt_tokens: at most 1000",
            "divergence divergence: restart",
        ]
    );
    let results = run_suite(&suite, &PriceFile(None)).unwrap();
    let names: Vec<&str> = results.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, cases.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(), "in the suite's order");
    assert!(results.iter().all(|r| r.passed && r.unmet.is_empty()), "the example suite passes");
    let third = results[2].report.as_ref().unwrap();
    let lanes: Vec<AdapterKind> = third.runs.iter().map(|run| run.adapter).collect();
    assert_eq!(lanes, [AdapterKind::Dynamic, AdapterKind::Deferred, AdapterKind::AllowedTools]);
    assert!(third.baseline.is_some());
}

#[test]
fn a_case_expects_what_a_lane_saves_against_the_baseline_and_which_lane_costs_less() {
    let folder = tempfile::tempdir().unwrap();
    let suite = folder.path().join("savings.suite.json");
    let case = |expect: serde_json::Value| {
        serde_json::json!({ "name": "savings", "template": repo("examples/coding-agent.unfold.json"),
            "scenario": repo("examples/coding-agent-fix-test.scenario.json"),
            "adapters": ["dynamic", "allowed_tools"], "price_as": "claude-sonnet-4-5", "expect": expect })
    };
    let write = |expect: serde_json::Value| {
        let text =
            serde_json::json!({ "schema_version": 1, "kind": "unfold.suite", "name": "s", "cases": [case(expect)] });
        std::fs::write(&suite, text.to_string()).unwrap();
    };
    write(serde_json::json!({ "dynamic": { "saved_percent": { "min": 60 }, "cheaper_than": "allowed_tools" },
                              "allowed_tools": { "cheaper_than": "baseline" } }));
    let passed = run_suite(&suite, &PriceFile(None)).unwrap();
    assert!(passed[0].passed, "{:?}", passed[0].unmet);

    write(
        serde_json::json!({ "dynamic": { "saved_percent": { "min": 90 } }, "allowed_tools": { "cheaper_than": "dynamic" } }),
    );
    let failed = run_suite(&suite, &PriceFile(None)).unwrap();
    let unmet: Vec<String> =
        failed[0].unmet.iter().map(|u| format!("{} {}: {}, seen {}", u.run, u.what, u.expected, u.seen)).collect();
    assert_eq!(unmet.len(), 2, "{unmet:?}");
    assert!(unmet[0].starts_with("dynamic saved_percent: at least 90, seen 6"), "{unmet:?}");
    assert!(unmet[1].starts_with("allowed_tools cheaper_than: cheaper than dynamic, seen 0."), "{unmet:?}");
    assert!(unmet[1].contains(" USD against 0.0"), "priced, it is the cost that counts: {unmet:?}");

    write(serde_json::json!({ "baseline": { "cheaper_than": "nobody" }, "dynamic": { "cheaper_than": "dynamic" } }));
    let error = run_suite(&suite, &PriceFile(None)).unwrap_err();
    let problems: Vec<String> = error.problems.iter().map(|p| format!("{}: {}", p.location, p.message)).collect();
    assert_eq!(
        problems,
        [
            "/cases/0/expect/baseline/cheaper_than: the case has no run 'nobody' (its runs: dynamic, allowed_tools, baseline)",
            "/cases/0/expect/dynamic/cheaper_than: a run cannot cost less than itself",
        ]
    );
}

#[test]
fn a_suite_with_a_broken_case_does_not_open_and_says_where() {
    let folder = tempfile::tempdir().unwrap();
    let suite = folder.path().join("broken.suite.json");
    let text = serde_json::json!({ "schema_version": 1, "kind": "unfold.suite", "name": "broken",
        "cases": [ { "name": "missing", "template": "nowhere.unfold.json", "scenario": "none.scenario.json" } ] });
    std::fs::write(&suite, text.to_string()).unwrap();
    let error = open_suite(&suite).unwrap_err();
    assert!(error.message.contains("nowhere.unfold.json"), "{}", error.message);
    assert!(run_suite(&suite, &PriceFile(None)).is_err(), "nothing runs");
}

/// The editor's document is exported as it is now, unsaved edits included.
#[test]
fn the_open_document_exports_as_it_is_now() {
    let folder = tempfile::tempdir().unwrap();
    let path = std::path::PathBuf::from(example_copy(&folder));
    let mut template = Template::load(&path).unwrap();
    template.params.insert("objective".into(), "Ship the release".into());
    let output = folder.path().join("promptfooconfig.json");
    let request = ExportRequest {
        format: Some(ExportFormat::Promptfoo),
        scenarios: vec![repo("examples/lookup-first.scenario.json")],
        provider: None,
    };
    export_document(&template, Some(&path), &request, &output).unwrap();
    let config: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&output).unwrap()).unwrap();
    assert_eq!(config["defaultTest"]["vars"]["objective"], "Ship the release");
    assert_eq!(config["tests"][0]["description"], "lookup-first");
    let without_format = export_document(&template, Some(&path), &ExportRequest::default(), &output).unwrap_err();
    assert_eq!(without_format.code, ErrorCode::InvalidRequest);
}

/// A kept run's trace: its spans, spread over the time the history says it took.
#[test]
fn a_kept_run_exports_its_trace() {
    let folder = tempfile::tempdir().unwrap();
    let history = OpenRunHistory::at(&folder.path().join("history.sqlite3")).unwrap();
    let history = std::sync::Arc::new(history);
    let comparisons = Comparisons::new(crate::comparisons::context(std::sync::Arc::clone(&history)));
    let request = ComparisonRequest::scripted(
        DocumentRef::File(repo("examples/task-executor.unfold.json")),
        DocumentRef::File(repo("examples/read-context-then-search.scenario.json")),
        vec!["restart".to_owned()],
    );
    let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
    runtime.block_on(comparisons.run(request, crate::comparisons::deaf())).unwrap();
    let kept = history.list(&Default::default()).unwrap();
    let restart = kept.iter().find(|run| run.lane.as_deref() == Some("restart")).unwrap();
    let trace = folder.path().join("run.otlp.jsonl");
    traces::export_stored_run(&history, &Profiles(None), restart.id, &trace).unwrap();
    let line: serde_json::Value = serde_json::from_str(std::fs::read_to_string(&trace).unwrap().trim()).unwrap();
    let spans = line["resourceSpans"][0]["scopeSpans"][0]["spans"].as_array().unwrap();
    assert_eq!(spans[0]["name"], "invoke_agent task-executor");
    assert_eq!(spans.len() as u32, 1 + restart.counters.model_calls + restart.counters.tool_calls);
    let start: u64 = spans[0]["startTimeUnixNano"].as_str().unwrap().parse().unwrap();
    assert_eq!(start, restart.started_at_ms * 1_000_000);
    let timing = spans[0]["attributes"].as_array().unwrap().iter().find(|a| a["key"] == "unfold.timing").unwrap();
    assert_eq!(timing["value"]["stringValue"], "spread");
    let missing = traces::export_stored_run(&history, &Profiles(None), 999, &trace).unwrap_err();
    assert!(missing.message.contains("999"), "{}", missing.message);
}

#[test]
fn a_suite_compares_host_lanes_and_checks_each_by_the_name_its_case_writes() {
    let folder = tempfile::tempdir().unwrap();
    // A host of the user's own, beside the suite: Copilot CLI's behaviour under another name.
    let mut ours: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(repo("crates/unfold-documents/data/hosts/copilot-cli.host.json")).unwrap(),
    )
    .unwrap();
    ours["name"] = "ours".into();
    std::fs::write(folder.path().join("ours.host.json"), ours.to_string()).unwrap();
    let suite = folder.path().join("hosts.suite.json");
    let text = serde_json::json!({ "schema_version": 1, "kind": "unfold.suite", "name": "hosts",
        "cases": [ { "name": "two turns",
            "template": repo("examples/coding-agent.unfold.json"),
            "scenario": repo("examples/coding-agent-two-turns.scenario.json"),
            "adapters": ["dynamic", "host:codex", "host:./ours.host.json"],
            "expect": {
                "dynamic": { "status": "completed", "failed_tool_calls": 0 },
                "host:codex": { "failed_tool_calls": 5 },
                "host:./ours.host.json": { "failed_tool_calls": 0 }
            } } ] });
    std::fs::write(&suite, text.to_string()).unwrap();

    let cases = open_suite(&suite).unwrap();
    assert_eq!(cases[0].adapters, ["dynamic", "host:codex", "host:./ours.host.json"]);
    let result = run_suite(&suite, &PriceFile(None)).unwrap().remove(0);
    let lanes: Vec<String> = result.report.as_ref().unwrap().runs.iter().map(|run| run.lane().to_string()).collect();
    assert_eq!(lanes, ["dynamic", "host:codex", "host:ours"], "a host lane is named by its profile");
    // Codex never shows the revealed tools; ours shows them at the next user turn, too late for
    // the calls of the turn that revealed them. Each unmet expectation names its run as written.
    let unmet: Vec<String> =
        result.unmet.iter().map(|u| format!("{} {}: {} not {}", u.run, u.what, u.seen, u.expected)).collect();
    assert_eq!(unmet, ["host:./ours.host.json failed_tool_calls: 5 not 0"]);

    // A host the suite names that does not exist is reported at its place, nothing runs.
    let mut broken = text.clone();
    broken["cases"][0]["adapters"][1] = "host:nobody".into();
    broken["cases"][0]["adapters"][2] = "host:./missing.host.json".into();
    std::fs::write(&suite, broken.to_string()).unwrap();
    let error = open_suite(&suite).unwrap_err();
    assert!(error.message.contains("/cases/0/adapters/1: 'nobody' is not a host Unfold knows"), "{}", error.message);
    std::fs::write(&suite, text.to_string().replace("host:./ours.host.json", "host:./missing.host.json")).unwrap();
    let error = open_suite(&suite).unwrap_err();
    assert!(error.message.contains("missing.host.json"), "{}", error.message);
}
