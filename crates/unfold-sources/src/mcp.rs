//! One connection to an MCP server: started (a child process, or a streamable HTTP session),
//! initialized, listed page by page, called with a timeout, its `notifications/tools/list_changed`
//! counted so the caller lists afresh before the next model call, and shut down (stdin closed, then
//! SIGTERM, then a kill, to the child's whole process group) so no process outlives it, whatever
//! way it ends. Every run gets its own.

use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{CallToolRequestParams, CallToolResult, ContentBlock};
use rmcp::service::RunningService;
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Map, Value};
use unfold_documents::source::McpServer;
use unfold_documents::tool::{Tool, ToolKind};

use crate::error::SourceError;
use crate::launch::Launch;
use crate::list_changes::ListChangeCounter;
use unfold_process_groups::{group_leader, ChildGroup};

/// What a tool call answered: its text for the model, and whether it failed.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolAnswer {
    /// False for an `isError` result, an error, a timeout or a closed source.
    pub success: bool,
    /// What the model is told.
    pub result: Value,
}

/// A running MCP server.
pub struct McpConnection {
    service: RunningService<RoleClient, ()>,
    changes: Arc<AtomicU64>,
    /// The number of list changes already taken.
    taken: u64,
    /// The child's process id (none over HTTP).
    pid: Option<u32>,
    /// The process group the child leads (none over HTTP): what it started ends with it.
    group: ChildGroup,
}

impl McpConnection {
    /// Starts `server` (its command in `template_dir`, with the user's environment read through
    /// `user_env`, or its URL) and initializes it within `timeout`. The caller has the user's
    /// consent: nothing here asks.
    pub async fn start(
        server: &McpServer,
        template_dir: &Path,
        user_env: &(dyn Fn(&str) -> Option<String> + Sync),
        timeout: Duration,
    ) -> Result<McpConnection, SourceError> {
        let changes = Arc::new(AtomicU64::new(0));
        let (service, pid) = match &server.url {
            Some(url) => {
                let transport = StreamableHttpClientTransport::from_uri(url.clone());
                (
                    within(timeout, ().serve(ListChangeCounter::new(transport, changes.clone())))
                        .await?
                        .map_err(protocol)?,
                    None,
                )
            }
            None => {
                let launch = Launch::of(server, template_dir, user_env)?;
                // Else the spawn fails with the program "not found", which it is not.
                if !launch.cwd.is_dir() {
                    let why = format!("its folder {} does not exist", launch.cwd.display());
                    return Err(SourceError::Definition(why));
                }
                let start_error = |error: std::io::Error| SourceError::Start {
                    program: launch.argv[0].clone(),
                    reason: error.to_string(),
                };
                // The server's stderr goes to the log, never into a report.
                let (process, stderr) = TokioChildProcess::builder(group_leader(launch.command()))
                    .stderr(std::process::Stdio::piped())
                    .spawn()
                    .map_err(start_error)?;
                let pid = process.id();
                // From here on, a start that fails or times out drops the group: all of it is killed.
                let group = ChildGroup::led_by(pid);
                if let Some(stderr) = stderr {
                    tokio::spawn(log_lines(launch.argv[0].clone(), stderr));
                }
                let service = within(timeout, ().serve(ListChangeCounter::new(process, changes.clone())))
                    .await?
                    .map_err(protocol)?;
                return Ok(McpConnection { service, changes, taken: 0, pid, group });
            }
        };
        Ok(McpConnection { service, changes, taken: 0, pid, group: ChildGroup::led_by(None) })
    }

    /// The child's process id, while it runs over stdio.
    pub fn pid(&self) -> Option<u32> {
        self.pid
    }

    /// Every tool the server lists now (all pages), as Unfold tools: MCP annotations become
    /// `kind` (`readOnlyHint` → read, `destructiveHint` → edit, else other).
    pub async fn list_tools(&self, timeout: Duration) -> Result<Vec<Tool>, SourceError> {
        let tools = within(timeout, self.service.list_all_tools()).await?.map_err(protocol)?;
        Ok(tools.into_iter().map(unfold_tool).collect())
    }

    /// Whether the server said its tool list changed since the last time this was asked.
    pub fn take_list_changed(&mut self) -> bool {
        let now = self.changes.load(Ordering::SeqCst);
        let changed = now != self.taken;
        self.taken = now;
        changed
    }

    /// Calls tool `name`; an `isError` result, an error, a timeout or a closed connection is a
    /// failed answer that says which.
    pub async fn call(&self, name: &str, arguments: Map<String, Value>, timeout: Duration) -> ToolAnswer {
        let params = CallToolRequestParams::new(name.to_owned()).with_arguments(arguments);
        match within(timeout, self.service.call_tool(params)).await {
            Ok(Ok(result)) => answer_of(result),
            Ok(Err(error)) => {
                ToolAnswer { success: false, result: Value::String(format!("The source failed: {error}")) }
            }
            Err(error) => {
                // The SDK drops a message over its line limit unread and logs it, so an answer
                // too large to take is also a call that is never answered.
                let why = format!(
                    "The source gave {error} (an answer over {} MB is dropped unread)",
                    rmcp::transport::async_rw::DEFAULT_MAX_LINE_LENGTH / 1_048_576
                );
                ToolAnswer { success: false, result: Value::String(why) }
            }
        }
    }

    /// Closes the connection: the child's stdin is closed, then its process group is sent
    /// SIGTERM, then killed, 3 s apart, until the child has gone; then what is left of the group
    /// is sent SIGTERM and killed 3 s later. Dropping a connection instead kills the group at once.
    pub async fn shutdown(self) {
        let McpConnection { service, group, .. } = self;
        if let Err(error) = service.cancel().await {
            tracing::warn!(%error, "a tool source did not shut down cleanly");
        }
        group.end().await;
    }
}

/// `work`, or a timeout error after `timeout`.
async fn within<T>(timeout: Duration, work: impl std::future::Future<Output = T>) -> Result<T, SourceError> {
    tokio::time::timeout(timeout, work).await.map_err(|_| SourceError::Timeout(timeout))
}

fn protocol(error: impl std::fmt::Display) -> SourceError {
    SourceError::Protocol(error.to_string())
}

/// The server's stderr, line by line, into the log.
async fn log_lines(program: String, stderr: tokio::process::ChildStderr) {
    use tokio::io::AsyncBufReadExt;
    let mut lines = tokio::io::BufReader::new(stderr).lines();
    while let Ok(Some(line)) = lines.next_line().await {
        tracing::debug!(source = program, "{line}");
    }
}

fn unfold_tool(tool: rmcp::model::Tool) -> Tool {
    let kind =
        tool.annotations.as_ref().map(|hints| ToolKind::of_mcp_hints(hints.read_only_hint, hints.destructive_hint));
    Tool {
        name: tool.name.into_owned(),
        description: tool.description.map(|d| d.into_owned()).unwrap_or_default(),
        brief: None,
        parameters: Value::Object((*tool.input_schema).clone()),
        kind: Some(kind.unwrap_or(ToolKind::Other)),
        categories: None,
        requires_permission: None,
        mock: None,
        extensions: Map::new(),
    }
}

/// The answer of a result: its text blocks joined (the structured content when there is no text).
/// The most text a tool's answer may hold: more would crowd out the conversation (and the memory
/// of a run that keeps every answer), so a larger answer is a failed result that says so.
pub const MAX_ANSWER_BYTES: usize = 1024 * 1024;

fn answer_of(result: CallToolResult) -> ToolAnswer {
    let size: usize = result
        .content
        .iter()
        .map(|block| match block {
            ContentBlock::Text(text) => text.text.len(),
            _ => 0,
        })
        .sum();
    if size > MAX_ANSWER_BYTES {
        let message = format!(
            "The source answered with {:.1} MB of text, over the {} MB a tool result may take",
            size as f64 / 1_048_576.0,
            MAX_ANSWER_BYTES / 1_048_576
        );
        return ToolAnswer { success: false, result: Value::String(message) };
    }
    let texts: Vec<String> = result
        .content
        .iter()
        .filter_map(|block| match block {
            ContentBlock::Text(text) => Some(text.text.clone()),
            _ => None,
        })
        .collect();
    let value = if texts.is_empty() {
        result.structured_content.clone().unwrap_or(Value::Null)
    } else {
        Value::String(texts.join("\n"))
    };
    ToolAnswer { success: result.is_error != Some(true), result: value }
}
