//! The host lab's integration tests, one binary.

mod host_requests;
mod template_server;
