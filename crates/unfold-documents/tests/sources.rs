//! Tool sources in a template (spec 8): their definitions checked at their places, and the template
//! a run sees with each source's discovered tools after its section's written ones, a tool that
//! cannot be taken left out with the reason, never a failure.

use serde_json::{json, Value};
use unfold_documents::discovery::{Discovery, Tier};
use unfold_documents::{Template, Tool};

/// The example template with `sources`.
fn example_with(sources: Value) -> Result<Template, String> {
    let text = std::fs::read_to_string(unfold_test_support::repo("examples/task-executor.unfold.json")).unwrap();
    let mut doc: Value = serde_json::from_str(&text).unwrap();
    doc["sources"] = sources;
    Template::from_json(doc.to_string().as_bytes()).map_err(|e| e.to_string())
}

fn tool(name: &str) -> Value {
    json!({ "name": name, "description": format!("{name} things"), "parameters": { "type": "object" } })
}

fn names(tools: &[Tool]) -> Vec<&str> {
    tools.iter().map(|t| t.name.as_str()).collect()
}

#[test]
fn a_source_definition_is_checked_at_its_place() {
    let problems = example_with(json!([
        { "name": "ide", "section": "context", "mcp": { "command": ["python3", "ide.py"], "env": { "TOKEN": "${env:IDE_TOKEN}" } } },
        { "name": "ide", "section": "nowhere", "relay": { "plugin": "codap" } },
        { "name": "both", "mcp": { "url": "http://127.0.0.1:8931/mcp" }, "relay": { "plugin": "x" } },
        { "name": "neither" },
        { "name": "empty", "mcp": { "command": [""] } },
        { "name": "web", "mcp": { "url": "ftp://host/mcp", "cwd": "." } },
        { "name": "env", "mcp": { "command": ["srv"], "env": { "1BAD": "x", "KEY": "prefix-${env:KEY}", "OK": "${env:9}" } } },
        { "name": "snap", "relay": { "plugin": "p" }, "snapshot": [tool("a"), tool("a"), { "name": "b", "description": "d", "parameters": { "type": "strin" } }] },
        { "name": "bad name!", "mcp": { "command": ["srv"] } }
    ]))
    .unwrap_err();
    insta::assert_snapshot!(problems, @r#"
    /sources/8/name: "bad name!" is not a valid tool name: use 1 to 64 letters, digits, '_' or '-'
    /sources/1/name: duplicate source name 'ide': /sources/0 has it too
    /sources/1/section: no section 'nowhere' in the template
    /sources/2: a source is either "mcp" or "relay": give exactly one
    /sources/3: a source is either "mcp" or "relay": give exactly one
    /sources/4/mcp/command: name the program to run first
    /sources/5/mcp/url: must start with http:// or https://
    /sources/5/mcp: "cwd" and "env" are for a "command", not a "url"
    /sources/6/mcp/env/1BAD: '1BAD' is not a variable name: use letters, digits and _, not starting with a digit
    /sources/6/mcp/env/KEY: a value taken from your environment is a whole "${env:NAME}", with nothing around it
    /sources/6/mcp/env/OK: '9' is not a variable name
    /sources/7/snapshot/1/name: duplicate tool name 'a': /sources/7/snapshot/0 has it too
    /sources/7/snapshot/2/parameters: must describe an object ("type": "object"), not "strin"
    "#);
}

#[test]
fn an_unknown_field_of_a_server_is_named_at_its_place() {
    let problems = example_with(json!([{ "name": "ide", "mcp": { "command": ["srv"], "shell": true, "x-note": 1 } }]))
        .unwrap_err();
    insta::assert_snapshot!(problems, @r#"/sources/0/mcp: unknown field 'shell' (only fields starting with "x-" may be added)"#);
}

#[test]
fn a_template_with_sources_saves_canonically_and_opening_it_starts_nothing() {
    let template = example_with(json!([
        { "name": "ide", "section": "context", "mcp": { "command": ["python3", "ide.py"] }, "snapshot": [tool("grep")] }
    ]))
    .unwrap();
    let saved = template.to_json();
    assert_eq!(Template::from_json(saved.as_bytes()).unwrap(), template);
    assert!(saved.contains("\"sources\": [") && saved.contains("\"section\": \"context\""), "{saved}");
    // No process, no connection: what a source offers unstarted is its snapshot, else nothing.
    let offline = template.offline_discoveries();
    assert_eq!((offline[0].tier, names(&offline[0].tools)), (Tier::Snapshot, vec!["grep"]));
}

#[test]
fn discovered_tools_follow_their_sections_written_tools() {
    let template = example_with(json!([
        { "name": "ide", "section": "context", "mcp": { "command": ["srv"] }, "snapshot": [tool("grep"), tool("search"), tool("read_section"), tool("open")] },
        { "name": "docs", "section": null, "mcp": { "url": "http://127.0.0.1:9/mcp" }, "snapshot": [tool("fetch_doc")] },
        { "name": "plugin", "section": "style", "relay": { "plugin": "codap" } }
    ]))
    .unwrap();
    let (seen, applied) = template.with_discovered(template.offline_discoveries());
    assert_eq!(names(&seen.section("context").unwrap().tools), ["search", "cite", "grep", "open"]);
    assert_eq!(names(&seen.tools), ["lookup", "fetch_doc"]);
    assert!(seen.section("style").unwrap().tools.is_empty());
    let lines: Vec<String> = applied
        .iter()
        .map(|d| format!("{} {:?} {:?}: {}", d.source, d.tier, names(&d.tools), d.error.as_deref().unwrap_or("-")))
        .collect();
    insta::assert_snapshot!(lines.join("\n"), @r#"
    ide Snapshot ["grep", "open"]: left out 'search': the template already has a tool of that name; left out: 'read_section' is a builtin tool's name and is reserved
    docs Snapshot ["fetch_doc"]: -
    plugin None []: not started, and it has no snapshot
    "#);
    // The template as written is unchanged: the discovered tools are the run's, not the file's.
    assert_eq!(names(&template.section("context").unwrap().tools), ["search", "cite"]);
}

#[test]
fn a_live_list_replaces_the_snapshot() {
    let template = example_with(json!([
        { "name": "ide", "section": "context", "mcp": { "command": ["srv"] }, "snapshot": [tool("grep")] }
    ]))
    .unwrap();
    let live: Tool = serde_json::from_value(tool("grep_v2")).unwrap();
    let discovery = Discovery { source: "ide".into(), tier: Tier::Live, tools: vec![live], error: None };
    let (seen, _) = template.with_discovered(vec![discovery]);
    assert_eq!(names(&seen.section("context").unwrap().tools), ["search", "cite", "grep_v2"]);
}
