//! A fork of a recorded run at one of its events (spec 15): with no change it is the run again,
//! at every event and under every adapter; a changed result or a section read at the event is
//! where the fork's conversation leaves its parent's; a live model is not asked for the part
//! before the event; and what cannot be forked is refused in words.

use serde_json::json;
use unfold_documents::{Scenario, Template};
use unfold_engine::compare::{Drive, LaneModel, Lanes};
use unfold_engine::fork::{ChangedResult, Fork, ForkChange};
use unfold_engine::{
    compare, AdapterKind, EventKind, ModelRequest, ModelResponse, Provider, RunReport, ScriptedProvider,
};

use unfold_test_support::{load_template, repo};

use AdapterKind::{AllowedTools, Deferred, Dynamic, Restart};

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().build().unwrap()
}

fn example(template: &str, scenario: &str) -> (Template, Scenario) {
    let template = load_template(&format!("examples/{template}.unfold.json"));
    let scenario = Scenario::load(&repo(&format!("examples/{scenario}.scenario.json"))).unwrap();
    (template, scenario)
}

/// Each lane of `adapters` run with the script, from `fork` if given.
fn runs(template: &Template, scenario: &Scenario, adapters: &[AdapterKind], fork: Option<&Fork>) -> Vec<RunReport> {
    let drive = Drive { fork, no_baseline: true, ..Drive::default() };
    let compared = runtime().block_on(compare(Lanes::new(template, scenario, adapters), drive));
    compared.unwrap_or_else(|error| panic!("{error}")).report.runs
}

fn tool_calls(run: &RunReport) -> Vec<(String, String, String)> {
    run.events
        .iter()
        .filter_map(|event| match &event.kind {
            EventKind::ToolCall { call_id, name, result, .. } => {
                Some((call_id.clone(), name.clone(), result.to_string()))
            }
            _ => None,
        })
        .collect()
}

#[test]
fn a_fork_with_no_change_is_its_parent_again_at_every_event_under_every_adapter() {
    let examples = [
        ("task-executor", "lookup-first"),
        ("coding-agent", "coding-agent-fix-test"),
        ("support-agent", "support-agent-refund"),
        // Two user turns: a fork after the first turn's reply replays its words.
        ("coding-agent", "coding-agent-two-turns"),
    ];
    let mut forks = 0;
    for (template, scenario) in examples {
        let (template, scenario) = example(template, scenario);
        for adapter in [Dynamic, Restart, AllowedTools, Deferred] {
            let parent = runs(&template, &scenario, &[adapter], None).remove(0);
            for event in &parent.events {
                let fork = Fork::at(&parent, event.seq, ForkChange::default()).unwrap();
                let forked = runs(&template, &scenario, &[adapter], Some(&fork)).remove(0);
                assert_eq!(forked.events, parent.events, "{} {} at {}", scenario.name, adapter.name(), event.seq);
                forks += 1;
            }
        }
    }
    assert!(forks > 100, "{forks}");
}

#[test]
fn a_changed_result_is_given_at_the_event_and_each_time_a_restart_makes_the_call_again() {
    let (template, scenario) = example("task-executor", "lookup-first");
    let parent = runs(&template, &scenario, &[Restart], None).remove(0);
    let lookup = parent
        .events
        .iter()
        .find(|event| matches!(&event.kind, EventKind::ToolCall { name, .. } if name == "lookup"))
        .unwrap();
    let EventKind::ToolCall { call_id, .. } = &lookup.kind else { unreachable!() };
    let change = ForkChange {
        results: vec![ChangedResult { call_id: call_id.clone(), result: json!({ "error": "not found" }) }],
        expand: Vec::new(),
    };
    let fork = Fork::at(&parent, lookup.seq, change).unwrap();
    let forked = runs(&template, &scenario, &[Restart, Dynamic], Some(&fork));
    for run in &forked {
        let lookups: Vec<_> = tool_calls(run).into_iter().filter(|(_, name, _)| name == "lookup").collect();
        assert!(!lookups.is_empty());
        assert!(lookups.iter().all(|(_, _, result)| result == r#"{"error":"not found"}"#), "{lookups:?}");
    }
    // Before the event, the conversation is the parent's.
    assert_eq!(forked[0].events[..lookup.seq as usize], parent.events[..lookup.seq as usize]);
    // The restart lane made the call again after its restart: given the change both times.
    let restart_lookups = tool_calls(&forked[0]).into_iter().filter(|(_, name, _)| name == "lookup").count();
    assert_eq!(restart_lookups, tool_calls(&parent).into_iter().filter(|(_, name, _)| name == "lookup").count());
}

#[test]
fn a_section_read_at_the_event_is_read_before_the_model_answers() {
    let (template, scenario) = example("task-executor", "lookup-first");
    let parent = runs(&template, &scenario, &[Dynamic], None).remove(0);
    let first_call = parent.events.iter().find(|event| matches!(event.kind, EventKind::ModelCall { .. })).unwrap();
    let change = ForkChange { results: Vec::new(), expand: vec!["context".to_owned()] };
    let fork = Fork::at(&parent, first_call.seq, change).unwrap();
    assert_eq!(fork.replayed_calls(), 0);
    let forked = runs(&template, &scenario, &[Dynamic], Some(&fork)).remove(0);
    let calls: Vec<(String, String)> = tool_calls(&forked).into_iter().map(|(id, name, _)| (id, name)).collect();
    assert_eq!(calls[0], ("fork_read_1".to_owned(), "read_section".to_owned()), "{calls:?}");
    // Its tools are offered from the model's first answer of its own.
    let offered = forked.events.iter().filter_map(|event| match &event.kind {
        EventKind::ModelCall { tools_offered, .. } => Some(tools_offered),
        _ => None,
    });
    assert!(offered.clone().nth(1).unwrap().contains(&"search".to_owned()), "{:?}", offered.collect::<Vec<_>>());
    assert!(!parent.events.iter().any(|event| matches!(&event.kind, EventKind::ModelCall { call_index: 2, tools_offered, .. } if tools_offered.contains(&"search".to_owned()))));
}

#[test]
fn a_fork_of_a_fork_is_that_fork_again() {
    let (template, scenario) = example("coding-agent", "coding-agent-fix-test");
    let parent = runs(&template, &scenario, &[Dynamic], None).remove(0);
    let tool_call =
        parent.events.iter().filter(|event| matches!(event.kind, EventKind::ToolCall { .. })).nth(2).unwrap();
    let EventKind::ToolCall { call_id, .. } = &tool_call.kind else { unreachable!() };
    let change = ForkChange {
        results: vec![ChangedResult { call_id: call_id.clone(), result: json!("changed") }],
        expand: Vec::new(),
    };
    let first =
        runs(&template, &scenario, &[Dynamic], Some(&Fork::at(&parent, tool_call.seq, change).unwrap())).remove(0);
    assert_ne!(first.events, parent.events);
    let last = first.events.last().unwrap().seq;
    // After the change: at it, the fork of the fork is answered as the script says.
    for seq in [tool_call.seq + 1, last] {
        let again = Fork::at(&first, seq, ForkChange::default()).unwrap();
        assert_eq!(runs(&template, &scenario, &[Dynamic], Some(&again)).remove(0).events, first.events, "at {seq}");
    }
}

/// The scripted model, counting the calls it answers.
struct Counting {
    inner: ScriptedProvider,
    calls: std::sync::Arc<std::sync::atomic::AtomicUsize>,
}

#[async_trait::async_trait]
impl Provider for Counting {
    async fn complete(&mut self, request: &ModelRequest<'_>) -> unfold_documents::Result<ModelResponse> {
        self.calls.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        self.inner.complete(request).await
    }
}

#[test]
fn the_model_is_not_asked_for_the_calls_before_the_event() {
    let (template, scenario) = example("coding-agent", "coding-agent-fix-test");
    let parent = runs(&template, &scenario, &[Dynamic], None).remove(0);
    let model_calls: Vec<u32> = parent
        .events
        .iter()
        .filter(|event| matches!(event.kind, EventKind::ModelCall { .. }))
        .map(|event| event.seq)
        .collect();
    let at = model_calls[3];
    let fork = Fork::at(&parent, at, ForkChange::default()).unwrap();
    assert_eq!(fork.replayed_calls(), 3);
    let calls = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let mut models = |_| -> unfold_documents::Result<Box<dyn Provider + Send>> {
        Ok(Box::new(Counting { inner: ScriptedProvider::new(&scenario, &template), calls: calls.clone() }))
    };
    let drive = Drive { model: LaneModel::Live(&mut models), fork: Some(&fork), ..Drive::default() };
    let forked = runtime().block_on(compare(Lanes::new(&template, &scenario, &[Dynamic]), drive)).unwrap();
    assert_eq!(forked.report.runs[0].events, parent.events);
    assert_eq!(calls.load(std::sync::atomic::Ordering::SeqCst), model_calls.len() - 3);
}

#[test]
fn what_cannot_be_forked_is_refused_in_words() {
    let (template, scenario) = example("task-executor", "lookup-first");
    let parent = runs(&template, &scenario, &[Dynamic], None).remove(0);
    let last = parent.events.last().unwrap().seq;
    let no_event = Fork::at(&parent, last + 1, ForkChange::default()).unwrap_err();
    assert_eq!(no_event, format!("the run has no event {}: its events are 0 to {last}", last + 1));
    let calls = tool_calls(&parent);
    let lookup_seq = parent
        .events
        .iter()
        .position(|e| matches!(&e.kind, EventKind::ToolCall { name, .. } if name == "lookup"))
        .unwrap();
    let after_lookup = lookup_seq as u32 + 1;
    let change = |id: &str| ForkChange {
        results: vec![ChangedResult { call_id: id.to_owned(), result: json!(1) }],
        expand: Vec::new(),
    };
    let answered = Fork::at(&parent, after_lookup, change(&calls[0].0)).unwrap_err();
    assert!(
        answered.starts_with(&format!("{} is not a tool call of the run at or after event {after_lookup}", calls[0].0)),
        "{answered}"
    );
    let read = calls.iter().find(|(_, name, _)| name == "read_section").unwrap();
    let builtin = Fork::at(&parent, after_lookup, change(&read.0)).unwrap_err();
    assert!(
        builtin.contains("calls read_section, which the fork's session answers: fork with --expand instead"),
        "{builtin}"
    );
}

#[test]
fn a_report_written_before_answers_kept_their_words_forks_only_before_an_earlier_turns_reply() {
    let (template, scenario) = example("coding-agent", "coding-agent-two-turns");
    let mut parent = runs(&template, &scenario, &[Dynamic], None).remove(0);
    for event in &mut parent.events {
        if let EventKind::ModelCall { text, .. } = &mut event.kind {
            *text = None;
        }
    }
    let second_turn = parent.events.iter().find(|event| matches!(event.kind, EventKind::UserTurn { .. })).unwrap();
    let refused = Fork::at(&parent, second_turn.seq + 1, ForkChange::default()).unwrap_err();
    assert!(refused.contains("recorded before Unfold kept the words of each answer"), "{refused}");
    // Before the first turn's reply it forks.
    let fork = Fork::at(&parent, 1, ForkChange::default()).unwrap();
    let again = runs(&template, &scenario, &[Dynamic], Some(&fork)).remove(0);
    assert_eq!(again.final_text, parent.final_text);
    assert_eq!(again.counters, parent.counters);
}

fn prompt_tokens(run: &RunReport) -> Vec<u64> {
    run.events
        .iter()
        .filter_map(|event| match event.kind {
            EventKind::ModelCall { prompt_tokens, .. } => Some(prompt_tokens),
            _ => None,
        })
        .collect()
}

#[test]
fn a_call_made_again_after_the_event_is_changed_and_its_recorded_answer_before_it_kept() {
    // Restart's run looks issue 7 up (seq 2), restarts, and looks it up again (seq 8).
    let (template, scenario) = example("task-executor", "lookup-first");
    let parent = runs(&template, &scenario, &[Restart], None).remove(0);
    let lookups: Vec<&unfold_engine::Event> = parent
        .events
        .iter()
        .filter(|event| matches!(&event.kind, EventKind::ToolCall { name, .. } if name == "lookup"))
        .collect();
    assert_eq!(lookups.len(), 2);
    let EventKind::ToolCall { call_id, result: recorded, .. } = &lookups[0].kind else { unreachable!() };
    let change = ForkChange {
        results: vec![ChangedResult { call_id: call_id.clone(), result: json!("changed") }],
        expand: Vec::new(),
    };
    let fork = Fork::at(&parent, lookups[1].seq, change).unwrap();
    let forked = runs(&template, &scenario, &[Restart, Deferred], Some(&fork));
    let results = |run: &RunReport| -> Vec<String> {
        tool_calls(run).into_iter().filter(|(_, name, _)| name == "lookup").map(|(_, _, result)| result).collect()
    };
    assert_eq!(results(&forked[0]), [recorded.to_string(), "\"changed\"".to_owned()]);
    // Deferred goes on from restart's answers (both lookups), its prompts its own: they are counted
    // again, not copied from restart's calls.
    assert_eq!(results(&forked[1]), [recorded.to_string(), "\"changed\"".to_owned()]);
    assert_eq!(prompt_tokens(&forked[0])[..3], prompt_tokens(&parent)[..3]);
    assert_ne!(prompt_tokens(&forked[1])[2], prompt_tokens(&parent)[2], "{:?}", prompt_tokens(&forked[1]));
}

#[test]
fn a_real_hosts_server_answers_each_tools_calls_in_turn_as_recorded_as_changed_then_as_scripted() {
    use unfold_documents::tool::ScriptedResult::Result as Gives;
    let (template, mut scenario) = example("coding-agent", "coding-agent-fix-test");
    let scripted = ["first", "second", "third"].map(|result| Gives(json!(result)));
    scenario.tool_results.insert("run_tests".to_owned(), scripted.to_vec());
    let parent = runs(&template, &scenario, &[Dynamic], None).remove(0);
    let (seq, call_id) = parent
        .events
        .iter()
        .find_map(|event| match &event.kind {
            EventKind::ToolCall { name, call_id, .. } if name == "run_tests" => Some((event.seq, call_id.clone())),
            _ => None,
        })
        .unwrap();
    let change = ForkChange { results: vec![ChangedResult { call_id, result: json!("changed") }], expand: Vec::new() };
    let host_scenario = Fork::at(&parent, seq, change).unwrap().scenario_for_host(&scenario, &template);

    // The server is told no call's id: it answers a tool's calls in the order they come.
    let mut server = unfold_engine::ScriptedToolResults::new(&host_scenario);
    let tool = |name: &str| template.all_tools().into_iter().find(|tool| tool.name == name).unwrap().clone();
    let run_tests: Vec<_> = (0..5).map(|_| server.next(&tool("run_tests")).unwrap()).collect();
    assert_eq!(run_tests, ["changed", "second", "third", "third", "third"].map(|result| json!(result)));
    // A call made before the event is given its recorded result; made again, the tool's own.
    let (_, _, recorded) = tool_calls(&parent).into_iter().find(|(_, name, _)| name == "read_file").unwrap();
    assert_eq!(server.next(&tool("read_file")).unwrap().to_string(), recorded);
    let mock = match tool("read_file").mock {
        Some(Gives(value)) => value,
        other => panic!("read_file's mock: {other:?}"),
    };
    assert_eq!(server.next(&tool("read_file")).unwrap(), mock);
    // A tool called only after the event, its result not changed, is as the scenario has it.
    assert!(tool_calls(&parent).iter().any(|(_, name, _)| name == "format_files"));
    assert!(!host_scenario.tool_results.contains_key("format_files"), "{:?}", host_scenario.tool_results.keys());
}
