//! The host lab (spec 13): what Unfold serves to a real agent host so that the host's own way of
//! taking new tools can be recorded. Today: the template as an MCP server ([`template_server`]),
//! its tools revealed as the host reads sections, with every message the host sends it logged
//! ([`message_log`]); and the scripted model endpoint ([`model_endpoint`]): a host's request to
//! its model read from each API's format ([`host_requests`]), answered as the scenario's script
//! says ([`scripted_endpoint`]). A host run ([`host_run`]) starts one of the [`hosts`] against both
//! in a throwaway folder ([`host_process`]), and tells what it recorded as a run ([`recording`]).

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod host_process;
pub mod host_requests;
pub mod host_run;
pub mod hosts;
pub mod message_log;
pub mod model_endpoint;
pub mod recording;
pub mod scripted_endpoint;
pub mod template_server;

pub use message_log::{LoggedReader, MessageLog};
pub use template_server::TemplateServer;

/// What went wrong serving a template.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The template or the scenario cannot be served (a parameter without a value, …).
    #[error("{0}")]
    Document(#[from] unfold_documents::Error),
    /// The log file could not be written.
    #[error("the message log {path}: {source}")]
    Log {
        /// The log file.
        path: std::path::PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The host's program could not be started.
    #[error("{program} could not be started: {source}")]
    Launch {
        /// The program.
        program: std::path::PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The MCP session failed.
    #[error("the MCP session: {0}")]
    Session(String),
}
