// Every command the app registers, written once. `build.rs` includes this file to generate each
// command's `allow-<command>` permission, `bindings.rs` to register the commands and write their
// TypeScript bindings; a test checks the main window's capability against it. A new command is
// added here, granted in `capabilities/main-window.json` if the UI calls it, and nowhere else.
//
// `with_app_commands!(callback)` calls `callback!` with the commands as `module::function` paths.
macro_rules! with_app_commands {
    ($callback:ident) => {
        $callback! {
            launch::initial_template_path,
            launch::initial_scenario_path,
            launch::initial_suite_path,
            editor::open_document,
            editor::apply_edit,
            editor::edit_and_preview,
            editor::undo,
            editor::redo,
            editor::save_document,
            editor::close_document,
            editor::preview_document,
            editor::template_economics,
            editor::import_tools,
            editor::check_tool,
            editor::recovered_documents,
            editor::restore_document,
            editor::discard_recovered,
            files::new_document,
            examples::example_list,
            examples::example_files,
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
            compare::host_presets,
            real_hosts::real_hosts,
            real_hosts::real_host_question,
            real_hosts::allow_real_host,
            real_hosts::probe_hosts,
            real_hosts::cancel_probe,
            compare::run_comparison,
            compare::cancel_comparison,
            compare::comparison_call,
            compare::export_comparison,
            compare::export_chart,
            compare::add_to_suite,
            compare::export_requests,
            studies::run_study,
            studies::cancel_study,
            forks::fork_run,
            sources::template_sources,
            sources::allow_source,
            sources::revoke_source,
            sources::discover_sources,
            relay::relay_status,
            relay::start_relay,
            relay::stop_relay,
            relay::watch_relay,
            providers::provider_profiles,
            providers::save_provider_profiles,
            providers::priced_models,
            run_history::run_history,
            run_history::history_run,
            run_history::compare_history_runs,
            run_history::export_run_trace,
            suites::open_suite,
            suites::run_suite,
            template_exports::export_template,
            skills::open_skills_folder,
            skills::export_skills,
        }
    };
}

/// The names of the commands, as the UI calls them and as their permissions are named (used by
/// `build.rs` and by the capability test only).
#[allow(unused_macros)]
macro_rules! command_names {
    ($($module:ident :: $command:ident),* $(,)?) => {
        &[$(stringify!($command)),*]
    };
}
