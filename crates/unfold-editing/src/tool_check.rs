//! Checking one tool as the tool editor holds it: JSON text that may not be a tool yet, meant for a
//! place in a template's tool lists. Every problem comes with its place in the tool (a JSON pointer
//! within it, or a line and column while the text is not JSON), found by the very checks a loaded
//! template gets (its schema, a builtin's name, a `parameters` that is a valid object schema) plus
//! the uniqueness of the name among the template's other tools.

use serde_json::{json, Value};

use crate::template_edit::ToolOwner;
use unfold_documents::document::{self, DocumentKind};
use unfold_documents::error::{Error, Location, Problem, Result};
use unfold_documents::template::Template;
use unfold_documents::tool::check_parameters_schema;
use unfold_documents::tool::{reserved_name_problem, Tool};

/// Where the tool sits in the document a check wraps it in, to run a template's checks on it alone.
const WRAPPED_AT: &str = "/tools/0";

/// Every problem of the tool whose JSON text is `text`, meant for position `index` of `owner`'s
/// tools (`None`: a tool not in that list yet). Text that is not JSON is one problem at its line and
/// column. Errs only when `owner` or `index` names no place in the template.
pub fn tool_text_problems(
    template: &Template,
    owner: &ToolOwner,
    index: Option<u32>,
    text: &str,
) -> Result<Vec<Problem>> {
    check_place(template, owner, index)?;
    match document::parse_json(text.as_bytes()) {
        Ok(tool) => tool_problems(template, owner, index, &tool),
        Err(error) => Ok(error.problems().to_vec()),
    }
}

/// Every problem of `tool` (JSON that may not be a tool at all), meant for position `index` of
/// `owner`'s tools (`None`: a tool not in that list yet), each at its JSON pointer within the tool.
/// Errs only when `owner` or `index` names no place in the template.
pub fn tool_problems(template: &Template, owner: &ToolOwner, index: Option<u32>, tool: &Value) -> Result<Vec<Problem>> {
    check_place(template, owner, index)?;
    let mut problems = own_problems(tool);
    if let Some(name) = tool.get("name").and_then(Value::as_str) {
        let edited = index.map(|i| (owner, i as usize));
        problems.extend(name_conflict(template, edited, name).map(|message| Problem::at("/name", message)));
    }
    Ok(problems)
}

/// The problems of the tool on its own: the template schema's verdict on it, then the checks a
/// template makes of each tool beyond its schema (these run even when the schema finds problems, so
/// one pass reports everything to fix).
fn own_problems(tool: &Value) -> Vec<Problem> {
    let kind = DocumentKind::Template.tag();
    let alone = json!({ "schema_version": document::SCHEMA_VERSION, "kind": kind, "key": "tool", "tools": [tool] });
    let mut problems: Vec<Problem> = Template::schema().problems(&alone).iter().map(within_tool).collect();
    if let Some(message) = tool.get("name").and_then(Value::as_str).and_then(reserved_name_problem) {
        problems.push(Problem::at("/name", message));
    }
    if let Some(Err(problem)) = tool.get("parameters").map(check_parameters_schema) {
        problems.push(problem.at("/parameters"));
    }
    problems
}

/// A problem of the wrapping template as a problem of its tool.
fn within_tool(problem: &Problem) -> Problem {
    let location = match &problem.location {
        Location::Pointer(pointer) => match pointer.strip_prefix(WRAPPED_AT) {
            Some(rest) if rest.is_empty() || rest.starts_with('/') => Location::Pointer(rest.to_owned()),
            _ => problem.location.clone(),
        },
        other => other.clone(),
    };
    Problem { location, message: problem.message.clone() }
}

/// Why `name` is taken by another tool of the template than the one at `edited`, if it is.
fn name_conflict(template: &Template, edited: Option<(&ToolOwner, usize)>, name: &str) -> Option<String> {
    // `section`: the path of the section whose tools these are; `None` for the template's own.
    let is_edited = |section: Option<&str>, i: usize| match edited {
        Some((ToolOwner::Template, at)) => section.is_none() && at == i,
        Some((ToolOwner::Section { path }, at)) => section == Some(path.as_str()) && at == i,
        None => false,
    };
    let clash = |section: Option<&str>, tools: &[Tool]| {
        tools.iter().enumerate().any(|(i, tool)| tool.name == name && !is_edited(section, i))
    };
    if clash(None, &template.tools) {
        return Some(format!("the template already has a tool named '{name}' (among its own tools)"));
    }
    let mut holder = None;
    template.walk(&mut |path, section| {
        if holder.is_none() && clash(Some(path), &section.tools) {
            holder = Some(path.to_owned());
        }
    });
    holder.map(|path| format!("the template already has a tool named '{name}' (in section '{path}')"))
}

/// Refuses an owner or a position that is not in the template.
fn check_place(template: &Template, owner: &ToolOwner, index: Option<u32>) -> Result<()> {
    let tools = match owner {
        ToolOwner::Template => &template.tools,
        ToolOwner::Section { path } => match template.section(path) {
            Some(section) => &section.tools,
            None => return Err(Error::problem("", format!("no section has the path '{path}'"))),
        },
    };
    match index {
        Some(i) if i as usize >= tools.len() => Err(Error::problem("", format!("no tool at position {i}"))),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn template() -> Template {
        let tool = |name: &str| json!({ "name": name, "description": "d", "parameters": { "type": "object" } });
        let document = json!({
            "schema_version": 1, "kind": "unfold.template", "key": "t",
            "tools": [tool("lookup")],
            "sections": [
                { "key": "a", "title": "A", "tools": [tool("search"), tool("cite")],
                  "children": [{ "key": "b", "title": "B", "tools": [tool("deep")] }] }
            ]
        });
        Template::from_json(document.to_string().as_bytes()).expect("a valid template")
    }

    fn section(path: &str) -> ToolOwner {
        ToolOwner::Section { path: path.to_owned() }
    }

    /// The problems of `tool` at `index` of `owner`, one `pointer: message` line each.
    fn report(owner: &ToolOwner, index: Option<u32>, tool: Value) -> String {
        let problems = tool_problems(&template(), owner, index, &tool).expect("a place in the template");
        problems.iter().map(|p| format!("{}: {}", p.location, p.message)).collect::<Vec<_>>().join("\n")
    }

    fn tool(name: &str, parameters: Value) -> Value {
        json!({ "name": name, "description": "d", "parameters": parameters })
    }

    #[test]
    fn a_valid_tool_has_no_problems() {
        let full = json!({
            "name": "fetch", "description": "Fetch a page.", "brief": "Fetch", "kind": "read",
            "categories": ["web"], "requires_permission": true, "x-owner": "me",
            "parameters": { "type": "object", "properties": { "url": { "type": "string", "format": "uri" } },
                            "required": ["url"] },
            "mock": { "result": { "status": 200 } }
        });
        assert_eq!(report(&section("a.b"), None, full), "");
        assert_eq!(report(&ToolOwner::Template, None, tool("e", json!({ "type": "object" }))), "");
    }

    #[test]
    fn the_name_must_be_free_apart_from_the_tool_being_edited() {
        let object = json!({ "type": "object" });
        assert_eq!(report(&section("a"), Some(0), tool("search", object.clone())), "", "its own name");
        assert_eq!(
            report(&section("a"), Some(1), tool("lookup", object.clone())),
            "/name: the template already has a tool named 'lookup' (among its own tools)"
        );
        assert_eq!(
            report(&ToolOwner::Template, Some(0), tool("deep", object.clone())),
            "/name: the template already has a tool named 'deep' (in section 'a.b')"
        );
        assert_eq!(
            report(&section("a"), None, tool("search", object.clone())),
            "/name: the template already has a tool named 'search' (in section 'a')",
            "a new tool"
        );
        assert_eq!(
            report(&section("a.b"), Some(0), tool("search", object)),
            "/name: the template already has a tool named 'search' (in section 'a')",
            "same index, other list"
        );
    }

    #[test]
    fn names_follow_the_pattern_and_builtins_are_reserved() {
        let object = json!({ "type": "object" });
        insta::assert_snapshot!(report(&ToolOwner::Template, None, tool("my tool", object.clone())), @r#"/name: "my tool" is not a valid tool name: use 1 to 64 letters, digits, '_' or '-'"#);
        insta::assert_snapshot!(report(&ToolOwner::Template, None, tool("read_section", object)), @"/name: 'read_section' is a builtin tool's name and is reserved");
    }

    #[test]
    fn parameters_must_be_a_valid_object_schema() {
        let parameters = |schema: Value| report(&ToolOwner::Template, None, tool("t", schema));
        insta::assert_snapshot!(parameters(json!({ "type": "object", "required": "q" })), @r#"/parameters/required: not a valid JSON Schema: "q" is not of type "array""#);
        insta::assert_snapshot!(parameters(json!({ "type": "object", "properties": { "n": { "minimum": "0" } } })), @r#"/parameters/properties/n/minimum: not a valid JSON Schema: "0" is not of type "number""#);
        insta::assert_snapshot!(parameters(json!({ "type": "string" })), @r#"/parameters: must describe an object ("type": "object"), not "string""#);
        insta::assert_snapshot!(parameters(json!([])), @r#"/parameters: must be a JSON Schema object, e.g. {"type": "object", "properties": {}}"#);
        let fetched = json!({ "type": "object", "properties": { "q": { "$ref": "https://example.com/s.json" } } });
        assert!(parameters(fetched).starts_with("/parameters: not a valid JSON Schema"), "nothing is fetched");
    }

    #[test]
    fn every_field_is_checked_at_once() {
        let bad = json!({
            "name": "search", "parameters": { "type": "object", "required": 1 }, "kind": "write",
            "categories": "web", "requires_permission": "yes", "mock": { "answer": 1 }, "extra": true
        });
        insta::assert_snapshot!(report(&ToolOwner::Template, None, bad), @r#"
        : missing required field "description"
        /kind: "write" matches none of the allowed forms
        /categories: "web" is not of types "null", "array"
        /requires_permission: "yes" is not of types "null", "boolean"
        /mock: {"answer":1} matches none of the allowed forms
        : unknown field 'extra' (only fields starting with "x-" may be added)
        /parameters/required: not a valid JSON Schema: 1 is not of type "array"
        /name: the template already has a tool named 'search' (in section 'a')
        "#);
    }

    #[test]
    fn text_that_is_not_json_is_located_by_line_and_column() {
        let check = |text: &str| {
            let problems = tool_text_problems(&template(), &ToolOwner::Template, None, text).unwrap();
            problems.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n")
        };
        insta::assert_snapshot!(check("{\"name\": \"x\",\n  \"description\": }"), @"line 2, column 18: invalid JSON: expected value");
        insta::assert_snapshot!(check(""), @"the file is empty; expected a JSON object");
        insta::assert_snapshot!(check("[1]"), @r#"[1] is not of type "object""#);
        assert_eq!(check(&tool("ok", json!({ "type": "object" })).to_string()), "");
    }

    #[test]
    fn an_unknown_place_is_an_error() {
        let t = tool("x", json!({ "type": "object" }));
        let error = |owner: &ToolOwner, index| tool_problems(&template(), owner, index, &t).unwrap_err().to_string();
        assert_eq!(error(&section("nope"), None), "no section has the path 'nope'");
        assert_eq!(error(&section("a"), Some(2)), "no tool at position 2");
        assert_eq!(error(&ToolOwner::Template, Some(1)), "no tool at position 1");
    }
}
