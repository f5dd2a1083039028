//! Unfold's desktop app: opens one window over the UI in `ui/dist` and answers its commands by
//! calling `unfold-application`. Usage: `unfold-app [TEMPLATE [SCENARIO]]` (with a scenario, the
//! app opens on the compare view); `unfold-app mcp serve …` is the MCP server of a host the app
//! started (`real_hosts`).
//!
//! Everything the app does lives in the application layer; this crate only translates: each
//! command takes its state and arguments, makes one application call and maps the error
//! (`command_error`). The commands are listed once, in `command_list.rs`.

// No console window on Windows release builds.
#![cfg_attr(all(not(debug_assertions), target_os = "windows"), windows_subsystem = "windows")]

#[macro_use]
mod command_list;

mod backend_recordings;
mod bindings;
mod command_error;
mod compare;
mod editor;
mod examples;
mod files;
mod forks;
mod launch;
mod logging;
mod providers;
mod real_hosts;
mod relay;
mod run_history;
mod skills;
mod sources;
mod studies;
mod suites;
mod template_exports;
mod webview_renderer;

use std::sync::Arc;

use tauri::Manager;
use unfold_application::comparisons::{ComparisonContext, Comparisons};
use unfold_application::consents::Consents;
use unfold_application::folders::{default_prices_file, default_profiles_file, Folders};
use unfold_application::prices::PriceFile;
use unfold_application::profiles::Profiles;
use unfold_application::recent::Recent;
use unfold_application::recovery::{keep_for_recovery, Recovery};
use unfold_application::relay::RelayService;
use unfold_application::run_history::OpenRunHistory;
use unfold_application::running_studies::RunningStudies;
use unfold_application::scenarios::Scenarios;
use unfold_application::templates::Templates;

use crate::launch::Launch;

/// Each keystroke renders and counts the preview again, building and dropping JSON trees; mimalloc
/// takes a fifth off that work against the system allocator, as in the CLI.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    if let Some(status) = real_hosts::serve_when_asked(&args) {
        std::process::exit(status);
    }
    let renderer = webview_renderer::choose_for_this_machine();
    let cwd = std::env::current_dir().unwrap_or_default();
    let launch = Launch::from_args(args.into_iter(), &cwd);

    let specta = bindings::specta_builder();
    let templates = Arc::new(Templates::default());
    let scenarios = Arc::new(Scenarios::default());
    let result = tauri::Builder::default()
        .plugin(tauri_plugin_dialog::init())
        .manage(launch)
        .manage(Arc::clone(&templates))
        .manage(Arc::clone(&scenarios))
        .manage(files::CloseApproved::default())
        .invoke_handler(specta.invoke_handler())
        .on_window_event(on_window_event)
        .setup(move |app| {
            let log_dir = app.path().app_log_dir().ok();
            if let Err(error) = tracing::subscriber::set_global_default(logging::subscriber(log_dir.as_deref())) {
                eprintln!("unfold-app: logging is off: {error}");
            }
            let launch = app.state::<Launch>();
            tracing::info!(template = ?launch.template_path, scenario = ?launch.scenario_path, logs = ?log_dir, ?renderer, "starting");
            let folders = Folders { data: app.path().app_data_dir().ok(), config: app.path().app_config_dir().ok() };
            let recovery = Recovery::open(folders.recovery_folder());
            if let Some(store) = recovery.0.clone() {
                let (templates, scenarios) = (Arc::clone(&templates), Arc::clone(&scenarios));
                keep_for_recovery(store, move |store, now_ms| {
                    templates.flush_recovery(store, now_ms);
                    scenarios.flush_recovery(store, now_ms);
                });
            }
            app.manage(recovery);
            app.manage(files::RecentTemplates(Recent::at(folders.recent_templates_file())));
            app.manage(compare::RecentScenarios(Recent::at(folders.recent_scenarios_file())));
            app.manage(examples::ExamplesFolder(folders.examples_folder()));
            let profiles = Arc::new(Profiles(default_profiles_file()));
            let consents = Arc::new(Consents::at(folders.consents_file()));
            let relay = Arc::new(RelayService::default());
            let history = Arc::new(OpenRunHistory::open(folders.history_file()));
            let host_lab = Arc::new(real_hosts::lab(folders.consents_file()));
            app.manage(Arc::new(Comparisons::new(ComparisonContext {
                templates: Arc::clone(&templates),
                scenarios: Arc::clone(&scenarios),
                profiles: Arc::clone(&profiles),
                // Where the command line reads them too.
                prices: PriceFile(default_prices_file()),
                consents: Some(Arc::clone(&consents)),
                relay: Some(Arc::clone(&relay)),
                history: Arc::clone(&history),
                host_lab: Some(Arc::clone(&host_lab)),
            })));
            app.manage(Arc::new(RunningStudies::new(folders.data.clone())));
            app.manage(host_lab);
            app.manage(real_hosts::ProbeCancel::default());
            app.manage(profiles);
            app.manage(consents);
            app.manage(relay);
            app.manage(history);
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
            let templates = window.state::<Arc<Templates>>();
            let scenarios = window.state::<Arc<Scenarios>>();
            if files::close_needs_answer(&templates, &scenarios, &window.state::<files::CloseApproved>()) {
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
