//! The editor's Export menu: the open template, as it is now, written in another tool's format (a
//! promptfoo config with its scenarios as tests, a Langfuse chat prompt). Translates into
//! `unfold_application::template_exports`.

use std::path::Path;
use std::sync::Arc;

use tauri::State;
use unfold_application::template_exports::{self, ExportRequest};
use unfold_application::templates::Templates;

use crate::command_error::CommandError;

/// Writes the open document `id` as `request` asks, to `path`.
#[tauri::command]
#[specta::specta]
pub async fn export_template(
    templates: State<'_, Arc<Templates>>,
    id: u32,
    request: ExportRequest,
    path: String,
) -> Result<(), CommandError> {
    let (template, template_path) = templates.document(id)?;
    Ok(template_exports::export_document(&template, template_path.as_deref(), &request, Path::new(&path))?)
}
