//! What the UI reads of an open document: its status (file, dirty state, undo and redo, problems),
//! what an edit changed, and the preview as a change. Built here so the app only passes them on.

use std::path::Path;

use serde::Serialize;
use unfold_documents::template::Template;

use crate::prompt_parts::PartsChange;
use crate::template_edit::SectionFields;
use crate::undo::UndoHistory;

/// What an edit, an undo or a redo changed in the template.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum TemplateChange {
    /// Only the fields of one section (what typing in it does): the rest is as it was.
    SectionFields {
        /// The section's path.
        path: String,
        /// Its fields now.
        fields: SectionFields,
    },
    /// Anything else: the whole template as it is now.
    Whole {
        /// The template (boxed: it is far larger than the other changes).
        template: Box<Template>,
    },
    /// Nothing (a save, or nothing to undo).
    Unchanged,
}

/// The preview of a document as a change from one the editor holds: the prompt's parts (cut
/// before each heading line), the offered tools when they changed, and the token count.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct PreviewUpdate {
    /// This preview's serial: the `base` of the next request.
    pub serial: u32,
    /// The prompt's parts, as a change from the preview the editor holds.
    pub prompt: PartsChange,
    /// The tools offered to the model, as OpenAI chat tool objects; none when they are the base
    /// preview's (as after a keystroke in a section's text), which the UI keeps.
    #[cfg_attr(feature = "specta", specta(type = Option<Vec<unfold_documents::json_type::JsonValue>>))]
    pub tools: Option<Vec<serde_json::Value>>,
    /// Tokens of the prompt and the tool definitions.
    pub prompt_tokens: u32,
    /// Of `prompt_tokens`, those of the tool definitions.
    pub tool_tokens: u32,
}

/// A problem as the editor lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ProblemView {
    /// The JSON pointer (or other place) it is at; empty for the whole document.
    pub location: String,
    /// What is wrong.
    pub message: String,
}

impl From<&unfold_documents::error::Problem> for ProblemView {
    fn from(problem: &unfold_documents::error::Problem) -> ProblemView {
        let location = match &problem.location {
            unfold_documents::error::Location::Pointer(pointer) => pointer.clone(),
            other => other.to_string(),
        };
        ProblemView { location, message: problem.message.clone() }
    }
}

/// An open document's state apart from its content (a template's or a scenario's).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct DocumentStatus {
    /// The document's id among the open ones.
    pub id: u32,
    /// Its file, once opened or saved.
    pub path: Option<String>,
    /// Whether it differs from its file.
    pub dirty: bool,
    /// Whether there is something to undo.
    pub can_undo: bool,
    /// Whether there is something to redo.
    pub can_redo: bool,
    /// What is wrong with it now.
    pub problems: Vec<ProblemView>,
}

impl DocumentStatus {
    /// The state of document `id` with its file, undo history and problems.
    pub fn of<S>(
        id: u32,
        path: Option<&Path>,
        undo: &UndoHistory<S>,
        problems: &[unfold_documents::error::Problem],
    ) -> DocumentStatus {
        DocumentStatus {
            id,
            path: path.map(|p| p.display().to_string()),
            dirty: undo.is_dirty(),
            can_undo: undo.can_undo(),
            can_redo: undo.can_redo(),
            problems: problems.iter().map(ProblemView::from).collect(),
        }
    }
}

/// An open document as the editor shows it when it opens: its state and its template.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct DocumentView {
    /// Its state.
    #[serde(flatten)]
    pub status: DocumentStatus,
    /// The template.
    pub template: Template,
}

/// An open document after an edit, an undo, a redo or a save: its state and what changed.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct DocumentUpdate {
    /// Its state.
    #[serde(flatten)]
    pub status: DocumentStatus,
    /// What changed in the template.
    pub change: TemplateChange,
}
