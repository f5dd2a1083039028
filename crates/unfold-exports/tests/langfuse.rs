//! The Langfuse chat prompt of the bundled task executor.

use unfold_exports::langfuse::chat_prompt;
use unfold_test_support::load_template;

#[test]
fn the_prompt_is_the_first_one_a_model_sees_with_parameters_as_langfuse_variables() {
    let template = load_template("examples/task-executor.unfold.json");
    let prompt = chat_prompt(&template).unwrap();
    assert_eq!(prompt["name"], "agents/assistant/task-executor");
    assert_eq!(prompt["type"], "chat");
    let messages = prompt["prompt"].as_array().unwrap();
    assert_eq!(messages.len(), 1);
    assert_eq!(messages[0]["role"], "system");
    let system = messages[0]["content"].as_str().unwrap();
    assert!(system.starts_with("## 1 Task\n\nComplete the following: {{objective}}\n"), "{system}");
    assert!(system.contains("Documentation for {{project_name}} is available."), "{system}");
    assert!(system.contains("`read_section` with key \"context\""), "{system}");
    let tools: Vec<&str> = prompt["config"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| tool["function"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(tools, ["lookup", "read_section"]);
    assert_eq!(prompt["config"]["unfold"]["defaults"]["objective"], "Refactor the authentication module");
    assert_eq!(prompt["tags"], serde_json::json!(["unfold"]));
    assert_eq!(prompt["labels"], serde_json::json!([]));
}
