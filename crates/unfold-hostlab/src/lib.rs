//! The host lab (spec 13): what Unfold serves to a real agent host so that the host's own way of
//! taking new tools can be recorded. Today: the template as an MCP server ([`template_server`];
//! over streamable HTTP, [`template_http`]; its sources' tools by the sources, with consent,
//! [`served_sources`]), its tools revealed as the host reads sections, with every message the
//! host sends it logged ([`message_log`]); and the scripted model endpoint
//! ([`model_endpoint`]): a host's request to its model read from each API's format
//! ([`host_requests`]), answered as the scenario's script says ([`scripted_endpoint`]) or by a real
//! model it is forwarded to ([`forwarding`]). A host run
//! ([`host_run`]) starts one of the [`hosts`] against both in a throwaway folder
//! ([`host_process`]), and tells what it recorded as a run ([`recording`]). Both servers keep to
//! the same [`ServerBounds`].

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod cli_hosts;
pub mod forwarding;
pub mod host_process;
pub mod host_requests;
pub mod host_run;
pub mod hosts;
pub mod launch;
pub mod message_log;
pub mod model_endpoint;
pub mod recording;
pub mod scripted_endpoint;
pub mod served_sources;
pub mod template_http;
pub mod template_server;

use std::time::Duration;

use unfold_loopback::ConnectionLimits;

pub use message_log::{LoggedReader, MessageLog};
pub use template_server::TemplateServer;

/// How far a client can stretch the host lab's HTTP servers: their connections (see
/// [`ConnectionLimits`]), and how long a request's body may take to arrive.
#[derive(Debug, Clone, Copy)]
pub struct ServerBounds {
    /// The connections.
    pub connections: ConnectionLimits,
    /// How long a request's body may take, however slowly it trickles in.
    pub body_timeout: Duration,
}

impl Default for ServerBounds {
    /// Room for a host's connections and a long conversation's body on a slow machine.
    fn default() -> ServerBounds {
        ServerBounds {
            connections: ConnectionLimits {
                max_connections: 64,
                header_timeout: Duration::from_secs(10),
                write_timeout: Duration::from_secs(30),
            },
            body_timeout: Duration::from_secs(30),
        }
    }
}

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
