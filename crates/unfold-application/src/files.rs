//! The user's files as the command line reads them: any file Unfold reads (a template, a
//! scenario, a suite, provider profiles, prices, a host profile, a cassette) checked whatever its kind, a template's prompt with sections read and parameters set, and a scenario
//! written out.

use std::path::Path;

use indexmap::IndexMap;
use unfold_documents::document::{self, DocumentKind};
use unfold_documents::error::printable_path;
use unfold_documents::host_profile::{HostProfile, HOST_KIND};
use unfold_documents::prices::{Prices, PRICES_KIND};
use unfold_documents::provider_profile::{ProviderProfiles, PROVIDERS_KIND};
use unfold_documents::save_target::SaveTarget;
use unfold_documents::suite::{Suite, SUITE_KIND};
use unfold_documents::template::{Disclosure, HeadingStyle};
use unfold_documents::{Error, Scenario, Template};
use unfold_engine::{RenderedPrompt, Session};
use unfold_live::cassette::{Cassette, CASSETTE_KIND};

use crate::error::{AppError, AppResult, ErrorCode};

/// A kind of file the command line checks: the `kind` it declares, how its name usually ends, the
/// code of its problems, and its check (the one loading it makes).
struct FileKind {
    tag: &'static str,
    name_ends: &'static str,
    invalid: ErrorCode,
    check: fn(&[u8]) -> unfold_documents::Result<()>,
}

/// Every kind of file Unfold reads from the user, the template (the kind of a file that says
/// nothing) first.
const FILE_KINDS: [FileKind; 7] = [
    FileKind {
        tag: "unfold.template",
        name_ends: ".unfold.json",
        invalid: ErrorCode::InvalidTemplate,
        check: |bytes| Template::from_json(bytes).map(drop),
    },
    FileKind {
        tag: "unfold.scenario",
        name_ends: ".scenario.json",
        invalid: ErrorCode::InvalidScenario,
        check: |bytes| Scenario::from_json(bytes).map(drop),
    },
    FileKind {
        tag: SUITE_KIND,
        name_ends: ".suite.json",
        invalid: ErrorCode::InvalidRequest,
        check: |bytes| Suite::from_json(bytes).map(drop),
    },
    FileKind {
        tag: PROVIDERS_KIND,
        name_ends: "providers.json",
        invalid: ErrorCode::InvalidProfiles,
        check: |bytes| ProviderProfiles::from_json(bytes).map(drop),
    },
    FileKind {
        tag: PRICES_KIND,
        name_ends: "prices.json",
        invalid: ErrorCode::InvalidRequest,
        check: |bytes| Prices::from_json(bytes).map(drop),
    },
    FileKind {
        tag: HOST_KIND,
        name_ends: ".host.json",
        invalid: ErrorCode::InvalidRequest,
        check: |bytes| HostProfile::from_json(bytes).map(drop),
    },
    FileKind {
        tag: CASSETTE_KIND,
        name_ends: ".cassette.json",
        invalid: ErrorCode::InvalidRequest,
        check: |bytes| Cassette::from_json(bytes).map(drop),
    },
];

/// Checks the file at `path` as the kind of file it declares (by its `kind`, else by its name)
/// and says which kind it is; an invalid one fails with every problem.
pub fn validate_file(path: &Path) -> AppResult<&'static str> {
    let bytes = document::read_document_bytes(path)?;
    let name = path.to_string_lossy();
    let by_name = FILE_KINDS.iter().find(|kind| name.ends_with(kind.name_ends)).unwrap_or(&FILE_KINDS[0]);
    let declared =
        document::declared_kind(&bytes).map_err(|e| AppError::invalid_as(by_name.invalid)(e.in_file(path)))?;
    let kind = match declared {
        None => by_name,
        Some(tag) => FILE_KINDS.iter().find(|kind| kind.tag == tag).ok_or_else(|| {
            let known: Vec<&str> = FILE_KINDS.iter().map(|kind| kind.tag).collect();
            let message = format!("'{tag}' is not a kind of file Unfold reads ({})", known.join(", "));
            AppError::invalid_as(ErrorCode::InvalidRequest)(Error::problem("/kind", message).in_file(path))
        })?,
    };
    (kind.check)(&bytes).map_err(|e| AppError::invalid_as(kind.invalid)(e.in_file(path)))?;
    Ok(kind.tag)
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
    Err(AppError::new(ErrorCode::UnreadableFile, format!("{}: {option}: {problem}", printable_path(path))))
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

/// Where a section `request.expand` names and the template lacks is reported (an argument of the
/// request): a front says it in its own words, the CLI as the flag that named it.
pub fn expanded_section_place(path: &str) -> String {
    format!("expanded section {path}")
}

fn render(template: &Template, request: &RenderRequest) -> unfold_documents::Result<RenderedPrompt> {
    let mut session = Session::new(template, request.params.clone())?;
    for path in &request.expand {
        session.expand(path).map_err(|message| Error::argument(expanded_section_place(path), message))?;
    }
    session.render()
}

/// Writes `scenario` to `path`, atomically, in its canonical text.
pub fn write_scenario(path: &Path, scenario: &Scenario) -> AppResult<()> {
    Ok(document::write_atomically(path, &scenario.to_json())?)
}
