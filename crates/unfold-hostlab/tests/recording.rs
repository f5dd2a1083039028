//! A host run's two logs told as a run: a recording written by hand in the logs' own format
//! (`tests/recording/`), where the host listed tools, sent a side request, ran an answer's two
//! calls out of order, and never offered one revealed tool.

use unfold_documents::host_profile::HostApi;
use unfold_engine::prompt_prefix::PrefixBreak;
use unfold_engine::{EventKind, RealHost, RunStatus};
use unfold_hostlab::recording::{prompt_shape, HostOutcome, Recording};

fn recording() -> Recording {
    let read = |name: &str| {
        let path = unfold_test_support::repo(&format!("crates/unfold-hostlab/tests/recording/{name}"));
        Recording::entries(&std::fs::read_to_string(path).unwrap())
    };
    Recording { model: read("model.jsonl"), mcp: read("mcp.jsonl") }
}

fn ended_well() -> HostOutcome {
    let host =
        RealHost { name: "command".into(), version: None, ended: "exited with status 0".into(), side_requests: 0 };
    HostOutcome { host, succeeded: true, failure: None }
}

#[test]
fn the_logs_become_the_hosts_run_in_the_order_things_happened() {
    let run = recording().run_report("task-executor", ended_well());
    assert_eq!(run.status, RunStatus::Completed);
    assert_eq!(run.final_text.as_deref(), Some("Done: see auth.md."));
    assert_eq!(
        run.real_host.as_ref().map(|host| host.side_requests),
        Some(1),
        "the title request is counted, not told"
    );
    insta::assert_snapshot!(unfold_test_support::trace(&run), @r###"
      listed [lookup, read_section]
    call 1 [lookup, read_section]
      read_section {"section_key":"context"} -> ok content "## 2 Project Context", expanded_tools ["search","cite"]
      visibility [context]
      pending +[cite] -[] ~[] "never"
      listed [lookup, search, cite, read_section]
      injected [search] from context
    call 2 [lookup, search, read_section]
      search {"query":"auth"} -> ok "3 hits"
      lookup {"key":"auth"} -> ok {"found":true}
    call 3 [lookup, search, read_section]
      not shown cite: not called
    completed "Done: see auth.md."
    "###);
    assert_eq!((run.counters.model_calls, run.counters.calls_not_made, run.counters.tools_never_shown), (3, 1, 1));
}

#[test]
fn the_prompt_cache_breaks_where_the_hosts_bytes_changed() {
    let run = recording().run_report("task-executor", ended_well());
    let breaks: Vec<Option<PrefixBreak>> = run
        .events
        .iter()
        .filter_map(|event| match &event.kind {
            EventKind::ModelCall { prefix, .. } => Some(prefix.as_ref().and_then(|prefix| prefix.broke)),
            _ => None,
        })
        .collect();
    assert_eq!(breaks, [None, Some(PrefixBreak::ToolsChanged), None], "search joined the tools at call 2");
}

#[test]
fn a_host_that_failed_says_why_and_one_that_never_called_says_so() {
    let failed = HostOutcome {
        host: RealHost { name: "command".into(), ..RealHost::default() },
        succeeded: false,
        failure: Some("command exited with status 3: no key".into()),
    };
    let run = recording().run_report("task-executor", failed);
    assert_eq!(run.status, RunStatus::Error);
    let Some(EventKind::RunCompleted { error, .. }) = run.events.last().map(|event| &event.kind) else { panic!() };
    assert_eq!(error.as_deref(), Some("command exited with status 3: no key"));

    let silent = Recording::default().run_report("task-executor", ended_well());
    assert_eq!(silent.status, RunStatus::Error);
    let Some(EventKind::RunCompleted { error, .. }) = silent.events.last().map(|event| &event.kind) else { panic!() };
    assert_eq!(error.as_deref(), Some("command never called the model"));
}

#[test]
fn a_cache_breakpoint_moved_to_the_newest_message_breaks_no_prefix() {
    // Claude Code marks its newest message for the cache at every request: the marker moves, the
    // messages before it stay what they were, and so does the cached prefix.
    let user = |text: &str, marked: bool| {
        let mut block = serde_json::json!({ "type": "text", "text": text });
        if marked {
            block["cache_control"] = serde_json::json!({ "type": "ephemeral" });
        }
        serde_json::json!({ "role": "user", "content": [block] })
    };
    let system =
        serde_json::json!([{ "type": "text", "text": "You fix bugs.", "cache_control": { "type": "ephemeral" } }]);
    let first = serde_json::json!({ "system": system, "messages": [user("Fix it.", true)] });
    let second = serde_json::json!({ "system": system, "messages": [user("Fix it.", false), user("Go on.", true)] });
    let (first, second) = (prompt_shape(HostApi::Anthropic, &first), prompt_shape(HostApi::Anthropic, &second));
    assert_eq!(first.system, second.system);
    assert_eq!(first.messages[0], second.messages[0], "the first message is the same text, marked or not");
}
