//! Agent Skills in the app (spec 16): a skills folder opened as a new, untitled template, and the
//! open template, as it is now, written as a skills folder. Translates into
//! `unfold_application::skills`; the folders are read and written off the async runtime's threads.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Serialize;
use specta::Type;
use tauri::State;
use unfold_application::skills::{self, ExportedSkills};
use unfold_application::templates::Templates;
use unfold_editing::views::DocumentView;

use crate::command_error::CommandError;

/// A skills folder opened as a template.
#[derive(Debug, Clone, Serialize, Type)]
pub struct OpenedSkills {
    /// The new document: untitled and unsaved, as a new template is, until the user saves it.
    pub document: DocumentView,
    /// How many skills it holds (a summarized section each, its files' section aside).
    pub skills: u32,
    /// What of the folder is not a skill and was passed over, in words.
    pub passed_over: Vec<String>,
}

/// Reads the skills folder `folder` into a new document. Nothing is written: the user saves the
/// template where they choose, as after New. A `SKILL.md` that cannot be read is an
/// `invalid_template` error naming its file and line, every such file at once.
#[tauri::command]
#[specta::specta]
pub async fn open_skills_folder(
    templates: State<'_, Arc<Templates>>,
    folder: String,
) -> Result<OpenedSkills, CommandError> {
    let templates = Arc::clone(&templates);
    tauri::async_runtime::spawn_blocking(move || open(&templates, Path::new(&folder))).await?
}

/// [`open_skills_folder`] with no window.
fn open(templates: &Templates, folder: &Path) -> Result<OpenedSkills, CommandError> {
    let imported = skills::import_skills(folder)?;
    let document = templates.create(imported.template)?;
    Ok(OpenedSkills { document, skills: imported.skills, passed_over: imported.passed_over })
}

/// Writes the open document `id`, unsaved changes included, as skills' folders into `folder`: a
/// new or empty folder, or one with files only with `overwrite` (the CLI's `--force`). Refused
/// without it, the error's problem is at `overwrite` and nothing is written.
#[tauri::command]
#[specta::specta]
pub async fn export_skills(
    templates: State<'_, Arc<Templates>>,
    id: u32,
    folder: String,
    overwrite: bool,
) -> Result<ExportedSkills, CommandError> {
    let (template, path) = templates.document(id)?;
    let folder = PathBuf::from(folder);
    Ok(tauri::async_runtime::spawn_blocking(move || {
        skills::export_skills_document(&template, path.as_deref(), &folder, overwrite)
    })
    .await??)
}

#[cfg(test)]
mod tests {
    //! The commands' answers with no window: a document from a folder, and the UI's error.

    use super::*;

    fn fixture() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/skills/anthropic")
    }

    #[test]
    fn a_skills_folder_opens_as_an_untitled_modified_document() {
        let templates = Templates::default();
        let opened = open(&templates, &fixture()).expect("the fixture opens");
        assert_eq!(opened.skills, 4);
        assert_eq!(opened.document.status.path, None);
        assert!(opened.document.status.dirty, "unsaved until the user saves it");
        assert!(templates.has_unsaved_changes());
    }

    #[test]
    fn bad_front_matter_reaches_the_ui_as_an_invalid_template_at_its_file_and_line() {
        let dir = tempfile::tempdir().unwrap();
        let skill = dir.path().join("broken");
        std::fs::create_dir(&skill).unwrap();
        std::fs::write(skill.join("SKILL.md"), "---\nname: broken\ndescription: [not closed\n---\nBody\n").unwrap();
        let error = open(&Templates::default(), dir.path()).expect_err("refused");
        assert_eq!(error.code, unfold_application::ErrorCode::InvalidTemplate);
        let file = skill.join("SKILL.md").display().to_string();
        assert!(error.message.starts_with(&format!("{file}: line ")), "{}", error.message);
        assert_eq!(error.problems.len(), 1, "{:?}", error.problems);
        assert!(error.problems[0].location.starts_with("line "), "{:?}", error.problems);
    }
}
