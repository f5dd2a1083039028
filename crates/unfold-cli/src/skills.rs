//! `unfold import skills` and `unfold export --to skills`: the application's use cases, their
//! outcome in a few lines, and the request to write over a user's files named by its flag.

use std::path::Path;
use std::process::ExitCode;

use unfold_application::skills::OVERWRITE;
use unfold_application::skills::{export_skills, import_skills_to_file};
use unfold_application::{AppError, AppResult};
use unfold_documents::error::printable_path;
use unfold_documents::Location;

use crate::output::outln;

/// `unfold import skills DIR -o TEMPLATE [--force]`.
pub fn import(dir: &Path, output: &Path, force: bool) -> AppResult<ExitCode> {
    let imported = import_skills_to_file(dir, output, force).map_err(|e| with_force(e, "--force writes over it"))?;
    for passed_over in &imported.passed_over {
        eprintln!("note: {}: passed over {passed_over}", printable_path(dir));
    }
    outln!(
        "wrote {}: {} skills, {} files they name, {} scripts as tools",
        printable_path(output),
        imported.skills,
        imported.files,
        imported.scripts
    )?;
    Ok(ExitCode::SUCCESS)
}

/// `unfold export TEMPLATE --to skills DIR [--force]`.
pub fn export(template: &Path, folder: &Path, force: bool) -> AppResult<ExitCode> {
    let exported = export_skills(template, folder, force)
        .map_err(|e| with_force(e, "--force writes over the files the skills hold; the others stay"))?;
    for left_out in &exported.left_out {
        eprintln!("note: {}: not written: {left_out}", printable_path(template));
    }
    outln!(
        "wrote {} skills to {}: {} files written, {} unchanged",
        exported.skills,
        printable_path(folder),
        exported.written.len(),
        exported.unchanged.len()
    )?;
    Ok(ExitCode::SUCCESS)
}

/// A refusal to write over a user's file, with the flag that allows it.
fn with_force(error: AppError, hint: &str) -> AppError {
    let refused = error.problems.iter().any(|p| p.location == Location::Argument(OVERWRITE.to_owned()));
    if !refused {
        return error;
    }
    let message = error.message.replacen(&format!(": {OVERWRITE}: "), ": ", 1);
    AppError { message: format!("{message} ({hint})"), ..error }
}
