//! The promptfoo configs of the bundled task executor: the prompt, the tools, the defaults and a
//! test per scenario whose assertions follow the scenario's first step; or, run through Unfold, a
//! provider per lane and assertions on the whole run, with the response Unfold answers them with.

use serde_json::json;
use unfold_documents::Location;
use unfold_engine::RunReport;
use unfold_exports::promptfoo::{config, DEFAULT_PROVIDER};
use unfold_exports::promptfoo_runs::{self, provider_response, ScenarioFile, UnfoldRuns};
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

/// Run through Unfold: a provider per lane that starts `unfold` with the template and the lane,
/// and a test per scenario naming its file, whose assertions check the whole run from the
/// trajectory the provider answers with.
#[test]
fn run_through_unfold_each_lane_is_a_provider_and_each_test_checks_the_trajectory() {
    let template = load_template("examples/task-executor.unfold.json");
    let reads = scenario(json!({ "name": "reads", "params": { "objective": "Ship" }, "script": [
        { "call": "read_section", "args": { "section_key": "context" } },
        { "calls": [ { "call": "lookup", "args": { "id": 1 } }, { "call": "search", "args": { "query": "{{x}}" } } ] },
        { "say": "Done." } ] }));
    let answers = scenario(json!({ "name": "answers", "user": "Hi.", "script": [ { "say": "Hello." } ] }));
    let lanes = ["dynamic".to_owned(), "host:codex".to_owned()];
    let runs = UnfoldRuns {
        unfold: "/opt/my tools/unfold",
        template: "/work/it's \"here\"/t.unfold.json",
        lanes: &lanes,
        profile: Some("openai"),
        profiles: None,
    };
    let files = [
        ScenarioFile { scenario: &reads, path: "/s/reads.json" },
        ScenarioFile { scenario: &answers, path: "/s/a.json" },
    ];
    let config = promptfoo_runs::config(&template, &files, &runs).unwrap();

    assert_eq!(
        config["providers"],
        json!([
            { "id": "file://unfold-promptfoo-provider.mjs", "label": "unfold:dynamic", "config": {
                "unfold": "/opt/my tools/unfold", "template": "/work/it's \"here\"/t.unfold.json",
                "lane": "dynamic", "profile": "openai" } },
            { "id": "file://unfold-promptfoo-provider.mjs", "label": "unfold:host:codex", "config": {
                "unfold": "/opt/my tools/unfold", "template": "/work/it's \"here\"/t.unfold.json",
                "lane": "host:codex", "profile": "openai" } },
        ])
    );
    let messages: serde_json::Value = serde_json::from_str(config["prompts"][0]["raw"].as_str().unwrap()).unwrap();
    assert_eq!(messages[1], json!({ "role": "user", "content": "{{ unfold_user }}" }));
    let tests = config["tests"].as_array().unwrap();
    assert_eq!(
        tests[0]["vars"],
        json!({ "objective": "Ship", "unfold_user": "Go.", "unfold_scenario": "/s/reads.json" })
    );
    let checks: Vec<&str> =
        tests[0]["assert"].as_array().unwrap().iter().map(|a| a["value"].as_str().unwrap()).collect();
    assert!(tests[0]["assert"].as_array().unwrap().iter().all(|a| a["type"] == "javascript"));
    assert_eq!(checks.len(), 3);
    assert!(checks[0].contains(r#"status === "completed""#), "{}", checks[0]);
    assert!(checks[1].starts_with(r#"const expected = ["context"];"#), "{}", checks[1]);
    // The names as the script calls them, in order; braces nunjucks would read are escaped.
    assert!(checks[2].starts_with(r#"const expected = ["read_section","lookup","search"];"#), "{}", checks[2]);
    assert!(!checks.iter().any(|check| check.contains("{{")), "{checks:?}");
    // A scenario that calls nothing is checked for completing only.
    assert_eq!(tests[1]["assert"].as_array().unwrap().len(), 1);
    assert_eq!(tests[1]["vars"]["unfold_scenario"], "/s/a.json");
}

/// What Unfold answers promptfoo's provider: the final answer as the output, the tokens and cost
/// where promptfoo keeps them, and the trajectory in the metadata.
#[test]
fn a_run_answers_promptfoo_with_its_final_answer_and_its_trajectory() {
    let run: RunReport = serde_json::from_value(json!({
        "adapter": "restart", "status": "completed", "final": "Plan.",
        "counters": { "model_calls": 2, "restarts": 1, "tools_injected": 0, "dynamic_expansions": 0, "tool_calls": 2,
                      "failed_tool_calls": 1, "prompt_tokens": 300, "completion_tokens": 20 },
        "events": [
            { "type": "tool_call", "call_index": 1, "call_id": "c1", "name": "read_section",
              "args": { "section_key": "context" }, "success": true, "result": "…", "seq": 0, "attempt": 1 },
            { "type": "visibility_changed", "section_keys": ["context"], "seq": 1, "attempt": 1 },
            { "type": "tool_call", "call_index": 2, "call_id": "c2", "name": "search",
              "args": { "query": "q" }, "success": false, "result": "no", "seq": 2, "attempt": 2 },
            { "type": "visibility_changed", "section_keys": ["context"], "seq": 3, "attempt": 2 },
            { "type": "run_completed", "status": "completed", "final": "Plan.", "seq": 4, "attempt": 2 }
        ]
    }))
    .unwrap();
    let response = provider_response(&run, "restart");
    assert_eq!(
        response,
        json!({
            "output": "Plan.",
            "tokenUsage": { "prompt": 300, "completion": 20, "total": 320, "numRequests": 2 },
            "metadata": {
                "lane": "restart", "status": "completed", "final": "Plan.", "error": null,
                "tool_calls": [
                    { "name": "read_section", "args": { "section_key": "context" }, "success": true, "attempt": 1 },
                    { "name": "search", "args": { "query": "q" }, "success": false, "attempt": 2 },
                ],
                "sections_read": ["context"],
                "counters": run.counters,
                "cost_usd": null,
            },
        })
    );
}
