//! Proptest generators of valid documents (templates and scenarios with every field present or
//! absent, placeholders all declared) and the helpers the property tests of every crate share.

use std::collections::HashSet;

use indexmap::IndexMap;

use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;
use serde_json::{json, Map, Value};
use unfold_documents::scenario::{ScenarioLimits, ScriptedCall, Step, ToolChange, Turn};
use unfold_documents::source::{McpServer, ToolSource};
use unfold_documents::template::{Disclosure, HeadingStyle, Section, ToolDisclosure};
use unfold_documents::tool::{ScriptedResult, ToolKind};
use unfold_documents::{Scenario, Template, Tool, Visibility};

/// A config with `cases` cases unless `PROPTEST_CASES` says otherwise.
pub fn config(cases: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(cases);
    ProptestConfig { cases, ..ProptestConfig::default() }
}

// ---------------------------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------------------------

/// Any short text: every Unicode scalar, control characters and newlines included.
pub fn text() -> BoxedStrategy<String> {
    prop_oneof!["(?s).{0,12}", "[ \t\n]{0,3}[a-zA-Z ]{0,10}", Just(String::new())].boxed()
}

/// Any JSON value, shallow; numbers cover the whole i64, u64 and finite f64 ranges.
pub fn json_value() -> BoxedStrategy<Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_filter_map("finite", |f| serde_json::Number::from_f64(f).map(Value::Number)),
        text().prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            vec(inner.clone(), 0..4).prop_map(Value::Array),
            vec((text(), inner), 0..4).prop_map(|pairs| Value::Object(pairs.into_iter().collect())),
        ]
    })
    .boxed()
}

/// `x-` extension fields.
pub fn extensions() -> BoxedStrategy<Map<String, Value>> {
    prop_oneof![
        2 => Just(Map::new()),
        1 => vec(("x-[a-z0-9_-]{0,6}", json_value()), 1..3).prop_map(|pairs| pairs.into_iter().collect()),
    ]
    .boxed()
}

pub fn scripted_result() -> BoxedStrategy<ScriptedResult> {
    prop_oneof![json_value().prop_map(ScriptedResult::Result), text().prop_map(ScriptedResult::Error)].boxed()
}

/// A simple object schema: typed properties, some required, maybe `additionalProperties`.
pub fn parameters() -> BoxedStrategy<Value> {
    let property = (
        "[a-z_][a-z0-9_]{0,8}",
        prop::sample::select(vec!["string", "integer", "number", "boolean"]),
        option::of(text()),
    );
    (vec(property, 0..4), any::<bool>(), option::of(any::<bool>()))
        .prop_map(|(properties, require_all, additional)| {
            let mut props = Map::new();
            for (name, kind, description) in properties {
                let mut schema = json!({ "type": kind });
                if let Some(description) = description {
                    schema["description"] = Value::String(description);
                }
                props.insert(name, schema);
            }
            let required: Vec<Value> = props.keys().cloned().map(Value::String).collect();
            let mut schema = json!({ "type": "object", "properties": props });
            if require_all {
                schema["required"] = Value::Array(required);
            }
            if let Some(additional) = additional {
                schema["additionalProperties"] = Value::Bool(additional);
            }
            schema
        })
        .boxed()
}

/// A tool; its name is a prefix that [`Names::tool`] makes unique.
pub fn tool() -> BoxedStrategy<Tool> {
    let kind = prop::sample::select(vec![ToolKind::Read, ToolKind::Edit, ToolKind::Execute, ToolKind::Other]);
    (
        "[A-Za-z0-9_-]{1,12}",
        text(),
        option::of(text()),
        parameters(),
        option::of(kind),
        option::of(vec(text(), 0..3)),
        option::of(any::<bool>()),
        option::of(scripted_result()),
        extensions(),
    )
        .prop_map(|(name, description, brief, parameters, kind, categories, requires_permission, mock, extensions)| {
            Tool { name, description, brief, parameters, kind, categories, requires_permission, mock, extensions }
        })
        .boxed()
}

/// One piece of a section's text: placeholders refer to declared parameters by index.
#[derive(Debug, Clone)]
pub enum Piece {
    Literal(String),
    /// `$$`
    Dollar,
    /// A declared parameter (by index), `${name}` or `$name`.
    Param(usize, bool),
}

pub fn pieces() -> BoxedStrategy<Vec<Piece>> {
    let piece = prop_oneof![
        3 => "(?s)[^$]{0,12}".prop_map(Piece::Literal),
        2 => "[ \t]{0,4}[a-z]{0,4}\n[ \t]{0,4}[a-z_]{0,4}".prop_map(Piece::Literal),
        1 => Just(Piece::Dollar),
        2 => (any::<usize>(), any::<bool>()).prop_map(|(i, braced)| Piece::Param(i, braced)),
    ];
    vec(piece, 0..6).boxed()
}

/// The text of `pieces` with parameter indices resolved in `names` (dropped when there are none)
/// and `$name` braced where the next character would extend the name.
pub fn assemble(pieces: &[Piece], names: &[String]) -> String {
    let resolve = |i: usize| (!names.is_empty()).then(|| names[i % names.len()].as_str());
    let next_char = |from: usize| {
        pieces[from..].iter().find_map(|piece| match piece {
            Piece::Literal(s) => s.chars().next(),
            Piece::Dollar => Some('$'),
            Piece::Param(i, _) => resolve(*i).map(|_| '$'),
        })
    };
    let mut text = String::new();
    for (at, piece) in pieces.iter().enumerate() {
        match piece {
            Piece::Literal(s) => text.push_str(s),
            Piece::Dollar => text.push_str("$$"),
            Piece::Param(i, braced) => {
                let Some(name) = resolve(*i) else { continue };
                let extends = next_char(at + 1).is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
                if *braced || extends {
                    text.push_str(&format!("${{{name}}}"));
                } else {
                    text.push_str(&format!("${name}"));
                }
            }
        }
    }
    text
}

/// A section before its keys, tool names and placeholders are made valid by [`Names`].
#[derive(Debug, Clone)]
pub struct SectionSpec {
    key: String,
    title: String,
    template: Vec<Piece>,
    summary: Option<Vec<Piece>>,
    summarized: bool,
    tools: Vec<Tool>,
    children: Vec<SectionSpec>,
    extensions: Map<String, Value>,
}

pub fn section_spec() -> BoxedStrategy<SectionSpec> {
    let leaf = (
        "[a-z0-9][a-z0-9_-]{0,6}",
        text(),
        pieces(),
        option::of(pieces()),
        prop::bool::weighted(0.35),
        prop_oneof![3 => Just(Vec::new()), 1 => vec(tool(), 1..3)],
        extensions(),
    )
        .prop_map(|(key, title, template, summary, summarized, tools, extensions)| SectionSpec {
            key,
            title,
            template,
            summary,
            summarized,
            tools,
            children: Vec::new(),
            extensions,
        });
    leaf.prop_recursive(4, 24, 4, |inner| {
        (inner.clone(), vec(inner, 0..4)).prop_map(|(mut section, children)| {
            section.children = children;
            section
        })
    })
    .boxed()
}

/// Makes generated parts valid: unique sibling keys, unique tool names, declared parameters.
pub struct Names<'a> {
    params: &'a [String],
    tools: usize,
}

impl Names<'_> {
    fn tool(&mut self, mut tool: Tool) -> Tool {
        self.tools += 1;
        // A `_<n>` suffix makes the name unique and never a builtin's.
        tool.name = format!("{}_{}", tool.name, self.tools);
        tool
    }

    fn sections(&mut self, specs: Vec<SectionSpec>) -> Vec<Section> {
        let mut keys = HashSet::new();
        let mut sections = Vec::new();
        for (i, spec) in specs.into_iter().enumerate() {
            let mut key = spec.key;
            while !keys.insert(key.clone()) {
                key.push_str(&format!("-{i}"));
            }
            let summary = match (spec.summary, spec.summarized) {
                (Some(pieces), _) => Some(assemble(&pieces, self.params)),
                (None, true) => Some(String::new()),
                (None, false) => None,
            };
            sections.push(Section {
                key,
                title: spec.title,
                template: assemble(&spec.template, self.params),
                summary,
                visibility: if spec.summarized { Visibility::Summary } else { Visibility::Full },
                tools: spec.tools.into_iter().map(|t| self.tool(t)).collect(),
                children: self.sections(spec.children),
                extensions: spec.extensions,
            });
        }
        sections
    }
}

/// A valid template: every generated field present or absent, placeholders all declared.
pub fn template() -> BoxedStrategy<Template> {
    let disclosure = prop::sample::select(vec![Disclosure::ReadSection, Disclosure::OpenSections, Disclosure::Mixed]);
    let tool_disclosure = prop::sample::select(vec![ToolDisclosure::Full, ToolDisclosure::PickTools]);
    let heading = prop::sample::select(vec![HeadingStyle::Plain, HeadingStyle::Keyed]);
    (
        text(),
        "(?s).{1,12}",
        text(),
        disclosure,
        tool_disclosure,
        heading,
        vec(("[_A-Za-z][_A-Za-z0-9]{0,6}", text()), 0..4),
        prop_oneof![2 => Just(Vec::new()), 1 => vec(tool(), 1..3)],
        vec(section_spec(), 0..5),
        extensions(),
        any::<bool>(),
    )
        .prop_map(
            |(ns, key, name, disclosure, tool_disclosure, heading, params, tools, sections, extensions, source)| {
                let params: IndexMap<String, String> = params.into_iter().collect();
                let names: Vec<String> = params.keys().cloned().collect();
                let mut fix = Names { params: &names, tools: 0 };
                let tools: Vec<Tool> = tools.into_iter().map(|t| fix.tool(t)).collect();
                let sections = fix.sections(sections);
                // A source of the template's own tools, its snapshot the written tools' (a run leaves out
                // the names it already has; the file keeps them as written).
                let sources = if source { vec![mcp_source(tools.clone())] } else { Vec::new() };
                Template {
                    schema_version: 1,
                    kind: "unfold.template".to_owned(),
                    ns,
                    key,
                    name,
                    disclosure,
                    tool_disclosure,
                    heading,
                    params,
                    tools,
                    sources,
                    sections,
                    extensions,
                }
            },
        )
        .boxed()
}

/// An MCP source started by a command, with a variable taken from the user's environment.
fn mcp_source(snapshot: Vec<Tool>) -> ToolSource {
    ToolSource {
        name: "docs".to_owned(),
        section: None,
        mcp: Some(McpServer {
            command: Some(vec!["python3".to_owned(), "docs server.py".to_owned()]),
            cwd: Some("servers".to_owned()),
            env: IndexMap::from([("DOCS_TOKEN".to_owned(), "${env:DOCS_TOKEN}".to_owned())]),
            url: None,
            extensions: Map::from_iter([("x-owner".to_owned(), json!("docs team"))]),
        }),
        relay: None,
        snapshot: Some(snapshot),
        extensions: Map::new(),
    }
}

pub fn scripted_call() -> BoxedStrategy<ScriptedCall> {
    let name = prop_oneof![
        3 => "[A-Za-z0-9_-]{1,10}",
        1 => prop::sample::select(vec!["read_section".to_owned(), "open_sections".to_owned(), "pick_tools".to_owned()]),
        1 => text(),
    ];
    (name, vec((text(), json_value()), 0..3))
        .prop_map(|(call, args)| ScriptedCall { call, args: args.into_iter().collect() })
        .boxed()
}

/// A valid scenario: one turn (`user` + `script`) or several (`turns`), each turn's last step, and
/// only it, a `say`; tool changes at distinct model calls or turns, each added tool named once and
/// never removed in the change that adds it.
pub fn scenario() -> BoxedStrategy<Scenario> {
    let step = prop_oneof![
        2 => scripted_call().prop_map(Step::Call),
        1 => vec(scripted_call(), 1..3).prop_map(|calls| Step::Calls { calls }),
    ];
    let turn = (text(), vec(step, 0..5), text()).prop_map(|(user, mut script, say)| {
        script.push(Step::Say { say });
        Turn { user, script }
    });
    let change = (any::<bool>(), 1u32..40, vec(tool(), 0..2), vec(tool(), 0..2), vec("[A-Za-z0-9_-]{1,8}", 0..2));
    let limits = option::of((option::of(1u32..1000), option::of(any::<u32>())));
    (
        "(?s).{1,12}",
        vec(("[_A-Za-z][_A-Za-z0-9]{0,6}", text()), 0..3),
        vec(turn, 1..4),
        vec(("[A-Za-z0-9_-]{1,8}", vec(scripted_result(), 0..3)), 0..3),
        vec(change, 0..3),
        limits,
        extensions(),
    )
        .prop_map(|(name, params, mut turns, tool_results, changes, limits, extensions)| {
            let mut fix = Names { params: &[], tools: 0 };
            let mut seen = HashSet::new();
            let turn_count = turns.len() as u32;
            let tool_changes = changes
                .into_iter()
                .map(|(by_turn, at, add, modify, remove)| {
                    let moment = if by_turn { (None, Some(1 + at % turn_count)) } else { (Some(at), None) };
                    (moment, add, modify, remove)
                })
                .filter(|(moment, ..)| seen.insert(*moment))
                .map(|((at_model_call, at_turn), add, modify, remove)| {
                    let add: Vec<Tool> = add.into_iter().map(|t| fix.tool(t)).collect();
                    let remove = remove.into_iter().filter(|name| add.iter().all(|t| &t.name != name)).collect();
                    ToolChange {
                        at_model_call,
                        at_turn,
                        add,
                        remove,
                        modify: modify.into_iter().map(|t| fix.tool(t)).collect(),
                    }
                })
                .collect();
            let (user, script) = match turns.len() {
                1 => {
                    let Turn { user, script } = turns.remove(0);
                    (Some(user), script)
                }
                _ => (None, Vec::new()),
            };
            Scenario {
                schema_version: 1,
                kind: "unfold.scenario".to_owned(),
                name,
                params: params.into_iter().collect(),
                user,
                script,
                turns,
                tool_results: tool_results.into_iter().collect(),
                tool_changes,
                limits: limits.map(|(max_model_calls, max_restarts)| ScenarioLimits { max_model_calls, max_restarts }),
                extensions,
            }
        })
        .boxed()
}

pub fn visibility() -> impl Strategy<Value = Visibility> {
    prop_oneof![Just(Visibility::Full), Just(Visibility::Summary)]
}

/// Every section path in document order.
pub fn paths(template: &Template) -> Vec<String> {
    let mut paths = Vec::new();
    template.walk(&mut |path, _| paths.push(path.to_owned()));
    paths
}

/// A small edit of a text, as a keystroke or a paste makes it.
pub fn edited(text: &str, at: usize, cut: usize, insert: &str) -> String {
    let boundaries: Vec<usize> = (0..=text.len()).filter(|&i| text.is_char_boundary(i)).collect();
    let start = boundaries[at % boundaries.len()];
    let end = boundaries.iter().copied().filter(|&i| i >= start).nth(cut).unwrap_or(text.len());
    format!("{}{insert}{}", &text[..start], &text[end..])
}
