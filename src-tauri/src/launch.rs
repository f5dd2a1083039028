//! What the app was started with (`unfold-app [TEMPLATE [SCENARIO]]`, or `unfold-app SUITE`), and
//! the commands the UI asks it of at start-up.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use tauri::State;

/// What the app was started with, managed as Tauri state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Launch {
    /// The template to open, made absolute against the working directory at start-up.
    pub template_path: Option<PathBuf>,
    /// The scenario to open beside it in the compare view, made absolute the same way.
    pub scenario_path: Option<PathBuf>,
    /// The suite to open on the Suites page, in place of a template.
    pub suite_path: Option<PathBuf>,
}

impl Launch {
    /// Reads `unfold-app [TEMPLATE [SCENARIO]]` or `unfold-app SUITE` (a `*.suite.json` file) from
    /// the arguments after the program name.
    pub fn from_args(mut args: impl Iterator<Item = OsString>, cwd: &Path) -> Launch {
        let first = args.next().map(|arg| cwd.join(arg));
        if first.as_ref().is_some_and(|path| path.to_string_lossy().ends_with(".suite.json")) {
            return Launch { template_path: None, scenario_path: None, suite_path: first };
        }
        let scenario_path = args.next().map(|arg| cwd.join(arg));
        Launch { template_path: first, scenario_path, suite_path: None }
    }
}

/// The template path the app was started with, if any.
#[tauri::command]
#[specta::specta]
pub fn initial_template_path(launch: State<'_, Launch>) -> Option<String> {
    launch.template_path.as_ref().map(|path| path.to_string_lossy().into_owned())
}

/// The scenario path the app was started with, if any (it opens on the compare view).
#[tauri::command]
#[specta::specta]
pub fn initial_scenario_path(launch: State<'_, Launch>) -> Option<String> {
    launch.scenario_path.as_ref().map(|path| path.to_string_lossy().into_owned())
}

/// The suite path the app was started with, if any (it opens on the Suites page).
#[tauri::command]
#[specta::specta]
pub fn initial_suite_path(launch: State<'_, Launch>) -> Option<String> {
    launch.suite_path.as_ref().map(|path| path.to_string_lossy().into_owned())
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
    fn launch_with_a_suite_opens_the_suite_and_no_template() {
        let args = std::iter::once(OsString::from("examples/regressions.suite.json"));
        let launch = Launch::from_args(args, Path::new("/w"));
        assert_eq!(launch.suite_path, Some(PathBuf::from("/w/examples/regressions.suite.json")));
        assert_eq!(launch.template_path, None);
    }

    #[test]
    fn launch_keeps_an_absolute_template_path() {
        let args = std::iter::once(OsString::from("/t/b.unfold.json"));
        let launch = Launch::from_args(args, Path::new("/w"));
        assert_eq!(launch.template_path, Some(PathBuf::from("/t/b.unfold.json")));
    }
}
