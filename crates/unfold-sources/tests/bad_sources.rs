//! Sources that cannot be used: each a clear error within its timeout, a discovery that falls back
//! to the snapshot (or nothing) with the reason, and no process left behind.

use std::time::Duration;

use serde_json::json;
use unfold_documents::discovery::Tier;
use unfold_documents::Template;
use unfold_sources::discover::discover;
use unfold_sources::{Consent, McpConnection, SourceError};

use crate::servers::{command, processes_running, python, servers_dir, user_env, START_TIMEOUT};

#[tokio::test(flavor = "current_thread")]
async fn a_command_that_does_not_exist_is_named() {
    let server = command(&["unfold-no-such-server", "--stdio"]);
    let error = McpConnection::start(&server, &servers_dir(), &user_env, START_TIMEOUT).await.err().expect("no server");
    assert!(matches!(&error, SourceError::Start { program, .. } if program == "unfold-no-such-server"), "{error}");
    assert!(error.to_string().starts_with("cannot start 'unfold-no-such-server': "), "{error}");
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
        [("live".into(), Tier::Live, 4), ("broken".into(), Tier::Snapshot, 1), ("remote".into(), Tier::None, 0)]
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
