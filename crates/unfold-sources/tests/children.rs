//! What a source's command starts ends with it: a server started through a wrapper (a shell line
//! here, as `npx` or `uv run` do) leaves no process behind, whether the source is shut down,
//! dropped with its run, or fails to start in time.

use std::time::Duration;

use unfold_documents::source::McpServer;
use unfold_sources::{McpConnection, SourceError};

use crate::servers::{
    command, group_running, processes_running, processes_with, python, servers_dir, user_env, START_TIMEOUT,
};

/// A shell that starts a process sleeping with `marker` on its command line in the background,
/// then `then` in its place (so the server is the shell's process, and the sleeper its child).
fn wrapper_with_a_child(marker: &str, then: &str) -> McpServer {
    let python = python();
    command(&["sh", "-c", &format!("{python} -c 'import time; time.sleep(600)' {marker} & {then}")])
}

fn wrapped_server(marker: &str) -> McpServer {
    wrapper_with_a_child(marker, &format!("exec {} changing_tools.py", python()))
}

/// Starts `server` and checks that it has started its child.
async fn started_with_its_child(server: &McpServer, marker: &str) -> (McpConnection, u32) {
    let connection = McpConnection::start(server, &servers_dir(), &user_env, START_TIMEOUT).await.unwrap();
    assert_eq!(connection.list_tools(START_TIMEOUT).await.unwrap().len(), 5, "the server answers");
    // The shell forked the child before it became the server, so the child is there by now.
    assert_eq!(processes_with(marker).len(), 1, "the wrapper started its child");
    let pid = connection.pid().expect("a child process");
    (connection, pid)
}

#[tokio::test(flavor = "current_thread")]
async fn a_shut_down_source_leaves_no_process_its_command_started() {
    let marker = "unfold-test-child-of-a-shut-down-source";
    let (connection, pid) = started_with_its_child(&wrapped_server(marker), marker).await;
    connection.shutdown().await;
    assert_eq!(processes_running(marker).await, Vec::<u32>::new(), "the wrapper's child is gone");
    assert_eq!(group_running(pid).await, Vec::<u32>::new(), "nothing of the group is left");
}

#[tokio::test(flavor = "current_thread")]
async fn a_source_dropped_with_its_run_leaves_no_process_its_command_started() {
    // A run cancelled or failed mid-way drops its connections without shutting them down.
    let marker = "unfold-test-child-of-a-dropped-source";
    let (connection, pid) = started_with_its_child(&wrapped_server(marker), marker).await;
    drop(connection);
    assert_eq!(processes_running(marker).await, Vec::<u32>::new(), "the wrapper's child is gone");
    assert_eq!(group_running(pid).await, Vec::<u32>::new(), "nothing of the group is left");
}

#[tokio::test(flavor = "current_thread")]
async fn a_source_that_fails_to_start_leaves_no_process_its_command_started() {
    let marker = "unfold-test-child-of-a-silent-wrapper";
    let silent = wrapper_with_a_child(marker, "exec sleep 600");
    let error = McpConnection::start(&silent, &servers_dir(), &user_env, Duration::from_secs(2)).await.err();
    assert!(matches!(error, Some(SourceError::Timeout(_))), "{error:?}");
    assert_eq!(processes_running(marker).await, Vec::<u32>::new(), "the child of a start that timed out is gone");

    // The wrapper exits at once, its child left running (its output elsewhere, so the
    // connection closes).
    let marker = "unfold-test-child-of-a-wrapper-that-exits";
    let exits = wrapper_with_a_child(&format!("{marker} > /dev/null"), "exit 3");
    let error = McpConnection::start(&exits, &servers_dir(), &user_env, START_TIMEOUT).await.err();
    assert!(matches!(error, Some(SourceError::Protocol(_))), "{error:?}");
    assert_eq!(processes_running(marker).await, Vec::<u32>::new(), "the child of a wrapper that exited is gone");
}
