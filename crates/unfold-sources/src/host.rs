//! The engine's [`ToolHost`] and [`ToolSources`] over MCP servers: each run discovers the
//! template's sources afresh (its own connections, as consent allows), its calls to a source's
//! tools go to that server, a server's list change is listed afresh before the next model call,
//! and closing the run shuts every server down.

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Duration;

use async_trait::async_trait;
use serde_json::Value;
use unfold_documents::discovery::Discovery;
use unfold_documents::save_target::folder_of;
use unfold_documents::Template;
use unfold_engine::{ChangedList, HostAnswer, ToolHost, ToolSources};

use crate::consent::Consent;
use crate::discover::discover;
use crate::mcp::McpConnection;

/// The user's environment as a source's launch reads it: a variable's value, if set.
pub type UserEnv = dyn Fn(&str) -> Option<String> + Send + Sync;

/// How long a source has to answer a call (spec 8's default).
pub const CALL_TIMEOUT: Duration = Duration::from_secs(30);

/// Starts a template's MCP sources for each run.
pub struct McpSources {
    /// The template's folder (a relative `cwd` is relative to it).
    pub template_dir: PathBuf,
    /// What the user allowed.
    pub consent: Consent,
    /// The user's environment, read when a source starts.
    pub user_env: Box<UserEnv>,
    /// How long a source has to start and to list.
    pub start_timeout: Duration,
    /// How long a source has to answer a call.
    pub call_timeout: Duration,
}

impl McpSources {
    /// The sources of the template at `template_path` (none: the working folder's), started as
    /// `consent` allows, with the user's environment and the default timeouts.
    pub fn for_template(template_path: Option<&std::path::Path>, consent: &Consent) -> McpSources {
        let folder = template_path.map_or(std::path::Path::new("."), folder_of);
        McpSources {
            template_dir: folder.to_owned(),
            consent: consent.clone(),
            user_env: Box::new(|name: &str| std::env::var(name).ok()),
            start_timeout: crate::discover::DISCOVERY_TIMEOUT,
            call_timeout: CALL_TIMEOUT,
        }
    }
}

#[async_trait]
impl ToolSources for McpSources {
    async fn open(&mut self, template: &Template) -> (Vec<Discovery>, Box<dyn ToolHost>) {
        let (discoveries, connections) =
            discover(template, &self.template_dir, &self.consent, &*self.user_env, self.start_timeout).await;
        let mut host = McpHost { connections: HashMap::new(), owners: HashMap::new(), timeout: self.call_timeout };
        for (source, connection) in connections {
            host.connections.insert(source, connection);
        }
        for discovery in &discoveries {
            if host.connections.contains_key(&discovery.source) {
                host.own(&discovery.source, discovery.tools.iter().map(|t| t.name.clone()));
            }
        }
        (discoveries, Box::new(host))
    }
}

/// One run's connections, and which source answers each tool.
struct McpHost {
    connections: HashMap<String, McpConnection>,
    /// Tool name → source name.
    owners: HashMap<String, String>,
    timeout: Duration,
}

impl McpHost {
    /// Makes `source` the owner of exactly `tools`.
    fn own(&mut self, source: &str, tools: impl Iterator<Item = String>) {
        self.owners.retain(|_, owner| owner != source);
        for tool in tools {
            self.owners.entry(tool).or_insert_with(|| source.to_owned());
        }
    }
}

#[async_trait]
impl ToolHost for McpHost {
    fn answers(&self, tool: &str) -> bool {
        self.owners.contains_key(tool)
    }

    async fn call(&mut self, tool: &str, arguments: &Value) -> HostAnswer {
        let Some(connection) = self.owners.get(tool).and_then(|source| self.connections.get(source)) else {
            return HostAnswer { success: false, result: Value::String(format!("No source answers '{tool}'")) };
        };
        let arguments = arguments.as_object().cloned().unwrap_or_default();
        let answer = connection.call(tool, arguments, self.timeout).await;
        HostAnswer { success: answer.success, result: answer.result }
    }

    async fn changed_lists(&mut self, _before_model_call: u32) -> Vec<ChangedList> {
        let mut changed = Vec::new();
        for (source, connection) in &mut self.connections {
            if !connection.take_list_changed() {
                continue;
            }
            match connection.list_tools(self.timeout).await {
                Ok(tools) => changed.push(ChangedList { source: source.clone(), tools }),
                Err(error) => tracing::warn!(source, %error, "a tool source's new list could not be read"),
            }
        }
        for list in &changed {
            self.own(&list.source, list.tools.iter().map(|t| t.name.clone()));
        }
        changed
    }

    async fn close(&mut self) {
        for (_, connection) in self.connections.drain() {
            connection.shutdown().await;
        }
    }
}
