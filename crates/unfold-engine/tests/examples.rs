//! The shared examples: the initial render of `task-executor.unfold.json` is byte for byte the
//! text of `examples/README.md` upstream, and `compare` counts what `expected-counters.json` says.

use std::collections::BTreeMap;

use unfold_documents::Scenario;
use unfold_engine::{compare, AdapterKind, Session};

use unfold_test_support::{load_template, repo};

const EXPECTED_RENDER: &str = "## 1 Task

Complete the following: Refactor the authentication module

## 2 Project Context

Documentation for Acme is available.

---
[This section is summarized. Call `read_section` with key \"context\" to view full content including subsections: examples, history.]

## 3 Style Guide

A style guide is available.

---
[This section is summarized. To view full content, call `read_section` with key \"style\".]
";

#[test]
fn the_example_renders_as_documented() {
    let template = load_template("examples/task-executor.unfold.json");
    let prompt = Session::new(&template, Default::default()).unwrap().render().unwrap();
    assert_eq!(prompt.markdown, EXPECTED_RENDER);
    assert_eq!(prompt.tool_names(), ["lookup", "read_section"]);
}

#[test]
fn compare_counts_what_expected_counters_says() {
    let template = load_template("examples/task-executor.unfold.json");
    let expected: BTreeMap<String, BTreeMap<String, BTreeMap<String, serde_json::Value>>> =
        serde_json::from_str(&std::fs::read_to_string(repo("examples/expected-counters.json")).unwrap()).unwrap();
    assert_eq!(expected.len(), 3);
    let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
    for (name, adapters) in &expected {
        let scenario = Scenario::load(&repo(&format!("examples/{name}.scenario.json"))).unwrap();
        let report =
            runtime.block_on(compare(&template, &scenario, &[AdapterKind::Dynamic, AdapterKind::Restart])).unwrap();
        for run in &report.runs {
            let mut actual = serde_json::to_value(run.counters).unwrap();
            actual["status"] = serde_json::to_value(run.status).unwrap();
            for (counter, value) in &adapters[run.adapter.name()] {
                assert_eq!(&actual[counter], value, "{name} / {} / {counter}", run.adapter.name());
            }
        }
    }
}

/// Unfold's own examples: each pair shows one situation; their counters are pinned here.
#[test]
fn own_examples_show_their_situations() {
    let pairs = [
        ("incident-runbook.unfold.json", "incident-runbook.scenario.json"),
        ("code-review.unfold.json", "code-review.scenario.json"),
        ("task-executor.unfold.json", "plugin-adds-tool.scenario.json"),
        ("support-desk.unfold.json", "support-desk.scenario.json"),
    ];
    let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
    let mut lines = Vec::new();
    for (template, scenario) in pairs {
        let template = load_template(&format!("examples/{template}"));
        let scenario = Scenario::load(&repo(&format!("examples/{scenario}"))).unwrap();
        let report =
            runtime.block_on(compare(&template, &scenario, &[AdapterKind::Dynamic, AdapterKind::Restart])).unwrap();
        for run in &report.runs {
            let c = run.counters;
            lines.push(format!(
                "{} {}: {:?} calls={} restarts={} tools={} failed={} injected={} expansions={}",
                report.template,
                run.adapter.name(),
                run.status,
                c.model_calls,
                c.restarts,
                c.tool_calls,
                c.failed_tool_calls,
                c.tools_injected,
                c.dynamic_expansions
            ));
        }
    }
    insta::assert_snapshot!(lines.join("\n"), @"
    incident-runbook dynamic: Completed calls=6 restarts=2 tools=5 failed=0 injected=0 expansions=0
    incident-runbook restart: Completed calls=6 restarts=2 tools=5 failed=0 injected=0 expansions=0
    code-review dynamic: Completed calls=4 restarts=1 tools=3 failed=0 injected=0 expansions=1
    code-review restart: Completed calls=4 restarts=1 tools=3 failed=0 injected=0 expansions=1
    task-executor dynamic: Completed calls=5 restarts=0 tools=4 failed=0 injected=3 expansions=1
    task-executor restart: Completed calls=8 restarts=2 tools=7 failed=0 injected=0 expansions=0
    support-desk dynamic: Completed calls=5 restarts=0 tools=4 failed=0 injected=0 expansions=1
    support-desk restart: Completed calls=5 restarts=1 tools=4 failed=0 injected=0 expansions=1
    ");
}

/// Every file under `folder`, at any depth.
fn files_under(folder: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(folder).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(files_under(&path));
        } else {
            files.push(path);
        }
    }
    files
}

/// Every example template and scenario, in any folder of `examples/`, is as Unfold saves it
/// (`UNFOLD_BLESS=1` rewrites them so).
#[test]
fn every_example_is_canonical() {
    for path in files_under(&repo("examples")) {
        let name = path.to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path).unwrap();
        let saved = if name.ends_with(".unfold.json") {
            unfold_documents::Template::from_json(text.as_bytes()).map(|t| t.to_json())
        } else if name.ends_with(".scenario.json") {
            Scenario::from_json(text.as_bytes()).map(|s| s.to_json())
        } else {
            continue;
        };
        let saved = saved.unwrap_or_else(|e| panic!("{name}: {e}"));
        if std::env::var_os("UNFOLD_BLESS").is_some() {
            std::fs::write(&path, &saved).unwrap();
            continue;
        }
        assert_eq!(saved, text, "{name}");
    }
}

/// The examples README and README cite: summary-first disclosure saves more than half the prompt
/// tokens of the all-FULL baseline where a task reads little of a large template, and loses where
/// it reads nearly all of it.
#[test]
fn the_examples_show_where_disclosure_wins_and_where_it_loses() {
    let saved = |template: &str, scenario: &str| -> Vec<f64> {
        let template = load_template(&format!("examples/{template}.unfold.json"));
        let scenario = Scenario::load(&repo(&format!("examples/{scenario}.scenario.json"))).unwrap();
        let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
        let report =
            runtime.block_on(compare(&template, &scenario, &[AdapterKind::Dynamic, AdapterKind::Restart])).unwrap();
        assert!(report.runs.iter().all(|run| run.status == unfold_engine::RunStatus::Completed));
        report.baseline.unwrap().savings.iter().map(|s| s.saved_percent.unwrap()).collect()
    };
    assert_eq!(saved("coding-agent", "coding-agent-fix-test"), [68.8, 50.6]);
    assert_eq!(saved("support-agent", "support-agent-refund"), [55.4, 43.7]);
    assert_eq!(saved("coding-agent", "coding-agent-tour"), [-17.4, -114.9]);
}

/// Where the prompt cache changes the winner: reading each area just before its tools, the dynamic
/// adapter sends 41.7 % fewer prompt tokens than the all-FULL baseline and costs less, but every
/// read changes its tools and so breaks its cached prefix, while the baseline's prompt never
/// changes: with the cache, the baseline costs less.
#[test]
fn the_prompt_cache_changes_the_winner_of_the_just_in_time_example() {
    let template = load_template("examples/coding-agent.unfold.json");
    let scenario = Scenario::load(&repo("examples/coding-agent-just-in-time.scenario.json")).unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
    let mut report = runtime.block_on(compare(&template, &scenario, &[AdapterKind::Dynamic])).unwrap();
    report.price(&unfold_documents::prices::Prices::shipped().pricing("claude-sonnet-4-5").unwrap());
    let baseline = report.baseline.as_ref().unwrap();
    assert_eq!(baseline.savings[0].saved_percent, Some(41.7));
    let (dynamic, all_full) = (report.runs[0].cost.as_ref().unwrap(), baseline.run.cost.as_ref().unwrap());
    assert!(dynamic.total < all_full.total, "without the cache, disclosure is cheaper");
    assert!(dynamic.total_with_cache > all_full.total_with_cache, "with it, showing everything is");
    assert_eq!(dynamic.prefix_breaks.tools_changed, 4, "one break per area read");
}
