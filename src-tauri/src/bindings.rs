//! The one tauri-specta builder: registers the commands at start-up and generates
//! `ui/src/bindings.ts` in a test that fails when the committed file is stale.

use tauri_specta::{collect_commands, collect_events, Builder};

use crate::{commands, compare, editor, files, live};

/// The commands and events the UI can use. `main` and the bindings test share it.
pub fn specta_builder() -> Builder<tauri::Wry> {
    Builder::<tauri::Wry>::new().events(collect_events![files::CloseRequested, files::FilesDropped]).commands(
        collect_commands![
            commands::initial_template_path,
            commands::initial_scenario_path,
            editor::open_document,
            editor::apply_edit,
            editor::undo,
            editor::redo,
            editor::save_document,
            editor::close_document,
            editor::preview_document,
            editor::import_tools,
            editor::check_tool,
            editor::recovered_documents,
            editor::restore_document,
            editor::discard_recovered,
            files::new_document,
            files::open_example,
            files::choose_file,
            files::recent_files,
            files::forget_recent_file,
            files::close_window,
            files::choose_tool_list,
            compare::new_scenario,
            compare::open_scenario,
            compare::edit_scenario,
            compare::step_scenario,
            compare::save_scenario,
            compare::close_scenario,
            compare::restore_scenario,
            compare::recent_scenarios,
            compare::run_comparison,
            compare::cancel_comparison,
            compare::comparison_call,
            compare::export_comparison,
            compare::export_requests,
            live::provider_profiles,
            live::save_provider_profiles,
            live::run_history,
            live::history_run,
            live::compare_history_runs,
        ],
    )
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use specta_typescript::Typescript;

    use super::*;

    const HEADER: &str = "// Owns the typed IPC surface between ui/ and src-tauri; only ui/src/platform/ imports it.\n\
         // Regenerate with `UNFOLD_BLESS=1 cargo test -p unfold-app bindings`.";

    /// Regenerates the bindings; fails if `ui/src/bindings.ts` differs, or rewrites it with
    /// `UNFOLD_BLESS=1`.
    #[test]
    fn bindings_are_up_to_date() {
        let committed_path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../ui/src/bindings.ts");
        let dir = tempfile::tempdir().expect("temp dir");
        let fresh_path = dir.path().join("bindings.ts");
        specta_builder()
            .export(Typescript::default().header(HEADER), &fresh_path)
            .expect("export the TypeScript bindings");
        let fresh = std::fs::read_to_string(&fresh_path).expect("read the fresh bindings");

        if std::env::var_os("UNFOLD_BLESS").is_some_and(|v| v == "1") {
            std::fs::write(&committed_path, &fresh).expect("write ui/src/bindings.ts");
            return;
        }
        let committed = std::fs::read_to_string(&committed_path).unwrap_or_default();
        assert!(
            committed == fresh,
            "ui/src/bindings.ts is stale: run `UNFOLD_BLESS=1 cargo test -p unfold-app bindings` \
             and commit the result\n--- fresh bindings ---\n{fresh}"
        );
    }
}
