//! Unfold's tool sources on the I/O side (spec 8): an MCP server started as a child process over
//! stdio (an argument list, a minimal environment, `${env:NAME}` values taken at start) or reached
//! over streamable HTTP, with the official Rust SDK (`rmcp`). A source is started only when the
//! caller says the user allowed it; its tools are listed (every page), called with a timeout, and
//! its list-changed notifications counted; shutting it down (or dropping it) leaves no process
//! behind, its children's included. What the
//! tools mean for a run (tiers, the template a run sees) is `unfold_documents::discovery`'s.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod consent;
pub mod discover;
pub mod error;
pub mod host;
pub mod launch;
mod list_changes;
pub mod mcp;

pub use consent::Consent;
pub use error::SourceError;
pub use host::McpSources;
pub use mcp::McpConnection;
