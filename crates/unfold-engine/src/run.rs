//! The main loop of a run (spec 4): render, call the model, answer its tool calls, and react to
//! expansions, picks and plugin tool changes as the adapter allows, until the model answers or a
//! limit stops it. Every step is an event; a restart is a typed value the loop handles, never a
//! panic or an error.

use std::collections::HashMap;
use std::sync::Arc;

use indexmap::IndexMap;
use serde_json::{json, Value};
use tracing::Instrument;

use crate::adapter::{adapter_for, Adapter};
use crate::conversation::Conversation;
use crate::events::{
    AdapterKind, Counters, Event, EventKind, Limit, PendingShows, RestartReason, RunReport, RunStatus, ToolDelivery,
};
use crate::lane::{DeferredListing, ToolPolicy};
use crate::loop_detection::{LoopDetector, LoopFound, LoopVerdict};
use crate::prompt_prefix::PromptShape;
use crate::provider::{HiddenTools, Message, Provider, ToolCall};
use crate::scripted::ScriptedToolResults;
use crate::sent_names::SentNames;
use crate::session::{Expansion, Session};
use crate::session_state::VisibilityOverrides;
use crate::tokens;
use crate::tool_host::{ChangedList, ToolHost};
use unfold_documents::error::Result;
use unfold_documents::host_profile::{ToolNames, ToolOrder};
use unfold_documents::refresh::Refresh;
use unfold_documents::scenario::{ChangeMoment, Scenario, ToolChange};
use unfold_documents::template::Template;
use unfold_documents::tool::{Builtin, OfferedTool, Tool};

/// The limits of spec 4.2.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunLimits {
    /// Model calls over the whole run (default 32).
    pub max_model_calls: u32,
    /// Restarts over the whole run (default 8).
    pub max_restarts: u32,
}

impl Default for RunLimits {
    fn default() -> Self {
        RunLimits { max_model_calls: 32, max_restarts: 8 }
    }
}

/// What a run is given.
#[derive(Debug, Clone)]
pub struct RunInput<'a> {
    /// The template.
    pub template: &'a Template,
    /// Parameter values over the template's defaults.
    pub params: IndexMap<String, String>,
    /// The user's messages, one per turn, in order (at least one).
    pub user_turns: Vec<String>,
    /// Plugin tool changes, by model call or user turn.
    pub tool_changes: &'a [ToolChange],
    /// What each tool source offered: `template` already holds their tools (see
    /// `Template::with_discovered`); the run starts by saying where they came from.
    pub discoveries: &'a [unfold_documents::discovery::Discovery],
    /// Limits.
    pub limits: RunLimits,
    /// How the lane shows tools to the model: when, in which order, under which names (spec 12).
    pub tool_policy: ToolPolicy,
}

impl<'a> RunInput<'a> {
    /// A run of `scenario` on `template`: its parameters, user turns, tool changes and limits
    /// (each over the default), and no tool source yet.
    pub fn of_scenario(template: &'a Template, scenario: &'a Scenario) -> RunInput<'a> {
        let defaults = RunLimits::default();
        let limits = scenario.limits.map_or(defaults, |l| RunLimits {
            max_model_calls: l.max_model_calls.unwrap_or(defaults.max_model_calls),
            max_restarts: l.max_restarts.unwrap_or(defaults.max_restarts),
        });
        RunInput {
            template,
            params: scenario.params.clone(),
            user_turns: scenario.user_turns(),
            tool_changes: &scenario.tool_changes,
            discoveries: &[],
            limits,
            tool_policy: ToolPolicy::default(),
        }
    }
}

/// The request to halt the attempt and restart with sections expanded (spec 4.1): what the
/// restart adapter answers to an expansion that offers tools, and `open_sections` under both.
#[derive(Debug, Clone, PartialEq)]
pub struct VisibilityExpansionRequired {
    /// The overrides the next attempt renders with.
    pub overrides: VisibilityOverrides,
    /// The sections whose visibility changes.
    pub section_keys: Vec<String>,
    /// The reason the model gave, if any.
    pub reason: Option<String>,
}

/// Why the current attempt must end and the next start from the system prompt.
#[derive(Debug, Clone, PartialEq)]
enum RestartRequest {
    Expansion(VisibilityExpansionRequired),
    ToolsPicked,
    ToolAvailabilityChanged,
}

/// How an attempt ended.
enum AttemptEnd {
    Restart(RestartRequest),
    /// The provider was cancelled: the run ends without another event.
    Cancelled,
    Finished {
        status: RunStatus,
        final_text: Option<String>,
        error: Option<String>,
    },
}

/// A change to the tools a lane could offer: a read's, a plugin's or a source's.
#[derive(Debug, Clone, Default)]
struct ToolsChange {
    /// The section whose read revealed the tools added, if one did.
    section_key: Option<String>,
    added: Vec<Arc<Tool>>,
    removed: Vec<String>,
    modified: Vec<Tool>,
}

/// A change the lane's refresh policy shows later (`shows`), kept until then.
#[derive(Debug, Clone)]
struct PendingChange {
    change: ToolsChange,
    shows: PendingShows,
}

/// What answering one tool call changes beyond the conversation.
enum CallEffect {
    None,
    Read { section_key: String, expansion: Expansion },
    Open(VisibilityExpansionRequired),
    Picked(Vec<String>),
}

struct CallOutcome {
    success: bool,
    result: Value,
    effect: CallEffect,
}

impl CallOutcome {
    fn failed(message: impl Into<String>) -> CallOutcome {
        CallOutcome { success: false, result: Value::String(message.into()), effect: CallEffect::None }
    }

    fn succeeded(result: Value) -> CallOutcome {
        CallOutcome { success: true, result, effect: CallEffect::None }
    }
}

/// Runs `input` under `adapter` with `provider`, answering tools from `results`; `observer` sees
/// every event as it happens. Fails before the run starts (a parameter without a value), or with
/// [`unfold_documents::Error::Cancelled`] when the provider is cancelled, without an event after it.
pub async fn run(
    input: &RunInput<'_>,
    adapter: &dyn Adapter,
    provider: &mut dyn Provider,
    results: &mut ScriptedToolResults,
    observer: &mut (dyn FnMut(&Event) + Send),
) -> Result<RunReport> {
    run_with_host(input, adapter, provider, results, None, observer).await
}

/// [`run`] with the run's tool sources behind `host`: their tools are called there (unless the
/// scenario scripts a result for them), and the lists it reports changed are applied before the
/// next model call. `input.template` holds the sources' tools as discovered.
pub async fn run_with_host(
    input: &RunInput<'_>,
    adapter: &dyn Adapter,
    provider: &mut dyn Provider,
    results: &mut ScriptedToolResults,
    host: Option<&mut dyn ToolHost>,
    observer: &mut (dyn FnMut(&Event) + Send),
) -> Result<RunReport> {
    // Reborrowed for this run: a trait object's lifetime shortens only outside the `Option`.
    let host = host.map(|host| -> &mut dyn ToolHost { host });
    let session = Session::new(input.template, input.params.clone())?;
    if let Some(reason) = provider.refuses(adapter.hidden_tools()) {
        return Err(unfold_documents::Error::Provider(format!(
            "the {} adapter cannot run on this model: {reason}",
            adapter.kind().name()
        )));
    }
    let substitution = substitute(adapter, provider);
    let requested = adapter.kind();
    let adapter = substitution.as_ref().map_or(adapter, |(substitute, _)| *substitute);
    let refresh = match input.tool_policy.refresh {
        _ if !adapter.supports_dynamic_tools() => Refresh::Restart,
        Some(refresh) => refresh,
        None => Refresh::NextCall,
    };
    let span = tracing::info_span!("run", adapter = adapter.kind().name(), template = %input.template.key);
    let source_tools = input
        .discoveries
        .iter()
        .map(|d| (d.source.clone(), d.tools.iter().map(|t| t.name.clone()).collect()))
        .collect();
    let run = Run {
        session,
        adapter,
        refresh,
        pending: Vec::new(),
        requested,
        substitution: substitution.map(|(_, reason)| reason),
        input,
        tools: tool_definitions(input.template, input.tool_changes),
        results,
        host,
        source_tools,
        observer,
        events: Vec::new(),
        attempt: 1,
        turn: 1,
        call_index: 0,
        restarts: 0,
        applied_changes: vec![false; input.tool_changes.len()],
        loops: LoopDetector::default(),
        validators: HashMap::new(),
        previous_prompt: None,
    };
    run.execute(provider).instrument(span).await
}

/// The adapter that runs in place of `adapter` on `provider`, and why, if one must: the dynamic
/// adapter cannot give new tools to a provider that takes them once.
fn substitute(adapter: &dyn Adapter, provider: &dyn Provider) -> Option<(&'static dyn Adapter, String)> {
    let reason = provider.fixed_tools().filter(|_| adapter.kind() == AdapterKind::Dynamic)?;
    Some((adapter_for(AdapterKind::Restart), reason))
}

/// Every tool a run may offer, by name: the template's and those the scenario's changes add (a
/// change's new definition replaces it when that change applies).
fn tool_definitions(template: &Template, changes: &[ToolChange]) -> HashMap<String, Arc<Tool>> {
    let added = changes.iter().flat_map(|c| &c.add);
    template.all_tools().into_iter().chain(added).map(|t| (t.name.clone(), Arc::new(t.clone()))).collect()
}

struct Run<'a, 'r> {
    session: Session<'a>,
    /// The adapter that runs.
    adapter: &'r dyn Adapter,
    /// When the model first sees a change to the tools.
    refresh: Refresh,
    /// Changes to the tools the refresh policy shows later, in the order they happened.
    pending: Vec<PendingChange>,
    /// The adapter asked for: the run's name, also when another runs in its place.
    requested: AdapterKind,
    /// Why another adapter runs in place of the one asked for, if one does.
    substitution: Option<String>,
    input: &'r RunInput<'a>,
    /// Shared, so a definition can be held while the run changes (a source's list replaces them).
    tools: HashMap<String, Arc<Tool>>,
    results: &'r mut ScriptedToolResults,
    host: Option<&'r mut dyn ToolHost>,
    /// Each source's tools as the run offers them now, by source.
    source_tools: HashMap<String, Vec<String>>,
    observer: &'r mut (dyn FnMut(&Event) + Send),
    events: Vec<Event>,
    attempt: u32,
    /// The user turn the attempt is in, 1-based: a restart starts again at 1 and replays them.
    turn: u32,
    call_index: u32,
    restarts: u32,
    /// Which of the input's tool changes have applied, in its order.
    applied_changes: Vec<bool>,
    /// The attempt's calls as the loop rules see them.
    loops: LoopDetector,
    /// Each called tool's argument validator (`None` if its schema does not compile).
    validators: HashMap<String, Option<std::sync::Arc<jsonschema::Validator>>>,
    /// The last model call's prompt, for what the next one shares with it.
    previous_prompt: Option<PromptShape>,
}

impl<'a> Run<'a, '_> {
    fn emit(&mut self, kind: EventKind) {
        let event = Event { kind, seq: self.events.len() as u32, attempt: self.attempt };
        (self.observer)(&event);
        self.events.push(event);
    }

    async fn execute(mut self, provider: &mut dyn Provider) -> Result<RunReport> {
        self.emit(EventKind::RunStarted { adapter: self.requested, template: self.input.template.key.clone() });
        if let Some(reason) = self.substitution.take() {
            self.emit(EventKind::AdapterSubstituted {
                requested: self.requested,
                adapter: self.adapter.kind(),
                reason,
            });
        }
        for discovery in self.input.discoveries {
            self.emit(EventKind::ToolsDiscovered {
                source: discovery.source.clone(),
                tier: discovery.tier,
                tools: discovery.tools.iter().map(|tool| tool.name.clone()).collect(),
                error: discovery.error.clone(),
            });
        }
        let (status, final_text, error) = loop {
            let end = match self.start_attempt() {
                Ok(conversation) => self.attempt(conversation, provider).await,
                Err(e) => {
                    AttemptEnd::Finished { status: RunStatus::Error, final_text: None, error: Some(e.to_string()) }
                }
            };
            match end {
                AttemptEnd::Finished { status, final_text, error } => break (status, final_text, error),
                AttemptEnd::Cancelled => {
                    tracing::info!("run cancelled");
                    return Err(unfold_documents::Error::Cancelled);
                }
                AttemptEnd::Restart(_) if self.restarts >= self.input.limits.max_restarts => {
                    let value = self.input.limits.max_restarts;
                    self.emit(EventKind::LimitReached { limit: Limit::MaxRestarts, value });
                    break (RunStatus::RestartLimit, None, None);
                }
                AttemptEnd::Restart(request) => self.restart(request),
            }
        };
        self.emit(EventKind::RunCompleted { status, final_text: final_text.clone(), error });
        let counters = Counters::of(&self.events);
        tracing::info!(
            ?status,
            model_calls = counters.model_calls,
            restarts = counters.restarts,
            tool_calls = counters.tool_calls,
            prompt_tokens = counters.prompt_tokens,
            "run completed"
        );
        Ok(RunReport {
            adapter: self.requested,
            host: None,
            real_host: None,
            status,
            final_text,
            counters,
            cost: None,
            events: self.events,
        })
    }

    /// The first request of the next attempt, as the adapter sends the session's prompt.
    fn start_attempt(&self) -> Result<Conversation> {
        let prompt = self.session.render()?;
        let hidden = self.adapter.hidden_tools();
        let every_tool = match hidden {
            HiddenTools::Withheld => Vec::new(),
            HiddenTools::Disallowed | HiddenTools::Deferred | HiddenTools::Announced => self.session.every_tool()?,
        };
        let first = self.input.user_turns.first().map_or("", String::as_str);
        let mut conversation = Conversation::new(prompt, first, self.attempt, hidden, every_tool);
        let policy = self.input.tool_policy;
        conversation.list_deferred(policy.deferred);
        if policy.order != ToolOrder::Append
            || policy.names != ToolNames::Plain
            || policy.deferred != DeferredListing::default()
        {
            let tools = conversation.tools().to_vec();
            self.send_tools(&mut conversation, tools);
        }
        Ok(conversation)
    }

    /// Sends `tools` from the next call on, in the order the lane puts them and under its names.
    fn send_tools(&self, conversation: &mut Conversation, mut tools: Vec<OfferedTool>) {
        let names = SentNames::of(self.input.tool_policy.names, &self.source_tools);
        match self.input.tool_policy.order {
            ToolOrder::Append => {}
            ToolOrder::Sorted => tools.sort_by(|a, b| names.sent(&a.name).cmp(names.sent(&b.name))),
            ToolOrder::SourcesLast => {
                // A stable sort: each group keeps its order.
                tools.sort_by_key(|tool| self.source_tools.values().any(|names| names.contains(&tool.name)));
            }
        }
        conversation.name_tools(names);
        conversation.set_tools(tools);
    }

    fn restart(&mut self, request: RestartRequest) {
        let (reason, section_keys, message) = match request {
            RestartRequest::Expansion(expansion) => {
                self.session.apply_visibility(&expansion.overrides);
                if !expansion.section_keys.is_empty() {
                    self.emit(EventKind::VisibilityChanged { section_keys: expansion.section_keys.clone() });
                }
                (RestartReason::VisibilityExpansion, expansion.section_keys, expansion.reason)
            }
            RestartRequest::ToolsPicked => (RestartReason::ToolsPicked, Vec::new(), None),
            RestartRequest::ToolAvailabilityChanged => (RestartReason::ToolAvailabilityChanged, Vec::new(), None),
        };
        self.emit(EventKind::Restart { reason, section_keys, message });
        self.restarts += 1;
        self.attempt += 1;
        self.turn = 1;
        // The new attempt's first request is rendered with everything the session knows.
        self.pending.clear();
        // A new attempt redoes the calls the restart threw away: a repeat across a restart is the
        // replay the comparison measures, not the model looping.
        self.loops.restart();
    }

    async fn attempt(&mut self, mut conversation: Conversation, provider: &mut dyn Provider) -> AttemptEnd {
        loop {
            if let Some(restart) = self.apply_source_changes(&mut conversation).await {
                return AttemptEnd::Restart(restart);
            }
            if let Some(restart) = self.apply_due_tool_change(&mut conversation) {
                return AttemptEnd::Restart(restart);
            }
            self.show_due_changes(&mut conversation);
            if self.call_index >= self.input.limits.max_model_calls {
                let value = self.input.limits.max_model_calls;
                self.emit(EventKind::LimitReached { limit: Limit::MaxModelCalls, value });
                return AttemptEnd::Finished { status: RunStatus::TurnLimit, final_text: None, error: None };
            }
            self.call_index += 1;
            conversation.announce();
            let prompt_tokens = conversation.prompt_tokens();
            let span = tracing::debug_span!("model_call", call_index = self.call_index, attempt = self.attempt);
            let response = match provider.complete(&conversation.request()).instrument(span).await {
                Ok(response) => response,
                Err(unfold_documents::Error::Cancelled) => return AttemptEnd::Cancelled,
                Err(e) => {
                    return AttemptEnd::Finished {
                        status: RunStatus::Error,
                        final_text: None,
                        error: Some(e.to_string()),
                    }
                }
            };
            // Counted once, if at all: for its completion tokens when the provider sends no usage,
            // and as the message the conversation goes on with.
            let mut answer_tokens = None;
            let completion_tokens = match response.usage {
                Some(usage) => usage.completion_tokens,
                None => *answer_tokens.insert(tokens::count_response(&response)),
            };
            tracing::debug!(
                call_index = self.call_index,
                attempt = self.attempt,
                prompt_tokens,
                tool_calls = response.tool_calls.len(),
                "model answered"
            );
            let prefix = conversation.shape.against(self.previous_prompt.as_ref());
            self.previous_prompt = Some(conversation.shape.clone());
            self.emit(EventKind::ModelCall {
                call_index: self.call_index,
                tools_offered: conversation.sent_callable().to_vec(),
                prompt_tokens: response.usage.map_or(prompt_tokens, |u| u.prompt_tokens),
                completion_tokens,
                prefix: Some(prefix),
                measured_cache: response.usage.and_then(|usage| usage.cache),
                text: response.text.clone(),
            });
            if response.cut_at_limit {
                // Never called completed: the text is not the whole answer, and a call cut short
                // holds arguments the model never finished, so none is run.
                tracing::info!(call_index = self.call_index, "answer cut at the output-token limit");
                return AttemptEnd::Finished { status: RunStatus::MaxTokens, final_text: response.text, error: None };
            }
            if response.tool_calls.is_empty() {
                let Some(next) = self.input.user_turns.get(self.turn as usize) else {
                    return AttemptEnd::Finished {
                        status: RunStatus::Completed,
                        final_text: response.text,
                        error: None,
                    };
                };
                // The turn's answer stays in the history the next turn is asked with.
                let counted = answer_tokens.unwrap_or_else(|| tokens::count_response(&response));
                conversation
                    .push_counted(Message::Assistant { content: response.text, tool_calls: Vec::new() }, counted);
                conversation.push(Message::User { content: next.clone() });
                self.turn += 1;
                self.emit(EventKind::UserTurn { turn: self.turn });
                continue;
            }
            let counted = answer_tokens.unwrap_or_else(|| tokens::count_response(&response));
            let calls = response.tool_calls.clone();
            let answer = Message::Assistant { content: response.text, tool_calls: response.tool_calls };
            conversation.push_counted(answer, counted);
            for call in calls {
                // Answered as the template's tool the model called by the name it was sent under.
                let call = ToolCall { name: conversation.template_name(&call.name).to_owned(), ..call };
                if let Some(end) = self.answer(&call, &mut conversation).await {
                    return end;
                }
            }
        }
    }

    /// Answers one tool call; `Some` when the attempt ends with it.
    async fn answer(&mut self, call: &ToolCall, conversation: &mut Conversation) -> Option<AttemptEnd> {
        let warning = match self.loops.observe(call) {
            LoopVerdict::Fine => None,
            LoopVerdict::Warn(found) => Some(found),
            LoopVerdict::Stop(found) => {
                let (limit, value) = match &found {
                    LoopFound::ExactRepeat { times, .. } => (Limit::RepeatedToolCall, *times),
                    LoopFound::Pattern { tools } => (Limit::RepeatingPattern, tools.len() as u32),
                };
                self.emit(EventKind::LimitReached { limit, value });
                return Some(AttemptEnd::Finished { status: RunStatus::LoopDetected, final_text: None, error: None });
            }
        };
        let mut outcome = match self.given(call, conversation) {
            Some(outcome) => outcome,
            None => match self.call_on_source(call, conversation).await {
                Some(outcome) => outcome,
                None => self.call_tool(call, conversation),
            },
        };
        if matches!(outcome.effect, CallEffect::None) && self.picks_by_calling(call, conversation) {
            // km_tools: calling an unpicked tool runs it and picks it.
            outcome.effect = CallEffect::Picked(vec![call.name.clone()]);
        }
        let mut content = match &outcome.result {
            Value::String(text) => text.clone(),
            other => other.to_string(),
        };
        self.emit(EventKind::ToolCall {
            call_index: self.call_index,
            call_id: call.id.clone(),
            name: call.name.clone(),
            args: call.arguments.clone(),
            success: outcome.success,
            result: outcome.result,
        });
        if let Some(found) = warning {
            let message = found.warning();
            content = format!("{content}\n\n{message}");
            self.emit(EventKind::LoopWarning { call_id: call.id.clone(), found, message });
        }
        conversation.push(Message::Tool {
            call_id: call.id.clone(),
            name: conversation.sent_name(&call.name).to_owned(),
            content,
            references: Vec::new(),
        });
        let dynamic = self.refresh != Refresh::Restart;
        match outcome.effect {
            CallEffect::None => None,
            CallEffect::Read { expansion, .. } if !dynamic && !expansion.expanded_tools.is_empty() => {
                Some(AttemptEnd::Restart(RestartRequest::Expansion(VisibilityExpansionRequired {
                    overrides: expansion.overrides,
                    section_keys: expansion.section_keys,
                    reason: None,
                })))
            }
            CallEffect::Read { section_key, expansion } => {
                self.session.apply_visibility(&expansion.overrides);
                self.emit(EventKind::VisibilityChanged { section_keys: expansion.section_keys });
                let tools: Vec<Arc<Tool>> =
                    expansion.expanded_tools.iter().filter_map(|name| self.tools.get(name.as_str()).cloned()).collect();
                let change = ToolsChange { section_key: Some(section_key), added: tools, ..ToolsChange::default() };
                self.change_tools(conversation, change);
                None
            }
            CallEffect::Open(required) => Some(AttemptEnd::Restart(RestartRequest::Expansion(required))),
            CallEffect::Picked(names) => {
                self.session.apply_picks(&names);
                if !dynamic {
                    return Some(AttemptEnd::Restart(RestartRequest::ToolsPicked));
                }
                if matches!(self.refresh, Refresh::NextCall | Refresh::Late(0)) {
                    let tools = self.reoffer(conversation.tools());
                    self.send_tools(conversation, tools);
                    return None;
                }
                // A host that refreshes later keeps the brief in its list until then: the pick's
                // full definitions show as a redefinition when the policy says.
                let modified = names.iter().filter_map(|name| self.tools.get(name.as_str()).map(|t| Tool::clone(t)));
                let change = ToolsChange { modified: modified.collect(), ..ToolsChange::default() };
                self.change_tools(conversation, change);
                None
            }
        }
    }

    /// Answers `call` on its tool source, when a source answers an offered tool of that name and
    /// the scenario scripts no result for it (a scripted run's results win, spec 8); `None` to
    /// answer it as a written tool.
    async fn call_on_source(&mut self, call: &ToolCall, conversation: &Conversation) -> Option<CallOutcome> {
        let host = self.host.as_deref()?;
        // A source's tool left out for a written one's name is the written one.
        let from_source = self.source_tools.values().any(|names| names.contains(&call.name));
        if !from_source
            || !host.answers(&call.name)
            || self.results.scripts(&call.name)
            || !conversation.may_call(&call.name)
        {
            return None;
        }
        let tool = self.tools.get(call.name.as_str()).cloned()?;
        if !call.arguments.is_object() {
            return None;
        }
        if let Some(message) = self.argument_problems(&tool, &call.arguments) {
            return Some(CallOutcome::failed(message));
        }
        let answer = self.host.as_mut()?.call(&call.name, &call.arguments).await;
        Some(CallOutcome { success: answer.success, result: answer.result, effect: CallEffect::None })
    }

    /// The result given to `call` by its id (a fork's recording or change), for a tool the model
    /// may call that is not a disclosure tool (the session answers those, so they reveal).
    fn given(&mut self, call: &ToolCall, conversation: &Conversation) -> Option<CallOutcome> {
        if Builtin::from_name(&call.name).is_some() || !conversation.may_call(&call.name) {
            return None;
        }
        let tool = self.tools.get(call.name.as_str()).cloned()?;
        let (success, result) = self.results.given(&call.id, &tool)?;
        Some(CallOutcome { success, result, effect: CallEffect::None })
    }

    /// Whether calling `call`'s tool picks it: an unpicked tool the model may call, in `pick_tools` mode.
    fn picks_by_calling(&self, call: &ToolCall, conversation: &Conversation) -> bool {
        self.pick_mode()
            && Builtin::from_name(&call.name).is_none()
            && conversation.may_call(&call.name)
            && !self.session.state().picked_tools.contains(&call.name)
    }

    /// Whether the template offers tools by their briefs until picked (`pick_tools`, spec 4.4).
    fn pick_mode(&self) -> bool {
        self.input.template.tool_disclosure == unfold_documents::template::ToolDisclosure::PickTools
    }

    /// `tools` as the session offers them now: a picked tool in full, `pick_tools` for the others.
    fn reoffer(&self, tools: &[OfferedTool]) -> Vec<OfferedTool> {
        let offered = tools
            .iter()
            .map(|tool| match self.tools.get(tool.name.as_str()) {
                Some(definition) => self.session.state().offer(definition, self.pick_mode()),
                None => tool.clone(),
            })
            .collect();
        self.with_pick_tools(offered)
    }

    /// `tools` with `pick_tools` as the session offers it now (see [`crate::render::with_pick_tools`]).
    fn with_pick_tools(&self, tools: Vec<OfferedTool>) -> Vec<OfferedTool> {
        crate::render::with_pick_tools(tools, self.session.state(), self.pick_mode())
    }

    /// Makes tools callable in the running conversation: a tool sent hidden is allowed or loaded
    /// (as the adapter sends hidden tools), one not sent is added to the list; a tool callable
    /// already is skipped.
    fn inject(&mut self, conversation: &mut Conversation, section_key: Option<String>, tools: &[Arc<Tool>]) {
        let hidden: Vec<String> =
            tools.iter().filter(|t| conversation.sends(&t.name)).map(|t| t.name.clone()).collect();
        let opened = conversation.open(&hidden);
        if !opened.is_empty() {
            let delivery = match self.adapter.hidden_tools() {
                HiddenTools::Deferred => ToolDelivery::Referenced,
                HiddenTools::Announced => ToolDelivery::Announced,
                HiddenTools::Withheld | HiddenTools::Disallowed => ToolDelivery::Allowed,
            };
            self.emit(EventKind::ToolsInjected {
                section_key: section_key.clone(),
                tool_names: opened.clone(),
                delivery,
            });
        }
        let mut offered = conversation.tools().to_vec();
        let mut injected = Vec::new();
        for tool in tools.iter().filter(|t| !opened.contains(&t.name)) {
            if offered.iter().any(|t| t.name == tool.name) {
                self.emit(EventKind::ToolInjectionSkipped {
                    section_key: section_key.clone(),
                    tool_name: tool.name.clone(),
                });
                continue;
            }
            // Builtins stay last, as in a rendered tool list.
            let at = offered.iter().position(|t| Builtin::from_name(&t.name).is_some()).unwrap_or(offered.len());
            offered.insert(at, self.session.state().offer(tool, self.pick_mode()));
            injected.push(tool.name.clone());
        }
        if !injected.is_empty() {
            // The list's tools keep how they are offered; only pick_tools' names change.
            self.send_tools(conversation, self.with_pick_tools(offered));
            self.emit(EventKind::ToolsInjected { section_key, tool_names: injected, delivery: ToolDelivery::Listed });
        }
    }

    /// Applies the plugin changes due before the next model call (spec 4.5, 12): those at this
    /// call or before, and those at this turn or before, in the scenario's order. A lane that
    /// cannot take new tools mid-conversation restarts after the first.
    fn apply_due_tool_change(&mut self, conversation: &mut Conversation) -> Option<RestartRequest> {
        let next_call = self.call_index + 1;
        let input = self.input;
        for (index, change) in input.tool_changes.iter().enumerate() {
            let due = match change.moment() {
                ChangeMoment::ModelCall(call) => call <= next_call,
                ChangeMoment::Turn(turn) => turn <= self.turn,
            };
            if !due || self.applied_changes[index] {
                continue;
            }
            self.applied_changes[index] = true;
            if let Some(restart) = self.apply_tool_change(change, next_call, conversation) {
                return Some(restart);
            }
        }
        None
    }

    /// Applies one plugin change before model call `next_call`; a restart when the adapter cannot
    /// change the running conversation's tools.
    fn apply_tool_change(
        &mut self,
        change: &ToolChange,
        next_call: u32,
        conversation: &mut Conversation,
    ) -> Option<RestartRequest> {
        self.session.apply_tool_changes(&change.add, &change.remove, &change.modify);
        for tool in &change.modify {
            self.tools.insert(tool.name.clone(), Arc::new(tool.clone()));
            self.validators.remove(&tool.name);
        }
        self.emit(EventKind::ToolAvailabilityChanged {
            at_model_call: next_call,
            added: change.add.iter().map(|t| t.name.clone()).collect(),
            removed: change.remove.clone(),
            source: None,
            modified: change.modify.iter().map(|t| t.name.clone()).collect(),
        });
        if self.refresh == Refresh::Restart {
            return Some(RestartRequest::ToolAvailabilityChanged);
        }
        let change = ToolsChange {
            section_key: None,
            added: change.add.iter().map(|t| Arc::new(t.clone())).collect(),
            removed: change.remove.clone(),
            modified: change.modify.clone(),
        };
        self.change_tools(conversation, change);
        None
    }

    /// Makes `change` to the running conversation's tools now, or when the lane's refresh policy
    /// shows it (a `tools_pending` event says when).
    fn change_tools(&mut self, conversation: &mut Conversation, change: ToolsChange) {
        let next_call = self.call_index + 1;
        let shows = match self.refresh {
            Refresh::NextCall | Refresh::Restart | Refresh::Late(0) => PendingShows::AtModelCall(next_call),
            Refresh::Late(calls) => PendingShows::AtModelCall(next_call + calls),
            Refresh::NextTurn => PendingShows::AtTurn(self.turn + 1),
            Refresh::Never => PendingShows::Never,
        };
        if shows == PendingShows::AtModelCall(next_call) {
            self.show(conversation, change);
            return;
        }
        let names = |tools: &[Arc<Tool>]| tools.iter().map(|t| t.name.clone()).collect::<Vec<_>>();
        self.emit(EventKind::ToolsPending {
            section_key: change.section_key.clone(),
            added: names(&change.added),
            removed: change.removed.clone(),
            modified: change.modified.iter().map(|t| t.name.clone()).collect(),
            shows,
        });
        self.pending.push(PendingChange { change, shows });
    }

    /// Shows the model the pending changes due by the next model call, in the order they happened.
    fn show_due_changes(&mut self, conversation: &mut Conversation) {
        let next_call = self.call_index + 1;
        let turn = self.turn;
        let due = |pending: &PendingChange| match pending.shows {
            PendingShows::AtModelCall(call) => call <= next_call,
            PendingShows::AtTurn(at) => at <= turn,
            PendingShows::Never => false,
        };
        let (now, later): (Vec<PendingChange>, Vec<PendingChange>) = self.pending.drain(..).partition(due);
        self.pending = later;
        for pending in now {
            self.show(conversation, pending.change);
        }
    }

    /// Makes `change` to the running conversation's tools: withdrawn, added, redefined.
    fn show(&mut self, conversation: &mut Conversation, change: ToolsChange) {
        self.withdraw(conversation, &change.removed);
        self.inject(conversation, change.section_key, &change.added);
        self.redefine(conversation, &change.modified);
    }

    /// Sends the new definitions of the tools in `modified` the running conversation sends,
    /// each where it was in the list.
    fn redefine(&mut self, conversation: &mut Conversation, modified: &[Tool]) {
        let names: Vec<String> =
            modified.iter().filter(|tool| conversation.sends(&tool.name)).map(|tool| tool.name.clone()).collect();
        if names.is_empty() {
            return;
        }
        let tools: Vec<OfferedTool> = conversation
            .tools()
            .iter()
            .map(|offered| match self.tools.get(offered.name.as_str()).filter(|_| names.contains(&offered.name)) {
                Some(definition) => self.session.state().offer(definition, self.pick_mode()),
                None => offered.clone(),
            })
            .collect();
        self.send_tools(conversation, self.with_pick_tools(tools));
        self.emit(EventKind::ToolsModified { tool_names: names });
    }

    /// Takes the tools named `names` out of the running conversation's list, if offered; a lane
    /// that announces changes keeps the list and removes them in its next system message.
    fn withdraw(&mut self, conversation: &mut Conversation, names: &[String]) {
        if conversation.announces() {
            let removed = conversation.close(names);
            if !removed.is_empty() {
                self.emit(EventKind::ToolsRemoved { tool_names: removed });
            }
            return;
        }
        let removed: Vec<String> = names.iter().filter(|name| conversation.sends(name)).cloned().collect();
        if !removed.is_empty() {
            let tools: Vec<OfferedTool> =
                conversation.tools().iter().filter(|t| !removed.contains(&t.name)).cloned().collect();
            self.send_tools(conversation, self.with_pick_tools(tools));
            self.emit(EventKind::ToolsRemoved { tool_names: removed });
        }
    }

    /// Applies the lists the tool sources report changed, before the next model call (spec 8):
    /// one event per source; a change to tools the model is offered is injected and withdrawn by
    /// the dynamic adapter, a restart for the other. A change to tools not offered (their section
    /// still summarized) is the event alone.
    async fn apply_source_changes(&mut self, conversation: &mut Conversation) -> Option<RestartRequest> {
        let changed = match self.host.as_mut() {
            Some(host) => host.changed_lists(self.call_index + 1).await,
            None => return None,
        };
        let mut restart = false;
        for list in changed {
            restart |= self.apply_source_list(list, conversation);
        }
        restart.then_some(RestartRequest::ToolAvailabilityChanged)
    }

    /// Applies one source's new list; true when the adapter must restart for it.
    fn apply_source_list(&mut self, list: ChangedList, conversation: &mut Conversation) -> bool {
        let had = self.source_tools.get(&list.source).cloned().unwrap_or_default();
        let Some((template, discovery)) = self.session.template().with_new_list(&list.source, &had, list.tools) else {
            return false;
        };
        let before: HashMap<String, Arc<Tool>> =
            had.iter().filter_map(|name| self.tools.get(name).map(|t| (name.clone(), t.clone()))).collect();
        let now: Vec<String> = discovery.tools.iter().map(|t| t.name.clone()).collect();
        let added: Vec<String> = now.iter().filter(|name| !before.contains_key(*name)).cloned().collect();
        let removed: Vec<String> = had.iter().filter(|name| !now.contains(name)).cloned().collect();
        let modified: Vec<String> = discovery
            .tools
            .iter()
            .filter(|tool| before.get(&tool.name).is_some_and(|old| old.as_ref() != *tool))
            .map(|tool| tool.name.clone())
            .collect();
        if added.is_empty() && removed.is_empty() && modified.is_empty() {
            return false;
        }
        let section = template.sources.iter().find(|s| s.name == list.source).and_then(|s| s.section.clone());
        self.session.replace_template(template);
        for tool in &discovery.tools {
            self.tools.insert(tool.name.clone(), Arc::new(tool.clone()));
            self.validators.remove(&tool.name);
        }
        self.source_tools.insert(list.source.clone(), now);
        self.emit(EventKind::ToolAvailabilityChanged {
            at_model_call: self.call_index + 1,
            added: added.clone(),
            removed: removed.clone(),
            source: Some(list.source),
            modified: modified.clone(),
        });
        let offered = section.as_deref().is_none_or(|path| self.session.is_rendered_full(path));
        if !offered {
            return false;
        }
        if self.refresh == Refresh::Restart {
            return true;
        }
        let change = if conversation.announces() {
            // Redefined in its place: a system message cannot give a tool a new definition, and
            // taking it away to add it back would say nothing of the new one.
            let arriving = added.iter().filter_map(|name| self.tools.get(name).cloned()).collect();
            let changed = modified.iter().filter_map(|name| self.tools.get(name).map(|t| Tool::clone(t))).collect();
            ToolsChange { section_key: section, added: arriving, removed, modified: changed }
        } else {
            // A source's changed tool is taken out and offered again, as its list now says.
            let gone: Vec<String> = removed.iter().chain(&modified).cloned().collect();
            let arriving: Vec<Arc<Tool>> =
                added.iter().chain(&modified).filter_map(|name| self.tools.get(name).cloned()).collect();
            ToolsChange { section_key: section, added: arriving, removed: gone, ..ToolsChange::default() }
        };
        self.change_tools(conversation, change);
        false
    }

    fn call_tool(&mut self, call: &ToolCall, conversation: &Conversation) -> CallOutcome {
        if !conversation.may_call(&call.name) {
            return CallOutcome::failed(self.not_callable(&call.name, conversation));
        }
        let Some(args) = call.arguments.as_object() else {
            return CallOutcome::failed(match &call.arguments {
                // What a live provider keeps of argument text that is not JSON.
                Value::String(text) => {
                    format!(
                        "The arguments of '{}' are not valid JSON; send a JSON object. They were: {text}",
                        call.name
                    )
                }
                _ => format!("The arguments of '{}' must be a JSON object.", call.name),
            });
        };
        match Builtin::from_name(&call.name) {
            Some(Builtin::ReadSection) => self.read_section(args),
            Some(Builtin::OpenSections) => self.open_sections(args),
            Some(Builtin::PickTools) => {
                let callable: Vec<OfferedTool> =
                    conversation.tools().iter().filter(|t| conversation.may_call(&t.name)).cloned().collect();
                self.pick_tools(args, &callable, conversation)
            }
            None => match self.tools.get(call.name.as_str()).cloned() {
                Some(tool) => {
                    if let Some(message) = self.argument_problems(&tool, &call.arguments) {
                        return CallOutcome::failed(message);
                    }
                    match self.results.next(&tool) {
                        Ok(value) => CallOutcome::succeeded(value),
                        Err(message) => CallOutcome::failed(message),
                    }
                }
                None => CallOutcome::failed(format!("Unknown tool: '{}'", call.name)),
            },
        }
    }

    /// What the model is told when it calls a tool it may not call now: a tool sent hidden
    /// (`allowed_tools`, `deferred`) names the section to read first, while it is summarized.
    fn not_callable(&self, name: &str, conversation: &Conversation) -> String {
        // The hint helps only while the section is summarized: once it is read, a tool still not
        // callable was withdrawn, or is not shown yet, and a real host calls it unknown.
        let hidden_in = self.session.section_of_tool(name).filter(|_| conversation.sends(name));
        match hidden_in.filter(|section| !self.session.is_rendered_full(section)) {
            Some(section) => format!(
                "Tool '{name}' cannot be called yet: it belongs to section '{section}'. Call `read_section` with that key first."
            ),
            None => format!("Unknown tool: '{name}'"),
        }
    }

    /// Why `args` do not fit `tool`'s parameter schema, as the model is told; `None` when they do.
    /// Each tool's validator is built on its first call.
    fn argument_problems(&mut self, tool: &Tool, args: &Value) -> Option<String> {
        let validator = self
            .validators
            .entry(tool.name.clone())
            .or_insert_with(|| unfold_documents::schema::shared_tool_parameters_validator(&tool.parameters))
            .as_ref()?;
        let problems: Vec<String> = validator
            .iter_errors(args)
            .map(|error| match error.instance_path().as_str() {
                "" => error.to_string(),
                path => format!("{path}: {error}"),
            })
            .collect();
        if problems.is_empty() {
            return None;
        }
        Some(format!("Invalid arguments for '{}': {}", tool.name, problems.join("; ")))
    }

    fn read_section(&self, args: &serde_json::Map<String, Value>) -> CallOutcome {
        let Some(key) = args.get("section_key").and_then(Value::as_str) else {
            return CallOutcome::failed("read_section needs a string \"section_key\".");
        };
        match self.session.read_section(key) {
            crate::session::ReadOutcome::Unknown(message) => CallOutcome::failed(message),
            crate::session::ReadOutcome::AlreadyExpanded(content) => {
                CallOutcome::succeeded(json!({ "content": content, "message": "Section is already expanded." }))
            }
            crate::session::ReadOutcome::Expand(expansion) => CallOutcome {
                success: true,
                result: json!({ "content": expansion.content, "expanded_tools": expansion.expanded_tools }),
                effect: CallEffect::Read { section_key: key.to_owned(), expansion },
            },
        }
    }

    fn open_sections(&self, args: &serde_json::Map<String, Value>) -> CallOutcome {
        let keys = args
            .get("section_keys")
            .and_then(Value::as_array)
            .and_then(|keys| keys.iter().map(|k| k.as_str().map(str::to_owned)).collect::<Option<Vec<String>>>());
        let (Some(keys), Some(reason)) = (keys, args.get("reason").and_then(Value::as_str)) else {
            return CallOutcome::failed("open_sections needs \"section_keys\" (strings) and a string \"reason\".");
        };
        match self.session.open_sections(&keys, reason) {
            Err(message) => CallOutcome::failed(message),
            Ok(expansion) => CallOutcome {
                success: true,
                result: Value::String(format!(
                    "Sections expanded: {}. The prompt will be re-rendered with the full content of the requested sections.",
                    keys.join(", ")
                )),
                effect: CallEffect::Open(VisibilityExpansionRequired {
                    overrides: expansion.overrides,
                    section_keys: expansion.section_keys,
                    reason: Some(reason.to_owned()),
                }),
            },
        }
    }

    /// Picks the tools `args` names, by the names `conversation` sends them under.
    fn pick_tools(
        &self,
        args: &serde_json::Map<String, Value>,
        offered: &[OfferedTool],
        conversation: &Conversation,
    ) -> CallOutcome {
        let names = args.get("tools").and_then(Value::as_array).and_then(|names| {
            names
                .iter()
                .map(|n| n.as_str().map(|n| conversation.template_name(n).to_owned()))
                .collect::<Option<Vec<_>>>()
        });
        let Some(names) = names else {
            return CallOutcome::failed("pick_tools needs \"tools\": a list of tool names.");
        };
        match self.session.pick_tools(&names, offered) {
            Err(message) => CallOutcome::failed(message),
            Ok(new) if new.is_empty() => {
                let picked = conversation.sent_names(&names);
                CallOutcome::succeeded(json!({ "picked": picked, "message": "Already picked." }))
            }
            Ok(new) => {
                let specifications: Vec<Value> = names
                    .iter()
                    .filter_map(|name| self.tools.get(name.as_str()))
                    .map(|tool| {
                        let name = conversation.sent_name(&tool.name);
                        json!({ "name": name, "description": tool.description, "parameters": tool.parameters })
                    })
                    .collect();
                let result = json!({ "picked": conversation.sent_names(&names), "tools": specifications });
                CallOutcome { success: true, result, effect: CallEffect::Picked(new) }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use unfold_documents::{Scenario, Template};

    use super::{run, RunInput};
    use crate::adapter::DynamicAdapter;
    use crate::scripted::{ScriptedProvider, ScriptedToolResults};
    use crate::tokens::counted;

    /// The bytes of text counted in a run of the example where the model calls `lookup` with a
    /// `note` of `note_bytes` and answers, sending no usage (as a server may not).
    fn bytes_counted_in_a_run(note_bytes: usize) -> usize {
        let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/task-executor.unfold.json");
        let template = Template::load(&example).unwrap();
        let scenario = serde_json::json!({ "schema_version": 1, "kind": "unfold.scenario", "name": "note",
            "user": "Find issue 7.",
            "script": [{ "call": "lookup", "args": { "id": 7, "note": "x".repeat(note_bytes) } }, { "say": "Done." }] });
        let scenario = Scenario::from_json(scenario.to_string().as_bytes()).unwrap();
        let input = RunInput::of_scenario(&template, &scenario);
        let mut model = ScriptedProvider::new(&scenario, &template);
        let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
        let before = counted::bytes();
        let report = runtime
            .block_on(run(&input, &DynamicAdapter, &mut model, &mut ScriptedToolResults::default(), &mut |_| {}))
            .unwrap();
        assert_eq!(report.final_text.as_deref(), Some("Done."));
        counted::bytes() - before
    }

    #[test]
    fn an_answer_without_usage_is_counted_once() {
        let extra = bytes_counted_in_a_run(100_010) - bytes_counted_in_a_run(10);
        assert!(extra < 150_000, "100,000 more bytes of arguments counted as {extra} more: more than once");
    }
}
