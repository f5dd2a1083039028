//! The `unfold` binary, run as a user runs it: outputs, exit codes, and one readable error line
//! (never a panic or a backtrace) for every class of bad input.

use std::path::{Path, PathBuf};

use assert_cmd::Command;

fn repo(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").join(path)
}

fn unfold() -> Command {
    let mut command = Command::cargo_bin("unfold").unwrap();
    command.current_dir(repo("."));
    command
}

const EXAMPLE: &str = "examples/task-executor.unfold.json";

struct Outcome {
    code: i32,
    stdout: String,
    stderr: String,
}

fn run(args: &[&str]) -> Outcome {
    let output = unfold().args(args).output().unwrap();
    Outcome {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// Asserts a bad-input failure: exit 2, every stderr line an `error: FILE: ...` line, no panic.
fn assert_bad_input(outcome: &Outcome, file: &Path, expected: &str) {
    assert_eq!(outcome.code, 2, "stderr: {}", outcome.stderr);
    assert!(!outcome.stderr.contains("panicked") && !outcome.stderr.contains("backtrace"), "{}", outcome.stderr);
    let prefix = format!("error: {}: ", file.display());
    for line in outcome.stderr.lines() {
        assert!(line.starts_with(&prefix), "{line:?} should start with {prefix:?}");
    }
    assert!(outcome.stderr.contains(expected), "{:?} should contain {expected:?}", outcome.stderr);
}

#[test]
fn render_prints_the_prompt_exactly() {
    let outcome = run(&["render", EXAMPLE]);
    assert_eq!(outcome.code, 0, "{}", outcome.stderr);
    let readme = std::fs::read_to_string(repo("README.md")).unwrap();
    assert!(outcome.stdout.starts_with("## 1 Task\n\nComplete the following: Refactor the authentication module\n"));
    assert!(readme.contains(&outcome.stdout), "README shows the example's render as it is");
}

#[test]
fn render_json_carries_markdown_tools_and_tokens() {
    let outcome = run(&["render", EXAMPLE, "--json", "--expand", "context", "--param", "project_name=Globex"]);
    assert_eq!(outcome.code, 0, "{}", outcome.stderr);
    let preview: serde_json::Value = serde_json::from_str(&outcome.stdout).unwrap();
    assert!(preview["markdown"].as_str().unwrap().contains("Detailed documentation for Globex:"));
    let names: Vec<&str> =
        preview["tools"].as_array().unwrap().iter().map(|t| t["function"]["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["lookup", "search", "cite", "read_section"]);
    assert_eq!(preview["tools"][0]["type"], "function");
    assert!(preview["prompt_tokens"].as_u64().unwrap() > 100);
}

#[test]
fn render_overrides_disclosure_and_heading() {
    let outcome = run(&["render", EXAMPLE, "--disclosure", "open_sections", "--heading", "keyed"]);
    assert_eq!(outcome.code, 0, "{}", outcome.stderr);
    assert!(outcome.stdout.contains("## 2. Project Context (context)"));
    assert!(outcome.stdout.contains("call `open_sections` with key \"style\""));
}

#[test]
fn render_refuses_unknown_parameters_and_paths() {
    let example = Path::new(EXAMPLE);
    assert_bad_input(&run(&["render", EXAMPLE, "--param", "colour=red"]), example, "unknown parameter 'colour'");
    assert_bad_input(&run(&["render", EXAMPLE, "--param", "colour"]), example, "--param colour: expected NAME=VALUE");
    assert_bad_input(&run(&["render", EXAMPLE, "--expand", "examples"]), example, "Did you mean 'context.examples'?");
}

#[test]
fn compare_prints_both_runs_side_by_side() {
    let outcome = run(&["compare", EXAMPLE, "examples/lookup-first.scenario.json"]);
    assert_eq!(outcome.code, 0, "{}", outcome.stderr);
    let row = |name: &str| {
        let line = outcome.stdout.lines().find(|l| l.starts_with(name)).unwrap_or_else(|| panic!("no {name} row"));
        line.split_whitespace().rev().take(2).collect::<Vec<_>>()
    };
    assert_eq!(row("model calls"), ["5", "4"]);
    assert_eq!(row("restarts"), ["1", "0"]);
    assert!(outcome.stdout.contains("RESTART visibility_expansion context"));
}

#[test]
fn compare_json_is_the_report() {
    let outcome = run(&[
        "compare",
        EXAMPLE,
        "examples/read-context-then-search.scenario.json",
        "--json",
        "--adapters",
        "restart",
    ]);
    assert_eq!(outcome.code, 0, "{}", outcome.stderr);
    let report: serde_json::Value = serde_json::from_str(&outcome.stdout).unwrap();
    assert_eq!(report["kind"], "unfold.comparison");
    assert_eq!(report["template"], "task-executor");
    assert_eq!(report["scenario"], "read-context-then-search");
    assert_eq!(report["runs"].as_array().unwrap().len(), 1);
    assert_eq!(report["runs"][0]["adapter"], "restart");
    assert_eq!(report["runs"][0]["counters"]["restarts"], 1);
    assert_eq!(report["runs"][0]["events"][0]["type"], "run_started");
    assert_eq!(report["runs"][0]["events"][0]["seq"], 0);
}

#[test]
fn validate_lists_every_problem_and_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.unfold.json");
    let text = std::fs::read_to_string(repo(EXAMPLE))
        .unwrap()
        .replace("\"key\": \"style\"", "\"key\": \"task\"")
        .replace("\"name\": \"cite\"", "\"name\": \"lookup\"");
    std::fs::write(&bad, text).unwrap();
    let outcome = run(&["validate", EXAMPLE, bad.to_str().unwrap(), "examples/style-only.scenario.json"]);
    assert_eq!(outcome.code, 1);
    assert!(outcome.stdout.contains("examples/task-executor.unfold.json: ok (unfold.template)"));
    assert!(outcome.stdout.contains("examples/style-only.scenario.json: ok (unfold.scenario)"));
    let bad = bad.display();
    assert_eq!(
        outcome.stderr,
        format!(
            "{bad}: /sections/1/tools/1/name: duplicate tool name 'lookup': /tools/0 has it too\n\
             {bad}: /sections/2/key: duplicate key 'task': /sections/0 has it too\n"
        )
    );
}

/// Every class of bad file, given to every command that reads one.
#[test]
fn bad_files_are_one_line_errors_never_panics() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, bytes: &[u8]| {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        path
    };
    let truncated = std::fs::read(repo(EXAMPLE)).unwrap()[..700].to_vec();
    let deep = format!("{{\"a\": {}{}}}", "[".repeat(5000), "]".repeat(5000));
    let cases: Vec<(PathBuf, &str)> = vec![
        (dir.path().join("missing.json"), "cannot read"),
        (dir.path().to_path_buf(), "cannot read"),
        (write("empty.json", b""), "the file is empty"),
        (write("binary.json", &[0x89, b'P', b'N', b'G', 0, 1, 2, 0xff]), "not UTF-8 JSON text"),
        (write("truncated.json", &truncated), "is the file truncated?"),
        (write("big.json", &vec![b' '; 50 * 1024 * 1024]), "Unfold reads documents up to"),
        (write("deep.json", deep.as_bytes()), "JSON nested deeper than 200 levels"),
        (repo("examples/style-only.scenario.json"), "this is a 'unfold.scenario' document; expected 'unfold.template'"),
        (write("array.json", b"[1, 2]"), "expected a JSON object"),
    ];
    for (path, expected) in &cases {
        let file = path.to_str().unwrap();
        assert_bad_input(&run(&["render", file]), path, expected);
        assert_bad_input(&run(&["compare", file, "examples/style-only.scenario.json"]), path, expected);
        if expected.contains("unfold.scenario") {
            continue; // a valid scenario: only bad where a template is expected
        }
        assert_bad_input(&run(&["compare", EXAMPLE, file]), path, expected);
        let validated = run(&["validate", file]);
        assert!(matches!(validated.code, 1 | 2), "{file}: {}", validated.stderr);
        assert!(validated.stderr.contains(expected) && !validated.stderr.contains("panicked"), "{}", validated.stderr);
    }
}

#[test]
fn a_scenario_that_does_not_fit_the_template_names_the_scenario() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = dir.path().join("s.scenario.json");
    std::fs::write(
        &scenario,
        r#"{"schema_version": 1, "kind": "unfold.scenario", "name": "s", "user": "u",
            "params": {"colour": "red"}, "script": [{"say": "ok"}]}"#,
    )
    .unwrap();
    let outcome = run(&["compare", EXAMPLE, scenario.to_str().unwrap()]);
    assert_bad_input(&outcome, &scenario, "/params/colour: unknown parameter 'colour'");
}

#[test]
fn bad_arguments_exit_2_with_usage() {
    let outcome = run(&["compare", EXAMPLE, "examples/style-only.scenario.json", "--adapters", "sideways"]);
    assert_eq!(outcome.code, 2);
    assert!(outcome.stderr.contains("unknown adapter 'sideways'"), "{}", outcome.stderr);
}

#[test]
fn logs_go_to_stderr_only_when_asked() {
    let output = unfold()
        .args(["compare", EXAMPLE, "examples/style-only.scenario.json", "--json"])
        .env("UNFOLD_LOG", "info")
        .output()
        .unwrap();
    assert!(output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("run completed") && stderr.contains("model_calls=2"), "{stderr}");
    assert!(!stderr.contains('\u{1b}'), "no colour codes when stderr is not a terminal");
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("stdout is only the report");
    assert_eq!(report["kind"], "unfold.comparison");
    let quiet = run(&["compare", EXAMPLE, "examples/style-only.scenario.json"]);
    assert_eq!(quiet.stderr, "");
}
