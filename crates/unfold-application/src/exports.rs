//! What a comparison exports to files the user chose: its report (`unfold compare --json`, or
//! `--markdown` to paste into a pull request, or its first lane as promptfoo's provider response,
//! `--promptfoo`), and the request body of every model call, one file each, into a new or empty folder so that no file
//! of an earlier export (a call this comparison did not make) is mixed with them; neither written
//! if it holds a live model's secrets.

use std::path::Path;

use unfold_documents::document::{create_folder, to_canonical_json, write_atomically};
use unfold_documents::Error;
use unfold_engine::compare::{request_files, RunRequests};
use unfold_engine::request_shapes::{RequestModel, RequestShape};
use unfold_engine::ComparisonReport;
use unfold_live::Secrets;

use crate::error::{AppError, AppResult, ErrorCode};
use crate::redaction;

/// The form a comparison's report is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum ReportFormat {
    /// The whole report, as `unfold compare --json` prints it.
    #[default]
    Json,
    /// The verdict, the lanes beside the baseline and the first divergence, as Markdown.
    Markdown,
}

/// `report` as text in `format`.
pub fn report_text(report: &ComparisonReport, format: ReportFormat) -> String {
    match format {
        ReportFormat::Json => to_canonical_json(report),
        ReportFormat::Markdown => unfold_exports::comparison_markdown::comparison_markdown(report),
    }
}

/// `report`'s first lane as promptfoo's provider response (`unfold compare --promptfoo`): what the
/// provider of a promptfoo config exported to run through Unfold answers promptfoo with.
pub fn promptfoo_response(report: &ComparisonReport) -> AppResult<serde_json::Value> {
    let run =
        report.runs.first().ok_or_else(|| AppError::new(ErrorCode::InvalidRequest, "the comparison ran no lane"))?;
    Ok(unfold_exports::promptfoo_runs::provider_response(run, run.lane().name()))
}

/// Writes `report` to `path` in `format`, atomically; refused if it holds any of `secrets` in
/// some form.
pub fn write_report(path: &Path, report: &ComparisonReport, format: ReportFormat, secrets: &Secrets) -> AppResult<()> {
    redaction::check_file(path, report, secrets)?;
    let text = report_text(report, format);
    redaction::check_file_text(path, &text, secrets)?;
    Ok(write_atomically(path, &text)?)
}

/// Why `folder` cannot take an export of request bodies, if it cannot: it must be new or empty.
pub fn request_folder_problem(folder: &Path) -> AppResult<Option<&'static str>> {
    if folder.is_file() {
        return Ok(Some("this is a file: give a new or empty folder"));
    }
    match std::fs::read_dir(folder).map(|mut entries| entries.next().is_none()) {
        Ok(true) => Ok(None),
        Ok(false) => {
            Ok(Some("the folder is not empty: give a new or empty folder, so no earlier file is mixed with these"))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(Error::Io { path: folder.display().to_string(), action: "cannot read", source }.into()),
    }
}

/// Writes the request bodies into `folder` in `shape`, one file per model call (see
/// [`request_files`]), ready to send to `model` when given, after checking it as
/// [`request_folder_problem`] does; none if one holds any of `secrets` in some form. Returns how
/// many files it wrote.
pub fn write_request_files(
    folder: &Path,
    requests: &[RunRequests],
    shape: RequestShape,
    model: Option<&RequestModel>,
    secrets: &Secrets,
) -> AppResult<usize> {
    if let Some(problem) = request_folder_problem(folder)? {
        let error = Error::problem("", problem).in_file(folder);
        return Err(AppError::invalid_as(ErrorCode::InvalidRequest)(error));
    }
    let files = request_files(requests, shape, model);
    for (name, text) in &files {
        redaction::check_file_text(&folder.join(name), text, secrets)?;
    }
    create_folder(folder)?;
    for (name, text) in &files {
        write_atomically(&folder.join(name), text)?;
    }
    Ok(files.len())
}
