//! The template as an MCP server (spec 13, `unfold mcp serve`): the tools the template offers now
//! and its disclosure tools (`read_section`, `open_sections`, `pick_tools`). Reading a summarized
//! section makes it FULL, as a run would: when the list of tools changes, the server says so with
//! `notifications/tools/list_changed` (it advertises `listChanged`; a client of the 2026-07-28
//! protocol hears it on its `subscriptions/listen` stream, an older one unasked). The other tools
//! are answered from the scenario (`tool_results`, then `mock`), as a scripted run answers them,
//! or, when the caller gives the template's sources ([`ServedSources`]), a source's tools by the
//! source.
//!
//! A tools list is fresh for no time (`ttlMs: 0`): it may change at the next read.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation, JsonObject, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, SubscriptionFilter,
};
use rmcp::service::{RequestContext, RoleServer, SubscriptionContext, SubscriptionSink};
use rmcp::{ErrorData, ServerHandler, ServiceExt};
use serde_json::{json, Value};
use tokio::io::{AsyncRead, AsyncWrite};

use unfold_documents::tool::{Builtin, OfferedTool, Tool};
use unfold_documents::{Scenario, Template};
use unfold_engine::session::ReadOutcome;
use unfold_engine::{ScriptedToolResults, Session};

use crate::message_log::{LoggedReader, MessageLog};
use crate::served_sources::ServedSources;
use crate::Error;

/// The name the server gives itself.
const SERVER_NAME: &str = "unfold";

/// A template served over MCP. Clones share one conversation's state.
#[derive(Clone)]
pub struct TemplateServer {
    served: Arc<Mutex<Served>>,
    /// The template's sources, when the user allowed them; one call at a time reaches them.
    sources: Option<Arc<tokio::sync::Mutex<ServedSources>>>,
    /// Where what the server answered is logged, beside what the host sent: each list of tools,
    /// and each call with its outcome and the tools it added or removed.
    log: Option<MessageLog>,
}

/// What one host's session has done to the template.
struct Served {
    session: Session<'static>,
    /// The tools offered now, and as MCP lists them: worked out again only when a disclosure
    /// tool changes the session (a host may list at every request).
    offered: Vec<OfferedTool>,
    listed: Vec<rmcp::model::Tool>,
    results: ScriptedToolResults,
    /// The template's tools by name, for their mocks.
    tools: HashMap<String, Tool>,
    /// The `subscriptions/listen` streams open (2026-07-28 clients).
    listeners: Vec<SubscriptionSink>,
}

impl TemplateServer {
    /// `template` with the parameters and tool results of `scenario`, if given.
    pub fn new(template: Template, scenario: Option<&Scenario>) -> Result<TemplateServer, Error> {
        let tools = template.all_tools().into_iter().map(|tool| (tool.name.clone(), tool.clone())).collect();
        let params = scenario.map(|s| s.params.clone()).unwrap_or_default();
        let results = scenario.map(ScriptedToolResults::new).unwrap_or_default();
        let session = Session::owning(template, params)?;
        let mut served =
            Served { session, offered: Vec::new(), listed: Vec::new(), results, tools, listeners: Vec::new() };
        served.offer()?;
        Ok(TemplateServer { served: Arc::new(Mutex::new(served)), sources: None, log: None })
    }

    /// The server with its source tools answered by `sources` (the template given to [`new`]
    /// holds what they discovered).
    ///
    /// [`new`]: TemplateServer::new
    pub fn with_sources(mut self, sources: ServedSources) -> TemplateServer {
        self.sources = Some(Arc::new(tokio::sync::Mutex::new(sources)));
        self
    }

    /// Closes the template's sources, if it has any: nothing of them is left running.
    pub async fn close_sources(&self) {
        if let Some(sources) = &self.sources {
            sources.lock().await.close().await;
        }
    }

    /// Serves one host over stdin and stdout until it closes them; with `log`, every message it
    /// sends is logged as it arrives.
    pub async fn serve_stdio(self, log: Option<MessageLog>) -> Result<(), Error> {
        let (stdin, stdout) = rmcp::transport::io::stdio();
        let server = self.logging_to(log.clone());
        match log {
            Some(log) => server.serve(LoggedReader::new(stdin, log), stdout).await,
            None => server.serve(stdin, stdout).await,
        }
    }

    /// Serves one host over a pair of streams until it closes them.
    pub async fn serve<R, W>(self, reader: R, writer: W) -> Result<(), Error>
    where
        R: AsyncRead + Unpin + Send + 'static,
        W: AsyncWrite + Unpin + Send + 'static,
    {
        let running = ServiceExt::serve(self, (reader, writer)).await.map_err(|e| Error::Session(e.to_string()))?;
        running.waiting().await.map_err(|e| Error::Session(e.to_string()))?;
        Ok(())
    }

    /// The server, logging what it answers to `log`.
    pub(crate) fn logging_to(mut self, log: Option<MessageLog>) -> TemplateServer {
        self.log = log;
        self
    }

    fn served(&self) -> std::sync::MutexGuard<'_, Served> {
        // A panic mid-answer leaves a state no worse than a half-read section.
        self.served.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Answers a call, and logs the answer; whether the list of tools changed with it. Only a
    /// disclosure tool can change the list, so only its call compares the lists before and after.
    fn answer(&self, name: &str, arguments: &JsonObject) -> (CallToolResult, bool) {
        let mut served = self.served();
        let (result, before) = match Builtin::from_name(name) {
            _ if !served.offered.iter().any(|tool| tool.name == name) => {
                (failed(format!("Unknown tool: '{name}'")), None)
            }
            None => (served.call(name), None),
            Some(builtin) => {
                let before = served.offered.clone();
                let answer = match builtin {
                    Builtin::ReadSection => served.read_section(arguments),
                    Builtin::OpenSections => served.open_sections(arguments),
                    Builtin::PickTools => served.pick_tools(arguments, &before),
                };
                if let Err(error) = served.offer() {
                    // The template rendered at the start; a read cannot make it fail.
                    tracing::warn!("the template no longer renders: {error}");
                }
                (answer, Some(before))
            }
        };
        drop(served);
        let changed = self.log_answer(name, arguments, &result, before.as_deref());
        (result, changed)
    }

    /// Answers a call to a tool the template's sources give, by its source; `None` for any other
    /// call. A source whose list changed with the call changes the template the host is served.
    async fn answer_from_sources(&self, name: &str, arguments: &JsonObject) -> Option<(CallToolResult, bool)> {
        let mut sources = self.sources.as_ref()?.lock().await;
        // Most calls are not a source's: they are told apart before the offered list is copied.
        if !sources.answers(name) {
            return None;
        }
        let before = self.served().offered.clone();
        if !before.iter().any(|tool| tool.name == name) {
            return None;
        }
        let answer = sources.call(name, &Value::Object(arguments.clone())).await;
        let result = match answer.success {
            true => answered(&answer.result),
            false => failed(text_of(&answer.result)),
        };
        self.take_source_changes(&mut sources).await;
        let changed = self.log_answer(name, arguments, &result, Some(&before));
        Some((result, changed))
    }

    /// Serves the template as the sources' new lists make it, when any changed.
    async fn take_source_changes(&self, sources: &mut ServedSources) {
        let template = self.served().session.template().clone();
        if let Some(template) = sources.changed_template(&template).await {
            self.served().replace_template(template);
        }
    }

    /// Logs a call's answer with the tools it added and removed against `before` (`None`: the call
    /// could not change the list); whether it changed the list.
    fn log_answer(
        &self,
        name: &str,
        arguments: &JsonObject,
        result: &CallToolResult,
        before: Option<&[OfferedTool]>,
    ) -> bool {
        let served = self.served();
        let offered = served.offered.as_slice();
        let changed = before.is_some_and(|before| before != offered);
        let before = before.unwrap_or(offered);
        if let Some(log) = &self.log {
            let names = |tools: &[OfferedTool], others: &[OfferedTool]| -> Vec<String> {
                let new = tools.iter().filter(|tool| !others.iter().any(|other| other.name == tool.name));
                new.map(|tool| tool.name.clone()).collect()
            };
            let text: String =
                result.content.iter().filter_map(|block| block.as_text()).map(|t| t.text.as_str()).collect();
            log.record_value(json!({ "answered": {
                "tool": name, "arguments": arguments, "success": result.is_error != Some(true), "result": text,
                "added": names(offered, before), "removed": names(before, offered) } }));
        }
        changed
    }

    /// Logs how long the server worked on one request since `started` (a source's own time is
    /// in it when a source answered).
    fn log_busy(&self, started: Instant) {
        if let Some(log) = &self.log {
            log.record_busy(started);
        }
    }

    /// Tells the host its list of tools changed: on each subscription stream it opened (the
    /// 2026-07-28 protocol, where a server speaks unasked to no one), else, to a host of an older
    /// protocol (one that opened with `initialize`), as that protocol does.
    async fn tell_list_changed(&self, context: &RequestContext<RoleServer>) {
        let listeners = self.served().listeners.clone();
        let older_protocol = context.protocol_version().is_none_or(|version| version.has_initialize());
        if listeners.is_empty() && older_protocol {
            if let Err(error) = context.peer.notify_tool_list_changed().await {
                tracing::debug!("tools/list_changed not sent: {error}");
            }
            return;
        }
        let mut closed = Vec::new();
        for sink in &listeners {
            if sink.notify_tool_list_changed().await.is_err() {
                closed.push(sink.id().clone());
            }
        }
        self.served().listeners.retain(|sink| !closed.contains(sink.id()));
    }
}

impl Served {
    /// Serves `template` from now on (a source's new list): what was read stays read.
    fn replace_template(&mut self, template: Template) {
        self.tools = template.all_tools().into_iter().map(|tool| (tool.name.clone(), tool.clone())).collect();
        self.session.replace_template(template);
        if let Err(error) = self.offer() {
            tracing::warn!("the template with a source's new list does not render: {error}");
        }
    }

    /// Works out the tools offered now, disclosure tools included, and their listing.
    fn offer(&mut self) -> Result<(), Error> {
        self.offered = self.session.render()?.tools;
        self.listed = self.offered.iter().cloned().map(listed).collect();
        Ok(())
    }

    fn read_section(&mut self, arguments: &JsonObject) -> CallToolResult {
        let Some(key) = arguments.get("section_key").and_then(Value::as_str) else {
            return failed("read_section needs a string \"section_key\".");
        };
        match self.session.read_section(key) {
            ReadOutcome::Unknown(message) => failed(message),
            ReadOutcome::AlreadyExpanded(content) => {
                answered(&json!({ "content": content, "message": "Section is already expanded." }))
            }
            ReadOutcome::Expand(expansion) => {
                self.session.apply_visibility(&expansion.overrides);
                answered(&json!({ "content": expansion.content, "expanded_tools": expansion.expanded_tools }))
            }
        }
    }

    fn open_sections(&mut self, arguments: &JsonObject) -> CallToolResult {
        let keys = arguments
            .get("section_keys")
            .and_then(Value::as_array)
            .and_then(|keys| keys.iter().map(|key| key.as_str().map(str::to_owned)).collect::<Option<Vec<String>>>());
        let (Some(keys), Some(reason)) = (keys, arguments.get("reason").and_then(Value::as_str)) else {
            return failed("open_sections needs \"section_keys\" (strings) and a string \"reason\".");
        };
        match self.session.open_sections(&keys, reason) {
            Err(message) => failed(message),
            Ok(expansion) => {
                self.session.apply_visibility(&expansion.overrides);
                answered(&json!({ "content": expansion.content, "expanded_tools": expansion.expanded_tools }))
            }
        }
    }

    fn pick_tools(&mut self, arguments: &JsonObject, offered: &[OfferedTool]) -> CallToolResult {
        let names = arguments.get("tools").and_then(Value::as_array).and_then(|names| {
            names.iter().map(|name| name.as_str().map(str::to_owned)).collect::<Option<Vec<String>>>()
        });
        let Some(names) = names else {
            return failed("pick_tools needs \"tools\": a list of tool names.");
        };
        match self.session.pick_tools(&names, offered) {
            Err(message) => failed(message),
            Ok(new) => {
                self.session.apply_picks(&new);
                answered(&json!({ "picked": names }))
            }
        }
    }

    /// A template tool's scripted result.
    fn call(&mut self, name: &str) -> CallToolResult {
        let Some(tool) = self.tools.get(name) else {
            return failed(format!("Unknown tool: '{name}'"));
        };
        match self.results.next(tool) {
            Ok(result) => answered(&result),
            Err(message) => failed(message),
        }
    }
}

/// A result as text: a string as it is, anything else as its JSON.
fn answered(result: &Value) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(text_of(result))])
}

/// A value as a result's text: a string as it is, anything else as its JSON.
fn text_of(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

fn failed(message: impl Into<String>) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(message.into())])
}

/// A tool as MCP lists it.
fn listed(tool: OfferedTool) -> rmcp::model::Tool {
    let schema = match tool.parameters {
        Value::Object(schema) => schema,
        _ => JsonObject::from_iter([("type".to_owned(), json!("object"))]),
    };
    rmcp::model::Tool::new(tool.name, tool.description, Arc::new(schema))
}

impl ServerHandler for TemplateServer {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder().enable_tools().enable_tool_list_changed().build();
        ServerConfig::new(capabilities).with_server_info(Implementation::new(SERVER_NAME, env!("CARGO_PKG_VERSION")))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let started = Instant::now();
        if let Some(sources) = &self.sources {
            // A source may have changed its list on its own since the last call.
            self.take_source_changes(&mut *sources.lock().await).await;
        }
        let tools = self.served().listed.clone();
        if let Some(log) = &self.log {
            let names: Vec<&str> = tools.iter().map(|tool| tool.name.as_ref()).collect();
            log.record_value(json!({ "listed": names }));
        }
        let mut result = ListToolsResult::with_all_items(tools);
        result.ttl_ms = Some(0);
        self.log_busy(started);
        Ok(result)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let started = Instant::now();
        let arguments = request.arguments.unwrap_or_default();
        let (result, changed) = match self.answer_from_sources(&request.name, &arguments).await {
            Some(answered) => answered,
            None => self.answer(&request.name, &arguments),
        };
        if changed {
            // Before the result, as servers that reveal tools do: a host that re-lists at once
            // may show the new tool with the result.
            self.tell_list_changed(&context).await;
        }
        self.log_busy(started);
        Ok(result.into())
    }

    fn accepted_subscription_filter(&self, requested: &SubscriptionFilter) -> Option<SubscriptionFilter> {
        Some(requested.supported_by(&self.get_info().capabilities))
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        if context.accepted().tools_list_changed == Some(true) {
            self.served().listeners.push(context.sink().clone());
        }
        context.cancelled().await;
        let id = context.sink().id().clone();
        self.served().listeners.retain(|sink| sink.id() != &id);
        Ok(())
    }
}
