//! Importing tools that a user pastes or opens (the `tools` of an OpenAI Chat Completions, OpenAI
//! Responses or Anthropic Messages request) into Unfold's canonical [`Tool`], with every problem
//! reported at its JSON pointer into the pasted text.
//!
//! The format is detected from the JSON itself; the user never has to say which API the tools come
//! from. What is accepted:
//!
//! - an array of tools of one format, a single tool object, or a whole request body (an object
//!   with a `tools` array and no tool fields of its own, as copied from a request log);
//! - OpenAI Chat Completions: `{"type": "function", "function": {"name", "description",
//!   "parameters", "strict"}}`;
//! - OpenAI Responses: `{"type": "function", "name", "description", "parameters", "strict"}`;
//! - Anthropic Messages: `{"name", "description", "input_schema", "cache_control"}` (`"type":
//!   "custom"` allowed).
//!
//! A missing description becomes `""`, missing parameters `{"type": "object", "properties": {}}`
//! (`null` counts as missing for both). Fields Unfold does not model (`strict`, `cache_control`,
//! and any other) are kept as `x-` fields of the tool (`x-strict`, `x-cache_control`; a field
//! already starting with `x-` keeps its name), so nothing pasted is lost and an export can give
//! them back. Provider tools that are not functions (`web_search`, `code_interpreter`, Anthropic's
//! `bash_20250124`…) cannot be imported: each is a problem naming its type.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use unfold_documents::document;
use unfold_documents::error::{Problem, Result};
use unfold_documents::template::{self, Template};
use unfold_documents::tool::{tool_name_problem, Builtin, Tool};

/// The API format a set of imported tools was written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ToolFormat {
    /// OpenAI Chat Completions: `{"type": "function", "function": {"name", …}}`.
    OpenAiChat,
    /// OpenAI Responses: `{"type": "function", "name", …}`.
    OpenAiResponses,
    /// Anthropic Messages: `{"name", "description", "input_schema"}`.
    Anthropic,
}

impl ToolFormat {
    /// The format's name as a person reads it (`OpenAI Chat Completions`).
    pub fn label(self) -> &'static str {
        match self {
            ToolFormat::OpenAiChat => "OpenAI Chat Completions",
            ToolFormat::OpenAiResponses => "OpenAI Responses",
            ToolFormat::Anthropic => "Anthropic Messages",
        }
    }
}

impl std::fmt::Display for ToolFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.label())
    }
}

/// Tools imported from pasted text, in the order they were pasted.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ImportedTools {
    /// The format the text was detected to be in.
    pub format: ToolFormat,
    /// The tools in Unfold's canonical form.
    pub tools: Vec<Tool>,
}

/// What the import accepts, for the messages about an entry of another shape.
const ACCEPTED_SHAPES: &str = "expected an OpenAI Chat Completions tool {\"type\": \"function\", \"function\": \
     {\"name\", \"description\", \"parameters\"}}, an OpenAI Responses tool {\"type\": \"function\", \"name\", \
     \"description\", \"parameters\"} or an Anthropic tool {\"name\", \"description\", \"input_schema\"}";

/// The text of a tool list file chosen to import from: size-limited like every document, and
/// UTF-8; errors name the file.
pub fn read_tool_list(path: &std::path::Path) -> Result<String> {
    let bytes = document::read_document_bytes(path)?;
    String::from_utf8(bytes).map_err(|e| {
        unfold_documents::Error::problem(
            "",
            format!("not UTF-8 text (byte {} is not valid)", e.utf8_error().valid_up_to()),
        )
        .in_file(path)
    })
}

/// Imports the tools in `text` (an array of tools, a single tool or a request body with `tools`),
/// detecting their format. Every problem is reported, each at its JSON pointer into `text`; no
/// tool is returned unless all of them import.
pub fn import_tools(text: &str) -> Result<ImportedTools> {
    let value = document::parse_json(text.as_bytes())?;
    let mut import = Import::default();
    match &value {
        Value::Array(entries) => import.entries(entries, ""),
        Value::Object(object) if !looks_like_a_tool(object) && object.contains_key("tools") => match &object["tools"] {
            Value::Array(entries) => import.entries(entries, "/tools"),
            other => import.problem("/tools", format!("expected an array of tools, found {}", type_name(other))),
        },
        Value::Object(_) => import.entry(&value, String::new()),
        other => {
            import.problem("", format!("expected a tools array or a single tool object, found {}", type_name(other)))
        }
    }
    match import.format {
        Some((format, _)) if import.problems.is_empty() => Ok(ImportedTools { format, tools: import.tools }),
        _ => Err(unfold_documents::Error::invalid(import.problems)),
    }
}

/// The imported tools whose names the template already uses (its own tools, its sections' tools
/// and the reserved builtin names), in import order, each once: what the editor asks about before
/// adding them.
pub fn conflicts(template: &Template, tools: &[Tool]) -> Vec<String> {
    let existing = template::tool_name_set(template);
    let mut found: Vec<String> = Vec::new();
    for tool in tools {
        let name = tool.name.as_str();
        let taken = existing.contains(name) || Builtin::from_name(name).is_some();
        if taken && !found.iter().any(|f| f == name) {
            found.push(name.to_owned());
        }
    }
    found
}

/// Whether an object has any field of a tool of the accepted shapes (so it is not a request body).
fn looks_like_a_tool(object: &Map<String, Value>) -> bool {
    ["type", "name", "function", "input_schema"].iter().any(|field| object.contains_key(*field))
}

/// The state of one import: what was found so far.
#[derive(Default)]
struct Import {
    /// The format, with the pointer of the entry that set it.
    format: Option<(ToolFormat, String)>,
    tools: Vec<Tool>,
    /// Pointer of the name of each tool imported so far, by name.
    names: HashMap<String, String>,
    problems: Vec<Problem>,
}

/// The fields a shape reads from one object, and where that object is.
struct Fields<'v> {
    object: &'v Map<String, Value>,
    pointer: String,
    /// Fields consumed by the shape itself (not kept as `x-` fields).
    consumed: &'static [&'static str],
}

impl Import {
    fn problem(&mut self, pointer: impl Into<String>, message: impl Into<String>) {
        self.problems.push(Problem::at(pointer, message));
    }

    fn entries(&mut self, entries: &[Value], base: &str) {
        if entries.is_empty() {
            let place = if base.is_empty() { "the array" } else { "\"tools\"" };
            self.problem(base, format!("{place} is empty; there are no tools to import"));
        }
        for (i, entry) in entries.iter().enumerate() {
            self.entry(entry, format!("{base}/{i}"));
        }
    }

    /// Detects the shape of one entry and imports it.
    fn entry(&mut self, entry: &Value, pointer: String) {
        let Value::Object(object) = entry else {
            self.problem(pointer, format!("found {}; {ACCEPTED_SHAPES}", type_name(entry)));
            return;
        };
        let Some(shape) = self.shape(object, &pointer) else { return };
        self.detected(shape, &pointer);
        let fields = match shape {
            ToolFormat::OpenAiChat => match &object["function"] {
                Value::Object(function) => vec![
                    Fields { object, pointer: pointer.clone(), consumed: &["type", "function"] },
                    Fields {
                        object: function,
                        pointer: format!("{pointer}/function"),
                        consumed: &["name", "description", "parameters"],
                    },
                ],
                other => {
                    self.problem(
                        format!("{pointer}/function"),
                        format!(
                            "expected an object with the function's name, description and parameters, found {}",
                            type_name(other)
                        ),
                    );
                    return;
                }
            },
            ToolFormat::OpenAiResponses => {
                vec![Fields { object, pointer, consumed: &["type", "name", "description", "parameters"] }]
            }
            ToolFormat::Anthropic => {
                vec![Fields { object, pointer, consumed: &["type", "name", "description", "input_schema"] }]
            }
        };
        let schema_field = if shape == ToolFormat::Anthropic { "input_schema" } else { "parameters" };
        if let Some(tool) = self.tool(&fields, schema_field) {
            self.tools.push(tool);
        }
    }

    /// The shape of a tool object, or `None` after reporting why it is none of the accepted ones.
    fn shape(&mut self, object: &Map<String, Value>, pointer: &str) -> Option<ToolFormat> {
        let kind = object.get("type");
        match kind {
            Some(Value::String(t)) if t == "function" => {
                if object.contains_key("function") {
                    Some(ToolFormat::OpenAiChat)
                } else if object.contains_key("name") {
                    Some(ToolFormat::OpenAiResponses)
                } else {
                    self.problem(
                        pointer,
                        format!("a function tool without \"function\" or \"name\"; {ACCEPTED_SHAPES}"),
                    );
                    None
                }
            }
            // Anthropic's custom tools may say so; OpenAI's custom tools have a grammar instead.
            Some(Value::String(t)) if t == "custom" && object.contains_key("input_schema") => {
                Some(ToolFormat::Anthropic)
            }
            Some(Value::String(t)) => {
                self.problem(
                    format!("{pointer}/type"),
                    format!(
                        "'{t}' tools cannot be imported: they are run by the provider, not described by a JSON \
                         Schema; only function tools can"
                    ),
                );
                None
            }
            Some(other) => {
                let found = type_name(other);
                self.problem(format!("{pointer}/type"), format!("expected \"function\", found {found}"));
                None
            }
            None if object.contains_key("input_schema") => Some(ToolFormat::Anthropic),
            None if object.contains_key("function") || object.contains_key("parameters") => {
                self.problem(pointer, "missing \"type\": \"function\"");
                None
            }
            None => {
                self.problem(pointer, format!("not a tool of a known shape; {ACCEPTED_SHAPES}"));
                None
            }
        }
    }

    /// Records the format of one entry; an entry of another format than the first is a problem.
    fn detected(&mut self, shape: ToolFormat, pointer: &str) {
        match &self.format {
            None => self.format = Some((shape, pointer.to_owned())),
            Some((format, _)) if *format == shape => {}
            Some((format, first)) => {
                let message = format!(
                    "an {} tool, but {} is an {} tool; import tools of one format at a time",
                    shape.label(),
                    if first.is_empty() { "the first entry" } else { first },
                    format.label()
                );
                self.problem(pointer, message);
            }
        }
    }

    /// Builds the canonical tool from the objects of one entry: the name, description and schema
    /// from the last one, every other field kept as an `x-` field.
    fn tool(&mut self, fields: &[Fields<'_>], schema_field: &str) -> Option<Tool> {
        let main = fields.last()?;
        let name = self.name(main);
        let description = match main.object.get("description") {
            None | Some(Value::Null) => Some(String::new()),
            Some(Value::String(d)) => Some(d.clone()),
            Some(other) => {
                let message = format!("the description must be a string, found {}", type_name(other));
                self.problem(format!("{}/description", main.pointer), message);
                None
            }
        };
        let parameters = match main.object.get(schema_field) {
            None | Some(Value::Null) => Some(json!({ "type": "object", "properties": {} })),
            Some(schema) => match unfold_documents::tool::check_parameters_schema(schema) {
                Ok(()) => Some(schema.clone()),
                Err(problem) => {
                    let place = problem.at(&format!("{}/{schema_field}", main.pointer));
                    self.problem(place.location.to_string(), place.message);
                    None
                }
            },
        };
        let mut extensions = Map::new();
        for part in fields {
            for (field, value) in part.object {
                if part.consumed.contains(&field.as_str()) {
                    continue;
                }
                let kept = if field.starts_with("x-") { field.clone() } else { format!("x-{field}") };
                extensions.entry(kept).or_insert_with(|| value.clone());
            }
        }
        Some(Tool {
            name: name?,
            description: description?,
            brief: None,
            parameters: parameters?,
            kind: None,
            categories: None,
            requires_permission: None,
            mock: None,
            extensions,
        })
    }

    /// The tool's name, after checking it is valid, not reserved and not imported twice.
    fn name(&mut self, fields: &Fields<'_>) -> Option<String> {
        let pointer = format!("{}/name", fields.pointer);
        let name = match fields.object.get("name") {
            None => {
                self.problem(&fields.pointer, "missing required field \"name\"");
                return None;
            }
            Some(Value::String(name)) => name,
            Some(other) => {
                self.problem(pointer, format!("the name must be a string, found {}", type_name(other)));
                return None;
            }
        };
        let problem = if name.is_empty() {
            Some("the name is empty".to_owned())
        } else {
            tool_name_problem(name).or_else(|| {
                self.names.get(name).map(|first| format!("duplicate tool name '{name}': {first} has it too"))
            })
        };
        if let Some(message) = problem {
            self.problem(pointer, message);
            return None;
        }
        self.names.insert(name.clone(), pointer);
        Some(name.clone())
    }
}

/// A JSON value's type, with its article, for messages (`a string`).
fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn a_tool_list_file_is_read_as_text_and_a_binary_one_is_refused_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let list = dir.path().join("tools.json");
        std::fs::write(&list, r#"[{"name": "w", "description": "d", "input_schema": {"type": "object"}}]"#).unwrap();
        let text = super::read_tool_list(&list).expect("reads");
        assert_eq!(super::import_tools(&text).unwrap().tools[0].name, "w");
        let binary = dir.path().join("tools.bin");
        std::fs::write(&binary, [b'[', 0xff, b']']).unwrap();
        let error = super::read_tool_list(&binary).expect_err("not text").to_string();
        assert!(error.contains("tools.bin") && error.contains("not UTF-8"), "{error}");
        let missing = super::read_tool_list(&dir.path().join("gone.json")).expect_err("missing").to_string();
        assert!(missing.contains("gone.json"), "{missing}");
    }
    use super::*;

    /// The import of `text` in a few lines: the format and one compact JSON line per tool, or the
    /// error, one `pointer: message` line per problem.
    fn import(text: &str) -> String {
        match import_tools(text) {
            Ok(imported) => {
                let mut out = format!("{:?}", imported.format);
                for tool in &imported.tools {
                    out.push('\n');
                    out.push_str(&serde_json::to_string(tool).unwrap());
                }
                out
            }
            Err(e) => format!("error:\n{e}"),
        }
    }

    fn check(text: &str, expected: &str) {
        assert_eq!(import(text), expected, "importing {text}");
    }

    /// A weather tool as each API's documentation writes it.
    const WEATHER_SCHEMA: &str = r#"{"type":"object","properties":{"location":{"type":"string","description":"City and country e.g. Bogotá, Colombia"}},"required":["location"],"additionalProperties":false}"#;

    fn weather_chat(name: &str) -> String {
        format!(
            r#"{{"type":"function","function":{{"name":"{name}","description":"Get current temperature for a given location.","parameters":{WEATHER_SCHEMA},"strict":true}}}}"#
        )
    }

    #[test]
    fn imports_openai_chat_completions_tools() {
        insta::assert_snapshot!(import(&format!("[{}]", weather_chat("get_weather"))), @r#"
        OpenAiChat
        {"name":"get_weather","description":"Get current temperature for a given location.","parameters":{"type":"object","properties":{"location":{"type":"string","description":"City and country e.g. Bogotá, Colombia"}},"required":["location"],"additionalProperties":false},"x-strict":true}
        "#);
        check(
            r#"[{"type":"function","function":{"name":"list_files"}},
                {"type":"function","function":{"name":"read-file","description":"Read a file.","parameters":{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}}}]"#,
            r#"OpenAiChat
{"name":"list_files","description":"","parameters":{"type":"object","properties":{}}}
{"name":"read-file","description":"Read a file.","parameters":{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}}"#,
        );
    }

    #[test]
    fn imports_openai_responses_tools() {
        check(
            &format!(
                r#"[{{"type":"function","name":"get_weather","description":"Get current temperature for a given location.","parameters":{WEATHER_SCHEMA},"strict":true}}]"#
            ),
            &format!(
                r#"OpenAiResponses
{{"name":"get_weather","description":"Get current temperature for a given location.","parameters":{WEATHER_SCHEMA},"x-strict":true}}"#
            ),
        );
        check(
            r#"[{"type":"function","name":"ping","description":null,"parameters":null,"strict":false}]"#,
            r#"OpenAiResponses
{"name":"ping","description":"","parameters":{"type":"object","properties":{}},"x-strict":false}"#,
        );
    }

    #[test]
    fn imports_anthropic_tools() {
        insta::assert_snapshot!(import(r#"[
          {"name": "get_stock_price", "description": "Retrieves the current stock price for a given ticker symbol.",
           "input_schema": {"type": "object", "properties": {"ticker": {"type": "string", "description": "The stock ticker symbol, e.g. AAPL for Apple Inc."}}, "required": ["ticker"]}},
          {"name": "get_time", "description": "Get the current time in a given time zone",
           "input_schema": {"type": "object", "properties": {"timezone": {"type": "string"}}, "required": ["timezone"]},
           "cache_control": {"type": "ephemeral"}},
          {"type": "custom", "name": "noop", "input_schema": {"type": "object", "properties": {}}}
        ]"#), @r#"
        Anthropic
        {"name":"get_stock_price","description":"Retrieves the current stock price for a given ticker symbol.","parameters":{"type":"object","properties":{"ticker":{"type":"string","description":"The stock ticker symbol, e.g. AAPL for Apple Inc."}},"required":["ticker"]}}
        {"name":"get_time","description":"Get the current time in a given time zone","parameters":{"type":"object","properties":{"timezone":{"type":"string"}},"required":["timezone"]},"x-cache_control":{"type":"ephemeral"}}
        {"name":"noop","description":"","parameters":{"type":"object","properties":{}}}
        "#);
    }

    #[test]
    fn imports_a_single_tool_of_each_shape() {
        let schema = r#"{"type":"object","properties":{"q":{"type":"string"}}}"#;
        let expected = format!("{{\"name\":\"search\",\"description\":\"Search.\",\"parameters\":{schema}}}");
        let chat = format!(
            r#"{{"type":"function","function":{{"name":"search","description":"Search.","parameters":{schema}}}}}"#
        );
        check(&chat, &format!("OpenAiChat\n{expected}"));
        let responses =
            format!(r#"{{"type":"function","name":"search","description":"Search.","parameters":{schema}}}"#);
        check(&responses, &format!("OpenAiResponses\n{expected}"));
        let anthropic = format!(r#"{{"name":"search","description":"Search.","input_schema":{schema}}}"#);
        check(&anthropic, &format!("Anthropic\n{expected}"));
    }

    #[test]
    fn imports_the_tools_of_a_pasted_request_body() {
        check(
            &format!(r#"{{"model":"gpt-4.1","messages":[],"tools":[{}],"tool_choice":"auto"}}"#, weather_chat("w")),
            &format!(
                r#"OpenAiChat
{{"name":"w","description":"Get current temperature for a given location.","parameters":{WEATHER_SCHEMA},"x-strict":true}}"#
            ),
        );
        check(
            r#"{"model":"claude-sonnet-4-5","tools":{}}"#,
            "error:\n/tools: expected an array of tools, found an object",
        );
        check(r#"{"model":"m","tools":[]}"#, "error:\n/tools: \"tools\" is empty; there are no tools to import");
    }

    #[test]
    fn keeps_other_fields_as_extensions() {
        check(
            r#"{"type":"function","name":"f","defer_loading":true,"x-team":"infra"}"#,
            r#"OpenAiResponses
{"name":"f","description":"","parameters":{"type":"object","properties":{}},"x-defer_loading":true,"x-team":"infra"}"#,
        );
        check(
            r#"{"type":"function","id":"t1","function":{"name":"f","strict":true}}"#,
            r#"OpenAiChat
{"name":"f","description":"","parameters":{"type":"object","properties":{}},"x-id":"t1","x-strict":true}"#,
        );
    }

    #[test]
    fn reports_text_that_is_not_a_tools_array() {
        check("", "error:\nthe file is empty; expected a JSON object");
        check("tools: []", "error:\nline 1, column 2: invalid JSON: expected ident");
        check("get_weather(location)", "error:\nline 1, column 1: invalid JSON: expected value");
        check(
            r#"[{"name": "a","#,
            "error:\nline 1, column 14: the JSON ends too early (EOF while parsing a value); is the file truncated?",
        );
        check(r#""get_weather""#, "error:\nexpected a tools array or a single tool object, found a string");
        check("42", "error:\nexpected a tools array or a single tool object, found a number");
        check("[]", "error:\nthe array is empty; there are no tools to import");
        check(
            &format!("{}{}", "[".repeat(300), "]".repeat(300)),
            "error:\nline 1, column 201: JSON nested deeper than 200 levels",
        );
    }

    #[test]
    fn reports_entries_of_unknown_shape() {
        let accepted = ACCEPTED_SHAPES;
        check(r#"["get_weather"]"#, &format!("error:\n/0: found a string; {accepted}"));
        check(r#"[{"title": "Weather"}]"#, &format!("error:\n/0: not a tool of a known shape; {accepted}"));
        check(r#"[{"name": "get_weather"}]"#, &format!("error:\n/0: not a tool of a known shape; {accepted}"));
        check(
            r#"[{"type": "function"}]"#,
            &format!("error:\n/0: a function tool without \"function\" or \"name\"; {accepted}"),
        );
        check(r#"[{"type": 1, "name": "f"}]"#, "error:\n/0/type: expected \"function\", found a number");
        check(r#"[{"function": {"name": "f"}}]"#, "error:\n/0: missing \"type\": \"function\"");
        check(r#"[{"name": "f", "parameters": {"type": "object"}}]"#, "error:\n/0: missing \"type\": \"function\"");
        check(
            r#"[{"type": "function", "function": "f"}]"#,
            "error:\n/0/function: expected an object with the function's name, description and parameters, found a string",
        );
    }

    #[test]
    fn reports_provider_tools_by_their_type() {
        let refused = |t: &str| {
            format!("/type: '{t}' tools cannot be imported: they are run by the provider, not described by a JSON Schema; only function tools can")
        };
        check(
            &format!(
                r#"[{}, {{"type": "web_search"}}, {{"type": "file_search", "vector_store_ids": ["vs_1"]}}]"#,
                weather_chat("w")
            ),
            &format!("error:\n/1{}\n/2{}", refused("web_search"), refused("file_search")),
        );
        check(
            r#"{"type": "code_interpreter", "container": {"type": "auto"}}"#,
            &format!("error:\n{}", refused("code_interpreter")),
        );
        check(
            r#"[{"type": "custom", "name": "code_exec", "description": "Executes arbitrary Python code."}]"#,
            &format!("error:\n/0{}", refused("custom")),
        );
        check(
            r#"[{"type": "bash_20250124", "name": "bash"}, {"type": "web_search_20250305", "name": "web_search", "max_uses": 5}]"#,
            &format!("error:\n/0{}\n/1{}", refused("bash_20250124"), refused("web_search_20250305")),
        );
    }

    #[test]
    fn reports_mixed_formats() {
        check(
            &format!(r#"[{}, {{"name": "b", "input_schema": {{"type": "object"}}}}, {{"type": "function", "name": "c"}}]"#, weather_chat("a")),
            "error:\n/1: an Anthropic Messages tool, but /0 is an OpenAI Chat Completions tool; import tools of one format at a time\n\
             /2: an OpenAI Responses tool, but /0 is an OpenAI Chat Completions tool; import tools of one format at a time",
        );
    }

    #[test]
    fn reports_bad_names() {
        check(
            r#"[{"type": "function", "function": {"description": "d"}}]"#,
            "error:\n/0/function: missing required field \"name\"",
        );
        check(r#"[{"name": "", "input_schema": {"type": "object"}}]"#, "error:\n/0/name: the name is empty");
        check(r#"[{"type": "function", "name": 7}]"#, "error:\n/0/name: the name must be a string, found a number");
        let invalid =
            |name: &str| format!("'{name}' is not a valid tool name: use 1 to 64 letters, digits, '_' or '-'");
        check(r#"{"type": "function", "name": "get weather"}"#, &format!("error:\n/name: {}", invalid("get weather")));
        check(r#"{"type": "function", "name": "ns.get"}"#, &format!("error:\n/name: {}", invalid("ns.get")));
        check(r#"{"type": "function", "name": "météo"}"#, &format!("error:\n/name: {}", invalid("météo")));
        let long = "a".repeat(65);
        check(&format!(r#"{{"type": "function", "name": "{long}"}}"#), &format!("error:\n/name: {}", invalid(&long)));
        let longest = "a".repeat(64);
        assert!(import(&format!(r#"{{"type": "function", "name": "{longest}"}}"#)).starts_with("OpenAiResponses\n"));
        let huge = "b".repeat(1000);
        check(
            &format!(r#"{{"type": "function", "name": "{huge}"}}"#),
            &format!("error:\n/name: {}", invalid(&format!("{}…", "b".repeat(72)))),
        );
    }

    #[test]
    fn reports_builtin_names() {
        for builtin in ["read_section", "open_sections", "pick_tools"] {
            check(
                &format!(r#"[{{"type": "function", "function": {{"name": "{builtin}"}}}}]"#),
                &format!("error:\n/0/function/name: '{builtin}' is a builtin tool's name and is reserved"),
            );
        }
    }

    #[test]
    fn reports_duplicate_names() {
        check(
            &format!("[{}, {}, {}]", weather_chat("w"), weather_chat("x"), weather_chat("w")),
            "error:\n/2/function/name: duplicate tool name 'w': /0/function/name has it too",
        );
        check(
            r#"{"model": "m", "tools": [{"name": "a", "input_schema": {}}, {"name": "a", "input_schema": {}}]}"#,
            "error:\n/tools/1/name: duplicate tool name 'a': /tools/0/name has it too",
        );
    }

    #[test]
    fn reports_bad_descriptions_and_schemas() {
        check(
            r#"[{"type": "function", "name": "f", "description": ["d"]}]"#,
            "error:\n/0/description: the description must be a string, found an array",
        );
        check(
            r#"[{"name": "f", "input_schema": "object"}]"#,
            "error:\n/0/input_schema: must be a JSON Schema object, e.g. {\"type\": \"object\", \"properties\": {}}",
        );
        check(
            r#"[{"type": "function", "function": {"name": "f", "parameters": {"type": "string"}}}]"#,
            "error:\n/0/function/parameters: must describe an object (\"type\": \"object\"), not \"string\"",
        );
        let bad = import(
            r#"[{"type": "function", "name": "f", "parameters": {"type": "object", "properties": {"a": {"type": "strin"}}}}]"#,
        );
        // The issue's example: located at the bad type and worded, not "not valid under anyOf".
        assert_eq!(
            bad,
            "error:\n/0/parameters/properties/a/type: \"strin\" is not a JSON Schema type: \
             use array, boolean, integer, null, number, object or string"
        );
        let remote = import(
            r#"[{"type": "function", "name": "f", "parameters": {"type": "object", "properties": {"a": {"$ref": "https://example.com/s.json"}}}}]"#,
        );
        assert!(remote.starts_with("error:\n/0/parameters: not a valid JSON Schema: "), "{remote}");
    }

    #[test]
    fn reports_every_problem_at_once() {
        check(
            r#"[{"type": "function", "function": {"name": "read_section", "description": 1, "parameters": []}},
                {"type": "function", "function": {"name": "bad name"}}]"#,
            "error:\n/0/function/name: 'read_section' is a builtin tool's name and is reserved\n\
             /0/function/description: the description must be a string, found a number\n\
             /0/function/parameters: must be a JSON Schema object, e.g. {\"type\": \"object\", \"properties\": {}}\n\
             /1/function/name: 'bad name' is not a valid tool name: use 1 to 64 letters, digits, '_' or '-'",
        );
    }

    /// A pasted tool whose name is given twice would import one name and show the other.
    #[test]
    fn refuses_a_key_given_twice_at_its_pointer() {
        check(
            r#"[{"type": "function", "function": {"name": "get_weather", "n\u0061me": "delete_files"}}]"#,
            "error:\n/0/function/name: \"name\" is given twice in this object; JSON keys must be unique",
        );
    }

    #[test]
    fn ignores_a_byte_order_mark() {
        check(
            "\u{feff}[{\"name\": \"a\", \"input_schema\": {}}]",
            "Anthropic\n{\"name\":\"a\",\"description\":\"\",\"parameters\":{}}",
        );
    }

    #[test]
    fn lists_conflicts_with_the_template() {
        let template = Template::from_json(
            br#"{"schema_version": 1, "kind": "unfold.template", "key": "t",
                 "tools": [{"name": "search", "description": "", "parameters": {"type": "object"}}],
                 "sections": [{"key": "a", "title": "A", "visibility": "summary", "summary": "s",
                               "tools": [{"name": "lookup", "description": "", "parameters": {"type": "object"}}]}]}"#,
        )
        .unwrap();
        let check = |names: &[&str], expected: &[&str]| {
            let tools: Vec<Tool> = names
                .iter()
                .map(|n| Tool {
                    name: (*n).to_owned(),
                    description: String::new(),
                    brief: None,
                    parameters: json!({"type": "object"}),
                    kind: None,
                    categories: None,
                    requires_permission: None,
                    mock: None,
                    extensions: Map::new(),
                })
                .collect();
            assert_eq!(conflicts(&template, &tools), expected, "{names:?}");
        };
        check(&[], &[]);
        check(&["fetch", "open"], &[]);
        check(&["lookup", "fetch", "search"], &["lookup", "search"]);
        check(&["search", "search"], &["search"]);
        check(&["Search"], &[]);
        check(&["pick_tools"], &["pick_tools"]);
    }

    #[test]
    fn imported_tools_load_in_a_template() {
        let imported = import_tools(&format!("[{}]", weather_chat("get_weather"))).unwrap();
        let template = json!({"schema_version": 1, "kind": "unfold.template", "key": "t", "tools": imported.tools});
        let loaded = Template::from_json(template.to_string().as_bytes()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(loaded.tools, imported.tools);
    }
}
