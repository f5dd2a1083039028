//! The live providers' integration tests against a real local server, one binary.

mod anthropic_rules;
mod fault_server;
mod http_provider;
mod log_capture;
mod responses;
mod responses_rules;
