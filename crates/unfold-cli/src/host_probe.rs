//! `unfold hosts probe`: each real host run against the built-in probe, each run said on stderr as
//! it ends, then the matrix of what the runs showed (or `unfold.host_probe` JSON), and with
//! `--write` the host profiles it measured.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use unfold_application::host_probe::{self, HostProbe, ProbeProgress, ProbedHost};
use unfold_application::probed_profiles;
use unfold_application::real_hosts::HostRunOptions;
use unfold_application::AppResult;

use crate::columns::columns;
use crate::output::{out, write_json};
use crate::runtime::block_on;

/// How to probe, and what to do with the measurement.
pub struct ProbeOptions {
    pub repeat: u32,
    pub timeout: Duration,
    pub json: bool,
    /// Where to write the host profiles the probe makes.
    pub write: Option<PathBuf>,
}

pub fn execute(hosts: Vec<String>, probe_options: ProbeOptions, allow_host: bool) -> AppResult<ExitCode> {
    let ProbeOptions { repeat, timeout, json, write } = probe_options;
    let lab = crate::host_run::lab();
    let hosts = match hosts.is_empty() {
        false => hosts,
        // Every host installed; `command` has no program of its own to probe.
        true => lab
            .hosts()
            .into_iter()
            .filter(|host| host.program.is_some() && host.name != "command")
            .map(|host| host.name)
            .collect(),
    };
    let prepared = hosts.iter().map(|host| lab.prepare(host, &[])).collect::<AppResult<Vec<_>>>()?;
    if allow_host {
        for host in &prepared {
            lab.allow(host)?;
        }
    }
    let options = HostRunOptions { repeat, timeout, ..HostRunOptions::default() };
    let mut told = |ended: ProbeProgress| eprintln!("{} run {}/{}: {}", ended.host, ended.run, ended.of, ended.status);
    let history = crate::history::shared();
    let probes = block_on(host_probe::probe_hosts(&lab, &prepared, &options, &history, &mut told))??;
    for probe in &probes {
        if let Some(error) = &probe.not_kept {
            eprintln!("warning: {}'s runs were not kept in the history: {error}", probe.probed.host);
        }
    }
    let probe = HostProbe::of(probes.into_iter().map(|probe| probe.probed).collect());
    if json {
        write_json(&probe)?;
    } else {
        out!("{}", matrix(&probe.hosts))?;
    }
    // After the matrix: a profile refused still leaves the measurement printed.
    if let Some(folder) = write {
        for path in probed_profiles::write_probed_profiles(&folder, &probe)? {
            eprintln!("wrote {}", path.display());
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// A row per host: its version, runs, when the tool became visible (the distribution), the runs
/// that re-listed, kept a stable prefix, and put the tool where; the median run's wall time and
/// its time in Unfold's servers.
fn matrix(hosts: &[ProbedHost]) -> String {
    let counted = |counts: &indexmap::IndexMap<String, u32>| {
        counts.iter().map(|(what, runs)| format!("{what} {runs}")).collect::<Vec<_>>().join(", ")
    };
    let rows: Vec<[String; 9]> = hosts
        .iter()
        .map(|host| {
            [
                host.host.clone(),
                host.version.clone().unwrap_or_else(|| "-".to_owned()),
                match host.incomplete {
                    0 => host.runs.to_string(),
                    incomplete => format!("{} ({incomplete} incomplete)", host.runs),
                },
                counted(&host.visible_at),
                format!("{}/{}", host.relisted, host.runs),
                format!("{}/{}", host.prefix_stable, host.runs),
                counted(&host.tool_order),
                format!("{:.1} s", host.median_wall_ms as f64 / 1000.0),
                unfold_share(host.median_servers_ms, host.median_wall_ms),
            ]
        })
        .collect();
    let headers = [
        "host",
        "version",
        "runs",
        "visible at",
        "re-listed",
        "prefix stable",
        "tool order",
        "a run",
        "Unfold's share",
    ];
    columns(headers, &rows)
}

/// Unfold's servers' time of a run and its share of the run's wall time: `12 ms (0.3 %)`.
fn unfold_share(servers_ms: u64, wall_ms: u64) -> String {
    match wall_ms {
        0 => format!("{servers_ms} ms"),
        wall => format!("{servers_ms} ms ({:.1} %)", servers_ms as f64 * 100.0 / wall as f64),
    }
}
