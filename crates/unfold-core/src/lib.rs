//! Unfold's core: prompt templates with progressive disclosure, their rendering, and the two
//! adapters that run a conversation over them. Everything a user can do in the app or on the
//! command line is a call into this crate; it knows nothing of Tauri or of any UI.
//!
//! The data flow: a [`Template`] (loaded and validated from JSON) is rendered in a
//! [`SessionState`] into a [`RenderedPrompt`]; [`run()`] drives a [`Provider`] through one
//! conversation under an [`Adapter`], producing [`Event`]s; [`compare()`] runs one [`Scenario`] under
//! both adapters into a [`ComparisonReport`].

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod adapter;
pub mod compare;
pub mod divergence;
pub mod document;
pub mod edit;
pub mod error;
pub mod events;
pub mod history;
#[cfg(feature = "specta")]
pub mod json_type;
pub mod live;
pub mod openai_request;
pub mod prompt_parts;
pub mod provider;
pub mod recent;
pub mod recovery;
pub mod render;
pub mod run;
pub mod run_history;
pub mod scenario;
pub mod scenario_edit;
pub mod schema;
pub mod scripted;
pub mod session;
pub mod substitution;
pub mod template;
pub mod tokens;
pub mod tool;
pub mod tool_check;
pub mod tool_import;

pub use adapter::{adapter_for, Adapter, DynamicAdapter, RestartAdapter};
pub use compare::{compare, compare_with_requests};
pub use error::{Error, Location, Problem, Problems, Result};
pub use events::{AdapterKind, ComparisonReport, Counters, Event, EventKind, RunReport, RunStatus};
pub use provider::{Message, ModelRequest, ModelResponse, Provider, ToolCall, Usage};
pub use render::{render, RenderedPrompt};
pub use run::{run, RunInput, RunLimits, VisibilityExpansionRequired};
pub use scenario::Scenario;
pub use scripted::{ScriptedProvider, ScriptedToolResults};
pub use session::{Session, SessionState, VisibilityOverrides};
pub use template::{Template, Visibility};
pub use tool::{OfferedTool, Tool};

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
}

impl Preview {
    /// The preview of a rendered prompt.
    pub fn of(prompt: &RenderedPrompt) -> Preview {
        Preview::with_tokens(prompt, tokens::count_text(&prompt.markdown) + tokens::count_tools(&prompt.tools))
    }

    /// The preview of a rendered prompt, counted with the counts `cache` kept from earlier previews
    /// (the same count as [`Preview::of`], only faster when little changed).
    pub fn counted_with(prompt: &RenderedPrompt, cache: &tokens::PromptTokenCache) -> Preview {
        Preview::with_tokens(prompt, cache.count(&prompt.markdown, &prompt.tools))
    }

    fn with_tokens(prompt: &RenderedPrompt, prompt_tokens: u64) -> Preview {
        Preview {
            markdown: prompt.markdown.clone(),
            tools: prompt.tools.iter().map(OfferedTool::to_openai).collect(),
            prompt_tokens,
        }
    }
}
