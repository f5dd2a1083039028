//! Reading and writing Unfold's JSON documents: size and depth limits checked before parsing,
//! `kind` and `schema_version` checks, validation against the checked-in JSON Schemas, and the
//! canonical, atomic save.
//!
//! Parsing has three gates so that no input, however hostile, can exhaust memory or the stack:
//! the byte size (checked before reading), the JSON nesting depth (a linear scan before the parser
//! runs), and only then serde_json, whose own recursion limit is lifted because the scan already
//! bounded it (the section tree legitimately nests deeper than serde_json's default of 128).

use std::io::Write;
use std::path::Path;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::{Error, Location, Problem, Problems, Result};

/// The largest document Unfold reads (the 10,000-section bench template is about 4 MiB).
pub const MAX_DOCUMENT_BYTES: u64 = 16 * 1024 * 1024;
/// The deepest JSON nesting Unfold parses: room for 64 levels of sections and their tools' schemas.
pub const MAX_JSON_DEPTH: usize = 200;
/// How many problems one report lists before it says how many more there are.
const MAX_PROBLEMS_LISTED: usize = 100;

/// The two document kinds Unfold reads, with the `kind` string each file declares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DocumentKind {
    /// `*.unfold.json`
    Template,
    /// `*.scenario.json`
    Scenario,
}

impl DocumentKind {
    /// The kind whose `kind` field is `tag`.
    pub fn of_tag(tag: &str) -> Option<DocumentKind> {
        [DocumentKind::Template, DocumentKind::Scenario].into_iter().find(|kind| kind.tag() == tag)
    }

    /// The value of the document's `kind` field.
    pub fn tag(self) -> &'static str {
        match self {
            DocumentKind::Template => "unfold.template",
            DocumentKind::Scenario => "unfold.scenario",
        }
    }

    fn validator(self) -> &'static jsonschema::Validator {
        match self {
            DocumentKind::Template => crate::schema::template_validator(),
            DocumentKind::Scenario => crate::schema::scenario_validator(),
        }
    }

    fn schema(self) -> &'static Value {
        match self {
            DocumentKind::Template => crate::schema::template_schema(),
            DocumentKind::Scenario => crate::schema::scenario_schema(),
        }
    }
}

/// The schema version this build reads and writes.
pub const SCHEMA_VERSION: u64 = 1;

/// The kind a JSON document declares, if it declares one Unfold reads.
pub fn declared_kind(value: &Value) -> Option<DocumentKind> {
    DocumentKind::of_tag(value.get("kind")?.as_str()?)
}

/// Reads a file's bytes, refusing one larger than [`MAX_DOCUMENT_BYTES`] before reading it.
pub fn read_document_bytes(path: &Path) -> Result<Vec<u8>> {
    let io_error = |source| Error::Io { path: path.display().to_string(), action: "cannot read", source };
    let file = std::fs::File::open(path).map_err(io_error)?;
    let size = file.metadata().map_err(io_error)?.len();
    check_size(size).map_err(|e| e.in_file(path))?;
    let mut bytes = Vec::with_capacity(size as usize);
    // `take` also bounds files whose metadata lies about their size (pipes, /proc).
    std::io::Read::read_to_end(&mut std::io::Read::take(file, MAX_DOCUMENT_BYTES + 1), &mut bytes).map_err(io_error)?;
    check_size(bytes.len() as u64).map_err(|e| e.in_file(path))?;
    Ok(bytes)
}

fn check_size(size: u64) -> Result<()> {
    if size > MAX_DOCUMENT_BYTES {
        return Err(Error::problem(
            "",
            format!("the file is {size} bytes; Unfold reads documents up to {MAX_DOCUMENT_BYTES} bytes (16 MiB)"),
        ));
    }
    Ok(())
}

/// Parses and validates a document of `kind` into `T`; `semantic` adds the checks a schema cannot
/// express. Every problem found is reported, each with its place.
pub(crate) fn parse_document<T: DeserializeOwned>(
    bytes: &[u8],
    kind: DocumentKind,
    semantic: impl FnOnce(&T) -> Vec<Problem>,
) -> Result<T> {
    parse_versioned(bytes, kind.tag(), (kind.validator(), kind.schema()), semantic)
}

/// Parses and validates any versioned Unfold file (a document, a profile file) declaring `tag` as
/// its `kind`, against `schema` and its compiled `validator`.
pub(crate) fn parse_versioned<T: DeserializeOwned>(
    bytes: &[u8],
    tag: &str,
    (validator, schema): (&jsonschema::Validator, &Value),
    semantic: impl FnOnce(&T) -> Vec<Problem>,
) -> Result<T> {
    let value = parse_json(bytes)?;
    check_kind_and_version(&value, tag)?;
    let mut problems = schema_problems_against(&value, validator, schema);
    // Unknown fields and bad values often still convert: then the checks a schema cannot express
    // run too, so one pass reports every problem the user has to fix.
    let document = match serde_json::from_value::<T>(value) {
        Ok(document) => document,
        Err(_) if !problems.is_empty() => return Err(invalid(problems)),
        // The schema is generated from `T`, so this only happens if the two disagree: still an
        // error for the user, never a panic.
        Err(e) => return Err(Error::problem("", format!("does not match the {tag} format: {e}"))),
    };
    problems.extend(semantic(&document));
    if !problems.is_empty() {
        return Err(invalid(problems));
    }
    Ok(document)
}

pub(crate) fn invalid(mut list: Vec<Problem>) -> Error {
    if list.len() > MAX_PROBLEMS_LISTED {
        let more = list.len() - MAX_PROBLEMS_LISTED;
        list.truncate(MAX_PROBLEMS_LISTED);
        list.push(Problem::at("", format!("and {more} more problems")));
    }
    Error::Invalid(Problems { origin: None, list })
}

/// Parses JSON text with the size and depth limits; a UTF-8 byte order mark is ignored.
pub fn parse_json(bytes: &[u8]) -> Result<Value> {
    check_size(bytes.len() as u64)?;
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(Error::problem("", "the file is empty; expected a JSON object"));
    }
    check_depth(bytes)?;
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    deserializer.disable_recursion_limit();
    let value = Value::deserialize(&mut deserializer).and_then(|v| deserializer.end().map(|()| v));
    value.map_err(|e| {
        let message = e.to_string();
        // serde_json appends " at line L column C"; the location is reported on its own.
        let message = message.split(" at line ").next().unwrap_or(&message);
        let message = match e.classify() {
            serde_json::error::Category::Eof => {
                format!("the JSON ends too early ({message}); is the file truncated?")
            }
            serde_json::error::Category::Syntax if std::str::from_utf8(bytes).is_err() => {
                format!("not UTF-8 JSON text ({message})")
            }
            _ => format!("invalid JSON: {message}"),
        };
        Error::Invalid(Problems {
            origin: None,
            list: vec![Problem { location: Location::Text { line: e.line(), column: e.column() }, message }],
        })
    })
}

/// Refuses JSON nested deeper than [`MAX_JSON_DEPTH`] without parsing it (a linear byte scan that
/// only tracks strings and brackets).
fn check_depth(bytes: &[u8]) -> Result<()> {
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    let (mut line, mut line_start) = (1usize, 0usize);
    for (i, &b) in bytes.iter().enumerate() {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'{' | b'[' => {
                depth += 1;
                if depth > MAX_JSON_DEPTH {
                    let location = Location::Text { line, column: i - line_start + 1 };
                    let message = format!("JSON nested deeper than {MAX_JSON_DEPTH} levels");
                    return Err(Error::Invalid(Problems { origin: None, list: vec![Problem { location, message }] }));
                }
            }
            b'}' | b']' => depth = depth.saturating_sub(1),
            b'\n' => {
                line += 1;
                line_start = i + 1;
            }
            _ => {}
        }
    }
    Ok(())
}

pub(crate) fn check_kind_and_version(value: &Value, tag: &str) -> Result<()> {
    let Some(object) = value.as_object() else {
        return Err(Error::problem("", format!("expected a JSON object (an {tag} document)")));
    };
    match object.get("kind").and_then(Value::as_str) {
        Some(found) if found == tag => {}
        Some(found) => return Err(Error::problem("/kind", format!("this is a '{found}' document; expected '{tag}'"))),
        None => return Err(Error::problem("/kind", format!("missing \"kind\": \"{tag}\""))),
    }
    match object.get("schema_version").and_then(Value::as_u64) {
        Some(SCHEMA_VERSION) => Ok(()),
        Some(other) => Err(Error::problem(
            "/schema_version",
            format!("schema_version {other} is not supported; this version of Unfold reads {SCHEMA_VERSION}"),
        )),
        None => Err(Error::problem("/schema_version", format!("missing \"schema_version\": {SCHEMA_VERSION}"))),
    }
}

/// The problems of `value` against the JSON Schema of documents of `kind`, each at its pointer.
pub(crate) fn schema_problems(value: &Value, kind: DocumentKind) -> Vec<Problem> {
    schema_problems_against(value, kind.validator(), kind.schema())
}

fn schema_problems_against(value: &Value, validator: &jsonschema::Validator, schema: &Value) -> Vec<Problem> {
    validator
        .iter_errors(value)
        .map(|error| Problem::at(error.instance_path().to_string(), describe_schema_error(&error, schema)))
        .collect()
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
        Kind::Pattern { pattern } => {
            format!("{} does not match {pattern}", short_json(error.instance()))
        }
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

/// Creates `folder` and its parents if they are missing.
pub fn create_folder(folder: &Path) -> Result<()> {
    std::fs::create_dir_all(folder).map_err(|source| Error::Io {
        path: folder.display().to_string(),
        action: "cannot create the folder",
        source,
    })
}

/// Creates the folder `path` goes in, if it names one that is missing.
pub fn create_parent_folder(path: &Path) -> Result<()> {
    match path.parent().filter(|folder| !folder.as_os_str().is_empty()) {
        Some(folder) => create_folder(folder),
        None => Ok(()),
    }
}

/// The canonical text of a document: 2-space indented JSON and a trailing newline.
pub fn to_canonical_json<T: Serialize>(document: &T) -> String {
    let mut text = serde_json::to_string_pretty(document).unwrap_or_else(|e| {
        // Our documents are trees of strings, numbers and maps with string keys: serializing them
        // cannot fail. Should it ever, a visible marker beats a panic.
        tracing::error!(error = %e, "serializing a document failed");
        String::from("{}")
    });
    text.push('\n');
    text
}

/// The length in bytes of [`to_canonical_json`] of `document`, without building the text.
pub(crate) fn canonical_json_len<T: Serialize>(document: &T) -> u64 {
    /// Counts what is written to it.
    struct Counter(u64);
    impl Write for Counter {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0 += bytes.len() as u64;
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut counter = Counter(0);
    match serde_json::to_writer_pretty(&mut counter, document) {
        Ok(()) => counter.0 + 1,
        // As in `to_canonical_json`: it cannot fail; should it, no length is safe.
        Err(_) => u64::MAX,
    }
}

/// Writes `text` to `path` so that a crash at any moment leaves either the old file or the new one,
/// never a torn one: a temporary file in the same folder, fsync, rename, fsync of the folder.
pub fn write_atomically(path: &Path, text: &str) -> Result<()> {
    let io_error = |source| Error::Io { path: path.display().to_string(), action: "cannot save", source };
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut temp = tempfile::Builder::new()
        .prefix(&format!(".{}.", path.file_name().and_then(|n| n.to_str()).unwrap_or("unfold")))
        .suffix(TEMP_SUFFIX)
        .tempfile_in(folder)
        .map_err(io_error)?;
    temp.write_all(text.as_bytes()).map_err(io_error)?;
    temp.as_file().sync_all().map_err(io_error)?;
    temp.persist(path).map_err(|e| io_error(e.error))?;
    std::fs::File::open(folder).and_then(|dir| dir.sync_all()).map_err(io_error)?;
    Ok(())
}

/// The suffix of the temporary files [`write_atomically`] makes; a crash can leave them behind.
pub const TEMP_SUFFIX: &str = ".unfold-tmp";
