//! Reading and writing Unfold's JSON documents: size and depth limits checked before parsing,
//! `kind` and `schema_version` checks, validation against the checked-in JSON Schemas, and the
//! canonical, atomic save (to the file a path names: `save_target.rs`).
//!
//! Parsing has three gates so that no input, however hostile, can exhaust memory or the stack:
//! the byte size (checked before reading), the JSON nesting depth (a linear scan before the parser
//! runs), and only then serde_json, whose own recursion limit is lifted because the scan already
//! bounded it (the section tree legitimately nests deeper than serde_json's default of 128). A
//! template's first, typed read (`parse_versioned_typed_first`) skips the scan and keeps that
//! limit instead: a text nested deeper than 128 levels takes the gated way.

use std::io::Write;
use std::path::Path;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::{pointer_segment, Error, Location, Problem, Problems, Result};
use crate::save_target::{folder_of, NewFile, SaveTarget};
use crate::schema::DocumentSchema;

/// The largest document Unfold reads (the 10,000-section bench template is about 4 MiB).
pub const MAX_DOCUMENT_BYTES: u64 = 16 * 1024 * 1024;
/// UTF-8's byte order mark, which a file may start with and is not part of its JSON.
const BYTE_ORDER_MARK: &[u8] = b"\xEF\xBB\xBF";
/// The deepest JSON nesting Unfold parses: room for 64 levels of sections and their tools' schemas.
pub const MAX_JSON_DEPTH: usize = 200;

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
}

/// The schema version this build reads and writes.
pub const SCHEMA_VERSION: u64 = 1;

/// The `kind` a JSON document declares (its top-level `kind`, when a string), read without
/// building its JSON tree; fails as [`parse_json`] does on text that is not JSON or is over the
/// limits.
pub fn declared_kind(bytes: &[u8]) -> Result<Option<String>> {
    #[derive(Deserialize)]
    struct Declared {
        #[serde(default)]
        kind: Option<Value>,
    }
    let kind = match parse_typed::<Declared>(bytes) {
        Some(declared) => declared.kind,
        // Not an object, a `kind` given twice, or not JSON at all: the tree says which.
        None => parse_json(bytes)?.get_mut("kind").map(Value::take),
    };
    Ok(kind.and_then(|kind| kind.as_str().map(str::to_owned)))
}

/// Reads a file's bytes, refusing one larger than [`MAX_DOCUMENT_BYTES`] before reading it, and
/// anything but a regular file ([`open_regular_file`]).
pub fn read_document_bytes(path: &Path) -> Result<Vec<u8>> {
    let io_error = |source| Error::Io { path: path.display().to_string(), action: "cannot read", source };
    let file = open_regular_file(path).map_err(io_error)?;
    let size = file.metadata().map_err(io_error)?.len();
    check_size(size).map_err(|e| e.in_file(path))?;
    let mut bytes = Vec::with_capacity(size as usize);
    // `take` also bounds files whose metadata lies about their size (pipes, /proc).
    std::io::Read::read_to_end(&mut std::io::Read::take(file, MAX_DOCUMENT_BYTES + 1), &mut bytes).map_err(io_error)?;
    check_size(bytes.len() as u64).map_err(|e| e.in_file(path))?;
    Ok(bytes)
}

/// Opens `path` to read it if it is a regular file (links followed). Anything else is refused at
/// once, before it is opened: opening a FIFO waits for a writer that may never come, a device such
/// as `/dev/zero` never ends, and a folder or a socket holds no document. On Unix the file is
/// opened without waiting (`O_NONBLOCK`) and checked again once open, so a FIFO put in its place
/// meanwhile cannot block either.
pub fn open_regular_file(path: &Path) -> std::io::Result<std::fs::File> {
    check_regular_file(&std::fs::metadata(path)?)?;
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK);
    let file = options.open(path)?;
    check_regular_file(&file.metadata()?)?;
    Ok(file)
}

/// An error saying what `metadata` is ("this is a FIFO (named pipe), not a regular file"), unless
/// it is a regular file's.
pub fn check_regular_file(metadata: &std::fs::Metadata) -> std::io::Result<()> {
    match crate::save_target::not_a_regular_file(metadata.file_type()) {
        None => Ok(()),
        Some(what) => Err(std::io::Error::new(std::io::ErrorKind::InvalidInput, format!("this is {what}"))),
    }
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

/// Parses and validates a versioned Unfold file (a template, a scenario, a profile file) declaring
/// `tag` as its `kind` into `T`, against `T`'s `schema`; `semantic` adds the checks a schema
/// cannot express. Every problem found is reported, each with its place.
pub fn parse_versioned<T: DeserializeOwned>(
    bytes: &[u8],
    tag: &str,
    schema: &DocumentSchema,
    semantic: impl FnOnce(&T) -> Vec<Problem>,
) -> Result<T> {
    let value = parse_json(bytes)?;
    check_kind_and_version(&value, tag)?;
    let mut problems = schema.problems(&value);
    // Unknown fields and bad values often still convert: then the checks a schema cannot express
    // run too, so one pass reports every problem the user has to fix.
    // Not `from_tree`: the schema already placed every problem, and tracking where the read is
    // costs a large template a few milliseconds.
    let document = match serde_json::from_value::<T>(value) {
        Ok(document) => document,
        Err(_) if !problems.is_empty() => return Err(Error::invalid(problems)),
        // The schema is generated from `T`, so this only happens if the two disagree: still an
        // error for the user, never a panic.
        Err(e) => return Err(Error::problem("", format!("does not match the {tag} format: {e}"))),
    };
    problems.extend(semantic(&document));
    if !problems.is_empty() {
        return Err(Error::invalid(problems));
    }
    Ok(document)
}

/// [`parse_versioned`] for a document type whose typed value tells whether it passes its schema
/// (`passes_schema`, see [`crate::Template::passes_schema`]): the text is first read straight into `T`,
/// and when the schema holds for what comes out, no JSON tree is built and the schema is neither
/// compiled (`schema` is only called when needed) nor asked. On the 10,000-section benchmark
/// template that is 8 ms instead of 21. Anything else (bad JSON, a shape `T` refuses, a value the
/// schema refuses, a text nested deeper than serde_json's limit) takes [`parse_versioned`]'s way,
/// so every problem is reported exactly as it reports it.
pub fn parse_versioned_typed_first<'s, T: DeserializeOwned>(
    bytes: &[u8],
    tag: &str,
    schema: impl FnOnce() -> &'s DocumentSchema,
    passes_schema: impl FnOnce(&T) -> bool,
    semantic: impl FnOnce(&T) -> Vec<Problem>,
) -> Result<T> {
    match parse_typed::<T>(bytes) {
        Some(document) if passes_schema(&document) => match semantic(&document) {
            problems if problems.is_empty() => Ok(document),
            problems => Err(Error::invalid(problems)),
        },
        _ => parse_versioned(bytes, tag, schema(), semantic),
    }
}

/// `bytes` read straight into `T` within the size limit, or `None` for anything [`parse_json`] or
/// serde would refuse. A key given twice is among them only if `T` refuses it: derived structs do
/// for their known fields, and a template's types read their maps and free JSON values through
/// `unique_keys` (a type read here that did not would let the last of two keys win). The depth is bounded by serde_json's own recursion limit (128 levels, below
/// [`MAX_JSON_DEPTH`]) rather than by a scan first: a text that nests deeper comes back `None`,
/// and the caller's way through [`parse_json`] reads it. The scan took a tenth of loading a large
/// template.
fn parse_typed<T: DeserializeOwned>(bytes: &[u8]) -> Option<T> {
    check_size(bytes.len() as u64).ok()?;
    let bytes = bytes.strip_prefix(BYTE_ORDER_MARK).unwrap_or(bytes);
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let document = T::deserialize(&mut deserializer).ok()?;
    deserializer.end().ok()?;
    Some(document)
}

/// Parses JSON text with the size and depth limits; a UTF-8 byte order mark is ignored, and a key
/// given twice in one object is refused at its pointer.
pub fn parse_json(bytes: &[u8]) -> Result<Value> {
    check_size(bytes.len() as u64)?;
    let bytes = bytes.strip_prefix(BYTE_ORDER_MARK).unwrap_or(bytes);
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(Error::problem("", "the file is empty; expected a JSON object"));
    }
    check_depth(bytes)?;
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    deserializer.disable_recursion_limit();
    let value = match crate::unique_keys::tree(&mut deserializer) {
        Ok(value) => deserializer.end().map(|()| value),
        Err((_, Some(duplicate))) => return Err(Error::from(duplicate)),
        Err((e, None)) => Err(e),
    };
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

/// `value` read into `T`; a value `T` refuses is a problem at its JSON pointer (a missing field at
/// the object's), for the files whose types are their only schema (cassettes). Tracking where the
/// read is has a cost: files with a schema are read with `serde_json::from_value`.
pub fn from_tree<T: DeserializeOwned>(value: Value) -> Result<T> {
    serde_path_to_error::deserialize(value).map_err(|e| {
        let pointer: String = e
            .path()
            .iter()
            .filter_map(|segment| match segment {
                serde_path_to_error::Segment::Seq { index } => Some(format!("/{index}")),
                serde_path_to_error::Segment::Map { key } => Some(format!("/{}", pointer_segment(key))),
                serde_path_to_error::Segment::Enum { variant } => Some(format!("/{}", pointer_segment(variant))),
                serde_path_to_error::Segment::Unknown => None,
            })
            .collect();
        Error::problem(pointer, e.into_inner().to_string())
    })
}

/// Refuses JSON nested deeper than [`MAX_JSON_DEPTH`] without parsing it (a linear byte scan that
/// only tracks strings and brackets).
fn check_depth(bytes: &[u8]) -> Result<()> {
    let (mut depth, mut line, mut line_start) = (0usize, 1usize, 0usize);
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                i = after_string(bytes, i + 1);
                continue;
            }
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
        i += 1;
    }
    Ok(())
}

/// Where the string whose text starts at `start` ends (after its closing quote, or at the end of
/// the text): a jump from quote or backslash to the next, since most of a template is string text.
fn after_string(bytes: &[u8], mut start: usize) -> usize {
    while let Some(offset) = bytes.get(start..).and_then(|rest| memchr::memchr2(b'"', b'\\', rest)) {
        if bytes[start + offset] == b'"' {
            return start + offset + 1;
        }
        start += offset + 2; // the backslash and the character it escapes
    }
    bytes.len()
}

/// Checks a document's `kind` is `tag` and its `schema_version` one this version reads.
pub fn check_kind_and_version(value: &Value, tag: &str) -> Result<()> {
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

/// Creates `folder` and its parents if they are missing.
pub fn create_folder(folder: &Path) -> Result<()> {
    std::fs::create_dir_all(folder).map_err(|source| Error::Io {
        path: folder.display().to_string(),
        action: "cannot create the folder",
        source,
    })
}

/// Creates the folder `path` goes in, if it is missing.
pub fn create_parent_folder(path: &Path) -> Result<()> {
    create_folder(folder_of(path))
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
pub fn canonical_json_len<T: Serialize>(document: &T) -> u64 {
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
/// never a torn one: a temporary file in the same folder, fsync, rename, fsync of the folder. A
/// symbolic link is followed to the file it names, which is saved in its own folder; a path that
/// names anything but a regular file is refused; the file replaced keeps its mode, and a new one
/// gets the umask's ([`SaveTarget`]).
pub fn write_atomically(path: &Path, text: &str) -> Result<()> {
    write_atomically_as(path, text.as_bytes(), NewFile::Shared)
}

/// [`write_atomically`] for a file that is not text (an image).
pub fn write_bytes_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    write_atomically_as(path, bytes, NewFile::Shared)
}

/// [`write_atomically`] for a file of the app's own (recovered work, recent files, allowed
/// sources): created readable by its owner alone; one replaced keeps its mode.
pub fn write_privately(path: &Path, text: &str) -> Result<()> {
    write_atomically_as(path, text.as_bytes(), NewFile::Private)
}

fn write_atomically_as(path: &Path, bytes: &[u8], new: NewFile) -> Result<()> {
    let io_error = |source| Error::Io { path: path.display().to_string(), action: "cannot save", source };
    let target = SaveTarget::of(path).map_err(io_error)?;
    let name = target.path.file_name().and_then(|n| n.to_str()).unwrap_or("unfold");
    let mut temp = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(TEMP_SUFFIX)
        .permissions(target.creation_permissions(new))
        .tempfile_in(target.folder())
        .map_err(io_error)?;
    target.keep_mode(temp.as_file()).map_err(io_error)?;
    temp.write_all(bytes).map_err(io_error)?;
    temp.as_file().sync_all().map_err(io_error)?;
    temp.persist(&target.path).map_err(|e| io_error(e.error))?;
    std::fs::File::open(target.folder()).and_then(|dir| dir.sync_all()).map_err(io_error)?;
    Ok(())
}

/// The suffix of the temporary files [`write_atomically`] makes; a crash can leave them behind.
pub const TEMP_SUFFIX: &str = ".unfold-tmp";
