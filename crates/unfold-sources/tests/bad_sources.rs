//! Sources that cannot be used: each a clear error within its timeout, a discovery that falls back
//! to the snapshot (or nothing) with the reason, and no process left behind.

use std::time::Duration;

use serde_json::json;
use unfold_documents::discovery::Tier;
use unfold_documents::Template;
use unfold_sources::discover::discover;
use unfold_sources::{Consent, McpConnection, SourceError};

use crate::servers::{
    changing_tools, command, process_exists, processes_running, python, servers_dir, user_env, START_TIMEOUT,
};

#[tokio::test(flavor = "current_thread")]
async fn a_command_that_does_not_exist_is_named() {
    let server = command(&["unfold-no-such-server", "--stdio"]);
    let error = McpConnection::start(&server, &servers_dir(), &user_env, START_TIMEOUT).await.err().expect("no server");
    assert!(matches!(&error, SourceError::Start { program, .. } if program == "unfold-no-such-server"), "{error}");
    assert!(error.to_string().starts_with("cannot start 'unfold-no-such-server': "), "{error}");
}

#[tokio::test(flavor = "current_thread")]
async fn a_folder_that_does_not_exist_is_named_not_the_program() {
    let mut server = command(&[&python(), "changing_tools.py"]);
    server.cwd = Some("no-such-folder".into());
    let error = McpConnection::start(&server, &servers_dir(), &user_env, START_TIMEOUT).await.err().expect("no folder");
    assert!(matches!(error, SourceError::Definition(_)), "{error}");
    assert_eq!(
        error.to_string(),
        format!("its folder {} does not exist", servers_dir().join("no-such-folder").display())
    );
}

#[tokio::test(flavor = "current_thread")]
async fn a_server_that_exits_at_start_or_never_answers_is_an_error_in_time() {
    let python = python();
    let exits = command(&[&python, "-c", "import sys; sys.exit(3)"]);
    let error = McpConnection::start(&exits, &servers_dir(), &user_env, START_TIMEOUT).await.err().expect("it exited");
    assert!(matches!(error, SourceError::Protocol(_)), "{error}");

    let silent = command(&[&python, "-c", "import time; time.sleep(600)  # never answers"]);
    let started = std::time::Instant::now();
    let timeout = Duration::from_secs(2);
    let error =
        McpConnection::start(&silent, &servers_dir(), &user_env, timeout).await.err().expect("it never answers");
    assert!(matches!(error, SourceError::Timeout(_)), "{error}");
    assert!(started.elapsed() < START_TIMEOUT, "no hang past the timeout");
    assert_eq!(processes_running("never answers").await, Vec::<u32>::new(), "the silent server was killed");
}

#[tokio::test(flavor = "current_thread")]
async fn a_server_that_answers_outside_the_protocol_is_an_error_in_time() {
    let python = python();
    let garbage =
        command(&[&python, "-c", "import time; print('{not json-rpc', flush=True); time.sleep(600)  # garbage"]);
    let error = McpConnection::start(&garbage, &servers_dir(), &user_env, Duration::from_secs(2))
        .await
        .err()
        .expect("no protocol");
    assert!(matches!(error, SourceError::Protocol(_) | SourceError::Timeout(_)), "{error}");
    assert_eq!(processes_running("# garbage").await, Vec::<u32>::new(), "the server was killed");
}

#[tokio::test(flavor = "current_thread")]
async fn discovery_lists_allowed_sources_live_and_falls_back_with_the_reason() {
    let python = python();
    let sources = json!([
        { "name": "live", "section": null, "mcp": { "command": [python, "changing_tools.py"] }, "snapshot": [] },
        { "name": "broken", "section": null, "mcp": { "command": ["unfold-no-such-server"] },
          "snapshot": [{ "name": "old_tool", "description": "From the snapshot.", "parameters": { "type": "object" } }] },
        { "name": "remote", "section": null, "mcp": { "url": "https://mcp.example.com/mcp" } }
    ]);
    let template = Template::from_json(
        json!({ "schema_version": 1, "kind": "unfold.template", "key": "t", "sections": [], "sources": sources })
            .to_string()
            .as_bytes(),
    )
    .unwrap();
    let listed = |discoveries: &[unfold_documents::discovery::Discovery]| -> Vec<(String, Tier, usize)> {
        discoveries.iter().map(|d| (d.source.clone(), d.tier, d.tools.len())).collect()
    };

    let (discoveries, connections) =
        discover(&template, &servers_dir(), &Consent::start_local(), &user_env, START_TIMEOUT).await;
    assert_eq!(
        listed(&discoveries),
        [("live".into(), Tier::Live, 5), ("broken".into(), Tier::Snapshot, 1), ("remote".into(), Tier::None, 0)]
    );
    let errors: Vec<&str> = discoveries.iter().map(|d| d.error.as_deref().unwrap_or("-")).collect();
    assert!(errors[1].starts_with("the live list failed: cannot start 'unfold-no-such-server'"), "{errors:?}");
    assert_eq!(
        errors[2], "https://mcp.example.com/mcp is not on this machine: allow source 'remote' by name to reach it",
        "a URL off this machine is never reached without the user's say-so"
    );
    assert_eq!(connections.len(), 1);
    for (_, connection) in connections {
        connection.shutdown().await;
    }

    // Without consent nothing starts: each source gives what it has without running.
    let (discoveries, connections) =
        discover(&template, &servers_dir(), &Consent::default(), &user_env, START_TIMEOUT).await;
    assert_eq!(
        listed(&discoveries),
        [("live".into(), Tier::Snapshot, 0), ("broken".into(), Tier::Snapshot, 1), ("remote".into(), Tier::None, 0)]
    );
    assert!(connections.is_empty());
}

#[tokio::test(flavor = "current_thread")]
async fn a_huge_answer_is_a_failed_result_in_time_and_the_server_goes_on() {
    let connection = McpConnection::start(&changing_tools(), &servers_dir(), &user_env, START_TIMEOUT).await.unwrap();
    let pid = connection.pid().expect("a child process");
    let args = |value: serde_json::Value| value.as_object().unwrap().clone();
    let large = connection.call("huge", args(json!({ "megabytes": 5 })), START_TIMEOUT).await;
    assert!(!large.success);
    assert_eq!(large.result, "The source answered with 5.0 MB of text, over the 1 MB a tool result may take");

    let timeout = Duration::from_secs(10);
    let started = std::time::Instant::now();
    let huge = connection.call("huge", args(json!({ "megabytes": 50 })), timeout).await;
    assert!(!huge.success);
    assert_eq!(huge.result, "The source gave no answer within 10 s (an answer over 16 MB is dropped unread)");
    assert!(started.elapsed() < timeout + Duration::from_secs(5), "no hang past the timeout");
    let small = connection.call("lookup", args(json!({ "issue": 2 })), START_TIMEOUT).await;
    assert_eq!((small.success, small.result.as_str()), (true, Some("issue 2: login fails")), "the server goes on");
    connection.shutdown().await;
    assert!(!process_exists(pid), "no process left");
}

#[tokio::test(flavor = "current_thread")]
async fn a_listed_tool_with_an_invalid_name_or_a_written_tools_name_is_left_out_with_the_reason() {
    let python = python();
    let source = json!({ "name": "ide", "section": null,
        "mcp": { "command": [python, "changing_tools.py"], "env": { "UNFOLD_TEST_BAD_NAME": "1" } } });
    let written = json!({ "key": "task", "title": "Task", "template": "Do it.",
        "tools": [{ "name": "lookup", "description": "Written.", "parameters": { "type": "object" } }] });
    let template = Template::from_json(
        json!({ "schema_version": 1, "kind": "unfold.template", "key": "t", "sections": [written], "sources": [source] })
            .to_string()
            .as_bytes(),
    )
    .unwrap();
    let (discoveries, connections) =
        discover(&template, &servers_dir(), &Consent::start_local(), &user_env, START_TIMEOUT).await;
    for (_, connection) in connections {
        connection.shutdown().await;
    }
    let listed: Vec<&str> = discoveries[0].tools.iter().map(|t| t.name.as_str()).collect();
    assert!(listed.contains(&"has space"), "the server lists it: {listed:?}");
    let (seen, discoveries) = template.with_discovered(discoveries);
    let offered: Vec<&str> = discoveries[0].tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(offered, ["unlock", "fail", "crash", "huge"]);
    let why = discoveries[0].error.as_deref().unwrap_or_default();
    assert!(why.contains("has space"), "{why}");
    assert!(why.contains("lookup"), "{why}");
    let lookup = seen.all_tools().into_iter().find(|t| t.name == "lookup").unwrap();
    assert_eq!(lookup.description, "Written.", "the written tool stays");
}
