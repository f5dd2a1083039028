//! Tools: the canonical tool definition of templates and scenarios, the builtin disclosure tools,
//! and the OpenAI chat tool object a model is offered.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use crate::schema::ParametersProblem;

/// A tool as written in a template (the OpenAI function shape plus metadata).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(extend("additionalProperties" = false, "patternProperties" = { "^x-": true }))]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Tool {
    /// `^[A-Za-z0-9_-]{1,64}$`, unique across the template, builtins included.
    #[schemars(regex(pattern = r"^[A-Za-z0-9_-]{1,64}$"))]
    pub name: String,
    /// What the tool does, as the model reads it.
    pub description: String,
    /// One line, offered instead of `description` in `pick_tools` mode until the tool is picked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub brief: Option<String>,
    /// The JSON Schema of the arguments (must itself be a valid schema).
    #[serde(deserialize_with = "crate::unique_keys::value")]
    #[cfg_attr(feature = "specta", specta(type = crate::json_type::JsonValue))]
    pub parameters: Value,
    /// What the tool does to the world.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<ToolKind>,
    /// Free-form categories.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub categories: Option<Vec<String>>,
    /// Whether a person must allow each call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requires_permission: Option<bool>,
    /// The result of the tool in a scripted run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mock: Option<ScriptedResult>,
    /// `x-` fields, kept as they are.
    #[serde(flatten, deserialize_with = "crate::unique_keys::extensions")]
    #[cfg_attr(feature = "specta", specta(skip))]
    pub extensions: Map<String, Value>,
}

/// What a tool does to the world.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[allow(missing_docs)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum ToolKind {
    Read,
    Edit,
    Execute,
    Other,
}

impl ToolKind {
    /// The kind MCP's tool annotations give (spec 8): `readOnlyHint` → read, else
    /// `destructiveHint` → edit, else other.
    pub fn of_mcp_hints(read_only: Option<bool>, destructive: Option<bool>) -> ToolKind {
        match (read_only, destructive) {
            (Some(true), _) => ToolKind::Read,
            (_, Some(true)) => ToolKind::Edit,
            _ => ToolKind::Other,
        }
    }
}

/// A scripted tool result: `{ "result": <any JSON> }` or `{ "error": "<text>" }`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum ScriptedResult {
    /// The tool succeeds with this value.
    Result(
        #[serde(deserialize_with = "crate::unique_keys::value")]
        #[cfg_attr(feature = "specta", specta(type = crate::json_type::JsonValue))]
        Value,
    ),
    /// The tool fails with this message.
    Error(String),
}

/// The longest tool name.
pub const MAX_TOOL_NAME_LEN: usize = 64;

/// `^[A-Za-z0-9_-]{1,64}$`, the schema's pattern of tool names.
pub fn is_tool_name(name: &str) -> bool {
    (1..=MAX_TOOL_NAME_LEN).contains(&name.len())
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// Why `name` cannot name a tool of a template: not `^[A-Za-z0-9_-]{1,64}$`, or a builtin's name.
pub fn tool_name_problem(name: &str) -> Option<String> {
    if !is_tool_name(name) {
        let mut shown: String = name.chars().take(MAX_TOOL_NAME_LEN + 8).collect();
        if shown.len() < name.len() {
            shown.push('…');
        }
        return Some(format!(
            "'{shown}' is not a valid tool name: use 1 to {MAX_TOOL_NAME_LEN} letters, digits, '_' or '-'"
        ));
    }
    reserved_name_problem(name)
}

/// Why `name` cannot name a tool of a template when it is a builtin's.
pub fn reserved_name_problem(name: &str) -> Option<String> {
    Builtin::from_name(name).map(|_| format!("'{name}' is a builtin tool's name and is reserved"))
}

/// The builtin tools of the disclosure protocols. Their names are reserved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Builtin {
    /// Expand one summarized section (spec 4.1).
    ReadSection,
    /// Expand sections by restarting (spec 4.3).
    OpenSections,
    /// Get the full specifications of tools (spec 4.4).
    PickTools,
}

impl Builtin {
    /// Every builtin.
    pub const ALL: [Builtin; 3] = [Builtin::ReadSection, Builtin::OpenSections, Builtin::PickTools];

    /// The tool name the model calls.
    pub fn name(self) -> &'static str {
        match self {
            Builtin::ReadSection => "read_section",
            Builtin::OpenSections => "open_sections",
            Builtin::PickTools => "pick_tools",
        }
    }

    /// The builtin of this name, if any.
    pub fn from_name(name: &str) -> Option<Builtin> {
        Builtin::ALL.into_iter().find(|b| b.name() == name)
    }

    /// The tool as offered to the model.
    pub fn offered(self) -> OfferedTool {
        let (description, parameters) = match self {
            Builtin::ReadSection => (
                "Read the full content of a summarized section.",
                json!({
                    "type": "object",
                    "properties": {
                        "section_key": { "type": "string", "description": "The key of the section, as given in the prompt." }
                    },
                    "required": ["section_key"],
                    "additionalProperties": false
                }),
            ),
            Builtin::OpenSections => (
                "Expand summarized sections to view their full content.",
                json!({
                    "type": "object",
                    "properties": {
                        "section_keys": { "type": "array", "items": { "type": "string" }, "description": "The keys of the sections, as given in the prompt." },
                        "reason": { "type": "string", "maxLength": 256, "description": "Why these sections are needed." }
                    },
                    "required": ["section_keys", "reason"],
                    "additionalProperties": false
                }),
            ),
            Builtin::PickTools => (
                "Select tools to get their full specifications.",
                json!({
                    "type": "object",
                    "properties": {
                        "tools": { "type": "array", "items": { "type": "string" }, "description": "The names of the tools." }
                    },
                    "required": ["tools"],
                    "additionalProperties": false
                }),
            ),
        };
        OfferedTool { name: self.name().to_owned(), description: description.to_owned(), parameters }
    }
}

/// A tool as it is offered to a model in one request.
#[derive(Debug, Clone, PartialEq)]
pub struct OfferedTool {
    /// The function name.
    pub name: String,
    /// The description the model sees (a brief in `pick_tools` mode until picked).
    pub description: String,
    /// The JSON Schema of the arguments.
    pub parameters: Value,
}

impl OfferedTool {
    /// The tool as an OpenAI chat tool object:
    /// `{"type": "function", "function": {"name", "description", "parameters"}}`.
    pub fn to_openai(&self) -> Value {
        json!({
            "type": "function",
            "function": { "name": self.name, "description": self.description, "parameters": self.parameters }
        })
    }
}

impl Serialize for OfferedTool {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.to_openai().serialize(serializer)
    }
}

/// Checks that a tool's `parameters` is a valid JSON Schema describing an object. `$ref`s to other
/// files or URLs are never fetched, and patterns use a linear-time regex engine.
pub fn check_parameters_schema(parameters: &Value) -> std::result::Result<(), ParametersProblem> {
    let whole = |message: String| ParametersProblem { pointer: String::new(), message };
    let Some(object) = parameters.as_object() else {
        return Err(whole("must be a JSON Schema object, e.g. {\"type\": \"object\", \"properties\": {}}".to_owned()));
    };
    if object.get("type").is_some_and(|t| t != "object") {
        return Err(whole(format!("must describe an object (\"type\": \"object\"), not {}", object["type"])));
    }
    if crate::simple_parameters::certainly_valid(parameters) {
        return Ok(());
    }
    crate::compiled_parameters::compiled(parameters, |schema| {
        crate::schema::tool_parameters_validator(schema).map(drop)
    })
}
