//! The templates open in the editor: open, new, the example, edits, undo and redo, saves,
//! previews, restored unsaved work, and the tools pasted or typed into them.

use std::path::{Path, PathBuf};

use unfold_documents::discovery::Discovery;
use unfold_documents::{Template, Tool};
use unfold_editing::economics::{disclosure_economics, DisclosureEconomics};
use unfold_editing::editor_document::EditorDocument;
use unfold_editing::open_documents::{FileDocument, OpenDocuments};
use unfold_editing::template_edit::{TemplateEdit, ToolOwner};
use unfold_editing::views::{DocumentUpdate, DocumentView, PreviewUpdate, ProblemView, TemplateChange};
use unfold_stores::recovery::RecoveryStore;

use crate::documents::Documents;
use crate::error::{AppError, AppResult, ErrorCode};
use crate::recovery::recovered_entry;

/// The templates open in the editor.
pub type Templates = Documents<EditorDocument>;

/// The preview an editor asks for: the sections shown as read, or every one in full, as a change
/// from the preview it holds (`base`; none: the whole prompt).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct PreviewQuery {
    /// The paths of the summarized sections shown as read.
    pub expand: Vec<String>,
    /// Every section in full.
    pub expand_all: bool,
    /// The serial of the preview the editor holds.
    pub base: Option<u32>,
}

/// Tools read from a pasted or opened tool list, ready to attach.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ImportedToolsDto {
    /// The format the list was in (`OpenAI chat`, `OpenAI Responses`, `Anthropic`).
    pub format: String,
    /// The tools, in Unfold's form.
    pub tools: Vec<Tool>,
    /// Names the document's template already has: attaching those would be refused.
    pub conflicts: Vec<String>,
}

fn invalid_template(error: unfold_documents::Error) -> AppError {
    AppError::invalid_as(ErrorCode::InvalidTemplate)(error)
}

fn invalid_edit(error: unfold_documents::Error) -> AppError {
    AppError::invalid_as(ErrorCode::InvalidEdit)(error)
}

impl Templates {
    fn view(documents: &OpenDocuments<EditorDocument>, id: u32) -> AppResult<DocumentView> {
        Ok(documents.get(id)?.view(id))
    }

    /// Opens a template file; an invalid one opens nothing and lists every problem.
    pub fn open(&self, path: &str) -> AppResult<DocumentView> {
        self.with(|documents| {
            let id = documents.open(Path::new(path)).map_err(invalid_template)?;
            Templates::view(documents, id)
        })
    }

    /// A new, never saved document with `template`.
    pub fn create(&self, template: Template) -> AppResult<DocumentView> {
        self.with(|documents| {
            let id = documents.insert(EditorDocument::new(template));
            Templates::view(documents, id)
        })
    }

    /// Applies an edit; a refused edit changes nothing.
    pub fn apply(&self, id: u32, edit: TemplateEdit, group: Option<String>) -> AppResult<DocumentUpdate> {
        self.with(|documents| {
            let document = documents.get_mut(id)?;
            let change = document.apply(edit, group).map_err(invalid_edit)?;
            Ok(document.update(id, change))
        })
    }

    /// Applies an edit and renders the edited document's preview, as [`Templates::apply`] and
    /// [`Templates::preview`] in a row but under one lock, so nothing comes between them: a
    /// keystroke is then one call from the editor. A preview that fails (a placeholder without a
    /// value) does not undo the edit: it comes back as the second result.
    pub fn apply_and_preview(
        &self,
        id: u32,
        edit: TemplateEdit,
        group: Option<String>,
        preview: &PreviewQuery,
    ) -> AppResult<(DocumentUpdate, AppResult<PreviewUpdate>)> {
        self.with(|documents| {
            let document = documents.get_mut(id)?;
            let change = document.apply(edit, group).map_err(invalid_edit)?;
            let update = document.update(id, change);
            let shown = document.preview_since(&preview.expand, preview.expand_all, preview.base);
            Ok((update, shown.map_err(invalid_template)))
        })
    }

    /// Undoes (`back`) or redoes one step.
    pub fn step(&self, id: u32, back: bool) -> AppResult<DocumentUpdate> {
        self.with(|documents| {
            let document = documents.get_mut(id)?;
            let change = if back { document.undo() } else { document.redo() }.map_err(invalid_edit)?;
            Ok(document.update(id, change.unwrap_or(TemplateChange::Unchanged)))
        })
    }

    /// Saves to the document's file, or to `path` (which becomes its file); a template with
    /// problems is refused.
    pub fn save(&self, id: u32, path: Option<&str>) -> AppResult<DocumentUpdate> {
        self.with(|documents| {
            let document = documents.get_mut(id)?;
            match path {
                Some(path) => document.save_as(Path::new(path)),
                None => document.save(),
            }
            .map_err(invalid_template)?;
            Ok(document.update(id, TemplateChange::Unchanged))
        })
    }

    /// Opens the recovery entry `recovery_id` as a modified document.
    pub fn restore(&self, store: &RecoveryStore, recovery_id: &str) -> AppResult<DocumentView> {
        let entry = recovered_entry(store, recovery_id)?;
        self.with(|documents| {
            let id = documents.restore(&entry).map_err(invalid_template)?;
            Templates::view(documents, id)
        })
    }

    /// What the model is shown now, with `expand` sections read or every section with
    /// `expand_all`, as a change from the preview `base` the UI holds.
    pub fn preview(&self, id: u32, expand: &[String], expand_all: bool, base: Option<u32>) -> AppResult<PreviewUpdate> {
        self.with(|documents| documents.get_mut(id)?.preview_since(expand, expand_all, base).map_err(invalid_template))
    }

    /// Reads tools from `text` (an OpenAI Chat, OpenAI Responses or Anthropic tool list) for the
    /// document `id`, with the names its template already has.
    pub fn import_tools(&self, id: u32, text: &str) -> AppResult<ImportedToolsDto> {
        let imported =
            unfold_editing::tool_import::import_tools(text).map_err(AppError::invalid_as(ErrorCode::InvalidTools))?;
        self.with(|documents| {
            let conflicts = unfold_editing::tool_import::conflicts(documents.get(id)?.template(), &imported.tools);
            Ok(ImportedToolsDto { format: imported.format.label().to_owned(), tools: imported.tools, conflicts })
        })
    }

    /// The problems of a tool the tool editor holds (its JSON text) for position `index` of
    /// `owner`'s tools in the document `id` (`None`: a tool not in the list yet).
    pub fn check_tool(
        &self,
        id: u32,
        owner: &ToolOwner,
        index: Option<u32>,
        text: &str,
    ) -> AppResult<Vec<ProblemView>> {
        self.with(|documents| {
            let template = documents.get(id)?.template();
            let problems = unfold_editing::tool_check::tool_text_problems(template, owner, index, text)?;
            Ok(problems.iter().map(ProblemView::from).collect())
        })
    }

    /// The template `id` as it stands now.
    pub fn template(&self, id: u32) -> AppResult<Template> {
        Ok(self.document(id)?.0)
    }

    /// The economics of the template `id`'s disclosure: what the model is shown first against
    /// every section in full, what the disclosure tools add, what reading each section adds.
    /// Worked out on a copy, so edits to other documents (and this one) are not held up.
    pub fn economics(&self, id: u32) -> AppResult<DisclosureEconomics> {
        let (template, listed) = self.with(|documents| {
            let document = documents.get(id)?;
            Ok((document.template().clone(), document.listed().to_vec()))
        })?;
        disclosure_economics(&template, &listed).map_err(invalid_template)
    }

    /// Keeps what the sources of the template `id` listed when just started: its preview and
    /// economics show those tools until it closes (or they are listed again).
    pub fn set_listed(&self, id: u32, listed: Vec<Discovery>) -> AppResult<()> {
        self.with(|documents| {
            documents.get_mut(id)?.set_listed(listed);
            Ok(())
        })
    }

    /// Forgets what the source `name` of the template `id` listed (its permission was taken
    /// back): its preview shows the source's snapshot again.
    pub fn forget_listed(&self, id: u32, name: &str) -> AppResult<()> {
        self.with(|documents| {
            let document = documents.get_mut(id)?;
            let kept = document.listed().iter().filter(|listed| listed.source != name).cloned().collect();
            document.set_listed(kept);
            Ok(())
        })
    }

    /// The template `id` as it stands now, with its file.
    pub fn document(&self, id: u32) -> AppResult<(Template, Option<PathBuf>)> {
        self.with(|documents| {
            let document = documents.get(id)?;
            Ok((document.template().clone(), document.path().map(Path::to_path_buf)))
        })
    }
}
