//! The verdict (issue 32): which lane wins against the all-FULL baseline, by how much and why, on
//! the bundled examples, priced and not; a lane that did not complete never wins.

use insta::assert_snapshot;
use unfold_documents::prices::Prices;
use unfold_documents::Scenario;
use unfold_engine::verdict::{Standing, VerdictMeasure, BASELINE};
use unfold_engine::{AdapterKind, ComparisonReport, RunStatus};
use unfold_test_support::{load_template, repo};

const EVERY_ADAPTER: [AdapterKind; 4] =
    [AdapterKind::Dynamic, AdapterKind::Restart, AdapterKind::AllowedTools, AdapterKind::Deferred];

fn example(template: &str, scenario: &str) -> ComparisonReport {
    let template = load_template(&format!("examples/{template}.unfold.json"));
    let scenario = Scenario::load(&repo(&format!("examples/{scenario}.scenario.json"))).unwrap();
    crate::scripted_report(&template, &scenario, &EVERY_ADAPTER)
}

fn priced(mut report: ComparisonReport, model: &str) -> ComparisonReport {
    report.price(&Prices::shipped().pricing(model).expect("a shipped price"));
    report
}

/// The verdict as a person reads it: the headline, the notes, then a line per lane.
fn read(report: &ComparisonReport) -> String {
    let verdict = report.verdict.as_ref().expect("a verdict");
    let mut lines = vec![verdict.headline.clone()];
    lines.extend(verdict.notes.iter().cloned());
    for lane in &verdict.lanes {
        lines.push(format!("{} {:?}: {}", lane.lane, lane.standing, lane.because));
    }
    lines.join("\n")
}

#[test]
fn a_short_template_loses_to_all_full_and_the_verdict_says_so() {
    let report = example("task-executor", "lookup-first");
    let verdict = report.verdict.as_ref().expect("a verdict");
    assert_eq!(verdict.measure, VerdictMeasure::PromptTokens);
    assert_eq!(verdict.winner.as_deref(), Some(BASELINE));
    assert!(verdict.lanes.iter().all(|lane| lane.standing == Standing::LosesToBaseline));
    assert_snapshot!(read(&report), @r#"
    No lane beats all-FULL: the closest, dynamic, used 80.3 % more prompt tokens than all-FULL (533 more), because reading summarized sections took 1 more model call, each sending the prompt again.
    dynamic LosesToBaseline: reading summarized sections took 1 more model call, each sending the prompt again
    restart LosesToBaseline: it re-ran 2 model calls after 1 restart
    allowed_tools LosesToBaseline: it sends all 3 tools on every call; reading summarized sections took 1 more model call, each sending the prompt again
    deferred LosesToBaseline: reading summarized sections took 1 more model call, each sending the prompt again
    "#);
}

#[test]
fn a_large_template_is_won_by_a_lane_with_its_saving_and_why() {
    let report = example("coding-agent", "coding-agent-fix-test");
    let verdict = report.verdict.as_ref().expect("a verdict");
    let winner = verdict.winner.as_deref().expect("a winner");
    assert_ne!(winner, BASELINE);
    let lane = verdict.lanes.iter().find(|lane| lane.lane == winner).unwrap();
    assert_eq!(lane.standing, Standing::Wins);
    assert!(lane.prompt_tokens.change < 0.0, "{lane:?}");
    // The winner is the lane with the fewest prompt tokens, of those that completed.
    let fewest = verdict.lanes.iter().map(|lane| lane.prompt_tokens.value).fold(f64::INFINITY, f64::min);
    assert_eq!(lane.prompt_tokens.value, fewest);
    assert_snapshot!(read(&report), @r#"
    dynamic wins: it used 68.8 % fewer prompt tokens than all-FULL (53,141 fewer), because the summaries kept 53,141 prompt tokens out of its prompts.
    dynamic Wins: reading summarized sections took 2 more model calls, each sending the prompt again; the summaries kept 53,141 prompt tokens out of its prompts
    restart BeatsBaseline: it re-ran 5 model calls after 2 restarts; the summaries kept 39,027 prompt tokens out of its prompts
    allowed_tools BeatsBaseline: it sends all 45 tools on every call; reading summarized sections took 2 more model calls, each sending the prompt again; the summaries kept 27,825 prompt tokens out of its prompts
    deferred BeatsBaseline: reading summarized sections took 2 more model calls, each sending the prompt again; the summaries kept 53,129 prompt tokens out of its prompts
    "#);
}

#[test]
fn priced_runs_are_weighed_by_their_cost_with_the_cache_and_a_flip_is_noted() {
    let report = priced(example("coding-agent", "coding-agent-fix-test"), "claude-sonnet-4-5");
    let verdict = report.verdict.as_ref().expect("a verdict");
    assert_eq!(verdict.measure, VerdictMeasure::CostWithCache);
    assert_eq!(verdict.currency.as_deref(), Some("USD"));
    let winner = verdict.winner.as_deref().expect("a winner");
    let cheapest =
        verdict.lanes.iter().map(|lane| lane.cost_with_cache.expect("priced").value).fold(f64::INFINITY, f64::min);
    let lane = verdict.lanes.iter().find(|lane| lane.lane == winner).unwrap();
    assert_eq!(lane.cost_with_cache.unwrap().value, cheapest);
    assert_snapshot!(read(&report), @r#"
    deferred wins: it used 68.8 % fewer prompt tokens than all-FULL (53,129 fewer) and cost $0.060124 (63.3 %) less with the prompt cache, because its prompt's start never changed, so the prompt cache held across its calls.
    With the prompt cache deferred is cheapest ($0.034911); without it, dynamic ($0.076875).
    dynamic BeatsBaseline: reading summarized sections took 2 more model calls, each sending the prompt again; the summaries kept 53,141 prompt tokens out of its prompts; the prompt cache broke 2 times because the tools changed
    restart BeatsBaseline: it re-ran 5 model calls after 2 restarts; the summaries kept 39,027 prompt tokens out of its prompts; the prompt cache broke 2 times because it restarted
    allowed_tools BeatsBaseline: it sends all 45 tools on every call; reading summarized sections took 2 more model calls, each sending the prompt again; the summaries kept 27,825 prompt tokens out of its prompts; its prompt's start never changed, so the prompt cache held across its calls
    deferred Wins: reading summarized sections took 2 more model calls, each sending the prompt again; the summaries kept 53,129 prompt tokens out of its prompts; its prompt's start never changed, so the prompt cache held across its calls
    "#);
}

#[test]
fn a_lane_that_did_not_complete_cannot_win() {
    let mut report = example("coding-agent", "coding-agent-fix-test");
    let winner = report.verdict.as_ref().and_then(|v| v.winner.clone()).expect("a winner");
    let run = report.runs.iter_mut().find(|run| run.adapter.name() == winner).unwrap();
    run.status = RunStatus::TurnLimit;
    let verdict = report.weigh().expect("a verdict");
    assert_ne!(verdict.winner.as_deref(), Some(winner.as_str()));
    let lane = verdict.lanes.iter().find(|lane| lane.lane == winner).unwrap();
    assert_eq!(lane.standing, Standing::Failed);
    assert!(lane.because.starts_with("it ended with turn limit after "), "{}", lane.because);
}

#[test]
fn a_report_without_a_baseline_has_no_verdict() {
    let mut report = example("task-executor", "lookup-first");
    report.baseline = None;
    assert_eq!(report.weigh(), None);
}

#[test]
fn a_verdict_survives_the_report_file() {
    let report = priced(example("task-executor", "lookup-first"), "gpt-4o-mini");
    let text = serde_json::to_string(&report).unwrap();
    let read: ComparisonReport = serde_json::from_str(&text).unwrap();
    assert_eq!(read.verdict, report.verdict);
    assert_eq!(read.weigh(), read.verdict);
}
