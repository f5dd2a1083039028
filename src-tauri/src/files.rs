//! Files around the editor and the window: new and example documents, the native open and save
//! dialogs, the recent templates list, files dropped on the window, and the window's close
//! request, which waits for the UI's answer while a document has unsaved changes.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use specta::Type;
use tauri::{AppHandle, Manager, State};
use tauri_plugin_dialog::DialogExt;
use unfold_application::recent::{Recent, RecentFileDto};
use unfold_application::scenarios::Scenarios;
use unfold_application::templates::Templates;
use unfold_documents::Template;
use unfold_editing::views::DocumentView;

use crate::command_error::CommandError;

/// The recently opened templates (the start page's list).
pub struct RecentTemplates(pub Recent);

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
    /// Choose where to save a comparison as Markdown.
    SaveMarkdown,
    /// Choose a suite file, new or not, to add a comparison to as a case.
    SaveSuite,
    /// Choose where to save a comparison's chart as an SVG image.
    SaveChartSvg,
    /// Choose where to save a comparison's chart as a PNG image.
    SaveChartPng,
    /// Choose a new or empty folder for a comparison's request bodies.
    RequestsFolder,
    /// Choose a suite to open.
    OpenSuite,
    /// Choose where to save a template exported in another tool's format.
    SaveExport,
    /// Choose where to save a run's trace.
    SaveTrace,
    /// Choose a folder of Agent Skills to open as a template.
    OpenSkills,
    /// Choose a folder to write the open template into as Agent Skills (new, empty, or written
    /// over once the user confirms).
    SkillsFolder,
}

impl FilePurpose {
    /// Whether the dialog asks where to save a file (not a file to open, nor a folder).
    fn saves(self) -> bool {
        // Every purpose named, so that a new one must say which it is.
        match self {
            FilePurpose::Open
            | FilePurpose::OpenScenario
            | FilePurpose::OpenSuite
            | FilePurpose::RequestsFolder
            | FilePurpose::OpenSkills
            | FilePurpose::SkillsFolder => false,
            FilePurpose::Save
            | FilePurpose::SaveScenario
            | FilePurpose::SaveReport
            | FilePurpose::SaveMarkdown
            | FilePurpose::SaveSuite
            | FilePurpose::SaveChartSvg
            | FilePurpose::SaveChartPng
            | FilePurpose::SaveExport
            | FilePurpose::SaveTrace => true,
        }
    }

    /// Whether the dialog chooses a folder, not a file.
    fn folder(self) -> bool {
        matches!(self, FilePurpose::RequestsFolder | FilePurpose::OpenSkills | FilePurpose::SkillsFolder)
    }

    /// Whether what is chosen is written to (a file saved, a folder written into), not read.
    fn writes(self) -> bool {
        self.saves() || matches!(self, FilePurpose::RequestsFolder | FilePurpose::SkillsFolder)
    }

    /// The dialog's file filter: its name and extensions, or none for a folder.
    fn filter(self) -> Option<(&'static str, &'static [&'static str])> {
        let json: &'static [&'static str] = &["json"];
        match self {
            FilePurpose::Open | FilePurpose::Save => Some(("Unfold template", json)),
            FilePurpose::OpenScenario | FilePurpose::SaveScenario => Some(("Unfold scenario", json)),
            FilePurpose::SaveReport => Some(("Comparison report", json)),
            FilePurpose::SaveMarkdown => Some(("Markdown", &["md"])),
            FilePurpose::SaveSuite => Some(("Unfold suite", json)),
            FilePurpose::SaveChartSvg => Some(("SVG image", &["svg"])),
            FilePurpose::SaveChartPng => Some(("PNG image", &["png"])),
            FilePurpose::OpenSuite => Some(("Unfold suite", json)),
            FilePurpose::SaveExport => Some(("Export", json)),
            FilePurpose::SaveTrace => Some(("OpenTelemetry trace (OTLP JSON lines)", &["jsonl", "json"])),
            FilePurpose::RequestsFolder | FilePurpose::OpenSkills | FilePurpose::SkillsFolder => None,
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
pub fn close_needs_answer(templates: &Templates, scenarios: &Scenarios, approved: &CloseApproved) -> bool {
    !approved.0.load(Ordering::SeqCst) && (templates.has_unsaved_changes() || scenarios.has_unsaved_changes())
}

/// Creates a new document from the blank template.
#[tauri::command]
#[specta::specta]
pub async fn new_document(templates: State<'_, Arc<Templates>>) -> Result<DocumentView, CommandError> {
    Ok(templates.create(Template::blank())?)
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
    if let Some(answer) = automated_answer(purpose, suggested_path.as_deref()) {
        return Ok(Some(answer));
    }
    let mut dialog = app.dialog().file();
    if let Some((name, extensions)) = purpose.filter() {
        dialog = dialog.add_filter(name, extensions);
    }
    if let Some(suggested) = suggested_path.as_deref().map(Path::new) {
        if purpose.folder() {
            // A folder dialog starts in the suggested folder, or else beside where it would be.
            if let Some(folder) =
                Some(suggested).filter(|p| p.is_dir()).or_else(|| suggested.parent().filter(|p| p.is_dir()))
            {
                dialog = dialog.set_directory(folder);
            }
        } else {
            if let Some(folder) = suggested.parent().filter(|p| p.is_dir()) {
                dialog = dialog.set_directory(folder);
            }
            if let Some(name) = suggested.file_name() {
                dialog = dialog.set_file_name(name.to_string_lossy());
            }
        }
    }
    // The dialog runs on the main thread; this waits for it off the async runtime's threads.
    let chosen = tauri::async_runtime::spawn_blocking(move || match purpose {
        folder if folder.folder() => dialog.blocking_pick_folder(),
        saving if saving.saves() => dialog.blocking_save_file(),
        _ => dialog.blocking_pick_file(),
    })
    .await?;
    let chosen: Option<PathBuf> = chosen.and_then(|p| p.into_path().ok());
    Ok(chosen.map(|p| p.to_string_lossy().into_owned()))
}

/// Set, a dialog choosing where to write (a file to save, a folder to write into) is not shown: it
/// answers the suggested name in the folder this names. The end-to-end tests save through the
/// app's own menus so, as no WebDriver can reach a native dialog; nothing else sets it.
pub const SAVE_DIALOG_FOLDER: &str = "UNFOLD_SAVE_DIALOG_FOLDER";

/// Set, a dialog choosing a folder to read (a skills folder to open) is not shown: it answers the
/// path this names. For the end-to-end tests too, which set it for one app only; nothing else
/// sets it.
pub const OPEN_FOLDER_DIALOG_PATH: &str = "UNFOLD_OPEN_FOLDER_DIALOG_PATH";

/// The answer to a dialog for `purpose` while [`SAVE_DIALOG_FOLDER`] or
/// [`OPEN_FOLDER_DIALOG_PATH`] is set; none otherwise, for any other dialog, or for one that
/// writes without a suggested name.
fn automated_answer(purpose: FilePurpose, suggested: Option<&str>) -> Option<String> {
    if purpose.folder() && !purpose.writes() {
        let path = std::env::var_os(OPEN_FOLDER_DIALOG_PATH)?;
        return Some(PathBuf::from(path).to_string_lossy().into_owned());
    }
    let folder = std::env::var_os(SAVE_DIALOG_FOLDER).filter(|_| purpose.writes())?;
    let name = Path::new(suggested?).file_name()?;
    Some(Path::new(&folder).join(name).to_string_lossy().into_owned())
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
pub async fn recent_files(recent: State<'_, RecentTemplates>) -> Result<Vec<RecentFileDto>, CommandError> {
    Ok(recent.0.list())
}

/// Takes a file off the recent files list.
#[tauri::command]
#[specta::specta]
pub async fn forget_recent_file(
    recent: State<'_, RecentTemplates>,
    path: String,
) -> Result<Vec<RecentFileDto>, CommandError> {
    Ok(recent.0.forget(&path)?)
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
    //! The close decision with no window.

    use super::*;

    #[test]
    fn closing_waits_for_an_answer_only_while_work_is_unsaved() {
        let (templates, scenarios) = (Templates::default(), Scenarios::default());
        let approved = CloseApproved::default();
        assert!(!close_needs_answer(&templates, &scenarios, &approved));
        let template = templates.create(Template::blank()).unwrap().status.id;
        assert!(close_needs_answer(&templates, &scenarios, &approved));
        scenarios.create(&templates, template).unwrap();
        templates.close(template, None).unwrap();
        assert!(close_needs_answer(&templates, &scenarios, &approved), "a new scenario is unsaved work too");
        approved.0.store(true, Ordering::SeqCst);
        assert!(!close_needs_answer(&templates, &scenarios, &approved));
    }
}
