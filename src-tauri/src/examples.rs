//! The start page's examples: the list, and an example's files written where it opens them.

use tauri::State;
use unfold_application::examples::{ExampleFiles, ExampleView};

use crate::command_error::CommandError;

/// The app's folder the examples are written into (`None` without a home folder).
pub struct ExamplesFolder(pub Option<std::path::PathBuf>);

/// Every built-in example, with its scenarios.
#[tauri::command]
#[specta::specta]
pub async fn example_list() -> Result<Vec<ExampleView>, CommandError> {
    Ok(unfold_application::examples::example_list()?)
}

/// Writes the example whose template file is `template` (and its scenario `scenario`) into the
/// app's examples folder, each file only if it is not there yet, and says where they are.
#[tauri::command]
#[specta::specta]
pub async fn example_files(
    folder: State<'_, ExamplesFolder>,
    template: String,
    scenario: Option<String>,
) -> Result<ExampleFiles, CommandError> {
    Ok(unfold_application::examples::example_files(folder.0.as_deref(), &template, scenario.as_deref())?)
}
