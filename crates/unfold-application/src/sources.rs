//! Tool sources as the command line (and later the app) uses them: every tool a template's sources
//! offer, with its source, tier and metadata, filtered by kind, category and source; and a
//! snapshot of what the started sources list, written into the template atomically. A source is
//! started only when the caller says the user allowed it (`--allow-sources`); every connection is
//! shut down before the answer.

use std::path::Path;

use unfold_documents::discovery::{Discovery, Tier};
use unfold_documents::source::ToolSource;
use unfold_documents::tool::ToolKind;
use unfold_documents::Template;
use unfold_engine::{CombinedSources, ToolSources};
pub use unfold_relay::attached::RelaySession;
use unfold_relay::attached::RelaySources;
use unfold_sources::discover::{discover, DISCOVERY_TIMEOUT};
pub use unfold_sources::Consent;
use unfold_sources::McpSources;

use crate::error::{AppError, AppResult, ErrorCode};

/// What runs of a template may reach of its sources: the MCP servers the user allowed, and the
/// relay session the runs are attached to.
#[derive(Debug, Clone, Default)]
pub struct SourceReach {
    /// What the user allowed of the MCP servers.
    pub consent: Consent,
    /// The relay session the runs' relay sources take their tools from.
    pub relay: Option<RelaySession>,
}

impl From<Consent> for SourceReach {
    fn from(consent: Consent) -> SourceReach {
        SourceReach { consent, relay: None }
    }
}

impl SourceReach {
    /// Whether a run of `template` reaches any of its sources (otherwise they all give their
    /// snapshots, and no connection is made).
    pub fn reaches(&self, template: &Template) -> bool {
        template.sources.iter().any(|source| self.reaches_source(source))
    }

    /// Whether runs reach for `source`: the user asked to start the template's MCP servers, or
    /// attached the runs to a relay session for a relay source. What such a source gives short of
    /// its live list is worth a warning; the others give their snapshots as a matter of course.
    pub fn reaches_source(&self, source: &ToolSource) -> bool {
        (source.mcp.is_some() && self.consent.start) || (source.relay.is_some() && self.relay.is_some())
    }

    /// Checks, before any run, that the relay session the runs are attached to can be attached
    /// (the relay answers, and takes the session with its token): the user named it, so one that
    /// cannot be is an error, naming the relay and why (never the token), rather than runs that
    /// quietly take their relay sources' snapshots.
    pub async fn check_relay(&self) -> AppResult<()> {
        match &self.relay {
            Some(session) => session.check().await.map_err(|why| AppError::new(ErrorCode::InvalidRequest, why)),
            None => Ok(()),
        }
    }

    /// The engine's sources for the runs of the template at `template_path`.
    pub fn sources(&self, template_path: Option<&Path>) -> CombinedSources {
        let mut kinds: Vec<Box<dyn ToolSources>> =
            vec![Box::new(McpSources::for_template(template_path, &self.consent))];
        if let Some(session) = &self.relay {
            kinds.push(Box::new(RelaySources::new(session.clone())));
        }
        CombinedSources(kinds)
    }
}

/// Which tools to show; `None` shows all.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SourceToolFilter {
    /// Only tools of this kind.
    pub kind: Option<ToolKind>,
    /// Only tools with this category.
    pub category: Option<String>,
    /// Only this source's tools.
    pub source: Option<String>,
    /// The template's written tools too, not only its sources'.
    pub written: bool,
}

/// One tool of a template's catalog, as `unfold sources list` shows it: from a source, or written
/// in the template.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct SourceTool {
    /// The source's name; none for a tool written in the template.
    pub source: Option<String>,
    /// Where its source's tools came from this time; none for a written tool.
    pub tier: Option<Tier>,
    /// The section the tool belongs to (none: the template's own tools).
    pub section: Option<String>,
    /// The tool's name.
    pub name: String,
    /// What the tool does to the world, when known.
    pub kind: Option<ToolKind>,
    /// Its categories.
    pub categories: Vec<String>,
    /// Whether a person must allow each call.
    pub requires_permission: bool,
}

impl SourceTool {
    fn of(tool: &unfold_documents::Tool, source: Option<(&str, Tier)>, section: Option<String>) -> SourceTool {
        SourceTool {
            source: source.map(|(name, _)| name.to_owned()),
            tier: source.map(|(_, tier)| tier),
            section,
            name: tool.name.clone(),
            kind: tool.kind,
            categories: tool.categories.clone().unwrap_or_default(),
            requires_permission: tool.requires_permission.unwrap_or(false),
        }
    }
}

/// What the sources offered: each source's discovery (with why a lower tier was used), then the
/// tools the filter keeps.
#[derive(Debug, Clone)]
pub struct SourceTools {
    /// One per source, in the template's order.
    pub discoveries: Vec<Discovery>,
    /// The tools: the written ones first when asked for, in document order, then source by
    /// source in their listed order.
    pub tools: Vec<SourceTool>,
}

/// The tools `template_path`'s sources offer (and its written ones, when the filter asks):
/// started and listed as `consent` allows, else their snapshots.
pub async fn list_source_tools(
    template_path: &Path,
    consent: &Consent,
    filter: &SourceToolFilter,
) -> AppResult<SourceTools> {
    let template = load(template_path)?;
    let discoveries = discovered(&template, template_path, consent).await;
    let mut tools = Vec::new();
    if filter.written {
        tools.extend(template.tools.iter().map(|tool| SourceTool::of(tool, None, None)));
        template.walk(&mut |path, section| {
            tools.extend(section.tools.iter().map(|tool| SourceTool::of(tool, None, Some(path.to_owned()))));
        });
    }
    for discovery in &discoveries {
        let section = template.sources.iter().find(|s| s.name == discovery.source).and_then(|s| s.section.clone());
        let source = Some((discovery.source.as_str(), discovery.tier));
        tools.extend(discovery.tools.iter().map(|tool| SourceTool::of(tool, source, section.clone())));
    }
    tools.retain(|tool| keeps(filter, tool));
    Ok(SourceTools { discoveries, tools })
}

fn keeps(filter: &SourceToolFilter, tool: &SourceTool) -> bool {
    filter.kind.is_none_or(|kind| tool.kind == Some(kind))
        && filter.category.as_ref().is_none_or(|category| tool.categories.contains(category))
        && filter.source.as_ref().is_none_or(|source| tool.source.as_ref() == Some(source))
}

/// Starts the sources of `template_path` as `consent` allows, writes what each one listed as its
/// `snapshot`, atomically, and returns the discoveries. A source that could not be listed keeps
/// the snapshot it had, and its discovery says why.
pub async fn snapshot_sources(template_path: &Path, consent: &Consent) -> AppResult<Vec<Discovery>> {
    let mut template = load(template_path)?;
    let discoveries = discovered(&template, template_path, consent).await;
    for discovery in discoveries.iter().filter(|d| d.tier == Tier::Live) {
        if let Some(source) = template.sources.iter_mut().find(|s| s.name == discovery.source) {
            source.snapshot = Some(discovery.tools.clone());
        }
    }
    // What was listed is checked as a written snapshot is before it reaches the file.
    let text = template.to_json();
    Template::from_json(text.as_bytes())
        .and_then(|_| unfold_documents::document::write_atomically(template_path, &text))
        .map_err(|error| AppError::invalid_as(ErrorCode::InvalidTemplate)(error.in_file(template_path)))?;
    Ok(discoveries)
}

/// `template` (the one at `template_path`) as a run sees it with its sources started as `consent`
/// allows (else their snapshots), and where each source's tools came from. The connections are
/// closed before this returns: for a render, which calls no tool.
pub async fn with_started_sources(
    template: &Template,
    template_path: &Path,
    consent: &Consent,
) -> (Template, Vec<Discovery>) {
    let discoveries = discovered(template, template_path, consent).await;
    template.with_discovered(discoveries)
}

fn load(template_path: &Path) -> AppResult<Template> {
    Template::load(template_path).map_err(AppError::invalid_as(ErrorCode::InvalidTemplate))
}

/// Each source's discovery; the connections are closed before this returns.
pub(crate) async fn discovered(template: &Template, template_path: &Path, consent: &Consent) -> Vec<Discovery> {
    let folder = unfold_documents::save_target::folder_of(template_path);
    let user_env = |name: &str| std::env::var(name).ok();
    let (discoveries, connections) = discover(template, folder, consent, &user_env, DISCOVERY_TIMEOUT).await;
    for (_, connection) in connections {
        connection.shutdown().await;
    }
    discoveries
}

/// A source that runs reached for and that gave them less than its live list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceShortfall {
    /// The source's name.
    pub source: String,
    /// What it gave instead: its snapshot, or no tools.
    pub tier: Tier,
    /// Why.
    pub error: String,
}

/// Each source of `template` that `runs` reached for (as `access` allows: the user asked to start
/// it, or attached a relay session) and that gave them less than its live list, with the reason:
/// once, however many runs met it, since every run discovers its sources on its own. A source
/// nobody asked to start gives its snapshot as a matter of course: none for it.
pub fn shortfalls<'r>(
    template: &Template,
    access: &SourceReach,
    runs: impl IntoIterator<Item = &'r unfold_engine::RunReport>,
) -> Vec<SourceShortfall> {
    let reached = |name: &str| template.sources.iter().any(|s| s.name == name && access.reaches_source(s));
    let mut found: Vec<SourceShortfall> = Vec::new();
    for event in runs.into_iter().flat_map(|run| &run.events) {
        if let unfold_engine::EventKind::ToolsDiscovered { source, tier, error: Some(error), .. } = &event.kind {
            let shortfall = SourceShortfall { source: source.clone(), tier: *tier, error: error.clone() };
            if reached(source) && !found.contains(&shortfall) {
                found.push(shortfall);
            }
        }
    }
    found
}
