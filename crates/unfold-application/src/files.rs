//! The user's files as the command line reads them: a template, a scenario or a suite checked
//! whatever its kind, a template's prompt with sections read and parameters set, and a scenario
//! written out.

use std::path::Path;

use indexmap::IndexMap;
use unfold_documents::document::{self, DocumentKind};
use unfold_documents::save_target::SaveTarget;
use unfold_documents::suite::{Suite, SUITE_KIND};
use unfold_documents::template::{Disclosure, HeadingStyle};
use unfold_documents::{Error, Scenario, Template};
use unfold_engine::{RenderedPrompt, Session};

use crate::error::{AppError, AppResult, ErrorCode};

/// Checks the file at `path` as the document it declares (by its `kind`, else by its name) and
/// says which kind it is; an invalid one fails with every problem.
pub fn validate_file(path: &Path) -> AppResult<&'static str> {
    let bytes = document::read_document_bytes(path)?;
    let name = path.to_string_lossy();
    let by_name = if name.ends_with(".scenario.json") { DocumentKind::Scenario } else { DocumentKind::Template };
    let declared = document::declared_kind(&bytes).map_err(|e| invalid(by_name)(e.in_file(path)))?;
    // Suites are files the command line runs, not documents the editor opens.
    if declared.as_deref() == Some(SUITE_KIND) || (declared.is_none() && name.ends_with(".suite.json")) {
        Suite::from_json(&bytes).map_err(|e| AppError::invalid_as(ErrorCode::InvalidRequest)(e.in_file(path)))?;
        return Ok(SUITE_KIND);
    }
    let kind = declared.as_deref().and_then(DocumentKind::of_tag).unwrap_or(by_name);
    let checked = match kind {
        DocumentKind::Template => Template::from_json(&bytes).map(drop),
        DocumentKind::Scenario => Scenario::from_json(&bytes).map(drop),
    };
    checked.map_err(|e| invalid(kind)(e.in_file(path)))?;
    Ok(kind.tag())
}

/// Refuses a file that could not be saved to `path` later: a folder, a device, a pipe or a
/// socket (also through a symbolic link), or a path whose folder is not there. Checked before the
/// work that writes it (a paid run's cassette, a suite's JUnit file, an export, a trace), so the
/// work is not lost to it; the error names the path and the `option` that gave it.
pub fn check_output_file(path: &Path, option: &str) -> AppResult<()> {
    let problem = match SaveTarget::of(path) {
        Err(refused) => refused.to_string(),
        Ok(target) if !target.folder().is_dir() => "its folder does not exist".to_owned(),
        Ok(_) => return Ok(()),
    };
    Err(AppError::new(ErrorCode::UnreadableFile, format!("{}: {option}: {problem}", path.display())))
}

fn invalid(kind: DocumentKind) -> impl Fn(Error) -> AppError {
    AppError::invalid_as(match kind {
        DocumentKind::Template => ErrorCode::InvalidTemplate,
        DocumentKind::Scenario => ErrorCode::InvalidScenario,
    })
}

/// How a template is rendered besides its own settings.
#[derive(Debug, Clone, Default)]
pub struct RenderRequest {
    /// Sections (dotted paths) shown in full, as reading them would.
    pub expand: Vec<String>,
    /// Parameter values over the template's defaults.
    pub params: IndexMap<String, String>,
    /// The disclosure protocol instead of the template's.
    pub disclosure: Option<Disclosure>,
    /// The heading style instead of the template's.
    pub heading: Option<HeadingStyle>,
}

/// The prompt the template at `path` shows the model, as `request` says; its sources' snapshots
/// stand for their tools (nothing is started).
pub fn render_file(path: &Path, request: &RenderRequest) -> AppResult<RenderedPrompt> {
    let template = load_for_render(path, request)?;
    render_seen(&template.offline_view(), path, request)
}

/// The template at `path` with `request`'s overrides of its disclosure and heading.
pub fn load_for_render(path: &Path, request: &RenderRequest) -> AppResult<Template> {
    let mut template = Template::load(path).map_err(invalid(DocumentKind::Template))?;
    template.disclosure = request.disclosure.unwrap_or(template.disclosure);
    template.heading = request.heading.unwrap_or(template.heading);
    Ok(template)
}

/// The prompt `seen` (the template of `path` as a run sees it, its sources' tools in place) shows
/// the model, as `request` says.
pub fn render_seen(seen: &Template, path: &Path, request: &RenderRequest) -> AppResult<RenderedPrompt> {
    render(seen, request).map_err(|e| AppError::invalid_as(ErrorCode::InvalidRequest)(e.in_file(path)))
}

fn render(template: &Template, request: &RenderRequest) -> unfold_documents::Result<RenderedPrompt> {
    let mut session = Session::new(template, request.params.clone())?;
    for path in &request.expand {
        session.expand(path).map_err(|message| Error::argument(format!("--expand {path}"), message))?;
    }
    session.render()
}

/// Writes `scenario` to `path`, atomically, in its canonical text.
pub fn write_scenario(path: &Path, scenario: &Scenario) -> AppResult<()> {
    Ok(document::write_atomically(path, &scenario.to_json())?)
}
