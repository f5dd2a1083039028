//! Property tests of the engine: rendering never fails or panics on a valid template, whatever
//! the visibility overrides, and offers tools in spec order (spec 2); counting a prompt's tokens by
//! pieces, as the editor's preview does after a keystroke, counts exactly what the whole text counts;
//! loading any bytes, and rendering whatever loads, never panics.
//!
//! Each property runs a moderate number of cases so the file stays fast in debug builds; set
//! `PROPTEST_CASES` to run more. The generators are `unfold_test_support::generators`.

use std::collections::HashSet;

use indexmap::IndexMap;
use proptest::collection::vec;
use proptest::prelude::*;
use serde_json::Value;
use unfold_documents::template::{Disclosure, HeadingStyle, Section, ToolDisclosure};
use unfold_documents::tool::Builtin;
use unfold_documents::{Scenario, Template, Visibility};
use unfold_engine::render::SummarizedSection;
use unfold_engine::{render, tokens, Session, SessionState};
use unfold_test_support::bench_template;
use unfold_test_support::generators::{config, edited, json_value, paths, scenario, template, visibility};

// ---------------------------------------------------------------------------------------------
// Oracles
// ---------------------------------------------------------------------------------------------

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
    // km_tools' rule: pick_tools while a tool offered is not picked.
    let unpicked = out.offered.iter().any(|n| Builtin::from_name(n).is_none() && !state.picked_tools.contains(n));
    if template.tool_disclosure == ToolDisclosure::PickTools && unpicked {
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
                // Unpicked, it has no parameters until picked or called.
                let picked = state.picked_tools.contains(&tool.name);
                let empty = serde_json::json!({ "type": "object", "properties": {} });
                prop_assert_eq!(&offered.parameters, if picked { &tool.parameters } else { &empty });
            }
        }
    }
    Ok(())
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
        // Expanding everything at once shows what reading every section in turn shows.
        let mut every_one = session.clone();
        for path in &paths {
            prop_assert_eq!(every_one.expand(path), Ok(()));
        }
        let mut all_at_once = session.clone();
        all_at_once.expand_all();
        prop_assert_eq!(all_at_once.render().ok(), every_one.render().ok());
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
    #![proptest_config(config(128))]

    #[test]
    fn counting_in_parts_on_several_threads_counts_what_the_whole_text_counts(
        lines in prompt_text(),
        copies in 1..40usize,
        parts in 1..12usize,
        threads in 1..4usize,
    ) {
        let text = lines.repeat(copies);
        let whole = unfold_tokenizer::count(&text) as u64;
        prop_assert_eq!(tokens::count_in_parts(&text, parts, threads), whole, "{} parts on {} threads of {:?}", parts, threads, text);
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

// ---------------------------------------------------------------------------------------------
// Loading any bytes, and rendering whatever loads
// ---------------------------------------------------------------------------------------------

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
