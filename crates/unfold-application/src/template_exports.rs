//! `unfold export` (spec 11): a template written in the format of another tool, to a file the user
//! names, atomically. The formats themselves are `unfold-exports`'; this checks the request and
//! writes.

use std::path::{Path, PathBuf};

use unfold_documents::document::{to_canonical_json, write_atomically};
use unfold_documents::Template;

use crate::error::{AppError, AppResult, ErrorCode};
use crate::files::output_folder_problem;

/// A format a template is exported to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportFormat {
    /// A Langfuse chat prompt.
    Langfuse,
}

impl std::str::FromStr for ExportFormat {
    type Err = String;
    fn from_str(text: &str) -> Result<ExportFormat, String> {
        match text {
            "langfuse" => Ok(ExportFormat::Langfuse),
            _ => Err(format!("unknown format '{text}' (langfuse)")),
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
    /// The file written.
    pub output: PathBuf,
}

/// Writes `export.template` in `export.format` to `export.output`.
pub fn export_template(export: &TemplateExport) -> AppResult<()> {
    let template = Template::load(&export.template).map_err(AppError::invalid_as(ErrorCode::InvalidTemplate))?;
    let value = match export.format {
        ExportFormat::Langfuse => {
            if !export.scenarios.is_empty() {
                return Err(AppError::new(
                    ErrorCode::InvalidRequest,
                    "--scenario: a Langfuse prompt has no tests; export without scenarios",
                ));
            }
            unfold_exports::langfuse::chat_prompt(&template)
                .map_err(|e| AppError::invalid_as(ErrorCode::InvalidTemplate)(e.in_file(&export.template)))?
        }
    };
    check_output(&export.output)?;
    Ok(write_atomically(&export.output, &to_canonical_json(&value))?)
}

/// Refuses an output that is a folder, or whose folder does not exist.
fn check_output(path: &Path) -> AppResult<()> {
    let problem = if path.is_dir() { Some("this is a folder: give a file") } else { output_folder_problem(path) };
    match problem {
        Some(problem) => Err(AppError::new(ErrorCode::UnreadableFile, format!("{}: -o: {problem}", path.display()))),
        None => Ok(()),
    }
}
