//! The `allowed_tools`, `deferred` and `tool_addition` adapters (spec 10, 12) on the bundled task
//! executor, worked by hand against the dynamic run of the same scenario: what each sends, what
//! the model may call, what each call costs in prompt tokens and where the shared prompt start
//! breaks.

use unfold_documents::tool::OfferedTool;
use unfold_documents::Scenario;
use unfold_engine::compare::{compare, Drive, Lanes};
use unfold_engine::events::ToolDelivery;
use unfold_engine::prompt_prefix::PrefixBreak;
use unfold_engine::{tokens, AdapterKind, ComparisonReport, EventKind, RunReport, RunStatus, Session};
use unfold_test_support::{load_template, repo, scenario, trace};

use AdapterKind::{AllowedTools, Deferred, Dynamic, Restart, ToolAddition};

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().build().unwrap()
}

fn every_adapter(scenario: &Scenario) -> unfold_engine::compare::Comparison {
    let template = load_template("examples/task-executor.unfold.json");
    runtime()
        .block_on(compare(
            Lanes::new(&template, scenario, &AdapterKind::ALL),
            Drive { keep_requests: true, ..Drive::default() },
        ))
        .unwrap()
}

fn read_then_search() -> Scenario {
    Scenario::load(&repo("examples/read-context-then-search.scenario.json")).unwrap()
}

fn run(report: &ComparisonReport, adapter: AdapterKind) -> &RunReport {
    report.runs.iter().find(|run| run.adapter == adapter).unwrap()
}

/// Each model call's prompt tokens, tools offered (callable) and prefix break.
fn calls(run: &RunReport) -> Vec<(u64, Vec<String>, Option<PrefixBreak>)> {
    run.events
        .iter()
        .filter_map(|event| match &event.kind {
            EventKind::ModelCall { prompt_tokens, tools_offered, prefix, .. } => {
                Some((*prompt_tokens, tools_offered.clone(), prefix.as_ref().unwrap().broke))
            }
            _ => None,
        })
        .collect()
}

/// The definitions of the task executor's tools named `names`, as offered before any pick.
fn definitions(names: &[&str]) -> Vec<OfferedTool> {
    let template = load_template("examples/task-executor.unfold.json");
    let every = Session::new(&template, Default::default()).unwrap().every_tool().unwrap();
    names.iter().map(|name| every.iter().find(|t| t.name == *name).unwrap().clone()).collect()
}

#[test]
fn a_comparison_takes_every_adapter_with_one_lane_and_one_divergence_each() {
    let report = every_adapter(&read_then_search()).report;
    let adapters: Vec<AdapterKind> = report.runs.iter().map(|run| run.adapter).collect();
    assert_eq!(adapters, [Dynamic, Restart, AllowedTools, Deferred, ToolAddition]);
    assert!(report.runs.iter().all(|run| run.status == RunStatus::Completed));
    let pairs: Vec<(&str, &str)> = report.divergences.iter().map(|d| (d.left.name(), d.right.name())).collect();
    assert_eq!(
        pairs,
        [("dynamic", "restart"), ("dynamic", "allowed_tools"), ("dynamic", "deferred"), ("dynamic", "tool_addition")]
    );
    // No adapter but restart restarts: they make the dynamic run's calls with its results.
    assert!(report.divergences[0].first.is_some());
    assert!(report.divergences[1..].iter().all(|d| d.first.is_none()));
    let savings = report.baseline.unwrap().savings;
    assert!(savings.iter().map(|s| &s.adapter).eq(&adapters), "{savings:?}");
}

#[test]
fn allowed_tools_sends_every_tool_from_the_first_call_and_widens_the_callable_subset() {
    let comparison = every_adapter(&read_then_search());
    let allowed = run(&comparison.report, AllowedTools);
    let dynamic = run(&comparison.report, Dynamic);
    let lines: Vec<String> =
        trace(allowed).lines().filter(|line| !line.contains("read_section {")).map(str::to_owned).collect();
    assert_eq!(
        lines,
        [
            "call 1 [lookup, read_section]",
            "  visibility [context]",
            "  allowed [search, cite] from context",
            "call 2 [lookup, search, cite, read_section]",
            "  search {\"query\":\"session tokens\"} -> ok \"3 hits: auth.md, session.md, tokens.md\"",
            "call 3 [lookup, search, cite, read_section]",
            "completed \"Plan: rotate session tokens.\"",
        ]
    );
    // Every call sends the same list, so the prompt start never breaks; the dynamic run's does
    // when it injects.
    assert!(calls(allowed).iter().all(|(_, _, broke)| broke.is_none()));
    assert_eq!(calls(dynamic)[1].2, Some(PrefixBreak::ToolsChanged));
    let bodies = &comparison.requests.iter().find(|r| r.lane.name() == "allowed_tools").unwrap().calls;
    let sent = |call: usize| -> Vec<String> {
        let tools = bodies[call].body["tools"].as_array().unwrap();
        tools.iter().map(|t| t["function"]["name"].as_str().unwrap().to_owned()).collect()
    };
    assert_eq!(sent(0), ["lookup", "search", "cite", "read_section"]);
    assert_eq!(sent(0), sent(2));
    let choice = |call: usize| bodies[call].body["tool_choice"].clone();
    assert_eq!(choice(0)["type"], "allowed_tools");
    assert_eq!(choice(0)["allowed_tools"]["mode"], "auto");
    let allowed_names = |call: usize| -> Vec<String> {
        let tools = choice(call)["allowed_tools"]["tools"].as_array().unwrap().clone();
        tools.iter().map(|t| t["function"]["name"].as_str().unwrap().to_owned()).collect()
    };
    assert_eq!(allowed_names(0), ["lookup", "read_section"]);
    assert_eq!(allowed_names(1), ["lookup", "search", "cite", "read_section"]);
}

#[test]
fn allowed_tools_first_call_costs_the_dynamic_one_plus_the_hidden_definitions_and_the_subset() {
    let report = every_adapter(&read_then_search()).report;
    let (allowed, dynamic) = (calls(run(&report, AllowedTools)), calls(run(&report, Dynamic)));
    let everything = definitions(&["lookup", "search", "cite"]);
    let shown = definitions(&["lookup"]);
    let with_builtin = |mut tools: Vec<OfferedTool>| {
        tools.push(unfold_documents::tool::Builtin::ReadSection.offered());
        tokens::count_tools(&tools)
    };
    let subset = tokens::count_text(r#"["lookup","read_section"]"#);
    let by_hand = dynamic[0].0 - with_builtin(shown) + with_builtin(everything) + subset;
    assert_eq!(allowed[0].0, by_hand);
}

#[test]
fn deferred_costs_a_hidden_tool_nothing_until_a_result_loads_it_and_keeps_the_prompt_start() {
    let comparison = every_adapter(&read_then_search());
    let deferred = run(&comparison.report, Deferred);
    let dynamic = run(&comparison.report, Dynamic);
    let deliveries: Vec<ToolDelivery> = deferred
        .events
        .iter()
        .filter_map(|event| match &event.kind {
            EventKind::ToolsInjected { delivery, .. } => Some(*delivery),
            _ => None,
        })
        .collect();
    assert_eq!(deliveries, [ToolDelivery::Referenced]);
    assert!(
        trace(deferred).contains("  loaded [search, cite] from context\ncall 2 [lookup, search, cite, read_section]")
    );
    let (deferred_calls, dynamic_calls) = (calls(deferred), calls(dynamic));
    // Call 1 sends the dynamic call's listed tools and system prompt, and nothing else counts.
    assert_eq!(deferred_calls[0].0, dynamic_calls[0].0);
    assert!(deferred_calls.iter().all(|(_, _, broke)| broke.is_none()));
    // Call 2: the two definitions are in the result that loaded them, no longer in the tool list.
    let loaded = tokens::count_tools(&definitions(&["search", "cite"]));
    let listed_then = |names: &[&str]| {
        let mut tools = definitions(names);
        tools.push(unfold_documents::tool::Builtin::ReadSection.offered());
        tokens::count_tools(&tools)
    };
    let by_hand = dynamic_calls[1].0 - listed_then(&["lookup", "search", "cite"]) + listed_then(&["lookup"]) + loaded;
    assert_eq!(deferred_calls[1].0, by_hand);
    let bodies = &comparison.requests.iter().find(|r| r.lane.name() == "deferred").unwrap().calls;
    let tools = bodies[0].body["tools"].as_array().unwrap();
    let deferred_names: Vec<&str> =
        tools.iter().filter(|t| t["defer_loading"] == true).map(|t| t["function"]["name"].as_str().unwrap()).collect();
    assert_eq!(deferred_names, ["search", "cite"]);
    let result = &bodies[1].body["messages"].as_array().unwrap()[3];
    assert_eq!(result["tool_references"], serde_json::json!(["search", "cite"]));
    assert_eq!(bodies[0].body["tools"], bodies[2].body["tools"]);
}

#[test]
fn a_hidden_tool_called_before_its_section_is_read_fails_with_the_section_to_read() {
    let early = scenario(serde_json::json!({
        "name": "search-first",
        "user": "Find the token docs.",
        "script": [
            { "call": "search", "args": { "query": "tokens" } },
            { "say": "Nothing yet." }
        ]
    }));
    let report = every_adapter(&early).report;
    let result = |adapter| {
        run(&report, adapter)
            .events
            .iter()
            .find_map(|event| match &event.kind {
                EventKind::ToolCall { success: false, result, .. } => Some(result.as_str().unwrap().to_owned()),
                _ => None,
            })
            .unwrap()
    };
    assert_eq!(result(Dynamic), "Unknown tool: 'search'");
    let hint =
        "Tool 'search' cannot be called yet: it belongs to section 'context'. Call `read_section` with that key first.";
    assert_eq!(result(AllowedTools), hint);
    assert_eq!(result(Deferred), hint);
    assert_eq!(result(ToolAddition), hint);
}

/// The events of `run` that tell how tools reached the model.
fn deliveries(run: &RunReport) -> Vec<ToolDelivery> {
    let delivery = |event: &unfold_engine::Event| match &event.kind {
        EventKind::ToolsInjected { delivery, .. } => Some(*delivery),
        _ => None,
    };
    run.events.iter().filter_map(delivery).collect()
}

#[test]
fn tool_addition_adds_a_read_sections_tools_by_a_system_message_and_keeps_every_earlier_byte() {
    let comparison = every_adapter(&read_then_search());
    let (added, deferred) = (run(&comparison.report, ToolAddition), run(&comparison.report, Deferred));
    assert_eq!(deliveries(added), [ToolDelivery::Announced]);
    assert!(trace(added).contains("  added [search, cite] from context\ncall 2 [lookup, search, cite, read_section]"));
    let (added_calls, deferred_calls) = (calls(added), calls(deferred));
    assert!(added_calls.iter().all(|(_, _, broke)| broke.is_none()), "{added_calls:?}");
    // Call 1 is the deferred lane's; call 2 carries the same definitions, at the system message
    // rather than in the tool result, and the message naming them.
    assert_eq!(added_calls[0].0, deferred_calls[0].0);
    assert_eq!(added_calls[1].0, deferred_calls[1].0 + tokens::count_text("search cite"));
    let bodies = &comparison.requests.iter().find(|r| r.lane.name() == "tool_addition").unwrap().calls;
    let messages = |call: usize| bodies[call].body["messages"].as_array().unwrap().clone();
    assert_eq!(messages(1)[3]["tool_references"], serde_json::Value::Null, "no result loads a tool");
    assert_eq!(messages(1)[4], serde_json::json!({ "role": "system", "tool_additions": ["search", "cite"] }));
    assert_eq!(messages(1).len(), 5, "the system message ends the conversation it is sent in");
    assert_eq!(messages(2)[..5], messages(1)[..], "and stays where it was");
    assert!(bodies.iter().all(|call| call.body["tools"] == bodies[0].body["tools"]));
}

#[test]
fn tool_addition_removes_a_withdrawn_tool_by_a_system_message_and_keeps_the_list() {
    let withdrawn = scenario(serde_json::json!({
        "name": "lookup-withdrawn",
        "user": "Look it up.",
        "script": [
            { "call": "lookup", "args": { "id": 7 } },
            { "call": "lookup", "args": { "id": 8 } },
            { "say": "Done." }
        ],
        "tool_changes": [{ "at_model_call": 2, "remove": ["lookup"] }]
    }));
    let comparison = every_adapter(&withdrawn);
    let added = run(&comparison.report, ToolAddition);
    let failed: Vec<String> = added
        .events
        .iter()
        .filter_map(|event| match &event.kind {
            EventKind::ToolCall { success: false, result, .. } => Some(result.as_str().unwrap().to_owned()),
            _ => None,
        })
        .collect();
    assert_eq!(failed, ["Unknown tool: 'lookup'"]);
    assert!(calls(added).iter().all(|(_, _, broke)| broke.is_none()));
    let dynamic = calls(run(&comparison.report, Dynamic));
    assert_eq!(dynamic[1].2, Some(PrefixBreak::ToolsChanged), "the dynamic lane's list changes");
    let bodies = &comparison.requests.iter().find(|r| r.lane.name() == "tool_addition").unwrap().calls;
    let system = bodies[1].body["messages"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(system, serde_json::json!({ "role": "system", "tool_removals": ["lookup"] }));
    assert_eq!(bodies[0].body["tools"], bodies[1].body["tools"]);
}

#[test]
fn tool_addition_tells_nothing_of_a_tool_withdrawn_before_its_addition_was_sent() {
    let withdrawn = scenario(serde_json::json!({
        "name": "search-withdrawn-at-once",
        "user": "Refactor the authentication module.",
        "script": [
            { "call": "read_section", "args": { "section_key": "context" } },
            { "call": "search", "args": { "query": "session tokens" } },
            { "say": "Done." }
        ],
        "tool_changes": [{ "at_model_call": 2, "remove": ["search"] }]
    }));
    let comparison = every_adapter(&withdrawn);
    let bodies = &comparison.requests.iter().find(|r| r.lane.name() == "tool_addition").unwrap().calls;
    let system: Vec<&serde_json::Value> = bodies
        .iter()
        .flat_map(|call| call.body["messages"].as_array().unwrap())
        .filter(|message| message["role"] == "system" && message.get("content").is_none())
        .collect();
    assert!(
        system.iter().all(|message| message.get("tool_removals").is_none()),
        "a removal of a tool never added: {system:?}"
    );
    assert!(system.iter().all(|message| !message["tool_additions"].to_string().contains("\"search\"")));
    let failed = run(&comparison.report, ToolAddition).events.iter().any(|event| {
        matches!(&event.kind, EventKind::ToolCall { success: false, result, .. } if result == "Unknown tool: 'search'")
    });
    assert!(failed, "the withdrawn tool stays unknown");
}
