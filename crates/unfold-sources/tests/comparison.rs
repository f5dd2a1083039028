//! A comparison whose template has an MCP source (the Python SDK server): each lane gets its own
//! server, discovered live; its `unlock` tool makes the server add `deploy`, which the dynamic lane
//! injects and the restart lane restarts for; the calls are answered by the server; and no server
//! is left running.

use std::time::Duration;

use serde_json::json;
use unfold_documents::Template;
use unfold_engine::compare::{compare, Drive, Lane, Lanes};
use unfold_engine::{AdapterKind, ComparisonReport};
use unfold_sources::{Consent, McpSources};

use crate::servers::{processes_running, python, servers_dir, START_TIMEOUT};

/// The example with an `ide` source on `context` running the Python SDK server, whose command
/// line carries `marker` so the test can look for its processes.
fn template_with_ide(marker: &str) -> Template {
    let mut template = unfold_test_support::load_template("examples/task-executor.unfold.json");
    template.sources = serde_json::from_value(json!([{
        "name": "ide", "section": "context", "mcp": { "command": [python(), "changing_tools.py", marker] }
    }]))
    .unwrap();
    Template::from_json(template.to_json().as_bytes()).unwrap()
}

/// `script` compared on `template` under both adapters and the baseline, every run with its own
/// server.
async fn compare_with_servers(template: &Template, script: serde_json::Value) -> ComparisonReport {
    let scenario = unfold_test_support::scenario(json!({ "script": script }));
    let mut sources = McpSources {
        template_dir: servers_dir(),
        consent: Consent::start_local(),
        user_env: Box::new(|name: &str| std::env::var(name).ok()),
        start_timeout: START_TIMEOUT,
        call_timeout: Duration::from_secs(30),
    };
    let adapters = [AdapterKind::Dynamic, AdapterKind::Restart];
    let drive = Drive { sources: Some(&mut sources), ..Drive::default() };
    compare(Lanes::new(template, &scenario, &adapters), drive).await.unwrap().report
}

#[tokio::test(flavor = "current_thread")]
async fn each_lane_gets_its_own_server_and_sees_its_list_change() {
    let marker = "lane-servers-marker";
    let template = template_with_ide(marker);
    let script = json!([
        { "call": "read_section", "args": { "section_key": "context" } },
        { "call": "unlock", "args": {} },
        { "call": "deploy", "args": { "target": "prod" } },
        { "say": "Deployed." }
    ]);
    let report = compare_with_servers(&template, script).await;
    let lines = |lane: Lane| {
        let run = if lane.is_baseline() {
            &report.baseline.as_ref().unwrap().run
        } else {
            report.runs.iter().find(|r| r.lane() == lane).unwrap()
        };
        unfold_test_support::trace(run)
    };
    let dynamic = lines(Lane::DYNAMIC);
    // The server's `lookup` gives way to the template's own.
    let discovered =
        "discovered ide live [unlock, fail, crash, huge] (left out 'lookup': the template already has a tool of that name)";
    assert!(dynamic.starts_with(discovered), "{dynamic}");
    assert!(dynamic.contains("tools changed before call 3 (ide): +[deploy] -[]\n"), "{dynamic}");
    assert!(dynamic.contains("injected [deploy] from context"), "{dynamic}");
    assert!(dynamic.contains(r#"deploy {"target":"prod"} -> ok "deployed to prod""#), "{dynamic}");
    let restart = lines(Lane::RESTART);
    assert!(restart.contains("RESTART tool_availability_changed [] -> attempt 3"), "{restart}");
    assert!(restart.contains(r#"deploy {"target":"prod"} -> ok "deployed to prod""#), "{restart}");
    // The baseline ran on a server of its own too, every tool offered from the start.
    assert!(lines(Lane::BASELINE).starts_with("discovered ide live"), "{}", lines(Lane::BASELINE));
    assert_eq!(processes_running(marker).await, Vec::<u32>::new(), "every lane's server was shut down");
}

#[tokio::test(flavor = "current_thread")]
async fn a_server_that_crashes_mid_run_fails_the_calls_and_the_run_goes_on() {
    let marker = "crashing-server-marker";
    let template = template_with_ide(marker);
    let script = json!([
        { "call": "read_section", "args": { "section_key": "context" } },
        { "call": "crash", "args": {} },
        { "call": "unlock", "args": {} },
        { "say": "Gave up." }
    ]);
    let report = compare_with_servers(&template, script).await;
    for run in &report.runs {
        let trace = unfold_test_support::trace(run);
        assert!(trace.contains("crash {} -> failed"), "{trace}");
        assert!(trace.contains("unlock {} -> failed \"The source failed: "), "{trace}");
        assert!(trace.ends_with("completed \"Gave up.\""), "the run goes on to its end: {trace}");
    }
    assert_eq!(processes_running(marker).await, Vec::<u32>::new(), "nothing left running");
}
