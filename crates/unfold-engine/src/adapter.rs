//! Adapters: how a run reacts when the model expands a section or the available tools change.
//! The run's main loop asks the adapter one question, whether it can change the tools of a running
//! conversation; everything else (events, limits, restarts) is the loop's and is the same for both.

use crate::events::AdapterKind;

/// How a conversation handles tools that appear mid-run.
pub trait Adapter: Send + Sync {
    /// Which adapter this is, for events and reports.
    fn kind(&self) -> AdapterKind;

    /// Whether tools can be added to a running conversation. When not, an expansion that offers
    /// tools halts the attempt (`VisibilityExpansionRequired`) and the run restarts it.
    fn supports_dynamic_tools(&self) -> bool;
}

/// Injects a read section's tools into the running conversation and keeps its history.
#[derive(Debug, Clone, Copy, Default)]
pub struct DynamicAdapter;

/// Halts, expands the section and restarts the evaluation from the system prompt.
#[derive(Debug, Clone, Copy, Default)]
pub struct RestartAdapter;

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

/// The adapter of a kind.
pub fn adapter_for(kind: AdapterKind) -> &'static dyn Adapter {
    match kind {
        AdapterKind::Dynamic => &DynamicAdapter,
        AdapterKind::Restart => &RestartAdapter,
    }
}
