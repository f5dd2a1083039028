//! Compare: one scenario replayed under several adapters with the scripted model, into the
//! comparison report of spec 6.

use crate::adapter::adapter_for;
use crate::document::invalid;
use crate::error::Result;
use crate::events::{AdapterKind, ComparisonReport};
use crate::run::{run, RunInput, RunLimits};
use crate::scenario::Scenario;
use crate::scripted::{ScriptedProvider, ScriptedToolResults};
use crate::template::Template;

/// The kind of a comparison report.
pub const COMPARISON_KIND: &str = "unfold.comparison";

/// Runs `scenario` on `template` under each of `adapters`, in order. Fails (with problems located
/// in the scenario) when the scenario names parameters or tools the template does not have.
pub async fn compare(template: &Template, scenario: &Scenario, adapters: &[AdapterKind]) -> Result<ComparisonReport> {
    let problems = scenario.problems_with(template);
    if !problems.is_empty() {
        return Err(invalid(problems));
    }
    let defaults = RunLimits::default();
    let limits = scenario.limits.map_or(defaults, |l| RunLimits {
        max_model_calls: l.max_model_calls.unwrap_or(defaults.max_model_calls),
        max_restarts: l.max_restarts.unwrap_or(defaults.max_restarts),
    });
    let input = RunInput {
        template,
        params: scenario.params.clone(),
        user: scenario.user.clone(),
        tool_changes: &scenario.tool_changes,
        limits,
    };
    let mut runs = Vec::with_capacity(adapters.len());
    for &kind in adapters {
        let mut provider = ScriptedProvider::new(scenario, template);
        let mut results = ScriptedToolResults::new(scenario);
        runs.push(run(&input, adapter_for(kind), &mut provider, &mut results, &mut |_| {}).await?);
    }
    Ok(ComparisonReport {
        schema_version: crate::document::SCHEMA_VERSION,
        kind: COMPARISON_KIND.to_owned(),
        template: template.key.clone(),
        scenario: scenario.name.clone(),
        runs,
    })
}
