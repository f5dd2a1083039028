//! The template's real tool sources behind the template server (spec 13, with the user's consent):
//! a call to a tool a source gives is answered by that source, as a live run's would be, and a
//! source's new list (a call that unlocked a tool) becomes the template the host is served, as
//! it becomes the one a run sees. Which sources may start, and starting them, is the caller's:
//! here is only the engine's [`ToolHost`] they are reached through.

use std::collections::HashMap;

use serde_json::Value;
use unfold_documents::discovery::Discovery;
use unfold_documents::Template;
use unfold_engine::tool_host::{HostAnswer, ToolHost};

/// The sources a template server reaches, and the tools each gives it now.
pub struct ServedSources {
    host: Box<dyn ToolHost>,
    /// Each source's tools as applied to the template: a template's own tool of the same name
    /// stays the template's.
    given: HashMap<String, Vec<String>>,
}

impl ServedSources {
    /// The sources behind `host`, whose discoveries were `applied` to the served template.
    pub fn new(host: Box<dyn ToolHost>, applied: &[Discovery]) -> ServedSources {
        let given = applied
            .iter()
            .map(|discovery| (discovery.source.clone(), discovery.tools.iter().map(|t| t.name.clone()).collect()))
            .collect();
        ServedSources { host, given }
    }

    /// Whether a source gives `tool`, and answers it.
    pub(crate) fn answers(&self, tool: &str) -> bool {
        self.given.values().any(|tools| tools.iter().any(|name| name == tool)) && self.host.answers(tool)
    }

    /// `tool` called on its source with `arguments`.
    pub(crate) async fn call(&mut self, tool: &str, arguments: &Value) -> HostAnswer {
        self.host.call(tool, arguments).await
    }

    /// `template` with the new lists of the sources that said theirs changed; `None` when none did.
    pub(crate) async fn changed_template(&mut self, template: &Template) -> Option<Template> {
        let lists = self.host.changed_lists(0).await;
        let mut changed: Option<Template> = None;
        for list in lists {
            let had = self.given.get(&list.source).cloned().unwrap_or_default();
            let current = changed.as_ref().unwrap_or(template);
            if let Some((next, discovery)) = current.with_new_list(&list.source, &had, list.tools) {
                self.given.insert(list.source, discovery.tools.iter().map(|t| t.name.clone()).collect());
                changed = Some(next);
            }
        }
        changed
    }

    /// Closes every source; none is left running.
    pub async fn close(&mut self) {
        self.host.close().await;
    }
}
