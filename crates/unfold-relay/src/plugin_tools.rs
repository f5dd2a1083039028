//! The tools a plugin registers or updates, in either shape it may send them: the template's tool
//! (spec 1: `name`, `description`, `parameters`, `kind`, `categories`, `requires_permission`) or
//! MCP's (`inputSchema`, `annotations`). Each is checked like a template's tool; a bad one becomes
//! a [`FailedTool`] that says why, never a tool silently dropped.

use std::collections::HashSet;

use serde::Serialize;
use serde_json::{Map, Value};
use unfold_documents::tool::{check_parameters_schema, tool_name_problem, Tool, ToolKind};

/// A tool the relay refused, as `failedTools` lists it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FailedTool {
    /// The tool's name as sent (empty when it had none).
    pub tool_name: String,
    /// Why, naming the field.
    pub error: String,
    /// Whether sending it again, fixed, would work (always: nothing about a tool is final).
    pub recoverable: bool,
}

/// The tools of `values` that pass, in order, and those that do not, with why. A name sent twice
/// keeps its first tool.
pub fn accept_tools(values: &[Value]) -> (Vec<Tool>, Vec<FailedTool>) {
    let mut accepted: Vec<Tool> = Vec::new();
    let mut failed = Vec::new();
    let mut names = HashSet::new();
    for (index, value) in values.iter().enumerate() {
        match accept_tool(value) {
            Ok(tool) if !names.insert(tool.name.clone()) => failed.push(FailedTool {
                tool_name: tool.name,
                error: format!("tools/{index}/name: sent twice; the first one is kept"),
                recoverable: true,
            }),
            Ok(tool) => accepted.push(tool),
            Err((name, error)) => {
                failed.push(FailedTool { tool_name: name, error: format!("tools/{index}{error}"), recoverable: true })
            }
        }
    }
    (accepted, failed)
}

/// One tool, or its name and why not (the reason starts with the field's pointer).
fn accept_tool(value: &Value) -> Result<Tool, (String, String)> {
    let object = value.as_object().ok_or_else(|| (String::new(), ": a tool is a JSON object".to_owned()))?;
    let name = object.get("name").and_then(Value::as_str).unwrap_or_default().to_owned();
    let refuse = |pointer: &str, why: String| (name.clone(), format!("/{pointer}: {why}"));
    if let Some(problem) = tool_name_problem(&name) {
        return Err(refuse("name", problem));
    }
    let tool = if object.contains_key("inputSchema") { mcp_tool(object) } else { unfold_tool(value) }
        .map_err(|(pointer, why)| refuse(pointer, why))?;
    check_parameters_schema(&tool.parameters).map_err(|problem| {
        let field = if object.contains_key("inputSchema") { "inputSchema" } else { "parameters" };
        refuse(field, problem.to_string())
    })?;
    Ok(tool)
}

/// A tool in the template's shape.
fn unfold_tool(value: &Value) -> Result<Tool, (&'static str, String)> {
    serde_json::from_value::<Tool>(value.clone()).map_err(|e| ("", format!("not a tool: {e}")))
}

/// A tool in MCP's shape: `name`, `description`, `inputSchema`, `annotations` (whose hints give
/// its kind), and the relay's own `kind`, `categories` and `requires_permission` when sent.
fn mcp_tool(object: &Map<String, Value>) -> Result<Tool, (&'static str, String)> {
    let description = match object.get("description") {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(text)) => text.clone(),
        Some(_) => return Err(("description", "must be a string".to_owned())),
    };
    let hints = object.get("annotations").and_then(Value::as_object);
    let hint = |key: &str| hints.and_then(|h| h.get(key)).and_then(Value::as_bool);
    let kind = match object.get("kind") {
        Some(kind) => serde_json::from_value(kind.clone())
            .map_err(|_| ("kind", "must be one of read, edit, execute, other".to_owned()))?,
        None => ToolKind::of_mcp_hints(hint("readOnlyHint"), hint("destructiveHint")),
    };
    let categories = match object.get("categories") {
        None => None,
        Some(value) => Some(
            serde_json::from_value(value.clone())
                .map_err(|_| ("categories", "must be a list of strings".to_owned()))?,
        ),
    };
    let requires_permission = match object.get("requires_permission") {
        None => None,
        Some(Value::Bool(asks)) => Some(*asks),
        Some(_) => return Err(("requires_permission", "must be true or false".to_owned())),
    };
    Ok(Tool {
        name: object.get("name").and_then(Value::as_str).unwrap_or_default().to_owned(),
        description,
        brief: None,
        parameters: object.get("inputSchema").cloned().unwrap_or(Value::Null),
        kind: Some(kind),
        categories,
        requires_permission,
        mock: None,
        extensions: Map::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn both_shapes_are_taken_and_every_bad_tool_says_why() {
        let (tools, failed) = accept_tools(&[
            json!({ "name": "getData", "description": "Read a dataset.", "parameters": { "type": "object" },
                    "kind": "read", "categories": ["data"] }),
            json!({ "name": "deleteCase", "inputSchema": { "type": "object" },
                    "annotations": { "destructiveHint": true }, "requires_permission": true }),
            json!({ "name": "has space", "inputSchema": { "type": "object" } }),
            json!({ "name": "broken", "inputSchema": { "type": "strin" } }),
            json!({ "name": "read_section", "parameters": { "type": "object" }, "description": "" }),
            json!({ "name": "getData", "description": "Again.", "parameters": { "type": "object" } }),
            json!("not a tool"),
        ]);
        let names: Vec<(&str, Option<ToolKind>)> = tools.iter().map(|t| (t.name.as_str(), t.kind)).collect();
        assert_eq!(names, [("getData", Some(ToolKind::Read)), ("deleteCase", Some(ToolKind::Edit))]);
        assert_eq!(tools[0].categories, Some(vec!["data".to_owned()]));
        assert_eq!(tools[1].requires_permission, Some(true));
        let reasons: Vec<(&str, &str)> = failed.iter().map(|f| (f.tool_name.as_str(), f.error.as_str())).collect();
        assert_eq!(reasons.len(), 5, "{reasons:?}");
        assert!(reasons[0].1.starts_with("tools/2/name: 'has space' is not a valid tool name"), "{reasons:?}");
        assert!(reasons[1].1.starts_with("tools/3/inputSchema: "), "{reasons:?}");
        assert_eq!(
            reasons[2],
            ("read_section", "tools/4/name: 'read_section' is a builtin tool's name and is reserved")
        );
        assert_eq!(reasons[3], ("getData", "tools/5/name: sent twice; the first one is kept"));
        assert_eq!(reasons[4], ("", "tools/6: a tool is a JSON object"));
        assert!(failed.iter().all(|f| f.recoverable));
    }
}
