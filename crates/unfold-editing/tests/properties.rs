//! Property tests of editing: the editor's preview after any keystrokes counts what rendering the
//! whole prompt counts, and the problems the editor lists for a template broken in memory are the
//! ones reopening its saved file would report.
//!
//! Each property runs a moderate number of cases so the file stays fast in debug builds; set
//! `PROPTEST_CASES` to run more. The generators are `unfold_test_support::generators`.

use indexmap::IndexMap;
use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;
use serde_json::{json, Value};
use unfold_documents::template::{HeadingStyle, Section};
use unfold_documents::{Template, Tool, Visibility};
use unfold_editing::editor_document::EditorDocument;
use unfold_editing::template_edit::{SectionFields, TemplateEdit};
use unfold_engine::{Preview, Session};
use unfold_test_support::generators::{config, edited, paths, template};

/// A section path of `template` picked by `at`, if it has sections.
fn some_path(template: &Template, at: usize) -> Option<String> {
    let paths = paths(template);
    (!paths.is_empty()).then(|| paths[at % paths.len()].clone())
}
proptest! {
    #![proptest_config(config(48))]

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
            let whole = || -> Result<Preview, unfold_documents::Error> {
                let mut session = Session::new(document.template(), IndexMap::new())?;
                if expand_all {
                    for path in paths(document.template()) {
                        session.expand(&path).map_err(|m| unfold_documents::Error::problem("", m))?;
                    }
                }
                Ok(Preview::of(session.render()?))
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
        let reopened = reopened(&template);
        prop_assert_eq!(EditorDocument::new(template).problems(), reopened);
    }
}

/// The problems reopening `template`'s saved file would report.
fn reopened(template: &Template) -> Vec<unfold_documents::Problem> {
    match Template::from_json(template.to_json().as_bytes()) {
        Ok(_) => Vec::new(),
        Err(error) => error.problems().to_vec(),
    }
}

/// One step of typing: a section's text fields set (`Some`), or an undo (`None`).
fn text_step() -> impl Strategy<Value = Option<(usize, &'static str, bool, bool)>> {
    let text = prop::sample::select(vec!["fine", "costs $5", "${", "$p and ${p}", "$$", "", "${ x }"]);
    option::weighted(0.8, (any::<usize>(), text, any::<bool>(), any::<bool>()))
}

proptest! {
    #![proptest_config(config(128))]

    /// After each keystroke the editor finds the problems of the edited section alone; they must
    /// stay those of the whole template, in the same order.
    #[test]
    fn the_problems_after_keystrokes_are_those_of_the_whole_template(
        template in template(),
        breakages in vec(breakage(), 0..3),
        steps in vec(text_step(), 1..6),
    ) {
        let mut template = template;
        for breakage in breakages {
            break_template(&mut template, breakage);
        }
        let mut document = EditorDocument::new(template);
        for step in steps {
            match step {
                // An undo refused (its step would write back what an edit may not, as a summarized
                // section without a summary) leaves the document as it was, like a refused edit.
                None => {
                    let _ = document.undo();
                }
                Some((at, text, summarized, with_summary)) => {
                    let Some(path) = some_path(document.template(), at) else { break };
                    let fields = SectionFields {
                        title: text.to_owned(),
                        template: text.to_owned(),
                        summary: with_summary.then(|| text.to_owned()),
                        visibility: if summarized { Visibility::Summary } else { Visibility::Full },
                    };
                    // An edit refused leaves the document as it was.
                    let _ = document.apply(TemplateEdit::SetSectionFields { path, fields }, Some("body".to_owned()));
                }
            }
            prop_assert_eq!(document.problems(), reopened(document.template()));
        }
    }
}
