//! What a comparison adds to the runs: the all-FULL baseline and the savings against it, the first
//! divergence of the two runs (the alignment and its explanation), the request bodies of every
//! model call, and reports written before these existed.

use insta::{assert_json_snapshot, assert_snapshot};
use serde_json::{json, Value};
use unfold_documents::template::{Section, ToolDisclosure, Visibility};
use unfold_documents::{Scenario, Template};
use unfold_engine::compare::Savings;
use unfold_engine::compare::{everything_disclosed, request_files, CompareProgress, Drive, Lane, Lanes, RunRequests};
use unfold_engine::divergence::{common_subsequence, Divergence, DivergenceKind, FirstDivergence, RunPlace};
use unfold_engine::{
    adapter_for, compare, run, AdapterKind, ComparisonReport, Counters, EventKind, RunInput, RunLimits, RunReport,
    ScriptedProvider, ScriptedToolResults,
};

use unfold_test_support::{load_template, repo, scenario, trace};

use AdapterKind::{Dynamic, Restart};

fn fixture() -> Template {
    load_template("tests/fixtures/disclosure.unfold.json")
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().build().unwrap()
}

fn compare_both(template: &Template, scenario: &Scenario) -> ComparisonReport {
    crate::scripted_report(template, scenario, &[Dynamic, Restart])
}

/// One run of the scenario of `fields` on the fixture.
fn run_one(kind: AdapterKind, fields: Value) -> RunReport {
    let template = fixture();
    let scenario = scenario(fields);
    let limits = scenario.limits.map_or(RunLimits::default(), |l| RunLimits {
        max_model_calls: l.max_model_calls.unwrap_or(32),
        max_restarts: l.max_restarts.unwrap_or(8),
    });
    let input = RunInput {
        template: &template,
        params: scenario.params.clone(),
        user_turns: scenario.user_turns(),
        tool_changes: &scenario.tool_changes,
        discoveries: &[],
        limits,
        tool_policy: unfold_engine::ToolPolicy::default(),
    };
    let mut provider = ScriptedProvider::new(&scenario, &template);
    let mut results = ScriptedToolResults::new(&scenario);
    runtime().block_on(run(&input, adapter_for(kind), &mut provider, &mut results, &mut |_| {})).unwrap()
}

/// The first divergence of two runs, each of its own scenario and adapter.
fn diverge(left: (AdapterKind, Value), right: (AdapterKind, Value)) -> Option<FirstDivergence> {
    Divergence::between(&run_one(left.0, left.1), &run_one(right.0, right.1)).first
}

fn script(steps: Value) -> Value {
    json!({ "script": steps })
}

fn place(seq: u32, attempt: u32, call_index: u32) -> Option<RunPlace> {
    Some(RunPlace { seq, attempt, call_index })
}

// The alignment.

/// `a` and `b` are strings of one-letter elements; `expected` lists the pairs as `i-j`.
fn check_alignment(a: &str, b: &str, expected: &str) {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let pairs = common_subsequence(&a, &b);
    let shown: Vec<String> = pairs.iter().map(|(i, j)| format!("{i}-{j}")).collect();
    assert_eq!(shown.join(" "), expected, "{a:?} / {b:?}");
}

#[test]
fn alignment_pairs_a_longest_common_subsequence() {
    check_alignment("", "", "");
    check_alignment("abc", "", "");
    check_alignment("abc", "abc", "0-0 1-1 2-2");
    check_alignment("abc", "xyz", "");
    // The restart adapter's replay: `l` redone after the restart `R`.
    check_alignment("lrs", "lrRls", "0-0 1-1 2-4");
    check_alignment("ab", "axb", "0-0 1-2");
    check_alignment("axb", "ab", "0-0 2-1");
    check_alignment("axb", "ayb", "0-0 2-2");
    check_alignment("abcd", "acbd", "0-0 1-2 3-3");
    // Of two equally long alignments, `b`'s element is left unpaired first.
    check_alignment("pq", "qp", "0-1");
    check_alignment("xab", "abx", "1-0 2-1");
}

/// Every pair of strings over `ab` up to 5 long: the pairs are a common subsequence, as long as
/// the longest, and they begin with the common prefix.
#[test]
fn alignment_is_as_long_as_the_longest_for_every_small_input() {
    let strings: Vec<Vec<char>> = (0..=5u32)
        .flat_map(|len| {
            (0..1u32 << len).map(move |bits| (0..len).map(|k| if bits >> k & 1 == 1 { 'b' } else { 'a' }).collect())
        })
        .collect();
    for a in &strings {
        for b in &strings {
            let pairs = common_subsequence(a, b);
            assert!(pairs.iter().all(|&(i, j)| a[i] == b[j]), "{a:?} {b:?} {pairs:?}");
            assert!(pairs.windows(2).all(|w| w[0].0 < w[1].0 && w[0].1 < w[1].1), "{a:?} {b:?} {pairs:?}");
            assert_eq!(pairs.len(), lcs_length(a, b), "{a:?} {b:?}");
            let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
            assert!(pairs.iter().take(prefix).enumerate().all(|(k, &pair)| pair == (k, k)), "{a:?} {b:?}");
        }
    }
}

fn lcs_length(a: &[char], b: &[char]) -> usize {
    match (a.split_first(), b.split_first()) {
        (Some((x, a_rest)), Some((y, b_rest))) if x == y => 1 + lcs_length(a_rest, b_rest),
        (Some((_, a_rest)), Some((_, b_rest))) => lcs_length(a_rest, b).max(lcs_length(a, b_rest)),
        _ => 0,
    }
}

/// Runs too long for an exact table (3,002 steps each way, differing at both ends) still align.
#[test]
fn alignment_of_very_long_runs_pairs_the_nearest_matches() {
    let a: Vec<u32> = std::iter::once(1_000_000).chain(0..3000).chain([1_000_001]).collect();
    let b: Vec<u32> = std::iter::once(2_000_000).chain(0..3000).chain([2_000_001]).collect();
    assert!(a.len() * b.len() > unfold_engine::divergence::MAX_ALIGNMENT_CELLS);
    let pairs = common_subsequence(&a, &b);
    assert_eq!(pairs, (1..=3000).map(|k| (k, k)).collect::<Vec<_>>());
}

// The first divergence.

#[test]
fn identical_runs_do_not_diverge() {
    let reads_style = script(json!([
        { "call": "lookup", "args": { "id": 1 } },
        { "call": "read_section", "args": { "section_key": "style" } },
        { "say": "Done." }
    ]));
    assert_eq!(diverge((Dynamic, reads_style.clone()), (Restart, reads_style)), None);
}

#[test]
fn arguments_in_another_key_order_are_the_same_call() {
    let call = |args: Value| script(json!([{ "call": "lookup", "args": args }, { "say": "Done." }]));
    let first = call(json!({ "id": 1, "q": "x" }));
    let second = call(json!({ "q": "x", "id": 1 }));
    assert_eq!(diverge((Dynamic, first), (Restart, second)), None);
}

#[test]
fn a_restart_discarding_a_call_that_is_redone() {
    let lookup_then_docs = script(json!([
        { "call": "lookup", "args": { "id": 1 } },
        { "call": "read_section", "args": { "section_key": "docs" } },
        { "call": "search", "args": { "q": "login" } },
        { "say": "Done." }
    ]));
    let first = diverge((Dynamic, lookup_then_docs.clone()), (Restart, lookup_then_docs)).unwrap();
    assert_eq!(first.explanation, "restart at call 2 discarded lookup(1); it was redone at call 3");
    assert_eq!((first.left_at, first.right_at), (None, place(6, 1, 2)));
    assert_json_snapshot!(first.kind, @r#"
    {
      "kind": "restart",
      "run": "restart",
      "reason": "visibility_expansion",
      "section_keys": [
        "docs"
      ],
      "redone": [
        {
          "name": "lookup",
          "args": {
            "id": 1
          },
          "discarded": {
            "seq": 2,
            "attempt": 1,
            "call_index": 1
          },
          "redone": {
            "seq": 8,
            "attempt": 2,
            "call_index": 3
          }
        }
      ]
    }
    "#);
}

#[test]
fn a_restart_discarding_several_calls_lists_where_each_was_redone() {
    let two_lookups_then_notes = script(json!([
        { "call": "lookup", "args": { "id": 1 } },
        { "call": "broken", "args": { "q": "x" } },
        { "call": "read_section", "args": { "section_key": "notes" } },
        { "say": "Done." }
    ]));
    let first = diverge((Dynamic, two_lookups_then_notes.clone()), (Restart, two_lookups_then_notes)).unwrap();
    assert_eq!(
        first.explanation,
        "restart at call 3 discarded lookup(1) and broken(\"x\"); they were redone at calls 4 and 5"
    );
}

#[test]
fn a_restart_with_nothing_to_redo_says_what_it_applied() {
    let docs_first = script(json!([
        { "call": "read_section", "args": { "section_key": "docs" } },
        { "call": "search", "args": { "q": "login" } },
        { "say": "Done." }
    ]));
    let first = diverge((Dynamic, docs_first.clone()), (Restart, docs_first)).unwrap();
    assert_eq!(first.explanation, "restart at call 1 expanded docs; no call had to be redone");
    assert!(matches!(first.kind, DivergenceKind::Restart { ref redone, .. } if redone.is_empty()));
}

#[test]
fn a_restart_for_a_plugin_change_happens_before_the_call() {
    let plugin = json!({
        "script": [
            { "call": "lookup", "args": { "id": 1 } },
            { "call": "ping", "args": {} },
            { "say": "Done." }
        ],
        "tool_changes": [ { "at_model_call": 2, "add": [
            { "name": "ping", "description": "Ping.", "parameters": { "type": "object" }, "mock": { "result": "pong" } }
        ] } ]
    });
    let first = diverge((Dynamic, plugin.clone()), (Restart, plugin)).unwrap();
    assert_eq!(first.explanation, "restart before call 2 discarded lookup(1); it was redone at call 2");
}

#[test]
fn a_restart_in_the_first_run_is_placed_on_the_left() {
    let docs_first = script(json!([
        { "call": "read_section", "args": { "section_key": "docs" } },
        { "call": "search", "args": { "q": "login" } },
        { "say": "Done." }
    ]));
    let first = diverge((Restart, docs_first.clone()), (Dynamic, docs_first.clone())).unwrap();
    assert_eq!((first.left_at, first.right_at), (place(4, 1, 1), None));
    assert_eq!(first.kind, restart_kind(Restart));
    assert_eq!(first.explanation, "restart at call 1 expanded docs; no call had to be redone");
    // Only the restart adapter restarts on a read; a dynamic run that restarts (open_sections)
    // is named, here by relabelling the runs.
    let mut restarting = run_one(Restart, docs_first.clone());
    restarting.adapter = Dynamic;
    let mut going_on = run_one(Dynamic, docs_first);
    going_on.adapter = Restart;
    let first = Divergence::between(&going_on, &restarting).first.unwrap();
    assert_eq!(first.kind, restart_kind(Dynamic));
    assert_eq!(first.explanation, "restart in the dynamic run at call 1 expanded docs; no call had to be redone");
}

fn restart_kind(run: AdapterKind) -> DivergenceKind {
    DivergenceKind::Restart {
        run: Lane::of(run),
        reason: unfold_engine::events::RestartReason::VisibilityExpansion,
        section_keys: vec!["docs".into()],
        redone: Vec::new(),
    }
}

#[test]
fn a_call_only_one_side_makes() {
    let once = script(json!([
        { "call": "lookup", "args": { "id": 1 } },
        { "call": "search", "args": { "q": "a" } },
        { "say": "Done." }
    ]));
    let twice = script(json!([
        { "call": "lookup", "args": { "id": 1 } },
        { "call": "lookup", "args": { "id": 2 } },
        { "call": "search", "args": { "q": "a" } },
        { "say": "Done." }
    ]));
    let first = diverge((Dynamic, once), (Restart, twice)).unwrap();
    assert_eq!(first.kind, DivergenceKind::ExtraCall { run: Lane::RESTART });
    assert_eq!(first.explanation, "only restart calls lookup(2) (call 2); then both call search(\"a\")");
    assert_eq!((first.left_at, first.right_at), (None, place(4, 1, 2)));
}

#[test]
fn calls_after_the_other_run_ended() {
    let short = json!({
        "script": [ { "call": "lookup", "args": { "id": 1 } }, { "call": "lookup", "args": { "id": 2 } },
                    { "call": "lookup", "args": { "id": 3 } }, { "say": "Done." } ],
        "limits": { "max_model_calls": 1 }
    });
    let long = script(json!([
        { "call": "lookup", "args": { "id": 1 } }, { "call": "lookup", "args": { "id": 2 } },
        { "call": "lookup", "args": { "id": 3 } }, { "say": "Done." }
    ]));
    let first = diverge((Dynamic, short), (Restart, long)).unwrap();
    assert_eq!(first.explanation, "only restart calls lookup(2) (call 2) and 1 more; dynamic makes no more calls");
}

#[test]
fn different_arguments_and_different_tools() {
    let lookup = |id: u32| script(json!([{ "call": "lookup", "args": { "id": id } }, { "say": "Done." }]));
    let first = diverge((Dynamic, lookup(1)), (Restart, lookup(2))).unwrap();
    assert_eq!(first.kind, DivergenceKind::DifferentArguments);
    assert_eq!(first.explanation, "dynamic calls lookup(1) (call 1) where restart calls lookup(2) (call 1)");
    assert_eq!((first.left_at, first.right_at), (place(2, 1, 1), place(2, 1, 1)));

    let broken = script(json!([{ "call": "broken", "args": { "q": "x" } }, { "say": "Done." }]));
    let first = diverge((Dynamic, lookup(1)), (Restart, broken)).unwrap();
    assert_eq!(first.kind, DivergenceKind::DifferentCall);
    assert_eq!(first.explanation, "dynamic calls lookup(1) (call 1) where restart calls broken(\"x\") (call 1)");
}

#[test]
fn the_same_call_with_different_results() {
    let lookup = script(json!([{ "call": "lookup", "args": { "id": 1 } }, { "say": "Done." }]));
    let mut failing = lookup.clone();
    failing["tool_results"] = json!({ "lookup": [ { "error": "timeout" } ] });
    let first = diverge((Dynamic, lookup), (Restart, failing)).unwrap();
    assert_eq!(first.kind, DivergenceKind::DifferentResult);
    assert_eq!(
        first.explanation,
        "lookup(1) returns different results: ok {\"id\":7,\"title\":\"Login fails\"} in dynamic (call 1), \
         failed \"timeout\" in restart (call 1)"
    );
}

#[test]
fn different_final_answers_and_statuses() {
    let answer = |say: &str| script(json!([{ "call": "lookup", "args": { "id": 1 } }, { "say": say }]));
    let first = diverge((Dynamic, answer("Yes.")), (Restart, answer("No."))).unwrap();
    assert_eq!(first.kind, DivergenceKind::DifferentOutcome);
    assert_eq!(first.explanation, "dynamic completes with \"Yes.\" where restart completes with \"No.\"");
    assert_eq!((first.left_at, first.right_at), (place(4, 1, 2), place(4, 1, 2)));

    let mut stopped = answer("Yes.");
    stopped["limits"] = json!({ "max_model_calls": 1 });
    let first = diverge((Dynamic, stopped), (Restart, answer("Yes."))).unwrap();
    assert_eq!(first.explanation, "dynamic stops at the model call limit where restart completes with \"Yes.\"");
}

#[test]
fn long_texts_in_an_explanation_are_cut_to_one_line() {
    let long = "line one\nline two ".repeat(10);
    let call = |q: &str| script(json!([{ "call": "broken", "args": { "q": q } }, { "say": "Done." }]));
    let first = diverge((Dynamic, call(&long)), (Restart, call("short"))).unwrap();
    assert!(!first.explanation.contains('\n'), "{}", first.explanation);
    assert!(first.explanation.contains("…"), "{}", first.explanation);
}

/// Every example pair: the first divergence of its two runs, one line each.
#[test]
fn first_divergence_of_every_example() {
    let pairs = [
        ("task-executor", "lookup-first"),
        ("task-executor", "read-context-then-search"),
        ("task-executor", "style-only"),
        ("task-executor", "plugin-adds-tool"),
        ("incident-runbook", "incident-runbook"),
        ("code-review", "code-review"),
        ("support-desk", "support-desk"),
    ];
    let lines: Vec<String> = pairs
        .iter()
        .map(|(template, scenario)| {
            let report = example_report(template, scenario);
            let [divergence] = <[_; 1]>::try_from(report.divergences).expect("two runs, one divergence");
            let line = divergence.first.map_or("none".to_owned(), |f| f.explanation);
            format!("{scenario}: {line}")
        })
        .collect();
    assert_snapshot!(lines.join("\n"), @"
    lookup-first: restart at call 2 discarded lookup(7); it was redone at call 3
    read-context-then-search: restart at call 1 expanded context; no call had to be redone
    style-only: none
    plugin-adds-tool: restart before call 2 discarded lookup(7); it was redone at call 2
    incident-runbook: none
    code-review: none
    support-desk: restart at call 1 applied the picked tools; no call had to be redone
    ");
}

fn example_report(template: &str, scenario: &str) -> ComparisonReport {
    let template = load_template(&format!("examples/{template}.unfold.json"));
    let scenario = Scenario::load(&repo(&format!("examples/{scenario}.scenario.json"))).unwrap();
    compare_both(&template, &scenario)
}

// The baseline.

#[test]
fn the_baseline_shows_everything_and_reads_nothing() {
    let report = example_report("task-executor", "lookup-first");
    let baseline = report.baseline.expect("a baseline");
    assert_eq!(baseline.run.adapter, Dynamic);
    assert_eq!(baseline.run.counters, Counters::of(&baseline.run.events));
    assert_snapshot!(trace(&baseline.run), @r#"
    call 1 [lookup, search, cite]
      lookup {"id":7} -> ok {"id":7,"title":"Login fails"}
    call 2 [lookup, search, cite]
      search {"query":"login"} -> ok "3 hits: auth.md, session.md, tokens.md"
    call 3 [lookup, search, cite]
    completed "Fixed the login flow."
    "#);
}

#[test]
fn the_baseline_offers_every_tool_in_full_and_no_pick_tools() {
    let template = load_template("examples/support-desk.unfold.json");
    assert_eq!(template.tool_disclosure, ToolDisclosure::PickTools);
    let disclosed = everything_disclosed(&template);
    assert_eq!(disclosed.tool_disclosure, ToolDisclosure::Full);
    let mut visibilities = Vec::new();
    disclosed.walk(&mut |_, section: &Section| visibilities.push(section.visibility));
    assert!(visibilities.iter().all(|v| *v == Visibility::Full), "{visibilities:?}");
    let scenario = Scenario::load(&repo("examples/support-desk.scenario.json")).unwrap();
    let report = compare_both(&template, &scenario);
    let baseline = report.baseline.unwrap().run;
    assert_eq!((baseline.counters.restarts, baseline.counters.tools_injected), (0, 0));
    assert_snapshot!(trace(&baseline), @r#"
    call 1 [find_customer, refund, escalate]
      find_customer {"email":"ana@example.com"} -> ok {"id":"c-77","plan":"pro"}
    call 2 [find_customer, refund, escalate]
      refund {"invoice":"INV-9","reason":"charged twice"} -> ok "refunded"
    call 3 [find_customer, refund, escalate]
    completed "Refunded INV-9."
    "#);
}

/// A `read_section` the script makes of a key that names no section is still made: no section
/// is summarized, so the tool is not offered, and the call fails as an unknown tool.
#[test]
fn a_read_of_an_unknown_key_in_the_baseline_fails_as_an_unknown_tool() {
    let scenario = scenario(script(json!([
        { "call": "read_section", "args": { "section_key": "nope" } },
        { "say": "Done." }
    ])));
    let report = compare_both(&fixture(), &scenario);
    assert_snapshot!(trace(&report.baseline.unwrap().run), @r#"
    call 1 [lookup, broken, note_a, note_b, search]
      read_section {"section_key":"nope"} -> failed "Unknown tool: 'read_section'"
    call 2 [lookup, broken, note_a, note_b, search]
    completed "Done."
    "#);
}

/// When hidden sections are large and never read, disclosure saves tokens; the savings are the
/// baseline's prompt tokens minus the run's.
#[test]
fn savings_are_the_baseline_prompt_tokens_minus_the_runs() {
    let mut template = fixture();
    let manual = "A long manual paragraph that the model never needs for this task. ".repeat(200);
    let docs = template.sections.iter_mut().find(|s| s.key == "docs").unwrap();
    assert_eq!(docs.visibility, Visibility::Summary, "summarized, and never read here");
    docs.template = manual;
    let scenario = scenario(script(json!([{ "call": "lookup", "args": { "id": 1 } }, { "say": "Done." }])));
    let report = compare_both(&template, &scenario);
    let baseline = report.baseline.unwrap();
    assert_eq!(baseline.savings.len(), 2);
    for (savings, run) in baseline.savings.iter().zip(&report.runs) {
        assert_eq!(savings.adapter, run.lane());
        assert_eq!(savings.prompt_tokens, run.counters.prompt_tokens);
        let saved = baseline.run.counters.prompt_tokens as i64 - run.counters.prompt_tokens as i64;
        assert_eq!(savings.saved_prompt_tokens, saved);
        assert!(saved > 2000, "the manual is counted on both model calls of the baseline: {saved}");
        let percent = savings.saved_percent.unwrap();
        let exact = saved as f64 * 100.0 / baseline.run.counters.prompt_tokens as f64;
        assert!((percent - exact).abs() <= 0.05, "{percent} vs {exact}");
    }
}

#[test]
fn savings_round_to_one_decimal_and_have_no_percent_of_nothing() {
    let run = |prompt_tokens| RunReport {
        adapter: Restart,
        host: None,
        real_host: None,
        status: unfold_engine::RunStatus::Completed,
        final_text: None,
        counters: Counters { prompt_tokens, ..Counters::default() },
        cost: None,
        events: Vec::new(),
    };
    let baseline = |prompt_tokens| Counters { prompt_tokens, ..Counters::default() };
    let savings = Savings::against(&baseline(3000), &run(2000));
    assert_eq!((savings.saved_prompt_tokens, savings.saved_percent), (1000, Some(33.3)));
    let savings = Savings::against(&baseline(300), &run(1000));
    assert_eq!((savings.saved_prompt_tokens, savings.saved_percent), (-700, Some(-233.3)));
    let savings = Savings::against(&baseline(0), &run(10));
    assert_eq!((savings.saved_prompt_tokens, savings.saved_percent), (-10, None));
}

// The report.

#[test]
fn one_run_has_a_baseline_but_no_divergence() {
    let scenario = Scenario::load(&repo("examples/lookup-first.scenario.json")).unwrap();
    let template = load_template("examples/task-executor.unfold.json");
    let report = crate::scripted_report(&template, &scenario, &[Restart]);
    assert_eq!(report.divergences, []);
    assert_eq!(report.baseline.unwrap().savings.len(), 1);
}

#[test]
fn a_report_reads_back_as_written() {
    let report = example_report("task-executor", "plugin-adds-tool");
    let text = serde_json::to_string(&report).unwrap();
    let value: Value = serde_json::from_str(&text).unwrap();
    assert!(value["baseline"].is_object() && value["divergences"][0]["first"].is_object(), "{value}");
    assert_eq!(serde_json::from_str::<ComparisonReport>(&text).unwrap(), report);
}

#[test]
fn a_report_written_with_one_divergence_reads_it_as_the_list_of_one() {
    let report = example_report("task-executor", "plugin-adds-tool");
    let mut old = serde_json::to_value(&report).unwrap();
    let fields = old.as_object_mut().unwrap();
    let divergences = fields.remove("divergences").unwrap();
    fields.insert("divergence".into(), divergences[0].clone());
    let read: ComparisonReport = serde_json::from_value(old).unwrap();
    assert_eq!(read.divergences, report.divergences);
    assert_eq!(read.divergences.len(), 1);
}

#[test]
fn a_report_written_before_the_baseline_and_divergence_still_reads() {
    let report = example_report("task-executor", "style-only");
    let mut old = serde_json::to_value(&report).unwrap();
    let fields = old.as_object_mut().unwrap();
    fields.remove("baseline");
    fields.remove("divergences");
    let read: ComparisonReport = serde_json::from_value(old).unwrap();
    assert_eq!((read.baseline, read.divergences), (None, vec![]));
    assert_eq!(read.runs, report.runs);
}

// The request bodies.

#[test]
fn every_model_call_has_its_openai_request_body() {
    let template = load_template("examples/task-executor.unfold.json");
    let scenario = Scenario::load(&repo("examples/lookup-first.scenario.json")).unwrap();
    let comparison = runtime()
        .block_on(compare(
            Lanes::new(&template, &scenario, &[Dynamic, Restart]),
            Drive { keep_requests: true, ..Drive::default() },
        ))
        .unwrap();
    let labels: Vec<&str> = comparison.requests.iter().map(|r| r.lane.name()).collect();
    assert_eq!(labels, ["dynamic", "restart", "baseline"]);
    let runs = comparison.report.runs.iter().chain(comparison.report.baseline.as_ref().map(|b| &b.run));
    for (requests, run) in comparison.requests.iter().zip(runs) {
        let offered: Vec<(u32, u32, Vec<String>)> = run
            .events
            .iter()
            .filter_map(|e| match &e.kind {
                unfold_engine::EventKind::ModelCall { call_index, tools_offered, .. } => {
                    Some((*call_index, e.attempt, tools_offered.clone()))
                }
                _ => None,
            })
            .collect();
        let sent: Vec<(u32, u32, Vec<String>)> =
            requests.calls.iter().map(|call| (call.call_index, call.attempt, tool_names(&call.body))).collect();
        assert_eq!(sent, offered, "{}", requests.lane.name());
        for call in &requests.calls {
            assert_eq!(call.body["messages"][0]["role"], "system");
            assert!(call.body.get("model").is_none(), "no model: a scripted run has none");
        }
    }
    // A restart starts again from the system prompt and the user's message.
    let restart = &comparison.requests[1].calls[2];
    assert_eq!((restart.call_index, restart.attempt, restart.body["messages"].as_array().unwrap().len()), (3, 2, 2));
    let mut dynamic_third = comparison.requests[0].calls[2].body.clone();
    dynamic_third["messages"][0]["content"] = json!("(the system prompt)");
    dynamic_third["tools"] = json!(tool_names(&dynamic_third));
    assert_json_snapshot!(dynamic_third, @r###"
    {
      "messages": [
        {
          "role": "system",
          "content": "(the system prompt)"
        },
        {
          "role": "user",
          "content": "Refactor the authentication module."
        },
        {
          "role": "assistant",
          "content": null,
          "tool_calls": [
            {
              "id": "call_0_0",
              "type": "function",
              "function": {
                "name": "lookup",
                "arguments": "{\"id\":7}"
              }
            }
          ]
        },
        {
          "role": "tool",
          "tool_call_id": "call_0_0",
          "content": "{\"id\":7,\"title\":\"Login fails\"}"
        },
        {
          "role": "assistant",
          "content": null,
          "tool_calls": [
            {
              "id": "call_1_0",
              "type": "function",
              "function": {
                "name": "read_section",
                "arguments": "{\"section_key\":\"context\"}"
              }
            }
          ]
        },
        {
          "role": "tool",
          "tool_call_id": "call_1_0",
          "content": "{\"content\":\"## 2 Project Context\\n\\nDetailed documentation for Acme:\\n- Architecture overview\\n- API reference\\n- Code conventions\\n\\n### 2.1 Examples\\n\\nExample: rotating session tokens.\\n\\n### 2.2 History\\n\\n2024: moved to OAuth.\\n\",\"expanded_tools\":[\"search\",\"cite\"]}"
        }
      ],
      "tools": [
        "lookup",
        "search",
        "cite",
        "read_section"
      ]
    }
    "###);
}

fn tool_names(body: &Value) -> Vec<String> {
    let tools = body.get("tools").and_then(Value::as_array).cloned().unwrap_or_default();
    tools.iter().map(|t| t["function"]["name"].as_str().unwrap_or_default().to_owned()).collect()
}

#[test]
fn request_files_are_named_by_run_and_call_and_sort_in_call_order() {
    let call = |call_index| unfold_engine::compare::CallRequest {
        call_index,
        attempt: 1,
        body: json!({ "messages": [] }),
        response: json!({ "role": "assistant", "content": "done" }),
    };
    let requests = vec![
        RunRequests { lane: Lane::DYNAMIC, calls: vec![call(1), call(2)] },
        RunRequests { lane: Lane::BASELINE, calls: vec![call(1)] },
    ];
    let files = request_files(&requests, Default::default(), None);
    let names: Vec<&str> = files.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(names, ["dynamic-call-001.json", "dynamic-call-002.json", "baseline-call-001.json"]);
    assert_eq!(files[0].1, "{\n  \"messages\": []\n}\n");
    // A real host's request is written as it sent it (a Responses body here), in any shape asked.
    let sent = json!({ "instructions": "Be brief.", "input": [], "tools": [] });
    let real = vec![RunRequests {
        lane: Lane::real_host("openai-agents"),
        calls: vec![unfold_engine::compare::CallRequest { body: sent.clone(), ..call(1) }],
    }];
    let files = request_files(&real, unfold_engine::request_shapes::RequestShape::AnthropicMessages, None);
    assert_eq!(files[0].0, "real-openai-agents-call-001.json");
    assert_eq!(serde_json::from_str::<Value>(&files[0].1).unwrap(), sent);
    let many = vec![RunRequests { lane: Lane::RESTART, calls: vec![call(7), call(1200)] }];
    let names: Vec<String> = request_files(&many, Default::default(), None).into_iter().map(|(name, _)| name).collect();
    assert_eq!(names, ["restart-call-0007.json", "restart-call-1200.json"]);
}

// Watching a comparison run, and cancelling it.

fn lookup_first() -> (Template, Scenario) {
    let template = load_template("examples/task-executor.unfold.json");
    (template, Scenario::load(&repo("examples/lookup-first.scenario.json")).unwrap())
}

#[test]
fn the_observer_hears_each_run_start_and_every_event_of_the_report_in_order() {
    let (template, scenario) = lookup_first();
    let mut heard = Vec::new();
    let mut observer = |p| heard.push(p);
    let drive = Drive { observer: Some(&mut observer), ..Drive::default() };
    let comparison = runtime().block_on(compare(Lanes::new(&template, &scenario, &[Dynamic, Restart]), drive)).unwrap();
    assert!(comparison.requests.is_empty(), "no request body is built when none is asked for");
    let report = &comparison.report;
    let runs = [(Lane::DYNAMIC, &report.runs[0]), (Lane::RESTART, &report.runs[1])]
        .into_iter()
        .chain(report.baseline.as_ref().map(|b| (Lane::BASELINE, &b.run)));
    let expected: Vec<CompareProgress> = runs
        .flat_map(|(lane, run)| {
            std::iter::once(CompareProgress::RunStarted { lane: lane.clone() }).chain(
                run.events
                    .iter()
                    .map(move |event| CompareProgress::Event { lane: lane.clone(), event: Box::new(event.clone()) }),
            )
        })
        .collect();
    assert_eq!(heard, expected);
    assert_eq!(comparison.report, crate::scripted_report(&template, &scenario, &[Dynamic, Restart]));
}

#[test]
fn each_call_keeps_the_answer_the_model_gave() {
    let (template, scenario) = lookup_first();
    let comparison = runtime()
        .block_on(compare(
            Lanes::new(&template, &scenario, &[Restart]),
            Drive { keep_requests: true, ..Drive::default() },
        ))
        .unwrap();
    let run = &comparison.report.runs[0];
    for call in &comparison.requests[0].calls {
        let asked: Vec<(String, Value)> = run
            .events
            .iter()
            .filter_map(|e| match &e.kind {
                EventKind::ToolCall { call_index, name, args, .. } if *call_index == call.call_index => {
                    Some((name.clone(), args.clone()))
                }
                _ => None,
            })
            .collect();
        let answered: Vec<(String, Value)> = call.response["tool_calls"]
            .as_array()
            .map(|calls| {
                calls
                    .iter()
                    .map(|c| {
                        let args = c["function"]["arguments"].as_str().unwrap();
                        (c["function"]["name"].as_str().unwrap().to_owned(), serde_json::from_str(args).unwrap())
                    })
                    .collect()
            })
            .unwrap_or_default();
        assert_eq!(call.response["role"], "assistant");
        // A restart drops the rest of its call's tool calls; this scenario makes one call a turn.
        assert_eq!(answered, asked, "call {}", call.call_index);
    }
    let last = comparison.requests[0].calls.last().unwrap();
    assert_eq!(last.response, json!({ "role": "assistant", "content": "Fixed the login flow." }));
    assert_eq!(comparison.call(&Lane::RESTART, 3).map(|c| c.attempt), Some(2));
    assert_eq!(comparison.call(&Lane::DYNAMIC, 1), None, "no dynamic run was asked for");
}

#[test]
fn cancelling_stops_the_comparison_before_its_next_model_call() {
    let (template, scenario) = lookup_first();
    let cancel = std::sync::atomic::AtomicBool::new(false);
    let mut heard = Vec::new();
    let mut observer = |progress: CompareProgress| {
        if matches!(&progress, CompareProgress::Event { event, .. } if matches!(event.kind, EventKind::ModelCall { call_index: 2, .. }))
        {
            cancel.store(true, std::sync::atomic::Ordering::Relaxed);
        }
        heard.push(progress);
    };
    let drive = Drive { observer: Some(&mut observer), cancel: Some(&cancel), keep_requests: true, ..Drive::default() };
    let outcome = runtime().block_on(compare(Lanes::new(&template, &scenario, &[Dynamic, Restart]), drive));
    assert!(matches!(outcome, Err(unfold_documents::Error::Cancelled)), "{outcome:?}");
    let model_calls = heard
        .iter()
        .filter(
            |p| matches!(p, CompareProgress::Event { event, .. } if matches!(event.kind, EventKind::ModelCall { .. })),
        )
        .count();
    assert_eq!(model_calls, 2, "no model call after the cancel");
    assert!(!heard.contains(&CompareProgress::RunStarted { lane: Lane::RESTART }), "the next run never starts");
}

/// The UI's tests replay this report (what `unfold compare --json` prints for the example and
/// lookup-first): it must be what the core makes. `UNFOLD_BLESS=1` rewrites it.
#[test]
fn the_ui_fixture_report_is_what_compare_makes() {
    let (template, scenario) = lookup_first();
    let report = crate::scripted_report(&template, &scenario, &[Dynamic, Restart]);
    let fresh = serde_json::to_string_pretty(&report).unwrap() + "\n";
    let path = repo("ui/src/testing/fixtures/lookup-first.report.json");
    if std::env::var_os("UNFOLD_BLESS").is_some_and(|v| v == "1") {
        std::fs::write(&path, &fresh).unwrap();
    }
    assert!(
        std::fs::read_to_string(&path).unwrap_or_default() == fresh,
        "{} is stale: run `UNFOLD_BLESS=1 cargo test -p unfold-engine fixture` and commit it",
        path.display()
    );
}
