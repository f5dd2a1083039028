//! The editor's commands: open, edit, undo, redo, save and preview templates, and import tools.
//! Each is a few lines over `unfold_editing::edit` (the open documents live in Tauri state); the
//! command bodies are plain functions over that state, so the tests call them with no window.

use std::path::Path;
use std::sync::{Mutex, MutexGuard, PoisonError};

use tauri::State;
use unfold_documents::Tool;
use unfold_editing::edit::{
    DocumentUpdate, DocumentView, EditorDocument, FileDocument, OpenDocuments, PreviewUpdate, ProblemView,
    TemplateChange, TemplateEdit, ToolOwner,
};
use unfold_editing::tool_import::ToolFormat;
use unfold_stores::recovery::{RecoveryEntry, RecoveryStore};

use crate::commands::{CommandError, CommandErrorCode};
use crate::compare::Scenarios;
use crate::files::Recent;

/// The documents of one kind open in the app, shared by its commands: templates (the editor) or
/// scenarios (the compare view).
#[derive(Debug)]
pub struct Documents<D>(Mutex<OpenDocuments<D>>);

impl<D> Default for Documents<D> {
    fn default() -> Self {
        Documents(Mutex::new(OpenDocuments::default()))
    }
}

/// The templates open in the editor.
pub type Editor = Documents<EditorDocument>;

/// Locks `mutex`, even when a command panicked while holding it: every change under the app's
/// locks is whole or not at all (a core edit changes nothing unless it succeeds), so the state
/// behind it is consistent. Keep serving it.
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl<D: FileDocument> Documents<D> {
    pub(crate) fn with<T>(
        &self,
        work: impl FnOnce(&mut OpenDocuments<D>) -> Result<T, CommandError>,
    ) -> Result<T, CommandError> {
        work(&mut lock(&self.0))
    }

    /// Closes a document and forgets its unsaved work: the user chose not to keep it.
    pub fn close(&self, id: u32, recovery: Option<&RecoveryStore>) -> Result<(), CommandError> {
        let entry = self.with(|documents| Ok(documents.close(id)?))?;
        if let (Some(store), Some(entry)) = (recovery, entry) {
            store.discard(&entry)?;
        }
        Ok(())
    }

    /// Whether any open document has unsaved changes.
    pub fn has_unsaved_changes(&self) -> bool {
        lock(&self.0).has_unsaved_changes()
    }

    /// Writes every document's unsaved work to the recovery store (see `OpenDocuments::flush_recovery`).
    pub fn flush_recovery(&self, store: &RecoveryStore, now_ms: u64) {
        for (id, error) in lock(&self.0).flush_recovery(store, now_ms) {
            tracing::warn!(id, %error, kind = D::NOUN, "cannot keep a document for recovery");
        }
    }
}

impl Editor {
    pub(crate) fn view(documents: &OpenDocuments, id: u32) -> Result<DocumentView, CommandError> {
        Ok(documents.get(id)?.view(id))
    }

    /// Opens a template file; an invalid one opens nothing and lists every problem.
    pub fn open(&self, path: &str) -> Result<DocumentView, CommandError> {
        self.with(|documents| {
            let id = documents.open(Path::new(path))?;
            Editor::view(documents, id)
        })
    }

    /// Applies an edit; a refused edit changes nothing.
    pub fn apply(&self, id: u32, edit: TemplateEdit, group: Option<String>) -> Result<DocumentUpdate, CommandError> {
        self.with(|documents| {
            let document = documents.get_mut(id)?;
            let change =
                document.apply(edit, group).map_err(CommandError::invalid_as(CommandErrorCode::InvalidEdit))?;
            Ok(document.update(id, change))
        })
    }

    /// Undoes (`back`) or redoes one step.
    pub fn step(&self, id: u32, back: bool) -> Result<DocumentUpdate, CommandError> {
        self.with(|documents| {
            let document = documents.get_mut(id)?;
            let change = if back { document.undo() } else { document.redo() }
                .map_err(CommandError::invalid_as(CommandErrorCode::InvalidEdit))?;
            Ok(document.update(id, change.unwrap_or(TemplateChange::Unchanged)))
        })
    }

    /// Saves to the document's file, or to `path` (which becomes its file).
    pub fn save(&self, id: u32, path: Option<&str>) -> Result<DocumentUpdate, CommandError> {
        self.with(|documents| {
            let document = documents.get_mut(id)?;
            match path {
                Some(path) => document.save_as(Path::new(path))?,
                None => document.save()?,
            }
            Ok(document.update(id, TemplateChange::Unchanged))
        })
    }

    /// The unsaved work found in the recovery store, templates and scenarios (broken entries, and
    /// entries of neither kind, are skipped and logged).
    pub fn recovered(store: &RecoveryStore) -> Vec<RecoveredDto> {
        let found = store.entries();
        for (file, why) in &found.skipped {
            tracing::warn!(file = %file.display(), why, "skipped a recovery entry");
        }
        let dto = |d: &unfold_stores::recovery::RecoveredDocument| {
            let kind = d.entry.document_kind();
            if kind.is_none() {
                tracing::warn!(file = %d.file.display(), "skipped a recovery entry of no known kind");
            }
            Some(RecoveredDto {
                id: d.entry.id.clone(),
                kind: kind?.into(),
                path: d.entry.path.clone(),
                saved_at_ms: d.entry.saved_at_ms as f64,
            })
        };
        found.documents.iter().filter_map(dto).collect()
    }

    /// Opens the recovery entry `recovery_id` as a modified document.
    pub fn restore(&self, store: &RecoveryStore, recovery_id: &str) -> Result<DocumentView, CommandError> {
        let entry = recovered_entry(store, recovery_id)?;
        self.with(|documents| {
            let id = documents.restore(&entry)?;
            Editor::view(documents, id)
        })
    }

    /// What the model is shown now, with `expand` sections read or every section with `expand_all`,
    /// as a change from the preview `base` the UI holds.
    pub fn preview(
        &self,
        id: u32,
        expand: &[String],
        expand_all: bool,
        base: Option<u32>,
    ) -> Result<PreviewUpdate, CommandError> {
        self.with(|documents| Ok(documents.get_mut(id)?.preview_since(expand, expand_all, base)?))
    }
}

/// The entry `recovery_id` of the recovery store.
pub fn recovered_entry(store: &RecoveryStore, recovery_id: &str) -> Result<RecoveryEntry, CommandError> {
    let found = store.entries();
    let entry = found.documents.into_iter().find(|d| d.entry.id == recovery_id).map(|d| d.entry);
    entry.ok_or_else(|| {
        CommandError::from(unfold_documents::Error::problem("", format!("no unsaved work is kept as '{recovery_id}'")))
    })
}

/// What kind of document unsaved work belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, specta::Type)]
#[serde(rename_all = "snake_case")]
pub enum RecoveredKind {
    /// A template (`restore_document` opens it in the editor).
    Template,
    /// A scenario (`restore_scenario` opens it in the compare view).
    Scenario,
}

impl From<unfold_documents::document::DocumentKind> for RecoveredKind {
    fn from(kind: unfold_documents::document::DocumentKind) -> RecoveredKind {
        match kind {
            unfold_documents::document::DocumentKind::Template => RecoveredKind::Template,
            unfold_documents::document::DocumentKind::Scenario => RecoveredKind::Scenario,
        }
    }
}

/// Unsaved work kept from an earlier run, offered back after a crash.
#[derive(Debug, Clone, PartialEq, serde::Serialize, specta::Type)]
pub struct RecoveredDto {
    /// The entry's id (what `restore_document`, `restore_scenario` and `discard_recovered` take).
    pub id: String,
    /// A template's or a scenario's.
    pub kind: RecoveredKind,
    /// The file the work belongs to; none for a template never saved.
    pub path: Option<String>,
    /// When it was kept, in milliseconds since the Unix epoch (a JavaScript `Date` value).
    pub saved_at_ms: f64,
}

/// The recovery store of the app, in its data folder; none when that folder cannot be made
/// (then nothing is kept, and the app says so in its log).
pub struct Recovery(pub Option<RecoveryStore>);

impl Recovery {
    pub(crate) fn store(&self) -> Result<&RecoveryStore, CommandError> {
        self.0.as_ref().ok_or_else(|| {
            CommandError::from(unfold_documents::Error::problem("", "the recovery folder is not available"))
        })
    }
}

/// Keeps the unsaved work of the open templates and scenarios every second, for as long as the
/// app runs.
pub fn keep_for_recovery(editor: std::sync::Arc<Editor>, scenarios: std::sync::Arc<Scenarios>, store: RecoveryStore) {
    std::thread::spawn(move || loop {
        std::thread::sleep(std::time::Duration::from_secs(1));
        let now_ms = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
        editor.flush_recovery(&store, now_ms);
        scenarios.flush_recovery(&store, now_ms);
    });
}

/// Tools read from a pasted or opened tool list, ready to attach.
#[derive(Debug, Clone, PartialEq, serde::Serialize, specta::Type)]
pub struct ImportedToolsDto {
    /// The format the list was in (`OpenAI chat`, `OpenAI Responses`, `Anthropic`).
    pub format: String,
    /// The tools, in Unfold's form.
    pub tools: Vec<Tool>,
    /// Names the document's template already has: attaching those would be refused.
    pub conflicts: Vec<String>,
}

/// Reads tools from `text` for the document `id`.
fn import_tools_into(editor: &Editor, id: u32, text: &str) -> Result<ImportedToolsDto, CommandError> {
    let imported = unfold_editing::tool_import::import_tools(text)
        .map_err(CommandError::invalid_as(CommandErrorCode::InvalidTools))?;
    let format: ToolFormat = imported.format;
    editor.with(|documents| {
        let conflicts = unfold_editing::tool_import::conflicts(documents.get(id)?.template(), &imported.tools);
        Ok(ImportedToolsDto { format: format.label().to_owned(), tools: imported.tools, conflicts })
    })
}

/// The problems of a tool the tool editor holds (its JSON text) for position `index` of `owner`'s
/// tools in the document `id` (`None`: a tool not in the list yet).
fn check_tool_in(
    editor: &Editor,
    id: u32,
    owner: &ToolOwner,
    index: Option<u32>,
    text: &str,
) -> Result<Vec<ProblemView>, CommandError> {
    editor.with(|documents| {
        let template = documents.get(id)?.template();
        let problems = unfold_editing::tool_check::tool_text_problems(template, owner, index, text)
            .map_err(CommandError::invalid_as(CommandErrorCode::InvalidEdit))?;
        Ok(problems.iter().map(ProblemView::from).collect())
    })
}

/// Opens a template file for editing.
#[tauri::command]
#[specta::specta]
pub async fn open_document(
    editor: State<'_, std::sync::Arc<Editor>>,
    recent: State<'_, Recent>,
    path: String,
) -> Result<DocumentView, CommandError> {
    let opened = editor.open(&path)?;
    recent.remember(opened.status.path.as_deref());
    Ok(opened)
}

/// Applies an edit to an open document; edits of one `group` in a row undo as one step.
#[tauri::command]
#[specta::specta]
pub async fn apply_edit(
    editor: State<'_, std::sync::Arc<Editor>>,
    id: u32,
    edit: TemplateEdit,
    group: Option<String>,
) -> Result<DocumentUpdate, CommandError> {
    editor.apply(id, edit, group)
}

/// Undoes the last step of a document.
#[tauri::command]
#[specta::specta]
pub async fn undo(editor: State<'_, std::sync::Arc<Editor>>, id: u32) -> Result<DocumentUpdate, CommandError> {
    editor.step(id, true)
}

/// Redoes the last undone step of a document.
#[tauri::command]
#[specta::specta]
pub async fn redo(editor: State<'_, std::sync::Arc<Editor>>, id: u32) -> Result<DocumentUpdate, CommandError> {
    editor.step(id, false)
}

/// Saves a document to its file, or to `path` when given ("save as").
#[tauri::command]
#[specta::specta]
pub async fn save_document(
    editor: State<'_, std::sync::Arc<Editor>>,
    id: u32,
    recent: State<'_, Recent>,
    path: Option<String>,
) -> Result<DocumentUpdate, CommandError> {
    let saved = editor.save(id, path.as_deref())?;
    if path.is_some() {
        recent.remember(saved.status.path.as_deref());
    }
    Ok(saved)
}

/// Closes a document (the UI asks about unsaved changes first).
#[tauri::command]
#[specta::specta]
pub async fn close_document(
    editor: State<'_, std::sync::Arc<Editor>>,
    recovery: State<'_, Recovery>,
    id: u32,
) -> Result<(), CommandError> {
    editor.close(id, recovery.0.as_ref())
}

/// The prompt and tools of a document as the model is shown them now; the prompt as a change from
/// the preview `base` the UI holds (all of it without one).
#[tauri::command]
#[specta::specta]
pub async fn preview_document(
    editor: State<'_, std::sync::Arc<Editor>>,
    id: u32,
    expand: Vec<String>,
    expand_all: bool,
    base: Option<u32>,
) -> Result<PreviewUpdate, CommandError> {
    editor.preview(id, &expand, expand_all, base)
}

/// Reads an OpenAI Chat, OpenAI Responses or Anthropic tool list for a document.
#[tauri::command]
#[specta::specta]
pub async fn import_tools(
    editor: State<'_, std::sync::Arc<Editor>>,
    id: u32,
    text: String,
) -> Result<ImportedToolsDto, CommandError> {
    import_tools_into(&editor, id, &text)
}

/// Checks a tool the tool editor holds, as JSON text, for a place in a document: every problem,
/// each at its JSON pointer within the tool (or its line and column while the text is not JSON).
#[tauri::command]
#[specta::specta]
pub async fn check_tool(
    editor: State<'_, std::sync::Arc<Editor>>,
    id: u32,
    owner: ToolOwner,
    index: Option<u32>,
    tool_json: String,
) -> Result<Vec<ProblemView>, CommandError> {
    check_tool_in(&editor, id, &owner, index, &tool_json)
}

/// Unsaved work kept from an earlier run.
#[tauri::command]
#[specta::specta]
pub async fn recovered_documents(recovery: State<'_, Recovery>) -> Result<Vec<RecoveredDto>, CommandError> {
    Ok(Editor::recovered(recovery.store()?))
}

/// Opens kept unsaved work as a modified document.
#[tauri::command]
#[specta::specta]
pub async fn restore_document(
    editor: State<'_, std::sync::Arc<Editor>>,
    recovery: State<'_, Recovery>,
    recovery_id: String,
) -> Result<DocumentView, CommandError> {
    editor.restore(recovery.store()?, &recovery_id)
}

/// Forgets kept unsaved work.
#[tauri::command]
#[specta::specta]
pub async fn discard_recovered(recovery: State<'_, Recovery>, recovery_id: String) -> Result<(), CommandError> {
    Ok(recovery.store()?.discard(&recovery_id)?)
}

#[cfg(test)]
mod tests {
    //! The editor's command bodies over real files, with no window.

    use unfold_documents::Visibility;
    use unfold_editing::edit::{SectionFields, ToolOwner};

    use super::*;

    fn example_copy(dir: &tempfile::TempDir) -> String {
        let path = dir.path().join("task.unfold.json");
        std::fs::copy(format!("{}/../examples/task-executor.unfold.json", env!("CARGO_MANIFEST_DIR")), &path)
            .expect("copy the example");
        path.to_string_lossy().into_owned()
    }

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
        preview.tools.iter().filter_map(|t| t["function"]["name"].as_str().map(str::to_owned)).collect()
    }

    #[test]
    fn toggling_a_section_to_full_offers_its_tools_and_saves() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = example_copy(&dir);
        let editor = Editor::default();
        let opened = editor.open(&path).expect("the example opens");
        assert!(!opened.status.dirty && opened.status.problems.is_empty());
        assert_eq!(
            tool_names(&editor.preview(opened.status.id, &[], false, None).unwrap()),
            ["lookup", "read_section"]
        );

        let edited = editor.apply(opened.status.id, make_full("context"), None).expect("the edit applies");
        assert!(edited.status.dirty && edited.status.can_undo);
        assert_eq!(
            tool_names(&editor.preview(opened.status.id, &[], false, None).unwrap()),
            ["lookup", "search", "cite", "read_section"]
        );

        let saved = editor.save(opened.status.id, None).expect("saves");
        assert!(!saved.status.dirty);
        let on_disk = unfold_documents::Template::load(Path::new(&path)).expect("the saved file opens");
        assert_eq!(on_disk.section("context").map(|s| s.visibility), Some(Visibility::Full));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), on_disk.to_json());

        let undone = editor.step(opened.status.id, true).expect("undo");
        assert!(undone.status.dirty && undone.status.can_redo);
        let TemplateChange::SectionFields { path, fields } = undone.change else { panic!("{:?}", undone.change) };
        assert_eq!((path.as_str(), fields.visibility), ("context", Visibility::Summary));
    }

    #[test]
    fn refused_edits_and_invalid_files_say_why() {
        let dir = tempfile::tempdir().expect("temp dir");
        let editor = Editor::default();
        let opened = editor.open(&example_copy(&dir)).expect("opens");
        let tool: Tool = serde_json::from_value(serde_json::json!({
            "name": "lookup", "description": "again", "parameters": { "type": "object" }
        }))
        .unwrap();
        let error = editor
            .apply(opened.status.id, TemplateEdit::InsertTool { owner: ToolOwner::Template, index: 0, tool }, None)
            .expect_err("a duplicate tool name is refused");
        assert_eq!(error.code, CommandErrorCode::InvalidEdit);
        assert!(error.message.contains("already has a tool named 'lookup'"), "{}", error.message);

        let broken = dir.path().join("broken.unfold.json");
        std::fs::write(
            &broken,
            r#"{"schema_version": 1, "kind": "unfold.template", "key": "k", "sections": [{"key": "A"}]}"#,
        )
        .unwrap();
        let error = editor.open(&broken.to_string_lossy()).expect_err("an invalid file opens nothing");
        assert_eq!(error.code, CommandErrorCode::InvalidTemplate);
        let mut places: Vec<&str> = error.problems.iter().map(|p| p.location.as_str()).collect();
        places.sort_unstable();
        assert_eq!(places, ["/sections/0", "/sections/0/key"], "a missing title and a bad key");

        assert_eq!(editor.close(99, None).expect_err("unknown").code, CommandErrorCode::UnknownDocument);
    }

    #[test]
    fn importing_tools_names_their_format_and_conflicts() {
        let dir = tempfile::tempdir().expect("temp dir");
        let editor = Editor::default();
        let opened = editor.open(&example_copy(&dir)).expect("opens");
        let anthropic = r#"[{"name": "lookup", "description": "d", "input_schema": {"type": "object"}},
                            {"name": "weather", "description": "w", "input_schema": {"type": "object"}}]"#;
        let imported = import_tools_into(&editor, opened.status.id, anthropic).expect("imports");
        assert_eq!(imported.format, unfold_editing::tool_import::ToolFormat::Anthropic.label());
        assert_eq!(imported.conflicts, ["lookup"]);
        let error = import_tools_into(&editor, opened.status.id, "[1]").expect_err("not tools");
        assert_eq!(error.code, CommandErrorCode::InvalidTools);
        assert_eq!(error.problems[0].location, "/0");
    }

    #[test]
    fn checking_a_tool_lists_its_problems_at_their_places() {
        let dir = tempfile::tempdir().expect("temp dir");
        let editor = Editor::default();
        let id = editor.open(&example_copy(&dir)).expect("opens").status.id;
        let context = ToolOwner::Section { path: "context".to_owned() };
        let check = |owner: &ToolOwner, index, text: &str| {
            let problems = check_tool_in(&editor, id, owner, index, text).expect("a place in the template");
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
            ["/parameters: not a valid JSON Schema: 1 is not of type \"array\""]
        );
        assert_eq!(check(&context, Some(0), "{\"name\":\n  }"), ["line 2, column 3: invalid JSON: expected value"]);

        let unknown = check_tool_in(&editor, id, &ToolOwner::Section { path: "nope".to_owned() }, None, search);
        assert_eq!(unknown.expect_err("no such section").code, CommandErrorCode::InvalidEdit);
        assert_eq!(
            check_tool_in(&editor, 99, &context, None, search).expect_err("closed").code,
            CommandErrorCode::UnknownDocument
        );
    }
}

#[cfg(test)]
mod recovery_tests {
    //! Recovery through the command bodies: unsaved work outlives the app and comes back.

    use unfold_documents::Visibility;
    use unfold_editing::edit::{SectionFields, TemplateEdit};

    use super::*;

    #[test]
    fn unsaved_edits_come_back_after_the_app_is_gone() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("task.unfold.json");
        std::fs::copy(format!("{}/../examples/task-executor.unfold.json", env!("CARGO_MANIFEST_DIR")), &path).unwrap();
        let store = RecoveryStore::open(&dir.path().join("recovery")).unwrap();

        let before_crash = Editor::default();
        let id = before_crash.open(&path.to_string_lossy()).unwrap().status.id;
        let fields = SectionFields {
            title: "Task".into(),
            template: "Unsaved words".into(),
            summary: None,
            visibility: Visibility::Full,
        };
        before_crash.apply(id, TemplateEdit::SetSectionFields { path: "task".into(), fields }, None).unwrap();
        before_crash.flush_recovery(&store, 1_000);
        drop(before_crash);

        let after_crash = Editor::default();
        let offered = Editor::recovered(&store);
        assert_eq!(offered.len(), 1);
        assert_eq!(offered[0].path.as_deref(), Some(path.to_str().unwrap()));
        let restored = after_crash.restore(&store, &offered[0].id).expect("restores");
        assert!(restored.status.dirty);
        assert_eq!(restored.template.section("task").unwrap().template, "Unsaved words");
        assert!(after_crash.restore(&store, "nothing-here").is_err());
    }

    #[test]
    fn closing_a_document_forgets_its_unsaved_work() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = RecoveryStore::open(&dir.path().join("recovery")).unwrap();
        let editor = Editor::default();
        let kept = editor.create(unfold_documents::Template::blank()).unwrap().status.id;
        let closed = editor.create(unfold_documents::Template::blank()).unwrap().status.id;
        editor.flush_recovery(&store, 1_000);
        assert_eq!(Editor::recovered(&store).len(), 2, "both untitled documents are kept, apart");
        editor.close(closed, Some(&store)).expect("closes");
        let left = Editor::recovered(&store);
        assert_eq!(left.len(), 1);
        assert!(left[0].id.ends_with(&format!("-{kept}")), "{}", left[0].id);
    }
}
