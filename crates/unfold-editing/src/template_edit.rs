//! Editing a template: every change the editor makes is a typed [`TemplateEdit`], validated against
//! the template, applied, and answered with its exact inverse, so undo and redo restore the very
//! same document. A refused edit changes nothing and says why.

use serde::{Deserialize, Serialize};
use unfold_documents::error::{Error, Result};
use unfold_documents::template::{Section, Template, Visibility, MAX_SECTIONS, MAX_SECTION_DEPTH};
use unfold_documents::tool::Tool;

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
    /// Replaces the template's tool sources (spec 8): added, edited, removed, attached to another
    /// section or given a snapshot; the whole list, so undo puts back exactly what was there.
    SetSources {
        /// The sources, in order.
        sources: Vec<unfold_documents::source::ToolSource>,
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
pub(crate) fn refused(message: impl Into<String>) -> Error {
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
        TemplateEdit::SetSources { sources } => {
            Ok(TemplateEdit::SetSources { sources: std::mem::replace(&mut template.sources, sources) })
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
            let renamed = join(parent.as_deref(), &key);
            follow_with_sources(template, &path, &renamed);
            Ok(TemplateEdit::RenameSection { path: renamed, key: old })
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

/// Keeps the tool sources of the section at `from` (and of its subsections) on it once it is at
/// `to`: a source belongs to a section, not to a path.
fn follow_with_sources(template: &mut Template, from: &str, to: &str) {
    for source in &mut template.sources {
        let Some(section) = &mut source.section else { continue };
        if section == from {
            *section = to.to_owned();
        } else if let Some(rest) = section.strip_prefix(from).and_then(|rest| rest.strip_prefix('.')) {
            *section = format!("{to}.{rest}");
        }
    }
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
    let moved = join(parent.as_deref(), &key);
    follow_with_sources(template, path, &moved);
    Ok(TemplateEdit::MoveSection { path: moved, parent: old_parent, index: position(old_index) })
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
        return Err(refused(format!("'{key}' is not a section key: {}", unfold_documents::schema::SECTION_KEY_RULE)));
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
    unfold_documents::tool::check_parameters_schema(&tool.parameters).map_err(|problem| refused(problem.to_string()))
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
