//! Property tests of the promises a user relies on: save → load → save is byte-identical for
//! templates and scenarios; rendering never fails or panics on a valid template, whatever the
//! visibility overrides, and offers tools in spec order (spec 2); substitution never panics and
//! never expands a substituted value again; loading never panics on any bytes.
//!
//! Also checks that the Rust port of the benchmark template (`benches/shared/bench_template.rs`)
//! builds exactly what `bench_template.py` writes (`fixtures/bench-200.unfold.json`).
//!
//! Each property runs a moderate number of cases so the file stays fast in debug builds; set
//! `PROPTEST_CASES` to run more.

use std::collections::HashSet;

use indexmap::IndexMap;
use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;
use serde_json::{json, Map, Value};
use unfold_core::edit::{EditorDocument, SectionFields, TemplateEdit};
use unfold_core::render::SummarizedSection;
use unfold_core::scenario::{ScenarioLimits, ScriptedCall, Step, ToolChange};
use unfold_core::substitution::{self, SubstitutionError};
use unfold_core::template::{Disclosure, HeadingStyle, Section, ToolDisclosure};
use unfold_core::tool::{Builtin, ScriptedResult, ToolKind};
use unfold_core::{render, tokens, Preview, Scenario, Session, SessionState, Template, Tool, Visibility};

#[path = "../benches/shared/bench_template.rs"]
mod bench_template;

/// A config with `cases` cases unless `PROPTEST_CASES` says otherwise.
fn config(cases: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(cases);
    ProptestConfig { cases, ..ProptestConfig::default() }
}

// ---------------------------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------------------------

/// Any short text: every Unicode scalar, control characters and newlines included.
fn text() -> BoxedStrategy<String> {
    prop_oneof!["(?s).{0,12}", "[ \t\n]{0,3}[a-zA-Z ]{0,10}", Just(String::new())].boxed()
}

/// Any JSON value, shallow; numbers cover the whole i64, u64 and finite f64 ranges.
fn json_value() -> BoxedStrategy<Value> {
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
fn extensions() -> BoxedStrategy<Map<String, Value>> {
    prop_oneof![
        2 => Just(Map::new()),
        1 => vec(("x-[a-z0-9_-]{0,6}", json_value()), 1..3).prop_map(|pairs| pairs.into_iter().collect()),
    ]
    .boxed()
}

fn scripted_result() -> BoxedStrategy<ScriptedResult> {
    prop_oneof![json_value().prop_map(ScriptedResult::Result), text().prop_map(ScriptedResult::Error)].boxed()
}

/// A simple object schema: typed properties, some required, maybe `additionalProperties`.
fn parameters() -> BoxedStrategy<Value> {
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
fn tool() -> BoxedStrategy<Tool> {
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
enum Piece {
    Literal(String),
    /// `$$`
    Dollar,
    /// A declared parameter (by index), `${name}` or `$name`.
    Param(usize, bool),
}

fn pieces() -> BoxedStrategy<Vec<Piece>> {
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
fn assemble(pieces: &[Piece], names: &[String]) -> String {
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
struct SectionSpec {
    key: String,
    title: String,
    template: Vec<Piece>,
    summary: Option<Vec<Piece>>,
    summarized: bool,
    tools: Vec<Tool>,
    children: Vec<SectionSpec>,
    extensions: Map<String, Value>,
}

fn section_spec() -> BoxedStrategy<SectionSpec> {
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
struct Names<'a> {
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
fn template() -> BoxedStrategy<Template> {
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
    )
        .prop_map(|(ns, key, name, disclosure, tool_disclosure, heading, params, tools, sections, extensions)| {
            let params: IndexMap<String, String> = params.into_iter().collect();
            let names: Vec<String> = params.keys().cloned().collect();
            let mut fix = Names { params: &names, tools: 0 };
            let tools = tools.into_iter().map(|t| fix.tool(t)).collect();
            let sections = fix.sections(sections);
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
                sections,
                extensions,
            }
        })
        .boxed()
}

fn scripted_call() -> BoxedStrategy<ScriptedCall> {
    let name = prop_oneof![
        3 => "[A-Za-z0-9_-]{1,10}",
        1 => prop::sample::select(vec!["read_section".to_owned(), "open_sections".to_owned(), "pick_tools".to_owned()]),
        1 => text(),
    ];
    (name, vec((text(), json_value()), 0..3))
        .prop_map(|(call, args)| ScriptedCall { call, args: args.into_iter().collect() })
        .boxed()
}

/// A valid scenario: the last step, and only it, a `say`; tool changes at distinct model calls,
/// each added tool named once.
fn scenario() -> BoxedStrategy<Scenario> {
    let step = prop_oneof![
        2 => scripted_call().prop_map(Step::Call),
        1 => vec(scripted_call(), 1..3).prop_map(|calls| Step::Calls { calls }),
    ];
    let change = (1u32..40, vec(tool(), 0..2), vec("[A-Za-z0-9_-]{1,8}", 0..2));
    let limits = option::of((option::of(1u32..1000), option::of(any::<u32>())));
    (
        "(?s).{1,12}",
        vec(("[_A-Za-z][_A-Za-z0-9]{0,6}", text()), 0..3),
        text(),
        (vec(step, 0..5), text()),
        vec(("[A-Za-z0-9_-]{1,8}", vec(scripted_result(), 0..3)), 0..3),
        vec(change, 0..3),
        limits,
        extensions(),
    )
        .prop_map(|(name, params, user, (steps, say), tool_results, changes, limits, extensions)| {
            let mut script = steps;
            script.push(Step::Say { say });
            let mut fix = Names { params: &[], tools: 0 };
            let mut seen = HashSet::new();
            let tool_changes = changes
                .into_iter()
                .filter(|(at, _, _)| seen.insert(*at))
                .map(|(at_model_call, add, remove)| ToolChange {
                    at_model_call,
                    add: add.into_iter().map(|t| fix.tool(t)).collect(),
                    remove,
                })
                .collect();
            Scenario {
                schema_version: 1,
                kind: "unfold.scenario".to_owned(),
                name,
                params: params.into_iter().collect(),
                user,
                script,
                tool_results: tool_results.into_iter().collect(),
                tool_changes,
                limits: limits.map(|(max_model_calls, max_restarts)| ScenarioLimits { max_model_calls, max_restarts }),
                extensions,
            }
        })
        .boxed()
}

fn visibility() -> impl Strategy<Value = Visibility> {
    prop_oneof![Just(Visibility::Full), Just(Visibility::Summary)]
}

// ---------------------------------------------------------------------------------------------
// Oracles
// ---------------------------------------------------------------------------------------------

/// Every section path in document order.
fn paths(template: &Template) -> Vec<String> {
    let mut paths = Vec::new();
    template.walk(&mut |path, _| paths.push(path.to_owned()));
    paths
}

fn subtree_has_tools(section: &Section) -> bool {
    !section.tools.is_empty() || section.children.iter().any(subtree_has_tools)
}

/// `ancestor` is `path` or one of its ancestors.
fn is_within(path: &str, ancestor: &str) -> bool {
    path == ancestor || (path.starts_with(ancestor) && path.as_bytes().get(ancestor.len()) == Some(&b'.'))
}

/// What spec 2 says a render in `state` shows: the sections summarized (with the builtin their
/// line names), the tools of the sections rendered in full, and every tool offered, in order.
struct Expected {
    summarized: Vec<SummarizedSection>,
    full_tools: Vec<String>,
    offered: Vec<String>,
}

fn expected(template: &Template, state: &SessionState) -> Expected {
    fn walk(sections: &[Section], parent: &str, template: &Template, state: &SessionState, out: &mut Expected) {
        for section in sections {
            let path = if parent.is_empty() { section.key.clone() } else { format!("{parent}.{}", section.key) };
            let visibility = state.visibility.effective(&path, section.visibility);
            // A section overridden to SUMMARY without a summary is shown in full (render.rs).
            if visibility == Visibility::Summary && section.summary.is_some() {
                let builtin = match template.disclosure {
                    Disclosure::ReadSection => Builtin::ReadSection,
                    Disclosure::OpenSections => Builtin::OpenSections,
                    Disclosure::Mixed if subtree_has_tools(section) => Builtin::OpenSections,
                    Disclosure::Mixed => Builtin::ReadSection,
                };
                out.summarized.push(SummarizedSection { path, builtin });
            } else {
                out.full_tools.extend(section.tools.iter().map(|t| t.name.clone()));
                walk(&section.children, &path, template, state, out);
            }
        }
    }
    let mut out = Expected { summarized: Vec::new(), full_tools: Vec::new(), offered: Vec::new() };
    walk(&template.sections, "", template, state, &mut out);
    out.offered = template.tools.iter().map(|t| t.name.clone()).chain(out.full_tools.iter().cloned()).collect();
    for builtin in [Builtin::OpenSections, Builtin::ReadSection] {
        if out.summarized.iter().any(|s| s.builtin == builtin) {
            out.offered.push(builtin.name().to_owned());
        }
    }
    if template.tool_disclosure == ToolDisclosure::PickTools {
        out.offered.push(Builtin::PickTools.name().to_owned());
    }
    out
}

/// Renders `template` in `state` and checks the prompt against spec 2.
fn check_render(template: &Template, state: &SessionState) -> Result<(), TestCaseError> {
    let prompt =
        render(template, state).map_err(|e| TestCaseError::fail(format!("a valid template failed to render: {e}")))?;
    let expected = expected(template, state);
    let offered = prompt.tool_names();

    // No tool of a summarized section, or of a section inside one, is offered.
    let mut hidden = HashSet::new();
    template.walk(&mut |path, section| {
        if expected.summarized.iter().any(|s| is_within(path, &s.path)) {
            hidden.extend(section.tools.iter().map(|t| t.name.as_str()));
        }
    });
    for name in &offered {
        prop_assert!(!hidden.contains(name.as_str()), "tool {name} of a summarized section is offered");
    }
    // Builtins come last.
    let first_builtin = offered.iter().position(|n| Builtin::from_name(n).is_some()).unwrap_or(offered.len());
    prop_assert!(
        offered[first_builtin..].iter().all(|n| Builtin::from_name(n).is_some()),
        "a template tool comes after a builtin: {offered:?}"
    );
    // `read_section` iff some section is summarized under read_section disclosure.
    let needs_read = expected.summarized.iter().any(|s| s.builtin == Builtin::ReadSection);
    prop_assert_eq!(
        offered.iter().any(|n| n == "read_section"),
        needs_read,
        "read_section offered: {:?}, summarized: {:?}",
        offered,
        expected.summarized
    );
    // The whole list, the summarized sections and their lines, as spec 2 orders them.
    prop_assert_eq!(&offered, &expected.offered);
    prop_assert_eq!(&prompt.summarized, &expected.summarized);
    for section in &prompt.summarized {
        let line = format!("`{}` with key \"{}\"", section.builtin.name(), section.path);
        prop_assert!(prompt.markdown.contains(&line), "missing line: {line}");
    }
    if template.sections.is_empty() {
        prop_assert_eq!(prompt.markdown.as_str(), "");
    } else {
        prop_assert!(prompt.markdown.ends_with('\n') && !prompt.markdown.ends_with("\n\n"));
    }
    // In pick_tools mode a tool carries its brief (if any) until picked.
    if template.tool_disclosure == ToolDisclosure::PickTools {
        let all = template.all_tools();
        for offered in &prompt.tools {
            if let Some(tool) = all.iter().find(|t| t.name == offered.name) {
                let want = if state.picked_tools.contains(&tool.name) {
                    &tool.description
                } else {
                    tool.brief.as_ref().unwrap_or(&tool.description)
                };
                prop_assert_eq!(&offered.description, want);
            }
        }
    }
    Ok(())
}

/// What a string parameter value makes of substitution.
#[derive(Debug, Clone)]
enum Part {
    Literal(String),
    Dollar,
    Param(usize),
}

// ---------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(config(48))]

    #[test]
    fn template_save_load_save_is_byte_identical(template in template()) {
        let saved = template.to_json();
        let loaded = Template::from_json(saved.as_bytes())
            .map_err(|e| TestCaseError::fail(format!("a saved valid template does not load: {e}\n{saved}")))?;
        prop_assert!(loaded.to_json() == saved, "saved again:\n{}\nfirst save:\n{}", loaded.to_json(), saved);
        prop_assert_eq!(loaded, template);
    }

    #[test]
    fn scenario_save_load_save_is_byte_identical(scenario in scenario()) {
        let saved = scenario.to_json();
        let loaded = Scenario::from_json(saved.as_bytes())
            .map_err(|e| TestCaseError::fail(format!("a saved valid scenario does not load: {e}\n{saved}")))?;
        prop_assert!(loaded.to_json() == saved, "saved again:\n{}\nfirst save:\n{}", loaded.to_json(), saved);
        prop_assert_eq!(loaded, scenario);
    }
}

proptest! {
    #![proptest_config(config(128))]

    #[test]
    fn render_follows_spec_order_under_any_overrides(
        template in template(),
        overrides in vec((any::<usize>(), visibility()), 0..8),
        bogus in vec(("[a-z.]{0,6}", visibility()), 0..2),
        params in vec((any::<usize>(), "(\\$\\{?[a-z]{1,3}\\}?|\\$\\$|[a-z ]{0,3}){0,4}"), 0..3),
        picked in vec(any::<usize>(), 0..3),
    ) {
        let paths = paths(&template);
        let mut state = SessionState::default();
        if !paths.is_empty() {
            for (i, visibility) in overrides {
                state.visibility.set(paths[i % paths.len()].clone(), visibility);
            }
        }
        for (path, visibility) in bogus {
            state.visibility.set(path, visibility);
        }
        let names: Vec<&String> = template.params.keys().collect();
        if !names.is_empty() {
            for (i, value) in params {
                state.params.insert(names[i % names.len()].clone(), value);
            }
        }
        let tools = template.all_tools();
        if !tools.is_empty() {
            state.picked_tools.extend(picked.iter().map(|i| tools[i % tools.len()].name.clone()));
        }
        check_render(&template, &state)?;
    }

    #[test]
    fn expanding_sections_makes_them_full_and_keeps_spec_order(
        template in template(),
        expand in vec(any::<usize>(), 0..4),
    ) {
        let mut session = Session::new(&template, IndexMap::new())
            .map_err(|e| TestCaseError::fail(format!("a valid template has no session: {e}")))?;
        check_render(&template, session.state())?;
        let paths = paths(&template);
        let mut expanded = Vec::new();
        if !paths.is_empty() {
            for i in expand {
                let path = &paths[i % paths.len()];
                prop_assert_eq!(session.expand(path), Ok(()));
                expanded.push(path.clone());
                check_render(&template, session.state())?;
            }
        }
        prop_assert_eq!(session.expand("no-such-section"), Err("Unknown section key: 'no-such-section'".to_owned()));
        // An expanded section, its ancestors and its whole subtree are rendered in full.
        let prompt = session.render().map_err(|e| TestCaseError::fail(e.to_string()))?;
        for path in &expanded {
            prop_assert!(session.is_rendered_full(path), "{path} is not full after expand");
            for summarized in &prompt.summarized {
                prop_assert!(
                    !is_within(path, &summarized.path) && !is_within(&summarized.path, path),
                    "{} is summarized after expanding {path}", summarized.path
                );
            }
        }
    }
}

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn substitution_never_panics_and_agrees_with_the_syntax_check(
        text in prop_oneof!["(?s).{0,40}", "[$a-z{}_ 0-9\n]{0,30}", "(\\$\\{?[a-zé_]{0,3}\\}?|\\$\\$|\\$|[ a-z\n]{0,3}){0,6}"],
        known in vec("[a-z_]{1,3}", 0..4),
    ) {
        let everything = substitution::substitute(&text, |_| Some("v"));
        prop_assert_eq!(everything.is_ok(), substitution::check_syntax(&text).is_ok());
        let known: HashSet<String> = known.into_iter().collect();
        match substitution::substitute(&text, |name| known.contains(name).then_some("v")) {
            Ok(_) => {
                for name in substitution::placeholders(&text) {
                    prop_assert!(known.contains(name), "{name} has no value but substituted");
                }
            }
            Err(SubstitutionError::Missing { name }) => prop_assert!(!known.contains(&name)),
            Err(SubstitutionError::InvalidPlaceholder { line, column }) => {
                prop_assert!(line >= 1 && column >= 1);
                prop_assert!(line <= text.split('\n').count());
            }
        }
    }

    #[test]
    fn substituted_values_are_never_expanded_again(
        parts in vec(prop_oneof![
            "(?s)[^$]{0,8}".prop_map(Part::Literal),
            Just(Part::Dollar),
            (0usize..3).prop_map(Part::Param),
        ], 0..8),
        values in vec("(\\$\\{?[a-z]{1,3}\\}?|\\$\\$|\\$|[a-z ]{0,3}){0,4}", 3),
    ) {
        let names = ["a", "bb", "c_1"];
        let mut text = String::new();
        let mut want = String::new();
        for part in &parts {
            match part {
                Part::Literal(s) => {
                    text.push_str(s);
                    want.push_str(s);
                }
                Part::Dollar => {
                    text.push_str("$$");
                    want.push('$');
                }
                Part::Param(i) => {
                    text.push_str(&format!("${{{}}}", names[*i]));
                    want.push_str(&values[*i]);
                }
            }
        }
        let lookup = |name: &str| names.iter().position(|n| *n == name).map(|i| values[i].as_str());
        prop_assert_eq!(substitution::substitute(&text, lookup), Ok(want));
    }
}

/// A mutation of JSON text: flip, insert or delete bytes, or cut it short.
#[derive(Debug, Clone)]
enum Mutation {
    Set(usize, u8),
    Insert(usize, u8),
    Delete(usize),
    Truncate(usize),
    InsertText(usize, String),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let token = prop::sample::select(vec![
        "{",
        "}",
        "[",
        "]",
        "\"",
        ",",
        ":",
        "null",
        "\"x-a\": 1,",
        "\"summary\"",
        "-1",
        "1e999",
        "\"$\"",
        "\\u0000",
        "\\ud800",
        "\u{feff}",
        "\"visibility\": \"summary\",",
    ]);
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Mutation::Set(i, b)),
        (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Mutation::Insert(i, b)),
        any::<usize>().prop_map(Mutation::Delete),
        any::<usize>().prop_map(Mutation::Truncate),
        (any::<usize>(), token).prop_map(|(i, t)| Mutation::InsertText(i, t.to_owned())),
    ]
}

fn mutate(mut bytes: Vec<u8>, mutations: &[Mutation]) -> Vec<u8> {
    for mutation in mutations {
        let len = bytes.len();
        match mutation {
            Mutation::Set(i, b) if len > 0 => bytes[i % len] = *b,
            Mutation::Insert(i, b) => bytes.insert(i % (len + 1), *b),
            Mutation::Delete(i) if len > 0 => {
                bytes.remove(i % len);
            }
            Mutation::Truncate(i) => bytes.truncate(i % (len + 1)),
            Mutation::InsertText(i, t) => {
                let at = i % (len + 1);
                bytes.splice(at..at, t.bytes());
            }
            _ => {}
        }
    }
    bytes
}

/// A template that loads from any input also survives a save and a render.
fn check_loaded(template: &Template) -> Result<(), TestCaseError> {
    let saved = template.to_json();
    let again = Template::from_json(saved.as_bytes())
        .map_err(|e| TestCaseError::fail(format!("a loaded template does not reload: {e}")))?;
    prop_assert!(again.to_json() == saved, "not byte-identical after reload");
    if let Ok(mut session) = Session::new(template, IndexMap::new()) {
        let _ = session.render();
        for path in paths(template) {
            let _ = session.expand(&path);
            let _ = session.render();
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn loading_arbitrary_bytes_never_panics(bytes in prop_oneof![
        vec(any::<u8>(), 0..256),
        "(?s).{0,200}".prop_map(String::into_bytes),
        "[{}\\[\\]\":, a-z0-9_.]{0,200}".prop_map(String::into_bytes),
    ]) {
        if let Ok(template) = Template::from_json(&bytes) {
            check_loaded(&template)?;
        }
        let _ = Scenario::from_json(&bytes);
    }
}

proptest! {
    #![proptest_config(config(64))]

    #[test]
    fn loading_mutated_templates_never_panics(
        template in template(),
        mutations in vec(mutation(), 1..6),
    ) {
        let bytes = mutate(template.to_json().into_bytes(), &mutations);
        if let Ok(loaded) = Template::from_json(&bytes) {
            check_loaded(&loaded)?;
        }
    }

    #[test]
    fn loading_mutated_scenarios_never_panics(
        scenario in scenario(),
        mutations in vec(mutation(), 1..6),
    ) {
        let bytes = mutate(scenario.to_json().into_bytes(), &mutations);
        if let Ok(loaded) = Scenario::from_json(&bytes) {
            let saved = loaded.to_json();
            let again = Scenario::from_json(saved.as_bytes())
                .map_err(|e| TestCaseError::fail(format!("a loaded scenario does not reload: {e}")))?;
            prop_assert!(again.to_json() == saved, "not byte-identical after reload");
        }
    }

    #[test]
    fn loading_templates_with_a_replaced_value_never_panics(
        template in template(),
        at in any::<usize>(),
        replacement in json_value(),
    ) {
        // Replace one node of the document tree (a field, an array item) with any JSON value.
        let mut value = serde_json::to_value(&template).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let pointers = json_pointers(&value);
        let pointer = &pointers[at % pointers.len()];
        if let Some(node) = value.pointer_mut(pointer) {
            *node = replacement;
        }
        let bytes = serde_json::to_vec_pretty(&value).map_err(|e| TestCaseError::fail(e.to_string()))?;
        if let Ok(loaded) = Template::from_json(&bytes) {
            check_loaded(&loaded)?;
        }
    }
}

/// The JSON pointer of every node of `value` but the root.
fn json_pointers(value: &Value) -> Vec<String> {
    fn go(value: &Value, at: &str, out: &mut Vec<String>) {
        let escape = |key: &str| key.replace('~', "~0").replace('/', "~1");
        match value {
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    let pointer = format!("{at}/{i}");
                    out.push(pointer.clone());
                    go(item, &pointer, out);
                }
            }
            Value::Object(map) => {
                for (key, item) in map {
                    let pointer = format!("{at}/{}", escape(key));
                    out.push(pointer.clone());
                    go(item, &pointer, out);
                }
            }
            _ => {}
        }
    }
    let mut out = vec![String::new()];
    go(value, "", &mut out);
    out
}

// ---------------------------------------------------------------------------------------------
// The benchmark template's generator against the Python script
// ---------------------------------------------------------------------------------------------

const PYTHON_200: &str = include_str!("fixtures/bench-200.unfold.json");

/// The Python script writes a section's `summary` after its `children` (it adds the key last);
/// the canonical save writes it after `template`. Moving it back gives the script's exact layout.
fn python_layout(template: &Template) -> String {
    fn move_summary_last(sections: &mut Value) {
        for section in sections.as_array_mut().into_iter().flatten() {
            let object = section.as_object_mut().expect("a section is an object");
            if let Some(summary) = object.shift_remove("summary") {
                object.insert("summary".to_owned(), summary);
            }
            move_summary_last(&mut object["children"]);
        }
    }
    let mut value = serde_json::to_value(template).expect("a template serializes");
    move_summary_last(&mut value["sections"]);
    serde_json::to_string_pretty(&value).expect("a value serializes") + "\n"
}

#[test]
fn generator_writes_what_the_python_script_writes() {
    let generated = bench_template::bench_template(200, HeadingStyle::Plain, Disclosure::ReadSection);
    assert!(
        python_layout(&generated) == PYTHON_200,
        "the generated N=200 template differs from fixtures/bench-200.unfold.json"
    );
    let loaded = Template::from_json(PYTHON_200.as_bytes()).expect("the fixture is valid");
    assert_eq!(loaded, generated);
    assert!(loaded.to_json() == generated.to_json());
}

// ---------------------------------------------------------------------------------------------
// The editor's shortcuts: token counts by pieces, problems without the text round trip
// ---------------------------------------------------------------------------------------------

/// A line of a prompt: headings of both styles, summary lines, and text that tests the
/// tokenizer's edges (white space before a line break, punctuation runs with `/`, letters with
/// marks, `'s`, digits, carriage returns).
fn prompt_line() -> BoxedStrategy<String> {
    prop_oneof![
        "#{2,5} [0-9]{1,2}(\\.[0-9]{1,2}){0,2} [A-Za-z ]{0,10}",
        "#{2,5} [0-9]{1,2}(\\.[0-9]{1,2}){0,2}\\. [A-Za-z]{1,8} \\([a-z0-9_.-]{1,10}\\)",
        Just("---".to_owned()),
        Just("[This section is summarized. To view full content, call `read_section` with key \"a.b\".]".to_owned()),
        "(?s).{0,24}",
        "[ \t\r/#.'!?\\-\\[\\]sdtlm]{0,6}[a-zA-Z0-9]{0,4}[ \t.!?/\r]{0,3}",
        "[\\p{L}\\p{M}\\p{N}\\p{P}\\p{Zs} ]{0,10}",
        Just(String::new()),
    ]
    .boxed()
}

/// Prompt-like text: lines joined by the line breaks rendering makes and some it never does.
fn prompt_text() -> BoxedStrategy<String> {
    let joint = prop::sample::select(vec!["\n", "\n\n", "\n\n", "\r\n", " \n", "\n ", "\n/"]);
    vec((prompt_line(), joint), 0..12)
        .prop_map(|lines| lines.into_iter().flat_map(|(line, joint)| [line, joint.to_owned()]).collect())
        .boxed()
}

/// A small edit of a text, as a keystroke or a paste makes it.
fn edited(text: &str, at: usize, cut: usize, insert: &str) -> String {
    let boundaries: Vec<usize> = (0..=text.len()).filter(|&i| text.is_char_boundary(i)).collect();
    let start = boundaries[at % boundaries.len()];
    let end = boundaries.iter().copied().filter(|&i| i >= start).nth(cut).unwrap_or(text.len());
    format!("{}{insert}{}", &text[..start], &text[end..])
}

/// A section path of `template` picked by `at`, if it has sections.
fn some_path(template: &Template, at: usize) -> Option<String> {
    let paths = paths(template);
    (!paths.is_empty()).then(|| paths[at % paths.len()].clone())
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn counting_by_pieces_counts_what_the_whole_text_counts(
        first in prompt_text(),
        edits in vec((any::<usize>(), 0..8usize, prompt_text()), 1..4),
    ) {
        let mut counter = tokens::ChunkedCount::default();
        prop_assert_eq!(counter.count(&first), tokens::count_text(&first), "first count of {:?}", first);
        let mut text = first;
        for (at, cut, insert) in edits {
            text = edited(&text, at, cut, &insert);
            prop_assert_eq!(counter.count(&text), tokens::count_text(&text), "after an edit: {:?}", text);
        }
    }
}

proptest! {
    #![proptest_config(config(48))]

    #[test]
    fn counting_long_texts_by_pieces_counts_what_the_whole_text_counts(
        lines in prompt_text(),
        copies in 1..80usize,
        edits in vec((any::<usize>(), 0..8usize, prompt_text()), 1..3),
    ) {
        // Long texts with repeated lines, as big prompts are: what is shared at the start and the
        // end spans many compared blocks.
        let mut counter = tokens::ChunkedCount::default();
        let mut text = lines.repeat(copies);
        prop_assert_eq!(counter.count(&text), tokens::count_text(&text));
        for (at, cut, insert) in edits {
            text = edited(&text, at, cut, &insert);
            prop_assert_eq!(counter.count(&text), tokens::count_text(&text), "after an edit: {:?}", text);
        }
    }

    #[test]
    fn the_editor_preview_counts_what_the_whole_prompt_counts(
        template in template(),
        heading in prop::sample::select(vec![HeadingStyle::Plain, HeadingStyle::Keyed]),
        keystrokes in vec((any::<usize>(), "(?s).{0,16}"), 1..4),
        expand_all in any::<bool>(),
    ) {
        let template = Template { heading, ..template };
        let mut document = EditorDocument::new(template);
        for (at, typed) in keystrokes {
            let whole = || -> Result<Preview, unfold_core::Error> {
                let mut session = Session::new(document.template(), IndexMap::new())?;
                if expand_all {
                    for path in paths(document.template()) {
                        session.expand(&path).map_err(|m| unfold_core::Error::problem("", m))?;
                    }
                }
                Ok(Preview::of(&session.render()?))
            };
            match (document.preview(&[], expand_all), whole()) {
                (Ok(preview), Ok(expected)) => prop_assert_eq!(preview, expected),
                (Err(_), Err(_)) => {}
                (got, expected) => prop_assert!(false, "preview {:?}, expected {:?}", got, expected),
            }
            let Some(path) = some_path(document.template(), at) else { break };
            let section = document.template().section(&path).expect("a listed path").clone();
            let fields = SectionFields {
                title: section.title,
                template: edited(&section.template, at, 1, &typed),
                summary: section.summary.map(|s| edited(&s, at, 0, &typed)),
                visibility: section.visibility,
            };
            document.apply(TemplateEdit::SetSectionFields { path, fields }, Some("body".to_owned()))
                .map_err(|e| TestCaseError::fail(e.to_string()))?;
        }
    }
}

#[test]
fn a_keystroke_tokenizes_again_only_the_lines_it_changed() {
    let template = bench_template::bench_template(500, HeadingStyle::Plain, Disclosure::ReadSection);
    let prompt = |template: &Template| render(template, &SessionState::default()).expect("renders").markdown;
    let before = prompt(&template);
    let mut counter = tokens::ChunkedCount::default();
    counter.count(&before);
    assert_eq!(counter.tokenized_bytes(), before.len(), "the first count tokenizes everything");
    counter.count(&before);
    assert_eq!(counter.tokenized_bytes(), 0, "nothing changed, nothing is tokenized");

    let mut typed = template.clone();
    typed.sections[3].template.push_str(" and more");
    let after = prompt(&typed);
    assert_eq!(counter.count(&after), tokens::count_text(&after));
    let body_line = after.lines().find(|line| line.ends_with(" and more")).expect("the edited body is shown");
    assert_eq!(counter.tokenized_bytes(), body_line.len() + 2, "only the edited body (with its blank line)");

    // A section inserted first renumbers every heading after it; the bodies are still known.
    let mut inserted = typed.clone();
    inserted.sections.insert(0, Section { key: "new".to_owned(), ..typed.sections[0].clone() });
    let renumbered = prompt(&inserted);
    assert_eq!(counter.count(&renumbered), tokens::count_text(&renumbered));
    assert!(
        counter.tokenized_bytes() < renumbered.len() / 3,
        "{} of {} bytes tokenized again",
        counter.tokenized_bytes(),
        renumbered.len()
    );
}

/// Ways to break a template in memory, as edits or a restored work in progress can (schema,
/// semantic and text-level problems alike).
#[derive(Debug, Clone)]
enum Breakage {
    SectionKey(usize, &'static str),
    SameKeyAsSibling(usize),
    Extension(Option<usize>, &'static str),
    ToolName(usize, &'static str),
    Body(usize, &'static str),
    SummarizedWithoutSummary(usize),
    Parameters(usize, Value),
    /// Parameters nested about this deep, in objects or (`true`) arrays.
    DeepParameters(usize, usize, bool),
    DeepExtension(Option<usize>, usize),
    DeepSections(usize),
    TemplateKey(&'static str),
    ParamName(&'static str),
    Kind(&'static str),
    SchemaVersion(u64),
}

fn breakage() -> impl Strategy<Value = Breakage> {
    let key = prop::sample::select(vec!["", "Upper", "-dash", "a b", "é", "ok-key", "x-"]);
    let extension = prop::sample::select(vec!["x-fine", "unknown", "key", "title", "x"]);
    let tool_name = prop::sample::select(vec!["", "a b", "read_section", "pick_tools", "dup", "ok_name", "é"]);
    let body = prop::sample::select(vec!["costs $5", "${", "$unknown_param", "fine $$ text", "${ x }"]);
    let parameters = prop_oneof![
        Just(json!("a string")),
        Just(json!({ "type": "string" })),
        Just(json!({ "type": "object", "properties": { "a": { "type": 5 } } })),
        Just(json!({ "type": "object", "required": "a" })),
        Just(json!({ "type": "object" })),
    ];
    prop_oneof![
        (any::<usize>(), key).prop_map(|(at, key)| Breakage::SectionKey(at, key)),
        any::<usize>().prop_map(Breakage::SameKeyAsSibling),
        (option::of(any::<usize>()), extension).prop_map(|(at, name)| Breakage::Extension(at, name)),
        (any::<usize>(), tool_name).prop_map(|(at, name)| Breakage::ToolName(at, name)),
        (any::<usize>(), body).prop_map(|(at, body)| Breakage::Body(at, body)),
        any::<usize>().prop_map(Breakage::SummarizedWithoutSummary),
        (any::<usize>(), parameters).prop_map(|(at, value)| Breakage::Parameters(at, value)),
        (any::<usize>(), 185..215usize, any::<bool>())
            .prop_map(|(at, depth, arrays)| Breakage::DeepParameters(at, depth, arrays)),
        (option::of(any::<usize>()), 185..215usize).prop_map(|(at, depth)| Breakage::DeepExtension(at, depth)),
        (60..70usize).prop_map(Breakage::DeepSections),
        prop::sample::select(vec!["", " ", "k"]).prop_map(Breakage::TemplateKey),
        prop::sample::select(vec!["1x", "a-b", "", "fine_name"]).prop_map(Breakage::ParamName),
        prop::sample::select(vec!["unfold.scenario", "other", "unfold.template"]).prop_map(Breakage::Kind),
        prop::sample::select(vec![0u64, 1, 2]).prop_map(Breakage::SchemaVersion),
    ]
}

/// The tool at `at` among all the template's tools (its own first), if it has any.
fn some_tool(template: &mut Template, at: usize) -> Option<&mut Tool> {
    let mut owners: Vec<Option<String>> = vec![None];
    owners.extend(paths(template).into_iter().map(Some));
    let count = |template: &Template, owner: &Option<String>| match owner {
        None => template.tools.len(),
        Some(path) => template.section(path).map_or(0, |s| s.tools.len()),
    };
    let total: usize = owners.iter().map(|o| count(template, o)).sum();
    if total == 0 {
        return None;
    }
    let mut index = at % total;
    let owner = owners.into_iter().find(|o| {
        let n = count(template, o);
        if index < n {
            return true;
        }
        index -= n;
        false
    })?;
    match owner {
        None => template.tools.get_mut(index),
        Some(path) => section_mut(template, &path)?.tools.get_mut(index),
    }
}

fn section_mut<'t>(template: &'t mut Template, path: &str) -> Option<&'t mut Section> {
    let mut keys = path.split('.');
    let first = keys.next()?;
    let mut section = template.sections.iter_mut().find(|s| s.key == first)?;
    for key in keys {
        section = section.children.iter_mut().find(|s| s.key == key)?;
    }
    Some(section)
}

/// A tool parameter schema about `depth` deep: nested properties, or arrays nested exactly
/// `depth` deep in `examples`.
fn deep_schema(depth: usize, arrays: bool) -> Value {
    if arrays {
        return json!({ "type": "object", "examples": deep_arrays(depth) });
    }
    (0..depth / 2)
        .fold(json!({ "type": "object" }), |inner, _| json!({ "type": "object", "properties": { "a": inner } }))
}

/// Arrays nested exactly `depth` deep.
fn deep_arrays(depth: usize) -> Value {
    (0..depth).fold(Value::Null, |inner, _| Value::Array(vec![inner]))
}

fn deep_sections(levels: usize) -> Section {
    let leaf = Section::empty("deep", "Deep");
    (1..levels).fold(leaf.clone(), |child, _| Section { children: vec![child], ..leaf.clone() })
}

fn break_template(template: &mut Template, breakage: Breakage) {
    let path = |template: &Template, at: usize| some_path(template, at);
    match breakage {
        Breakage::SectionKey(at, key) => {
            if let Some(section) = path(template, at).and_then(|p| section_mut(template, &p)) {
                section.key = key.to_owned();
            }
        }
        Breakage::SameKeyAsSibling(at) => {
            if template.sections.len() > 1 {
                let i = 1 + at % (template.sections.len() - 1);
                template.sections[i].key = template.sections[i - 1].key.clone();
            }
        }
        Breakage::Extension(at, name) => {
            let extensions = match at.and_then(|at| path(template, at)) {
                Some(p) => section_mut(template, &p).map(|s| &mut s.extensions),
                None => Some(&mut template.extensions),
            };
            if let Some(extensions) = extensions {
                extensions.insert(name.to_owned(), json!([1, { "a": null }]));
            }
        }
        Breakage::ToolName(at, name) => {
            let first = template.all_tools().first().map(|t| t.name.clone());
            if let Some(tool) = some_tool(template, at) {
                tool.name = if name == "dup" { first.unwrap_or_default() } else { name.to_owned() };
            }
        }
        Breakage::Body(at, body) => {
            if let Some(section) = path(template, at).and_then(|p| section_mut(template, &p)) {
                section.template = body.to_owned();
            }
        }
        Breakage::SummarizedWithoutSummary(at) => {
            if let Some(section) = path(template, at).and_then(|p| section_mut(template, &p)) {
                section.visibility = Visibility::Summary;
                section.summary = None;
            }
        }
        Breakage::Parameters(at, value) => {
            if let Some(tool) = some_tool(template, at) {
                tool.parameters = value;
            }
        }
        Breakage::DeepParameters(at, depth, arrays) => {
            if let Some(tool) = some_tool(template, at) {
                tool.parameters = deep_schema(depth, arrays);
            }
        }
        Breakage::DeepExtension(at, depth) => {
            let extensions = match at.and_then(|at| path(template, at)) {
                Some(p) => section_mut(template, &p).map(|s| &mut s.extensions),
                None => Some(&mut template.extensions),
            };
            if let Some(extensions) = extensions {
                extensions.insert("x-deep".to_owned(), deep_arrays(depth));
            }
        }
        Breakage::DeepSections(levels) => template.sections.push(deep_sections(levels)),
        Breakage::TemplateKey(key) => template.key = key.to_owned(),
        Breakage::ParamName(name) => {
            template.params.insert(name.to_owned(), "v".to_owned());
        }
        Breakage::Kind(kind) => template.kind = kind.to_owned(),
        Breakage::SchemaVersion(version) => template.schema_version = version,
    }
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn the_editor_lists_the_problems_reopening_the_saved_file_would(
        template in template(),
        breakages in vec(breakage(), 0..4),
    ) {
        let mut template = template;
        for breakage in breakages {
            break_template(&mut template, breakage);
        }
        let reopened = match Template::from_json(template.to_json().as_bytes()) {
            Ok(_) => Vec::new(),
            Err(error) => error.problems().to_vec(),
        };
        prop_assert_eq!(EditorDocument::new(template).problems(), reopened);
    }
}
