//! The Python SDK server: listed with its annotations as kinds, called (a result, an `isError`
//! result), its list change seen and listed afresh, and shut down with no process left.

use unfold_documents::tool::ToolKind;
use unfold_sources::McpConnection;

use crate::servers::{changing_tools, process_exists, servers_dir, user_env, START_TIMEOUT};

fn names_and_kinds(tools: &[unfold_documents::Tool]) -> Vec<(String, Option<ToolKind>)> {
    tools.iter().map(|t| (t.name.clone(), t.kind)).collect()
}

#[tokio::test(flavor = "current_thread")]
async fn lists_calls_sees_a_list_change_and_leaves_no_process() {
    let mut connection =
        McpConnection::start(&changing_tools(), &servers_dir(), &user_env, START_TIMEOUT).await.unwrap();
    let pid = connection.pid().expect("a child process");
    let tools = connection.list_tools(START_TIMEOUT).await.unwrap();
    assert_eq!(
        names_and_kinds(&tools),
        [
            ("lookup".into(), Some(ToolKind::Read)),
            ("unlock".into(), Some(ToolKind::Edit)),
            ("fail".into(), Some(ToolKind::Other)),
            ("crash".into(), Some(ToolKind::Other)),
            ("huge".into(), Some(ToolKind::Other))
        ]
    );
    assert_eq!(tools[0].description, "Look up an issue by its number.");
    assert_eq!(tools[0].parameters["properties"]["issue"]["type"], "integer");
    assert!(!connection.take_list_changed());

    let looked_up =
        connection.call("lookup", serde_json::json!({ "issue": 7 }).as_object().unwrap().clone(), START_TIMEOUT).await;
    assert_eq!((looked_up.success, looked_up.result.as_str()), (true, Some("issue 7: login fails")));
    let failed = connection.call("fail", Default::default(), START_TIMEOUT).await;
    assert!(!failed.success, "an isError result is a failed result");
    assert_eq!(failed.result, "Error executing tool fail: the tool failed on purpose");

    // The server says its list changed before it answers the call: seen by the time the call returns.
    let unlocked = connection.call("unlock", Default::default(), START_TIMEOUT).await;
    assert!(unlocked.success, "{unlocked:?}");
    assert!(connection.take_list_changed(), "the list change is seen before the next model call");
    assert!(!connection.take_list_changed(), "and taken once");
    let relisted = connection.list_tools(START_TIMEOUT).await.unwrap();
    assert_eq!(
        relisted.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(),
        ["lookup", "unlock", "fail", "crash", "huge", "deploy"]
    );

    connection.shutdown().await;
    assert!(!process_exists(pid), "the server's process is gone after shutdown");
}

#[tokio::test(flavor = "current_thread")]
async fn a_server_that_crashes_mid_run_fails_the_calls_that_follow() {
    let connection = McpConnection::start(&changing_tools(), &servers_dir(), &user_env, START_TIMEOUT).await.unwrap();
    let crashed = connection.call("crash", Default::default(), START_TIMEOUT).await;
    assert!(!crashed.success, "{crashed:?}");
    let after =
        connection.call("lookup", serde_json::json!({ "issue": 1 }).as_object().unwrap().clone(), START_TIMEOUT).await;
    assert!(!after.success, "{after:?}");
    assert!(after.result.as_str().unwrap().starts_with("The source failed: "), "{after:?}");
    connection.shutdown().await;
}
