//! A promptfoo config whose provider runs each scenario's whole conversation through Unfold
//! (spec 11), so that promptfoo's assertions see the final answer and the tool trajectory, not
//! only the model's first answer; and the provider response Unfold prints for one run
//! (`unfold compare … --promptfoo`).
//!
//! The provider is a small JavaScript file written beside the config ([`PROVIDER_FILE`]), the
//! same for every config: what differs (the `unfold` program, the template, the lane, a live
//! profile) is in the config's JSON. promptfoo's `exec:` provider was the other way: it keeps a
//! command's stdout as the output text alone, so the trajectory could not be `metadata`, and it
//! splits its command line on spaces and quotes, which some paths cannot be written in.

use serde_json::{json, Map, Value};
use unfold_documents::scenario::{ScriptedCall, Step};
use unfold_documents::{Result, Scenario, Template};
use unfold_engine::{EventKind, RunReport};

use crate::first_prompt::{qualified_name, FirstPrompt};
use crate::promptfoo::{escape_nunjucks, prompts, test_vars};

/// The provider's file name, beside the config (promptfoo resolves it from the config's folder).
pub const PROVIDER_FILE: &str = "unfold-promptfoo-provider.mjs";

/// The provider's source.
pub const PROVIDER_SCRIPT: &str = include_str!("promptfoo_provider.mjs");

/// The test variable naming the scenario file the provider runs.
pub const SCENARIO_VARIABLE: &str = "unfold_scenario";

/// How the exported provider runs Unfold.
#[derive(Debug, Clone, Copy)]
pub struct UnfoldRuns<'a> {
    /// The `unfold` program the provider starts.
    pub unfold: &'a str,
    /// The template file, as the provider passes it to `unfold`.
    pub template: &'a str,
    /// The lanes, a provider each, in order.
    pub lanes: &'a [String],
    /// The provider profile whose real model answers; none: the scenario's script.
    pub profile: Option<&'a str>,
    /// The file that profile is in; none: where Unfold looks by default.
    pub profiles: Option<&'a str>,
}

/// A scenario to export as a test, with its file as the provider passes it to `unfold`.
#[derive(Debug, Clone, Copy)]
pub struct ScenarioFile<'a> {
    /// The scenario.
    pub scenario: &'a Scenario,
    /// Its file.
    pub path: &'a str,
}

/// The promptfoo config of `template` run through Unfold: a provider per lane of `runs`, a test
/// per scenario whose assertions check the whole run (it completed, read the sections and called
/// the tools the scenario does). The prompt is the template's first, for promptfoo to show.
pub fn config(template: &Template, scenarios: &[ScenarioFile<'_>], runs: &UnfoldRuns<'_>) -> Result<Value> {
    let prompt = FirstPrompt::of(template)?;
    Ok(json!({
        "$schema": "https://promptfoo.dev/config-schema.json",
        "description": format!("Unfold template {} run through Unfold", qualified_name(template)),
        "prompts": prompts(template, &prompt)?,
        "providers": runs.lanes.iter().map(|lane| provider(runs, lane)).collect::<Vec<Value>>(),
        "defaultTest": { "vars": template.params },
        "tests": scenarios.iter().map(test).collect::<Vec<Value>>(),
    }))
}

/// The provider of one lane.
fn provider(runs: &UnfoldRuns<'_>, lane: &str) -> Value {
    let mut config = Map::new();
    config.insert("unfold".into(), runs.unfold.into());
    config.insert("template".into(), runs.template.into());
    config.insert("lane".into(), lane.into());
    if let Some(profile) = runs.profile {
        config.insert("profile".into(), profile.into());
    }
    if let Some(profiles) = runs.profiles {
        config.insert("profiles".into(), profiles.into());
    }
    json!({ "id": format!("file://{PROVIDER_FILE}"), "label": format!("unfold:{lane}"), "config": config })
}

/// The test of one scenario.
fn test(file: &ScenarioFile<'_>) -> Value {
    let mut vars = test_vars(file.scenario);
    vars.insert(SCENARIO_VARIABLE.into(), file.path.into());
    json!({ "description": file.scenario.name, "vars": vars, "assert": assertions(file.scenario) })
}

/// What every run of `scenario` must have done: completed; read each section the script reads;
/// called the script's tools in its order (other calls may come between, as a restart's or a
/// live model's do).
fn assertions(scenario: &Scenario) -> Vec<Value> {
    let calls = scripted_calls(scenario);
    let sections: Vec<&Value> = calls
        .iter()
        .filter(|call| call.call == "read_section")
        .filter_map(|call| call.args.get("section_key"))
        .collect();
    let tools: Vec<&str> = calls.iter().map(|call| call.call.as_str()).collect();
    let mut assert = vec![javascript(COMPLETED)];
    if !sections.is_empty() {
        assert.push(javascript(&SECTIONS_READ.replace("EXPECTED", &json!(sections).to_string())));
    }
    if !tools.is_empty() {
        assert.push(javascript(&TOOLS_IN_ORDER.replace("EXPECTED", &json!(tools).to_string())));
    }
    assert
}

/// Every call the scenario's script makes, over its turns, in order.
fn scripted_calls(scenario: &Scenario) -> Vec<&ScriptedCall> {
    let mut calls = Vec::new();
    for turn in scenario.conversation_turns() {
        for step in turn.script {
            match step {
                Step::Call(call) => calls.push(call),
                Step::Calls { calls: parallel } => calls.extend(parallel),
                Step::Say { .. } => {}
            }
        }
    }
    calls
}

/// A `javascript` assertion running `body` (promptfoo renders an assertion's value with nunjucks
/// first: the body is escaped, so a name holding `{{` stays as written).
fn javascript(body: &str) -> Value {
    json!({ "type": "javascript", "value": escape_nunjucks(body) })
}

const COMPLETED: &str = r#"const status = context.metadata.status;
return { pass: status === "completed", score: status === "completed" ? 1 : 0, reason: "the run ended " + status };"#;

const SECTIONS_READ: &str = r#"const expected = EXPECTED;
const read = context.metadata.sections_read;
const missing = expected.filter((key) => !read.includes(key));
const pass = missing.length === 0;
return { pass, score: pass ? 1 : 0, reason: pass ? "read " + expected.join(", ") : "never read " + missing.join(", ") + " (read: " + (read.join(", ") || "nothing") + ")" };"#;

const TOOLS_IN_ORDER: &str = r#"const expected = EXPECTED;
const called = context.metadata.tool_calls.map((call) => call.name);
let found = 0;
for (const name of called) if (found < expected.length && name === expected[found]) found += 1;
const pass = found === expected.length;
return { pass, score: pass ? 1 : 0, reason: (pass ? "called " : "expected calls to ") + expected.join(", ") + " in order; called " + (called.join(", ") || "nothing") };"#;

/// What promptfoo's provider is answered for `run` (its lane's name `lane`): the final answer as
/// `output` (empty when there is none), the tokens and cost, and in `metadata` the lane, status,
/// tool calls in order (name, arguments, success, attempt), sections read, counters and cost.
pub fn provider_response(run: &RunReport, lane: &str) -> Value {
    let counters = &run.counters;
    let cost = run.cost.as_ref().map(|cost| cost.total);
    let mut response = json!({
        "output": run.final_text.as_deref().unwrap_or_default(),
        "tokenUsage": {
            "prompt": counters.prompt_tokens,
            "completion": counters.completion_tokens,
            "total": counters.prompt_tokens + counters.completion_tokens,
            "numRequests": counters.model_calls,
        },
        "metadata": {
            "lane": lane,
            "status": run.status.name(),
            "final": run.final_text,
            "error": run_error(run),
            "tool_calls": tool_calls(run),
            "sections_read": sections_read(run),
            "counters": counters,
            "cost_usd": cost,
        },
    });
    if let Some(cost) = cost {
        response["cost"] = cost.into();
    }
    response
}

/// Every tool call answered, in order.
fn tool_calls(run: &RunReport) -> Vec<Value> {
    let calls = run.events.iter().filter_map(|event| match &event.kind {
        EventKind::ToolCall { name, args, success, .. } => {
            Some(json!({ "name": name, "args": args, "success": success, "attempt": event.attempt }))
        }
        _ => None,
    });
    calls.collect()
}

/// The sections made FULL in the run, each once, in the order they first were.
fn sections_read(run: &RunReport) -> Vec<&str> {
    let mut read: Vec<&str> = Vec::new();
    for event in &run.events {
        if let EventKind::VisibilityChanged { section_keys } = &event.kind {
            for key in section_keys {
                if !read.contains(&key.as_str()) {
                    read.push(key);
                }
            }
        }
    }
    read
}

/// What went wrong, when the run ended in an error.
fn run_error(run: &RunReport) -> Option<&str> {
    run.events.iter().rev().find_map(|event| match &event.kind {
        EventKind::RunCompleted { error, .. } => error.as_deref(),
        _ => None,
    })
}
