//! A promptfoo config (spec 11): the template's first prompt as a chat prompt (the system prompt,
//! then the user's message), the tools it offers in the provider's config, in OpenAI's shape, and
//! a test per scenario whose assertions check the model's first answer against the scenario's first
//! step: the tools it calls (`is-valid-openai-tools-call`, `tool-call-f1`), or no tool call when it
//! answers at once. Parameters are nunjucks variables, with the template's defaults in
//! `defaultTest` and each scenario's own values in its test; the rest of the text is escaped, so
//! braces in a prompt reach the model as they are.

use serde_json::{json, Map, Value};
use unfold_documents::scenario::Step;
use unfold_documents::{Error, Result, Scenario, Template};

use crate::first_prompt::{qualified_name, FirstPrompt};

/// The provider a config names when the user names none: a current OpenAI chat model.
pub const DEFAULT_PROVIDER: &str = "openai:chat:gpt-4.1-mini";

/// The variable that holds the user's message.
pub const USER_VARIABLE: &str = "unfold_user";

/// The promptfoo config of `template`, with a test per scenario, run against `provider` (a
/// promptfoo provider id).
pub fn config(template: &Template, scenarios: &[Scenario], provider: &str) -> Result<Value> {
    let prompt = FirstPrompt::of(template)?;
    Ok(json!({
        "$schema": "https://promptfoo.dev/config-schema.json",
        "description": format!("Unfold template {}", qualified_name(template)),
        "prompts": prompts(template, &prompt)?,
        "providers": [{ "id": provider, "config": { "tools": prompt.tools } }],
        "defaultTest": { "vars": template.params },
        "tests": scenarios.iter().map(test).collect::<Vec<Value>>(),
    }))
}

/// The config's one prompt: `prompt` as a chat prompt, the system prompt then the user's message,
/// parameters as nunjucks variables and the rest escaped. Refused when a parameter takes the
/// user's variable's name.
pub(crate) fn prompts(template: &Template, prompt: &FirstPrompt) -> Result<Value> {
    if prompt.parameters.iter().any(|name| name == USER_VARIABLE) {
        return Err(Error::problem(
            format!("/params/{USER_VARIABLE}"),
            format!("promptfoo: the export names the user's message '{USER_VARIABLE}': rename this parameter"),
        ));
    }
    let system = prompt.write(escape_nunjucks, |name| format!("{{{{ {name} }}}}"));
    let messages = json!([
        { "role": "system", "content": system },
        { "role": "user", "content": format!("{{{{ {USER_VARIABLE} }}}}") },
    ]);
    let name = qualified_name(template);
    Ok(json!([{ "id": format!("unfold:{name}"), "label": name, "raw": messages.to_string() }]))
}

/// The variables of `scenario`'s test: its parameters and its first user message.
pub(crate) fn test_vars(scenario: &Scenario) -> Map<String, Value> {
    let mut vars: Map<String, Value> =
        scenario.params.iter().map(|(name, value)| (name.clone(), Value::from(value.as_str()))).collect();
    vars.insert(USER_VARIABLE.to_string(), Value::from(scenario.first_user()));
    vars
}

/// The test of one scenario.
fn test(scenario: &Scenario) -> Value {
    let turns = scenario.conversation_turns();
    let assert = turns.first().and_then(|turn| turn.script.first()).map_or_else(|| json!([]), first_step_assertions);
    json!({ "description": scenario.name, "vars": test_vars(scenario), "assert": assert })
}

/// What the model's first answer must be for the scenario's first step.
fn first_step_assertions(step: &Step) -> Value {
    let calls = match step {
        Step::Call(call) => vec![call],
        Step::Calls { calls } => calls.iter().collect(),
        Step::Say { .. } => return json!([{ "type": "not-is-valid-openai-tools-call" }]),
    };
    let mut names: Vec<&str> = Vec::new();
    for call in calls {
        if !names.contains(&call.call.as_str()) {
            names.push(&call.call);
        }
    }
    json!([
        { "type": "is-valid-openai-tools-call" },
        { "type": "tool-call-f1", "value": names },
    ])
}

/// `text` as nunjucks renders it back: every `{` that would open a tag, a variable or a comment,
/// and every `#` that would close a comment (nunjucks rejects one outside a comment), is written
/// as a string expression: `{{ '{' }}`.
pub(crate) fn escape_nunjucks(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let next = chars.peek().copied();
        let opens = c == '{' && matches!(next, Some('{' | '%' | '#'));
        let closes_comment = c == '#' && next == Some('}');
        if opens || closes_comment {
            out.push_str("{{ '");
            out.push(c);
            out.push_str("' }}");
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_what_opens_nunjucks_syntax_or_closes_a_comment_is_escaped() {
        assert_eq!(escape_nunjucks("a {b} #1 100% }}"), "a {b} #1 100% }}");
        assert_eq!(escape_nunjucks("{{c}} {%d%}"), "{{ '{' }}{c}} {{ '{' }}%d%}");
        assert_eq!(escape_nunjucks("{#e#} {{{"), "{{ '{' }}#e{{ '#' }}} {{ '{' }}{{ '{' }}{");
    }
}
