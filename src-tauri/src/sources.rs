//! The Sources panel's commands: an open template's tool sources with the user's answer for each
//! and what each offers (its snapshot, or listed live from the allowed ones), and the answers
//! themselves. Each translates into `unfold_application::consents`; editing the sources
//! is an edit of the open document like any other (`set_sources`).

use std::sync::Arc;

use tauri::State;
use unfold_application::consents::{Consents, SourceView};
use unfold_application::templates::Templates;

use crate::command_error::CommandError;

/// The open template's sources, each with the user's answer and its snapshot's tools.
#[tauri::command]
#[specta::specta]
pub async fn template_sources(
    templates: State<'_, Arc<Templates>>,
    permissions: State<'_, Arc<Consents>>,
    template_id: u32,
) -> Result<Vec<SourceView>, CommandError> {
    let (template, path) = templates.document(template_id)?;
    Ok(permissions.view(&template, path.as_deref(), None))
}

/// Allows the source `name` of the open template, as it is defined now, for its file.
#[tauri::command]
#[specta::specta]
pub async fn allow_source(
    templates: State<'_, Arc<Templates>>,
    permissions: State<'_, Arc<Consents>>,
    template_id: u32,
    name: String,
) -> Result<Vec<SourceView>, CommandError> {
    let (template, path) = templates.document(template_id)?;
    permissions.allow(&template, path.as_deref(), &name)?;
    Ok(permissions.view(&template, path.as_deref(), None))
}

/// Takes back the permission of the source `name` of the open template.
#[tauri::command]
#[specta::specta]
pub async fn revoke_source(
    templates: State<'_, Arc<Templates>>,
    permissions: State<'_, Arc<Consents>>,
    template_id: u32,
    name: String,
) -> Result<Vec<SourceView>, CommandError> {
    let (template, path) = templates.document(template_id)?;
    permissions.revoke(path.as_deref(), &name)?;
    templates.forget_listed(template_id, &name)?;
    Ok(permissions.view(&template, path.as_deref(), None))
}

/// Starts the open template's allowed sources, lists their tools now and shuts them down; the
/// others show their snapshots, saying why.
#[tauri::command]
#[specta::specta]
pub async fn discover_sources(
    templates: State<'_, Arc<Templates>>,
    permissions: State<'_, Arc<Consents>>,
    template_id: u32,
) -> Result<Vec<SourceView>, CommandError> {
    let (template, path) = templates.document(template_id)?;
    let (views, listed) = permissions.discover_listed(&template, path.as_deref()).await;
    // The preview shows what was listed from now on; the UI asks for it again.
    templates.set_listed(template_id, listed)?;
    Ok(views)
}
