//! Compare: one scenario replayed under several adapters with the scripted model, into the
//! comparison report of spec 6, with two additions: the all-FULL baseline (the same scenario with
//! nothing hidden, so the savings of progressive disclosure are a number) and the first divergence
//! of the first two runs. On request it also keeps the OpenAI chat request body of every model call.

use async_trait::async_trait;
use serde_json::Value;

use crate::adapter::{adapter_for, Adapter, DynamicAdapter};
use crate::divergence::Divergence;
use crate::document::invalid;
use crate::error::Result;
use crate::events::{AdapterKind, BaselineReport, ComparisonReport, EventKind, RunReport, Savings};
use crate::openai_request::chat_completions_body;
use crate::provider::{ModelRequest, ModelResponse, Provider};
use crate::run::{run, RunInput, RunLimits};
use crate::scenario::Scenario;
use crate::scripted::{ScriptedProvider, ScriptedToolResults};
use crate::template::{Section, Template, ToolDisclosure, Visibility};

/// The kind of a comparison report.
pub const COMPARISON_KIND: &str = "unfold.comparison";

/// What the request bodies of a baseline run are labelled.
pub const BASELINE_LABEL: &str = "baseline";

/// A comparison report with the request body of every model call of every run.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    /// The report.
    pub report: ComparisonReport,
    /// The runs' request bodies: one per run in the report's order, then the baseline's.
    pub requests: Vec<RunRequests>,
}

/// The request bodies of one run's model calls.
#[derive(Debug, Clone, PartialEq)]
pub struct RunRequests {
    /// The adapter's name (`dynamic`, `restart`), or [`BASELINE_LABEL`].
    pub label: String,
    /// One per model call, in order.
    pub calls: Vec<CallRequest>,
}

/// The request one model call was sent.
#[derive(Debug, Clone, PartialEq)]
pub struct CallRequest {
    /// The call's index (1-based, over the whole run).
    pub call_index: u32,
    /// Its attempt.
    pub attempt: u32,
    /// The OpenAI Chat Completions request body (see [`chat_completions_body`]).
    pub body: Value,
}

/// Runs `scenario` on `template` under each of `adapters`, in order, and the all-FULL baseline.
/// Fails (with problems located in the scenario) when the scenario names parameters or tools the
/// template does not have.
pub async fn compare(template: &Template, scenario: &Scenario, adapters: &[AdapterKind]) -> Result<ComparisonReport> {
    Ok(compare_runs(template, scenario, adapters, false).await?.report)
}

/// [`compare`], keeping the request body of every model call.
pub async fn compare_with_requests(
    template: &Template,
    scenario: &Scenario,
    adapters: &[AdapterKind],
) -> Result<Comparison> {
    compare_runs(template, scenario, adapters, true).await
}

async fn compare_runs(
    template: &Template,
    scenario: &Scenario,
    adapters: &[AdapterKind],
    keep_requests: bool,
) -> Result<Comparison> {
    let problems = scenario.problems_with(template);
    if !problems.is_empty() {
        return Err(invalid(problems));
    }
    let input = run_input(template, scenario);
    let mut runs = Vec::with_capacity(adapters.len());
    let mut requests = Vec::new();
    for &kind in adapters {
        let (report, calls) = scripted_run(&input, adapter_for(kind), scenario, keep_requests).await?;
        requests.extend(calls.map(|calls| RunRequests { label: kind.name().to_owned(), calls }));
        runs.push(report);
    }
    let disclosed = everything_disclosed(template);
    let baseline_input = RunInput { template: &disclosed, ..input.clone() };
    let (baseline, calls) = scripted_run(&baseline_input, &DynamicAdapter, scenario, keep_requests).await?;
    requests.extend(calls.map(|calls| RunRequests { label: BASELINE_LABEL.to_owned(), calls }));
    let savings = runs.iter().map(|run| Savings::against(&baseline.counters, run)).collect();
    let divergence = match runs.as_slice() {
        [left, right, ..] => Some(Divergence::between(left, right)),
        _ => None,
    };
    let report = ComparisonReport {
        schema_version: crate::document::SCHEMA_VERSION,
        kind: COMPARISON_KIND.to_owned(),
        template: template.key.clone(),
        scenario: scenario.name.clone(),
        runs,
        baseline: Some(BaselineReport { run: baseline, savings }),
        divergence,
    };
    Ok(Comparison { report, requests })
}

fn run_input<'a>(template: &'a Template, scenario: &'a Scenario) -> RunInput<'a> {
    let defaults = RunLimits::default();
    let limits = scenario.limits.map_or(defaults, |l| RunLimits {
        max_model_calls: l.max_model_calls.unwrap_or(defaults.max_model_calls),
        max_restarts: l.max_restarts.unwrap_or(defaults.max_restarts),
    });
    RunInput {
        template,
        params: scenario.params.clone(),
        user: scenario.user.clone(),
        tool_changes: &scenario.tool_changes,
        limits,
    }
}

/// One run with the scenario's model and tool results; with `keep_requests`, the request body of
/// each model call too.
async fn scripted_run(
    input: &RunInput<'_>,
    adapter: &dyn Adapter,
    scenario: &Scenario,
    keep_requests: bool,
) -> Result<(RunReport, Option<Vec<CallRequest>>)> {
    let mut provider = RecordingProvider {
        inner: ScriptedProvider::new(scenario, input.template),
        bodies: keep_requests.then(Vec::new),
    };
    let mut results = ScriptedToolResults::new(scenario);
    let report = run(input, adapter, &mut provider, &mut results, &mut |_| {}).await?;
    let calls = provider.bodies.map(|bodies| {
        // Each request is kept as it is sent, each model_call event once it is answered: in order,
        // one for one (a provider that fails leaves a body without an event, dropped here).
        let model_calls = report.events.iter().filter_map(|event| match event.kind {
            EventKind::ModelCall { call_index, .. } => Some((call_index, event.attempt)),
            _ => None,
        });
        model_calls.zip(bodies).map(|((call_index, attempt), body)| CallRequest { call_index, attempt, body }).collect()
    });
    Ok((report, calls))
}

/// The scripted model, keeping the body of each request it is sent.
struct RecordingProvider {
    inner: ScriptedProvider,
    bodies: Option<Vec<Value>>,
}

#[async_trait]
impl Provider for RecordingProvider {
    async fn complete(&mut self, request: &ModelRequest<'_>) -> Result<ModelResponse> {
        if let Some(bodies) = &mut self.bodies {
            bodies.push(chat_completions_body(request));
        }
        self.inner.complete(request).await
    }
}

/// `template` with nothing hidden: every section FULL and every tool offered with its full
/// description (`tool_disclosure: full`). Nothing is summarized, so no disclosure tool is offered,
/// and the scripted model skips the `read_section` and `open_sections` steps whose sections it is
/// shown in full (spec 5).
pub fn everything_disclosed(template: &Template) -> Template {
    let mut disclosed = template.clone();
    disclosed.tool_disclosure = ToolDisclosure::Full;
    // A stack rather than recursion: a template built in code has no depth limit.
    let mut sections: Vec<&mut Section> = disclosed.sections.iter_mut().collect();
    while let Some(section) = sections.pop() {
        section.visibility = Visibility::Full;
        sections.extend(section.children.iter_mut());
    }
    disclosed
}

/// The files of an export of request bodies: `{label}-call-{NNN}.json` (the call index padded to
/// the same width for every run, at least 3 digits, so the names sort in call order) with the
/// body as pretty JSON and a final newline; runs in order, then their calls.
pub fn request_files(requests: &[RunRequests]) -> Vec<(String, String)> {
    let last = requests.iter().flat_map(|run| &run.calls).map(|call| call.call_index).max().unwrap_or(0);
    let width = last.to_string().len().max(3);
    requests
        .iter()
        .flat_map(|run| {
            run.calls.iter().map(move |call| {
                let name = format!("{}-call-{:0width$}.json", run.label, call.call_index);
                (name, crate::document::to_canonical_json(&call.body))
            })
        })
        .collect()
}
