//! `unfold test`: the suites' cases run in parallel, one line per case in the suites' order (and
//! under a failed one each expectation that did not hold, with the value seen), a progress line on
//! a terminal while they run, and the JUnit XML CI dashboards read. Exit 0 when every expectation
//! holds, 1 when one does not, 2 on bad input (nothing runs then). Under `--shard` a repeated
//! case runs on every shard, its share of the repetitions.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};

use unfold_application::files::check_output_file;
use unfold_application::folders::default_prices_file;
use unfold_application::prices::PriceFile;
use unfold_application::suites::{self, CaseOutcome, CaseRuns, LiveSuite, Shard};
use unfold_application::AppResult;
use unfold_documents::Error;

use crate::output::{out, outln};

/// What `unfold test` was asked.
pub struct TestRequest {
    pub suites: Vec<PathBuf>,
    pub junit: Option<PathBuf>,
    pub shard: Option<Shard>,
    pub study_dir: Option<PathBuf>,
    pub live: Option<LiveSuite>,
    pub otel: Option<PathBuf>,
}

pub fn execute(request: TestRequest) -> AppResult<ExitCode> {
    if let Some(junit) = &request.junit {
        check_output_file(junit, "--junit")?;
    }
    if let Some(otel) = &request.otel {
        check_output_file(otel, "--otel")?;
    }
    let every = suites::load_suites(&request.suites)?;
    let total = every.len();
    let cases: Vec<_> = every
        .into_iter()
        .enumerate()
        // A repeated case's repetitions are split instead: every shard runs its share.
        .filter(|(at, c)| c.case.repeat.is_some() || request.shard.is_none_or(|shard| shard.takes(*at)))
        .map(|(_, c)| c)
        .collect();
    if let (Some(shard), None) = (request.shard, &request.study_dir) {
        if let Some(loaded) = cases.iter().find(|loaded| loaded.case.repeat.is_some()) {
            let message = format!(
                "case '{}' repeats: shard {}/{} runs its share of the repetitions into a partial study, \
                 in the folder --study-dir names",
                loaded.case.name, shard.index, shard.count
            );
            return Err(Error::argument("--shard", message).into());
        }
    }
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    let finished = AtomicUsize::new(0);
    let progress = std::io::stderr().is_terminal();
    let runs = CaseRuns { folder: request.study_dir.clone(), shard: request.shard, live: request.live.clone() };
    let outcomes = suites::run_cases(&cases, threads, &PriceFile(default_prices_file()), &runs, &|_| {
        let done = finished.fetch_add(1, Ordering::Relaxed) + 1;
        if progress {
            eprint!("\r{done}/{} cases run", cases.len());
            let _ = std::io::stderr().flush();
        }
    })?;
    if progress {
        eprint!("\r\x1b[2K");
    }
    out!("{}", lines(&outcomes))?;
    let failed = outcomes.iter().filter(|o| !o.passed()).count();
    let shard = request.shard.map(|s| format!(" (shard {}/{} of {total} cases)", s.index, s.count)).unwrap_or_default();
    outln!("{} cases: {} passed, {failed} failed{shard}", outcomes.len(), outcomes.len() - failed)?;
    if let Some(otel) = &request.otel {
        let lines: Vec<String> = outcomes.iter().flat_map(CaseOutcome::trace_lines).collect();
        // Suites run scripted models: there is no secret to keep out.
        unfold_application::traces::write_trace_file(otel, &lines, &unfold_live::Secrets::none())?;
    }
    if let Some(junit) = &request.junit {
        // Saved as every file Unfold writes is: atomically, through a symbolic link, keeping its mode.
        unfold_documents::document::write_atomically(junit, &crate::junit::document(&outcomes))?;
    }
    Ok(if failed == 0 { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// One line per case; under a failed one, what did not hold.
fn lines(outcomes: &[CaseOutcome]) -> String {
    let mut out = String::new();
    for outcome in outcomes {
        let mark = if outcome.passed() { "ok  " } else { "FAIL" };
        let took = outcome.took.as_secs_f64();
        out.push_str(&format!("{mark}  {} › {}  ({took:.2} s{})\n", outcome.suite, outcome.name, repetitions(outcome)));
        for line in crate::junit::failure_lines(outcome) {
            out.push_str(&format!("      {line}\n"));
        }
    }
    out
}

/// ", 7 repetitions", or a shard's ", 3 of 7 repetitions"; nothing for a case run once.
fn repetitions(outcome: &CaseOutcome) -> String {
    let Some(study) = &outcome.study else { return String::new() };
    let (ran, asked) = (study.of.order.len(), study.of.repeat);
    match ran == asked as usize {
        true => format!(", {asked} repetitions"),
        false => format!(", {ran} of {asked} repetitions"),
    }
}
