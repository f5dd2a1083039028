//! `unfold export` and the app's Export menu (spec 11): a template written in the format of
//! another tool, to a file the user names, atomically. The formats themselves are
//! `unfold-exports`'; this loads the template (the command line's file, or the app's open
//! document as it is now) and the scenarios (each checked against the template), checks the
//! request and writes. A promptfoo config run through Unfold (`--through-unfold`) also gets its
//! provider's file beside it, and names every file it runs by its absolute path, since promptfoo
//! may run it from any folder.

use std::path::{Path, PathBuf};

use unfold_documents::document::{to_canonical_json, write_atomically};
use unfold_documents::error::printable_path;
use unfold_documents::host_profile::{host_reference, HostProfile, HOST_PREFIX};
use unfold_documents::{Error, Scenario, Template};
use unfold_exports::promptfoo_runs::{self, ScenarioFile, UnfoldRuns, PROVIDER_FILE, PROVIDER_SCRIPT};

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
    export_document(&load_template(template_path)?, Some(template_path), request, output)
}

/// How a promptfoo config's tests run through Unfold: each scenario's whole conversation, in
/// each lane, scripted or with a profile's real model.
#[derive(Debug, Clone)]
pub struct ThroughUnfold {
    /// The `unfold` program promptfoo's provider starts.
    pub unfold: PathBuf,
    /// The lanes, a provider each (as `unfold compare --adapters` names them).
    pub lanes: Vec<String>,
    /// The provider profile whose real model answers; none: each scenario's script.
    pub profile: Option<String>,
    /// The file that profile is in; none: where Unfold looks by default.
    pub profiles: Option<PathBuf>,
}

/// Writes to `output` the promptfoo config of the template file `template_path` with a test per
/// scenario of `scenarios`, run through Unfold as `runs` says, and its provider's file beside it.
pub fn export_promptfoo_through_unfold(
    template_path: &Path,
    scenarios: &[PathBuf],
    runs: &ThroughUnfold,
    output: &Path,
) -> AppResult<()> {
    let template = load_template(template_path)?;
    let loaded = load_scenarios(scenarios, &template)?;
    let lanes = runs.lanes.iter().map(|lane| provider_lane(lane)).collect::<AppResult<Vec<String>>>()?;
    let scenario_paths = scenarios.iter().map(|path| absolute(path, "--scenario")).collect::<AppResult<Vec<_>>>()?;
    let files: Vec<ScenarioFile<'_>> =
        loaded.iter().zip(&scenario_paths).map(|(scenario, path)| ScenarioFile { scenario, path }).collect();
    let (unfold, template_file) = (absolute(&runs.unfold, "unfold")?, absolute(template_path, "TEMPLATE")?);
    let profiles = runs.profiles.as_deref().map(|path| absolute(path, "--providers")).transpose()?;
    let spec = UnfoldRuns {
        unfold: &unfold,
        template: &template_file,
        lanes: &lanes,
        profile: runs.profile.as_deref(),
        profiles: profiles.as_deref(),
    };
    let value = promptfoo_runs::config(&template, &files, &spec).map_err(|e| in_template(e, Some(template_path)))?;
    check_output_file(output, "-o")?;
    let provider = output.parent().unwrap_or(Path::new("")).join(PROVIDER_FILE);
    write_atomically(output, &to_canonical_json(&value))?;
    Ok(write_atomically(&provider, PROVIDER_SCRIPT)?)
}

/// `lane` as the provider names it: checked now (a lane that cannot run fails the export, not
/// every test), a host profile file by its absolute path.
fn provider_lane(lane: &str) -> AppResult<String> {
    crate::hosts::lane_spec(lane)?;
    match host_reference(lane) {
        Some(file) if HostProfile::names_a_file(file) => {
            Ok(format!("{HOST_PREFIX}{}", absolute(Path::new(file), "--adapters")?))
        }
        _ => Ok(lane.to_owned()),
    }
}

/// `path` from the root, as text: promptfoo runs the provider from a folder of its choosing, and
/// the config holds text. A path that is not UTF-8 is refused, said of `option`.
fn absolute(path: &Path, option: &str) -> AppResult<String> {
    let refused = |problem: String| {
        AppError::new(ErrorCode::InvalidRequest, format!("{}: {option}: {problem}", printable_path(path)))
    };
    let absolute = std::path::absolute(path).map_err(|error| refused(error.to_string()))?;
    absolute
        .into_os_string()
        .into_string()
        .map_err(|_| refused("a promptfoo config holds text, and this path is not UTF-8".to_owned()))
}

/// The template file at `path`.
fn load_template(path: &Path) -> AppResult<Template> {
    Template::load(path).map_err(AppError::invalid_as(ErrorCode::InvalidTemplate))
}

/// `error`, a problem of the template (from `template_path`, if it has a file).
fn in_template(error: Error, template_path: Option<&Path>) -> AppError {
    let error = match template_path {
        Some(path) => error.in_file(path),
        None => error,
    };
    AppError::invalid_as(ErrorCode::InvalidTemplate)(error)
}

/// Writes `template` (from `template_path`, if it has a file) as `request` asks, to `output`.
pub fn export_document(
    template: &Template,
    template_path: Option<&Path>,
    request: &ExportRequest,
    output: &Path,
) -> AppResult<()> {
    let in_template = |e: Error| in_template(e, template_path);
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
