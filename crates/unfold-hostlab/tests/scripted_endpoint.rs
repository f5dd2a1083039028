//! The scripted model endpoint's answers: the script played step by step as a host echoes its
//! calls back, tools called by the names the host shows them under, a call to a tool not shown
//! skipped for good, and a request without tools answered aside.

use serde_json::json;
use unfold_documents::tool::OfferedTool;
use unfold_documents::Scenario;
use unfold_engine::{Message, ToolCall};
use unfold_hostlab::host_requests::HostRequest;
use unfold_hostlab::scripted_endpoint::{Answered, ScriptedEndpoint};
use unfold_test_support::repo;

fn offered(names: &[&str]) -> Vec<OfferedTool> {
    names
        .iter()
        .map(|name| OfferedTool { name: (*name).into(), description: String::new(), parameters: json!({}) })
        .collect()
}

fn asked(messages: Vec<Message>, tools: &[&str]) -> HostRequest {
    HostRequest { system: "You help.".into(), messages, tools: offered(tools), ..HostRequest::default() }
}

fn user() -> Message {
    Message::User { content: "Refactor the authentication module.".into() }
}

fn answer_to(endpoint: &mut ScriptedEndpoint, request: &HostRequest) -> Answered {
    let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
    runtime.block_on(endpoint.answer(request, "{\"a\": \"request body\"}"))
}

fn main_answer(answered: Answered) -> (unfold_engine::ModelResponse, Vec<String>) {
    match answered {
        Answered::Main { answer, not_shown } => (answer, not_shown),
        side => panic!("a main answer, not {side:?}"),
    }
}

/// read-context-then-search: read `context`, search, then say the plan.
fn endpoint_scenario() -> Scenario {
    Scenario::load(&repo("examples/read-context-then-search.scenario.json")).unwrap()
}

fn endpoint() -> ScriptedEndpoint {
    ScriptedEndpoint::new(&endpoint_scenario())
}

#[test]
fn the_script_goes_on_as_the_host_echoes_its_calls_and_calls_tools_by_the_hosts_names() {
    let mut endpoint = endpoint();
    let tools = ["mcp__unfold__lookup", "mcp__unfold__read_section"];
    let (first, not_shown) = main_answer(answer_to(&mut endpoint, &asked(vec![user()], &tools)));
    assert!(not_shown.is_empty());
    let read = first.tool_calls[0].clone();
    assert_eq!(read.name, "mcp__unfold__read_section");
    assert!(first.usage.unwrap().prompt_tokens > 0, "a plausible usage");

    let echoed = vec![
        user(),
        Message::Assistant { content: None, tool_calls: vec![read.clone()] },
        Message::Tool {
            call_id: read.id.clone(),
            name: read.name.clone(),
            content: "…".into(),
            references: Vec::new(),
        },
    ];
    // Shown in a namespace of the host's.
    let (second, _) =
        main_answer(answer_to(&mut endpoint, &asked(echoed.clone(), &["unfold.search", "mcp__unfold__read_section"])));
    assert_eq!(second.tool_calls[0].name, "unfold.search");
    assert_eq!(second.tool_calls[0].arguments, json!({ "query": "session tokens" }));
}

#[test]
fn a_call_to_a_tool_not_shown_is_skipped_for_good_and_the_script_goes_on() {
    let mut endpoint = endpoint();
    let (first, _) = main_answer(answer_to(&mut endpoint, &asked(vec![user()], &["lookup", "read_section"])));
    let read: ToolCall = first.tool_calls[0].clone();
    let echoed = vec![
        user(),
        Message::Assistant { content: None, tool_calls: vec![read.clone()] },
        Message::Tool { call_id: read.id.clone(), name: read.name, content: "…".into(), references: Vec::new() },
    ];
    // The host has not shown `search` yet: the model cannot call it, and says its plan.
    let (second, not_shown) =
        main_answer(answer_to(&mut endpoint, &asked(echoed.clone(), &["lookup", "read_section"])));
    assert_eq!(not_shown, ["search"]);
    assert_eq!(second.text.as_deref(), Some("Plan: rotate session tokens."));
    // Shown later, it is still not called: that step is gone.
    let (third, not_shown) =
        main_answer(answer_to(&mut endpoint, &asked(echoed, &["lookup", "search", "read_section"])));
    assert!(not_shown.is_empty());
    assert!(third.tool_calls.is_empty(), "{third:?}");
}

#[test]
fn a_request_that_offers_no_tools_is_answered_aside_and_leaves_the_script_where_it_was() {
    let mut endpoint = endpoint();
    let side = answer_to(&mut endpoint, &asked(vec![Message::User { content: "Title this chat.".into() }], &[]));
    assert!(matches!(&side, Answered::Side { answer } if answer.text.as_deref() == Some("OK.")), "{side:?}");
    let (first, _) = main_answer(answer_to(&mut endpoint, &asked(vec![user()], &["lookup", "read_section"])));
    assert_eq!(first.tool_calls[0].name, "read_section", "the script's first step, still");
}

#[test]
fn a_tool_in_the_servers_namespace_wins_over_the_hosts_own_of_the_same_name() {
    // Gemini CLI: its own `read_section` (were it to have one) and the server's as `mcp_unfold_…`.
    let mut endpoint = endpoint();
    let tools = ["read_section", "mcp_unfold_lookup", "mcp_unfold_read_section"];
    let (first, _) = main_answer(answer_to(&mut endpoint, &asked(vec![user()], &tools)));
    assert_eq!(first.tool_calls[0].name, "mcp_unfold_read_section");
    // Without a namespaced one, the same name is the template's (a host that names tools plainly).
    let (plain, _) = main_answer(answer_to(
        &mut ScriptedEndpoint::new(&endpoint_scenario()),
        &asked(vec![user()], &["read_section"]),
    ));
    assert_eq!(plain.tool_calls[0].name, "read_section");
}

#[test]
fn a_side_request_that_asks_for_json_gets_json_that_fits_its_schema() {
    // Gemini CLI's model router: it retries for a minute and a half until the answer parses.
    let mut endpoint = endpoint();
    let mut routing = asked(vec![Message::User { content: "How complex is this?".into() }], &[]);
    routing.answer_schema = Some(json!({ "type": "OBJECT", "required": ["score", "reason"], "properties": {
        "reason": { "type": "STRING" }, "score": { "type": "INTEGER", "minimum": 1 },
        "model": { "type": "STRING", "enum": ["flash", "pro"] }, "steps": { "type": "ARRAY" } } }));
    let Answered::Side { answer } = answer_to(&mut endpoint, &routing) else { panic!("a side request") };
    let parsed: serde_json::Value = serde_json::from_str(answer.text.as_deref().unwrap()).unwrap();
    assert_eq!(parsed, json!({ "reason": "OK.", "score": 1, "model": "flash", "steps": [] }));
}
