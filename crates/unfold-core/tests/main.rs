//! The core's integration tests, one binary with a module per area (ripgrep's layout).

mod adapters;
mod comparison;
mod documents;
mod editing;
mod examples;
mod fault_server;
mod live;
mod log_capture;
mod reference;
mod rendering;
mod scenario_editing;
mod support;
