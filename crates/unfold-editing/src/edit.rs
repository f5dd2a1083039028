//! Editing a template: every change the editor makes is a typed [`TemplateEdit`], validated against
//! the template, applied, and answered with its exact inverse, so undo and redo restore the very
//! same document. [`EditorDocument`] keeps a template with its file, its history and whether it
//! differs from what was saved.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::prompt_parts::{prompt_parts, PartsChange, PreviewHistory};
use crate::undo::History;
use unfold_documents::error::{Error, Result};
use unfold_documents::template::{Section, Template, Visibility, MAX_SECTIONS, MAX_SECTION_DEPTH};
use unfold_documents::tool::Tool;
use unfold_stores::recovery::{RecoveryEntry, RecoveryStore};

/// The fields of a template's header and settings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct TemplateSettings {
    /// Namespace.
    pub ns: String,
    /// Key.
    pub key: String,
    /// Human name.
    pub name: String,
    /// Disclosure protocol.
    pub disclosure: unfold_documents::template::Disclosure,
    /// Tool disclosure.
    pub tool_disclosure: unfold_documents::template::ToolDisclosure,
    /// Heading style.
    pub heading: unfold_documents::template::HeadingStyle,
}

/// The text and visibility of one section (everything but its key, tools and children).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct SectionFields {
    /// Heading text.
    pub title: String,
    /// Body.
    pub template: String,
    /// Summary (required when `visibility` is `summary`).
    pub summary: Option<String>,
    /// Own visibility.
    pub visibility: Visibility,
}

/// Whose tool list an edit changes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum ToolOwner {
    /// The template's own tools.
    Template,
    /// A section's tools.
    Section {
        /// The section's dotted path.
        path: String,
    },
}

/// One change to a template.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum TemplateEdit {
    /// Replaces the header and settings.
    SetSettings {
        /// The new settings.
        settings: TemplateSettings,
    },
    /// Sets (or with `value: null` removes) a parameter's default; a new one goes last.
    SetParam {
        /// The parameter.
        name: String,
        /// Its default, or none to remove it.
        value: Option<String>,
        /// Where it stands among the parameters (kept by undo); last when absent.
        #[serde(default)]
        index: Option<u32>,
    },
    /// Inserts a section (with its subtree) under `parent` (`None`: top level) at `index`.
    InsertSection {
        /// The parent's path.
        parent: Option<String>,
        /// Position among the parent's children.
        index: u32,
        /// The section.
        section: Section,
    },
    /// Removes a section and its subtree.
    RemoveSection {
        /// Its path.
        path: String,
    },
    /// Moves a section (with its subtree) under `parent` at `index` (counted after removal).
    MoveSection {
        /// Its path.
        path: String,
        /// The new parent's path (`None`: top level).
        parent: Option<String>,
        /// Position among the new parent's children.
        index: u32,
    },
    /// Renames a section's key.
    RenameSection {
        /// Its path.
        path: String,
        /// The new key.
        key: String,
    },
    /// Sets a section's text and visibility.
    SetSectionFields {
        /// Its path.
        path: String,
        /// The new fields.
        fields: SectionFields,
    },
    /// Inserts a tool.
    InsertTool {
        /// Whose list.
        owner: ToolOwner,
        /// Position.
        index: u32,
        /// The tool.
        tool: Tool,
    },
    /// Removes a tool.
    RemoveTool {
        /// Whose list.
        owner: ToolOwner,
        /// Position.
        index: u32,
    },
    /// Replaces a tool.
    ReplaceTool {
        /// Whose list.
        owner: ToolOwner,
        /// Position.
        index: u32,
        /// The new tool.
        tool: Tool,
    },
    /// Moves a tool within its list.
    MoveTool {
        /// Whose list.
        owner: ToolOwner,
        /// From position.
        from: u32,
        /// To position (counted after removal).
        to: u32,
    },
}

/// An edit refused: why, in words for the person editing.
fn refused(message: impl Into<String>) -> Error {
    Error::problem("", message)
}

/// Applies `edit` to `template`; returns the edit that undoes it. A refused edit changes nothing.
pub fn apply(template: &mut Template, edit: TemplateEdit) -> Result<TemplateEdit> {
    match edit {
        TemplateEdit::SetSettings { settings } => {
            if settings.key.trim().is_empty() {
                return Err(refused("the template's key cannot be empty"));
            }
            let old = settings_of(template);
            template.ns = settings.ns;
            template.key = settings.key;
            template.name = settings.name;
            template.disclosure = settings.disclosure;
            template.tool_disclosure = settings.tool_disclosure;
            template.heading = settings.heading;
            Ok(TemplateEdit::SetSettings { settings: old })
        }
        TemplateEdit::SetParam { name, value, index } => set_param(template, name, value, index.map(at)),
        TemplateEdit::InsertSection { parent, index, section } => insert_section(template, parent, at(index), section),
        TemplateEdit::RemoveSection { path } => {
            let (parent, index) = locate(template, &path)?;
            let section = children_mut(template, parent.as_deref())?.remove(index);
            Ok(TemplateEdit::InsertSection { parent, index: position(index), section })
        }
        TemplateEdit::MoveSection { path, parent, index } => move_section(template, &path, parent, at(index)),
        TemplateEdit::RenameSection { path, key } => {
            let (parent, index) = locate(template, &path)?;
            check_key(children_mut(template, parent.as_deref())?, &key, Some(index))?;
            let section = &mut children_mut(template, parent.as_deref())?[index];
            let old = std::mem::replace(&mut section.key, key.clone());
            Ok(TemplateEdit::RenameSection { path: join(parent.as_deref(), &key), key: old })
        }
        TemplateEdit::SetSectionFields { path, fields } => {
            if fields.visibility == Visibility::Summary && fields.summary.is_none() {
                return Err(refused("a summarized section needs a summary"));
            }
            let section = section_mut(template, &path)?;
            let old = SectionFields {
                title: std::mem::replace(&mut section.title, fields.title),
                template: std::mem::replace(&mut section.template, fields.template),
                summary: std::mem::replace(&mut section.summary, fields.summary),
                visibility: std::mem::replace(&mut section.visibility, fields.visibility),
            };
            Ok(TemplateEdit::SetSectionFields { path, fields: old })
        }
        TemplateEdit::InsertTool { owner, index, tool } => {
            let index = at(index);
            check_tool(template, &tool, None)?;
            let tools = tools_mut(template, &owner)?;
            check_index(index, tools.len() + 1, "tool")?;
            tools.insert(index, tool);
            Ok(TemplateEdit::RemoveTool { owner, index: position(index) })
        }
        TemplateEdit::RemoveTool { owner, index } => {
            let index = at(index);
            let tools = tools_mut(template, &owner)?;
            check_index(index, tools.len(), "tool")?;
            let tool = tools.remove(index);
            Ok(TemplateEdit::InsertTool { owner, index: position(index), tool })
        }
        TemplateEdit::ReplaceTool { owner, index, tool } => {
            let index = at(index);
            let current = tools_mut(template, &owner)?.get(index).map(|t| t.name.clone());
            let Some(current) = current else { return Err(refused(format!("no tool at position {index}"))) };
            check_tool(template, &tool, Some(&current))?;
            let old = std::mem::replace(&mut tools_mut(template, &owner)?[index], tool);
            Ok(TemplateEdit::ReplaceTool { owner, index: position(index), tool: old })
        }
        TemplateEdit::MoveTool { owner, from, to } => {
            let (from, to) = (at(from), at(to));
            let tools = tools_mut(template, &owner)?;
            check_index(from, tools.len(), "tool")?;
            check_index(to, tools.len(), "tool")?;
            let tool = tools.remove(from);
            tools.insert(to, tool);
            Ok(TemplateEdit::MoveTool { owner, from: position(to), to: position(from) })
        }
    }
}

/// A position as edits carry it (u32: it reaches TypeScript as a plain number) to an index.
fn at(position: u32) -> usize {
    position as usize
}

/// An index to a position as edits carry it; a template never holds 4 billion of anything.
fn position(index: usize) -> u32 {
    u32::try_from(index).unwrap_or(u32::MAX)
}

fn settings_of(template: &Template) -> TemplateSettings {
    TemplateSettings {
        ns: template.ns.clone(),
        key: template.key.clone(),
        name: template.name.clone(),
        disclosure: template.disclosure,
        tool_disclosure: template.tool_disclosure,
        heading: template.heading,
    }
}

fn set_param(
    template: &mut Template,
    name: String,
    value: Option<String>,
    index: Option<usize>,
) -> Result<TemplateEdit> {
    let is_identifier = |s: &str| {
        let mut chars = s.chars();
        chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    if !is_identifier(&name) {
        return Err(refused(format!("'{name}' is not a parameter name: use letters, digits and _, not first a digit")));
    }
    let old_index = template.params.get_index_of(&name);
    let old_value = match value {
        Some(value) => {
            let old = template.params.insert(name.clone(), value);
            let last = template.params.len() - 1;
            let wanted = index.unwrap_or(old_index.unwrap_or(last)).min(last);
            if let Some(current) = template.params.get_index_of(&name) {
                template.params.move_index(current, wanted);
            }
            old
        }
        None => template.params.shift_remove(&name),
    };
    Ok(TemplateEdit::SetParam { name, value: old_value, index: old_index.map(position) })
}

fn insert_section(
    template: &mut Template,
    parent: Option<String>,
    index: usize,
    section: Section,
) -> Result<TemplateEdit> {
    let parent_depth = parent.as_deref().map_or(0, |p| p.split('.').count());
    if parent_depth + subtree_depth(&section) > MAX_SECTION_DEPTH {
        return Err(refused(format!("sections would nest deeper than {MAX_SECTION_DEPTH} levels")));
    }
    let mut count = 0;
    template.walk(&mut |_, _| count += 1);
    if count + subtree_size(&section) > MAX_SECTIONS {
        return Err(refused(format!("a template holds at most {MAX_SECTIONS} sections")));
    }
    let mut incoming = Vec::new();
    collect_tools(&section, &mut incoming);
    for tool in incoming {
        check_tool(template, tool, None)?;
    }
    let siblings = children_mut(template, parent.as_deref())?;
    check_index(index, siblings.len() + 1, "section")?;
    check_key(siblings, &section.key, None)?;
    let path = join(parent.as_deref(), &section.key);
    siblings.insert(index, section);
    Ok(TemplateEdit::RemoveSection { path })
}

fn move_section(template: &mut Template, path: &str, parent: Option<String>, index: usize) -> Result<TemplateEdit> {
    if let Some(target) = &parent {
        if target == path || target.starts_with(&format!("{path}.")) {
            return Err(refused("a section cannot move into itself or its own subsections"));
        }
        section_mut(template, target)?;
    }
    let (old_parent, old_index) = locate(template, path)?;
    let section = children_mut(template, old_parent.as_deref())?.remove(old_index);
    let checked = (|| {
        let parent_depth = parent.as_deref().map_or(0, |p| p.split('.').count());
        if parent_depth + subtree_depth(&section) > MAX_SECTION_DEPTH {
            return Err(refused(format!("sections would nest deeper than {MAX_SECTION_DEPTH} levels")));
        }
        let siblings = children_mut(template, parent.as_deref())?;
        check_index(index, siblings.len() + 1, "section")?;
        check_key(siblings, &section.key, None)
    })();
    if let Err(e) = checked {
        // Put it back where it was: a refused edit changes nothing.
        if let Ok(siblings) = children_mut(template, old_parent.as_deref()) {
            siblings.insert(old_index, section);
        }
        return Err(e);
    }
    let key = section.key.clone();
    children_mut(template, parent.as_deref())?.insert(index, section);
    Ok(TemplateEdit::MoveSection {
        path: join(parent.as_deref(), &key),
        parent: old_parent,
        index: position(old_index),
    })
}

fn join(parent: Option<&str>, key: &str) -> String {
    match parent {
        Some(parent) => format!("{parent}.{key}"),
        None => key.to_owned(),
    }
}

fn subtree_depth(section: &Section) -> usize {
    1 + section.children.iter().map(subtree_depth).max().unwrap_or(0)
}

fn subtree_size(section: &Section) -> usize {
    1 + section.children.iter().map(subtree_size).sum::<usize>()
}

fn collect_tools<'s>(section: &'s Section, out: &mut Vec<&'s Tool>) {
    out.extend(&section.tools);
    for child in &section.children {
        collect_tools(child, out);
    }
}

fn check_index(index: usize, bound: usize, what: &str) -> Result<()> {
    if index >= bound {
        return Err(refused(format!("no {what} position {index}")));
    }
    Ok(())
}

fn check_key(siblings: &[Section], key: &str, except: Option<usize>) -> Result<()> {
    let valid = key.bytes().next().is_some_and(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        && key.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-');
    if !valid {
        return Err(refused(format!(
            "'{key}' is not a section key: lowercase letters, digits, _ and -, starting with a letter or digit"
        )));
    }
    if siblings.iter().enumerate().any(|(i, s)| s.key == key && Some(i) != except) {
        return Err(refused(format!("a sibling section already has the key '{key}'")));
    }
    Ok(())
}

/// Checks a tool's name (pattern, reserved, unique apart from `replacing`) and parameter schema.
fn check_tool(template: &Template, tool: &Tool, replacing: Option<&str>) -> Result<()> {
    let name = &tool.name;
    if let Some(problem) = unfold_documents::tool::tool_name_problem(name) {
        return Err(refused(problem));
    }
    if replacing != Some(name.as_str()) && template.all_tools().iter().any(|t| &t.name == name) {
        return Err(refused(format!("the template already has a tool named '{name}'")));
    }
    unfold_documents::template::check_parameters_schema(&tool.parameters)
        .map_err(|e| refused(format!("parameters: {e}")))
}

/// Where the section at `path` is: its parent's path and its index there.
fn locate(template: &Template, path: &str) -> Result<(Option<String>, usize)> {
    let (parent, key) = match path.rsplit_once('.') {
        Some((parent, key)) => (Some(parent.to_owned()), key),
        None => (None, path),
    };
    let siblings = match &parent {
        Some(p) => &template.section(p).ok_or_else(|| no_section(p))?.children,
        None => &template.sections,
    };
    let index = siblings.iter().position(|s| s.key == key).ok_or_else(|| no_section(path))?;
    Ok((parent, index))
}

fn no_section(path: &str) -> Error {
    refused(format!("no section has the path '{path}'"))
}

fn section_mut<'t>(template: &'t mut Template, path: &str) -> Result<&'t mut Section> {
    let mut keys = path.split('.');
    let first = keys.next().unwrap_or_default();
    let mut section = template.sections.iter_mut().find(|s| s.key == first).ok_or_else(|| no_section(path))?;
    for key in keys {
        section = section.children.iter_mut().find(|s| s.key == key).ok_or_else(|| no_section(path))?;
    }
    Ok(section)
}

fn children_mut<'t>(template: &'t mut Template, parent: Option<&str>) -> Result<&'t mut Vec<Section>> {
    match parent {
        Some(path) => Ok(&mut section_mut(template, path)?.children),
        None => Ok(&mut template.sections),
    }
}

fn tools_mut<'t>(template: &'t mut Template, owner: &ToolOwner) -> Result<&'t mut Vec<Tool>> {
    match owner {
        ToolOwner::Template => Ok(&mut template.tools),
        ToolOwner::Section { path } => Ok(&mut section_mut(template, path)?.tools),
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
        None => TemplateChange::Whole { template: template.clone() },
    };
    Ok((inverse, change))
}

/// A template being edited: its file, its undo and redo history, and whether it differs from what
/// was saved.
#[derive(Debug, Clone)]
pub struct EditorDocument {
    template: Template,
    path: Option<PathBuf>,
    /// Undo and redo steps are the inverses of the edits made.
    history: History<TemplateEdit>,
    /// Its entry in the recovery store.
    recovery: RecoveryState,
    /// The token counts of the last preview, so the next one tokenizes only what changed.
    preview_tokens: unfold_engine::tokens::PromptTokenCache,
    /// The last previews sent, so the next one is sent as a change.
    previews: PreviewHistory,
}

impl EditorDocument {
    /// A new, never saved document.
    pub fn new(template: Template) -> EditorDocument {
        EditorDocument {
            template,
            path: None,
            history: History::new(false),
            recovery: RecoveryState::default(),
            preview_tokens: unfold_engine::tokens::PromptTokenCache::default(),
            previews: PreviewHistory::default(),
        }
    }

    /// Opens a template file; nothing is loaded half-way.
    pub fn open(path: &Path) -> Result<EditorDocument> {
        let template = Template::load(path)?;
        let mut document = EditorDocument::new(template);
        document.path = Some(path.to_owned());
        document.history = History::new(true);
        Ok(document)
    }

    /// The template as it stands.
    pub fn template(&self) -> &Template {
        &self.template
    }

    /// The file, once opened or saved.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// Whether the template differs from the file (a never saved document always does).
    pub fn is_dirty(&self) -> bool {
        self.history.is_dirty()
    }

    /// Whether there is something to undo.
    pub fn can_undo(&self) -> bool {
        self.history.can_undo()
    }

    /// Whether there is something to redo.
    pub fn can_redo(&self) -> bool {
        self.history.can_redo()
    }

    /// Applies an edit; returns what it changed. Edits of one `group` in a row (keystrokes in one
    /// field) undo as one step.
    pub fn apply(&mut self, edit: TemplateEdit, group: Option<String>) -> Result<TemplateChange> {
        let (inverse, change) = apply_with_change(&mut self.template, edit)?;
        self.history.record(inverse, group);
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
        self.history.take(backwards, |edit| apply_with_change(template, edit))
    }

    /// The problems the template has now (an editor shows them live; saving refuses them).
    pub fn problems(&self) -> Vec<unfold_documents::error::Problem> {
        // What opening the saved file would report, found without writing and reading the text.
        self.template.problems_on_reload()
    }

    /// What the model is shown for the template now, with `expand` sections read (as
    /// `read_section` would) or, with `expand_all`, every section in full.
    pub fn preview(&self, expand: &[String], expand_all: bool) -> Result<unfold_engine::Preview> {
        let mut session = unfold_engine::Session::new(&self.template, Default::default())?;
        let mut paths = Vec::new();
        if expand_all {
            self.template.walk(&mut |path, _| paths.push(path.to_owned()));
        } else {
            paths.extend(expand.iter().cloned());
        }
        for path in &paths {
            session.expand(path).map_err(|message| Error::argument(format!("expand {path}"), message))?;
        }
        Ok(unfold_engine::Preview::counted_with(&session.render()?, &self.preview_tokens))
    }

    /// [`EditorDocument::preview`] as a change from the preview `base` the editor holds (the
    /// whole prompt when it holds none, or one no longer kept).
    pub fn preview_since(&mut self, expand: &[String], expand_all: bool, base: Option<u32>) -> Result<PreviewUpdate> {
        let preview = self.preview(expand, expand_all)?;
        let (serial, prompt) = self.previews.record(prompt_parts(&preview.markdown), base);
        Ok(PreviewUpdate { serial, prompt, tools: preview.tools, prompt_tokens: saturate(preview.prompt_tokens) })
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
        DocumentStatus::of(id, self.path.as_deref(), &self.history, &self.problems())
    }
}

/// A count as the UI gets it: a plain TypeScript number; nothing here reaches 4 billion, and it
/// saturates rather than wraps.
fn saturate(count: u64) -> u32 {
    u32::try_from(count).unwrap_or(u32::MAX)
}

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
        /// The template.
        template: Template,
    },
    /// Nothing (a save, or nothing to undo).
    Unchanged,
}

/// The preview of a document as a change from one the editor holds: the prompt's parts (cut
/// before each heading line), the offered tools and the token count.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct PreviewUpdate {
    /// This preview's serial: the `base` of the next request.
    pub serial: u32,
    /// The prompt's parts, as a change from the preview the editor holds.
    pub prompt: PartsChange,
    /// The tools offered to the model, as OpenAI chat tool objects.
    #[cfg_attr(feature = "specta", specta(type = Vec<unfold_documents::json_type::JsonValue>))]
    pub tools: Vec<serde_json::Value>,
    /// Tokens of the prompt and the tool definitions.
    pub prompt_tokens: u32,
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
    /// The state of document `id` with its file, history and problems.
    pub fn of<S>(
        id: u32,
        path: Option<&Path>,
        history: &History<S>,
        problems: &[unfold_documents::error::Problem],
    ) -> DocumentStatus {
        DocumentStatus {
            id,
            path: path.map(|p| p.display().to_string()),
            dirty: history.is_dirty(),
            can_undo: history.can_undo(),
            can_redo: history.can_redo(),
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

/// A document the app opens from a file, edits and keeps for recovery: a template or a scenario.
pub trait FileDocument: Sized {
    /// What the documents of this kind are called in messages.
    const NOUN: &'static str;
    /// What the recovery id of a document never saved starts with.
    const UNTITLED: &'static str;
    /// Opens a file; nothing is loaded half-way.
    fn open(path: &Path) -> Result<Self>;
    /// A document from the text a recovery entry kept (modified, with no file yet), accepting the
    /// problems an edited document may have.
    fn recovered(text: &[u8]) -> Result<Self>;
    /// Its file, once opened or saved.
    fn path(&self) -> Option<&Path>;
    /// Makes `path` its file.
    fn set_path(&mut self, path: PathBuf);
    /// Whether it differs from its file (a never saved one always does).
    fn is_dirty(&self) -> bool;
    /// The same number whenever it holds the same state.
    fn revision(&self) -> u64;
    /// Its JSON text, as it would be saved.
    fn text(&self) -> String;
    /// Its entry in the recovery store.
    fn recovery(&mut self) -> &mut RecoveryState;
    /// The checks a file of this kind gets when it is opened.
    fn check_text(text: &[u8]) -> Result<()>;
    /// Records that it was saved as it stands.
    fn mark_saved(&mut self);

    /// Saves to the document's file, atomically. Refuses what would not open again (the problems
    /// are listed), so a saved file always loads; the recovery store keeps unsaved work meanwhile.
    fn save(&mut self) -> Result<()> {
        let Some(path) = self.path().map(Path::to_owned) else {
            return Err(refused(format!("this {} has no file yet: save it as a new file", Self::NOUN)));
        };
        self.save_as(&path)
    }

    /// Saves to `path`, atomically, and makes it the document's file.
    fn save_as(&mut self, path: &Path) -> Result<()> {
        let text = self.text();
        Self::check_text(text.as_bytes()).map_err(|e| e.in_file(path))?;
        unfold_documents::document::write_atomically(path, &text)?;
        self.set_path(path.to_owned());
        self.mark_saved();
        Ok(())
    }
}

/// A document's entry in the recovery store.
#[derive(Debug, Clone, Default)]
pub struct RecoveryState {
    /// The entry's id, fixed at its first write (or by a restore) so a later "save as" or a
    /// restart still finds the same entry.
    key: Option<String>,
    /// The revision last written, if any.
    written: Option<u64>,
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
        self.history.revision()
    }

    fn text(&self) -> String {
        self.template.to_json()
    }

    fn recovery(&mut self) -> &mut RecoveryState {
        &mut self.recovery
    }

    fn check_text(text: &[u8]) -> Result<()> {
        Template::from_json(text).map(drop)
    }

    fn mark_saved(&mut self) {
        self.history.mark_saved();
    }
}

/// The documents of one kind open in the app, by id (templates unless said otherwise).
#[derive(Debug)]
pub struct OpenDocuments<D = EditorDocument> {
    documents: BTreeMap<u32, D>,
    next_id: u32,
}

impl<D> Default for OpenDocuments<D> {
    fn default() -> Self {
        OpenDocuments { documents: BTreeMap::new(), next_id: 0 }
    }
}

impl<D: FileDocument> OpenDocuments<D> {
    /// Opens a file (or, if it is open already, returns that document's id). Temporary files an
    /// interrupted save left in the file's folder are swept first: no save of these documents
    /// is under way while one opens.
    pub fn open(&mut self, path: &Path) -> Result<u32> {
        let same = |document: &D| document.path().is_some_and(|p| p == path);
        if let Some((&id, _)) = self.documents.iter().find(|(_, document)| same(document)) {
            return Ok(id);
        }
        let folder = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
        match unfold_stores::recovery::sweep_temp_files(folder) {
            Ok(0) => {}
            Ok(swept) => {
                tracing::info!(swept, folder = %folder.display(), "removed temporary files of interrupted saves")
            }
            Err(error) => tracing::debug!(%error, folder = %folder.display(), "cannot list the folder to sweep"),
        }
        let document = D::open(path)?;
        Ok(self.insert(document))
    }

    /// Adds a document; returns its id.
    pub fn insert(&mut self, document: D) -> u32 {
        self.next_id += 1;
        self.documents.insert(self.next_id, document);
        self.next_id
    }

    /// Whether any open document differs from its file (or was never saved).
    pub fn has_unsaved_changes(&self) -> bool {
        self.documents.values().any(D::is_dirty)
    }

    /// The document of `id`.
    pub fn get(&self, id: u32) -> Result<&D> {
        self.documents.get(&id).ok_or_else(|| unknown_document(id))
    }

    /// The document of `id`, to change it.
    pub fn get_mut(&mut self, id: u32) -> Result<&mut D> {
        self.documents.get_mut(&id).ok_or_else(|| unknown_document(id))
    }

    /// Takes a document out (unsaved changes are the caller's to confirm first).
    pub fn remove(&mut self, id: u32) -> Result<D> {
        self.documents.remove(&id).ok_or_else(|| unknown_document(id))
    }

    /// Closes a document (unsaved changes are the caller's to confirm first). Returns the id of the
    /// recovery entry it may have, for the caller to discard: closing means its work is not wanted.
    pub fn close(&mut self, id: u32) -> Result<Option<String>> {
        Ok(self.remove(id)?.recovery().key.take())
    }

    /// Keeps the unsaved work of every open document in `store`: a document changed since its last
    /// entry is written (`now_ms` is the caller's clock), a document that no longer differs from its
    /// file loses its entry. Called every second or so, so edits reach the store within 2 s.
    /// Returns the errors, by document; a failure for one never stops the others.
    pub fn flush_recovery(&mut self, store: &RecoveryStore, now_ms: u64) -> Vec<(u32, Error)> {
        let mut errors = Vec::new();
        for (&id, document) in &mut self.documents {
            let path = document.path().map(|p| p.display().to_string());
            let (dirty, revision) = (document.is_dirty(), document.revision());
            let written = document.recovery().written;
            let key = document.recovery().key.get_or_insert_with(|| recovery_id::<D>(id, &path, now_ms)).clone();
            let outcome = if dirty {
                if written == Some(revision) {
                    continue;
                }
                let entry = RecoveryEntry { id: key, path, saved_at_ms: now_ms, text: document.text() };
                store.store(&entry).map(|()| document.recovery().written = Some(revision))
            } else if written.is_some() {
                store.discard(&key).map(|()| document.recovery().written = None)
            } else {
                continue;
            };
            if let Err(error) = outcome {
                errors.push((id, error));
            }
        }
        errors
    }

    /// Opens the unsaved work of a recovery entry as a document (modified, with its file if it had
    /// one). The entry stays in the store until the document is saved or the entry discarded.
    pub fn restore(&mut self, entry: &RecoveryEntry) -> Result<u32> {
        let mut document = D::recovered(entry.text.as_bytes())?;
        if let Some(path) = &entry.path {
            document.set_path(PathBuf::from(path));
        }
        document.recovery().key = Some(entry.id.clone());
        Ok(self.insert(document))
    }
}

/// The recovery id of an open document: its file, so the entry says which file it is about; for a
/// new document its kind, id and the time of its first entry, so an untitled document of a later
/// run never overwrites the work of an earlier one before it was offered back.
fn recovery_id<D: FileDocument>(id: u32, path: &Option<String>, now_ms: u64) -> String {
    match path {
        Some(path) => path.clone(),
        None => format!("{}-{now_ms}-{id}", D::UNTITLED),
    }
}

fn unknown_document(id: u32) -> Error {
    Error::UnknownDocument { id }
}
