//! `unfold export` (spec 11): a template written in the format of another tool, to a file the user
//! names, atomically. The formats themselves are `unfold-exports`'; this loads the template and
//! the scenarios (each checked against the template), checks the request and writes.

use std::path::PathBuf;

use unfold_documents::document::{to_canonical_json, write_atomically};
use unfold_documents::{Error, Scenario, Template};

use crate::error::{AppError, AppResult, ErrorCode};
use crate::files::check_output_file;

/// A format a template is exported to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportFormat {
    /// A promptfoo config, with a test per scenario.
    Promptfoo,
    /// A Langfuse chat prompt.
    Langfuse,
}

impl std::str::FromStr for ExportFormat {
    type Err = String;
    fn from_str(text: &str) -> Result<ExportFormat, String> {
        match text {
            "promptfoo" => Ok(ExportFormat::Promptfoo),
            "langfuse" => Ok(ExportFormat::Langfuse),
            _ => Err(format!("unknown format '{text}' (promptfoo, langfuse)")),
        }
    }
}

/// What to export and where.
#[derive(Debug, Clone)]
pub struct TemplateExport {
    /// The template file.
    pub template: PathBuf,
    /// The format.
    pub format: ExportFormat,
    /// Scenarios to export with it, for the formats that take tests.
    pub scenarios: Vec<PathBuf>,
    /// The model the tests run on, for the formats that name one (a promptfoo provider id); the
    /// format's default when `None`.
    pub provider: Option<String>,
    /// The file written.
    pub output: PathBuf,
}

/// Writes `export.template` in `export.format` to `export.output`.
pub fn export_template(export: &TemplateExport) -> AppResult<()> {
    let template = Template::load(&export.template).map_err(AppError::invalid_as(ErrorCode::InvalidTemplate))?;
    let in_template = |e: Error| AppError::invalid_as(ErrorCode::InvalidTemplate)(e.in_file(&export.template));
    let value = match export.format {
        ExportFormat::Promptfoo => {
            let scenarios = load_scenarios(&export.scenarios, &template)?;
            let provider = export.provider.as_deref().unwrap_or(unfold_exports::promptfoo::DEFAULT_PROVIDER);
            unfold_exports::promptfoo::config(&template, &scenarios, provider).map_err(in_template)?
        }
        ExportFormat::Langfuse => {
            if !export.scenarios.is_empty() || export.provider.is_some() {
                return Err(AppError::new(
                    ErrorCode::InvalidRequest,
                    "a Langfuse prompt has no tests and names no model: export it without --scenario and --provider",
                ));
            }
            unfold_exports::langfuse::chat_prompt(&template).map_err(in_template)?
        }
    };
    check_output_file(&export.output, "-o")?;
    Ok(write_atomically(&export.output, &to_canonical_json(&value))?)
}

/// The scenarios at `paths`, each checked against `template`: every problem of every file at once.
fn load_scenarios(paths: &[PathBuf], template: &Template) -> AppResult<Vec<Scenario>> {
    let mut scenarios = Vec::new();
    let mut errors = Vec::new();
    for path in paths {
        let loaded = Scenario::load(path).and_then(|scenario| {
            let problems = scenario.problems_with(template);
            if problems.is_empty() {
                Ok(scenario)
            } else {
                Err(Error::invalid(problems).in_file(path))
            }
        });
        match loaded {
            Ok(scenario) => scenarios.push(scenario),
            Err(error) => errors.push(error),
        }
    }
    match errors.is_empty() {
        true => Ok(scenarios),
        false => Err(AppError::of_files(ErrorCode::InvalidScenario, &errors)),
    }
}
