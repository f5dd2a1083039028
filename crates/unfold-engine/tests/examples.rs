//! The shared examples: the initial render of `task-executor.unfold.json` is byte for byte the
//! text of `examples/README.md` upstream, and `compare` counts what `expected-counters.json` says.

use std::collections::BTreeMap;

use unfold_documents::Scenario;
use unfold_engine::prompt_prefix::PrefixBreak;
use unfold_engine::{tokens, AdapterKind, Drive, EventKind, Lanes, Session};

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
    for (name, adapters) in &expected {
        let scenario = Scenario::load(&repo(&format!("examples/{name}.scenario.json"))).unwrap();
        let report = crate::scripted_report(&template, &scenario, &[AdapterKind::Dynamic, AdapterKind::Restart]);
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
    let mut lines = Vec::new();
    for (template, scenario) in pairs {
        let template = load_template(&format!("examples/{template}"));
        let scenario = Scenario::load(&repo(&format!("examples/{scenario}"))).unwrap();
        let report = crate::scripted_report(&template, &scenario, &[AdapterKind::Dynamic, AdapterKind::Restart]);
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
        let report = crate::scripted_report(&template, &scenario, &[AdapterKind::Dynamic, AdapterKind::Restart]);
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
    let mut report = crate::scripted_report(&template, &scenario, &[AdapterKind::Dynamic]);
    report.price(&unfold_documents::prices::Prices::shipped().pricing("claude-sonnet-4-5").unwrap());
    let baseline = report.baseline.as_ref().unwrap();
    assert_eq!(baseline.savings[0].saved_percent, Some(41.7));
    let (dynamic, all_full) = (report.runs[0].cost.as_ref().unwrap(), baseline.run.cost.as_ref().unwrap());
    assert!(dynamic.total < all_full.total, "without the cache, disclosure is cheaper");
    assert!(dynamic.total_with_cache > all_full.total_with_cache, "with it, showing everything is");
    assert_eq!(dynamic.prefix_breaks.tools_changed, 4, "one break per area read");
}

/// The two adapters that keep the prompt start (spec 10) on every bundled example: the deferred
/// run's first call costs what the dynamic run's does (a deferred tool costs nothing until
/// loaded), the allowed_tools run's costs the dynamic one's plus every hidden definition and the
/// callable subset, and neither breaks its prompt start except where the dynamic run restarts
/// too (`open_sections`), a plugin changes the tools or a pick describes them anew.
#[test]
fn allowed_tools_and_deferred_on_every_bundled_example() {
    let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
    for (template_file, scenario_file) in example_pairs() {
        let template = load_template(&format!("examples/{template_file}"));
        let scenario = Scenario::load(&repo(&format!("examples/{scenario_file}"))).unwrap();
        let comparison = runtime
            .block_on(unfold_engine::compare::compare(
                Lanes::new(&template, &scenario, &AdapterKind::ALL),
                Drive { keep_requests: true, ..Drive::default() },
            ))
            .unwrap();
        let calls = |adapter: AdapterKind| -> Vec<(u64, Option<PrefixBreak>)> {
            let run = comparison.report.runs.iter().find(|run| run.adapter == adapter).unwrap();
            run.events
                .iter()
                .filter_map(|event| match &event.kind {
                    EventKind::ModelCall { prompt_tokens, prefix, .. } => {
                        Some((*prompt_tokens, prefix.as_ref().unwrap().broke))
                    }
                    _ => None,
                })
                .collect()
        };
        let (dynamic, allowed, deferred) =
            (calls(AdapterKind::Dynamic), calls(AdapterKind::AllowedTools), calls(AdapterKind::Deferred));
        let at = format!("{template_file} / {scenario_file}");
        assert_eq!(deferred[0].0, dynamic[0].0, "{at}: deferred call 1");
        let first_body = |lane: &str| {
            let run = comparison.requests.iter().find(|run| run.lane.name() == lane).unwrap();
            run.calls[0].body.clone()
        };
        let tools_tokens = |body: &serde_json::Value| tokens::count_text(&body["tools"].to_string());
        let subset = first_body("allowed_tools")["tool_choice"]["allowed_tools"]["tools"]
            .as_array()
            .map(|tools| tools.iter().map(|t| t["function"]["name"].as_str().unwrap().to_owned()).collect::<Vec<_>>())
            .unwrap_or_default();
        let by_hand = dynamic[0].0 - tools_tokens(&first_body("dynamic"))
            + tools_tokens(&first_body("allowed_tools"))
            + tokens::count_text(&serde_json::to_string(&subset).unwrap());
        assert_eq!(allowed[0].0, by_hand, "{at}: allowed_tools call 1");
        let plugin_changes = !scenario.tool_changes.is_empty();
        let steps = scenario.conversation_turns().into_iter().flat_map(|turn| turn.script);
        let mut steps = steps;
        let reopens = steps.any(|step| format!("{step:?}").contains("open_sections"));
        // A pick describes its tools anew under every adapter: a change of the tool list.
        let picks = template.tool_disclosure == unfold_documents::template::ToolDisclosure::PickTools;
        if !plugin_changes && !reopens && !picks {
            for (adapter, calls) in [("allowed_tools", &allowed), ("deferred", &deferred)] {
                assert!(calls.iter().all(|(_, broke)| broke.is_none()), "{at}: {adapter} keeps its prompt start");
            }
        }
    }
}

/// Where the prompt cache changes the winner again: reading each area just before its tools,
/// the deferred adapter sends the dynamic adapter's tokens (41.6 % fewer than the baseline) and
/// keeps its prompt start, so with the cache it is the cheapest of all six runs; tool_addition
/// keeps its start too and pays only its system messages more; allowed_tools sends more but also
/// never breaks its start, and beats the baseline with the cache.
#[test]
fn with_the_cache_deferred_wins_the_just_in_time_example() {
    let template = load_template("examples/coding-agent.unfold.json");
    let scenario = Scenario::load(&repo("examples/coding-agent-just-in-time.scenario.json")).unwrap();
    let mut report = crate::scripted_report(&template, &scenario, &AdapterKind::ALL);
    report.price(&unfold_documents::prices::Prices::shipped().pricing("claude-sonnet-4-5").unwrap());
    let baseline = report.baseline.as_ref().unwrap();
    let saved: Vec<f64> = baseline.savings.iter().map(|s| s.saved_percent.unwrap()).collect();
    assert_eq!(saved, [41.7, -17.6, 13.1, 41.6, 41.4]);
    let with_cache = |run: &unfold_engine::RunReport| run.cost.as_ref().unwrap().total_with_cache;
    let mut order: Vec<(&str, f64)> = report.runs.iter().map(|run| (run.adapter.name(), with_cache(run))).collect();
    order.push(("baseline", with_cache(&baseline.run)));
    order.sort_by(|a, b| a.1.total_cmp(&b.1));
    let names: Vec<&str> = order.iter().map(|(name, _)| *name).collect();
    assert_eq!(names, ["deferred", "tool_addition", "allowed_tools", "baseline", "dynamic", "restart"]);
}

/// Every bundled scenario with its template.
fn example_pairs() -> Vec<(&'static str, &'static str)> {
    let task_executor = ["lookup-first", "plugin-adds-tool", "read-context-then-search", "style-only"];
    let mut pairs: Vec<(&str, &str)> = vec![
        ("incident-runbook.unfold.json", "incident-runbook.scenario.json"),
        ("code-review.unfold.json", "code-review.scenario.json"),
        ("support-desk.unfold.json", "support-desk.scenario.json"),
        ("support-agent.unfold.json", "support-agent-refund.scenario.json"),
        ("coding-agent.unfold.json", "coding-agent-fix-test.scenario.json"),
        ("coding-agent.unfold.json", "coding-agent-tour.scenario.json"),
        ("coding-agent.unfold.json", "coding-agent-just-in-time.scenario.json"),
        ("coding-agent.unfold.json", "coding-agent-two-turns.scenario.json"),
    ];
    let scenarios: Vec<String> = task_executor.iter().map(|name| format!("{name}.scenario.json")).collect();
    let scenarios: &'static [String] = Box::leak(scenarios.into_boxed_slice());
    pairs.extend(scenarios.iter().map(|s| ("task-executor.unfold.json", s.as_str())));
    let bundled = std::fs::read_dir(repo("examples"))
        .unwrap()
        .filter(|e| e.as_ref().is_ok_and(|e| e.file_name().to_string_lossy().ends_with(".scenario.json")));
    assert_eq!(bundled.count(), pairs.len(), "every bundled scenario is paired");
    pairs
}
