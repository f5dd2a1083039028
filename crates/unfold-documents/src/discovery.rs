//! What a template's sources offer a run (spec 8's discovery tiers) as data: tier 1, what a started
//! source listed; tier 2, its `snapshot`; tier 3, nothing. And the template as a run sees it, each
//! source's tools after its section's written ones, a tool that cannot be taken left out with the
//! reason, never a failure. Starting a source is the I/O side's; nothing here does.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};

use crate::source::ToolSource;
use crate::template::{Section, Template};
use crate::tool::{check_parameters_schema, tool_name_problem, Tool};

/// Where a run's tools of a source came from (spec 8's discovery tiers).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum Tier {
    /// Tier 1: what the running source listed.
    Live,
    /// Tier 2: the template's `snapshot` of the source.
    Snapshot,
    /// Tier 3: nothing; the source's tools are absent.
    None,
}

/// What one source offered a run: its tier, its tools, and why a lower tier was used.
#[derive(Debug, Clone, PartialEq)]
pub struct Discovery {
    /// The source's name.
    pub source: String,
    /// Where the tools came from.
    pub tier: Tier,
    /// The tools, in the order the source listed them.
    pub tools: Vec<Tool>,
    /// Why tier 1 (or 2) was not used, or a tool left out, in words.
    pub error: Option<String>,
}

impl Discovery {
    /// What `source` offers without being started: its snapshot (tier 2), else nothing (tier 3).
    pub fn offline(source: &ToolSource) -> Discovery {
        let name = source.name.clone();
        match &source.snapshot {
            Some(tools) => Discovery { source: name, tier: Tier::Snapshot, tools: tools.clone(), error: None },
            None => Discovery {
                source: name,
                tier: Tier::None,
                tools: Vec::new(),
                error: Some("not started, and it has no snapshot".to_owned()),
            },
        }
    }
}

impl Template {
    /// What every source offers without being started (see [`Discovery::offline`]).
    pub fn offline_discoveries(&self) -> Vec<Discovery> {
        self.sources.iter().map(Discovery::offline).collect()
    }

    /// The template as a render, a preview or a scripted comparison sees it when no source is
    /// started: each source's snapshot in place (the template itself when it has no sources).
    pub fn offline_view(&self) -> Cow<'_, Template> {
        self.listed_view(&[])
    }

    /// The template as the editor shows it: each source's tools as `listed` live (tier 1) when a
    /// listing of it is there, else its snapshot; so tools found by starting a source reach the
    /// preview without being written into the file.
    pub fn listed_view(&self, listed: &[Discovery]) -> Cow<'_, Template> {
        if self.sources.is_empty() {
            return Cow::Borrowed(self);
        }
        let discoveries = self
            .sources
            .iter()
            .map(|source| {
                let live = listed.iter().find(|d| d.source == source.name && d.tier == Tier::Live);
                live.cloned().unwrap_or_else(|| Discovery::offline(source))
            })
            .collect();
        Cow::Owned(self.with_discovered(discoveries).0)
    }

    /// The template as a run sees it: each source's discovered tools after the written tools of
    /// its section (or the template's own). A tool whose name is invalid, reserved or already
    /// taken is left out, and its discovery says so: a source never fails a run. Returns the
    /// discoveries as applied, in the sources' order.
    pub fn with_discovered(&self, discoveries: Vec<Discovery>) -> (Template, Vec<Discovery>) {
        let mut template = self.clone();
        let mut taken: HashSet<String> = self.all_tools().iter().map(|t| t.name.clone()).collect();
        let sections: HashMap<&str, Option<&str>> =
            self.sources.iter().map(|s| (s.name.as_str(), s.section.as_deref())).collect();
        let mut applied = Vec::with_capacity(discoveries.len());
        for mut discovery in discoveries {
            let (kept, left_out) = keep_usable(std::mem::take(&mut discovery.tools), &mut taken);
            if !left_out.is_empty() {
                let why = left_out.join("; ");
                discovery.error = Some(discovery.error.map_or(why.clone(), |error| format!("{error}; {why}")));
            }
            match sections.get(discovery.source.as_str()).copied().flatten() {
                None => template.tools.extend(kept.iter().cloned()),
                Some(path) => match section_mut(&mut template.sections, path) {
                    Some(section) => section.tools.extend(kept.iter().cloned()),
                    None => continue,
                },
            }
            discovery.tools = kept;
            applied.push(discovery);
        }
        (template, applied)
    }
}

impl Template {
    /// The template a run sees after source `source` listed `tools` anew: the tools it had offered
    /// (named `had`) give way to those of the new list that can be taken, after its section's
    /// written tools. Returns the discovery as applied (tier 1), or `None` for a source the
    /// template does not have.
    pub fn with_new_list(&self, source: &str, had: &[String], tools: Vec<Tool>) -> Option<(Template, Discovery)> {
        let definition = self.sources.iter().find(|s| s.name == source)?;
        let mut template = self.clone();
        let owner = match &definition.section {
            None => &mut template.tools,
            Some(path) => &mut section_mut(&mut template.sections, path)?.tools,
        };
        owner.retain(|tool| !had.contains(&tool.name));
        let mut taken: HashSet<String> = template.all_tools().iter().map(|t| t.name.clone()).collect();
        let (kept, left_out) = keep_usable(tools, &mut taken);
        let owner = match &definition.section {
            None => &mut template.tools,
            Some(path) => &mut section_mut(&mut template.sections, path)?.tools,
        };
        owner.extend(kept.iter().cloned());
        let error = (!left_out.is_empty()).then(|| left_out.join("; "));
        Some((template, Discovery { source: source.to_owned(), tier: Tier::Live, tools: kept, error }))
    }
}

/// The tools a run can take, in order, and why each other one was left out.
fn keep_usable(tools: Vec<Tool>, taken: &mut HashSet<String>) -> (Vec<Tool>, Vec<String>) {
    let mut kept = Vec::with_capacity(tools.len());
    let mut left_out = Vec::new();
    for tool in tools {
        if let Some(problem) = tool_name_problem(&tool.name) {
            left_out.push(format!("left out: {problem}"));
        } else if !taken.insert(tool.name.clone()) {
            left_out.push(format!("left out '{}': the template already has a tool of that name", tool.name));
        } else if let Err(problem) = check_parameters_schema(&tool.parameters) {
            left_out.push(format!("left out '{}': {problem}", tool.name));
        } else {
            kept.push(tool);
        }
    }
    (kept, left_out)
}

fn section_mut<'t>(sections: &'t mut [Section], path: &str) -> Option<&'t mut Section> {
    let (first, rest) = path.split_once('.').map_or((path, None), |(first, rest)| (first, Some(rest)));
    let section = sections.iter_mut().find(|s| s.key == first)?;
    match rest {
        None => Some(section),
        Some(rest) => section_mut(&mut section.children, rest),
    }
}
