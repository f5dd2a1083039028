//! The application layer's integration tests: each use case as the CLI and the app call it, over
//! real files in temporary folders, with no window (one binary, a module per area).

mod chart_images;
mod comparisons;
mod consents;
mod probed_profiles;
mod profiles;
mod recent;
mod relay;
mod scenarios;
mod skills;
mod studies;
mod suite_cases;
mod suites;
mod templates;

/// A copy of the example template in `dir`, to edit and save.
pub fn example_copy(dir: &tempfile::TempDir) -> String {
    let path = dir.path().join("task.unfold.json");
    std::fs::copy(unfold_test_support::repo("examples/task-executor.unfold.json"), &path).expect("copy the example");
    path.to_string_lossy().into_owned()
}

/// A file of the repository's examples.
pub fn example(name: &str) -> String {
    unfold_test_support::repo(&format!("examples/{name}")).to_string_lossy().into_owned()
}
