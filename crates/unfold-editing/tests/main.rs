//! Editing's integration tests, one binary with a module per area (ripgrep's layout).

mod economics;
mod scenario_editing;
mod template_editing;
