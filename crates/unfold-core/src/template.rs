//! The template document (`*.unfold.json`): its types, the checks a JSON Schema cannot express,
//! loading and canonical saving, and navigation of the section tree by path.

use std::collections::{HashMap, HashSet};
use std::fmt::Write;
use std::path::Path;

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::document::{self, DocumentKind};
use crate::error::{Problem, Result};
use crate::substitution;
use crate::tool::{reserved_name_problem, Tool};

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
    #[serde(default)]
    #[schemars(extend("propertyNames" = { "pattern": "^[_A-Za-z][_A-Za-z0-9]*$" }))]
    pub params: IndexMap<String, String>,
    /// Tools offered whatever is summarized.
    #[serde(default)]
    pub tools: Vec<Tool>,
    /// The top-level sections, in order.
    #[serde(default)]
    pub sections: Vec<Section>,
    /// `x-` fields, kept as they are.
    #[serde(flatten)]
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
    #[serde(flatten)]
    #[cfg_attr(feature = "specta", specta(skip))]
    pub extensions: Map<String, Value>,
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
    /// Parses and validates a template from JSON text; reports every problem with its JSON pointer.
    pub fn from_json(bytes: &[u8]) -> Result<Template> {
        document::parse_document(bytes, DocumentKind::Template, Template::problems)
    }

    /// Parses a template that the editor held, as a recovery entry keeps it: the size, depth and
    /// schema checks apply, but not the semantic ones, so work in progress with problems (a bad
    /// placeholder, a duplicate key) comes back as it was and shows its problems in the editor.
    pub fn from_json_with_problems(bytes: &[u8]) -> Result<Template> {
        document::parse_document(bytes, DocumentKind::Template, |_: &Template| Vec::new())
    }

    /// The problems opening the template's saved text would report: exactly those of
    /// `Template::from_json(self.to_json().as_bytes())`, same places, messages and order. The
    /// editor lists them after every keystroke, so the text round trip is skipped when the template
    /// holds nothing the checks before the semantic ones could refuse (see
    /// `passes_document_checks`): then only the semantic checks run, on the template as it is,
    /// which is what reading the text back would give.
    pub(crate) fn problems_on_reload(&self) -> Vec<Problem> {
        let outcome = if self.passes_document_checks() {
            match self.problems() {
                problems if problems.is_empty() => return problems,
                problems => Err(document::invalid(problems)),
            }
        } else {
            Template::from_json(self.to_json().as_bytes()).map(drop)
        };
        outcome.err().map(|error| error.problems().to_vec()).unwrap_or_default()
    }

    /// Whether the saved text would pass the size and depth limits, the `kind` and
    /// `schema_version` checks and the JSON Schema, and read back as this very template. The Rust
    /// types already guarantee the schema but for what is checked here: the constants, a non-empty
    /// key, the patterns of parameter names, section keys and tool names, extension fields named
    /// `x-…` (which also keeps them from colliding with the known fields), and the nesting depth
    /// and size of the text. `false` is always safe: the caller then takes the text round trip.
    /// Here and below every field is named, so that a new one has to be thought about here.
    fn passes_document_checks(&self) -> bool {
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
            sections,
            extensions,
        } = self;
        // The template's object is at JSON depth 1, its tools and sections at 3.
        *schema_version == document::SCHEMA_VERSION
            && kind == DocumentKind::Template.tag()
            && !key.is_empty()
            && params.keys().all(|name| is_param_name(name))
            && extensions_pass(extensions, 1)
            && tools.iter().all(|tool| tool_passes(tool, 3))
            && sections.iter().all(|section| section_passes(section, 3))
            && document::canonical_json_len(self) <= document::MAX_DOCUMENT_BYTES
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
            sections: vec![Section {
                key: "instructions".to_owned(),
                title: "Instructions".to_owned(),
                template: String::new(),
                summary: None,
                visibility: Visibility::Full,
                tools: Vec::new(),
                children: Vec::new(),
                extensions: Map::new(),
            }],
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
        let mut seen = indexmap::IndexSet::new();
        self.walk(&mut |_, section| {
            for text in std::iter::once(&section.template).chain(&section.summary) {
                seen.extend(substitution::placeholders(text).map(str::to_owned));
            }
        });
        seen.into_iter().collect()
    }

    /// The problems a JSON Schema cannot express (duplicate keys and tool names, summaries, depth,
    /// size, tool parameter schemas, placeholders).
    fn problems(&self) -> Vec<Problem> {
        let mut checker = TemplateChecker::default();
        checker.tools(&self.tools, "");
        checker.sections(&self.sections, &mut String::new(), 1);
        checker.problems
    }
}

#[derive(Default)]
struct TemplateChecker {
    problems: Vec<Problem>,
    tool_names: HashMap<String, String>,
    section_count: usize,
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
            pointer.truncate(parent_len);
            return;
        }
        let mut keys: HashMap<&str, usize> = HashMap::new();
        for (i, section) in sections.iter().enumerate() {
            pointer.truncate(base_len);
            let _ = write!(pointer, "/{i}");
            self.section_count += 1;
            if self.section_count == MAX_SECTIONS + 1 {
                self.problems.push(Problem::at(pointer.clone(), format!("more than {MAX_SECTIONS} sections")));
            }
            if let Some(first) = keys.insert(&section.key, i) {
                let message = format!("duplicate key '{}': {}/{first} has it too", section.key, &pointer[..base_len]);
                self.problems.push(Problem::at(format!("{pointer}/key"), message));
            }
            if section.visibility == Visibility::Summary && section.summary.is_none() {
                self.problems.push(Problem::at(pointer.clone(), "a summarized section needs a \"summary\""));
            }
            self.placeholders(&section.template, pointer, "template");
            if let Some(summary) = &section.summary {
                self.placeholders(summary, pointer, "summary");
            }
            self.tools(&section.tools, pointer);
            self.sections(&section.children, pointer, depth + 1);
        }
        pointer.truncate(parent_len);
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
            if let Err(message) = check_parameters_schema(&tool.parameters) {
                self.problems.push(Problem::at(format!("{pointer}/parameters"), message));
            }
        }
    }
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

/// A section whose object is at JSON nesting `depth`: its key and extensions keep to the schema,
/// and it and its subtree (tool and child arrays one level deeper) stay within the depth limit.
fn section_passes(section: &Section, depth: usize) -> bool {
    let Section { key, title: _, template: _, summary: _, visibility: _, tools, children, extensions } = section;
    depth < document::MAX_JSON_DEPTH
        && is_section_key(key)
        && extensions_pass(extensions, depth)
        && tools.iter().all(|tool| tool_passes(tool, depth + 2))
        && children.iter().all(|child| section_passes(child, depth + 2))
}

/// A tool whose object is at JSON nesting `depth`: its name (`^[A-Za-z0-9_-]{1,64}$`) and
/// extensions keep to the schema, and its values (categories and `mock` one level deeper) stay
/// within the depth limit.
fn tool_passes(tool: &Tool, depth: usize) -> bool {
    let Tool {
        name,
        description: _,
        brief: _,
        parameters,
        kind: _,
        categories: _,
        requires_permission: _,
        mock,
        extensions,
    } = tool;
    let name_ok = (1..=crate::tool::MAX_TOOL_NAME_LEN).contains(&name.len())
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    let mock_ok = match mock {
        Some(crate::tool::ScriptedResult::Result(value)) => nests_within(value, depth + 1),
        _ => true,
    };
    depth < document::MAX_JSON_DEPTH
        && name_ok
        && nests_within(parameters, depth)
        && mock_ok
        && extensions_pass(extensions, depth)
}

/// Extension fields of an object at JSON nesting `depth`: named `x-…` and within the depth limit.
fn extensions_pass(extensions: &Map<String, Value>, depth: usize) -> bool {
    extensions.iter().all(|(name, value)| name.starts_with("x-") && nests_within(value, depth))
}

/// Whether `value`, a member of an object at JSON nesting `depth`, stays within
/// [`document::MAX_JSON_DEPTH`]. Recursion is bounded by that limit, whatever the value.
fn nests_within(value: &Value, depth: usize) -> bool {
    let inner = |item: &Value| nests_within(item, depth + 1);
    match value {
        Value::Array(items) => depth < document::MAX_JSON_DEPTH && items.iter().all(inner),
        Value::Object(members) => depth < document::MAX_JSON_DEPTH && members.values().all(inner),
        _ => true,
    }
}

/// Checks that a tool's `parameters` is a valid JSON Schema describing an object. `$ref`s to other
/// files or URLs are never fetched, and patterns use a linear-time regex engine.
pub fn check_parameters_schema(parameters: &Value) -> std::result::Result<(), String> {
    let Some(object) = parameters.as_object() else {
        return Err("must be a JSON Schema object, e.g. {\"type\": \"object\", \"properties\": {}}".to_owned());
    };
    if object.get("type").is_some_and(|t| t != "object") {
        return Err(format!("must describe an object (\"type\": \"object\"), not {}", object["type"]));
    }
    crate::schema::tool_parameters_validator(parameters).map(drop).map_err(|e| format!("not a valid JSON Schema: {e}"))
}

/// The tool names used anywhere in a template, builtins excluded.
pub(crate) fn tool_name_set(template: &Template) -> HashSet<&str> {
    template.all_tools().into_iter().map(|t| t.name.as_str()).collect()
}
