//! The engine's integration tests, one binary with a module per area (ripgrep's layout).

mod adapters;
mod comparison;
mod examples;
mod hidden_tools;
mod prompt_cache;
mod reference;
mod rendering;
mod token_counts;
mod tool_sources;
