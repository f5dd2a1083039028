//! The JSON Schemas of Unfold's files and the problems a JSON value has against one, in the terms
//! of the document rather than of JSON Schema. The files under `schema/` are generated from the Rust
//! types (schemars, [`DocumentSchema::generated`]), a test holds them to the types, and the
//! binaries validate with those very files, built in: no schema is generated at run time, and
//! schemars is not in the binaries. Each file type owns its [`DocumentSchema`]
//! (`Template::schema()`, `Scenario::schema()`, `ProviderProfiles::schema()`).

use jsonschema::{PatternOptions, Validator};
use serde_json::Value;

use crate::error::Problem;

/// A file type's JSON Schema with its compiled validator.
pub struct DocumentSchema {
    schema: Value,
    validator: Validator,
}

impl DocumentSchema {
    /// A schema file of `schema/`, its `text` built into the binary, compiled.
    pub fn checked_in(text: &str) -> DocumentSchema {
        let schema: Value = match serde_json::from_str(text) {
            Ok(schema) => schema,
            // Our own files; the schema tests read them, so this is a programming error.
            Err(e) => unreachable!("a checked-in document schema is not JSON: {e}"),
        };
        let validator = match options().build(&schema) {
            Ok(validator) => validator,
            Err(e) => unreachable!("a checked-in document schema does not compile: {e}"),
        };
        DocumentSchema { schema, validator }
    }

    /// The schema schemars generates from `T`, with `id` as its `$id`: what its file under
    /// `schema/` must hold (`UNFOLD_BLESS=1 cargo test -p unfold-documents` writes it).
    pub fn generated<T: schemars::JsonSchema>(id: &str) -> Value {
        let mut schema = schemars::schema_for!(T).to_value();
        if let Some(object) = schema.as_object_mut() {
            object.insert("$id".to_owned(), Value::String(id.to_owned()));
        }
        schema
    }

    /// This schema's `$id`.
    pub fn id(&self) -> &str {
        self.schema.get("$id").and_then(Value::as_str).unwrap_or_default()
    }

    /// The schema as JSON.
    pub fn json(&self) -> &Value {
        &self.schema
    }

    /// Every problem of `value` against this schema, each at its JSON pointer.
    pub fn problems(&self, value: &Value) -> Vec<Problem> {
        self.validator
            .iter_errors(value)
            .map(|error| Problem::at(error.instance_path().to_string(), describe_schema_error(&error, &self.schema)))
            .collect()
    }
}

/// Options shared by every validator Unfold builds: nothing is ever fetched (the crate is built
/// without its resolvers) and `pattern` uses the linear-time `regex` engine, so a hostile schema
/// cannot make validation backtrack for ever.
fn options() -> jsonschema::ValidationOptions<'static> {
    jsonschema::options().with_pattern_options(PatternOptions::regex())
}

/// Compiles a tool's parameter schema, refusing an invalid schema.
pub fn tool_parameters_validator(parameters: &Value) -> Result<Validator, ParametersProblem> {
    // Building checks the schema against its meta-schema first.
    options().build(parameters).map_err(|error| ParametersProblem::of(&error))
}

/// A tool's parameter schema compiled, shared with every earlier call on this thread for the same
/// schema; none for an invalid schema. Compiling a schema (its patterns as regexes) costs far more
/// than checking arguments against it, and every run of a study calls the same tools again.
pub fn shared_tool_parameters_validator(parameters: &Value) -> Option<std::sync::Arc<Validator>> {
    use std::cell::RefCell;
    use std::collections::HashMap;
    use std::sync::Arc;
    /// The most schemas a thread keeps compiled; it forgets them all when full.
    const MOST_KEPT: usize = 1024;
    thread_local! {
        static COMPILED: RefCell<HashMap<String, Option<Arc<Validator>>>> = RefCell::new(HashMap::new());
    }
    let key = parameters.to_string();
    if let Some(known) = COMPILED.with(|compiled| compiled.borrow().get(&key).cloned()) {
        return known;
    }
    let validator = tool_parameters_validator(parameters).ok().map(Arc::new);
    COMPILED.with(|compiled| {
        let mut compiled = compiled.borrow_mut();
        if compiled.len() >= MOST_KEPT {
            compiled.clear();
        }
        compiled.insert(key, validator.clone());
    });
    validator
}

/// Why a tool's `parameters` is not a valid JSON Schema, at its place within `parameters`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParametersProblem {
    /// A JSON pointer within `parameters` (`""`: the whole schema).
    pub pointer: String,
    /// What is wrong, in words.
    pub message: String,
}

impl ParametersProblem {
    fn of(error: &jsonschema::ValidationError<'_>) -> ParametersProblem {
        use jsonschema::error::ValidationErrorKind as Kind;
        let pointer = error.instance_path().to_string();
        let message = match error.kind() {
            // The meta-schema's `type` is "one of the simple types, or an array of them".
            Kind::AnyOf { .. } | Kind::Enum { .. } if pointer.ends_with("/type") || pointer == "/type" => format!(
                "{} is not a JSON Schema type: use array, boolean, integer, null, number, object or string",
                short_json(error.instance())
            ),
            _ => format!("not a valid JSON Schema: {error}"),
        };
        ParametersProblem { pointer, message }
    }

    /// The problem in a document whose tool's `parameters` is at `parameters_pointer`.
    pub fn at(&self, parameters_pointer: &str) -> Problem {
        Problem::at(format!("{parameters_pointer}{}", self.pointer), self.message.clone())
    }
}

impl std::fmt::Display for ParametersProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "parameters{}: {}", self.pointer, self.message)
    }
}

/// What a section key is, in words (the editor says it the same way).
pub const SECTION_KEY_RULE: &str = "lowercase letters, digits, _ and -, starting with a letter or a digit";

/// The documents' patterns, what a value matching each is and the rule in words, so a problem
/// says the rule, never the regular expression.
const PATTERN_RULES: [(&str, &str, &str); 3] = [
    (r"^[a-z0-9][a-z0-9_-]*$", "section key", SECTION_KEY_RULE),
    (r"^[A-Za-z0-9_-]{1,64}$", "valid tool name", "1 to 64 letters, digits, '_' or '-'"),
    (r"^[_A-Za-z][_A-Za-z0-9]*$", "parameter name", "letters, digits and _, not starting with a digit"),
];

/// Why a value does not match `pattern`, in words ("is not a section key: use …"), when the
/// pattern is one of the documents' own (see [`PATTERN_RULES`]).
pub fn pattern_rule(pattern: &str) -> Option<String> {
    let (_, noun, rule) = PATTERN_RULES.iter().find(|(known, _, _)| *known == pattern)?;
    Some(format!("is not a {noun}: use {rule}"))
}

/// Words for a schema violation, in the terms of the document rather than of JSON Schema.
fn describe_schema_error(error: &jsonschema::ValidationError<'_>, schema: &Value) -> String {
    use jsonschema::error::ValidationErrorKind as Kind;
    match error.kind() {
        Kind::AdditionalProperties { unexpected } => {
            let fields: Vec<String> = unexpected.iter().map(|f| format!("'{f}'")).collect();
            format!("unknown field {} (only fields starting with \"x-\" may be added)", fields.join(", "))
        }
        Kind::Required { property } => format!("missing required field {property}"),
        Kind::Pattern { pattern } => match pattern_rule(pattern) {
            Some(rule) => format!("{} {rule}", short_json(error.instance())),
            None => format!("{} does not match the pattern {pattern}", short_json(error.instance())),
        },
        Kind::Enum { options } => {
            format!("{} is not one of {options}", short_json(error.instance()))
        }
        Kind::Constant { expected_value } => format!("must be {expected_value}"),
        Kind::AnyOf { .. } | Kind::OneOfNotValid { .. } => {
            let branches = schema.pointer(error.schema_path().as_str()).and_then(Value::as_array);
            describe_alternatives(error.instance(), branches.map_or(&[][..], Vec::as_slice))
        }
        Kind::Type { .. } => {
            format!("{} {}", short_json(error.instance()), error.masked_with("").to_string().trim_start())
        }
        _ => error.masked_with("value").to_string(),
    }
}

/// Words for a value that matches none of a schema's alternatives: the allowed values when they
/// are constants, else each alternative's description (the doc comment of its Rust variant).
fn describe_alternatives(instance: &Value, branches: &[Value]) -> String {
    let constants: Option<Vec<String>> = branches.iter().map(|b| b.get("const").map(Value::to_string)).collect();
    if let Some(constants) = constants.filter(|c| !c.is_empty()) {
        return format!("{} is not one of {}", short_json(instance), constants.join(", "));
    }
    let forms: Vec<&str> = branches.iter().filter_map(|b| b.get("description")?.as_str()).collect();
    if forms.is_empty() {
        return format!("{} matches none of the allowed forms", short_json(instance));
    }
    format!("{} matches none of the allowed forms: {}", short_json(instance), forms.join(" "))
}

/// A JSON value shown in a message, cut short when long.
fn short_json(value: &Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(60) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}
