//! The editor's use cases: open, edit, preview, save, undo, tools, new documents and the example,
//! and unsaved work that outlives the app.

use std::path::Path;

use unfold_application::recovery::{self, Recovery};
use unfold_application::templates::{PreviewQuery, Templates};
use unfold_application::ErrorCode;
use unfold_documents::{Template, Tool, Visibility};
use unfold_editing::template_edit::{SectionFields, TemplateEdit, ToolOwner};
use unfold_editing::views::{PreviewUpdate, TemplateChange};
use unfold_stores::recovery::RecoveryStore;

use crate::example_copy;

fn make_full(path: &str) -> TemplateEdit {
    TemplateEdit::SetSectionFields {
        path: path.to_owned(),
        fields: SectionFields {
            title: "Project Context".to_owned(),
            template: "Docs for ${project_name}.".to_owned(),
            summary: Some("Documentation for ${project_name} is available.".to_owned()),
            visibility: Visibility::Full,
        },
    }
}

fn tool_names(preview: &PreviewUpdate) -> Vec<String> {
    let tools = preview.tools.as_deref().expect("the preview has its tools");
    tools.iter().filter_map(|t| t["function"]["name"].as_str().map(str::to_owned)).collect()
}

#[test]
fn toggling_a_section_to_full_offers_its_tools_and_saves() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = example_copy(&dir);
    let templates = Templates::default();
    let opened = templates.open(&path).expect("the example opens");
    assert!(!opened.status.dirty && opened.status.problems.is_empty());
    let id = opened.status.id;
    assert_eq!(tool_names(&templates.preview(id, &[], false, None).unwrap()), ["lookup", "read_section"]);

    let edited = templates.apply(id, make_full("context"), None).expect("the edit applies");
    assert!(edited.status.dirty && edited.status.can_undo);
    assert_eq!(
        tool_names(&templates.preview(id, &[], false, None).unwrap()),
        ["lookup", "search", "cite", "read_section"]
    );

    let saved = templates.save(id, None).expect("saves");
    assert!(!saved.status.dirty);
    let on_disk = Template::load(Path::new(&path)).expect("the saved file opens");
    assert_eq!(on_disk.section("context").map(|s| s.visibility), Some(Visibility::Full));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), on_disk.to_json());

    let undone = templates.step(id, true).expect("undo");
    assert!(undone.status.dirty && undone.status.can_redo);
    let TemplateChange::SectionFields { path, fields } = undone.change else { panic!("{:?}", undone.change) };
    assert_eq!((path.as_str(), fields.visibility), ("context", Visibility::Summary));
}

#[test]
fn an_edit_answers_with_the_preview_of_the_edited_document_even_one_that_does_not_render() {
    let dir = tempfile::tempdir().expect("temp dir");
    let templates = Templates::default();
    let id = templates.open(&example_copy(&dir)).expect("opens").status.id;
    let held = templates.preview(id, &[], false, None).expect("renders");
    let query = PreviewQuery { base: Some(held.serial), ..PreviewQuery::default() };

    let (update, preview) = templates.apply_and_preview(id, make_full("context"), None, &query).expect("applies");
    assert!(update.status.dirty && update.status.can_undo);
    let preview = preview.expect("renders");
    assert_eq!(tool_names(&preview), ["lookup", "search", "cite", "read_section"], "new tools are sent");
    assert_eq!(preview.prompt.base, Some(held.serial), "a change from the preview held");
    assert!(preview.prompt.parts.iter().any(|part| part.contains("Docs for Acme.")), "{:?}", preview.prompt.parts);

    let mut typed = make_full("context");
    let TemplateEdit::SetSectionFields { fields, .. } = &mut typed else { unreachable!() };
    fields.template.push('!');
    let query = PreviewQuery { base: Some(preview.serial), ..PreviewQuery::default() };
    let (_, typed) = templates.apply_and_preview(id, typed, None, &query).expect("applies");
    assert_eq!(typed.expect("renders").tools, None, "a keystroke leaves the tools as the UI holds them");

    let mut unknown_param = make_full("context");
    let TemplateEdit::SetSectionFields { fields, .. } = &mut unknown_param else { unreachable!() };
    fields.template = "Docs for ${nobody}.".to_owned();
    let (update, preview) =
        templates.apply_and_preview(id, unknown_param, None, &PreviewQuery::default()).expect("the edit is made");
    assert!(update.status.can_undo);
    let error = preview.expect_err("a placeholder without a value does not render");
    assert_eq!(error.code, ErrorCode::InvalidTemplate);
    assert!(error.message.contains("nobody"), "{}", error.message);

    let rename = TemplateEdit::RenameSection { path: "nowhere".to_owned(), key: "x".to_owned() };
    let refused = templates.apply_and_preview(id, rename, None, &PreviewQuery::default()).expect_err("no such section");
    assert_eq!(refused.code, ErrorCode::InvalidEdit);
}

#[test]
fn refused_edits_and_invalid_files_say_why() {
    let dir = tempfile::tempdir().expect("temp dir");
    let templates = Templates::default();
    let opened = templates.open(&example_copy(&dir)).expect("opens");
    let tool: Tool = serde_json::from_value(serde_json::json!({
        "name": "lookup", "description": "again", "parameters": { "type": "object" }
    }))
    .unwrap();
    let error = templates
        .apply(opened.status.id, TemplateEdit::InsertTool { owner: ToolOwner::Template, index: 0, tool }, None)
        .expect_err("a duplicate tool name is refused");
    assert_eq!(error.code, ErrorCode::InvalidEdit);
    assert!(error.message.contains("already has a tool named 'lookup'"), "{}", error.message);

    let broken = dir.path().join("broken.unfold.json");
    std::fs::write(
        &broken,
        r#"{"schema_version": 1, "kind": "unfold.template", "key": "k", "sections": [{"key": "A"}]}"#,
    )
    .unwrap();
    let error = templates.open(&broken.to_string_lossy()).expect_err("an invalid file opens nothing");
    assert_eq!(error.code, ErrorCode::InvalidTemplate);
    let mut places: Vec<String> = error.problems.iter().map(|p| p.location.to_string()).collect();
    places.sort_unstable();
    assert_eq!(places, ["/sections/0", "/sections/0/key"], "a missing title and a bad key");

    let missing = templates.open(&dir.path().join("nowhere.unfold.json").to_string_lossy()).expect_err("no file");
    assert_eq!(missing.code, ErrorCode::UnreadableFile);
    assert_eq!(templates.close(99, None).expect_err("unknown").code, ErrorCode::UnknownDocument);
}

#[test]
fn importing_tools_names_their_format_and_conflicts() {
    let dir = tempfile::tempdir().expect("temp dir");
    let templates = Templates::default();
    let id = templates.open(&example_copy(&dir)).expect("opens").status.id;
    let anthropic = r#"[{"name": "lookup", "description": "d", "input_schema": {"type": "object"}},
                        {"name": "weather", "description": "w", "input_schema": {"type": "object"}}]"#;
    let imported = templates.import_tools(id, anthropic).expect("imports");
    assert_eq!(imported.format, unfold_editing::tool_import::ToolFormat::Anthropic.label());
    assert_eq!(imported.conflicts, ["lookup"]);
    let error = templates.import_tools(id, "[1]").expect_err("not tools");
    assert_eq!(error.code, ErrorCode::InvalidTools);
    assert_eq!(error.problems[0].location.to_string(), "/0");
}

#[test]
fn checking_a_tool_lists_its_problems_at_their_places() {
    let dir = tempfile::tempdir().expect("temp dir");
    let templates = Templates::default();
    let id = templates.open(&example_copy(&dir)).expect("opens").status.id;
    let context = ToolOwner::Section { path: "context".to_owned() };
    let check = |owner: &ToolOwner, index, text: &str| {
        let problems = templates.check_tool(id, owner, index, text).expect("a place in the template");
        problems.into_iter().map(|p| format!("{}: {}", p.location, p.message)).collect::<Vec<_>>()
    };
    let search = r#"{"name": "search", "description": "d", "parameters": {"type": "object"}}"#;
    assert!(check(&context, Some(0), search).is_empty(), "the tool keeps its own name");
    assert_eq!(
        check(&ToolOwner::Template, None, search),
        ["/name: the template already has a tool named 'search' (in section 'context')"]
    );
    let bad_schema = r#"{"name": "s2", "description": "d", "parameters": {"type": "object", "required": 1}}"#;
    assert_eq!(
        check(&context, Some(0), bad_schema),
        ["/parameters/required: not a valid JSON Schema: 1 is not of type \"array\""]
    );
    assert_eq!(check(&context, Some(0), "{\"name\":\n  }"), ["line 2, column 3: invalid JSON: expected value"]);

    let unknown = templates.check_tool(id, &ToolOwner::Section { path: "nope".to_owned() }, None, search);
    assert_eq!(unknown.expect_err("no such section").code, ErrorCode::InvalidRequest);
    assert_eq!(templates.check_tool(99, &context, None, search).expect_err("closed").code, ErrorCode::UnknownDocument);
}

#[test]
fn a_new_document_is_unsaved_valid_and_asks_where_to_save() {
    let templates = Templates::default();
    let created = templates.create(Template::blank()).expect("creates");
    assert!(created.status.dirty && created.status.path.is_none() && created.status.problems.is_empty());
    assert!(templates.has_unsaved_changes());
    let error = templates.save(created.status.id, None).expect_err("no file yet");
    assert!(error.message.contains("save it as a new file"), "{}", error.message);

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("new.unfold.json");
    let saved = templates.save(created.status.id, Some(&path.to_string_lossy())).expect("saves as");
    assert!(!saved.status.dirty && !templates.has_unsaved_changes());
    assert_eq!(Template::load(&path).expect("opens again"), Template::blank());
}

/// An example opens as saved files the user may edit: written once into the examples folder, never
/// over the user's own, and every one of them opens with each scenario it lists.
#[test]
fn an_example_opens_as_saved_files_that_are_never_written_over() {
    use unfold_application::examples::{example_files, example_list};
    let dir = tempfile::tempdir().expect("temp dir");
    let folder = dir.path().join("examples");
    let list = example_list().expect("the built-in examples are valid");
    assert_eq!(list[0].template, "coding-agent.unfold.json", "the one where disclosure wins first");
    let (templates, scenarios) = (Templates::default(), unfold_application::scenarios::Scenarios::default());
    for example in &list {
        for scenario in &example.scenarios {
            let files = example_files(Some(&folder), &example.template, Some(&scenario.file)).expect("written");
            let opened = templates.open(&files.template).expect("the template opens");
            assert!(!opened.status.dirty, "{}: opens saved, not as an untitled copy", example.template);
            let scenario_path = files.scenario.expect("the scenario asked for");
            let view = scenarios.open(&templates, &scenario_path, Some(opened.status.id)).expect("the scenario opens");
            assert!(view.warnings.is_empty(), "{}: {:?}", scenario.file, view.warnings);
        }
    }

    let template = folder.join("coding-agent.unfold.json");
    std::fs::write(&template, "the user's own").unwrap();
    example_files(Some(&folder), "coding-agent.unfold.json", None).expect("there already");
    assert_eq!(std::fs::read_to_string(&template).unwrap(), "the user's own", "never written over");

    let unknown = example_files(Some(&folder), "nope.unfold.json", None).unwrap_err();
    assert_eq!(unknown.message, "no example has the template 'nope.unfold.json'");
    let no_home = example_files(None, "coding-agent.unfold.json", None).unwrap_err();
    assert_eq!(no_home.message, "no home folder to write the example into");
}

#[test]
fn unsaved_edits_come_back_after_the_app_is_gone() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = example_copy(&dir);
    let store = RecoveryStore::open(&dir.path().join("recovery")).unwrap();

    let before_crash = Templates::default();
    let id = before_crash.open(&path).unwrap().status.id;
    let fields = SectionFields {
        title: "Task".into(),
        template: "Unsaved words".into(),
        summary: None,
        visibility: Visibility::Full,
    };
    before_crash.apply(id, TemplateEdit::SetSectionFields { path: "task".into(), fields }, None).unwrap();
    before_crash.flush_recovery(&store, 1_000);
    drop(before_crash);

    let after_crash = Templates::default();
    let offered = recovery::recovered(&store);
    assert_eq!(offered.len(), 1);
    assert_eq!(offered[0].path.as_deref(), Some(path.as_str()));
    let restored = after_crash.restore(&store, &offered[0].id).expect("restores");
    assert!(restored.status.dirty);
    assert_eq!(restored.template.section("task").unwrap().template, "Unsaved words");
    assert_eq!(after_crash.restore(&store, "nothing-here").expect_err("not kept").code, ErrorCode::NotFound);
}

#[test]
fn work_saved_after_it_was_kept_is_not_offered_back() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = example_copy(&dir);
    let store = RecoveryStore::open(&dir.path().join("recovery")).unwrap();
    let before_crash = Templates::default();
    let id = before_crash.open(&path).unwrap().status.id;
    let fields = SectionFields {
        title: "Task".into(),
        template: "Saved words".into(),
        summary: None,
        visibility: Visibility::Full,
    };
    before_crash.apply(id, TemplateEdit::SetSectionFields { path: "task".into(), fields }, None).unwrap();
    before_crash.flush_recovery(&store, 1_000);
    // Saved, and the app gone before its next round of keeping could forget the entry.
    before_crash.save(id, None).unwrap();
    drop(before_crash);

    assert!(recovery::recovered(&store).is_empty());
    std::fs::write(&path, "changed on disk since").unwrap();
    assert!(recovery::recovered(&store).is_empty(), "the entry was forgotten, not only hidden");
}

#[test]
fn closing_a_document_forgets_its_unsaved_work() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = RecoveryStore::open(&dir.path().join("recovery")).unwrap();
    let templates = Templates::default();
    let kept = templates.create(Template::blank()).unwrap().status.id;
    let closed = templates.create(Template::blank()).unwrap().status.id;
    templates.flush_recovery(&store, 1_000);
    assert_eq!(recovery::recovered(&store).len(), 2, "both untitled documents are kept, apart");
    templates.close(closed, Some(&store)).expect("closes");
    let left = recovery::recovered(&store);
    assert_eq!(left.len(), 1);
    assert!(left[0].id.ends_with(&format!("-{kept}")), "{}", left[0].id);
}

#[test]
fn without_a_recovery_folder_nothing_is_kept_and_asking_says_so() {
    let recovery = Recovery::open(None);
    assert_eq!(recovery.store().expect_err("no folder").code, ErrorCode::Unavailable);
}

#[test]
fn a_render_names_a_missing_expanded_section_in_no_fronts_words() {
    let request =
        unfold_application::files::RenderRequest { expand: vec!["examples".to_owned()], ..Default::default() };
    let error =
        unfold_application::files::render_file(Path::new(&crate::example("task-executor.unfold.json")), &request)
            .expect_err("no top-level section 'examples'");
    assert_eq!(error.code, ErrorCode::InvalidRequest);
    assert!(error.message.contains("expanded section examples: "), "{}", error.message);
    assert!(error.message.contains("Did you mean 'context.examples'?"), "{}", error.message);
    assert!(!error.message.contains("--"), "a flag is the CLI's word: {}", error.message);
}
