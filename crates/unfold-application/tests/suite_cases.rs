//! A finished comparison saved as a suite case: the suite it makes passes as it stands, its
//! expectations are what the runs showed, and a second case joins the same file under a name of
//! its own.

use std::path::Path;

use unfold_application::prices::PriceFile;
use unfold_application::suite_cases::add_case;
use unfold_application::suites::run_suite;
use unfold_documents::host_profile::HostProfile;
use unfold_documents::suite::Suite;
use unfold_documents::Scenario;
use unfold_engine::compare::{Drive, Lanes};
use unfold_engine::{AdapterKind, ComparisonReport, LaneSpec};
use unfold_test_support::repo;

/// Copies of the task executor and `scenario` in `folder`, and their comparison under dynamic and restart.
fn compared(folder: &Path, scenario: &str) -> (std::path::PathBuf, std::path::PathBuf, ComparisonReport) {
    compared_in(
        folder,
        scenario,
        vec![LaneSpec::Adapter(AdapterKind::Dynamic), LaneSpec::Adapter(AdapterKind::Restart)],
    )
}

/// [`compared`] in `lanes`.
fn compared_in(
    folder: &Path,
    scenario: &str,
    lanes: Vec<LaneSpec>,
) -> (std::path::PathBuf, std::path::PathBuf, ComparisonReport) {
    std::fs::create_dir_all(folder).unwrap();
    let template_file = folder.join("task.unfold.json");
    let scenario_file = folder.join(scenario);
    std::fs::copy(repo("examples/task-executor.unfold.json"), &template_file).unwrap();
    std::fs::copy(repo(&format!("examples/{scenario}")), &scenario_file).unwrap();
    let template = unfold_test_support::load_template("examples/task-executor.unfold.json");
    let loaded = Scenario::load(&scenario_file).unwrap();
    let lanes = Lanes::of(&template, &loaded, lanes);
    let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
    let comparison = runtime.block_on(unfold_engine::compare(lanes, Drive::default())).unwrap();
    (template_file, scenario_file, comparison.report)
}

#[test]
fn a_comparison_saved_as_a_case_makes_a_suite_that_passes_and_expects_what_the_runs_showed() {
    let dir = tempfile::tempdir().unwrap();
    let (template, scenario, report) = compared(&dir.path().join("prompts"), "read-context-then-search.scenario.json");
    std::fs::create_dir(dir.path().join("ci")).unwrap();
    let suite = dir.path().join("ci/disclosure.suite.json");

    assert_eq!(add_case(&suite, &template, &scenario, &report).unwrap(), "read-context-then-search");
    let saved = Suite::load(&suite).unwrap();
    assert_eq!(saved.name, "disclosure");
    let case = &saved.cases[0];
    assert_eq!(
        (case.template.as_str(), case.scenario.as_str()),
        ("../prompts/task.unfold.json", "../prompts/read-context-then-search.scenario.json")
    );
    assert_eq!(case.adapters, ["dynamic", "restart"]);
    let restart = &case.expect.runs["restart"];
    let seen = &report.runs[1].counters;
    assert_eq!(restart.restarts.unwrap().describe(), seen.restarts.to_string());
    assert_eq!(case.expect.divergence.unwrap().name(), "restart", "{:?}", report.divergences);
    assert!(case.expect.runs.contains_key("baseline"));

    let results = run_suite(&suite, &PriceFile(None)).unwrap();
    assert!(results[0].passed, "what was seen holds when run again: {:?}", results[0].unmet);

    // Another comparison joins the suite; the same one again gets a name of its own.
    let (_, other, style) = compared(&dir.path().join("prompts"), "style-only.scenario.json");
    assert_eq!(add_case(&suite, &template, &other, &style).unwrap(), "style-only");
    assert_eq!(add_case(&suite, &template, &scenario, &report).unwrap(), "read-context-then-search (2)");
    let results = run_suite(&suite, &PriceFile(None)).unwrap();
    let names: Vec<&str> = results.iter().map(|result| result.name.as_str()).collect();
    assert_eq!(names, ["read-context-then-search", "style-only", "read-context-then-search (2)"]);
    assert!(results.iter().all(|result| result.passed));
}

#[test]
fn a_comparison_with_a_host_lane_saved_as_a_case_names_the_host_and_passes() {
    let dir = tempfile::tempdir().unwrap();
    let codex = LaneSpec::Host(Box::new(HostProfile::preset("codex").unwrap().clone()));
    let lanes = vec![LaneSpec::Adapter(AdapterKind::Dynamic), codex];
    let (template, scenario, report) = compared_in(dir.path(), "read-context-then-search.scenario.json", lanes);
    let suite = dir.path().join("hosts.suite.json");
    add_case(&suite, &template, &scenario, &report).unwrap();
    let case = &Suite::load(&suite).unwrap().cases[0];
    assert_eq!(case.adapters, ["dynamic", "host:codex"]);
    assert!(case.expect.runs.contains_key("host:codex"));
    let results = run_suite(&suite, &PriceFile(None)).unwrap();
    assert!(results[0].passed, "what was seen holds when run again: {:?}", results[0].unmet);
}

#[test]
fn a_case_is_not_added_to_a_file_that_is_not_a_suite_and_the_file_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let (template, scenario, report) = compared(dir.path(), "lookup-first.scenario.json");
    let suite = dir.path().join("notes.suite.json");
    std::fs::write(&suite, "{ \"my\": \"notes\" }").unwrap();
    let refused = add_case(&suite, &template, &scenario, &report).unwrap_err().to_string();
    assert!(refused.contains(&suite.display().to_string()), "{refused}");
    assert_eq!(std::fs::read_to_string(&suite).unwrap(), "{ \"my\": \"notes\" }");
}
