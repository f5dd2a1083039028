//! `unfold host run`: a real agent host run against a template and a scenario (spec 13), each run
//! said on stderr as it ends, then the runs drawn as a comparison's lanes (or printed as JSON);
//! and the host lab the command line has: this program serves the template (`unfold mcp serve`),
//! and the user's answers are the app's.

use std::process::ExitCode;
use std::time::Duration;

use unfold_application::folders::Folders;
use unfold_application::live_hosts::LiveModel;
use unfold_application::real_hosts::{self, HostLab, HostRunFiles, HostRunOptions};
use unfold_application::{AppError, AppResult, ErrorCode};
use unfold_documents::error::printable_path;
use unfold_documents::{Scenario, Template};
use unfold_engine::Lane;
use unfold_stores::run_history::now_ms;

use crate::args::HostAction;
use crate::output::{out, write_json};
use crate::runtime::block_on;

/// The host lab of the command line: hosts serve the template with this very program.
pub fn lab() -> HostLab {
    let program = std::env::current_exe().map(|path| path.display().to_string()).unwrap_or_else(|_| "unfold".into());
    HostLab::new(vec![program], Folders::from_environment().consents_file())
}

/// `--allow-host`: allows each of `hosts` as it is defined now.
pub fn allow(hosts: &[String]) -> AppResult<()> {
    let lab = lab();
    for host in hosts {
        lab.allow(&lab.prepare(host, &[])?)?;
    }
    Ok(())
}

/// `--hosts` as lanes (`real:NAME`), each host allowed first when `allow_host` (`--allow-host`).
pub fn real_host_lanes(hosts: &[String], allow_host: bool) -> AppResult<Vec<String>> {
    if allow_host {
        allow(hosts)?;
    }
    Ok(hosts.iter().map(|host| Lane::real_host(host).name().to_owned()).collect())
}

pub fn execute(action: HostAction) -> AppResult<ExitCode> {
    let HostAction::Run {
        host,
        template,
        scenario,
        repeat,
        record,
        timeout,
        json,
        allow_host,
        provider,
        providers,
        trace,
        program,
    } = action;
    if let Some(path) = &trace.otel {
        unfold_application::files::check_output_file(path, "--otel")?;
    }
    let lab = lab();
    let prepared = lab.prepare(&host, &program)?;
    if allow_host {
        lab.allow(&prepared)?;
    }
    let loaded = Template::load(&template).map_err(AppError::invalid_as(ErrorCode::InvalidTemplate))?;
    let script = Scenario::load_for(&scenario, &loaded).map_err(AppError::invalid_as(ErrorCode::InvalidScenario))?;
    let model = match &provider {
        Some(name) => Some(LiveModel::of_profile(crate::live::named_profile(providers.as_deref(), name)?)?),
        None => None,
    };
    let options = HostRunOptions {
        repeat,
        record: record.clone(),
        timeout: Duration::from_secs(timeout),
        model: model.clone(),
        ..HostRunOptions::default()
    };
    let started = (now_ms(), std::time::Instant::now());
    let mut told = |number: u32, run: &real_hosts::HostRun| {
        let report = &run.report;
        let ended = report.real_host.as_ref().map_or("", |host| host.ended.as_str());
        eprintln!(
            "run {number}/{repeat}: {} ({}): {} model calls, {} tool calls",
            report.status.name(),
            ended,
            report.counters.model_calls,
            report.counters.tool_calls,
        );
    };
    let runs = block_on(lab.run(&prepared, &loaded, &script, &options, &mut told))??;
    let files = HostRunFiles {
        template: &loaded,
        template_path: Some(&template),
        scenario: &script,
        scenario_path: Some(&scenario),
        live: model.as_ref().map(|model| (model.profile.as_str(), model.model.as_str())),
    };
    let (report, kept) = real_hosts::report_and_keep(files, runs, &crate::history::shared(), started);
    if let Err(error) = kept {
        eprintln!("warning: the runs were not kept in the history: {error}");
    }
    if let Some(folder) = &record {
        eprintln!("recordings in {}", printable_path(folder));
    }
    if let Some(path) = &trace.otel {
        real_hosts::write_trace(path, &report)?;
    }
    if json {
        write_json(&report)?;
    } else {
        out!("{}", crate::report_table::draw(&report, crate::output::width()))?;
    }
    let failed = report.runs.iter().any(|run| run.status != unfold_engine::RunStatus::Completed);
    Ok(if failed { ExitCode::from(1) } else { ExitCode::SUCCESS })
}
