//! Unfold's engine: a template rendered in a session state, the four adapters, the run loop that
//! drives a provider through one conversation and records typed events, the scripted model,
//! divergence and comparison, and token counts. Pure: it never touches the network, a database or
//! the keychain; a real model comes in through the [`Provider`] trait, from `unfold-live`.
//!
//! The data flow: a [`Template`](unfold_documents::Template) is rendered in a [`SessionState`] into
//! a [`RenderedPrompt`]; [`run()`] drives a [`Provider`] through one conversation under an
//! [`Adapter`], producing [`Event`]s; [`compare()`] runs one scenario under several adapters into a
//! [`ComparisonReport`], whose [`Verdict`](verdict::Verdict) says which lane wins and why.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod adapter;
pub mod answer_shapes;
pub mod compare;
mod conversation;
pub mod costs;
pub mod divergence;
pub mod events;
pub mod fork;
pub mod lane;
pub mod loop_detection;
pub mod openai_request;
pub mod prompt_prefix;
pub mod provider;
pub mod render;
pub mod request_shapes;
pub mod run;
pub mod scripted;
mod sent_names;
pub mod session;
pub mod session_state;
pub mod study;
pub mod tokens;
pub mod tool_host;
pub mod verdict;

pub use adapter::{
    adapter_for, Adapter, AllowedToolsAdapter, DeferredAdapter, DynamicAdapter, RestartAdapter, ToolAdditionAdapter,
};
pub use compare::{compare, Comparison, ComparisonReport, Drive, LaneModel, Lanes};
pub use events::{AdapterKind, Counters, Event, EventKind, PendingShows, RealHost, RunReport, RunStatus};
pub use lane::{DeferredListing, Lane, LaneSpec, ToolPolicy};
pub use provider::{MeasuredCache, Message, ModelRequest, ModelResponse, Provider, ToolCall, Usage};
pub use render::{render, RenderedPrompt};
pub use run::{run, run_with_host, RunInput, RunLimits, VisibilityExpansionRequired};
pub use scripted::{ScriptedProvider, ScriptedToolResults};
pub use session::Session;
pub use session_state::{SessionState, VisibilityOverrides};
pub use tool_host::{ChangedList, CombinedSources, HostAnswer, ToolHost, ToolSources};

use unfold_documents::OfferedTool;

/// What the model is shown for a template before any conversation: `unfold render --json` and the
/// app's preview.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Preview {
    /// The system prompt.
    pub markdown: String,
    /// The offered tools as OpenAI chat tool objects.
    pub tools: Vec<serde_json::Value>,
    /// Tokens of the system prompt plus the tool definitions.
    pub prompt_tokens: u64,
    /// Of `prompt_tokens`, those of the tool definitions.
    pub tool_tokens: u64,
}

impl Preview {
    /// The preview of a rendered prompt (taken, not copied: a prompt can be megabytes).
    pub fn of(prompt: RenderedPrompt) -> Preview {
        let tokens = tokens::PromptTokens::of(&prompt.markdown, &prompt.tools);
        Preview::with_tokens(prompt, tokens)
    }

    /// The preview of a rendered prompt, counted with the counts `cache` kept from earlier previews
    /// (the same count as [`Preview::of`], only faster when little changed).
    pub fn counted_with(prompt: RenderedPrompt, cache: &tokens::PromptTokenCache) -> Preview {
        let tokens = cache.count(&prompt.markdown, &prompt.tools);
        Preview::with_tokens(prompt, tokens)
    }

    fn with_tokens(prompt: RenderedPrompt, tokens: tokens::PromptTokens) -> Preview {
        Preview {
            markdown: prompt.markdown,
            tools: prompt.tools.iter().map(OfferedTool::to_openai).collect(),
            prompt_tokens: tokens.total(),
            tool_tokens: tokens.tools,
        }
    }
}
