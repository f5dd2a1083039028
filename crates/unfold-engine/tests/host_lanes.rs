//! Host lanes (spec 12): a host profile's behaviour run as a lane beside the adapters, named
//! `host:NAME` in the report, its divergences, verdict, savings and request files.

use unfold_documents::host_profile::{HostProfile, ToolNames, ToolOrder};
use unfold_documents::refresh::Refresh;
use unfold_engine::compare::{request_files, Lane, LaneSpec};
use unfold_engine::request_shapes::RequestShape;
use unfold_engine::{compare, AdapterKind, Drive, Lanes, ToolPolicy};

fn host(name: &str) -> LaneSpec {
    LaneSpec::Host(Box::new(HostProfile::preset(name).unwrap().clone()))
}

#[test]
fn host_lanes_run_beside_the_adapters_and_are_named_everywhere() {
    let template = crate::adapters::fixture();
    let scenario = crate::adapters::search_in_two_turns();
    let lanes = vec![LaneSpec::Adapter(AdapterKind::Dynamic), host("claude-code"), host("codex"), host("copilot-cli")];
    let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
    let drive = Drive { keep_requests: true, ..Drive::default() };
    let comparison = runtime.block_on(compare(Lanes::of(&template, &scenario, lanes), drive)).unwrap();
    let report = &comparison.report;

    let names: Vec<String> = report.runs.iter().map(|run| run.lane().to_string()).collect();
    assert_eq!(names, ["dynamic", "host:claude-code", "host:codex", "host:copilot-cli"]);
    assert!(report.runs.iter().all(|run| run.adapter == AdapterKind::Dynamic), "every preset here injects");
    let summary: Vec<String> = report.runs[1..]
        .iter()
        .map(|run| {
            let counters = &run.counters;
            format!(
                "{}: failed calls {}, never shown {}",
                run.lane(),
                counters.failed_tool_calls,
                counters.tools_never_shown
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            "host:claude-code: failed calls 1, never shown 0",
            "host:codex: failed calls 2, never shown 1",
            "host:copilot-cli: failed calls 1, never shown 0"
        ]
    );
    // Each host lane runs as its strategy's adapter under its refresh policy and tool order:
    // Claude Code a call late and sorted; Codex without its list-changed feature never shows the
    // revealed tool (both searches fail); Copilot CLI at the next user turn.
    let behaviours = [
        (Refresh::Late(1), ToolOrder::Sorted, ToolNames::McpPrefixed),
        (Refresh::Never, ToolOrder::Append, ToolNames::Plain),
        (Refresh::NextTurn, ToolOrder::Append, ToolNames::Plain),
    ];
    for (run, (refresh, order, names)) in report.runs[1..].iter().zip(behaviours) {
        let policy = ToolPolicy { refresh: Some(refresh), order, names, ..ToolPolicy::default() };
        let alone = crate::adapters::run_injecting(&template, &scenario, policy);
        assert_eq!(run.events, alone.events, "{}", run.lane());
    }

    let against: Vec<(&str, &str)> = report.divergences.iter().map(|d| (d.left.name(), d.right.name())).collect();
    assert_eq!(against, [("dynamic", "host:claude-code"), ("dynamic", "host:codex"), ("dynamic", "host:copilot-cli")]);
    let saved: Vec<&str> = report.baseline.as_ref().unwrap().savings.iter().map(|s| s.adapter.name()).collect();
    assert_eq!(saved, names);
    // The hosts that show the tool late or never send fewer tokens than the dynamic lane, but
    // their searches fail: the verdict does not call that a saving (on this small template
    // all-FULL is cheapest of the lanes that did the work).
    let verdict = report.verdict.as_ref().unwrap();
    assert_eq!(verdict.winner.as_deref(), Some("all-FULL"), "{verdict:?}");
    let codex = verdict.lanes.iter().find(|lane| lane.lane == "host:codex").unwrap();
    assert!(codex.prompt_tokens.change < verdict.lanes[0].prompt_tokens.change, "{verdict:?}");
    assert_eq!(codex.standing, unfold_engine::verdict::Standing::Failed);
    assert!(
        codex
            .because
            .starts_with("2 tool calls failed that succeeded in all-FULL: it never showed the model 1 revealed tool"),
        "{}",
        codex.because
    );

    let files: Vec<String> =
        request_files(&comparison.requests, RequestShape::OpenAiChat, None).into_iter().map(|(name, _)| name).collect();
    assert!(files.contains(&"host-claude-code-call-001.json".to_owned()), "{files:?}");
    assert!(comparison.call(&Lane::host("codex"), 1).is_some());
    let reread: unfold_engine::ComparisonReport =
        serde_json::from_value(serde_json::to_value(report).unwrap()).unwrap();
    assert_eq!(&reread, report, "a report with host lanes reads back as it was written");
}

/// A host of `api` that defers hidden tools, from a file of its own.
fn deferring_host(name: &str, api: &str) -> LaneSpec {
    let profile = serde_json::json!({
        "schema_version": 1, "kind": "unfold.host", "name": name, "host": name,
        "api": api, "strategy": "deferred", "refresh": "next_call",
        "evidence": [ { "source": "https://developers.openai.com/api/docs/guides/tools-tool-search", "note": "a test" } ]
    });
    LaneSpec::Host(Box::new(HostProfile::from_json(profile.to_string().as_bytes()).unwrap()))
}

#[test]
fn an_openai_host_counts_its_deferred_tools_names_and_descriptions_from_the_first_call() {
    use unfold_engine::EventKind;
    let template = unfold_test_support::load_template("examples/task-executor.unfold.json");
    let scenario =
        unfold_documents::Scenario::load(&unfold_test_support::repo("examples/read-context-then-search.scenario.json"))
            .unwrap();
    let lanes = vec![deferring_host("on-anthropic", "anthropic"), deferring_host("on-openai", "openai-responses")];
    let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
    let report = runtime.block_on(compare(Lanes::of(&template, &scenario, lanes), Drive::default())).unwrap().report;
    let prompts = |index: usize| -> Vec<u64> {
        let events = report.runs[index].events.iter();
        events
            .filter_map(|event| match &event.kind {
                EventKind::ModelCall { prompt_tokens, .. } => Some(*prompt_tokens),
                _ => None,
            })
            .collect()
    };
    let (anthropic, openai) = (prompts(0), prompts(1));
    assert_eq!(anthropic.len(), openai.len(), "the same run: {anthropic:?} {openai:?}");
    // The context section's tools, `search` and `cite`, as OpenAI lists them before loading.
    let every = unfold_engine::Session::new(&template, Default::default()).unwrap().every_tool().unwrap();
    let briefs: Vec<serde_json::Value> = every
        .iter()
        .filter(|tool| ["search", "cite"].contains(&tool.name.as_str()))
        .map(|tool| serde_json::json!({ "name": tool.name, "description": tool.description }))
        .collect();
    let extra: Vec<u64> = anthropic.iter().zip(&openai).map(|(a, o)| o - a).collect();
    assert!(extra.iter().all(|e| *e > 0 && *e == extra[0]), "the same names and descriptions each call: {extra:?}");
    let expected = unfold_engine::tokens::count_text(&serde_json::to_string(&briefs).unwrap());
    assert!(extra[0].abs_diff(expected) <= 3, "{extra:?} against about {expected} for {briefs:?}");
}
