//! Editing (the desktop editor's core): every edit's inverse restores the template exactly,
//! refused edits change nothing and say why, and the document's undo, redo, dirty state and saves
//! behave as an editor's should.

use serde_json::json;
use unfold_documents::template::{Disclosure, HeadingStyle, Section, ToolDisclosure};
use unfold_documents::{Template, Tool, Visibility};
use unfold_editing::editor_document::EditorDocument;
use unfold_editing::open_documents::FileDocument;
use unfold_editing::prompt_parts::prompt_parts;
use unfold_editing::template_edit::{apply, SectionFields, TemplateEdit, TemplateSettings, ToolOwner};
use unfold_editing::views::TemplateChange;

use unfold_test_support::{load_template, repo};

fn fixture() -> Template {
    load_template("tests/fixtures/disclosure.unfold.json")
}

fn section(key: &str) -> Section {
    serde_json::from_value(json!({ "key": key, "title": key.to_uppercase(), "template": "Body." })).unwrap()
}

fn tool(name: &str) -> Tool {
    serde_json::from_value(json!({ "name": name, "description": "d", "parameters": { "type": "object" } })).unwrap()
}

fn fields(title: &str, visibility: Visibility, summary: Option<&str>) -> SectionFields {
    SectionFields { title: title.into(), template: "T".into(), summary: summary.map(Into::into), visibility }
}

fn every_kind_of_edit() -> Vec<TemplateEdit> {
    let notes = || ToolOwner::Section { path: "notes.a".into() };
    vec![
        TemplateEdit::SetSettings {
            settings: TemplateSettings {
                ns: "n".into(),
                key: "k".into(),
                name: "N".into(),
                disclosure: Disclosure::Mixed,
                tool_disclosure: ToolDisclosure::PickTools,
                heading: HeadingStyle::Keyed,
            },
        },
        TemplateEdit::SetParam { name: "project".into(), value: Some("Globex".into()), index: None },
        TemplateEdit::SetParam { name: "fresh".into(), value: Some("x".into()), index: Some(0) },
        TemplateEdit::SetParam { name: "project".into(), value: None, index: None },
        TemplateEdit::InsertSection { parent: Some("notes".into()), index: 1, section: section("new") },
        TemplateEdit::InsertSection { parent: None, index: 0, section: section("first") },
        TemplateEdit::RemoveSection { path: "notes.b".into() },
        TemplateEdit::RemoveSection { path: "notes".into() },
        TemplateEdit::MoveSection { path: "notes.c".into(), parent: None, index: 0 },
        TemplateEdit::MoveSection { path: "style".into(), parent: Some("notes.a".into()), index: 0 },
        TemplateEdit::MoveSection { path: "task".into(), parent: None, index: 3 },
        TemplateEdit::RenameSection { path: "notes".into(), key: "memos".into() },
        TemplateEdit::SetSectionFields { path: "notes.b".into(), fields: fields("B!", Visibility::Full, None) },
        TemplateEdit::SetSectionFields { path: "task".into(), fields: fields("Task", Visibility::Summary, Some("")) },
        TemplateEdit::InsertTool { owner: notes(), index: 1, tool: tool("extra") },
        TemplateEdit::InsertTool { owner: ToolOwner::Template, index: 0, tool: tool("global") },
        TemplateEdit::RemoveTool { owner: ToolOwner::Template, index: 1 },
        TemplateEdit::ReplaceTool { owner: notes(), index: 0, tool: tool("note_a") },
        TemplateEdit::ReplaceTool { owner: notes(), index: 0, tool: tool("renamed") },
        TemplateEdit::MoveTool { owner: ToolOwner::Template, from: 0, to: 1 },
    ]
}

#[test]
fn every_edit_is_undone_exactly_by_its_inverse() {
    for edit in every_kind_of_edit() {
        let original = fixture();
        let mut template = original.clone();
        let inverse = apply(&mut template, edit.clone()).unwrap_or_else(|e| panic!("{edit:?}: {e}"));
        assert_ne!(template, original, "{edit:?} changes the template");
        let redo = apply(&mut template, inverse).unwrap();
        assert_eq!(template.to_json(), original.to_json(), "{edit:?}");
        apply(&mut template, redo).unwrap();
        let mut expected = original.clone();
        apply(&mut expected, edit.clone()).unwrap();
        assert_eq!(template, expected, "redo of {edit:?}");
    }
}

#[test]
fn refused_edits_change_nothing_and_say_why() {
    let refusals = [
        (
            TemplateEdit::RenameSection { path: "notes".into(), key: "docs".into() },
            "a sibling section already has the key 'docs'",
        ),
        (TemplateEdit::RenameSection { path: "notes".into(), key: "Bad Key".into() }, "'Bad Key' is not a section key"),
        (TemplateEdit::RenameSection { path: "ghost".into(), key: "x".into() }, "no section has the path 'ghost'"),
        (
            TemplateEdit::MoveSection { path: "notes".into(), parent: Some("notes.a".into()), index: 0 },
            "cannot move into itself",
        ),
        (TemplateEdit::MoveSection { path: "notes.a".into(), parent: None, index: 9 }, "no section position 9"),
        (
            TemplateEdit::MoveSection { path: "notes.a".into(), parent: Some("ghost".into()), index: 0 },
            "no section has the path 'ghost'",
        ),
        (
            TemplateEdit::InsertSection { parent: None, index: 0, section: section("task") },
            "already has the key 'task'",
        ),
        (
            TemplateEdit::InsertTool { owner: ToolOwner::Template, index: 0, tool: tool("search") },
            "already has a tool named 'search'",
        ),
        (TemplateEdit::InsertTool { owner: ToolOwner::Template, index: 0, tool: tool("read_section") }, "is reserved"),
        (
            TemplateEdit::InsertTool { owner: ToolOwner::Template, index: 0, tool: tool("bad name") },
            "is not a valid tool name",
        ),
        (
            TemplateEdit::SetSectionFields { path: "docs".into(), fields: fields("D", Visibility::Summary, None) },
            "a summarized section needs a summary",
        ),
        (TemplateEdit::SetParam { name: "1x".into(), value: Some("v".into()), index: None }, "is not a parameter name"),
        (
            TemplateEdit::RemoveTool { owner: ToolOwner::Section { path: "docs".into() }, index: 5 },
            "no tool position 5",
        ),
    ];
    for (edit, expected) in refusals {
        let original = fixture();
        let mut template = original.clone();
        let error = apply(&mut template, edit.clone()).expect_err(expected).to_string();
        assert!(error.contains(expected), "{edit:?}: {error:?} should say {expected:?}");
        assert_eq!(template, original, "{edit:?} changed the template");
    }
    let mut bad_schema = tool("odd");
    bad_schema.parameters = json!({ "type": "string" });
    let error =
        apply(&mut fixture(), TemplateEdit::InsertTool { owner: ToolOwner::Template, index: 0, tool: bad_schema });
    assert!(error.unwrap_err().to_string().contains("parameters: must describe an object"));
}

#[test]
fn a_source_stays_on_its_section_when_the_section_is_renamed_or_moved() {
    let mut template = fixture();
    template.sources = serde_json::from_value(json!([
        { "name": "ide", "section": "notes", "relay": { "plugin": "p" } },
        { "name": "deep", "section": "notes.a", "relay": { "plugin": "p" } },
        { "name": "own", "section": null, "relay": { "plugin": "p" } }
    ]))
    .unwrap();
    let sections = |t: &Template| t.sources.iter().map(|s| s.section.clone().unwrap_or_default()).collect::<Vec<_>>();
    let undo_rename =
        apply(&mut template, TemplateEdit::RenameSection { path: "notes".into(), key: "memo".into() }).unwrap();
    assert_eq!(sections(&template), ["memo", "memo.a", ""]);
    let problems = unfold_documents::reload_problems::ReloadProblems::of(&template).problems();
    assert!(problems.is_empty(), "{problems:?}");
    let undo_move =
        apply(&mut template, TemplateEdit::MoveSection { path: "memo.a".into(), parent: None, index: 0 }).unwrap();
    assert_eq!(sections(&template), ["memo", "a", ""]);
    apply(&mut template, undo_move).unwrap();
    apply(&mut template, undo_rename).unwrap();
    assert_eq!(sections(&template), ["notes", "notes.a", ""]);
}

#[test]
fn moving_a_section_to_a_parent_with_its_key_is_refused() {
    let mut template = fixture();
    apply(
        &mut template,
        TemplateEdit::InsertSection { parent: Some("notes".into()), index: 0, section: section("task") },
    )
    .unwrap();
    let before = template.clone();
    let error = apply(&mut template, TemplateEdit::MoveSection { path: "notes.task".into(), parent: None, index: 0 });
    assert!(error.unwrap_err().to_string().contains("already has the key 'task'"));
    assert_eq!(template, before);
}

#[test]
fn a_document_knows_when_it_differs_from_its_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.unfold.json");
    std::fs::copy(repo("tests/fixtures/disclosure.unfold.json"), &path).unwrap();
    let mut document = EditorDocument::open(&path).unwrap();
    assert!(!document.is_dirty() && !document.can_undo());
    document.apply(TemplateEdit::RenameSection { path: "style".into(), key: "tone".into() }, None).unwrap();
    assert!(document.is_dirty());
    assert!(document.undo().unwrap().is_some());
    assert!(!document.is_dirty(), "undo back to the saved state is clean");
    assert!(document.redo().unwrap().is_some());
    assert!(document.is_dirty());
    document.save().unwrap();
    assert!(!document.is_dirty());
    let saved = Template::load(&path).unwrap();
    assert!(saved.section("tone").is_some());
    assert_eq!(std::fs::read_to_string(&path).unwrap(), saved.to_json());
    assert!(document.undo().unwrap().is_some());
    assert!(document.is_dirty(), "undo past a save differs from the file");
}

/// What the app's editor does with a change: it holds the template as it was before.
fn follow(mirror: &mut Template, change: TemplateChange) {
    match change {
        TemplateChange::SectionFields { path, fields } => {
            apply(mirror, TemplateEdit::SetSectionFields { path, fields }).expect("the section is there");
        }
        TemplateChange::Whole { template } => *mirror = *template,
        TemplateChange::Unchanged => {}
    }
}

#[test]
fn an_editor_that_follows_the_changes_holds_the_document_after_every_edit_undo_and_redo() {
    let mut document = EditorDocument::new(fixture());
    let mut mirror = fixture();
    let mut applied = 0;
    for edit in every_kind_of_edit() {
        let sets_fields = matches!(edit, TemplateEdit::SetSectionFields { .. });
        // Some edits of the list no longer apply after the others; those change nothing.
        let Ok(change) = document.apply(edit, None) else { continue };
        assert_eq!(sets_fields, matches!(change, TemplateChange::SectionFields { .. }), "{change:?}");
        follow(&mut mirror, change);
        assert_eq!(&mirror, document.template());
        applied += 1;
    }
    assert!(applied > 10, "most edits apply ({applied})");
    while let Some(change) = document.undo().unwrap() {
        follow(&mut mirror, change);
        assert_eq!(&mirror, document.template());
    }
    assert_eq!(mirror, fixture());
    while let Some(change) = document.redo().unwrap() {
        follow(&mut mirror, change);
        assert_eq!(&mirror, document.template());
    }
}

#[test]
fn keystrokes_in_one_field_undo_as_one_step() {
    let mut document = EditorDocument::new(fixture());
    let type_title = |document: &mut EditorDocument, title: &str| {
        let fields = fields(title, Visibility::Full, None);
        document
            .apply(TemplateEdit::SetSectionFields { path: "task".into(), fields }, Some("task/title".into()))
            .unwrap();
    };
    for title in ["T", "Ta", "Tas"] {
        type_title(&mut document, title);
    }
    document
        .apply(TemplateEdit::SetParam { name: "project".into(), value: Some("X".into()), index: None }, None)
        .unwrap();
    type_title(&mut document, "Tas!");
    assert_eq!(document.template().section("task").unwrap().title, "Tas!");
    document.undo().unwrap();
    assert_eq!(document.template().section("task").unwrap().title, "Tas", "a new group after another edit");
    document.undo().unwrap();
    document.undo().unwrap();
    assert_eq!(document.template(), &fixture(), "three keystrokes undone at once");
    assert!(document.undo().unwrap().is_none());
    document.redo().unwrap();
    type_title(&mut document, "Again");
    assert!(!document.can_redo(), "an edit clears what could be redone");
    document.undo().unwrap();
    assert_eq!(document.template().section("task").unwrap().title, "Tas", "typing after a redo is its own step");
}

#[test]
fn saving_refuses_a_template_that_would_not_open_again() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.unfold.json");
    let mut document = EditorDocument::new(fixture());
    assert!(document.save().unwrap_err().to_string().contains("save it as a new file"));
    let broken =
        SectionFields { title: "T".into(), template: "costs $5".into(), summary: None, visibility: Visibility::Full };
    document.apply(TemplateEdit::SetSectionFields { path: "task".into(), fields: broken }, None).unwrap();
    let error = document.save_as(&path).unwrap_err().to_string();
    assert!(error.contains("/sections/0/template: invalid placeholder at line 1, column 7"), "{error}");
    assert!(error.starts_with(&path.display().to_string()), "{error}");
    assert!(!path.exists(), "nothing is written");
    document.undo().unwrap();
    document.save_as(&path).unwrap();
    assert_eq!(Template::load(&path).unwrap(), fixture());
    assert_eq!(document.path(), Some(path.as_path()));
}

#[test]
fn opening_an_invalid_file_loads_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.unfold.json");
    std::fs::write(&path, "{\"schema_version\": 1, \"kind\": \"unfold.template\", \"key\": \"k\", \"sections\": [{}]}")
        .unwrap();
    let error = EditorDocument::open(&path).unwrap_err();
    assert_eq!(error.problems().len(), 2, "{error}");
}

#[test]
fn opening_sweeps_what_an_interrupted_save_left_behind() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.unfold.json");
    std::fs::copy(repo("tests/fixtures/disclosure.unfold.json"), &path).unwrap();
    let stray = dir.path().join(format!(".t.unfold.json.x1y2{}", unfold_documents::document::TEMP_SUFFIX));
    std::fs::write(&stray, "{\"half\": ").unwrap();
    let neighbour = dir.path().join("notes.txt");
    std::fs::write(&neighbour, "kept").unwrap();
    let mut documents: unfold_editing::open_documents::OpenDocuments<EditorDocument> = Default::default();
    let id = documents.open(&path).unwrap();
    assert!(!stray.exists(), "the torn temporary file is gone");
    assert!(neighbour.exists() && path.exists(), "nothing else is touched");
    assert_eq!(documents.open(&path).unwrap(), id, "opening the same file again finds the open document");
}

#[test]
fn opening_through_a_symbolic_link_sweeps_the_folder_saves_go_to() {
    // A save writes the file the link names, in that file's folder: what an interrupted save left
    // is there, not beside the link.
    let dir = tempfile::tempdir().unwrap();
    let (real, links) = (dir.path().join("real"), dir.path().join("links"));
    std::fs::create_dir_all(&real).unwrap();
    std::fs::create_dir_all(&links).unwrap();
    std::fs::copy(repo("tests/fixtures/disclosure.unfold.json"), real.join("t.unfold.json")).unwrap();
    std::os::unix::fs::symlink("../real/t.unfold.json", links.join("t.unfold.json")).unwrap();
    let stray = real.join(format!(".t.unfold.json.x1y2{}", unfold_documents::document::TEMP_SUFFIX));
    std::fs::write(&stray, "{\"half\": ").unwrap();
    let mut documents: unfold_editing::open_documents::OpenDocuments<EditorDocument> = Default::default();
    documents.open(&links.join("t.unfold.json")).unwrap();
    assert!(!stray.exists(), "the torn temporary file is gone");
}

fn now(seconds: u64) -> u64 {
    seconds * 1000
}

#[test]
fn unsaved_work_reaches_the_recovery_store_and_leaves_it_once_saved() {
    let dir = tempfile::tempdir().unwrap();
    let store = unfold_stores::recovery::RecoveryStore::open(&dir.path().join("recovery")).unwrap();
    let path = dir.path().join("t.unfold.json");
    std::fs::copy(repo("tests/fixtures/disclosure.unfold.json"), &path).unwrap();
    let mut documents: unfold_editing::open_documents::OpenDocuments<EditorDocument> = Default::default();
    let id = documents.open(&path).unwrap();
    assert!(documents.flush_recovery(&store, now(1)).is_empty());
    assert!(store.entries().documents.is_empty(), "a clean document keeps no entry");

    let rename = TemplateEdit::RenameSection { path: "style".into(), key: "tone".into() };
    documents.get_mut(id).unwrap().apply(rename, None).unwrap();
    documents.flush_recovery(&store, now(2));
    let entries = store.entries().documents;
    assert_eq!(entries.len(), 1);
    let entry = &entries[0].entry;
    assert_eq!((entry.path.as_deref(), entry.saved_at_ms), (Some(path.to_str().unwrap()), now(2)));
    assert!(Template::from_json(entry.text.as_bytes()).unwrap().section("tone").is_some());

    documents.flush_recovery(&store, now(3));
    assert_eq!(store.entries().documents[0].entry.saved_at_ms, now(2), "unchanged since: not rewritten");

    documents.get_mut(id).unwrap().save().unwrap();
    documents.flush_recovery(&store, now(4));
    assert!(store.entries().documents.is_empty(), "saved: the entry is gone");
}

#[test]
fn work_written_without_the_lock_keeps_later_edits_and_forgets_closed_documents() {
    let dir = tempfile::tempdir().unwrap();
    let store = unfold_stores::recovery::RecoveryStore::open(dir.path()).unwrap();
    let mut documents: unfold_editing::open_documents::OpenDocuments<EditorDocument> = Default::default();
    let rename =
        |documents: &mut unfold_editing::open_documents::OpenDocuments<EditorDocument>, id, from: &str, to: &str| {
            let edit = TemplateEdit::RenameSection { path: from.into(), key: to.into() };
            documents.get_mut(id).unwrap().apply(edit, None).unwrap();
        };
    let id = documents.insert(EditorDocument::new(fixture()));
    rename(&mut documents, id, "style", "tone");

    // An edit made while the snapshot before it is written: that entry holds the snapshot, and the
    // next flush writes the edit.
    let work = documents.recovery_work(now(1));
    rename(&mut documents, id, "tone", "voice");
    let done = work.perform::<EditorDocument>(&store);
    let outcome = documents.recovery_done(done);
    assert!(outcome.errors.is_empty() && outcome.left_over.is_empty());
    let written = |store: &unfold_stores::recovery::RecoveryStore| {
        let entries = store.entries().documents;
        assert_eq!(entries.len(), 1);
        Template::from_json(entries[0].entry.text.as_bytes()).unwrap()
    };
    assert!(written(&store).section("tone").is_some(), "the snapshot taken before the edit");
    documents.flush_recovery(&store, now(2));
    assert!(written(&store).section("voice").is_some(), "the edit made meanwhile is written next");

    // A document closed while its work is written: the entry is left over, for the caller to remove.
    rename(&mut documents, id, "voice", "manner");
    let work = documents.recovery_work(now(3));
    let key = documents.close(id).unwrap().expect("it has an entry");
    store.discard(&key).unwrap();
    let done = work.perform::<EditorDocument>(&store);
    let outcome = documents.recovery_done(done);
    assert_eq!(outcome.left_over, vec![key]);
    assert_eq!(store.entries().documents.len(), 1, "written after the close's discard");
}

#[test]
fn restoring_brings_back_work_in_progress_problems_and_all() {
    let dir = tempfile::tempdir().unwrap();
    let store = unfold_stores::recovery::RecoveryStore::open(dir.path()).unwrap();
    let mut before_crash: unfold_editing::open_documents::OpenDocuments<EditorDocument> = Default::default();
    let id = before_crash.insert(EditorDocument::new(fixture()));
    let broken =
        SectionFields { title: "T".into(), template: "costs $5".into(), summary: None, visibility: Visibility::Full };
    before_crash
        .get_mut(id)
        .unwrap()
        .apply(TemplateEdit::SetSectionFields { path: "task".into(), fields: broken }, None)
        .unwrap();
    before_crash.flush_recovery(&store, now(5));
    drop(before_crash);

    let mut after_crash: unfold_editing::open_documents::OpenDocuments<EditorDocument> = Default::default();
    let recovered = store.entries();
    assert_eq!(recovered.documents.len(), 1, "skipped: {:?}", recovered.skipped);
    let restored = after_crash.restore(&recovered.documents[0].entry).unwrap();
    let document = after_crash.get(restored).unwrap();
    assert!(document.is_dirty() && document.path().is_none());
    assert_eq!(document.template().section("task").unwrap().template, "costs $5");
    assert_eq!(
        document.problems()[0].to_string(),
        "/sections/0/template: invalid placeholder at line 1, column 7: use ${name} or $name, and $$ for a literal $"
    );

    after_crash.flush_recovery(&store, now(6));
    let entries = store.entries().documents;
    assert_eq!(entries.len(), 1, "the restored document writes over its own entry, not a second one");
    assert_eq!(entries[0].entry.saved_at_ms, now(6));
}

/// The problems opening the template's saved file would report: what the editor must list.
fn reopened(template: &Template) -> Vec<unfold_documents::Problem> {
    match Template::from_json(template.to_json().as_bytes()) {
        Ok(_) => Vec::new(),
        Err(error) => error.problems().to_vec(),
    }
}

#[test]
fn after_every_kind_of_edit_the_editor_lists_what_reopening_would() {
    let mut document = EditorDocument::new(fixture());
    let broken =
        SectionFields { title: "T".into(), template: "$5 ${".into(), summary: None, visibility: Visibility::Full };
    let edits = std::iter::once(TemplateEdit::SetSectionFields { path: "task".into(), fields: broken })
        .chain(every_kind_of_edit())
        .chain(every_kind_of_edit());
    let mut listed = 0;
    for edit in edits {
        // Some edits of the list no longer apply after the others; those change nothing.
        let _ = document.apply(edit, None);
        assert_eq!(document.problems(), reopened(document.template()));
        listed += document.problems().len();
    }
    assert!(listed > 0, "the broken body is listed until an edit replaces it");
}

/// Arrays nested exactly `depth` deep.
fn arrays(depth: usize) -> serde_json::Value {
    (0..depth).fold(serde_json::Value::Null, |inner, _| json!([inner]))
}

#[test]
fn nesting_at_the_json_depth_limit_is_listed_as_reopening_would() {
    let chain = |levels: usize, last: Section| {
        (1..levels).fold(last, |child, i| Section { key: format!("l{i}"), children: vec![child], ..section("outer") })
    };
    type Place = fn(&mut Template, serde_json::Value, &dyn Fn(usize, Section) -> Section);
    let places: [(&str, Place); 5] = [
        ("template extension", |t, deep, _| drop(t.extensions.insert("x-deep".into(), deep))),
        ("template tool", |t, deep, _| {
            t.tools.push(Tool { parameters: json!({ "type": "object", "examples": deep }), ..tool("t") })
        }),
        ("tool mock", |t, deep, _| {
            t.tools.push(Tool { mock: Some(unfold_documents::tool::ScriptedResult::Result(deep)), ..tool("t") })
        }),
        ("extension of a section 10 deep", |t, deep, chain| {
            let mut last = section("last");
            last.extensions.insert("x-deep".into(), deep);
            t.sections.push(chain(10, last));
        }),
        ("tool of a section 10 deep", |t, deep, chain| {
            let mut last = section("last");
            last.tools.push(Tool { parameters: json!({ "type": "object", "examples": deep }), ..tool("t") });
            t.sections.push(chain(10, last));
        }),
    ];
    for (place, put) in places {
        let (mut fits, mut too_deep) = (false, false);
        for depth in 160..=205 {
            let mut template = fixture();
            put(&mut template, arrays(depth), &chain);
            let expected = reopened(&template);
            assert_eq!(EditorDocument::new(template).problems(), expected, "{place}, {depth} deep");
            let text_problem = expected.iter().any(|p| matches!(p.location, unfold_documents::Location::Text { .. }));
            fits |= expected.is_empty();
            too_deep |= text_problem;
        }
        assert!(fits && too_deep, "{place}: the depths tried straddle the limit");
    }
}

#[test]
fn a_template_too_large_to_save_is_listed_as_reopening_would() {
    let mut template = fixture();
    let limit = unfold_documents::document::MAX_DOCUMENT_BYTES as usize;
    template.sections[0].template = "lorem ipsum ".repeat(limit / 12 + 1);
    let problems = EditorDocument::new(template.clone()).problems();
    assert_eq!(problems, reopened(&template));
    assert!(problems[0].message.contains("Unfold reads documents up to"), "{problems:?}");
}

#[test]
fn a_hundred_problems_and_more_are_cut_short_as_reopening_would() {
    let mut template = fixture();
    template.sections =
        (0..150).map(|i| Section { template: "costs $5".into(), ..section(&format!("s{i}")) }).collect();
    let problems = EditorDocument::new(template.clone()).problems();
    assert_eq!(problems, reopened(&template));
    assert_eq!(problems.len(), 101);
    assert_eq!(problems[100].message, "and 50 more problems");
}

#[test]
fn the_preview_counts_the_whole_prompt_after_every_keystroke() {
    let examples = ["task-executor", "code-review", "incident-runbook", "support-desk"];
    for (name, heading) in examples.iter().flat_map(|n| [(n, HeadingStyle::Plain), (n, HeadingStyle::Keyed)]) {
        let mut template = load_template(&format!("examples/{name}.unfold.json"));
        template.heading = heading;
        let mut document = EditorDocument::new(template);
        let mut paths = Vec::new();
        document.template().walk(&mut |path, _| paths.push(path.to_owned()));
        // The preview the UI holds (its serial, parts and tools), as the prompt is and in full.
        let mut held_parts: [(Option<u32>, Vec<String>, Vec<serde_json::Value>); 2] = Default::default();
        for (typed, path) in
            ["x", " and more", "\n\n## Not a heading", "/", "", "é\u{301}'s"].iter().zip(paths.iter().cycle())
        {
            let mut fields = {
                let section = document.template().section(path).unwrap();
                SectionFields {
                    title: section.title.clone(),
                    template: section.template.clone(),
                    summary: section.summary.clone(),
                    visibility: section.visibility,
                }
            };
            fields.template.push_str(typed);
            document.apply(TemplateEdit::SetSectionFields { path: path.clone(), fields }, None).unwrap();
            for expand_all in [false, true] {
                let mut session = unfold_engine::Session::new(document.template(), Default::default()).unwrap();
                if expand_all {
                    paths.iter().for_each(|p| session.expand(p).unwrap());
                }
                let whole = unfold_engine::Preview::of(session.render().unwrap());
                assert_eq!(document.preview(&[], expand_all).unwrap(), whole, "{name} {heading:?} after {typed:?}");
                let held = &mut held_parts[usize::from(expand_all)];
                let update = document.preview_since(&[], expand_all, held.0).unwrap();
                assert_eq!(update.tools.is_none(), held.0.is_some(), "typing leaves the tools the UI holds");
                held.1 = update.prompt.apply(&held.1);
                held.2 = update.tools.unwrap_or(std::mem::take(&mut held.2));
                held.0 = Some(update.serial);
                assert_eq!(held.1.concat(), whole.markdown, "the parts the UI keeps make the prompt");
                assert_eq!(held.1, prompt_parts(&whole.markdown));
                assert_eq!(held.2, whole.tools, "the tools the UI keeps are those offered");
            }
        }
    }
}
