//! Tools answered outside the run (spec 8): a tool source's tools are called through a
//! [`ToolHost`], and each list it reports changed becomes a tool availability change before the
//! next model call. The engine only asks; the host, on the I/O side, talks to the sources.

use async_trait::async_trait;
use serde_json::Value;
use unfold_documents::discovery::Discovery;
use unfold_documents::{Template, Tool};

/// What a source answered a call.
#[derive(Debug, Clone, PartialEq)]
pub struct HostAnswer {
    /// False for a failed result (an error, a timeout, a closed source).
    pub success: bool,
    /// What the model is told.
    pub result: Value,
}

/// A source's whole tool list after it changed.
#[derive(Debug, Clone, PartialEq)]
pub struct ChangedList {
    /// The source's name.
    pub source: String,
    /// Its tools now, in its order.
    pub tools: Vec<Tool>,
}

/// The tool sources of one run.
#[async_trait]
pub trait ToolHost: Send {
    /// Whether a source answers `tool` now.
    fn answers(&self, tool: &str) -> bool;

    /// Calls `tool` with `arguments` (a JSON object) on its source.
    async fn call(&mut self, tool: &str, arguments: &Value) -> HostAnswer;

    /// The lists of the sources that said their tools changed since the last ask, listed afresh;
    /// each change is reported once. Asked before every model call (`before_model_call`, 1-based
    /// over the run; asked again for the same call after a restart).
    async fn changed_lists(&mut self, before_model_call: u32) -> Vec<ChangedList>;

    /// Closes every source (the run is over); a source left running is the host's to end.
    async fn close(&mut self) {}
}

/// Starts a run's tool sources: each run of a comparison (each lane) gets its own.
#[async_trait]
pub trait ToolSources: Send {
    /// What `template`'s sources offer a new run, and the host that answers for them.
    async fn open(&mut self, template: &Template) -> (Vec<Discovery>, Box<dyn ToolHost>);
}
