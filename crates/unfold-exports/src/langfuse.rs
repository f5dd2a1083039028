//! A Langfuse chat prompt (`{name, type: "chat", prompt, config: {tools}, labels, tags}`): the
//! system prompt as a model first sees it and the tools it is offered, in OpenAI's shape. The
//! template's parameters become Langfuse variables (`{{name}}`), their defaults kept in
//! `config.unfold.defaults`, so a team compiles the prompt with its own values.

use serde_json::{json, Value};
use unfold_documents::{Result, Template};

use crate::first_prompt::{qualified_name, FirstPrompt};

/// The Langfuse chat prompt of `template`.
pub fn chat_prompt(template: &Template) -> Result<Value> {
    let prompt = FirstPrompt::of(template)?;
    let system = prompt.write(str::to_string, |name| format!("{{{{{name}}}}}"));
    Ok(json!({
        "name": qualified_name(template),
        "type": "chat",
        "prompt": [{ "role": "system", "content": system }],
        "config": {
            "tools": prompt.tools,
            "unfold": { "template": template.key, "defaults": template.params },
        },
        "labels": [],
        "tags": ["unfold"],
    }))
}
