//! A run with tool sources behind a host (spec 8): a source's tool is called on it, its list
//! changing mid-run becomes a `tool_availability_changed` before the next model call — injected
//! under the dynamic adapter, a restart under the restart adapter — and a change to tools the model
//! is not offered is the event alone. The host here is an in-memory one: the engine never does
//! I/O (`unfold-sources` tests the real MCP servers).

use async_trait::async_trait;
use serde_json::{json, Value};
use unfold_documents::host_profile::{ToolNames, ToolOrder};
use unfold_documents::{Template, Tool};
use unfold_engine::{
    adapter_for, run_with_host, AdapterKind, ChangedList, HostAnswer, RunInput, RunLimits, ScriptedProvider,
    ScriptedToolResults, ToolHost, ToolPolicy,
};
use unfold_test_support::{scenario, trace};

fn tool(name: &str, description: &str) -> Tool {
    serde_json::from_value(json!({ "name": name, "description": description, "parameters": { "type": "object" } }))
        .unwrap()
}

/// A source `ide` whose `unlock` tool adds `deploy` and changes `grep`'s description.
struct IdeSource {
    tools: Vec<Tool>,
    changed: bool,
    calls: Vec<String>,
}

#[async_trait]
impl ToolHost for IdeSource {
    fn answers(&self, tool: &str) -> bool {
        self.tools.iter().any(|t| t.name == tool)
    }

    async fn call(&mut self, tool: &str, _arguments: &Value) -> HostAnswer {
        self.calls.push(tool.to_owned());
        if tool == "unlock" {
            self.unlock();
        }
        HostAnswer { success: true, result: Value::String(format!("{tool} done")) }
    }

    async fn changed_lists(&mut self, _before_model_call: u32) -> Vec<ChangedList> {
        if !std::mem::take(&mut self.changed) {
            return Vec::new();
        }
        vec![ChangedList { source: "ide".into(), tools: self.tools.clone() }]
    }
}

impl IdeSource {
    /// The list after `unlock`: `deploy` added, `grep` described anew.
    fn unlock(&mut self) {
        self.tools =
            vec![tool("grep", "Search the workspace, faster."), tool("unlock", "Unlock."), tool("deploy", "Deploy.")];
        self.changed = true;
    }
}

/// The example with source `ide` on `section` (its first list: grep and unlock).
fn sourced(section: Option<&str>) -> (Template, Vec<unfold_documents::discovery::Discovery>, IdeSource) {
    let mut template = unfold_test_support::load_template("examples/task-executor.unfold.json");
    template.sources =
        serde_json::from_value(json!([{ "name": "ide", "section": section, "mcp": { "command": ["ide"] } }])).unwrap();
    let first = vec![tool("grep", "Search the workspace."), tool("unlock", "Unlock.")];
    let live = unfold_documents::discovery::Discovery {
        source: "ide".into(),
        tier: unfold_documents::discovery::Tier::Live,
        tools: first.clone(),
        error: None,
    };
    let (seen, discoveries) = template.with_discovered(vec![live]);
    (seen, discoveries, IdeSource { tools: first, changed: false, calls: Vec::new() })
}

/// The run's trace and the calls the source answered; `changed_at_start`: the source announces its
/// new list before the first model call, without being called.
fn run(kind: AdapterKind, section: Option<&str>, script: Value, changed_at_start: bool) -> (String, Vec<String>) {
    let (template, discoveries, mut host) = sourced(section);
    if changed_at_start {
        host.unlock();
    }
    let report = run_on(kind, &template, &discoveries, &mut host, json!({ "script": script }));
    (trace(&report), host.calls)
}

/// A run under `kind` of the scenario with `fields`, its sources' tools from `discoveries`, behind `host`.
fn run_on(
    kind: AdapterKind,
    template: &Template,
    discoveries: &[unfold_documents::discovery::Discovery],
    host: &mut IdeSource,
    fields: Value,
) -> unfold_engine::RunReport {
    run_ordered(kind, template, discoveries, host, fields, ToolPolicy::default())
}

/// [`run_on`] with the tools sent as `tool_policy` says.
fn run_ordered(
    kind: AdapterKind,
    template: &Template,
    discoveries: &[unfold_documents::discovery::Discovery],
    host: &mut IdeSource,
    fields: Value,
    tool_policy: ToolPolicy,
) -> unfold_engine::RunReport {
    let scenario = scenario(fields);
    let mut provider = ScriptedProvider::new(&scenario, template);
    let mut results = ScriptedToolResults::new(&scenario);
    let input = RunInput {
        template,
        params: Default::default(),
        user_turns: scenario.user_turns(),
        tool_changes: &[],
        discoveries,
        limits: RunLimits::default(),
        tool_policy,
    };
    let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
    runtime
        .block_on(run_with_host(&input, adapter_for(kind), &mut provider, &mut results, Some(host), &mut |_| {}))
        .unwrap()
}

/// The tools of each model call, as the model was sent them.
fn tool_lists(report: &unfold_engine::RunReport) -> Vec<String> {
    let lists = report.events.iter().filter_map(|event| match &event.kind {
        unfold_engine::EventKind::ModelCall { tools_offered, .. } => Some(tools_offered.join(" ")),
        _ => None,
    });
    lists.collect()
}

#[test]
fn a_lane_sends_its_tools_in_its_order() {
    let lists =
        |order| tool_lists(&run_unlock_then_deploy(ToolPolicy { order, ..ToolPolicy::default() }))[..2].to_vec();
    // New tools go before the disclosure tool as they come; sorted, they take their place by
    // name; sources last, the source's grep and unlock follow the template's own.
    assert_eq!(lists(ToolOrder::Append), ["lookup read_section", "lookup search cite grep unlock read_section"]);
    assert_eq!(lists(ToolOrder::Sorted), ["lookup read_section", "cite grep lookup read_section search unlock"]);
    assert_eq!(lists(ToolOrder::SourcesLast), ["lookup read_section", "lookup search cite read_section grep unlock"]);
}

#[test]
fn a_lane_names_a_sources_tools_as_mcp_hosts_do_and_the_model_calls_them_so() {
    let policy = ToolPolicy { order: ToolOrder::Sorted, names: ToolNames::McpPrefixed, ..ToolPolicy::default() };
    let report = run_unlock_then_deploy(policy);
    // The source's tools (grep, unlock, then deploy from its new list) are sent as
    // `mcp__ide__…`, and sorted by the names sent; the template's own keep theirs.
    assert_eq!(
        tool_lists(&report),
        [
            "lookup read_section",
            "cite lookup mcp__ide__grep mcp__ide__unlock read_section search",
            "cite lookup mcp__ide__deploy mcp__ide__grep mcp__ide__unlock read_section search",
            "cite lookup mcp__ide__deploy mcp__ide__grep mcp__ide__unlock read_section search",
        ]
    );
    // The model called them by those names; each call is answered as the source's tool and
    // recorded under the template's name, as on every other lane.
    let calls: Vec<(String, bool)> = report
        .events
        .iter()
        .filter_map(|event| match &event.kind {
            unfold_engine::EventKind::ToolCall { name, success, .. } => Some((name.clone(), *success)),
            _ => None,
        })
        .collect();
    let expected = [("read_section", true), ("unlock", true), ("deploy", true)];
    assert_eq!(calls, expected.map(|(name, success)| (name.to_owned(), success)));
    assert_eq!(report.status, unfold_engine::RunStatus::Completed);
}

#[test]
fn a_tool_is_picked_by_the_name_it_was_sent_under() {
    let (mut template, discoveries, mut host) = sourced(Some("context"));
    template.tool_disclosure = unfold_documents::template::ToolDisclosure::PickTools;
    let script = json!([
        { "call": "read_section", "args": { "section_key": "context" } },
        { "call": "pick_tools", "args": { "tools": ["mcp__ide__unlock"] } },
        { "say": "Picked." }
    ]);
    let policy = ToolPolicy { names: ToolNames::McpPrefixed, ..ToolPolicy::default() };
    let report =
        run_ordered(AdapterKind::Dynamic, &template, &discoveries, &mut host, json!({ "script": script }), policy);
    let pick = report.events.iter().find_map(|event| match &event.kind {
        unfold_engine::EventKind::ToolCall { name, success, result, .. } if name == "pick_tools" => {
            Some((*success, result.clone()))
        }
        _ => None,
    });
    let (success, result) = pick.expect("pick_tools was called");
    assert!(success, "{result}");
    assert_eq!(result["picked"], json!(["mcp__ide__unlock"]));
    assert_eq!(result["tools"][0]["name"], "mcp__ide__unlock");
}

/// The dynamic lane of [`UNLOCK_THEN_DEPLOY`] on the template with the `ide` source, its tools
/// shown as `tool_policy` says.
fn run_unlock_then_deploy(tool_policy: ToolPolicy) -> unfold_engine::RunReport {
    let (template, discoveries, mut host) = sourced(Some("context"));
    let script: Value = serde_json::from_str(UNLOCK_THEN_DEPLOY).unwrap();
    run_ordered(AdapterKind::Dynamic, &template, &discoveries, &mut host, json!({ "script": script }), tool_policy)
}

const UNLOCK_THEN_DEPLOY: &str = r#"[
    { "call": "read_section", "args": { "section_key": "context" } },
    { "call": "unlock", "args": {} },
    { "call": "deploy", "args": {} },
    { "say": "Deployed." }
]"#;

#[test]
fn a_list_change_is_injected_under_the_dynamic_adapter() {
    let (trace, calls) =
        run(AdapterKind::Dynamic, Some("context"), serde_json::from_str(UNLOCK_THEN_DEPLOY).unwrap(), false);
    insta::assert_snapshot!(trace, @r###"
    discovered ide live [grep, unlock]
    call 1 [lookup, read_section]
      read_section {"section_key":"context"} -> ok content "## 2 Project Context", expanded_tools ["search","cite","grep","unlock"]
      visibility [context]
      injected [search, cite, grep, unlock] from context
    call 2 [lookup, search, cite, grep, unlock, read_section]
      unlock {} -> ok "unlock done"
    tools changed before call 3 (ide): +[deploy] -[] ~[grep]
      removed [grep]
      injected [deploy, grep] from context
    call 3 [lookup, search, cite, unlock, deploy, grep, read_section]
      deploy {} -> ok "deploy done"
    call 4 [lookup, search, cite, unlock, deploy, grep, read_section]
    completed "Deployed."
    "###);
    assert_eq!(calls, ["unlock", "deploy"]);
}

/// Under `tool_addition` a source's changed tool keeps its place in the list with its new
/// definition, and no system message takes it away and adds it back; a tool no list had before is
/// added to the list, as the API takes new tools only there.
#[test]
fn a_list_change_under_tool_addition_redefines_a_changed_tool_in_place() {
    let (trace, calls) =
        run(AdapterKind::ToolAddition, Some("context"), serde_json::from_str(UNLOCK_THEN_DEPLOY).unwrap(), false);
    insta::assert_snapshot!(trace, @r###"
    discovered ide live [grep, unlock]
    call 1 [lookup, read_section]
      read_section {"section_key":"context"} -> ok content "## 2 Project Context", expanded_tools ["search","cite","grep","unlock"]
      visibility [context]
      added [search, cite, grep, unlock] from context
    call 2 [lookup, search, cite, grep, unlock, read_section]
      unlock {} -> ok "unlock done"
    tools changed before call 3 (ide): +[deploy] -[] ~[grep]
      injected [deploy] from context
      redefined [grep]
    call 3 [lookup, search, cite, grep, unlock, deploy, read_section]
      deploy {} -> ok "deploy done"
    call 4 [lookup, search, cite, grep, unlock, deploy, read_section]
    completed "Deployed."
    "###);
    assert_eq!(calls, ["unlock", "deploy"]);
}

#[test]
fn a_list_change_restarts_the_restart_adapter() {
    let (trace, calls) =
        run(AdapterKind::Restart, Some("context"), serde_json::from_str(UNLOCK_THEN_DEPLOY).unwrap(), false);
    insta::assert_snapshot!(trace, @r###"
    discovered ide live [grep, unlock]
    call 1 [lookup, read_section]
      read_section {"section_key":"context"} -> ok content "## 2 Project Context", expanded_tools ["search","cite","grep","unlock"]
      visibility [context]
    RESTART visibility_expansion [context] -> attempt 2
    call 2 [lookup, search, cite, grep, unlock, read_section]
      unlock {} -> ok "unlock done"
    tools changed before call 3 (ide): +[deploy] -[] ~[grep]
    RESTART tool_availability_changed [] -> attempt 3
    call 3 [lookup, search, cite, grep, unlock, deploy, read_section]
      unlock {} -> ok "unlock done"
    call 4 [lookup, search, cite, grep, unlock, deploy, read_section]
      deploy {} -> ok "deploy done"
    call 5 [lookup, search, cite, grep, unlock, deploy, read_section]
    completed "Deployed."
    "###);
    // The restart threw the unlock away: the model redid it (its list was already the new one).
    assert_eq!(calls, ["unlock", "unlock", "deploy"]);
}

#[test]
fn a_change_to_tools_not_offered_is_the_event_alone() {
    // The source's section, `style`, stays summarized: nothing is injected, nothing restarts.
    let script = json!([{ "call": "lookup", "args": { "id": 7 } }, { "say": "Done." }]);
    let (dynamic, _) = run(AdapterKind::Dynamic, Some("style"), script.clone(), true);
    let (restart, calls) = run(AdapterKind::Restart, Some("style"), script, true);
    assert_eq!(dynamic, restart, "neither adapter does anything but record it");
    insta::assert_snapshot!(restart, @r#"
    discovered ide live [grep, unlock]
    tools changed before call 1 (ide): +[deploy] -[] ~[grep]
    call 1 [lookup, read_section]
      lookup {"id":7} -> ok {"id":7,"title":"Login fails"}
    call 2 [lookup, read_section]
    completed "Done."
    "#);
    assert!(calls.is_empty());
}

#[test]
fn a_scripted_result_wins_over_the_source() {
    let (template, discoveries, mut host) = sourced(None);
    let fields = json!({
        "script": [{ "call": "grep", "args": {} }, { "say": "Done." }],
        "tool_results": { "grep": [{ "result": "scripted hits" }] }
    });
    let report = run_on(AdapterKind::Dynamic, &template, &discoveries, &mut host, fields);
    assert!(trace(&report).contains(r#"grep {} -> ok "scripted hits""#), "{}", trace(&report));
    assert!(host.calls.is_empty());
}
