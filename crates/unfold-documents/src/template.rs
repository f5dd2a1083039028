//! The template document (`*.unfold.json`): its types, the checks a JSON Schema cannot express,
//! loading and canonical saving, and navigation of the section tree by path.

use std::collections::{HashMap, HashSet};
use std::fmt::Write;
use std::path::Path;
use std::sync::OnceLock;

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::document::{self, DocumentKind};
use crate::error::{Problem, Result};
use crate::schema::DocumentSchema;
use crate::source::ToolSource;
use crate::substitution;
use crate::tool::{check_parameters_schema, is_tool_name, reserved_name_problem, Tool};

/// Sections nest at most this deep (top level is depth 1).
pub const MAX_SECTION_DEPTH: usize = 64;
/// A template holds at most this many sections.
pub const MAX_SECTIONS: usize = 50_000;

/// A prompt template: a tree of sections with tools, rendered with progressive disclosure.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(title = "Unfold template")]
#[schemars(extend("additionalProperties" = false, "patternProperties" = { "^x-": true }))]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Template {
    /// Always 1 for this format.
    #[schemars(extend("const" = 1))]
    #[cfg_attr(feature = "specta", specta(type = u32))]
    pub schema_version: u64,
    /// Always `unfold.template`.
    #[schemars(extend("const" = "unfold.template"))]
    pub kind: String,
    /// A namespace, e.g. `agents/assistant`.
    #[serde(default)]
    pub ns: String,
    /// The template's key, e.g. `task-executor`.
    #[schemars(length(min = 1))]
    pub key: String,
    /// A human name.
    #[serde(default)]
    pub name: String,
    /// How summarized sections are offered for expansion.
    #[serde(default)]
    pub disclosure: Disclosure,
    /// Whether tools are offered in full or by brief until picked.
    #[serde(default)]
    pub tool_disclosure: ToolDisclosure,
    /// The heading style.
    #[serde(default)]
    pub heading: HeadingStyle,
    /// Default parameter values; a run or a render may override them.
    #[serde(default, deserialize_with = "crate::unique_keys::string_map")]
    #[cfg_attr(feature = "specta", specta(type = IndexMap<String, String>))]
    #[schemars(extend("propertyNames" = { "pattern": "^[_A-Za-z][_A-Za-z0-9]*$" }))]
    pub params: IndexMap<String, String>,
    /// Tools offered whatever is summarized.
    #[serde(default)]
    pub tools: Vec<Tool>,
    /// Tools that come from the environment at run time (spec 8), each belonging to a section or
    /// to the template.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sources: Vec<ToolSource>,
    /// The top-level sections, in order.
    #[serde(default)]
    pub sections: Vec<Section>,
    /// `x-` fields, kept as they are.
    #[serde(flatten, deserialize_with = "crate::unique_keys::extensions")]
    #[cfg_attr(feature = "specta", specta(skip))]
    pub extensions: Map<String, Value>,
}

/// One section of a template.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(extend("additionalProperties" = false, "patternProperties" = { "^x-": true }))]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Section {
    /// `^[a-z0-9][a-z0-9_-]*$`, unique among its siblings.
    #[schemars(regex(pattern = r"^[a-z0-9][a-z0-9_-]*$"))]
    pub key: String,
    /// The heading text.
    pub title: String,
    /// The body, with `${param}` placeholders (Python `string.Template` rules).
    #[serde(default)]
    pub template: String,
    /// What a summarized section shows instead of its body; required when `visibility` is `summary`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    /// Rendered in full or summarized, unless a session overrides it.
    #[serde(default)]
    pub visibility: Visibility,
    /// Tools offered while this section is rendered in full.
    #[serde(default)]
    pub tools: Vec<Tool>,
    /// Subsections, in order.
    #[serde(default)]
    pub children: Vec<Section>,
    /// `x-` fields, kept as they are.
    #[serde(flatten, deserialize_with = "crate::unique_keys::extensions")]
    #[cfg_attr(feature = "specta", specta(skip))]
    pub extensions: Map<String, Value>,
}

impl Section {
    /// A FULL section with a key and a title and nothing else yet.
    pub fn empty(key: &str, title: &str) -> Section {
        Section {
            key: key.to_owned(),
            title: title.to_owned(),
            template: String::new(),
            summary: None,
            visibility: Visibility::Full,
            tools: Vec::new(),
            children: Vec::new(),
            extensions: Map::new(),
        }
    }
}

/// The disclosure protocol (spec 1 and 4).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum Disclosure {
    /// One `read_section` tool for every summarized section.
    #[default]
    ReadSection,
    /// The older protocol: `open_sections` restarts with the sections expanded.
    OpenSections,
    /// What weakincentives 0.27 renders: `open_sections` for summarized sections whose subtree has
    /// tools, `read_section` for the others.
    Mixed,
}

/// How tools are described to the model.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum ToolDisclosure {
    /// Every offered tool with its full description.
    #[default]
    Full,
    /// Briefs until the model picks tools with `pick_tools`.
    PickTools,
}

/// The heading style.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum HeadingStyle {
    /// `## 1 Task`, `### 2.1 Examples`
    #[default]
    Plain,
    /// `## 1. Task (task)`, `### 2.1. Examples (context.examples)`, as weakincentives 0.27.
    Keyed,
}

/// Whether a section is rendered in full or summarized.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum Visibility {
    /// Heading, body and children.
    #[default]
    Full,
    /// Heading, summary and an instruction to expand; no children.
    Summary,
}

impl std::str::FromStr for Disclosure {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        serde_json::from_value(Value::String(s.to_owned()))
            .map_err(|_| format!("unknown disclosure '{s}' (read_section, open_sections or mixed)"))
    }
}

impl std::str::FromStr for HeadingStyle {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        serde_json::from_value(Value::String(s.to_owned()))
            .map_err(|_| format!("unknown heading style '{s}' (plain or keyed)"))
    }
}

impl Template {
    /// The JSON Schema of `*.unfold.json` files, as checked in at `schema/unfold.template.schema.json`.
    pub fn schema() -> &'static DocumentSchema {
        static SCHEMA: OnceLock<DocumentSchema> = OnceLock::new();
        SCHEMA.get_or_init(|| DocumentSchema::checked_in(include_str!("../../../schema/unfold.template.schema.json")))
    }

    /// Parses and validates a template from JSON text; reports every problem with its JSON pointer.
    pub fn from_json(bytes: &[u8]) -> Result<Template> {
        Template::parse(bytes, Template::problems)
    }

    /// Parses a template that the editor held, as a recovery entry keeps it: the size, depth and
    /// schema checks apply, but not the semantic ones, so work in progress with problems (a bad
    /// placeholder, a duplicate key) comes back as it was and shows its problems in the editor.
    pub fn from_json_with_problems(bytes: &[u8]) -> Result<Template> {
        Template::parse(bytes, |_| Vec::new())
    }

    fn parse(bytes: &[u8], semantic: impl FnOnce(&Template) -> Vec<Problem>) -> Result<Template> {
        let tag = DocumentKind::Template.tag();
        document::parse_versioned_typed_first(bytes, tag, Template::schema, Template::passes_schema, semantic)
    }

    /// Whether the template's saved text passes its JSON Schema, as far as the Rust types leave
    /// it open: the constants, a non-empty key, the patterns of parameter names, section keys and
    /// tool names, and extension fields named `x-…`. Everything else the schema says (the fields,
    /// their types, the enums' values, which fields are required, what may be `null`) is what
    /// serde takes for these types, since the schema is generated from them. `false` is always
    /// safe: the caller then asks the schema. Templates with sources are not looked into (their
    /// tools come from elsewhere and are few), so they are always `false`.
    ///
    /// A template file is read straight into the types and, when this holds, neither built as a
    /// JSON tree nor validated against the schema
    /// ([`document::parse_versioned_typed_first`]); the editor tells from it that a template's
    /// saved text would read back without writing it.
    pub fn passes_schema(&self) -> bool {
        // Every field is named, so that a new one has to be thought about here.
        let Template {
            schema_version,
            kind,
            ns: _,
            key,
            name: _,
            disclosure: _,
            tool_disclosure: _,
            heading: _,
            params,
            tools,
            sources,
            sections,
            extensions,
        } = self;
        *schema_version == document::SCHEMA_VERSION
            && kind == DocumentKind::Template.tag()
            && !key.is_empty()
            && params.keys().all(|name| is_param_name(name))
            && tools.iter().all(tool_passes_schema)
            && sources.is_empty()
            && sections.iter().all(|section| section_passes_schema(section, 1))
            && extensions_pass_schema(extensions)
    }

    /// Whether the saved text would pass the size and depth limits, the `kind` and
    /// `schema_version` checks and the JSON Schema, and read back as this very template: the
    /// schema's rules beyond the Rust types ([`Template::passes_schema`]), then the nesting
    /// depth and size of the text. `false` is always safe: the caller then takes the text round
    /// trip. Only a size bound over the limit costs a serialization, to measure the size exactly.
    pub(crate) fn passes_document_checks(&self) -> bool {
        self.passes_schema() && self.fits_saved_size()
    }

    /// Whether the saved text would pass the size and depth limits.
    pub(crate) fn fits_saved_size(&self) -> bool {
        self.saved_size_bound().is_some_and(|bound| {
            bound <= document::MAX_DOCUMENT_BYTES || document::canonical_json_len(self) <= document::MAX_DOCUMENT_BYTES
        })
    }

    /// At least the length of the saved text (see [`SavedSize`]); `None` if the text would nest too
    /// deep.
    fn saved_size_bound(&self) -> Option<u64> {
        // Here and below every field is named, so that a new one has to be thought about here.
        let Template {
            schema_version: _,
            kind,
            ns,
            key,
            name,
            disclosure: _,
            tool_disclosure: _,
            heading: _,
            params,
            tools,
            sources,
            sections,
            extensions,
        } = self;
        // Sources are few and small: a template with any takes the exact way (the text round trip).
        if !sources.is_empty() {
            return None;
        }
        // The template's object is at JSON depth 1, the arrays and objects of its fields at 2.
        let params = SavedSize::object(2, params.iter().map(|(name, value)| (name, value.as_str())))?;
        let values = [
            SavedSize::SCALAR,
            SavedSize::string(kind),
            SavedSize::string(ns),
            SavedSize::string(key),
            SavedSize::string(name),
            SavedSize::SCALAR,
            SavedSize::SCALAR,
            SavedSize::SCALAR,
            params,
            SavedSize::array(2, tools, |tool| tool_size(tool, 3))?,
            SavedSize::array(2, sections, |section| section_size(section, 3))?,
        ];
        SavedSize::record(1, &values, extensions)
    }

    /// What "New template" starts from: a key, a name and one empty section to write in.
    pub fn blank() -> Template {
        Template {
            schema_version: 1,
            kind: "unfold.template".to_owned(),
            ns: String::new(),
            key: "untitled".to_owned(),
            name: "Untitled".to_owned(),
            disclosure: Disclosure::default(),
            tool_disclosure: ToolDisclosure::default(),
            heading: HeadingStyle::default(),
            params: IndexMap::new(),
            tools: Vec::new(),
            sources: Vec::new(),
            sections: vec![Section::empty("instructions", "Instructions")],
            extensions: Map::new(),
        }
    }

    /// Loads and validates a template file; errors name the file.
    pub fn load(path: &Path) -> Result<Template> {
        let bytes = document::read_document_bytes(path)?;
        Template::from_json(&bytes).map_err(|e| e.in_file(path))
    }

    /// The canonical JSON text: what [`Template::save`] writes.
    pub fn to_json(&self) -> String {
        document::to_canonical_json(self)
    }

    /// Saves the canonical JSON text atomically.
    pub fn save(&self, path: &Path) -> Result<()> {
        document::write_atomically(path, &self.to_json())
    }

    /// The section at a dotted path from the root (`context.examples`).
    pub fn section(&self, path: &str) -> Option<&Section> {
        let mut keys = path.split('.');
        let first = keys.next()?;
        let mut section = self.sections.iter().find(|s| s.key == first)?;
        for key in keys {
            section = section.children.iter().find(|s| s.key == key)?;
        }
        Some(section)
    }

    /// Visits every section depth-first in document order with its dotted path; stops descending
    /// below [`MAX_SECTION_DEPTH`].
    pub fn walk<'t>(&'t self, visit: &mut dyn FnMut(&str, &'t Section)) {
        fn go<'t>(sections: &'t [Section], path: &mut String, depth: usize, visit: &mut dyn FnMut(&str, &'t Section)) {
            if depth > MAX_SECTION_DEPTH {
                return;
            }
            for section in sections {
                let len = path.len();
                if len > 0 {
                    path.push('.');
                }
                path.push_str(&section.key);
                visit(path, section);
                go(&section.children, path, depth + 1, visit);
                path.truncate(len);
            }
        }
        go(&self.sections, &mut String::new(), 1, visit);
    }

    /// Every tool the template defines: its own, then its sections' in document order.
    pub fn all_tools(&self) -> Vec<&Tool> {
        let mut tools: Vec<&Tool> = self.tools.iter().collect();
        self.walk(&mut |_, section| tools.extend(&section.tools));
        tools
    }

    /// Names of every parameter the template's texts use, in order of first use.
    pub fn used_params(&self) -> Vec<String> {
        // Names are borrowed until the end: a large template uses the same few names thousands of
        // times.
        let mut seen = indexmap::IndexSet::new();
        self.walk(&mut |_, section| {
            for text in std::iter::once(&section.template).chain(&section.summary) {
                seen.extend(substitution::placeholders(text));
            }
        });
        seen.into_iter().map(str::to_owned).collect()
    }

    /// The problems a JSON Schema cannot express (duplicate keys and tool names, summaries, depth,
    /// size, tool parameter schemas, placeholders).
    fn problems(&self) -> Vec<Problem> {
        self.check(TemplateChecker::default()).problems
    }

    /// The checks of [`Template::problems`], with where each section's text problems are.
    pub(crate) fn checked(&self) -> TemplateChecker {
        self.check(TemplateChecker { text_problems: Some(Vec::new()), ..TemplateChecker::default() })
    }

    fn check(&self, mut checker: TemplateChecker) -> TemplateChecker {
        checker.tools(&self.tools, "");
        checker.sections(&self.sections, &mut String::new(), 1);
        checker.problems.extend(crate::source::source_problems(&self.sources, &|path| self.section(path).is_some()));
        checker
    }
}

#[derive(Default)]
pub(crate) struct TemplateChecker {
    pub(crate) problems: Vec<Problem>,
    tool_names: HashMap<String, String>,
    section_count: usize,
    /// For each section checked, in the walk's order, where its text problems are in `problems`
    /// (see [`TemplateChecker::texts`]); kept only when asked for (`Template::checked`), since a
    /// load needs only the problems.
    pub(crate) text_problems: Option<Vec<std::ops::Range<usize>>>,
    /// Whether sections nest too deep to be walked, so that some were not checked.
    pub(crate) cut_short: bool,
}

impl TemplateChecker {
    /// Checks `sections`, the children of the section at `pointer` (the template's top level when
    /// empty). The pointer is extended in place and restored, and made a string of its own only
    /// for a problem: the editor runs these checks on every keystroke.
    fn sections(&mut self, sections: &[Section], pointer: &mut String, depth: usize) {
        let parent_len = pointer.len();
        pointer.push_str(if parent_len == 0 { "/sections" } else { "/children" });
        let base_len = pointer.len();
        if depth > MAX_SECTION_DEPTH && !sections.is_empty() {
            let message = format!("sections nest deeper than {MAX_SECTION_DEPTH} levels");
            self.problems.push(Problem::at(pointer.clone(), message));
            self.cut_short = true;
            pointer.truncate(parent_len);
            return;
        }
        let mut keys = SiblingKeys::new(sections);
        for (i, section) in sections.iter().enumerate() {
            pointer.truncate(base_len);
            let _ = write!(pointer, "/{i}");
            self.section_count += 1;
            if self.section_count == MAX_SECTIONS + 1 {
                self.problems.push(Problem::at(pointer.clone(), format!("more than {MAX_SECTIONS} sections")));
            }
            if let Some(first) = keys.nearest_before(i) {
                let message = format!("duplicate key '{}': {}/{first} has it too", section.key, &pointer[..base_len]);
                self.problems.push(Problem::at(format!("{pointer}/key"), message));
            }
            let start = self.problems.len();
            self.texts(section, pointer);
            if let Some(text_problems) = &mut self.text_problems {
                text_problems.push(start..self.problems.len());
            }
            self.tools(&section.tools, pointer);
            self.sections(&section.children, pointer, depth + 1);
        }
        pointer.truncate(parent_len);
    }

    /// The problems of the section at `pointer` that only its text fields (title, template,
    /// summary, visibility) decide: an edit of those changes nothing else.
    pub(crate) fn texts(&mut self, section: &Section, pointer: &str) {
        if section.visibility == Visibility::Summary && section.summary.is_none() {
            self.problems.push(Problem::at(pointer, "a summarized section needs a \"summary\""));
        }
        self.placeholders(&section.template, pointer, "template");
        if let Some(summary) = &section.summary {
            self.placeholders(summary, pointer, "summary");
        }
    }

    fn placeholders(&mut self, text: &str, section: &str, field: &str) {
        if let Err(e) = substitution::check_syntax(text) {
            self.problems.push(Problem::at(format!("{section}/{field}"), e.to_string()));
        }
    }

    fn tools(&mut self, tools: &[Tool], parent: &str) {
        for (i, tool) in tools.iter().enumerate() {
            let pointer = format!("{parent}/tools/{i}");
            if let Some(message) = reserved_name_problem(&tool.name) {
                self.problems.push(Problem::at(format!("{pointer}/name"), message));
            } else if let Some(first) = self.tool_names.insert(tool.name.clone(), pointer.clone()) {
                self.problems.push(Problem::at(
                    format!("{pointer}/name"),
                    format!("duplicate tool name '{}': {first} has it too", tool.name),
                ));
            }
            if let Err(problem) = check_parameters_schema(&tool.parameters) {
                self.problems.push(problem.at(&format!("{pointer}/parameters")));
            }
        }
    }
}

/// Which earlier sibling has a section's key. The editor checks every sibling list at every
/// keystroke, and most are short: among a few, comparing keys is faster than hashing them.
struct SiblingKeys<'a> {
    sections: &'a [Section],
    /// The latest index of each key seen, for a long list.
    latest: Option<HashMap<&'a str, usize>>,
}

impl<'a> SiblingKeys<'a> {
    const SCANNED: usize = 16;

    fn new(sections: &'a [Section]) -> SiblingKeys<'a> {
        let latest = (sections.len() > Self::SCANNED).then(|| HashMap::with_capacity(sections.len()));
        SiblingKeys { sections, latest }
    }

    /// The index of the nearest section before `i` with the key of section `i`; call it for each
    /// `i` in order.
    fn nearest_before(&mut self, i: usize) -> Option<usize> {
        let key = self.sections[i].key.as_str();
        match &mut self.latest {
            Some(latest) => latest.insert(key, i),
            None => self.sections[..i].iter().rposition(|earlier| earlier.key == key),
        }
    }
}

/// [`Template::passes_schema`] for a section at `depth` (the top level is 1) and its subsections;
/// `false` below [`MAX_SECTION_DEPTH`], where the template is refused anyway, so that the
/// recursion stays bounded for a tree the editor built.
fn section_passes_schema(section: &Section, depth: usize) -> bool {
    let Section { key, title: _, template: _, summary: _, visibility: _, tools, children, extensions } = section;
    depth <= MAX_SECTION_DEPTH
        && is_section_key(key)
        && tools.iter().all(tool_passes_schema)
        && children.iter().all(|child| section_passes_schema(child, depth + 1))
        && extensions_pass_schema(extensions)
}

/// [`Template::passes_schema`] for a tool.
fn tool_passes_schema(tool: &Tool) -> bool {
    let Tool {
        name,
        description: _,
        brief: _,
        parameters: _,
        kind: _,
        categories: _,
        requires_permission: _,
        mock: _,
        extensions,
    } = tool;
    is_tool_name(name) && extensions_pass_schema(extensions)
}

/// The schemas' `additionalProperties: false` with `patternProperties: {"^x-": true}`: the
/// unknown fields a struct keeps must be named `x-…`.
fn extensions_pass_schema(extensions: &Map<String, Value>) -> bool {
    extensions.keys().all(|name| name.starts_with("x-"))
}

/// `^[_A-Za-z][_A-Za-z0-9]*$`, the schema's pattern of parameter names.
fn is_param_name(name: &str) -> bool {
    name.bytes().next().is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// `^[a-z0-9][a-z0-9_-]*$`, the schema's pattern of section keys.
fn is_section_key(key: &str) -> bool {
    let allowed = |b: u8| b.is_ascii_lowercase() || b.is_ascii_digit();
    key.bytes().next().is_some_and(allowed) && key.bytes().all(|b| allowed(b) || b == b'_' || b == b'-')
}

/// The size bound of a section whose object is at JSON nesting `depth`, or `None` if it nests too
/// deep.
fn section_size(section: &Section, depth: usize) -> Option<u64> {
    let Section { key, title, template, summary, visibility: _, tools, children, extensions } = section;
    let values = [
        SavedSize::string(key),
        SavedSize::string(title),
        SavedSize::string(template),
        summary.as_deref().map_or(0, SavedSize::string),
        SavedSize::SCALAR,
        SavedSize::array(depth + 1, tools, |tool| tool_size(tool, depth + 2))?,
        SavedSize::array(depth + 1, children, |child| section_size(child, depth + 2))?,
    ];
    SavedSize::record(depth, &values, extensions)
}

/// The size bound of a tool whose object is at JSON nesting `depth`, or `None` if it nests too
/// deep.
fn tool_size(tool: &Tool, depth: usize) -> Option<u64> {
    let Tool { name, description, brief, parameters, kind: _, categories, requires_permission: _, mock, extensions } =
        tool;
    let no_extensions = Map::new();
    let mock = match mock {
        Some(crate::tool::ScriptedResult::Result(value)) => {
            SavedSize::record(depth + 1, &[SavedSize::value(value, depth + 1)?], &no_extensions)?
        }
        Some(crate::tool::ScriptedResult::Error(message)) => {
            SavedSize::record(depth + 1, &[SavedSize::string(message)], &no_extensions)?
        }
        None => 0,
    };
    let categories = match categories {
        Some(categories) => SavedSize::array(depth + 1, categories, |category| Some(SavedSize::string(category)))?,
        None => 0,
    };
    let values = [
        SavedSize::string(name),
        SavedSize::string(description),
        brief.as_deref().map_or(0, SavedSize::string),
        SavedSize::value(parameters, depth)?,
        SavedSize::SCALAR,
        categories,
        SavedSize::SCALAR,
        mock,
    ];
    SavedSize::record(depth, &values, extensions)
}

/// Upper bounds of how many bytes parts of a template take in its saved text (2-space indented
/// JSON), computed without writing it, generous where that keeps them simple; and the JSON
/// nesting depth limit: the functions that return an `Option` return `None` for a part nested
/// deeper than [`document::MAX_JSON_DEPTH`]. `depth` is always the nesting of the object or array
/// at hand (the template's is 1), or, for a member's value, of the object or array it is in.
struct SavedSize;

impl SavedSize {
    /// A number, `true`, `false`, `null` or a unit variant's name, at most.
    const SCALAR: u64 = 64;
    /// A known field's name with its quotes, at most.
    const FIELD_NAME: u64 = 32;

    /// A string: its quotes and, for each byte, its longest escape (`\u00XX`).
    fn string(text: &str) -> u64 {
        6 * text.len() as u64 + 2
    }

    /// An object or array at `depth`, without its members: brackets, last line break and indent.
    fn brackets(depth: usize) -> Option<u64> {
        (depth <= document::MAX_JSON_DEPTH).then_some(2 * depth as u64 + 3)
    }

    /// What a member of an object (or an item of an array) at `depth` takes besides its name and
    /// value: comma, line break, indentation and `": "`.
    fn separators(depth: usize) -> u64 {
        2 * depth as u64 + 8
    }

    /// A struct at `depth` whose known fields' values take `values` at most, with its `x-` fields.
    fn record(depth: usize, values: &[u64], extensions: &Map<String, Value>) -> Option<u64> {
        let known: u64 = values.iter().map(|value| Self::separators(depth) + Self::FIELD_NAME + value).sum();
        let mut size = Self::brackets(depth)? + known;
        for (name, value) in extensions {
            size += Self::separators(depth) + Self::string(name) + Self::value(value, depth)?;
        }
        Some(size)
    }

    /// An object at `depth` of string members.
    fn object<'a>(depth: usize, members: impl Iterator<Item = (&'a String, &'a str)>) -> Option<u64> {
        let members: u64 =
            members.map(|(name, value)| Self::separators(depth) + Self::string(name) + Self::string(value)).sum();
        Some(Self::brackets(depth)? + members)
    }

    /// An array at `depth` whose items take `item` at most.
    fn array<T>(depth: usize, items: &[T], item: impl Fn(&T) -> Option<u64>) -> Option<u64> {
        let mut size = Self::brackets(depth)?;
        for each in items {
            size += Self::separators(depth) + item(each)?;
        }
        Some(size)
    }

    /// Any JSON value, a member of an object (or an item of an array) at `depth`. Recursion is
    /// bounded by the depth limit, whatever the value.
    fn value(value: &Value, depth: usize) -> Option<u64> {
        match value {
            Value::String(text) => Some(Self::string(text)),
            Value::Array(items) => Self::array(depth + 1, items, |item| Self::value(item, depth + 1)),
            Value::Object(members) => {
                let mut size = Self::brackets(depth + 1)?;
                for (name, member) in members {
                    size += Self::separators(depth + 1) + Self::string(name) + Self::value(member, depth + 1)?;
                }
                Some(size)
            }
            _ => Some(Self::SCALAR),
        }
    }
}

/// The tool names used anywhere in a template, builtins excluded.
pub fn tool_name_set(template: &Template) -> HashSet<&str> {
    template.all_tools().into_iter().map(|t| t.name.as_str()).collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// A tool with every field set, its texts made of the characters with the longest escapes.
    fn worst_tool(name: &str, text: &str) -> Tool {
        Tool {
            name: name.to_owned(),
            description: text.to_owned(),
            brief: Some(text.to_owned()),
            parameters: json!({ "type": "object", "x": [[[]], {}, -9223372036854775808i64, -1.7976931348623157e308, text] }),
            kind: Some(crate::tool::ToolKind::Execute),
            categories: Some(vec![text.to_owned(), String::new()]),
            requires_permission: Some(false),
            mock: Some(crate::tool::ScriptedResult::Result(json!({ text: [u64::MAX, null, true] }))),
            extensions: Map::from_iter([("x-".to_owned() + text, json!([{ text: {} }]))]),
        }
    }

    fn worst_section(key: &str, text: &str, children: Vec<Section>) -> Section {
        Section {
            key: key.to_owned(),
            title: text.to_owned(),
            template: text.to_owned(),
            summary: Some(text.to_owned()),
            visibility: Visibility::Summary,
            tools: vec![worst_tool(&format!("t{key}"), text)],
            children,
            extensions: Map::from_iter([("x-".to_owned() + text, json!(text))]),
        }
    }

    #[test]
    fn the_saved_size_bound_is_never_below_the_saved_size() {
        let mut templates: Vec<Template> = ["task-executor", "code-review", "incident-runbook", "support-desk"]
            .iter()
            .map(|name| {
                let path = format!("{}/../../examples/{name}.unfold.json", env!("CARGO_MANIFEST_DIR"));
                Template::load(Path::new(&path)).expect("the example loads")
            })
            .collect();
        templates.push(Template::blank());
        let escapes = "\u{1}".repeat(500);
        for text in ["", "\u{1}\u{1f}", "\"\\", "é€😀", "plain text", &escapes] {
            let deep = (0..40).fold(Vec::new(), |children, i| vec![worst_section(&format!("d{i}"), text, children)]);
            let mut template = Template::blank();
            template.ns = text.to_owned();
            template.name = text.to_owned();
            template.params.insert("p".to_owned(), text.to_owned());
            template.tools.push(worst_tool("top", text));
            template.sections.extend(deep);
            template.extensions.insert("x-top".to_owned(), json!({ text: text }));
            templates.push(template);
        }
        for template in templates {
            let bound = template.saved_size_bound().expect("within the schema and the depth limit");
            let size = template.to_json().len() as u64;
            assert!(bound >= size, "bound {bound} < size {size} of {}", template.to_json());
            assert_eq!(document::canonical_json_len(&template), size);
        }
    }
}
