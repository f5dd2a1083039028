//! What Unfold writes for other tools, read by those tools themselves (installed by
//! `scripts/interop-tools.sh install`): a promptfoo export validated and evaluated by the real
//! promptfoo CLI against a real local model server (fakellm).

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{json, Value};
use unfold_test_support::fakellm::FakeLlm;
use unfold_test_support::interop_tools::promptfoo;
use unfold_test_support::repo;

fn unfold(args: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_unfold"))
        .current_dir(repo("."))
        .args(args)
        .env("UNFOLD_HISTORY", "off")
        .output()
        .unwrap();
    assert!(output.status.success(), "unfold {args:?}: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap()
}

fn write_json(path: &Path, value: &Value) -> PathBuf {
    std::fs::write(path, serde_json::to_string_pretty(value).unwrap()).unwrap();
    path.to_path_buf()
}

fn text(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// The example, with text nunjucks would take for its own syntax in a section's body.
fn template_with_braces(folder: &Path) -> PathBuf {
    let mut template: Value =
        serde_json::from_str(&std::fs::read_to_string(repo("examples/task-executor.unfold.json")).unwrap()).unwrap();
    template["sections"][0]["template"] =
        json!("Complete the following: ${objective}. Keep {{placeholders}}, {% tags %} and {#notes#} as written.");
    write_json(&folder.join("braces.unfold.json"), &template)
}

/// A scenario that looks up two issues at once (fakellm answers "parallel please" so) and sets
/// the objective.
fn parallel_scenario(folder: &Path) -> PathBuf {
    let scenario = json!({
        "schema_version": 1, "kind": "unfold.scenario", "name": "two lookups at once",
        "params": { "objective": "Fix \"login\" and {{sessions}}" },
        "user": "Look up both issues, parallel please.",
        "script": [
            { "calls": [ { "call": "lookup", "args": { "id": 7 } }, { "call": "lookup", "args": { "id": 8 } } ] },
            { "say": "Both looked up." }
        ]
    });
    write_json(&folder.join("parallel.scenario.json"), &scenario)
}

/// The exported config passes `promptfoo validate`, and `promptfoo eval` sends each test's prompt
/// (exactly what `unfold render` shows for its parameters) and tools to a real server: the
/// assertions pass where the model's first answer is the scenario's first step, and fail where it
/// is not.
#[test]
fn promptfoo_validates_and_evaluates_the_export_against_a_real_server() {
    let folder = tempfile::tempdir().unwrap();
    let template = template_with_braces(folder.path());
    let parallel = parallel_scenario(folder.path());
    let config = folder.path().join("promptfooconfig.json");
    unfold(&[
        "export",
        text(&template),
        "--to",
        "promptfoo",
        "--scenario",
        "examples/lookup-first.scenario.json",
        "--scenario",
        "examples/read-context-then-search.scenario.json",
        "--scenario",
        text(&parallel),
        "--provider",
        "openai:chat:fake-model",
        "-o",
        text(&config),
    ]);
    let home = folder.path().join("home");
    std::fs::create_dir(&home).unwrap();

    let validate = promptfoo(&home).args(["validate", "config", "-c", text(&config)]).output().unwrap();
    let said = String::from_utf8_lossy(&validate.stdout);
    assert!(validate.status.success(), "{said}{}", String::from_utf8_lossy(&validate.stderr));
    assert!(said.contains("Configuration is valid."), "{said}");

    let server = FakeLlm::start();
    let results = folder.path().join("results.json");
    let eval = promptfoo(&home)
        .args(["eval", "-c", text(&config), "--no-cache", "--no-write", "--no-progress-bar", "-o", text(&results)])
        .env("OPENAI_BASE_URL", server.openai_base_url())
        .env("OPENAI_API_KEY", "not-a-real-key")
        .output()
        .unwrap();
    let results: Value = match std::fs::read_to_string(&results) {
        Ok(written) => serde_json::from_str(&written).unwrap(),
        Err(_) => panic!("promptfoo eval wrote no results: {}", String::from_utf8_lossy(&eval.stderr)),
    };
    let results = results["results"]["results"].as_array().unwrap();
    assert_eq!(results.len(), 3);
    let by_test = |name: &str| -> &Value {
        results.iter().find(|r| r["testCase"]["description"] == name).unwrap_or_else(|| panic!("no result for {name}"))
    };

    let lookup_first = by_test("lookup-first");
    assert_eq!(lookup_first["success"], true, "{lookup_first:#}");
    assert_eq!(lookup_first["error"], Value::Null);
    let parallel = by_test("two lookups at once");
    assert_eq!(parallel["success"], true, "{parallel:#}");
    // fakellm looks up first: the scenario that reads a section first is not what it did.
    let read_first = by_test("read-context-then-search");
    assert_eq!(read_first["success"], false);
    let failed: Vec<&Value> = read_first["gradingResult"]["componentResults"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["pass"] == false)
        .map(|c| &c["assertion"]["type"])
        .collect();
    assert_eq!(failed, [&json!("tool-call-f1")]);

    // What promptfoo sent is what Unfold renders, braces and quotes included.
    let system_prompt = |result: &Value| -> String {
        let messages: Value = serde_json::from_str(result["prompt"]["raw"].as_str().unwrap()).unwrap();
        assert_eq!(messages[1]["role"], "user");
        messages[0]["content"].as_str().unwrap().to_string()
    };
    assert_eq!(system_prompt(lookup_first), unfold(&["render", text(&template)]));
    let objective = "objective=Fix \"login\" and {{sessions}}";
    assert_eq!(system_prompt(parallel), unfold(&["render", text(&template), "--param", objective]));
}
