//! [`EditorDocument`]: a template open in the editor with its file, its undo and redo history,
//! whether it differs from what was saved, its live problems, and its preview as a change from the
//! one the UI holds.

use std::path::{Path, PathBuf};

use unfold_documents::discovery::Discovery;
use unfold_documents::error::Result;
use unfold_documents::reload_problems::ReloadProblems;
use unfold_documents::template::Template;

use crate::economics::{rendered, rendered_in_full};
use crate::open_documents::{FileDocument, RecoveryState};
use crate::prompt_parts::{PreviewHistory, PromptParts};
use crate::template_edit::{apply, TemplateEdit};
use crate::undo::UndoHistory;
use crate::views::{DocumentStatus, DocumentUpdate, DocumentView, PreviewUpdate, TemplateChange};

/// A template being edited: its file, its undo and redo history, and whether it differs from what
/// was saved.
#[derive(Debug, Clone)]
pub struct EditorDocument {
    template: Template,
    /// Its problems, found again after each edit: after a keystroke, in the edited section only.
    problems: ReloadProblems,
    path: Option<PathBuf>,
    /// Undo and redo steps are the inverses of the edits made.
    undo: UndoHistory<TemplateEdit>,
    /// Its entry in the recovery store.
    recovery: RecoveryState,
    /// The token counts of the last preview, so the next one tokenizes only what changed.
    preview_tokens: unfold_engine::tokens::PromptTokenCache,
    /// The last previews sent, so the next one is sent as a change.
    previews: PreviewHistory,
    /// What its sources listed when last started (the preview shows their tools), kept until the
    /// document closes; a source not listed shows its snapshot.
    listed: Vec<Discovery>,
}

impl EditorDocument {
    /// A new, never saved document.
    pub fn new(template: Template) -> EditorDocument {
        EditorDocument {
            problems: ReloadProblems::of(&template),
            template,
            path: None,
            undo: UndoHistory::new(false),
            recovery: RecoveryState::default(),
            preview_tokens: unfold_engine::tokens::PromptTokenCache::default(),
            previews: PreviewHistory::default(),
            listed: Vec::new(),
        }
    }

    /// Opens a template file; nothing is loaded half-way.
    pub fn open(path: &Path) -> Result<EditorDocument> {
        let template = Template::load(path)?;
        let mut document = EditorDocument::new(template);
        document.path = Some(path.to_owned());
        document.undo = UndoHistory::new(true);
        Ok(document)
    }

    /// The template as it stands.
    pub fn template(&self) -> &Template {
        &self.template
    }

    /// What its sources listed when last started.
    pub fn listed(&self) -> &[Discovery] {
        &self.listed
    }

    /// Keeps what its sources listed now, started: the preview and its economics show those
    /// tools rather than the snapshots.
    pub fn set_listed(&mut self, listed: Vec<Discovery>) {
        self.listed = listed;
    }

    /// The file, once opened or saved.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// Whether the template differs from the file (a never saved document always does).
    pub fn is_dirty(&self) -> bool {
        self.undo.is_dirty()
    }

    /// Whether there is something to undo.
    pub fn can_undo(&self) -> bool {
        self.undo.can_undo()
    }

    /// Whether there is something to redo.
    pub fn can_redo(&self) -> bool {
        self.undo.can_redo()
    }

    /// Applies an edit; returns what it changed. Edits of one `group` in a row (keystrokes in one
    /// field) undo as one step.
    pub fn apply(&mut self, edit: TemplateEdit, group: Option<String>) -> Result<TemplateChange> {
        let (inverse, change) = apply_with_change(&mut self.template, edit)?;
        self.undo.record(inverse, group);
        self.check_again(&change);
        Ok(change)
    }

    /// Undoes the last step; returns what it changed, or none when there is nothing to undo.
    pub fn undo(&mut self) -> Result<Option<TemplateChange>> {
        self.step(true)
    }

    /// Redoes the last undone step; returns what it changed, or none when there is nothing to redo.
    pub fn redo(&mut self) -> Result<Option<TemplateChange>> {
        self.step(false)
    }

    fn step(&mut self, backwards: bool) -> Result<Option<TemplateChange>> {
        let template = &mut self.template;
        let change = self.undo.take(backwards, |edit| apply_with_change(template, edit))?;
        if let Some(change) = &change {
            self.check_again(change);
        }
        Ok(change)
    }

    fn check_again(&mut self, change: &TemplateChange) {
        match change {
            TemplateChange::SectionFields { path, .. } => self.problems.after_text_edit(&self.template, path),
            _ => self.problems = ReloadProblems::of(&self.template),
        }
    }

    /// The problems the template has now (an editor shows them live; saving refuses them): what
    /// opening the saved file would report, found without writing and reading the text.
    pub fn problems(&self) -> Vec<unfold_documents::error::Problem> {
        self.problems.problems()
    }

    /// What the model is shown for the template now, with `expand` sections read (as
    /// `read_section` would) or, with `expand_all`, every section in full.
    pub fn preview(&self, expand: &[String], expand_all: bool) -> Result<unfold_engine::Preview> {
        Ok(unfold_engine::Preview::counted_with(self.rendered(expand, expand_all)?, &self.preview_tokens))
    }

    fn rendered(&self, expand: &[String], expand_all: bool) -> Result<unfold_engine::RenderedPrompt> {
        if expand_all {
            rendered_in_full(&self.template, &self.listed)
        } else {
            rendered(&self.template, &self.listed, expand)
        }
    }

    /// [`EditorDocument::preview`] as a change from the preview `base` the editor holds (the
    /// whole prompt when it holds none, or one no longer kept).
    pub fn preview_since(&mut self, expand: &[String], expand_all: bool, base: Option<u32>) -> Result<PreviewUpdate> {
        let preview = self.preview(expand, expand_all)?;
        let change = self.previews.record(PromptParts::of(preview.markdown), preview.tools, base);
        Ok(PreviewUpdate {
            serial: change.serial,
            prompt: change.prompt,
            tools: change.tools,
            prompt_tokens: saturate(preview.prompt_tokens),
            tool_tokens: saturate(preview.tool_tokens),
        })
    }

    /// The document as the editor shows it.
    pub fn view(&self, id: u32) -> DocumentView {
        DocumentView { status: self.status(id), template: self.template.clone() }
    }

    /// The document's state after `change`, for an editor that already holds the template before it.
    pub fn update(&self, id: u32, change: TemplateChange) -> DocumentUpdate {
        DocumentUpdate { status: self.status(id), change }
    }

    fn status(&self, id: u32) -> DocumentStatus {
        DocumentStatus::of(id, self.path.as_deref(), &self.undo, &self.problems())
    }
}

/// A count as the UI gets it: a plain TypeScript number; nothing here reaches 4 billion, and it
/// saturates rather than wraps.
fn saturate(count: u64) -> u32 {
    u32::try_from(count).unwrap_or(u32::MAX)
}

impl FileDocument for EditorDocument {
    const NOUN: &'static str = "template";
    const UNTITLED: &'static str = "untitled";

    fn open(path: &Path) -> Result<Self> {
        EditorDocument::open(path)
    }

    fn recovered(text: &[u8]) -> Result<Self> {
        Ok(EditorDocument::new(Template::from_json_with_problems(text)?))
    }

    fn path(&self) -> Option<&Path> {
        EditorDocument::path(self)
    }

    fn set_path(&mut self, path: PathBuf) {
        self.path = Some(path);
    }

    fn is_dirty(&self) -> bool {
        EditorDocument::is_dirty(self)
    }

    fn revision(&self) -> u64 {
        self.undo.revision()
    }

    fn text(&self) -> String {
        self.template.to_json()
    }

    type Snapshot = Template;

    fn snapshot(&self) -> Template {
        self.template.clone()
    }

    fn snapshot_text(template: &Template) -> String {
        template.to_json()
    }

    fn recovery(&mut self) -> &mut RecoveryState {
        &mut self.recovery
    }

    fn check_text(text: &[u8]) -> Result<()> {
        Template::from_json(text).map(drop)
    }

    fn mark_saved(&mut self) {
        self.undo.mark_saved();
    }
}

/// Applies `edit` to `template`: its inverse, and what it changed (the fields alone when it
/// only set a section's fields, so a keystroke does not send the whole template to the UI).
fn apply_with_change(template: &mut Template, edit: TemplateEdit) -> Result<(TemplateEdit, TemplateChange)> {
    let fields = match &edit {
        TemplateEdit::SetSectionFields { path, fields } => Some((path.clone(), fields.clone())),
        _ => None,
    };
    let inverse = apply(template, edit)?;
    let change = match fields {
        Some((path, fields)) => TemplateChange::SectionFields { path, fields },
        None => TemplateChange::Whole { template: Box::new(template.clone()) },
    };
    Ok((inverse, change))
}
