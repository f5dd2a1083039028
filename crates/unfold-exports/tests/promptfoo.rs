//! The promptfoo config of the bundled task executor: the prompt, the tools, the defaults and a
//! test per scenario whose assertions follow the scenario's first step.

use serde_json::json;
use unfold_documents::Location;
use unfold_exports::promptfoo::{config, DEFAULT_PROVIDER};
use unfold_test_support::{load_template, scenario};

#[test]
fn each_scenario_becomes_a_test_of_the_models_first_answer() {
    let template = load_template("examples/task-executor.unfold.json");
    let reads = scenario(json!({ "name": "reads", "params": { "objective": "Ship" }, "script": [
        { "calls": [ { "call": "read_section", "args": { "section_key": "context" } },
                     { "call": "lookup", "args": { "id": 1 } },
                     { "call": "lookup", "args": { "id": 2 } } ] },
        { "say": "Done." } ] }));
    let answers = scenario(json!({ "name": "answers", "user": "Hi.", "script": [ { "say": "Hello." } ] }));
    let config = config(&template, &[reads, answers], DEFAULT_PROVIDER).unwrap();

    let messages: serde_json::Value = serde_json::from_str(config["prompts"][0]["raw"].as_str().unwrap()).unwrap();
    let system = messages[0]["content"].as_str().unwrap();
    assert!(system.starts_with("## 1 Task\n\nComplete the following: {{ objective }}\n"), "{system}");
    assert_eq!(messages[1], json!({ "role": "user", "content": "{{ unfold_user }}" }));
    assert_eq!(config["providers"][0]["id"], DEFAULT_PROVIDER);
    let tools: Vec<&str> = config["providers"][0]["config"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| tool["function"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(tools, ["lookup", "read_section"]);
    assert_eq!(config["defaultTest"]["vars"]["objective"], "Refactor the authentication module");

    let tests = config["tests"].as_array().unwrap();
    assert_eq!(tests[0]["description"], "reads");
    assert_eq!(tests[0]["vars"], json!({ "objective": "Ship", "unfold_user": "Go." }));
    assert_eq!(
        tests[0]["assert"],
        json!([{ "type": "is-valid-openai-tools-call" }, { "type": "tool-call-f1", "value": ["read_section", "lookup"] }])
    );
    assert_eq!(tests[1]["vars"], json!({ "unfold_user": "Hi." }));
    assert_eq!(tests[1]["assert"], json!([{ "type": "not-is-valid-openai-tools-call" }]));
}

#[test]
fn a_parameter_named_like_the_user_variable_is_refused_at_its_place() {
    let mut template = load_template("examples/task-executor.unfold.json");
    template.params.insert("unfold_user".into(), "x".into());
    let error = config(&template, &[], DEFAULT_PROVIDER).unwrap_err();
    assert_eq!(error.problems()[0].location, Location::Pointer("/params/unfold_user".into()));
    assert!(error.to_string().contains("rename this parameter"), "{error}");
}
