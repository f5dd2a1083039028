//! Files around the editor: new and example documents, the native open and save dialogs, the
//! recent files list, and the window's close request, which waits for the UI's answer while a
//! document has unsaved changes. Each command is a few lines over `unfold_core`; the bodies are
//! plain functions so the tests call them with no window.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use specta::Type;
use tauri::{AppHandle, Manager, State};
use tauri_plugin_dialog::DialogExt;
use unfold_documents::Template;
use unfold_editing::edit::{DocumentView, EditorDocument};
use unfold_stores::recent::RecentFiles;

use crate::commands::CommandError;
use crate::compare::Scenarios;
use crate::editor::Editor;

/// The example "Open an example" offers, built in so it works wherever the app is installed.
const EXAMPLE_TEMPLATE: &str = include_str!("../../examples/task-executor.unfold.json");

/// The recent files list in the app's config folder; none when that folder is unknown.
pub struct Recent(pub Option<RecentFiles>);

impl Recent {
    /// Puts `path` first on the list; a list that cannot be written is logged, never an error of
    /// the open or save that succeeded.
    pub fn remember(&self, path: Option<&str>) {
        let (Some(recent), Some(path)) = (&self.0, path) else { return };
        if let Err(error) = recent.add(Path::new(path)) {
            tracing::warn!(%error, "cannot update the recent files list");
        }
    }

    /// The list as the UI shows it.
    pub fn list(&self) -> Vec<RecentFileDto> {
        let Some(recent) = &self.0 else { return Vec::new() };
        let read = recent.read();
        if let Some(why) = &read.unreadable {
            tracing::warn!(why, "the recent files list was unreadable and starts again empty");
        }
        read.paths.into_iter().map(RecentFileDto::of).collect()
    }

    /// Takes `path` off the list.
    pub fn forget(&self, path: &str) -> Result<Vec<RecentFileDto>, CommandError> {
        if let Some(recent) = &self.0 {
            recent.forget(path)?;
        }
        Ok(self.list())
    }
}

/// One recently opened file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Type)]
pub struct RecentFileDto {
    /// Its path.
    pub path: String,
    /// Whether it is still there (a moved or deleted file is shown as such).
    pub exists: bool,
}

impl RecentFileDto {
    fn of(path: String) -> RecentFileDto {
        let exists = Path::new(&path).is_file();
        RecentFileDto { path, exists }
    }
}

impl Editor {
    /// A new, never saved document with `template`.
    pub fn create(&self, template: Template) -> Result<DocumentView, CommandError> {
        self.with(|documents| {
            let id = documents.insert(EditorDocument::new(template));
            Editor::view(documents, id)
        })
    }
}

/// The built-in example as a new document (saving it asks where).
pub fn example_template() -> Result<Template, CommandError> {
    Ok(Template::from_json(EXAMPLE_TEMPLATE.as_bytes())?)
}

/// What a file dialog is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Type)]
#[serde(rename_all = "snake_case")]
pub enum FilePurpose {
    /// Choose a template to open.
    Open,
    /// Choose where to save a template.
    Save,
    /// Choose a scenario to open.
    OpenScenario,
    /// Choose where to save a scenario.
    SaveScenario,
    /// Choose where to save a comparison report.
    SaveReport,
    /// Choose a new or empty folder for a comparison's request bodies.
    RequestsFolder,
}

impl FilePurpose {
    /// The dialog's file filter: its name, or none for a folder.
    fn filter(self) -> Option<&'static str> {
        match self {
            FilePurpose::Open | FilePurpose::Save => Some("Unfold template"),
            FilePurpose::OpenScenario | FilePurpose::SaveScenario => Some("Unfold scenario"),
            FilePurpose::SaveReport => Some("Comparison report"),
            FilePurpose::RequestsFolder => None,
        }
    }
}

/// Whether the window may close now: set once the UI has answered for the unsaved changes.
#[derive(Debug, Default)]
pub struct CloseApproved(AtomicBool);

/// Sent to the UI when the window is asked to close while a document has unsaved changes; the
/// UI asks the user, then calls `close_window` (or does nothing, to stay open).
#[derive(Debug, Clone, Serialize, Deserialize, Type, tauri_specta::Event)]
pub struct CloseRequested;

/// Sent to the UI when files are dropped on the window, to open them.
#[derive(Debug, Clone, Serialize, Deserialize, Type, tauri_specta::Event)]
pub struct FilesDropped {
    /// The dropped files' paths.
    pub paths: Vec<String>,
}

/// Whether closing must wait for the UI: a template or a scenario has unsaved changes and the UI
/// has not approved closing yet.
pub fn close_needs_answer(editor: &Editor, scenarios: &Scenarios, approved: &CloseApproved) -> bool {
    !approved.0.load(Ordering::SeqCst) && (editor.has_unsaved_changes() || scenarios.has_unsaved_changes())
}

/// Creates a new document from the blank template.
#[tauri::command]
#[specta::specta]
pub async fn new_document(editor: State<'_, Arc<Editor>>) -> Result<DocumentView, CommandError> {
    editor.create(Template::blank())
}

/// Opens the built-in example as a new, unsaved document.
#[tauri::command]
#[specta::specta]
pub async fn open_example(editor: State<'_, Arc<Editor>>) -> Result<DocumentView, CommandError> {
    editor.create(example_template()?)
}

/// Shows the native dialog to choose a file to open, a place to save one or a folder, as `purpose`
/// says; `None` when the user cancels.
#[tauri::command]
#[specta::specta]
pub async fn choose_file(
    app: AppHandle,
    purpose: FilePurpose,
    suggested_path: Option<String>,
) -> Result<Option<String>, CommandError> {
    let mut dialog = app.dialog().file();
    if let Some(filter) = purpose.filter() {
        dialog = dialog.add_filter(filter, &["json"]);
    }
    if let Some(suggested) = suggested_path.as_deref().map(Path::new) {
        if let Some(folder) = suggested.parent().filter(|p| p.is_dir()) {
            dialog = dialog.set_directory(folder);
        }
        if let Some(name) = suggested.file_name() {
            dialog = dialog.set_file_name(name.to_string_lossy());
        }
    }
    // The dialog runs on the main thread; this waits for it off the async runtime's threads.
    let chosen = tauri::async_runtime::spawn_blocking(move || match purpose {
        FilePurpose::Open | FilePurpose::OpenScenario => dialog.blocking_pick_file(),
        FilePurpose::Save | FilePurpose::SaveScenario | FilePurpose::SaveReport => dialog.blocking_save_file(),
        FilePurpose::RequestsFolder => dialog.blocking_pick_folder(),
    })
    .await?;
    let chosen: Option<PathBuf> = chosen.and_then(|p| p.into_path().ok());
    Ok(chosen.map(|p| p.to_string_lossy().into_owned()))
}

/// A tool list file the user chose, with its text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Type)]
pub struct ToolListFileDto {
    /// The file.
    pub path: String,
    /// Its text, to read as pasted tools.
    pub text: String,
}

/// Shows the native dialog to choose a tool list file (OpenAI Chat, OpenAI Responses or Anthropic
/// tools) and returns its text; `None` when the user cancels. The webview never names the file:
/// only the one the user picked is read.
#[tauri::command]
#[specta::specta]
pub async fn choose_tool_list(app: AppHandle) -> Result<Option<ToolListFileDto>, CommandError> {
    let dialog = app.dialog().file().add_filter("Tool list", &["json"]);
    let chosen = tauri::async_runtime::spawn_blocking(move || dialog.blocking_pick_file()).await?;
    let Some(path) = chosen.and_then(|p| p.into_path().ok()) else { return Ok(None) };
    let text = unfold_editing::tool_import::read_tool_list(&path)?;
    Ok(Some(ToolListFileDto { path: path.to_string_lossy().into_owned(), text }))
}

/// The recently opened files, newest first.
#[tauri::command]
#[specta::specta]
pub async fn recent_files(recent: State<'_, Recent>) -> Result<Vec<RecentFileDto>, CommandError> {
    Ok(recent.list())
}

/// Takes a file off the recent files list.
#[tauri::command]
#[specta::specta]
pub async fn forget_recent_file(recent: State<'_, Recent>, path: String) -> Result<Vec<RecentFileDto>, CommandError> {
    recent.forget(&path)
}

/// Closes the window: the UI calls it once the user has answered for the unsaved changes.
#[tauri::command]
#[specta::specta]
pub async fn close_window(app: AppHandle, approved: State<'_, CloseApproved>) -> Result<(), CommandError> {
    approved.0.store(true, Ordering::SeqCst);
    if let Some(window) = app.get_webview_window("main") {
        window.close()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    //! The file commands' bodies with no window.

    use super::*;

    #[test]
    fn a_new_document_is_unsaved_valid_and_asks_where_to_save() {
        let editor = Editor::default();
        let created = editor.create(Template::blank()).expect("creates");
        assert!(created.status.dirty && created.status.path.is_none() && created.status.problems.is_empty());
        assert!(editor.has_unsaved_changes());
        let error = editor.save(created.status.id, None).expect_err("no file yet");
        assert!(error.message.contains("save it as a new file"), "{}", error.message);

        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("new.unfold.json");
        let saved = editor.save(created.status.id, Some(&path.to_string_lossy())).expect("saves as");
        assert!(!saved.status.dirty && !editor.has_unsaved_changes());
        assert_eq!(Template::load(&path).expect("opens again"), Template::blank());
    }

    #[test]
    fn the_example_opens_as_a_new_document() {
        let editor = Editor::default();
        let example = editor.create(example_template().unwrap()).expect("the built-in example is valid");
        assert_eq!(example.template.key, "task-executor");
        assert!(example.status.dirty && example.status.path.is_none());
    }

    #[test]
    fn closing_waits_for_an_answer_only_while_work_is_unsaved() {
        let (editor, scenarios) = (Editor::default(), Scenarios::default());
        let approved = CloseApproved::default();
        assert!(!close_needs_answer(&editor, &scenarios, &approved));
        let template = editor.create(Template::blank()).unwrap().status.id;
        assert!(close_needs_answer(&editor, &scenarios, &approved));
        scenarios.create(&editor, template).unwrap();
        editor.close(template, None).unwrap();
        assert!(close_needs_answer(&editor, &scenarios, &approved), "a new scenario is unsaved work too");
        approved.0.store(true, Ordering::SeqCst);
        assert!(!close_needs_answer(&editor, &scenarios, &approved));
    }

    #[test]
    fn recent_files_follow_opens_and_say_which_are_gone() {
        let dir = tempfile::tempdir().unwrap();
        let recent = Recent(Some(RecentFiles::at(dir.path().join("recent.json"))));
        let here = dir.path().join("here.unfold.json");
        std::fs::write(&here, "{}").unwrap();
        let gone = dir.path().join("gone.unfold.json");
        recent.remember(Some(&gone.to_string_lossy()));
        recent.remember(Some(&here.to_string_lossy()));
        recent.remember(None);
        let listed = recent.list();
        assert_eq!(
            listed,
            [
                RecentFileDto { path: here.to_string_lossy().into_owned(), exists: true },
                RecentFileDto { path: gone.to_string_lossy().into_owned(), exists: false },
            ]
        );
        assert_eq!(recent.forget(&gone.to_string_lossy()).unwrap().len(), 1);
        assert!(Recent(None).list().is_empty());
    }
}
