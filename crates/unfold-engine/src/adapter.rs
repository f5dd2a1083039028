//! Adapters: how a run reacts when the model expands a section or the available tools change.
//! The run's main loop asks the adapter two questions: whether it can change the tools of a
//! running conversation, and how it sends the tools a summarized section hides. Everything else
//! (events, limits, restarts) is the loop's and is the same for all of them.

use crate::events::AdapterKind;
pub use crate::provider::HiddenTools;

/// How a conversation handles tools that appear mid-run.
pub trait Adapter: Send + Sync {
    /// Which adapter this is, for events and reports.
    fn kind(&self) -> AdapterKind;

    /// Whether tools can be added to a running conversation. When not, an expansion that offers
    /// tools halts the attempt (`VisibilityExpansionRequired`) and the run restarts it.
    fn supports_dynamic_tools(&self) -> bool;

    /// How the tools summarized sections hide are sent.
    fn hidden_tools(&self) -> HiddenTools {
        HiddenTools::Withheld
    }
}

/// Injects a read section's tools into the running conversation and keeps its history.
#[derive(Debug, Clone, Copy, Default)]
pub struct DynamicAdapter;

/// Halts, expands the section and restarts the evaluation from the system prompt.
#[derive(Debug, Clone, Copy, Default)]
pub struct RestartAdapter;

/// Sends every tool the template can offer from the first call and widens the callable subset as
/// sections are read, so the tool list, the start of every prompt, never changes.
#[derive(Debug, Clone, Copy, Default)]
pub struct AllowedToolsAdapter;

/// Sends hidden tools deferred and loads a read section's tools by reference in its result, so
/// the tool list never changes and a tool costs prompt tokens only once loaded.
#[derive(Debug, Clone, Copy, Default)]
pub struct DeferredAdapter;

impl Adapter for DynamicAdapter {
    fn kind(&self) -> AdapterKind {
        AdapterKind::Dynamic
    }

    fn supports_dynamic_tools(&self) -> bool {
        true
    }
}

impl Adapter for RestartAdapter {
    fn kind(&self) -> AdapterKind {
        AdapterKind::Restart
    }

    fn supports_dynamic_tools(&self) -> bool {
        false
    }
}

impl Adapter for AllowedToolsAdapter {
    fn kind(&self) -> AdapterKind {
        AdapterKind::AllowedTools
    }

    fn supports_dynamic_tools(&self) -> bool {
        true
    }

    fn hidden_tools(&self) -> HiddenTools {
        HiddenTools::Disallowed
    }
}

impl Adapter for DeferredAdapter {
    fn kind(&self) -> AdapterKind {
        AdapterKind::Deferred
    }

    fn supports_dynamic_tools(&self) -> bool {
        true
    }

    fn hidden_tools(&self) -> HiddenTools {
        HiddenTools::Deferred
    }
}

/// Sends hidden tools deferred and adds a read section's tools with a system message of
/// `tool_addition` blocks, so neither the tool list nor any earlier message changes.
#[derive(Debug, Clone, Copy, Default)]
pub struct ToolAdditionAdapter;

impl Adapter for ToolAdditionAdapter {
    fn kind(&self) -> AdapterKind {
        AdapterKind::ToolAddition
    }

    fn supports_dynamic_tools(&self) -> bool {
        true
    }

    fn hidden_tools(&self) -> HiddenTools {
        HiddenTools::Announced
    }
}

/// The adapter of a kind.
pub fn adapter_for(kind: AdapterKind) -> &'static dyn Adapter {
    match kind {
        AdapterKind::Dynamic => &DynamicAdapter,
        AdapterKind::Restart => &RestartAdapter,
        AdapterKind::AllowedTools => &AllowedToolsAdapter,
        AdapterKind::Deferred => &DeferredAdapter,
        AdapterKind::ToolAddition => &ToolAdditionAdapter,
    }
}
