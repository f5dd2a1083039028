//! A finished comparison saved as a suite case, so that what a user just saw becomes a check `unfold
//! test` runs in CI: the template and scenario (relative to the suite file), the adapters, the
//! model it was priced as, and what each run showed as its expectations — how it ended, its model
//! calls and restarts exactly, its prompt tokens and cost as ceilings — and the first divergence.
//! The case joins the suite file, or starts a new one.

use std::path::Path;

use indexmap::IndexMap;
use unfold_documents::document::{to_canonical_json, write_atomically};
use unfold_documents::suite::{
    Bound, CaseExpectations, DivergenceExpectation, RunExpectations, Suite, SuiteCase, BASELINE, SUITE_KIND,
};
use unfold_documents::Error;
use unfold_engine::{ComparisonReport, RunReport};

use crate::error::{AppError, AppResult, ErrorCode};

/// Adds the comparison `report` of the files `template` and `scenario` to the suite file at
/// `suite` as a new case (the suite is made if there is none); returns the case's name, the
/// scenario's, made unique in the suite.
pub fn add_case(suite: &Path, template: &Path, scenario: &Path, report: &ComparisonReport) -> AppResult<String> {
    let mut document = if suite.exists() { Suite::load(suite)? } else { new_suite(suite) };
    let name = unique_name(&document, &report.scenario);
    let relative = |file: &Path| relative_to(suite, file);
    document.cases.push(case_of(report, name.clone(), relative(template)?, relative(scenario)?));
    write_atomically(suite, &to_canonical_json(&document))?;
    Ok(name)
}

/// The case `report` makes: its runs' outcome as expectations.
pub fn case_of(report: &ComparisonReport, name: String, template: String, scenario: String) -> SuiteCase {
    let mut runs: IndexMap<String, RunExpectations> =
        report.runs.iter().map(|run| (run.lane().to_string(), expectations_of(run))).collect();
    if let Some(baseline) = &report.baseline {
        runs.insert(BASELINE.to_owned(), expectations_of(&baseline.run));
    }
    SuiteCase {
        name,
        template,
        scenario,
        // A host lane as its preset's name (the app adds hosts from the presets).
        adapters: report.runs.iter().map(|run| run.lane().to_string()).collect(),
        price_as: report.runs.first().and_then(|run| run.cost.as_ref()).map(|cost| cost.priced_as.clone()),
        repeat: None,
        expect: CaseExpectations { divergence: Some(divergence_of(report)), runs },
    }
}

/// What `run` showed: its end, its calls and restarts exactly, its prompt tokens and cost (in US
/// dollars) at most what they were.
fn expectations_of(run: &RunReport) -> RunExpectations {
    let counters = run.counters;
    let cost = run.cost.as_ref().filter(|cost| cost.currency == "USD").map(|cost| cost.total);
    RunExpectations {
        status: Some(run.status),
        model_calls: Some(Bound::Exact(counters.model_calls.into())),
        restarts: Some(Bound::Exact(counters.restarts.into())),
        prompt_tokens: Some(Bound::Range { min: None, max: Some(counters.prompt_tokens as f64) }),
        // A millionth over, so that the figure written holds as it is read back.
        cost_usd: cost.map(|cost| Bound::Range { min: None, max: Some((cost * 1e6).ceil() / 1e6) }),
        ..RunExpectations::default()
    }
}

/// The first run's first divergence from another, as a suite names it; `none` when they agree.
fn divergence_of(report: &ComparisonReport) -> DivergenceExpectation {
    first_divergence_kinds(report)
        .into_iter()
        .find_map(|kind| serde_json::from_value(serde_json::Value::String(kind)).ok())
        .unwrap_or(DivergenceExpectation::None)
}

fn new_suite(path: &Path) -> Suite {
    let stem = path.file_name().and_then(|name| name.to_str()).unwrap_or("suite");
    Suite {
        schema_version: 1,
        kind: SUITE_KIND.to_owned(),
        name: stem.trim_end_matches(".json").trim_end_matches(".suite").to_owned(),
        cases: Vec::new(),
        extensions: Default::default(),
    }
}

/// `wanted`, or `wanted (2)`, `wanted (3)`, … when the suite has a case of that name.
fn unique_name(suite: &Suite, wanted: &str) -> String {
    let taken = |name: &str| suite.cases.iter().any(|case| case.name == name);
    (1..)
        .map(|n| if n == 1 { wanted.to_owned() } else { format!("{wanted} ({n})") })
        .find(|name| !taken(name))
        .unwrap_or_else(|| wanted.to_owned())
}

/// `file` as the suite at `suite` names it: relative to the suite's folder, with `/`.
fn relative_to(suite: &Path, file: &Path) -> AppResult<String> {
    let absolute = |path: &Path| std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let folder = absolute(suite).parent().map(Path::to_path_buf).unwrap_or_default();
    let relative = pathdiff::diff_paths(absolute(file), folder).ok_or_else(|| {
        let error = Error::problem("", "cannot be named relative to the suite's folder").in_file(file);
        AppError::invalid_as(ErrorCode::InvalidRequest)(error)
    })?;
    let parts: Vec<String> =
        relative.components().map(|part| part.as_os_str().to_string_lossy().into_owned()).collect();
    Ok(parts.join("/"))
}

/// The kind of each run's first divergence from the first run (`restart`, `extra_call`, …), in
/// the report's order; none for runs that do not diverge. Here, not in `suites`, which runs
/// comparisons: the comparisons save cases through this module.
pub(crate) fn first_divergence_kinds(report: &ComparisonReport) -> Vec<String> {
    report
        .divergences
        .iter()
        .filter_map(|d| d.first.as_ref())
        .filter_map(|first| serde_json::to_value(&first.kind).ok()?.get("kind")?.as_str().map(str::to_owned))
        .collect()
}
