//! A Langfuse chat prompt (`{name, type: "chat", prompt, config: {tools}, labels, tags}`): the
//! system prompt as a model first sees it (summarized sections with their `read_section` lines)
//! and the tools it is offered, in OpenAI's shape. The template's parameters become Langfuse
//! variables (`{{name}}`), their defaults kept in `config.unfold.defaults`, so a team compiles
//! the prompt with its own values.

use indexmap::IndexMap;
use serde_json::{json, Value};
use unfold_documents::{Result, Template};
use unfold_engine::Session;

/// The Langfuse chat prompt of `template`.
pub fn chat_prompt(template: &Template) -> Result<Value> {
    let mut names: Vec<String> = template.params.keys().cloned().collect();
    for used in template.used_params() {
        if !names.contains(&used) {
            names.push(used);
        }
    }
    // Each parameter renders as its Langfuse variable.
    let variables: IndexMap<String, String> =
        names.iter().map(|name| (name.clone(), format!("{{{{{name}}}}}"))).collect();
    let prompt = Session::new(template, variables)?.render()?;
    let tools: Vec<Value> = prompt.tools.iter().map(|tool| tool.to_openai()).collect();
    let name = if template.ns.is_empty() { template.key.clone() } else { format!("{}/{}", template.ns, template.key) };
    Ok(json!({
        "name": name,
        "type": "chat",
        "prompt": [{ "role": "system", "content": prompt.markdown }],
        "config": {
            "tools": tools,
            "unfold": { "template": template.key, "defaults": template.params },
        },
        "labels": [],
        "tags": ["unfold"],
    }))
}
