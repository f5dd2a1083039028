//! The run history from the command line: where it is (shared with the app), keeping each run
//! `run`, `replay` and `compare` make, and `unfold history` to list, show and compare kept runs.
//! A history that cannot be opened or written is a warning, never a failed run.

use std::path::PathBuf;
use std::process::ExitCode;

use unfold_documents::Result;
use unfold_stores::run_history::{RunFilter, RunHistory, RunRecord};

use crate::HistoryAction;

/// The history file: `$UNFOLD_HISTORY` (`off` keeps nothing), else `history.sqlite3` in the app's
/// data folder (`$XDG_DATA_HOME/dev.unfold.studio`, else `~/.local/share/dev.unfold.studio`).
pub fn history_path() -> Option<PathBuf> {
    match std::env::var_os("UNFOLD_HISTORY").filter(|v| !v.is_empty()) {
        Some(value) if value == "off" => None,
        Some(value) => Some(PathBuf::from(value)),
        None => {
            let data = std::env::var_os("XDG_DATA_HOME")
                .filter(|p| !p.is_empty())
                .map(PathBuf::from)
                .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".local/share")))?;
            Some(data.join("dev.unfold.studio").join("history.sqlite3"))
        }
    }
}

/// Keeps `records` in the history, if there is one; a failure is a warning on stderr.
pub fn keep(records: &[RunRecord<'_>]) {
    let Some(path) = history_path() else { return };
    let kept = RunHistory::open(&path).and_then(|history| records.iter().try_for_each(|r| history.record(r).map(drop)));
    if let Err(error) = kept {
        eprintln!("warning: the run was not kept in the history: {error}");
    }
}

/// `unfold history …`
pub fn execute(action: Option<HistoryAction>, filter: RunFilter, json: bool) -> Result<ExitCode> {
    let Some(path) = history_path() else {
        return Err(unfold_documents::Error::argument("UNFOLD_HISTORY=off", "the run history is turned off"));
    };
    let history = RunHistory::open(&path)?;
    match action {
        None => {
            let runs = history.list(&filter)?;
            if json {
                println!("{}", serde_json::to_string_pretty(&runs).unwrap_or_default());
            } else {
                print!("{}", list_table(&runs));
            }
        }
        Some(HistoryAction::Show { id }) => {
            let run = history.get(id)?;
            if json {
                println!("{}", serde_json::to_string_pretty(&run).unwrap_or_default());
            } else {
                print!("{}", list_table(std::slice::from_ref(&run.summary)));
                println!("user: {}", run.user);
                for event in &run.report.events {
                    if let Some(line) = crate::live_run::event_line(event) {
                        println!("{line}");
                    }
                }
            }
        }
        Some(HistoryAction::Compare { baseline, id }) => {
            let comparison = history.compare(baseline, id)?;
            if json {
                println!("{}", serde_json::to_string_pretty(&comparison).unwrap_or_default());
            } else {
                let runs = [history.get(baseline)?.report, history.get(id)?.report];
                print!("{}", crate::report_table::draw_history_pair(&comparison, runs));
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn list_table(runs: &[unfold_stores::run_history::RunSummary]) -> String {
    let mut out = format!(
        "{:>5}  {:<19}  {:<8}  {:<20}  {:<28}  {:<7}  {:<13}  {:>5}  {:>7}\n",
        "ID", "STARTED (UTC)", "SOURCE", "TEMPLATE", "SCENARIO / PROVIDER", "ADAPTER", "STATUS", "CALLS", "TOKENS"
    );
    for run in runs {
        let what = match (&run.scenario, &run.model) {
            (Some(scenario), _) => {
                format!("{scenario}{}", run.lane.as_ref().map(|l| format!(" [{l}]")).unwrap_or_default())
            }
            (None, Some(model)) => format!("{} ({model})", run.provider),
            (None, None) => run.provider.clone(),
        };
        let value = |v: serde_json::Result<serde_json::Value>| {
            v.ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default()
        };
        out.push_str(&format!(
            "{:>5}  {:<19}  {:<8}  {:<20}  {:<28}  {:<7}  {:<13}  {:>5}  {:>7}\n",
            run.id,
            utc(run.started_at_ms),
            value(serde_json::to_value(run.source)),
            run.template,
            what,
            run.adapter.name(),
            value(serde_json::to_value(run.status)),
            run.counters.model_calls,
            run.counters.prompt_tokens + run.counters.completion_tokens,
        ));
    }
    out
}

/// `YYYY-MM-DD HH:MM:SS` of a time in milliseconds since the Unix epoch, in UTC.
fn utc(ms: u64) -> String {
    let seconds = ms / 1000;
    let (days, time) = ((seconds / 86_400) as i64, seconds % 86_400);
    // Howard Hinnant's days-to-civil algorithm.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02}", time / 3600, time % 3600 / 60, time % 60)
}

#[cfg(test)]
mod tests {
    #[test]
    fn writes_utc_dates() {
        assert_eq!(super::utc(0), "1970-01-01 00:00:00");
        assert_eq!(super::utc(951_782_400_000), "2000-02-29 00:00:00");
        assert_eq!(super::utc(1_795_478_399_000), "2026-11-23 23:59:59");
    }
}
