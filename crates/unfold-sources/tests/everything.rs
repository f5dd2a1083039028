//! The reference server from npm (`@modelcontextprotocol/server-everything`, pinned by the install
//! script) over stdio: its many tools listed page by page and one of them called.

use crate::servers::{command, npm_bin, servers_dir, user_env, START_TIMEOUT};
use unfold_sources::McpConnection;

#[tokio::test(flavor = "current_thread")]
async fn the_reference_server_is_listed_and_called() {
    let server = command(&["node", &npm_bin("mcp-server-everything"), "stdio"]);
    let connection = McpConnection::start(&server, &servers_dir(), &user_env, START_TIMEOUT).await.unwrap();
    let tools = connection.list_tools(START_TIMEOUT).await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
    assert!(names.contains(&"echo") && names.len() > 5, "{names:?}");
    let echoed = connection
        .call("echo", serde_json::json!({ "message": "hi" }).as_object().unwrap().clone(), START_TIMEOUT)
        .await;
    assert!(echoed.success, "{echoed:?}");
    assert_eq!(echoed.result, "Echo: hi");
    connection.shutdown().await;
}
