//! `unfold hosts list`: the host profiles a lane can be named after, as a table of how each
//! behaves, then the evidence for each; then the real hosts Unfold runs, installed or not.
//! `unfold hosts probe` is [`crate::host_probe`]'s.

use std::process::ExitCode;

use unfold_application::{hosts, AppResult};
use unfold_documents::host_profile::{Evidence, HostProfile};

use crate::args::HostsAction;
use crate::columns::columns;
use crate::output::{out, write_json};

pub fn execute(action: HostsAction) -> AppResult<ExitCode> {
    match action {
        HostsAction::List { files, json } => {
            let profiles = if files.is_empty() {
                hosts::presets().to_vec()
            } else {
                files.iter().map(|file| hosts::load_profile(file)).collect::<AppResult<Vec<_>>>()?
            };
            if json {
                write_json(&profiles)?;
            } else {
                out!("{}\n{}", table(&profiles), evidence(&profiles, crate::output::width()))?;
                out!("\nreal hosts (`unfold host run`, `compare --hosts`):\n{}", real_hosts())?;
            }
            Ok(ExitCode::SUCCESS)
        }
        HostsAction::Probe { hosts, repeat, timeout, json, write, allow_host } => crate::host_probe::execute(
            hosts,
            crate::host_probe::ProbeOptions { repeat, timeout: std::time::Duration::from_secs(timeout), json, write },
            allow_host,
        ),
    }
}

fn table(profiles: &[HostProfile]) -> String {
    let rows: Vec<[String; 7]> = profiles
        .iter()
        .map(|profile| {
            [
                profile.name.clone(),
                profile.version.clone().unwrap_or_else(|| "-".to_owned()),
                profile.api.name().to_owned(),
                profile.strategy.name().to_owned(),
                profile.refresh.name(),
                profile.tool_order.name().to_owned(),
                profile.tool_names.name().to_owned(),
            ]
        })
        .collect();
    columns(["host", "version", "api", "strategy", "refresh", "tool order", "tool names"], &rows)
}

/// The real hosts Unfold runs: whether each is installed, its version and where.
fn real_hosts() -> String {
    let rows: Vec<[String; 4]> = crate::host_run::lab()
        .hosts()
        .into_iter()
        .map(|host| {
            let cached = if host.caches_tools { "cached" } else { "listed again" };
            let program = match (&host.program, host.name.as_str()) {
                (_, "command") => "the program after --".to_owned(),
                (Some(program), _) => program.clone(),
                (None, name) => match unfold_application::real_hosts::install_hint(name) {
                    Some(hint) => format!("not installed ({hint})"),
                    None => "not installed".to_owned(),
                },
            };
            [host.name, host.version.unwrap_or_else(|| "-".to_owned()), cached.to_owned(), program]
        })
        .collect();
    columns(["host", "version", "tool list", "program"], &rows)
}

/// Each profile's host and evidence, wrapped to `width`.
fn evidence(profiles: &[HostProfile], width: usize) -> String {
    let mut out = String::new();
    for profile in profiles {
        out.push_str(&format!("{} ({}):\n", profile.name, profile.host));
        if profile.evidence.is_empty() {
            out.push_str("  - no evidence given\n");
        }
        for item in &profile.evidence {
            let line = match item {
                Evidence::Measured { measured, runs, visible_at } => {
                    let counts: Vec<String> = visible_at.iter().map(|(moment, n)| format!("{moment} {n}")).collect();
                    format!("first visible, in {runs} runs: {} ({measured})", counts.join(", "))
                }
                Evidence::Reported { source, note } => format!("{note} ({source})"),
            };
            let options = textwrap::Options::new(width.max(40)).initial_indent("  - ").subsequent_indent("    ");
            for wrapped in textwrap::wrap(&line, options) {
                out.push_str(&wrapped);
                out.push('\n');
            }
        }
    }
    out
}
