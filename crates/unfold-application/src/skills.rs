//! Agent Skills (spec 16): a folder of skills imported as a template (a document to open, or a
//! file), and a template (a file, or the app's open document as it is now) exported as a skills
//! folder. The conversion and the folders' files are `unfold-skills`'; this names the files in
//! every error and keeps a user's files: an existing template file or a folder with files in it
//! is written over only when asked (`overwrite`), and an export never removes a file.

use std::path::Path;

use unfold_documents::error::printable_path;
use unfold_documents::template::Section;
use unfold_documents::{Error, Problem, Template};
use unfold_skills::conversion::{holds_a_skills_files, skills_of, template_of};
use unfold_skills::folder::{read_skills, write_skills};

use crate::error::{AppError, AppResult, ErrorCode};
use crate::files::check_output_file;

/// Where a problem names the request to write over a user's file (the CLI's `--force`).
pub use unfold_skills::folder::OVERWRITE;

/// A skills folder read as a template.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ImportedSkills {
    /// The template: a summarized section per skill, and after each that names files a
    /// summarized section holding them.
    pub template: Template,
    /// How many skills it holds.
    pub skills: u32,
    /// How many files the skills name (sections of their own, read one at a time).
    pub files: u32,
    /// How many scripts became tools.
    pub scripts: u32,
    /// What of the folder is not a skill and was passed over, in words.
    pub passed_over: Vec<String>,
}

/// What an export to a skills folder wrote, each file by its path in the folder.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ExportedSkills {
    /// How many skills the folder holds now.
    pub skills: u32,
    /// The files written (new, or changed).
    pub written: Vec<String>,
    /// The files that held these bytes already and were left as they were.
    pub unchanged: Vec<String>,
    /// What of the template no skill holds, in words (a tool with no script).
    pub left_out: Vec<String>,
}

/// The template of the skills in the folder `dir`, keyed after the folder. Each skill whose
/// `SKILL.md` cannot be read is a problem at its file and line, all of them at once.
pub fn import_skills(dir: &Path) -> AppResult<ImportedSkills> {
    let read = read_skills(dir).map_err(AppError::invalid_as(ErrorCode::InvalidTemplate))?;
    let key = dir
        .canonicalize()
        .ok()
        .and_then(|dir| dir.file_name().map(|name| name.to_string_lossy().into_owned()))
        .filter(|name| !name.is_empty())
        .unwrap_or_else(|| "skills".to_owned());
    let template = template_of(dir, &key, &read.skills)
        .map_err(|errors| AppError::of_files(ErrorCode::InvalidTemplate, &errors))?;
    // What was made must read back as a template (a skills folder too large for one, say).
    Template::from_json(template.to_json().as_bytes())
        .map_err(|error| AppError::invalid_as(ErrorCode::InvalidTemplate)(error.in_file(dir)))?;
    let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
    let (files, skills): (Vec<&Section>, Vec<&Section>) =
        template.sections.iter().partition(|s| holds_a_skills_files(s));
    let (skills, files, scripts) = (
        count(skills.len()),
        count(files.iter().map(|s| s.children.len()).sum()),
        count(skills.iter().map(|s| s.tools.len()).sum()),
    );
    Ok(ImportedSkills { template, skills, files, scripts, passed_over: read.passed_over })
}

/// [`import_skills`] saved to the template file `output`; a file there already is written over
/// only with `overwrite`.
pub fn import_skills_to_file(dir: &Path, output: &Path, overwrite: bool) -> AppResult<ImportedSkills> {
    check_output_file(output, "-o")?;
    if output.exists() && !overwrite {
        let problem = Problem {
            location: unfold_documents::Location::Argument(OVERWRITE.to_owned()),
            message: "the file exists: nothing was written".to_owned(),
        };
        return Err(AppError::invalid_as(ErrorCode::InvalidRequest)(Error::from(problem).in_file(output)));
    }
    let imported = import_skills(dir)?;
    imported.template.save(output)?;
    Ok(imported)
}

/// Writes the template file `template_path` as skills' folders into `dir`.
pub fn export_skills(template_path: &Path, dir: &Path, overwrite: bool) -> AppResult<ExportedSkills> {
    let template = Template::load(template_path).map_err(AppError::invalid_as(ErrorCode::InvalidTemplate))?;
    export_skills_document(&template, Some(template_path), dir, overwrite)
}

/// Writes `template` (from `template_path`, if it has a file) as skills' folders into `dir`: a
/// new or empty folder, or with `overwrite` one with files, whose other files stay. A problem of
/// the template is at its JSON pointer; a refused folder writes nothing.
pub fn export_skills_document(
    template: &Template,
    template_path: Option<&Path>,
    dir: &Path,
    overwrite: bool,
) -> AppResult<ExportedSkills> {
    let skills = skills_of(template).map_err(|error| {
        let error = match template_path {
            Some(path) => error.in_file(path),
            None => error,
        };
        AppError::invalid_as(ErrorCode::InvalidTemplate)(error)
    })?;
    let written =
        write_skills(dir, &skills.skills, overwrite).map_err(AppError::invalid_as(ErrorCode::InvalidRequest))?;
    tracing::info!(folder = %printable_path(dir), written = written.written.len(), "exported skills");
    Ok(ExportedSkills {
        skills: u32::try_from(skills.skills.len()).unwrap_or(u32::MAX),
        written: written.written,
        unchanged: written.unchanged,
        left_out: skills.left_out,
    })
}
