//! A session: one template with the state a conversation gives it (parameter values, visibility
//! overrides, picked tools, plugin tool changes), and the builtin disclosure tools that read and
//! change that state (spec 4.1, 4.3, 4.4). Queries here never mutate: they return what would
//! change, and the run decides (by adapter) whether and when to apply it.

use std::borrow::Cow;

use indexmap::IndexMap;

use crate::render::{self, RenderedPrompt};
use crate::session_state::{SessionState, VisibilityOverrides};
use unfold_documents::error::{pointer_segment, Problem, Result};
use unfold_documents::template::{Template, Visibility};
use unfold_documents::tool::{Builtin, OfferedTool, Tool};

/// Sections to make visible, and what doing so offers.
#[derive(Debug, Clone, PartialEq)]
pub struct Expansion {
    /// The sections whose visibility changes, in document order.
    pub section_keys: Vec<String>,
    /// The overrides that make the change.
    pub overrides: VisibilityOverrides,
    /// The requested sections rendered as they will read after the change.
    pub content: String,
    /// The tools the change newly offers, in offer order.
    pub expanded_tools: Vec<String>,
}

/// What `read_section` finds for a key.
#[derive(Debug, Clone, PartialEq)]
pub enum ReadOutcome {
    /// No such section: the message for the model.
    Unknown(String),
    /// The section is already rendered in full: its content.
    AlreadyExpanded(String),
    /// The section (and what hides it) can be expanded.
    Expand(Expansion),
}

/// A template in a conversation.
#[derive(Debug, Clone)]
pub struct Session<'t> {
    /// Borrowed from the caller; owned once a tool source changed it during the run.
    template: Cow<'t, Template>,
    state: SessionState,
}

impl<'t> Session<'t> {
    /// Starts a session with parameter values over the template's defaults. Fails, naming each,
    /// on a parameter the template does not know and on a placeholder without a value anywhere in
    /// the template (so no read can fail half-way through a run).
    pub fn new(template: &'t Template, params: IndexMap<String, String>) -> Result<Session<'t>> {
        check_params(template, &params)?;
        Ok(Session { template: Cow::Borrowed(template), state: SessionState { params, ..SessionState::default() } })
    }

    /// [`Session::new`] of a template the session keeps: one that outlives its caller (a server
    /// that answers reads for as long as it runs).
    pub fn owning(template: Template, params: IndexMap<String, String>) -> Result<Session<'static>> {
        check_params(&template, &params)?;
        Ok(Session { template: Cow::Owned(template), state: SessionState { params, ..SessionState::default() } })
    }

    /// The template.
    pub fn template(&self) -> &Template {
        &self.template
    }

    /// Goes on with `template` in place of the one the session started with (a tool source's list
    /// changed: the same sections, other tools); the conversation's state is kept.
    pub fn replace_template(&mut self, template: Template) {
        self.template = Cow::Owned(template);
    }

    /// The state.
    pub fn state(&self) -> &SessionState {
        &self.state
    }

    /// The prompt as it reads now.
    pub fn render(&self) -> Result<RenderedPrompt> {
        render::render(&self.template, &self.state)
    }

    /// Every tool the template can offer in this state, as if every section were FULL: what an
    /// adapter that sends hidden tools sends from the start (spec 10).
    pub fn every_tool(&self) -> Result<Vec<OfferedTool>> {
        let mut state = self.state.clone();
        self.template.walk(&mut |path, _| state.visibility.set(path, Visibility::Full));
        Ok(render::render(&self.template, &state)?.tools)
    }

    /// The section whose tools hold `name`, if a section's do.
    pub fn section_of_tool(&self, name: &str) -> Option<String> {
        let mut found = None;
        self.template.walk(&mut |path, section| {
            if found.is_none() && section.tools.iter().any(|t| t.name == name) {
                found = Some(path.to_owned());
            }
        });
        found
    }

    /// Whether the section at `path` is rendered in full now (it and every ancestor are FULL).
    pub fn is_rendered_full(&self, path: &str) -> bool {
        rendered_full(&self.template, &self.state, path)
    }

    /// `read_section` (spec 4.1): what reading `key` would show and change.
    pub fn read_section(&self, key: &str) -> ReadOutcome {
        if let Err(message) = self.resolve(key) {
            return ReadOutcome::Unknown(message);
        }
        if self.is_rendered_full(key) {
            return ReadOutcome::AlreadyExpanded(self.section_content(&self.state, key));
        }
        ReadOutcome::Expand(self.expansion(&[key]))
    }

    /// `open_sections` (spec 4.3): every key must name a section that is not yet rendered in full.
    pub fn open_sections(&self, keys: &[String], reason: &str) -> std::result::Result<Expansion, String> {
        if keys.is_empty() {
            return Err("At least one section key must be provided.".to_owned());
        }
        if reason.chars().count() > 256 {
            return Err("The reason is longer than 256 characters.".to_owned());
        }
        let errors: Vec<String> = keys
            .iter()
            .filter_map(|key| match self.resolve(key) {
                Err(message) => Some(message),
                Ok(()) if self.is_rendered_full(key) => Some(format!("Section '{key}' is already expanded.")),
                Ok(()) => None,
            })
            .collect();
        if !errors.is_empty() {
            return Err(errors.join("; "));
        }
        let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
        Ok(self.expansion(&keys))
    }

    /// `pick_tools` (spec 4.4): the tools of `names` not picked yet, or why the pick is refused.
    /// Only tools offered in this request (`offered`) can be picked, builtins excepted.
    pub fn pick_tools(&self, names: &[String], offered: &[OfferedTool]) -> std::result::Result<Vec<String>, String> {
        if names.is_empty() {
            return Err("At least one tool name must be provided.".to_owned());
        }
        let unknown: Vec<String> = names
            .iter()
            .filter(|n| Builtin::from_name(n).is_some() || !offered.iter().any(|t| &&t.name == n))
            .map(|n| format!("'{n}'"))
            .collect();
        if !unknown.is_empty() {
            return Err(format!("Unknown tool: {}", unknown.join(", ")));
        }
        let mut new: Vec<String> = names.iter().filter(|n| !self.state.picked_tools.contains(*n)).cloned().collect();
        new.dedup();
        Ok(new)
    }

    /// Makes the section at `path` readable now, as a read would: its ancestors and its subtree
    /// become FULL. The error (for a person) says when no section has that path.
    pub fn expand(&mut self, path: &str) -> std::result::Result<(), String> {
        self.resolve(path)?;
        let expansion = self.expansion(&[path]);
        self.apply_visibility(&expansion.overrides);
        Ok(())
    }

    /// Makes every section FULL, as reading each in turn would, in one walk of the template:
    /// reading them one by one walks and renders it once per section (seconds at 5,000).
    pub fn expand_all(&mut self) {
        let mut overrides = VisibilityOverrides::default();
        let visibility = &self.state.visibility;
        self.template.walk(&mut |path, section| {
            if visibility.effective(path, section.visibility) == Visibility::Summary {
                overrides.set(path, Visibility::Full);
            }
        });
        self.apply_visibility(&overrides);
    }

    /// Applies visibility overrides.
    pub fn apply_visibility(&mut self, overrides: &VisibilityOverrides) {
        self.state.visibility.extend(overrides);
    }

    /// Records picked tools.
    pub fn apply_picks(&mut self, names: &[String]) {
        self.state.picked_tools.extend(names.iter().cloned());
    }

    /// Records a plugin's tool changes: tools added, removed, and given a new definition.
    pub fn apply_tool_changes(&mut self, added: &[Tool], removed: &[String], modified: &[Tool]) {
        for tool in modified {
            self.state.modified_tools.retain(|t| t.name != tool.name);
            self.state.modified_tools.push(tool.clone());
        }
        for tool in added {
            self.state.removed_tools.remove(&tool.name);
            if !self.state.added_tools.iter().any(|t| t.name == tool.name) {
                self.state.added_tools.push(tool.clone());
            }
        }
        self.state.added_tools.retain(|t| !removed.contains(&t.name));
        self.state.removed_tools.extend(removed.iter().cloned());
    }

    /// Checks that `key` is a section path; the error, for the model, suggests the full path when
    /// exactly one section ends with `key`.
    fn resolve(&self, key: &str) -> std::result::Result<(), String> {
        if self.template.section(key).is_some() {
            return Ok(());
        }
        let suffix = format!(".{key}");
        let mut matches = Vec::new();
        self.template.walk(&mut |path, _| {
            if path.ends_with(&suffix) {
                matches.push(path.to_owned());
            }
        });
        match matches.as_slice() {
            [only] => Err(format!("Unknown section key: '{key}'. Did you mean '{only}'?")),
            _ => Err(format!("Unknown section key: '{key}'")),
        }
    }

    /// Making each of `paths` readable: its ancestors and its whole subtree become FULL.
    fn expansion(&self, paths: &[&str]) -> Expansion {
        let mut overrides = VisibilityOverrides::default();
        let mut section_keys = Vec::new();
        let is_summarized =
            |path: &str, own: Visibility| self.state.visibility.effective(path, own) == Visibility::Summary;
        self.template.walk(&mut |path, section| {
            let wanted = paths.iter().any(|p| path == *p || is_prefix(path, p) || is_prefix(p, path));
            if wanted && is_summarized(path, section.visibility) && !overrides.contains(path) {
                overrides.set(path, Visibility::Full);
                section_keys.push(path.to_owned());
            }
        });
        let mut after = self.state.clone();
        after.visibility.extend(&overrides);
        // What the expansion reveals: the tools of every section it brings into view. Whether a
        // running conversation already offers one of them is the adapter's business (spec 4.1).
        let mut expanded_tools = Vec::new();
        self.template.walk(&mut |path, section| {
            let revealed = !section.tools.is_empty()
                && rendered_full(&self.template, &after, path)
                && !self.is_rendered_full(path);
            if revealed {
                let shown = section.tools.iter().filter(|t| !after.removed_tools.contains(&t.name));
                expanded_tools.extend(shown.map(|t| t.name.clone()));
            }
        });
        let content = paths.iter().map(|p| self.section_content(&after, p)).collect::<Vec<_>>().join("\n");
        Expansion { section_keys, overrides, content, expanded_tools }
    }

    fn section_content(&self, state: &SessionState, path: &str) -> String {
        match render::render_section(&self.template, state, path) {
            Some(Ok(text)) => text,
            // `Session::new` checked every placeholder and `resolve` the path.
            Some(Err(e)) => e.to_string(),
            None => String::new(),
        }
    }
}

/// Whether the section at `path` exists and it and every ancestor are FULL in `state`.
fn rendered_full(template: &Template, state: &SessionState, path: &str) -> bool {
    template.section(path).is_some()
        && prefixes(path).all(|prefix| {
            let own = template.section(prefix).map_or(Visibility::Full, |s| s.visibility);
            state.visibility.effective(prefix, own) == Visibility::Full
        })
}

/// `a` is a strict ancestor path of `b`.
fn is_prefix(a: &str, b: &str) -> bool {
    b.len() > a.len() && b.starts_with(a) && b.as_bytes()[a.len()] == b'.'
}

/// `a`, `a.b`, `a.b.c` for `a.b.c`.
fn prefixes(path: &str) -> impl Iterator<Item = &str> {
    path.match_indices('.').map(|(i, _)| &path[..i]).chain(std::iter::once(path))
}

fn check_params(template: &Template, params: &IndexMap<String, String>) -> Result<()> {
    // One walk over the texts, which a keystroke in the editor pays for: the uses without a value,
    // and which of the values the template does not declare it uses.
    let undeclared: Vec<&str> =
        params.keys().map(String::as_str).filter(|name| !template.params.contains_key(*name)).collect();
    let mut undeclared_used = vec![false; undeclared.len()];
    let mut missing = Vec::new();
    template.walk(&mut |path, section| {
        let texts =
            std::iter::once(("template", &section.template)).chain(section.summary.iter().map(|s| ("summary", s)));
        for (field, text) in texts {
            for name in unfold_documents::substitution::placeholders(text) {
                if let Some(index) = undeclared.iter().position(|undeclared| *undeclared == name) {
                    undeclared_used[index] = true;
                } else if !template.params.contains_key(name) {
                    missing.push(Problem::at(
                        "/params",
                        format!(
                            "missing parameter '{name}': section '{path}' uses it in its {field} and it has no value"
                        ),
                    ));
                }
            }
        }
    });
    let unknown = undeclared.iter().zip(&undeclared_used).filter(|(_, used)| !**used).map(|(name, _)| {
        Problem::at(
            format!("/params/{}", pointer_segment(name)),
            format!("unknown parameter '{name}': the template neither declares nor uses it"),
        )
    });
    let mut problems: Vec<Problem> = unknown.chain(missing).collect();
    problems.dedup();
    if problems.is_empty() {
        Ok(())
    } else {
        Err(unfold_documents::Error::invalid(problems))
    }
}
