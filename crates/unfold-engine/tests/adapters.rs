//! Every case of spec 4.1-4.5 and 5, run under both adapters with the scripted model. Each case
//! snapshots both runs' traces side by side, so a reviewer reads the two behaviours against the
//! spec; counters are asserted where the spec names them.

use insta::assert_snapshot;
use serde_json::json;
use unfold_documents::refresh::Refresh;
use unfold_documents::template::{Disclosure, ToolDisclosure};
use unfold_documents::{Scenario, Template};
use unfold_engine::{
    adapter_for, compare, run, AdapterKind, ComparisonReport, Counters, Drive, Lanes, ModelRequest, ModelResponse,
    Provider, RunInput, RunStatus, ScriptedProvider, ScriptedToolResults, ToolPolicy,
};

use unfold_test_support::{load_template, scenario, trace};

pub fn fixture() -> Template {
    load_template("tests/fixtures/disclosure.unfold.json")
}

fn run_both(template: &Template, scenario: &Scenario) -> ComparisonReport {
    crate::scripted_report(template, scenario, &[AdapterKind::Dynamic, AdapterKind::Restart])
}

fn traces(report: &ComparisonReport) -> String {
    report.runs.iter().map(|run| format!("[{}]\n{}", run.adapter.name(), trace(run))).collect::<Vec<_>>().join("\n\n")
}

fn check(template: &Template, fields: serde_json::Value) -> String {
    traces(&run_both(template, &scenario(fields)))
}

#[test]
fn read_section_of_an_unknown_key_fails_and_the_run_goes_on() {
    let trace = check(
        &fixture(),
        json!({ "script": [
            { "call": "read_section", "args": { "section_key": "nope" } },
            { "say": "Done." }
        ]}),
    );
    assert_snapshot!(trace, @r#"
    [dynamic]
    call 1 [lookup, broken, read_section]
      read_section {"section_key":"nope"} -> failed "Unknown section key: 'nope'"
    call 2 [lookup, broken, read_section]
    completed "Done."

    [restart]
    call 1 [lookup, broken, read_section]
      read_section {"section_key":"nope"} -> failed "Unknown section key: 'nope'"
    call 2 [lookup, broken, read_section]
    completed "Done."
    "#);
}

#[test]
fn read_section_of_a_bare_child_key_suggests_the_full_path() {
    let trace = check(
        &fixture(),
        json!({ "script": [
            { "call": "read_section", "args": { "section_key": "b" } },
            { "say": "Done." }
        ]}),
    );
    assert_snapshot!(trace, @r#"
    [dynamic]
    call 1 [lookup, broken, read_section]
      read_section {"section_key":"b"} -> failed "Unknown section key: 'b'. Did you mean 'notes.b'?"
    call 2 [lookup, broken, read_section]
    completed "Done."

    [restart]
    call 1 [lookup, broken, read_section]
      read_section {"section_key":"b"} -> failed "Unknown section key: 'b'. Did you mean 'notes.b'?"
    call 2 [lookup, broken, read_section]
    completed "Done."
    "#);
}

#[test]
fn reading_a_section_twice_says_it_is_already_expanded() {
    let trace = check(
        &fixture(),
        json!({ "script": [
            { "call": "read_section", "args": { "section_key": "style" } },
            { "call": "read_section", "args": { "section_key": "style" } },
            { "say": "Done." }
        ]}),
    );
    assert_snapshot!(trace, @r###"
    [dynamic]
    call 1 [lookup, broken, read_section]
      read_section {"section_key":"style"} -> ok content "## 4 Style", expanded_tools []
      visibility [style]
    call 2 [lookup, broken, read_section]
      read_section {"section_key":"style"} -> ok content "## 4 Style", message "Section is already expanded."
    call 3 [lookup, broken, read_section]
    completed "Done."

    [restart]
    call 1 [lookup, broken, read_section]
      read_section {"section_key":"style"} -> ok content "## 4 Style", expanded_tools []
      visibility [style]
    call 2 [lookup, broken, read_section]
      read_section {"section_key":"style"} -> ok content "## 4 Style", message "Section is already expanded."
    call 3 [lookup, broken, read_section]
    completed "Done."
    "###);
}

#[test]
fn reading_a_summarized_section_expands_its_whole_subtree() {
    let trace = check(
        &fixture(),
        json!({ "script": [
            { "call": "read_section", "args": { "section_key": "notes" } },
            { "call": "note_b", "args": { "q": "x" } },
            { "say": "Done." }
        ]}),
    );
    assert_snapshot!(trace, @r###"
    [dynamic]
    call 1 [lookup, broken, read_section]
      read_section {"section_key":"notes"} -> ok content "## 2 Notes", expanded_tools ["note_a","note_b"]
      visibility [notes, notes.b, notes.c]
      injected [note_a, note_b] from notes
    call 2 [lookup, broken, note_a, note_b, read_section]
      note_b {"q":"x"} -> ok "b"
    call 3 [lookup, broken, note_a, note_b, read_section]
    completed "Done."

    [restart]
    call 1 [lookup, broken, read_section]
      read_section {"section_key":"notes"} -> ok content "## 2 Notes", expanded_tools ["note_a","note_b"]
      visibility [notes, notes.b, notes.c]
    RESTART visibility_expansion [notes, notes.b, notes.c] -> attempt 2
    call 2 [lookup, broken, note_a, note_b, read_section]
      note_b {"q":"x"} -> ok "b"
    call 3 [lookup, broken, note_a, note_b, read_section]
    completed "Done."
    "###);
}

#[test]
fn reading_a_key_inside_a_summarized_section_expands_its_ancestors_only() {
    let trace = check(
        &fixture(),
        json!({ "script": [
            { "call": "read_section", "args": { "section_key": "notes.b" } },
            { "call": "note_a", "args": { "q": "x" } },
            { "say": "Done." }
        ]}),
    );
    assert_snapshot!(trace, @r####"
    [dynamic]
    call 1 [lookup, broken, read_section]
      read_section {"section_key":"notes.b"} -> ok content "### 2.2 Note B", expanded_tools ["note_a","note_b"]
      visibility [notes, notes.b]
      injected [note_a, note_b] from notes.b
    call 2 [lookup, broken, note_a, note_b, read_section]
      note_a {"q":"x"} -> ok "a"
    call 3 [lookup, broken, note_a, note_b, read_section]
    completed "Done."

    [restart]
    call 1 [lookup, broken, read_section]
      read_section {"section_key":"notes.b"} -> ok content "### 2.2 Note B", expanded_tools ["note_a","note_b"]
      visibility [notes, notes.b]
    RESTART visibility_expansion [notes, notes.b] -> attempt 2
    call 2 [lookup, broken, note_a, note_b, read_section]
      note_a {"q":"x"} -> ok "a"
    call 3 [lookup, broken, note_a, note_b, read_section]
    completed "Done."
    "####);
}

#[test]
fn restart_adapter_runs_no_further_call_of_the_halted_turn() {
    let trace = check(
        &fixture(),
        json!({ "script": [
            { "calls": [
                { "call": "read_section", "args": { "section_key": "docs" } },
                { "call": "lookup", "args": { "id": 1 } }
            ]},
            { "call": "search", "args": { "q": "login" } },
            { "say": "Done." }
        ]}),
    );
    assert_snapshot!(trace, @r###"
    [dynamic]
    call 1 [lookup, broken, read_section]
      read_section {"section_key":"docs"} -> ok content "## 3 Docs", expanded_tools ["search"]
      visibility [docs]
      injected [search] from docs
      lookup {"id":1} -> ok {"id":7,"title":"Login fails"}
    call 2 [lookup, broken, search, read_section]
      search {"q":"login"} -> ok "3 hits"
    call 3 [lookup, broken, search, read_section]
    completed "Done."

    [restart]
    call 1 [lookup, broken, read_section]
      read_section {"section_key":"docs"} -> ok content "## 3 Docs", expanded_tools ["search"]
      visibility [docs]
    RESTART visibility_expansion [docs] -> attempt 2
    call 2 [lookup, broken, search, read_section]
      lookup {"id":1} -> ok {"id":7,"title":"Login fails"}
    call 3 [lookup, broken, search, read_section]
      search {"q":"login"} -> ok "3 hits"
    call 4 [lookup, broken, search, read_section]
    completed "Done."
    "###);
}

#[test]
fn dynamic_adapter_skips_injecting_a_tool_already_offered() {
    let trace = check(
        &fixture(),
        json!({
            "script": [
                { "call": "lookup", "args": { "id": 1 } },
                { "call": "read_section", "args": { "section_key": "docs" } },
                { "call": "search", "args": { "q": "login" } },
                { "say": "Done." }
            ],
            "tool_changes": [ { "at_model_call": 2, "add": [
                { "name": "search", "description": "Search everything (plugin).", "parameters": { "type": "object" } }
            ]}]
        }),
    );
    assert_snapshot!(trace, @r###"
    [dynamic]
    call 1 [lookup, broken, read_section]
      lookup {"id":1} -> ok {"id":7,"title":"Login fails"}
    tools changed before call 2: +[search] -[]
      injected [search] from plugin
    call 2 [lookup, broken, search, read_section]
      read_section {"section_key":"docs"} -> ok content "## 3 Docs", expanded_tools ["search"]
      visibility [docs]
      skipped search from docs
    call 3 [lookup, broken, search, read_section]
      search {"q":"login"} -> failed "No result scripted for tool 'search'"
    call 4 [lookup, broken, search, read_section]
    completed "Done."

    [restart]
    call 1 [lookup, broken, read_section]
      lookup {"id":1} -> ok {"id":7,"title":"Login fails"}
    tools changed before call 2: +[search] -[]
    RESTART tool_availability_changed [] -> attempt 2
    call 2 [lookup, broken, search, read_section]
      lookup {"id":1} -> ok {"id":7,"title":"Login fails"}
    call 3 [lookup, broken, search, read_section]
      read_section {"section_key":"docs"} -> ok content "## 3 Docs", expanded_tools ["search"]
      visibility [docs]
    RESTART visibility_expansion [docs] -> attempt 3
    call 4 [lookup, broken, search, read_section]
      lookup {"id":1} -> ok {"id":7,"title":"Login fails"}
    call 5 [lookup, broken, search, read_section]
      search {"q":"login"} -> failed "No result scripted for tool 'search'"
    call 6 [lookup, broken, search, read_section]
    completed "Done."
    "###);
}

#[test]
fn turn_limit_ends_the_run() {
    let trace = check(
        &fixture(),
        json!({
            "script": [
                { "call": "lookup", "args": { "id": 1 } },
                { "call": "lookup", "args": { "id": 2 } },
                { "call": "lookup", "args": { "id": 3 } },
                { "say": "Done." }
            ],
            "limits": { "max_model_calls": 2 }
        }),
    );
    assert_snapshot!(trace, @r#"
    [dynamic]
    call 1 [lookup, broken, read_section]
      lookup {"id":1} -> ok {"id":7,"title":"Login fails"}
    call 2 [lookup, broken, read_section]
      lookup {"id":2} -> ok {"id":7,"title":"Login fails"}
    LIMIT max_model_calls 2
    turn_limit -

    [restart]
    call 1 [lookup, broken, read_section]
      lookup {"id":1} -> ok {"id":7,"title":"Login fails"}
    call 2 [lookup, broken, read_section]
      lookup {"id":2} -> ok {"id":7,"title":"Login fails"}
    LIMIT max_model_calls 2
    turn_limit -
    "#);
}

#[test]
fn restart_limit_ends_the_restart_run_only() {
    let report = run_both(
        &fixture(),
        &scenario(json!({
            "script": [
                { "call": "read_section", "args": { "section_key": "docs" } },
                { "call": "read_section", "args": { "section_key": "notes" } },
                { "say": "Done." }
            ],
            "limits": { "max_restarts": 1 }
        })),
    );
    assert_snapshot!(traces(&report), @r###"
    [dynamic]
    call 1 [lookup, broken, read_section]
      read_section {"section_key":"docs"} -> ok content "## 3 Docs", expanded_tools ["search"]
      visibility [docs]
      injected [search] from docs
    call 2 [lookup, broken, search, read_section]
      read_section {"section_key":"notes"} -> ok content "## 2 Notes", expanded_tools ["note_a","note_b"]
      visibility [notes, notes.b, notes.c]
      injected [note_a, note_b] from notes
    call 3 [lookup, broken, search, note_a, note_b, read_section]
    completed "Done."

    [restart]
    call 1 [lookup, broken, read_section]
      read_section {"section_key":"docs"} -> ok content "## 3 Docs", expanded_tools ["search"]
      visibility [docs]
    RESTART visibility_expansion [docs] -> attempt 2
    call 2 [lookup, broken, search, read_section]
      read_section {"section_key":"notes"} -> ok content "## 2 Notes", expanded_tools ["note_a","note_b"]
    LIMIT max_restarts 1
    restart_limit -
    "###);
}

#[test]
fn the_same_call_a_third_time_is_warned_and_a_fourth_is_a_loop() {
    let trace = check(
        &fixture(),
        json!({ "script": [
            { "call": "lookup", "args": { "id": 7 } },
            { "call": "lookup", "args": { "id": 7 } },
            { "call": "lookup", "args": { "id": 7 } },
            { "call": "lookup", "args": { "id": 7 } },
            { "say": "Done." }
        ]}),
    );
    assert_snapshot!(trace, @r#"
    [dynamic]
    call 1 [lookup, broken, read_section]
      lookup {"id":7} -> ok {"id":7,"title":"Login fails"}
    call 2 [lookup, broken, read_section]
      lookup {"id":7} -> ok {"id":7,"title":"Login fails"}
    call 3 [lookup, broken, read_section]
      lookup {"id":7} -> ok {"id":7,"title":"Login fails"}
      LOOP WARNING lookup 3 times in 10 calls
    call 4 [lookup, broken, read_section]
    LIMIT repeated_tool_call 4
    loop_detected -

    [restart]
    call 1 [lookup, broken, read_section]
      lookup {"id":7} -> ok {"id":7,"title":"Login fails"}
    call 2 [lookup, broken, read_section]
      lookup {"id":7} -> ok {"id":7,"title":"Login fails"}
    call 3 [lookup, broken, read_section]
      lookup {"id":7} -> ok {"id":7,"title":"Login fails"}
      LOOP WARNING lookup 3 times in 10 calls
    call 4 [lookup, broken, read_section]
    LIMIT repeated_tool_call 4
    loop_detected -
    "#);
}

#[test]
fn a_repeating_pair_of_calls_is_warned_in_the_result_the_model_reads() {
    let script = scenario(json!({ "script": [
        { "calls": [{ "call": "lookup", "args": { "id": 7 } }, { "call": "broken", "args": { "q": "x" } }] },
        { "calls": [{ "call": "lookup", "args": { "id": 7 } }, { "call": "broken", "args": { "q": "x" } }] },
        { "say": "Done." }
    ]}));
    let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
    let comparison = runtime
        .block_on(compare(
            Lanes::new(&fixture(), &script, &[AdapterKind::Dynamic]),
            Drive { keep_requests: true, ..Drive::default() },
        ))
        .unwrap();
    let run = &comparison.report.runs[0];
    assert_snapshot!(trace(run), @r#"
    call 1 [lookup, broken, read_section]
      lookup {"id":7} -> ok {"id":7,"title":"Login fails"}
      broken {"q":"x"} -> failed "backend down"
    call 2 [lookup, broken, read_section]
      lookup {"id":7} -> ok {"id":7,"title":"Login fails"}
      broken {"q":"x"} -> failed "backend down"
      LOOP WARNING lookup, broken repeated
    call 3 [lookup, broken, read_section]
    completed "Done."
    "#);
    let last = comparison.requests[0].calls.last().unwrap();
    let messages = last.body["messages"].as_array().unwrap();
    let content = messages.last().unwrap()["content"].as_str().unwrap();
    assert!(
        content.starts_with("backend down\n\nLoop warning: your calls `lookup`, `broken` have repeated"),
        "{content}"
    );
    assert_eq!(run.status, unfold_engine::RunStatus::Completed, "warned once, the model stopped");
}

#[test]
fn open_sections_restarts_under_both_adapters() {
    let mut template = fixture();
    template.disclosure = Disclosure::OpenSections;
    let trace = check(
        &template,
        json!({ "script": [
            { "call": "open_sections", "args": { "section_keys": ["nope", "task"], "reason": "need them" } },
            { "call": "open_sections", "args": { "section_keys": ["docs", "style"], "reason": "need docs" } },
            { "call": "search", "args": { "q": "x" } },
            { "say": "Done." }
        ]}),
    );
    assert_snapshot!(trace, @r#"
    [dynamic]
    call 1 [lookup, broken, open_sections]
      open_sections {"section_keys":["nope","task"],"reason":"need them"} -> failed "Unknown section key: 'nope'; Section 'task' is already expanded."
    call 2 [lookup, broken, open_sections]
      open_sections {"section_keys":["docs","style"],"reason":"need docs"} -> ok "Sections expanded: docs, style. The prompt will be re-rendered with the full content of the requested sections."
      visibility [docs, style]
    RESTART visibility_expansion [docs, style] -> attempt 2
    call 3 [lookup, broken, search, open_sections]
      open_sections {"section_keys":["nope","task"],"reason":"need them"} -> failed "Unknown section key: 'nope'; Section 'task' is already expanded."
    call 4 [lookup, broken, search, open_sections]
      search {"q":"x"} -> ok "3 hits"
    call 5 [lookup, broken, search, open_sections]
    completed "Done."

    [restart]
    call 1 [lookup, broken, open_sections]
      open_sections {"section_keys":["nope","task"],"reason":"need them"} -> failed "Unknown section key: 'nope'; Section 'task' is already expanded."
    call 2 [lookup, broken, open_sections]
      open_sections {"section_keys":["docs","style"],"reason":"need docs"} -> ok "Sections expanded: docs, style. The prompt will be re-rendered with the full content of the requested sections."
      visibility [docs, style]
    RESTART visibility_expansion [docs, style] -> attempt 2
    call 3 [lookup, broken, search, open_sections]
      open_sections {"section_keys":["nope","task"],"reason":"need them"} -> failed "Unknown section key: 'nope'; Section 'task' is already expanded."
    call 4 [lookup, broken, search, open_sections]
      search {"q":"x"} -> ok "3 hits"
    call 5 [lookup, broken, search, open_sections]
    completed "Done."
    "#);
}

#[test]
fn mixed_disclosure_offers_open_sections_for_sections_with_tools() {
    let mut template = fixture();
    template.disclosure = Disclosure::Mixed;
    let trace = check(
        &template,
        json!({ "script": [
            { "call": "read_section", "args": { "section_key": "style" } },
            { "call": "open_sections", "args": { "section_keys": ["docs"], "reason": "search" } },
            { "say": "Done." }
        ]}),
    );
    assert_snapshot!(trace, @r###"
    [dynamic]
    call 1 [lookup, broken, open_sections, read_section]
      read_section {"section_key":"style"} -> ok content "## 4 Style", expanded_tools []
      visibility [style]
    call 2 [lookup, broken, open_sections, read_section]
      open_sections {"section_keys":["docs"],"reason":"search"} -> ok "Sections expanded: docs. The prompt will be re-rendered with the full content of the requested sections."
      visibility [docs]
    RESTART visibility_expansion [docs] -> attempt 2
    call 3 [lookup, broken, search, open_sections]
    completed "Done."

    [restart]
    call 1 [lookup, broken, open_sections, read_section]
      read_section {"section_key":"style"} -> ok content "## 4 Style", expanded_tools []
      visibility [style]
    call 2 [lookup, broken, open_sections, read_section]
      open_sections {"section_keys":["docs"],"reason":"search"} -> ok "Sections expanded: docs. The prompt will be re-rendered with the full content of the requested sections."
      visibility [docs]
    RESTART visibility_expansion [docs] -> attempt 2
    call 3 [lookup, broken, search, open_sections]
    completed "Done."
    "###);
}

#[test]
fn pick_tools_restarts_only_under_the_restart_adapter() {
    let mut template = fixture();
    template.tool_disclosure = ToolDisclosure::PickTools;
    let report = run_both(
        &template,
        &scenario(json!({ "script": [
            { "call": "pick_tools", "args": { "tools": ["lookup"] } },
            { "call": "lookup", "args": { "id": 7 } },
            { "say": "Done." }
        ]})),
    );
    assert_snapshot!(traces(&report), @r#"
    [dynamic]
    call 1 [lookup, broken, read_section, pick_tools]
      pick_tools {"tools":["lookup"]} -> ok {"picked":["lookup"],"tools":[{"name":"lookup","description":"Look up an issue by id.","parameters":{"type":"object","properties":{"id":{"type":"integer"}}}}]}
    call 2 [lookup, broken, read_section, pick_tools]
      lookup {"id":7} -> ok {"id":7,"title":"Login fails"}
    call 3 [lookup, broken, read_section, pick_tools]
    completed "Done."

    [restart]
    call 1 [lookup, broken, read_section, pick_tools]
      pick_tools {"tools":["lookup"]} -> ok {"picked":["lookup"],"tools":[{"name":"lookup","description":"Look up an issue by id.","parameters":{"type":"object","properties":{"id":{"type":"integer"}}}}]}
    RESTART tools_picked [] -> attempt 2
    call 2 [lookup, broken, read_section, pick_tools]
      lookup {"id":7} -> ok {"id":7,"title":"Login fails"}
    call 3 [lookup, broken, read_section, pick_tools]
    completed "Done."
    "#);
}

/// Wraps the scripted model and keeps, per call, the description of every tool it was offered.
struct RecordingProvider {
    inner: ScriptedProvider,
    offered: Vec<Vec<(String, String)>>,
}

#[async_trait::async_trait]
impl Provider for RecordingProvider {
    async fn complete(&mut self, request: &ModelRequest<'_>) -> unfold_documents::Result<ModelResponse> {
        self.offered.push(request.tools.iter().map(|t| (t.name.clone(), t.description.clone())).collect());
        self.inner.complete(request).await
    }
}

/// The fixture in `pick_tools` mode, and a script that picks `lookup`, calls it and answers.
fn pick_then_lookup() -> (Template, Scenario) {
    let mut template = fixture();
    template.tool_disclosure = ToolDisclosure::PickTools;
    let scenario = scenario(json!({ "script": [
        { "call": "pick_tools", "args": { "tools": ["lookup"] } },
        { "call": "lookup", "args": { "id": 7 } },
        { "say": "Done." }
    ]}));
    (template, scenario)
}

/// A run of `scenario` under `kind` showing tools as `tool_policy` says, and the description of
/// `lookup` at each call ("-" where it was not offered).
fn lookup_described(
    template: &Template,
    scenario: &Scenario,
    kind: AdapterKind,
    tool_policy: ToolPolicy,
) -> (unfold_engine::RunReport, Vec<String>) {
    let mut provider = RecordingProvider { inner: ScriptedProvider::new(scenario, template), offered: Vec::new() };
    let input = RunInput { tool_policy, ..RunInput::of_scenario(template, scenario) };
    let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
    let mut results = ScriptedToolResults::new(scenario);
    let report = runtime.block_on(run(&input, adapter_for(kind), &mut provider, &mut results, &mut |_| {})).unwrap();
    let described = provider.offered.iter().map(|call| {
        let lookup = call.iter().find(|(name, _)| name == "lookup");
        lookup.map_or("-".to_owned(), |(_, description)| description.clone())
    });
    (report, described.collect())
}

#[test]
fn a_picked_tool_carries_its_full_description_from_the_next_call_on() {
    let (template, scenario) = pick_then_lookup();
    for kind in [AdapterKind::Dynamic, AdapterKind::Restart] {
        let (report, described) = lookup_described(&template, &scenario, kind, ToolPolicy::default());
        assert_eq!(described[..2], ["Look up an issue.", "Look up an issue by id."], "{kind:?}");
        let restarts = usize::from(kind == AdapterKind::Restart);
        assert_eq!(report.counters.restarts as usize, restarts, "{kind:?}");
    }
}

#[test]
fn a_pick_shows_its_full_definition_when_the_refresh_policy_says() {
    let (template, scenario) = pick_then_lookup();
    let lookup = |refresh: Refresh| {
        let policy = ToolPolicy { refresh: Some(refresh), ..ToolPolicy::default() };
        let (report, described) = lookup_described(&template, &scenario, AdapterKind::Dynamic, policy);
        format!("[{}] {described:?}\n{}", refresh.name(), trace(&report))
    };
    let traces: Vec<String> = [Refresh::NextCall, Refresh::Late(1), Refresh::Never].into_iter().map(lookup).collect();
    assert_snapshot!(traces.join("\n\n"), @r#"
    [next_call] ["Look up an issue.", "Look up an issue by id.", "Look up an issue by id."]
    call 1 [lookup, broken, read_section, pick_tools]
      pick_tools {"tools":["lookup"]} -> ok {"picked":["lookup"],"tools":[{"name":"lookup","description":"Look up an issue by id.","parameters":{"type":"object","properties":{"id":{"type":"integer"}}}}]}
    call 2 [lookup, broken, read_section, pick_tools]
      lookup {"id":7} -> ok {"id":7,"title":"Login fails"}
    call 3 [lookup, broken, read_section, pick_tools]
    completed "Done."

    [late:1] ["Look up an issue.", "Look up an issue.", "Look up an issue by id."]
    call 1 [lookup, broken, read_section, pick_tools]
      pick_tools {"tools":["lookup"]} -> ok {"picked":["lookup"],"tools":[{"name":"lookup","description":"Look up an issue by id.","parameters":{"type":"object","properties":{"id":{"type":"integer"}}}}]}
      pending +[] -[] ~[lookup] {"at_model_call":3}
    call 2 [lookup, broken, read_section, pick_tools]
      lookup {"id":7} -> ok {"id":7,"title":"Login fails"}
      redefined [lookup]
    call 3 [lookup, broken, read_section, pick_tools]
    completed "Done."

    [never] ["Look up an issue.", "Look up an issue.", "Look up an issue."]
    call 1 [lookup, broken, read_section, pick_tools]
      pick_tools {"tools":["lookup"]} -> ok {"picked":["lookup"],"tools":[{"name":"lookup","description":"Look up an issue by id.","parameters":{"type":"object","properties":{"id":{"type":"integer"}}}}]}
      pending +[] -[] ~[lookup] "never"
    call 2 [lookup, broken, read_section, pick_tools]
      lookup {"id":7} -> ok {"id":7,"title":"Login fails"}
    call 3 [lookup, broken, read_section, pick_tools]
    completed "Done."
    "#);
}

#[test]
fn plugin_tool_changes_inject_under_dynamic_and_restart_under_restart() {
    let trace = check(
        &fixture(),
        json!({
            "script": [
                { "call": "lookup", "args": { "id": 1 } },
                { "call": "ping", "args": {} },
                { "call": "lookup", "args": { "id": 2 } },
                { "say": "Done." }
            ],
            "tool_changes": [
                { "at_model_call": 2, "add": [ { "name": "ping", "description": "Ping.", "parameters": { "type": "object" }, "mock": { "result": "pong" } } ] },
                { "at_model_call": 3, "remove": ["lookup"] }
            ]
        }),
    );
    assert_snapshot!(trace, @r#"
    [dynamic]
    call 1 [lookup, broken, read_section]
      lookup {"id":1} -> ok {"id":7,"title":"Login fails"}
    tools changed before call 2: +[ping] -[]
      injected [ping] from plugin
    call 2 [lookup, broken, ping, read_section]
      ping {} -> ok "pong"
    tools changed before call 3: +[] -[lookup]
      removed [lookup]
    call 3 [broken, ping, read_section]
      lookup {"id":2} -> failed "Unknown tool: 'lookup'"
    call 4 [broken, ping, read_section]
    completed "Done."

    [restart]
    call 1 [lookup, broken, read_section]
      lookup {"id":1} -> ok {"id":7,"title":"Login fails"}
    tools changed before call 2: +[ping] -[]
    RESTART tool_availability_changed [] -> attempt 2
    call 2 [lookup, broken, ping, read_section]
      lookup {"id":1} -> ok {"id":7,"title":"Login fails"}
    tools changed before call 3: +[] -[lookup]
    RESTART tool_availability_changed [] -> attempt 3
    call 3 [broken, ping, read_section]
      lookup {"id":1} -> failed "Unknown tool: 'lookup'"
    call 4 [broken, ping, read_section]
      ping {} -> ok "pong"
    call 5 [broken, ping, read_section]
      lookup {"id":2} -> failed "Unknown tool: 'lookup'"
    call 6 [broken, ping, read_section]
    completed "Done."
    "#);
}

#[test]
fn later_turns_go_on_with_the_history_and_a_restart_replays_the_turns_given() {
    let trace = check(
        &fixture(),
        json!({
            "turns": [
                { "user": "Find issue 1.", "script": [ { "call": "lookup", "args": { "id": 1 } }, { "say": "Found it." } ] },
                { "user": "Search the docs.", "script": [
                    { "call": "read_section", "args": { "section_key": "docs" } },
                    { "call": "search", "args": { "query": "login" } },
                    { "say": "Searched." }
                ] }
            ],
            "tool_results": { "search": [ { "result": "2 hits" } ] }
        }),
    );
    assert_snapshot!(trace, @r###"
    [dynamic]
    call 1 [lookup, broken, read_section]
      lookup {"id":1} -> ok {"id":7,"title":"Login fails"}
    call 2 [lookup, broken, read_section]
    USER turn 2
    call 3 [lookup, broken, read_section]
      read_section {"section_key":"docs"} -> ok content "## 3 Docs", expanded_tools ["search"]
      visibility [docs]
      injected [search] from docs
    call 4 [lookup, broken, search, read_section]
      search {"query":"login"} -> ok "2 hits"
    call 5 [lookup, broken, search, read_section]
    completed "Searched."

    [restart]
    call 1 [lookup, broken, read_section]
      lookup {"id":1} -> ok {"id":7,"title":"Login fails"}
    call 2 [lookup, broken, read_section]
    USER turn 2
    call 3 [lookup, broken, read_section]
      read_section {"section_key":"docs"} -> ok content "## 3 Docs", expanded_tools ["search"]
      visibility [docs]
    RESTART visibility_expansion [docs] -> attempt 2
    call 4 [lookup, broken, search, read_section]
      lookup {"id":1} -> ok {"id":7,"title":"Login fails"}
    call 5 [lookup, broken, search, read_section]
    USER turn 2
    call 6 [lookup, broken, search, read_section]
      search {"query":"login"} -> ok "2 hits"
    call 7 [lookup, broken, search, read_section]
    completed "Searched."
    "###);
}

#[test]
fn a_change_at_a_turn_applies_before_its_first_call() {
    let trace = check(
        &fixture(),
        json!({
            "turns": [
                { "user": "Find issue 1.", "script": [ { "call": "lookup", "args": { "id": 1 } }, { "say": "Found it." } ] },
                { "user": "Ping it.", "script": [ { "call": "ping", "args": {} }, { "say": "Pinged." } ] }
            ],
            "tool_changes": [
                { "at_turn": 2, "add": [ { "name": "ping", "description": "Ping.", "parameters": { "type": "object" }, "mock": { "result": "pong" } } ] }
            ]
        }),
    );
    assert_snapshot!(trace, @r#"
    [dynamic]
    call 1 [lookup, broken, read_section]
      lookup {"id":1} -> ok {"id":7,"title":"Login fails"}
    call 2 [lookup, broken, read_section]
    USER turn 2
    tools changed before call 3: +[ping] -[]
      injected [ping] from plugin
    call 3 [lookup, broken, ping, read_section]
      ping {} -> ok "pong"
    call 4 [lookup, broken, ping, read_section]
    completed "Pinged."

    [restart]
    call 1 [lookup, broken, read_section]
      lookup {"id":1} -> ok {"id":7,"title":"Login fails"}
    call 2 [lookup, broken, read_section]
    USER turn 2
    tools changed before call 3: +[ping] -[]
    RESTART tool_availability_changed [] -> attempt 2
    call 3 [lookup, broken, ping, read_section]
      lookup {"id":1} -> ok {"id":7,"title":"Login fails"}
    call 4 [lookup, broken, ping, read_section]
    USER turn 2
    call 5 [lookup, broken, ping, read_section]
      ping {} -> ok "pong"
    call 6 [lookup, broken, ping, read_section]
    completed "Pinged."
    "#);
}

#[test]
fn a_modified_tool_is_redefined_in_place_under_dynamic_and_restarts_under_restart() {
    let scenario = scenario(json!({
        "script": [
            { "call": "lookup", "args": { "id": 1 } },
            { "call": "lookup", "args": { "id": 2, "why": "x" } },
            { "say": "Done." }
        ],
        "tool_changes": [
            { "at_model_call": 2, "modify": [ { "name": "lookup", "description": "Look an issue up, with a reason.",
                "parameters": { "type": "object", "properties": { "id": { "type": "integer" }, "why": { "type": "string" } },
                    "required": ["id", "why"] },
                "mock": { "result": "found with a reason" } } ] }
        ]
    }));
    let report = run_both(&fixture(), &scenario);
    assert_snapshot!(traces(&report), @r#"
    [dynamic]
    call 1 [lookup, broken, read_section]
      lookup {"id":1} -> ok {"id":7,"title":"Login fails"}
    tools changed before call 2: +[] -[] ~[lookup]
      redefined [lookup]
    call 2 [lookup, broken, read_section]
      lookup {"id":2,"why":"x"} -> ok "found with a reason"
    call 3 [lookup, broken, read_section]
    completed "Done."

    [restart]
    call 1 [lookup, broken, read_section]
      lookup {"id":1} -> ok {"id":7,"title":"Login fails"}
    tools changed before call 2: +[] -[] ~[lookup]
    RESTART tool_availability_changed [] -> attempt 2
    call 2 [lookup, broken, read_section]
      lookup {"id":1} -> failed "Invalid arguments for 'lookup': \"why\" is a required property"
    call 3 [lookup, broken, read_section]
      lookup {"id":2,"why":"x"} -> ok "found with a reason"
    call 4 [lookup, broken, read_section]
    completed "Done."
    "#);
    // The model is sent the new definition from the call after the change, where the old one was.
    let template = fixture();
    let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
    let comparison = runtime
        .block_on(compare(
            Lanes::new(&template, &scenario, &[AdapterKind::Dynamic]),
            Drive { keep_requests: true, ..Drive::default() },
        ))
        .unwrap();
    let sent = sent_tools(&comparison, "dynamic");
    let description = |call: usize| sent[call][0]["function"]["description"].clone();
    assert_ne!(description(0), json!("Look an issue up, with a reason."));
    assert_eq!(description(1), json!("Look an issue up, with a reason."));
}

/// Two turns on the fixture: the first reads `docs`, which reveals `search`, and calls it at
/// once; the second calls it again.
pub fn search_in_two_turns() -> Scenario {
    scenario(json!({
        "turns": [
            { "user": "Search the docs.", "script": [
                { "call": "read_section", "args": { "section_key": "docs" } },
                { "call": "search", "args": { "query": "login" } },
                { "say": "Searched." }
            ] },
            { "user": "Search again.", "script": [ { "call": "search", "args": { "query": "logout" } }, { "say": "Done." } ] }
        ],
        "tool_results": { "search": [ { "result": "2 hits" } ] }
    }))
}

/// A run of `scenario` on `template` under the dynamic adapter with `refresh`.
fn run_refreshing(template: &Template, scenario: &Scenario, refresh: Refresh) -> unfold_engine::RunReport {
    run_injecting(template, scenario, ToolPolicy { refresh: Some(refresh), ..ToolPolicy::default() })
}

/// A run under the dynamic adapter that shows tools as `tool_policy` says: a host that injects
/// new tools.
pub fn run_injecting(template: &Template, scenario: &Scenario, tool_policy: ToolPolicy) -> unfold_engine::RunReport {
    let input = RunInput { tool_policy, ..RunInput::of_scenario(template, scenario) };
    let mut model = ScriptedProvider::new(scenario, template);
    let mut results = ScriptedToolResults::new(scenario);
    let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
    let adapter = adapter_for(AdapterKind::Dynamic);
    runtime.block_on(run(&input, adapter, &mut model, &mut results, &mut |_| {})).unwrap()
}

#[test]
fn a_refresh_policy_decides_when_the_model_first_sees_a_revealed_tool() {
    let template = fixture();
    let scenario = search_in_two_turns();
    let traces: Vec<String> = [Refresh::NextCall, Refresh::Late(1), Refresh::NextTurn, Refresh::Never]
        .into_iter()
        .map(|refresh| {
            let report = run_refreshing(&template, &scenario, refresh);
            format!("[{}] never shown: {}\n{}", refresh.name(), report.counters.tools_never_shown, trace(&report))
        })
        .collect();
    assert_snapshot!(traces.join("\n\n"), @r###"
    [next_call] never shown: 0
    call 1 [lookup, broken, read_section]
      read_section {"section_key":"docs"} -> ok content "## 3 Docs", expanded_tools ["search"]
      visibility [docs]
      injected [search] from docs
    call 2 [lookup, broken, search, read_section]
      search {"query":"login"} -> ok "2 hits"
    call 3 [lookup, broken, search, read_section]
    USER turn 2
    call 4 [lookup, broken, search, read_section]
      search {"query":"logout"} -> ok "2 hits"
    call 5 [lookup, broken, search, read_section]
    completed "Done."

    [late:1] never shown: 0
    call 1 [lookup, broken, read_section]
      read_section {"section_key":"docs"} -> ok content "## 3 Docs", expanded_tools ["search"]
      visibility [docs]
      pending +[search] -[] ~[] {"at_model_call":3}
    call 2 [lookup, broken, read_section]
      search {"query":"login"} -> failed "Unknown tool: 'search'"
      injected [search] from docs
    call 3 [lookup, broken, search, read_section]
    USER turn 2
    call 4 [lookup, broken, search, read_section]
      search {"query":"logout"} -> ok "2 hits"
    call 5 [lookup, broken, search, read_section]
    completed "Done."

    [next_turn] never shown: 0
    call 1 [lookup, broken, read_section]
      read_section {"section_key":"docs"} -> ok content "## 3 Docs", expanded_tools ["search"]
      visibility [docs]
      pending +[search] -[] ~[] {"at_turn":2}
    call 2 [lookup, broken, read_section]
      search {"query":"login"} -> failed "Unknown tool: 'search'"
    call 3 [lookup, broken, read_section]
    USER turn 2
      injected [search] from docs
    call 4 [lookup, broken, search, read_section]
      search {"query":"logout"} -> ok "2 hits"
    call 5 [lookup, broken, search, read_section]
    completed "Done."

    [never] never shown: 1
    call 1 [lookup, broken, read_section]
      read_section {"section_key":"docs"} -> ok content "## 3 Docs", expanded_tools ["search"]
      visibility [docs]
      pending +[search] -[] ~[] "never"
    call 2 [lookup, broken, read_section]
      search {"query":"login"} -> failed "Unknown tool: 'search'"
    call 3 [lookup, broken, read_section]
    USER turn 2
    call 4 [lookup, broken, read_section]
      search {"query":"logout"} -> failed "Unknown tool: 'search'"
    call 5 [lookup, broken, read_section]
    completed "Done."
    "###);
}

#[test]
fn scripted_results_come_from_tool_results_then_mock_then_fail() {
    let trace = check(
        &fixture(),
        json!({
            "script": [
                { "call": "search", "args": { "q": "not offered yet" } },
                { "calls": [
                    { "call": "lookup", "args": { "id": 1 } },
                    { "call": "lookup", "args": { "id": 2 } },
                    { "call": "lookup", "args": { "id": 3 } },
                    { "call": "broken", "args": {} }
                ]},
                { "say": "Done." }
            ],
            "tool_results": { "lookup": [ { "result": "first" }, { "error": "second fails" } ] }
        }),
    );
    assert_snapshot!(trace, @r#"
    [dynamic]
    call 1 [lookup, broken, read_section]
      search {"q":"not offered yet"} -> failed "Unknown tool: 'search'"
    call 2 [lookup, broken, read_section]
      lookup {"id":1} -> ok "first"
      lookup {"id":2} -> failed "second fails"
      lookup {"id":3} -> failed "second fails"
      broken {} -> failed "backend down"
    call 3 [lookup, broken, read_section]
    completed "Done."

    [restart]
    call 1 [lookup, broken, read_section]
      search {"q":"not offered yet"} -> failed "Unknown tool: 'search'"
    call 2 [lookup, broken, read_section]
      lookup {"id":1} -> ok "first"
      lookup {"id":2} -> failed "second fails"
      lookup {"id":3} -> failed "second fails"
      broken {} -> failed "backend down"
    call 3 [lookup, broken, read_section]
    completed "Done."
    "#);
}

#[test]
fn a_tool_without_result_or_mock_fails() {
    let mut template = fixture();
    template.tools[0].mock = None;
    let trace =
        check(&template, json!({ "script": [ { "call": "lookup", "args": { "id": 1 } }, { "say": "Done." } ] }));
    assert_snapshot!(trace, @r#"
    [dynamic]
    call 1 [lookup, broken, read_section]
      lookup {"id":1} -> failed "No result scripted for tool 'lookup'"
    call 2 [lookup, broken, read_section]
    completed "Done."

    [restart]
    call 1 [lookup, broken, read_section]
      lookup {"id":1} -> failed "No result scripted for tool 'lookup'"
    call 2 [lookup, broken, read_section]
    completed "Done."
    "#);
}

#[test]
fn counters_are_derived_from_the_events() {
    let report = run_both(
        &fixture(),
        &scenario(json!({ "script": [
            { "call": "search", "args": { "q": "x" } },
            { "call": "read_section", "args": { "section_key": "docs" } },
            { "call": "search", "args": { "q": "y" } },
            { "say": "Done." }
        ]})),
    );
    let [dynamic, restart] = [&report.runs[0], &report.runs[1]];
    assert_eq!(dynamic.counters, Counters::of(&dynamic.events));
    assert_eq!(
        (dynamic.counters.model_calls, dynamic.counters.tool_calls, dynamic.counters.failed_tool_calls),
        (4, 3, 1)
    );
    assert_eq!((dynamic.counters.tools_injected, dynamic.counters.dynamic_expansions), (1, 1));
    assert_eq!((restart.counters.restarts, restart.counters.model_calls, restart.counters.tool_calls), (1, 5, 4));
    assert!(restart.counters.prompt_tokens > 0 && restart.counters.completion_tokens > 0);
}

#[test]
fn arguments_that_break_the_tool_schema_fail_the_call() {
    let trace = check(
        &fixture(),
        json!({ "script": [
            { "calls": [
                { "call": "lookup", "args": { "id": "seven" } },
                { "call": "lookup", "args": { "id": 7, "extra": true } }
            ]},
            { "say": "Done." }
        ]}),
    );
    assert_snapshot!(trace, @r#"
    [dynamic]
    call 1 [lookup, broken, read_section]
      lookup {"id":"seven"} -> failed "Invalid arguments for 'lookup': /id: \"seven\" is not of type \"integer\""
      lookup {"id":7,"extra":true} -> ok {"id":7,"title":"Login fails"}
    call 2 [lookup, broken, read_section]
    completed "Done."

    [restart]
    call 1 [lookup, broken, read_section]
      lookup {"id":"seven"} -> failed "Invalid arguments for 'lookup': /id: \"seven\" is not of type \"integer\""
      lookup {"id":7,"extra":true} -> ok {"id":7,"title":"Login fails"}
    call 2 [lookup, broken, read_section]
    completed "Done."
    "#);
}

/// A model behind a harness that configures its tools once per conversation.
struct FixedToolsProvider(ScriptedProvider);

#[async_trait::async_trait]
impl Provider for FixedToolsProvider {
    async fn complete(&mut self, request: &ModelRequest<'_>) -> unfold_documents::Result<ModelResponse> {
        self.0.complete(request).await
    }

    fn fixed_tools(&self) -> Option<String> {
        Some("it takes its tools once".to_owned())
    }
}

#[test]
fn a_provider_that_takes_its_tools_once_runs_the_dynamic_adapter_as_the_restart_adapter() {
    let template = fixture();
    let scenario = scenario(json!({ "script": [
        { "call": "read_section", "args": { "section_key": "docs" } },
        { "call": "search", "args": { "query": "login" } },
        { "say": "Done." }
    ]}));
    let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
    let run_on_fixed_tools = |kind: AdapterKind| {
        let input = RunInput::of_scenario(&template, &scenario);
        let mut provider = FixedToolsProvider(ScriptedProvider::new(&scenario, &template));
        let mut results = ScriptedToolResults::new(&scenario);
        runtime.block_on(run(&input, adapter_for(kind), &mut provider, &mut results, &mut |_| {})).unwrap()
    };
    let asked_dynamic = run_on_fixed_tools(AdapterKind::Dynamic);
    assert_eq!(asked_dynamic.adapter, AdapterKind::Dynamic, "the run keeps the name it was asked for");
    let restart = &run_both(&template, &scenario).runs[1];
    let substituted = trace(&asked_dynamic);
    let (first, rest) = substituted.split_once('\n').unwrap();
    assert_eq!(first, "dynamic runs as restart");
    assert_eq!(rest, trace(restart), "it plays exactly as the restart adapter");
    assert_eq!(asked_dynamic.counters.restarts, 1);
    let event = &asked_dynamic.events[1].kind;
    let expected = unfold_engine::EventKind::AdapterSubstituted {
        requested: AdapterKind::Dynamic,
        adapter: AdapterKind::Restart,
        reason: "it takes its tools once".to_owned(),
    };
    assert_eq!(event, &expected);
    let restart_on_fixed_tools = run_on_fixed_tools(AdapterKind::Restart);
    assert_eq!(trace(&restart_on_fixed_tools), trace(restart), "the restart adapter needs no substitute");
}

/// The tools of each model call's request, as sent: name, description, parameters; and the
/// enum of `pick_tools`' names when it is sent.
fn sent_tools(comparison: &unfold_engine::compare::Comparison, lane: &str) -> Vec<Vec<serde_json::Value>> {
    let run = comparison.requests.iter().find(|run| run.lane.name() == lane).unwrap();
    run.calls.iter().map(|call| call.body["tools"].as_array().cloned().unwrap_or_default()).collect()
}

#[test]
fn pick_tools_offers_unpicked_tools_as_km_tools_does_and_a_direct_call_picks() {
    let mut template = fixture();
    template.tool_disclosure = ToolDisclosure::PickTools;
    let script = scenario(json!({ "script": [
        { "call": "broken", "args": {} },
        { "call": "pick_tools", "args": { "tools": ["lookup"] } },
        { "say": "Done." }
    ]}));
    let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
    let comparison = runtime
        .block_on(compare(
            Lanes::new(&template, &script, &[AdapterKind::Dynamic]),
            Drive { keep_requests: true, ..Drive::default() },
        ))
        .unwrap();
    let calls = sent_tools(&comparison, "dynamic");
    let tool = |call: usize, name: &str| {
        calls[call].iter().find(|t| t["function"]["name"] == name).map(|t| t["function"].clone())
    };
    // Call 1: unpicked tools by their brief (or description) with no parameters; pick_tools'
    // names are the unpicked ones.
    let lookup = tool(0, "lookup").unwrap();
    assert_eq!(lookup["description"], "Look up an issue.");
    assert_eq!(lookup["parameters"], json!({ "type": "object", "properties": {} }));
    assert_eq!(
        tool(0, "pick_tools").unwrap()["parameters"]["properties"]["tools"]["items"]["enum"],
        json!(["lookup", "broken"])
    );
    // Calling `broken` directly ran it and picked it: call 2 sends it in full, and only
    // `lookup` is left to pick.
    assert_eq!(tool(1, "broken").unwrap()["parameters"], template.tools[1].parameters);
    assert_eq!(tool(1, "pick_tools").unwrap()["parameters"]["properties"]["tools"]["items"]["enum"], json!(["lookup"]));
    // The pick's result holds the picked tools' specifications; every tool is picked, so
    // pick_tools is no longer sent.
    let report = &comparison.report.runs[0];
    let picked = report
        .events
        .iter()
        .find_map(|e| match &e.kind {
            unfold_engine::EventKind::ToolCall { name, result, .. } if name == "pick_tools" => Some(result.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(picked["tools"][0]["name"], "lookup");
    assert_eq!(picked["tools"][0]["description"], "Look up an issue by id.");
    assert_eq!(picked["tools"][0]["parameters"], template.tools[0].parameters);
    assert_eq!(tool(2, "pick_tools"), None);
    assert_eq!(tool(2, "lookup").unwrap()["description"], "Look up an issue by id.");
}

/// The scripted model, with its answer to call `cut_at` cut at the output-token limit.
struct CuttingProvider {
    inner: ScriptedProvider,
    calls: u32,
    cut_at: u32,
}

#[async_trait::async_trait]
impl Provider for CuttingProvider {
    async fn complete(&mut self, request: &ModelRequest<'_>) -> unfold_documents::Result<ModelResponse> {
        self.calls += 1;
        let answer = self.inner.complete(request).await?;
        Ok(ModelResponse { cut_at_limit: self.calls == self.cut_at, ..answer })
    }
}

#[test]
fn an_answer_cut_at_the_output_limit_ends_the_run_as_max_tokens_and_runs_none_of_its_calls() {
    let template = fixture();
    let scenario = scenario(json!({ "script": [
        { "call": "lookup", "args": { "id": 7 } },
        { "say": "Issue 7 is the login" }
    ]}));
    let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
    let run_cut_at = |cut_at: u32| {
        let input = RunInput::of_scenario(&template, &scenario);
        let mut provider = CuttingProvider { inner: ScriptedProvider::new(&scenario, &template), calls: 0, cut_at };
        let mut results = ScriptedToolResults::new(&scenario);
        runtime.block_on(run(&input, adapter_for(AdapterKind::Dynamic), &mut provider, &mut results, &mut |_| {}))
    };
    let cut_text = run_cut_at(2).unwrap();
    assert_eq!(cut_text.status, RunStatus::MaxTokens, "a cut answer is never completed");
    assert_eq!(cut_text.final_text.as_deref(), Some("Issue 7 is the login"), "what it said is kept");
    let cut_call = run_cut_at(1).unwrap();
    assert_eq!(cut_call.status, RunStatus::MaxTokens);
    assert_eq!(cut_call.counters.model_calls, 1, "the run ends at the cut answer");
    assert_eq!(cut_call.counters.tool_calls, 0, "a call the model never finished is not run");
    assert_eq!(run_cut_at(0).unwrap().status, RunStatus::Completed, "an answer not cut completes");
}
