//! The host probe (spec 13, `unfold hosts probe`): a real host run again and again against a small
//! built-in template whose one summarized section reveals a tool (`open_vault`), with a script that
//! reads the section and then calls the tool if it is shown, else checks the status (a request
//! more, so a host that shows the tool late is seen to), three times over; what each run shows of the host,
//! counted over the runs: at which request the revealed tool first reached the model, whether the
//! host listed its tools again, whether its prompt stayed a cached prefix (no break but where the
//! tools changed), and where it put the new tool.

use std::time::Duration;

use indexmap::IndexMap;
use serde::Serialize;
use unfold_documents::{Scenario, Template};
use unfold_engine::prompt_prefix::PrefixBreak;
use unfold_engine::{EventKind, RunReport};
use unfold_hostlab::scripted_endpoint::names_tool;

use crate::error::{AppError, AppResult, ErrorCode};
use crate::real_hosts::{report_and_keep, HostLab, HostRun, HostRunFiles, HostRunOptions, PreparedHost};
use crate::run_history::OpenRunHistory;
use unfold_stores::run_history::now_ms;

/// The tool the probe's section reveals.
const REVEALED: &str = "open_vault";
/// The section that reveals it.
const SECTION: &str = "vault";

/// The probe's template and scenario, as shipped.
pub fn probe_documents() -> AppResult<(Template, Scenario)> {
    let broken = |what: &str, error: unfold_documents::Error| {
        AppError::new(ErrorCode::Internal, format!("the built-in probe's {what} does not read: {error}"))
    };
    let template = Template::from_json(include_bytes!("probe/probe.unfold.json")).map_err(|e| broken("template", e))?;
    let scenario =
        Scenario::from_json(include_bytes!("probe/probe.scenario.json")).map_err(|e| broken("scenario", e))?;
    Ok((template, scenario))
}

/// What the probe measured of one host over its runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ProbedHost {
    /// The host's name.
    pub host: String,
    /// Its version, when it says.
    pub version: Option<String>,
    /// How many runs.
    pub runs: u32,
    /// Runs by when the revealed tool first reached the model: `next_call` (the first request
    /// after the result that revealed it), `late_1`, `late_2`, …, `never`.
    pub visible_at: IndexMap<String, u32>,
    /// Runs in which the host listed its tools again after the section was read.
    pub relisted: u32,
    /// Runs whose prompt stayed a cached prefix: no break but where the tools changed.
    pub prefix_stable: u32,
    /// Runs by where the revealed tool was put among the server's tools when it first appeared:
    /// `end` (after those offered before), `sorted` (in name order), `elsewhere`.
    pub tool_order: IndexMap<String, u32>,
    /// Runs that ended before the host read the section (it failed or timed out first): they
    /// count as `never` above, though they measured nothing.
    pub incomplete: u32,
    /// The median run's wall time, in milliseconds: the host started, run and stopped.
    #[cfg_attr(feature = "specta", specta(type = f64))]
    pub median_wall_ms: u64,
    /// The median run's time in Unfold's servers (the endpoint and the template server working on
    /// the host's requests), in milliseconds: Unfold's share of the wall time.
    #[cfg_attr(feature = "specta", specta(type = f64))]
    pub median_servers_ms: u64,
}

/// The whole probe's answer (`unfold hosts probe --json`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HostProbe {
    /// Always 1.
    pub schema_version: u32,
    /// Always `unfold.host_probe`.
    pub kind: &'static str,
    /// Each host probed, in the order asked.
    pub hosts: Vec<ProbedHost>,
}

impl HostProbe {
    /// The probe of `hosts`.
    pub fn of(hosts: Vec<ProbedHost>) -> HostProbe {
        HostProbe { schema_version: 1, kind: "unfold.host_probe", hosts }
    }
}

/// The probe of one host: what its runs measured, and where they are kept.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ProbeOfHost {
    /// What the runs measured.
    pub probed: ProbedHost,
    /// The ids the runs are kept under in the run history, in order (to open one on the
    /// timeline); none when the history is off or could not keep them.
    #[cfg_attr(feature = "specta", specta(type = Vec<f64>))]
    pub kept_runs: Vec<i64>,
    /// Why the runs were not kept, when they were not.
    pub not_kept: Option<String>,
}

/// A probe run's end, as the app shows the probe's progress.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ProbeProgress {
    /// The host.
    pub host: String,
    /// Which of its runs ended (from 1).
    pub run: u32,
    /// Of how many.
    pub of: u32,
    /// How it ended (`completed`, `error`, …).
    pub status: String,
}

/// Probes each of `hosts` in turn ([`probe_host`]), as every front does: `told` hears each run's
/// end.
pub async fn probe_hosts(
    lab: &HostLab,
    hosts: &[PreparedHost],
    options: &HostRunOptions,
    history: &OpenRunHistory,
    told: &mut (dyn FnMut(ProbeProgress) + Send),
) -> AppResult<Vec<ProbeOfHost>> {
    let mut probes = Vec::with_capacity(hosts.len());
    for host in hosts {
        let mut ended = |run: u32, ended: &HostRun| {
            let status = ended.report.status.name().to_owned();
            told(ProbeProgress { host: host.name().to_owned(), run, of: options.repeat, status });
        };
        probes.push(probe_host(lab, host, options, history, &mut ended).await?);
    }
    Ok(probes)
}

/// Runs the probe `options.repeat` times with `prepared`, counts what its runs show, and keeps
/// them in `history` (a comparison of the probe's template with a lane per run); `told` hears
/// each run as it ends.
pub async fn probe_host(
    lab: &HostLab,
    prepared: &PreparedHost,
    options: &HostRunOptions,
    history: &OpenRunHistory,
    told: &mut (dyn FnMut(u32, &HostRun) + Send),
) -> AppResult<ProbeOfHost> {
    let started = (now_ms(), std::time::Instant::now());
    let (template, scenario) = probe_documents()?;
    let runs = lab.run(prepared, &template, &scenario, options, told).await?;
    let probed = measured(prepared.name(), &runs);
    let files =
        HostRunFiles { template: &template, template_path: None, scenario: &scenario, scenario_path: None, live: None };
    let (_, kept) = report_and_keep(files, runs, history, started);
    let (kept_runs, not_kept) = match kept {
        Ok(ids) => (ids, None),
        Err(error) => (Vec::new(), Some(error.to_string())),
    };
    Ok(ProbeOfHost { probed, kept_runs, not_kept })
}

/// What `runs`, the probe's runs of `host`, show.
pub fn measured(host: &str, runs: &[HostRun]) -> ProbedHost {
    let median_ms = |time: fn(&HostRun) -> Duration| {
        let mut times: Vec<Duration> = runs.iter().map(time).collect();
        times.sort_unstable();
        times.get(times.len() / 2).map_or(0, |median| u64::try_from(median.as_millis()).unwrap_or(u64::MAX))
    };
    let mut probed = ProbedHost {
        host: host.to_owned(),
        version: runs.iter().find_map(|run| run.report.real_host.as_ref()?.version.clone()),
        runs: 0,
        visible_at: IndexMap::new(),
        relisted: 0,
        prefix_stable: 0,
        tool_order: IndexMap::new(),
        incomplete: 0,
        median_wall_ms: median_ms(|run| run.wall),
        median_servers_ms: median_ms(|run| run.servers_busy),
    };
    for report in runs.iter().map(|run| &run.report) {
        let run = RunSeen::of(report);
        probed.runs += 1;
        *probed.visible_at.entry(run.visible_at).or_default() += 1;
        probed.relisted += u32::from(run.relisted);
        probed.prefix_stable += u32::from(run.prefix_stable);
        probed.incomplete += u32::from(!run.read);
        if let Some(order) = run.tool_order {
            *probed.tool_order.entry(order.to_owned()).or_default() += 1;
        }
    }
    sort_moments(&mut probed.visible_at);
    probed
}

/// What one run shows.
struct RunSeen {
    /// Whether the host read the section.
    read: bool,
    visible_at: String,
    relisted: bool,
    prefix_stable: bool,
    tool_order: Option<&'static str>,
}

impl RunSeen {
    fn of(report: &RunReport) -> RunSeen {
        let events: Vec<&EventKind> = report.events.iter().map(|event| &event.kind).collect();
        let read = events.iter().position(|kind| {
            matches!(kind, EventKind::ToolCall { name, args, .. } if name == "read_section" && args["section_key"] == SECTION)
        });
        let after = read.map_or(&[][..], |read| &events[read..]);
        let (offered, calls_after) = (offered_lists(&events), offered_lists(after));
        let shows = |tools: &&Vec<String>| tools.iter().any(|name| names_tool(name, REVEALED));
        let first = calls_after.iter().position(shows);
        let visible_at = match (read, first) {
            (Some(_), Some(0)) => "next_call".to_owned(),
            (Some(_), Some(late)) => format!("late_{late}"),
            _ => "never".to_owned(),
        };
        let relisted = after.iter().any(|kind| matches!(kind, EventKind::ToolsListed { .. }));
        let prefix_stable = events.iter().all(|kind| match kind {
            EventKind::ModelCall { prefix: Some(prefix), .. } => {
                matches!(prefix.broke, None | Some(PrefixBreak::ToolsChanged))
            }
            _ => true,
        });
        let tool_order = offered.iter().position(shows).map(|at| placement(offered[at]));
        RunSeen { read: read.is_some(), visible_at, relisted, prefix_stable, tool_order }
    }
}

/// The tools each model call among `events` offered, in order.
fn offered_lists<'e>(events: &[&'e EventKind]) -> Vec<&'e Vec<String>> {
    let offered = |kind: &&'e EventKind| match kind {
        EventKind::ModelCall { tools_offered, .. } => Some(tools_offered),
        _ => None,
    };
    events.iter().filter_map(offered).collect()
}

/// The probe template's tools, by the names it gives them; the revealed one sorts before the
/// other, so that a host that sorts its tools and one that adds new ones at the end differ.
const SERVER_TOOLS: [&str; 3] = ["status_check", REVEALED, "read_section"];

/// Where the revealed tool sits among the server's tools in `now`, the first list that holds it:
/// last (`end`), in name order before others (`sorted`), or `elsewhere`.
fn placement(now: &[String]) -> &'static str {
    let server: Vec<&String> =
        now.iter().filter(|name| SERVER_TOOLS.iter().any(|tool| names_tool(name, tool))).collect();
    if server.last().is_some_and(|last| names_tool(last, REVEALED)) {
        return "end";
    }
    if server.windows(2).all(|pair| pair[0] <= pair[1]) {
        "sorted"
    } else {
        "elsewhere"
    }
}

/// `next_call`, then `late_1`, `late_2`, … in order, then `never`.
fn sort_moments(moments: &mut IndexMap<String, u32>) {
    let rank = |moment: &str| match moment {
        "next_call" => 0,
        "never" => u64::MAX,
        late => late.trim_start_matches("late_").parse::<u64>().map_or(u64::MAX - 1, |n| n + 1),
    };
    moments.sort_by(|a, _, b, _| rank(a).cmp(&rank(b)));
}
