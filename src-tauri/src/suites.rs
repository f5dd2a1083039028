//! The Suites page's commands: open a suite file (its cases, every file they name checked) and
//! run it (each case's comparison, with the expectations that did not hold). Each translates into
//! `unfold_application::suites`.

use std::path::PathBuf;

use unfold_application::folders::default_prices_file;
use unfold_application::prices::PriceFile;
use unfold_application::suites::{self, SuiteCaseResult, SuiteCaseView};

use crate::command_error::CommandError;

/// The cases of the suite file `path`.
#[tauri::command]
#[specta::specta]
pub async fn open_suite(path: String) -> Result<Vec<SuiteCaseView>, CommandError> {
    Ok(suites::open_suite(&PathBuf::from(path))?)
}

/// Runs every case of the suite file `path`, priced from the user's prices where a case asks.
#[tauri::command]
#[specta::specta]
pub async fn run_suite(path: String) -> Result<Vec<SuiteCaseResult>, CommandError> {
    // The cases run on threads of their own; this waits for them off the async runtime's threads.
    let results = tauri::async_runtime::spawn_blocking(move || {
        suites::run_suite(&PathBuf::from(path), &PriceFile(default_prices_file()))
    })
    .await?;
    Ok(results?)
}
