//! The editor's commands: open, edit, undo, redo, save, close and preview templates, import and
//! check tools, and unsaved work kept from an earlier run. Each translates one call into
//! `unfold_application::templates` (or `recovery`).

use std::sync::Arc;

use serde::Serialize;
use specta::Type;
use tauri::State;
use unfold_application::recovery::{self, RecoveredDto, Recovery};
use unfold_application::templates::{ImportedToolsDto, PreviewQuery, Templates};
use unfold_editing::economics::DisclosureEconomics;
use unfold_editing::template_edit::{TemplateEdit, ToolOwner};
use unfold_editing::views::{DocumentUpdate, DocumentView, PreviewUpdate, ProblemView};

use crate::command_error::CommandError;
use crate::files::RecentTemplates;

/// Opens a template file for editing.
#[tauri::command]
#[specta::specta]
pub async fn open_document(
    templates: State<'_, Arc<Templates>>,
    recent: State<'_, RecentTemplates>,
    path: String,
) -> Result<DocumentView, CommandError> {
    let opened = templates.open(&path)?;
    recent.0.remember(opened.status.path.as_deref());
    Ok(opened)
}

/// Applies an edit to an open document; edits of one `group` in a row undo as one step.
#[tauri::command]
#[specta::specta]
pub async fn apply_edit(
    templates: State<'_, Arc<Templates>>,
    id: u32,
    edit: TemplateEdit,
    group: Option<String>,
) -> Result<DocumentUpdate, CommandError> {
    Ok(templates.apply(id, edit, group)?)
}

/// Applies an edit to an open document and answers with the edited document's preview as well, as
/// `apply_edit` and `preview_document` would: one call for a keystroke instead of two.
// Not `async`, so Tauri runs it on the main thread, where the IPC request arrives and its answer is
// sent from: a keystroke skips the hop to the async runtime and back, 2 of its 19 ms (mean, on
// 5,000 sections, here). Its work (2-3 ms there) holds up the window no longer than that.
#[tauri::command]
#[specta::specta]
pub fn edit_and_preview(
    templates: State<'_, Arc<Templates>>,
    id: u32,
    edit: TemplateEdit,
    group: Option<String>,
    preview: PreviewQuery,
) -> Result<EditedWithPreview, CommandError> {
    let (update, preview) = templates.apply_and_preview(id, edit, group, &preview)?;
    Ok(EditedWithPreview { update, preview: preview.map_err(CommandError::from).into() })
}

/// What `edit_and_preview` answers: the document after the edit, and its preview or why it does
/// not render.
#[derive(Debug, Clone, Serialize, Type)]
pub struct EditedWithPreview {
    update: DocumentUpdate,
    preview: PreviewAnswer,
}

/// A preview or the error that stopped it, shaped as every command's result is in TypeScript, so
/// the UI reads it the same way.
#[derive(Debug, Clone, Serialize, Type)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum PreviewAnswer {
    Ok { data: PreviewUpdate },
    Error { error: CommandError },
}

impl From<Result<PreviewUpdate, CommandError>> for PreviewAnswer {
    fn from(result: Result<PreviewUpdate, CommandError>) -> PreviewAnswer {
        match result {
            Ok(data) => PreviewAnswer::Ok { data },
            Err(error) => PreviewAnswer::Error { error },
        }
    }
}

/// Undoes the last step of a document.
#[tauri::command]
#[specta::specta]
pub async fn undo(templates: State<'_, Arc<Templates>>, id: u32) -> Result<DocumentUpdate, CommandError> {
    Ok(templates.step(id, true)?)
}

/// Redoes the last undone step of a document.
#[tauri::command]
#[specta::specta]
pub async fn redo(templates: State<'_, Arc<Templates>>, id: u32) -> Result<DocumentUpdate, CommandError> {
    Ok(templates.step(id, false)?)
}

/// Saves a document to its file, or to `path` when given ("save as").
#[tauri::command]
#[specta::specta]
pub async fn save_document(
    templates: State<'_, Arc<Templates>>,
    id: u32,
    recent: State<'_, RecentTemplates>,
    path: Option<String>,
) -> Result<DocumentUpdate, CommandError> {
    let saved = templates.save(id, path.as_deref())?;
    if path.is_some() {
        recent.0.remember(saved.status.path.as_deref());
    }
    Ok(saved)
}

/// Closes a document (the UI asks about unsaved changes first).
#[tauri::command]
#[specta::specta]
pub async fn close_document(
    templates: State<'_, Arc<Templates>>,
    recovery: State<'_, Recovery>,
    id: u32,
) -> Result<(), CommandError> {
    Ok(templates.close(id, recovery.0.as_ref())?)
}

/// The prompt and tools of a document as the model is shown them now; the prompt as a change from
/// the preview `base` the UI holds (all of it without one).
#[tauri::command]
#[specta::specta]
pub async fn preview_document(
    templates: State<'_, Arc<Templates>>,
    id: u32,
    expand: Vec<String>,
    expand_all: bool,
    base: Option<u32>,
) -> Result<PreviewUpdate, CommandError> {
    Ok(templates.preview(id, &expand, expand_all, base)?)
}

/// The economics of a document's disclosure: what the model is shown first against every section
/// in full, what the disclosure tools add, what reading each summarized section adds. A render per
/// section: worked out off the async runtime's threads.
#[tauri::command]
#[specta::specta]
pub async fn template_economics(
    templates: State<'_, Arc<Templates>>,
    id: u32,
) -> Result<DisclosureEconomics, CommandError> {
    let templates = Arc::clone(&templates);
    Ok(tauri::async_runtime::spawn_blocking(move || templates.economics(id)).await??)
}

/// Reads an OpenAI Chat, OpenAI Responses or Anthropic tool list for a document.
#[tauri::command]
#[specta::specta]
pub async fn import_tools(
    templates: State<'_, Arc<Templates>>,
    id: u32,
    text: String,
) -> Result<ImportedToolsDto, CommandError> {
    Ok(templates.import_tools(id, &text)?)
}

/// Checks a tool the tool editor holds, as JSON text, for a place in a document: every problem,
/// each at its JSON pointer within the tool (or its line and column while the text is not JSON).
#[tauri::command]
#[specta::specta]
pub async fn check_tool(
    templates: State<'_, Arc<Templates>>,
    id: u32,
    owner: ToolOwner,
    index: Option<u32>,
    tool_json: String,
) -> Result<Vec<ProblemView>, CommandError> {
    Ok(templates.check_tool(id, &owner, index, &tool_json)?)
}

/// Unsaved work kept from an earlier run.
#[tauri::command]
#[specta::specta]
pub async fn recovered_documents(recovery: State<'_, Recovery>) -> Result<Vec<RecoveredDto>, CommandError> {
    Ok(recovery::recovered(recovery.store()?))
}

/// Opens kept unsaved work as a modified document.
#[tauri::command]
#[specta::specta]
pub async fn restore_document(
    templates: State<'_, Arc<Templates>>,
    recovery: State<'_, Recovery>,
    recovery_id: String,
) -> Result<DocumentView, CommandError> {
    Ok(templates.restore(recovery.store()?, &recovery_id)?)
}

/// Forgets kept unsaved work.
#[tauri::command]
#[specta::specta]
pub async fn discard_recovered(recovery: State<'_, Recovery>, recovery_id: String) -> Result<(), CommandError> {
    Ok(recovery.store()?.discard(&recovery_id)?)
}
