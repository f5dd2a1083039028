//! Rendering (spec 2): one `check` per case, the prompt and its tools snapshotted inline so the
//! expected text is read next to the input.

use insta::assert_snapshot;
use serde_json::json;
use unfold_documents::template::{Disclosure, HeadingStyle, ToolDisclosure};
use unfold_documents::Template;
use unfold_engine::Session;

use unfold_test_support::load_template;

/// The prompt with its tools as `name: description` lines, after expanding `expand`.
fn check(template: &Template, expand: &[&str]) -> String {
    let mut session = Session::new(template, Default::default()).unwrap_or_else(|e| panic!("{e}"));
    for path in expand {
        session.expand(path).unwrap();
    }
    let prompt = session.render().unwrap_or_else(|e| panic!("{e}"));
    let tools: Vec<String> = prompt.tools.iter().map(|t| format!("{}: {}", t.name, t.description)).collect();
    format!("{}---- tools\n{}", prompt.markdown, tools.join("\n"))
}

fn fixture() -> Template {
    load_template("tests/fixtures/disclosure.unfold.json")
}

fn from_sections(sections: serde_json::Value) -> Template {
    let doc = json!({ "schema_version": 1, "kind": "unfold.template", "key": "t", "params": { "name": "Bo" }, "sections": sections });
    Template::from_json(doc.to_string().as_bytes()).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn plain_headings_with_read_section() {
    assert_snapshot!(check(&fixture(), &[]), @r#"
    ## 1 Task

    Help with Acme.

    ## 2 Notes

    Notes are available.

    ---
    [This section is summarized. Call `read_section` with key "notes" to view full content including subsections: a, b, c.]

    ## 3 Docs

    Docs for Acme are available.

    ---
    [This section is summarized. To view full content, call `read_section` with key "docs".]

    ## 4 Style

    A style guide is available.

    ---
    [This section is summarized. To view full content, call `read_section` with key "style".]
    ---- tools
    lookup: Look up an issue by id.
    broken: A tool whose mock fails.
    read_section: Read the full content of a summarized section.
    "#);
}

#[test]
fn expanding_a_nested_key_opens_its_ancestors_and_subtree_only() {
    assert_snapshot!(check(&fixture(), &["notes.b"]), @r#"
    ## 1 Task

    Help with Acme.

    ## 2 Notes

    All the notes.

    ### 2.1 Note A

    Note A.

    ### 2.2 Note B

    Note B.

    ### 2.3 Note C

    Note C summary.

    ---
    [This section is summarized. To view full content, call `read_section` with key "notes.c".]

    ## 3 Docs

    Docs for Acme are available.

    ---
    [This section is summarized. To view full content, call `read_section` with key "docs".]

    ## 4 Style

    A style guide is available.

    ---
    [This section is summarized. To view full content, call `read_section` with key "style".]
    ---- tools
    lookup: Look up an issue by id.
    broken: A tool whose mock fails.
    note_a: Read note A.
    note_b: Read note B.
    read_section: Read the full content of a summarized section.
    "#);
}

#[test]
fn keyed_headings_name_the_path() {
    let mut template = fixture();
    template.heading = HeadingStyle::Keyed;
    assert_snapshot!(check(&template, &["notes"]), @r#"
    ## 1. Task (task)

    Help with Acme.

    ## 2. Notes (notes)

    All the notes.

    ### 2.1. Note A (notes.a)

    Note A.

    ### 2.2. Note B (notes.b)

    Note B.

    ### 2.3. Note C (notes.c)

    Note C.

    ## 3. Docs (docs)

    Docs for Acme are available.

    ---
    [This section is summarized. To view full content, call `read_section` with key "docs".]

    ## 4. Style (style)

    A style guide is available.

    ---
    [This section is summarized. To view full content, call `read_section` with key "style".]
    ---- tools
    lookup: Look up an issue by id.
    broken: A tool whose mock fails.
    note_a: Read note A.
    note_b: Read note B.
    read_section: Read the full content of a summarized section.
    "#);
}

#[test]
fn open_sections_lines_and_tool() {
    let mut template = fixture();
    template.disclosure = Disclosure::OpenSections;
    assert_snapshot!(check(&template, &[]), @r#"
    ## 1 Task

    Help with Acme.

    ## 2 Notes

    Notes are available.

    ---
    [This section is summarized. Call `open_sections` with key "notes" to view full content including subsections: a, b, c.]

    ## 3 Docs

    Docs for Acme are available.

    ---
    [This section is summarized. To view full content, call `open_sections` with key "docs".]

    ## 4 Style

    A style guide is available.

    ---
    [This section is summarized. To view full content, call `open_sections` with key "style".]
    ---- tools
    lookup: Look up an issue by id.
    broken: A tool whose mock fails.
    open_sections: Expand summarized sections to view their full content.
    "#);
}

#[test]
fn mixed_names_open_sections_where_the_subtree_has_tools() {
    let mut template = fixture();
    template.disclosure = Disclosure::Mixed;
    assert_snapshot!(check(&template, &[]), @r#"
    ## 1 Task

    Help with Acme.

    ## 2 Notes

    Notes are available.

    ---
    [This section is summarized. Call `open_sections` with key "notes" to view full content including subsections: a, b, c.]

    ## 3 Docs

    Docs for Acme are available.

    ---
    [This section is summarized. To view full content, call `open_sections` with key "docs".]

    ## 4 Style

    A style guide is available.

    ---
    [This section is summarized. To view full content, call `read_section` with key "style".]
    ---- tools
    lookup: Look up an issue by id.
    broken: A tool whose mock fails.
    open_sections: Expand summarized sections to view their full content.
    read_section: Read the full content of a summarized section.
    "#);
}

#[test]
fn pick_tools_offers_briefs_and_the_picker() {
    let mut template = fixture();
    template.tool_disclosure = ToolDisclosure::PickTools;
    assert_snapshot!(check(&template, &["docs"]), @r#"
    ## 1 Task

    Help with Acme.

    ## 2 Notes

    Notes are available.

    ---
    [This section is summarized. Call `read_section` with key "notes" to view full content including subsections: a, b, c.]

    ## 3 Docs

    Full docs for Acme.

    ## 4 Style

    A style guide is available.

    ---
    [This section is summarized. To view full content, call `read_section` with key "style".]
    ---- tools
    lookup: Look up an issue.
    broken: A tool whose mock fails.
    search: Search docs.
    read_section: Read the full content of a summarized section.
    pick_tools: Select tools to get their full specifications.
    "#);
}

#[test]
fn everything_full_offers_no_builtin() {
    let template = fixture();
    let all = ["notes", "docs", "style"];
    assert_snapshot!(check(&template, &all), @"
    ## 1 Task

    Help with Acme.

    ## 2 Notes

    All the notes.

    ### 2.1 Note A

    Note A.

    ### 2.2 Note B

    Note B.

    ### 2.3 Note C

    Note C.

    ## 3 Docs

    Full docs for Acme.

    ## 4 Style

    Use snake_case.
    ---- tools
    lookup: Look up an issue by id.
    broken: A tool whose mock fails.
    note_a: Read note A.
    note_b: Read note B.
    search: Search the docs.
    ");
}

#[test]
fn bodies_are_dedented_and_stripped_and_empty_bodies_leave_the_heading() {
    let template = from_sections(json!([
        { "key": "a", "title": "  A  ", "template": "\n    Hi ${name},\n      indented\n    \n    end.  \n" },
        { "key": "b", "title": "B", "template": "", "children": [ { "key": "c", "title": "C", "template": "$$5 for $name" } ] },
        { "key": "d", "title": "D", "template": "x", "summary": "", "visibility": "summary" }
    ]));
    assert_snapshot!(check(&template, &[]), @r#"
    ## 1 A

    Hi Bo,
      indented

    end.

    ## 2 B

    ### 2.1 C

    $5 for Bo

    ## 3 D

    ---
    [This section is summarized. To view full content, call `read_section` with key "d".]
    ---- tools
    read_section: Read the full content of a summarized section.
    "#);
}

#[test]
fn a_missing_parameter_names_the_parameter_and_the_section() {
    let template = from_sections(json!([
        { "key": "a", "title": "A", "template": "ok", "children": [ { "key": "b", "title": "B", "template": "Hi ${who}" } ] }
    ]));
    let error = Session::new(&template, Default::default()).unwrap_err();
    assert_snapshot!(error.to_string(), @"/params: missing parameter 'who': section 'a.b' uses it in its template and it has no value");
    let mut state = unfold_engine::SessionState::default();
    state.params.insert("other".into(), "x".into());
    let error = unfold_engine::render(&template, &state).unwrap_err();
    assert_snapshot!(error.to_string(), @"/sections/0/children/0/template: missing parameter 'who' (section 'a.b')");
}

#[test]
fn substituted_values_are_not_expanded_again() {
    let template = from_sections(json!([ { "key": "a", "title": "A", "template": "${name} / $name" } ]));
    let mut params = indexmap::IndexMap::new();
    params.insert("name".to_owned(), "${name} $$ $x".to_owned());
    let prompt = Session::new(&template, params).unwrap().render().unwrap();
    assert_eq!(prompt.markdown, "## 1 A\n\n${name} $$ $x / ${name} $$ $x\n");
}

#[test]
fn read_content_is_numbered_as_in_the_prompt() {
    let template = fixture();
    let session = Session::new(&template, Default::default()).unwrap();
    let unfold_engine::session::ReadOutcome::Expand(expansion) = session.read_section("notes.b") else {
        panic!("notes.b is hidden, so reading it expands");
    };
    assert_eq!(expansion.section_keys, ["notes", "notes.b"]);
    assert_eq!(expansion.expanded_tools, ["note_a", "note_b"]);
    assert_snapshot!(expansion.content, @"
    ### 2.2 Note B

    Note B.
    ");
}

#[test]
fn reading_a_full_section_says_so() {
    let template = fixture();
    let session = Session::new(&template, Default::default()).unwrap();
    assert_eq!(
        session.read_section("task"),
        unfold_engine::session::ReadOutcome::AlreadyExpanded("## 1 Task\n\nHelp with Acme.\n".to_owned())
    );
}

#[test]
fn bodies_strip_what_python_strips() {
    // Python's `str.strip` also removes U+001C..U+001F, which Rust's `trim` keeps.
    let template =
        from_sections(json!([ { "key": "a", "title": "\u{1f}A\u{1c}", "template": "\u{1c} Hello ${name}\u{1d}\n" } ]));
    let prompt = Session::new(&template, Default::default()).unwrap().render().unwrap();
    assert_eq!(prompt.markdown, "## 1 A\n\nHello Bo\n");
}
