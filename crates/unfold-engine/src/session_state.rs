//! What a conversation has changed about a template (parameter values, visibility overrides,
//! picked tools, plugin tool changes): the state a template is rendered in. The session's queries
//! say how it would change; the run applies the change.

use std::collections::{BTreeMap, BTreeSet};

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use unfold_documents::template::{Template, Visibility};
use unfold_documents::tool::{OfferedTool, Tool};

/// Visibility set by a session over the sections' own, by dotted section path.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct VisibilityOverrides(BTreeMap<String, Visibility>);

impl VisibilityOverrides {
    /// The visibility of the section at `path` whose own visibility is `own`.
    pub fn effective(&self, path: &str, own: Visibility) -> Visibility {
        if self.0.is_empty() {
            return own;
        }
        self.0.get(path).copied().unwrap_or(own)
    }

    /// Sets the visibility of the section at `path`.
    pub fn set(&mut self, path: impl Into<String>, visibility: Visibility) {
        self.0.insert(path.into(), visibility);
    }

    /// Takes every override of `other`.
    pub fn extend(&mut self, other: &VisibilityOverrides) {
        self.0.extend(other.0.iter().map(|(k, v)| (k.clone(), *v)));
    }

    /// The overridden paths, sorted.
    pub fn paths(&self) -> impl Iterator<Item = &str> {
        self.0.keys().map(String::as_str)
    }

    /// Whether the section at `path` is overridden.
    pub fn contains(&self, path: &str) -> bool {
        self.0.contains_key(path)
    }

    /// Whether nothing is overridden.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// What a conversation has changed about a template; serializable so a saved session resumes
/// exactly where it was.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SessionState {
    /// Parameter values over the template's defaults.
    pub params: IndexMap<String, String>,
    /// Visibility over the sections' own.
    pub visibility: VisibilityOverrides,
    /// Tools picked with `pick_tools` (offered with full descriptions).
    pub picked_tools: BTreeSet<String>,
    /// Tools a plugin added during the run.
    pub added_tools: Vec<Tool>,
    /// Tools a plugin removed during the run.
    pub removed_tools: BTreeSet<String>,
    /// New definitions a plugin gave tools during the run, over the template's or an added one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub modified_tools: Vec<Tool>,
}

impl SessionState {
    /// `tool`'s definition now: the one a plugin's change gave it, else its own.
    pub(crate) fn definition<'t>(&'t self, tool: &'t Tool) -> &'t Tool {
        self.modified_tools.iter().find(|modified| modified.name == tool.name).unwrap_or(tool)
    }

    /// The value of parameter `name`: the session's, else the template's default.
    pub fn param<'a>(&'a self, template: &'a Template, name: &str) -> Option<&'a str> {
        self.params.get(name).or_else(|| template.params.get(name)).map(String::as_str)
    }

    /// `tool` as offered in this state: in `pick_tools` mode, until picked, as km_tools offers it,
    /// by its brief (its description where it has none) and with no parameters.
    pub(crate) fn offer(&self, tool: &Tool, pick_mode: bool) -> OfferedTool {
        let tool = self.definition(tool);
        if pick_mode && !self.picked_tools.contains(&tool.name) {
            let description = tool.brief.as_ref().unwrap_or(&tool.description);
            return OfferedTool {
                name: tool.name.clone(),
                description: description.clone(),
                parameters: serde_json::json!({ "type": "object", "properties": {} }),
            };
        }
        OfferedTool {
            name: tool.name.clone(),
            description: tool.description.clone(),
            parameters: tool.parameters.clone(),
        }
    }
}
