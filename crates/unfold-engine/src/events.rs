//! The typed event log of a run (spec 6), its counters, and the run report. Events are what the
//! timeline draws and what reports and tests assert on.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use unfold_documents::prices::Pricing;

use crate::costs::{CallTokens, RunCost};
use crate::loop_detection::LoopFound;
use crate::prompt_prefix::PromptPrefix;
use crate::provider::MeasuredCache;
pub use unfold_documents::runs::{AdapterKind, RunStatus};

/// How tools reached a running conversation (spec 10).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "snake_case")]
pub enum ToolDelivery {
    /// Added to the tool list of later calls (the dynamic adapter; a plugin's new tool under any).
    #[default]
    Listed,
    /// Already listed; now in the callable subset (`allowed_tools`).
    Allowed,
    /// Already sent deferred; now loaded by `tool_reference` blocks in the tool result (`deferred`).
    Referenced,
    /// Already sent deferred; now added by a system message's `tool_addition` blocks before the
    /// next call (`tool_addition`).
    Announced,
}

impl ToolDelivery {
    fn is_listed(&self) -> bool {
        *self == ToolDelivery::Listed
    }

    /// What happened to the tools, in a word: `injected`, `allowed`, `loaded`, `added`.
    pub fn verb(self) -> &'static str {
        match self {
            ToolDelivery::Listed => "injected",
            ToolDelivery::Allowed => "allowed",
            ToolDelivery::Referenced => "loaded",
            ToolDelivery::Announced => "added",
        }
    }
}

/// One event of a run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Event {
    /// What happened.
    #[serde(flatten)]
    pub kind: EventKind,
    /// 0-based position in the run's log.
    pub seq: u32,
    /// 1-based attempt (a restart starts the next one).
    pub attempt: u32,
}

/// What happened, tagged by `type`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum EventKind {
    /// The run began.
    RunStarted {
        /// The adapter.
        adapter: AdapterKind,
        /// The template's key.
        template: String,
    },
    /// The adapter asked for cannot run with this provider, so another runs in its place: the
    /// dynamic adapter on a provider that takes its tools once runs as the restart adapter.
    AdapterSubstituted {
        /// The adapter asked for (the run's and its lane's name).
        requested: AdapterKind,
        /// The adapter that runs.
        adapter: AdapterKind,
        /// Why.
        reason: String,
    },
    /// What a tool source offered the run, before its first model call (spec 8): one per source.
    ToolsDiscovered {
        /// The source's name.
        source: String,
        /// Where its tools came from: the running source, its snapshot, or nowhere.
        tier: unfold_documents::discovery::Tier,
        /// The tools it offered the run, in its order.
        tools: Vec<String>,
        /// Why a lower tier was used, or a tool left out.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        error: Option<String>,
    },
    /// The model was called once.
    ModelCall {
        /// 1-based, counted over the whole run.
        call_index: u32,
        /// The tools offered, in order.
        tools_offered: Vec<String>,
        /// Tokens of the system prompt, messages and tool definitions sent.
        #[cfg_attr(feature = "specta", specta(type = u32))]
        prompt_tokens: u64,
        /// Tokens of the answer.
        #[cfg_attr(feature = "specta", specta(type = u32))]
        completion_tokens: u64,
        /// What its prompt shares with the previous call's (spec 10's prompt cache); absent in
        /// reports written before it existed.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        prefix: Option<PromptPrefix>,
        /// What the provider's prompt cache did for the call, as a live provider measured it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        measured_cache: Option<MeasuredCache>,
        /// The words of the model's answer: beside its tool calls, or the reply that ended a turn.
        /// A fork replays them (spec 15). Absent for an answer without words, and in reports
        /// written before they were kept.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        text: Option<String>,
    },
    /// A tool call of the model was answered.
    ToolCall {
        /// The model call that asked for it.
        call_index: u32,
        /// The call's id.
        call_id: String,
        /// The tool's name.
        name: String,
        /// The arguments as the model sent them.
        #[cfg_attr(feature = "specta", specta(type = unfold_documents::json_type::JsonValue))]
        args: Value,
        /// Whether the tool succeeded.
        success: bool,
        /// What the model is told.
        #[cfg_attr(feature = "specta", specta(type = unfold_documents::json_type::JsonValue))]
        result: Value,
    },
    /// Tools became callable in the running conversation: added to the tool list of later calls,
    /// or (`delivery`) allowed or loaded where they were already sent.
    ToolsInjected {
        /// The section whose expansion offered them (`null` for a plugin change).
        section_key: Option<String>,
        /// The tools, in order.
        tool_names: Vec<String>,
        /// How they arrived; absent: listed.
        #[serde(default, skip_serializing_if = "ToolDelivery::is_listed")]
        delivery: ToolDelivery,
    },
    /// A tool was not injected because a tool of that name is already offered.
    ToolInjectionSkipped {
        /// The section whose expansion offered it (`null` for a plugin change).
        section_key: Option<String>,
        /// The tool.
        tool_name: String,
    },
    /// A real agent host fetched the list of tools from the template's MCP server (spec 13): the
    /// first time, and each time again (after `tools/list_changed`, or before each request).
    ToolsListed {
        /// The tools the server listed, in its order.
        tool_names: Vec<String>,
    },
    /// The script called a tool that a real host had not offered in that request (spec 13): the
    /// call was not made, since a model cannot call a tool it was not shown, and the script went
    /// on with its next step.
    ToolNotShown {
        /// The model call whose answer would have made it.
        call_index: u32,
        /// The tool, as the script names it.
        tool_name: String,
    },
    /// Tools were removed from the tool list of later calls.
    ToolsRemoved {
        /// The tools.
        tool_names: Vec<String>,
    },
    /// Sections' visibility changed in the session.
    VisibilityChanged {
        /// The sections made FULL, in document order.
        section_keys: Vec<String>,
    },
    /// The evaluation restarts from the system prompt and the user message.
    Restart {
        /// Why.
        reason: RestartReason,
        /// The sections expanded by it, if any.
        section_keys: Vec<String>,
        /// The reason the model gave (`open_sections`), if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        message: Option<String>,
    },
    /// A plugin (spec 4.5) or a tool source (spec 8) changed the available tools before a model call.
    ToolAvailabilityChanged {
        /// The model call the change applies to.
        at_model_call: u32,
        /// Tools added.
        added: Vec<String>,
        /// Tools removed.
        removed: Vec<String>,
        /// The tool source whose list changed (none: a scenario's `tool_changes`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        source: Option<String>,
        /// Tools whose description or parameters changed (removed and added again).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        modified: Vec<String>,
    },
    /// The user sent the next turn's message (turn 2 and later) after the model's answer to the
    /// turn before; after a restart, the turns already given are sent again as the attempt reaches them.
    UserTurn {
        /// 1-based.
        turn: u32,
    },
    /// The tools the lane could offer changed, and its refresh policy (spec 12) shows the change
    /// later, or never: until then its requests keep the list they had.
    ToolsPending {
        /// The section whose read revealed them (`null` for a plugin's or a source's change).
        section_key: Option<String>,
        /// Tools that will be added.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        added: Vec<String>,
        /// Tools that will be removed.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        removed: Vec<String>,
        /// Tools that will get their new definitions.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        modified: Vec<String>,
        /// When the model first sees it.
        shows: PendingShows,
    },
    /// Tools in the running conversation's list got a new definition under the same name.
    ToolsModified {
        /// The tools.
        tool_names: Vec<String>,
    },
    /// A tool call completed a loop (km_tools' rules) for the first time: the model is warned at
    /// the end of the call's result; looping again ends the run.
    LoopWarning {
        /// The call whose result carries the warning.
        call_id: String,
        /// The loop.
        #[serde(flatten)]
        found: LoopFound,
        /// The warning, as the model reads it after the result.
        message: String,
    },
    /// A limit stopped the run.
    LimitReached {
        /// Which.
        limit: Limit,
        /// Its value.
        value: u32,
    },
    /// The run ended.
    RunCompleted {
        /// How.
        status: RunStatus,
        /// The model's final answer, if it gave one.
        #[serde(rename = "final")]
        final_text: Option<String>,
        /// What went wrong, for status `error`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        error: Option<String>,
    },
}

/// When a pending change to a lane's tools shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "snake_case")]
pub enum PendingShows {
    /// From this model call (1-based, over the whole run).
    AtModelCall(u32),
    /// From the first model call of this user turn (1-based).
    AtTurn(u32),
    /// Not in this conversation.
    Never,
}

/// Why an attempt restarted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "snake_case")]
pub enum RestartReason {
    /// Sections were expanded (`read_section` under the restart adapter, or `open_sections`).
    VisibilityExpansion,
    /// Tools were picked under the restart adapter.
    ToolsPicked,
    /// A plugin changed the available tools under the restart adapter.
    ToolAvailabilityChanged,
}

/// The limits of spec 4.2.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "snake_case")]
pub enum Limit {
    /// `max_model_calls`.
    MaxModelCalls,
    /// `max_restarts`.
    MaxRestarts,
    /// The same call again after a loop warning: three times within ten calls (the value: how
    /// many times).
    RepeatedToolCall,
    /// A sequence of calls made again after a loop warning (the value: its length).
    RepeatingPattern,
}

/// What a run counts (spec 6).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Counters {
    /// Model calls, over every attempt.
    pub model_calls: u32,
    /// Restarts.
    pub restarts: u32,
    /// Tools injected into a running conversation.
    pub tools_injected: u32,
    /// Section expansions handled in the running conversation, without a restart.
    pub dynamic_expansions: u32,
    /// Tool calls answered.
    pub tool_calls: u32,
    /// Tool calls answered with a failure.
    pub failed_tool_calls: u32,
    /// Prompt tokens over every model call.
    #[cfg_attr(feature = "specta", specta(type = u32))]
    pub prompt_tokens: u64,
    /// Completion tokens over every model call.
    #[cfg_attr(feature = "specta", specta(type = u32))]
    pub completion_tokens: u64,
    /// Tools the lane's refresh policy never showed the model (spec 12's `never`), or a real
    /// host never did.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub tools_never_shown: u32,
    /// Calls the script made that a real host's requests gave no tool for: not made.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub calls_not_made: u32,
}

fn is_zero(count: &u32) -> bool {
    *count == 0
}

impl Counters {
    /// The counters of an event log: they are derived from it, never kept beside it.
    pub fn of(events: &[Event]) -> Counters {
        let mut c = Counters::default();
        for (i, event) in events.iter().enumerate() {
            match &event.kind {
                EventKind::ModelCall { prompt_tokens, completion_tokens, .. } => {
                    c.model_calls += 1;
                    c.prompt_tokens += prompt_tokens;
                    c.completion_tokens += completion_tokens;
                }
                EventKind::Restart { .. } => c.restarts += 1,
                EventKind::ToolsInjected { tool_names, .. } => c.tools_injected += tool_names.len() as u32,
                EventKind::VisibilityChanged { .. } => {
                    let restarted = events.get(i + 1).is_some_and(|e| matches!(e.kind, EventKind::Restart { .. }));
                    c.dynamic_expansions += u32::from(!restarted);
                }
                EventKind::ToolCall { success, .. } => {
                    c.tool_calls += 1;
                    c.failed_tool_calls += u32::from(!success);
                }
                EventKind::ToolsPending { added, shows: PendingShows::Never, .. } => {
                    c.tools_never_shown += added.len() as u32;
                }
                EventKind::ToolNotShown { .. } => c.calls_not_made += 1,
                _ => {}
            }
        }
        c
    }
}

/// The real agent host a run was made by (spec 13).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct RealHost {
    /// The host's name (`openai-agents`, `command`, …).
    pub name: String,
    /// Its version, when it says (absent in a run kept by a history older than schema version 4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// How its process ended (`exited with status 0`, `was stopped after 120 s`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub ended: String,
    /// The requests it sent its model outside the conversation (titles, routing, token counts).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub side_requests: u32,
}

/// One run of a comparison.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct RunReport {
    /// The adapter.
    pub adapter: AdapterKind,
    /// The host profile whose behaviour the run had (spec 12), by name; none for an adapter's
    /// own run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host: Option<String>,
    /// The real agent host that made the run (spec 13's host lab), when one did: its events are
    /// what the host sent, recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub real_host: Option<RealHost>,
    /// How it ended.
    pub status: RunStatus,
    /// The final answer.
    #[serde(rename = "final")]
    pub final_text: Option<String>,
    /// Its counters.
    pub counters: Counters,
    /// What it cost, when it is priced (spec 10): as the model that answered it, or the one the
    /// user named; absent for a model with no price.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<RunCost>,
    /// Its event log.
    pub events: Vec<Event>,
}

impl RunReport {
    /// The lane the run was: its host's, else its adapter's (a baseline's run reads as the
    /// dynamic adapter's: only its place in a report tells it apart).
    pub fn lane(&self) -> crate::lane::Lane {
        match (&self.real_host, &self.host) {
            (Some(real), _) => crate::lane::Lane::real_host(&real.name),
            (None, Some(name)) => crate::lane::Lane::host(name),
            (None, None) => crate::lane::Lane::of(self.adapter),
        }
    }

    /// Prices the run at `pricing`.
    pub fn price(&mut self, pricing: &Pricing) {
        self.cost = Some(RunCost::of(self.events.iter().filter_map(Event::call_tokens), pricing));
    }
}

impl Event {
    /// The tokens of the model call this event is, if it is one.
    pub fn call_tokens(&self) -> Option<CallTokens<'_>> {
        match &self.kind {
            EventKind::ModelCall { call_index, prompt_tokens, completion_tokens, prefix, measured_cache, .. } => {
                Some(CallTokens {
                    call_index: *call_index,
                    attempt: self.attempt,
                    prompt_tokens: *prompt_tokens,
                    completion_tokens: *completion_tokens,
                    prefix: prefix.as_ref(),
                    measured: measured_cache.as_ref(),
                })
            }
            _ => None,
        }
    }
}
