//! Build script: lets tauri-build read tauri.conf.json and the capabilities, embed the icons, and
//! generate `allow-<command>` permissions for the app's own commands so that each window gets only
//! the commands its capability grants (without an app manifest every window may call every command).

fn main() {
    let manifest = tauri_build::AppManifest::new().commands(&[
        "initial_template_path",
        "initial_scenario_path",
        "open_document",
        "apply_edit",
        "undo",
        "redo",
        "save_document",
        "close_document",
        "preview_document",
        "import_tools",
        "check_tool",
        "recovered_documents",
        "restore_document",
        "discard_recovered",
        "new_document",
        "open_example",
        "choose_file",
        "recent_files",
        "forget_recent_file",
        "close_window",
        "choose_tool_list",
        "new_scenario",
        "open_scenario",
        "edit_scenario",
        "step_scenario",
        "save_scenario",
        "close_scenario",
        "restore_scenario",
        "recent_scenarios",
        "run_comparison",
        "cancel_comparison",
        "comparison_call",
        "export_comparison",
        "export_requests",
        "provider_profiles",
        "save_provider_profiles",
        "run_history",
        "history_run",
        "compare_history_runs",
    ]);
    tauri_build::try_build(tauri_build::Attributes::new().app_manifest(manifest))
        .expect("tauri-build: invalid tauri.conf.json, capabilities or icons");
}
