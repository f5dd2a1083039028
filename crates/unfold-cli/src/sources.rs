//! `unfold sources`: the tools a template's sources offer as a table or JSON (each source's tier,
//! and why a lower one was used, on stderr), and their snapshots written into the template; and
//! the same warnings for the runs of `compare`, `run` and `replay`.

use std::path::Path;
use std::process::ExitCode;

use unfold_application::sources::{self, SourceReach, SourceShortfall, SourceTool, SourceToolFilter};
use unfold_application::AppResult;
use unfold_documents::discovery::{Discovery, Tier};
use unfold_documents::error::{printable, printable_path};
use unfold_documents::tool::ToolKind;
use unfold_documents::{Error, Template};
use unfold_engine::RunReport;

use crate::args::SourcesAction;
use crate::output::{out, outln, write_json};
use crate::runtime::block_on;

pub fn execute(action: SourcesAction) -> AppResult<ExitCode> {
    match action {
        SourcesAction::List { template, sources: allowed, kind, category, source, written, json } => {
            let filter = SourceToolFilter { kind, category, source, written };
            let consent = allowed.consent();
            let listed = block_on(sources::list_source_tools(&template, &consent, &filter))??;
            warn_about(&template, &listed.discoveries);
            if json {
                write_json(&listed.tools)?;
            } else {
                out!("{}", table(&listed.tools))?;
            }
            Ok(ExitCode::SUCCESS)
        }
        SourcesAction::Snapshot { template, sources: allowed } => {
            let consent = allowed.consent();
            if !consent.start {
                let why = "a snapshot starts the template's sources (their commands run, their URLs are reached): add --allow-sources to allow it";
                return Err(Error::argument("--allow-sources", why).in_file(&template).into());
            }
            let discoveries = block_on(sources::snapshot_sources(&template, &consent))??;
            warn_about(&template, &discoveries);
            for discovery in discoveries.iter().filter(|d| d.tier == Tier::Live) {
                outln!("{}: {} tools", discovery.source, discovery.tools.len())?;
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// One stderr line per source that did not give its live list, with the reason.
pub fn warn_about(template: &Path, discoveries: &[Discovery]) {
    for discovery in discoveries {
        if let Some(error) = &discovery.error {
            warn(template, &discovery.source, discovery.tier, error);
        }
    }
}

/// One stderr line per source that `runs` of the template at `template_path` reached for and that
/// gave them less than its live list ([`sources::shortfalls`]).
pub fn warn_about_runs<'r>(
    template_path: &Path,
    template: &Template,
    access: &SourceReach,
    runs: impl IntoIterator<Item = &'r RunReport>,
) {
    warn_about_shortfalls(template_path, &sources::shortfalls(template, access, runs));
}

/// One stderr line per shortfall of the template at `template_path`.
pub fn warn_about_shortfalls(template_path: &Path, shortfalls: &[SourceShortfall]) {
    for SourceShortfall { source, tier, error } in shortfalls {
        warn(template_path, source, *tier, error);
    }
}

fn warn(template: &Path, source: &str, tier: Tier, error: &str) {
    eprintln!("warning: {}: source '{source}' ({}): {}", printable_path(template), tier_word(tier), printable(error));
}

fn tier_word(tier: Tier) -> &'static str {
    match tier {
        Tier::Live => "live",
        Tier::Snapshot => "snapshot",
        Tier::None => "no tools",
    }
}

/// A kind as the files write it (`read`, `edit`, …).
fn kind_word(kind: ToolKind) -> String {
    serde_json::to_value(kind).ok().and_then(|value| value.as_str().map(str::to_owned)).unwrap_or_default()
}

fn table(tools: &[SourceTool]) -> String {
    let rows: Vec<[String; 6]> = tools
        .iter()
        .map(|tool| {
            [
                tool.source.clone().unwrap_or_else(|| "-".to_owned()),
                tool.tier.map_or("written", tier_word).to_owned(),
                tool.name.clone(),
                tool.kind.map(kind_word).unwrap_or_else(|| "-".to_owned()),
                if tool.categories.is_empty() { "-".to_owned() } else { tool.categories.join(",") },
                if tool.requires_permission { "asks" } else { "-" }.to_owned(),
            ]
        })
        .collect();
    crate::columns::columns(["source", "tier", "tool", "kind", "categories", "permission"], &rows)
}
