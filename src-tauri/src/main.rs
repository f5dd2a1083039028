//! Unfold's desktop app: opens one window over the UI in `ui/dist` and answers its commands by
//! calling `unfold-core`. Usage: `unfold-app [TEMPLATE [SCENARIO]]` (with a scenario, the app opens
//! on the compare view).
//!
//! Everything the app does lives in the core; this crate only translates (see `commands`).

// No console window on Windows release builds.
#![cfg_attr(all(not(debug_assertions), target_os = "windows"), windows_subsystem = "windows")]

mod bindings;
mod commands;
mod compare;
mod editor;
mod files;
mod live;
mod logging;

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use tauri::Manager;

/// What the app was started with, managed as Tauri state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Launch {
    /// The template to open, made absolute against the working directory at start-up.
    pub template_path: Option<PathBuf>,
    /// The scenario to open beside it in the compare view, made absolute the same way.
    pub scenario_path: Option<PathBuf>,
}

impl Launch {
    /// Reads `unfold-app [TEMPLATE [SCENARIO]]` from the arguments after the program name.
    pub fn from_args(mut args: impl Iterator<Item = OsString>, cwd: &Path) -> Launch {
        let template_path = args.next().map(|arg| cwd.join(arg));
        let scenario_path = args.next().map(|arg| cwd.join(arg));
        Launch { template_path, scenario_path }
    }
}

fn main() {
    let cwd = std::env::current_dir().unwrap_or_default();
    let launch = Launch::from_args(std::env::args_os().skip(1), &cwd);

    let specta = bindings::specta_builder();
    let editor = std::sync::Arc::new(editor::Editor::default());
    let result = tauri::Builder::default()
        .plugin(tauri_plugin_dialog::init())
        .manage(launch)
        .manage(std::sync::Arc::clone(&editor))
        .manage(std::sync::Arc::new(compare::Scenarios::default()))
        .manage(std::sync::Arc::new(compare::Comparisons::default()))
        .manage(files::CloseApproved::default())
        .invoke_handler(specta.invoke_handler())
        .on_window_event(on_window_event)
        .setup(move |app| {
            let log_dir = app.path().app_log_dir().ok();
            if let Err(error) = tracing::subscriber::set_global_default(logging::subscriber(log_dir.as_deref())) {
                eprintln!("unfold-app: logging is off: {error}");
            }
            let launch = app.state::<Launch>();
            tracing::info!(template = ?launch.template_path, scenario = ?launch.scenario_path, logs = ?log_dir, "starting");
            app.manage(editor::Recovery(open_recovery_store(app)));
            let recent = |name: &str| {
                let file = app.path().app_config_dir().ok().map(|dir| dir.join(name));
                files::Recent(file.map(unfold_stores::recent::RecentFiles::at))
            };
            app.manage(recent("recent-files.json"));
            app.manage(compare::RecentScenarios(recent("recent-scenarios.json")));
            app.manage(std::sync::Arc::new(live::Profiles(unfold_live::ProviderProfiles::default_path())));
            app.manage(std::sync::Arc::new(live::History(std::sync::Mutex::new(open_run_history(app)))));
            if let Some(store) = app.state::<editor::Recovery>().0.clone() {
                let scenarios = std::sync::Arc::clone(&app.state::<std::sync::Arc<compare::Scenarios>>());
                editor::keep_for_recovery(std::sync::Arc::clone(&editor), scenarios, store);
            }
            specta.mount_events(app);
            Ok(())
        })
        .run(tauri::generate_context!());
    if let Err(error) = result {
        tracing::error!(%error, "the app failed");
        eprintln!("unfold-app: {error}");
        std::process::exit(1);
    }
}

/// Keeps the window open while a document has unsaved changes until the UI has asked the user
/// (`files::CloseRequested`), and hands dropped files to the UI to open.
fn on_window_event(window: &tauri::Window, event: &tauri::WindowEvent) {
    use tauri_specta::Event;
    match event {
        tauri::WindowEvent::CloseRequested { api, .. } => {
            let editor = window.state::<std::sync::Arc<editor::Editor>>();
            let scenarios = window.state::<std::sync::Arc<compare::Scenarios>>();
            if files::close_needs_answer(&editor, &scenarios, &window.state::<files::CloseApproved>()) {
                api.prevent_close();
                if let Err(error) = files::CloseRequested.emit(window) {
                    tracing::error!(%error, "cannot ask the UI about unsaved changes");
                }
            }
        }
        tauri::WindowEvent::DragDrop(tauri::DragDropEvent::Drop { paths, .. }) => {
            let paths = paths.iter().map(|p| p.to_string_lossy().into_owned()).collect();
            if let Err(error) = (files::FilesDropped { paths }).emit(window) {
                tracing::error!(%error, "cannot hand dropped files to the UI");
            }
        }
        _ => {}
    }
}

/// The run history in the app's data folder (shared with `unfold`), or `None` (logged) when it
/// cannot be opened: runs still run, they are not kept.
fn open_run_history(app: &tauri::App) -> Option<unfold_stores::run_history::RunHistory> {
    let path = match std::env::var_os("UNFOLD_HISTORY").filter(|v| !v.is_empty()) {
        Some(value) if value == "off" => return None,
        Some(value) => PathBuf::from(value),
        None => app.path().app_data_dir().ok()?.join("history.sqlite3"),
    };
    match unfold_stores::run_history::RunHistory::open(&path) {
        Ok(history) => Some(history),
        Err(error) => {
            tracing::error!(%error, "the run history cannot be opened; runs will not be kept");
            None
        }
    }
}

/// The recovery store in the app's data folder, or `None` (logged) when it cannot be made.
fn open_recovery_store(app: &tauri::App) -> Option<unfold_stores::recovery::RecoveryStore> {
    let dir = app.path().app_data_dir().map(|dir| dir.join("recovery"));
    match dir
        .map_err(|e| e.to_string())
        .and_then(|dir| unfold_stores::recovery::RecoveryStore::open(&dir).map_err(|e| e.to_string()))
    {
        Ok(store) => Some(store),
        Err(error) => {
            tracing::error!(%error, "unsaved work cannot be kept for recovery");
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn launch_without_arguments_opens_nothing() {
        assert_eq!(Launch::from_args(std::iter::empty(), Path::new("/w")).template_path, None);
    }

    #[test]
    fn launch_resolves_a_relative_template_and_scenario_against_the_working_directory() {
        let args = ["examples/a.unfold.json", "s.scenario.json", "ignored"].map(OsString::from).into_iter();
        let launch = Launch::from_args(args, Path::new("/w"));
        assert_eq!(launch.template_path, Some(PathBuf::from("/w/examples/a.unfold.json")));
        assert_eq!(launch.scenario_path, Some(PathBuf::from("/w/s.scenario.json")));
    }

    #[test]
    fn launch_keeps_an_absolute_template_path() {
        let args = std::iter::once(OsString::from("/t/b.unfold.json"));
        let launch = Launch::from_args(args, Path::new("/w"));
        assert_eq!(launch.template_path, Some(PathBuf::from("/t/b.unfold.json")));
    }
}
