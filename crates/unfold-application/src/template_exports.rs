//! `unfold export` and the app's Export menu (spec 11): a template written in the format of
//! another tool, to a file the user names, atomically. The formats themselves are
//! `unfold-exports`'; this loads the template (the command line's file, or the app's open
//! document as it is now) and the scenarios (each checked against the template), checks the
//! request and writes.

use std::path::{Path, PathBuf};

use unfold_documents::document::{to_canonical_json, write_atomically};
use unfold_documents::{Error, Scenario, Template};

use crate::error::{AppError, AppResult, ErrorCode};
use crate::files::check_output_file;

/// A format a template is exported to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
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

/// What a template is exported as.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ExportRequest {
    /// The format.
    pub format: Option<ExportFormat>,
    /// Scenario files to export with it, for the formats that take tests.
    pub scenarios: Vec<PathBuf>,
    /// The model the tests run on, for the formats that name one (a promptfoo provider id); the
    /// format's default when `None`.
    pub provider: Option<String>,
}

/// Writes the template file `template_path` as `request` asks, to `output`.
pub fn export_template(template_path: &Path, request: &ExportRequest, output: &Path) -> AppResult<()> {
    let template = Template::load(template_path).map_err(AppError::invalid_as(ErrorCode::InvalidTemplate))?;
    export_document(&template, Some(template_path), request, output)
}

/// Writes `template` (from `template_path`, if it has a file) as `request` asks, to `output`.
pub fn export_document(
    template: &Template,
    template_path: Option<&Path>,
    request: &ExportRequest,
    output: &Path,
) -> AppResult<()> {
    let in_template = |e: Error| {
        let e = match template_path {
            Some(path) => e.in_file(path),
            None => e,
        };
        AppError::invalid_as(ErrorCode::InvalidTemplate)(e)
    };
    let Some(format) = request.format else {
        return Err(AppError::new(ErrorCode::InvalidRequest, "choose a format: promptfoo or langfuse"));
    };
    let value = match format {
        ExportFormat::Promptfoo => {
            let scenarios = load_scenarios(&request.scenarios, template)?;
            let provider = request.provider.as_deref().unwrap_or(unfold_exports::promptfoo::DEFAULT_PROVIDER);
            unfold_exports::promptfoo::config(template, &scenarios, provider).map_err(in_template)?
        }
        ExportFormat::Langfuse => {
            if !request.scenarios.is_empty() || request.provider.is_some() {
                return Err(AppError::new(
                    ErrorCode::InvalidRequest,
                    "a Langfuse prompt has no tests and names no model: export it without --scenario and --provider",
                ));
            }
            unfold_exports::langfuse::chat_prompt(template).map_err(in_template)?
        }
    };
    check_output_file(output, "-o")?;
    Ok(write_atomically(output, &to_canonical_json(&value))?)
}

/// The scenarios at `paths`, each checked against `template`: every problem of every file at once.
fn load_scenarios(paths: &[PathBuf], template: &Template) -> AppResult<Vec<Scenario>> {
    let mut scenarios = Vec::new();
    let mut errors = Vec::new();
    for path in paths {
        match Scenario::load_for(path, template) {
            Ok(scenario) => scenarios.push(scenario),
            Err(error) => errors.push(error),
        }
    }
    match errors.is_empty() {
        true => Ok(scenarios),
        false => Err(AppError::of_files(ErrorCode::InvalidScenario, &errors)),
    }
}
