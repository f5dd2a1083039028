//! The reference server from npm (`@modelcontextprotocol/server-everything`, pinned by the install
//! script), over stdio and over streamable HTTP: its many tools listed page by page and one of
//! them called.

use tokio::io::AsyncBufReadExt;
use unfold_sources::McpConnection;

use crate::servers::{command, npm_bin, servers_dir, url, user_env, START_TIMEOUT};

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

/// A port no one listens on now (the e2e harness picks its ports the same way).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

#[tokio::test(flavor = "current_thread")]
async fn the_reference_server_is_reached_over_streamable_http() {
    let port = free_port();
    let mut server = tokio::process::Command::new("node")
        .args([npm_bin("mcp-server-everything").as_str(), "streamableHttp"])
        .env("PORT", port.to_string())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    // It says so on stderr once it listens.
    let mut lines = tokio::io::BufReader::new(server.stderr.take().unwrap()).lines();
    let listening = async {
        while let Some(line) = lines.next_line().await.unwrap() {
            if line.contains("listening on port") {
                return true;
            }
        }
        false
    };
    assert!(tokio::time::timeout(START_TIMEOUT, listening).await.unwrap(), "the server never listened");

    let endpoint = url(format!("http://127.0.0.1:{port}/mcp"));
    let connection = McpConnection::start(&endpoint, &servers_dir(), &user_env, START_TIMEOUT).await.unwrap();
    assert_eq!(connection.pid(), None, "no child process for a URL");
    let tools = connection.list_tools(START_TIMEOUT).await.unwrap();
    assert!(tools.iter().any(|t| t.name == "echo"), "{tools:?}");
    let echoed = connection
        .call("echo", serde_json::json!({ "message": "over http" }).as_object().unwrap().clone(), START_TIMEOUT)
        .await;
    assert_eq!((echoed.success, echoed.result.as_str()), (true, Some("Echo: over http")));
    connection.shutdown().await;
    server.kill().await.unwrap();
}
