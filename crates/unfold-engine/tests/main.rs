//! The engine's integration tests, one binary with a module per area (ripgrep's layout).

mod adapters;
mod comparison;
mod examples;
mod fork;
mod hidden_tools;
mod host_lanes;
mod prompt_cache;
mod reference;
mod rendering;
mod study;
mod token_counts;
mod tool_sources;
mod verdict;

use unfold_documents::{Scenario, Template};
use unfold_engine::{compare, AdapterKind, ComparisonReport, Drive, Lanes};

/// The report of `scenario` on `template` under `adapters` with its script (and the baseline),
/// nothing else asked; panics with the error if the comparison fails.
pub fn scripted_report(template: &Template, scenario: &Scenario, adapters: &[AdapterKind]) -> ComparisonReport {
    let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
    let compared = runtime.block_on(compare(Lanes::new(template, scenario, adapters), Drive::default()));
    compared.unwrap_or_else(|error| panic!("{error}")).report
}
