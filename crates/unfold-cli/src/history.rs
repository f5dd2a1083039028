//! `unfold history`: the kept runs (the app's too) listed as a table, one shown with its events,
//! two compared; or the same as JSON.

use std::process::ExitCode;

use unfold_application::folders::Folders;
use unfold_application::run_history::OpenRunHistory;
use unfold_application::AppResult;
use unfold_stores::run_history::RunFilter;

use crate::args::HistoryAction;
use crate::event_lines::event_line;
use crate::money::money;
use crate::output::{out, outln, write_json};

/// `unfold history …`
pub fn execute(
    action: Option<HistoryAction>,
    filter: RunFilter,
    json: bool,
    history: &OpenRunHistory,
) -> AppResult<ExitCode> {
    match action {
        None => {
            let runs = history.list(&filter)?;
            if json {
                write_json(&runs)?;
            } else {
                out!("{}", list_table(&runs))?;
            }
        }
        Some(HistoryAction::Show { id }) => {
            let run = history.get(id)?;
            if json {
                write_json(&run)?;
            } else {
                out!("{}", list_table(std::slice::from_ref(&run.summary)))?;
                outln!("user: {}", run.user)?;
                for (turn, user) in run.later_user_turns.iter().enumerate() {
                    outln!("user, turn {}: {user}", turn + 2)?;
                }
                if let Some(host) = &run.report.real_host {
                    outln!("{}", real_host_line(host))?;
                }
                if let Some(from) = run.summary.forked_from {
                    outln!("fork of run {} at event {}", from.run, from.at_seq)?;
                }
                // Numbered, with each tool call's id: what `unfold fork --at SEQ --result ID=…` names.
                for event in &run.report.events {
                    let Some(line) = event_line(event) else { continue };
                    match &event.kind {
                        unfold_engine::EventKind::ToolCall { call_id, .. } => {
                            outln!("{:>3} {line} [{call_id}]", event.seq)?
                        }
                        _ => outln!("{:>3} {line}", event.seq)?,
                    }
                }
            }
        }
        Some(HistoryAction::Compare { baseline, id }) => {
            let comparison = history.compare(baseline, id)?;
            if json {
                write_json(&comparison)?;
            } else {
                let runs = [history.get(baseline)?.report, history.get(id)?.report];
                out!("{}", crate::report_table::draw_history_pair(&comparison, runs, crate::output::width()))?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// A real host as the history shows it: its name, its version when known, how its process ended.
fn real_host_line(host: &unfold_engine::RealHost) -> String {
    let version = host.version.as_deref().map(|version| format!(" {version}")).unwrap_or_default();
    match host.ended.as_str() {
        "" => format!("real host: {}{version}", host.name),
        ended => format!("real host: {}{version}, {ended}", host.name),
    }
}

/// The runs, a line each, each column as wide as its widest cell (an adapter's name, a scenario
/// with its lane), numbers aligned right.
fn list_table(runs: &[unfold_stores::run_history::RunSummary]) -> String {
    const HEADER: [&str; 10] = [
        "ID",
        "STARTED (UTC)",
        "SOURCE",
        "TEMPLATE",
        "SCENARIO / PROVIDER",
        "ADAPTER",
        "STATUS",
        "CALLS",
        "TOKENS",
        "COST",
    ];
    const RIGHT: [bool; 10] = [true, false, false, false, false, false, false, true, true, true];
    let value = |v: serde_json::Result<serde_json::Value>| {
        v.ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default()
    };
    let rows: Vec<[String; 10]> = runs
        .iter()
        .map(|run| {
            let what = match (&run.scenario, &run.model) {
                (Some(scenario), _) => {
                    format!("{scenario}{}", run.lane.as_ref().map(|l| format!(" [{l}]")).unwrap_or_default())
                }
                (None, Some(model)) => format!("{} ({model})", run.provider),
                (None, None) => run.provider.clone(),
            };
            [
                run.id.to_string(),
                utc(run.started_at_ms),
                value(serde_json::to_value(run.source)),
                run.template.clone(),
                what,
                run.adapter.name().to_owned(),
                run.status.name().to_owned(),
                run.counters.model_calls.to_string(),
                (run.counters.prompt_tokens + run.counters.completion_tokens).to_string(),
                run.cost.as_ref().map_or("-".to_owned(), |cost| money(cost.total, &cost.currency, false)),
            ]
        })
        .collect();
    let widths: Vec<usize> = (0..HEADER.len())
        .map(|i| rows.iter().map(|row| row[i].chars().count()).chain([HEADER[i].len()]).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    let mut line = |cells: &[&str]| {
        let padded: Vec<String> = cells
            .iter()
            .zip(&widths)
            .zip(RIGHT)
            .map(|((cell, &width), right)| if right { format!("{cell:>width$}") } else { format!("{cell:<width$}") })
            .collect();
        out.push_str(padded.join("  ").trim_end());
        out.push('\n');
    };
    line(&HEADER);
    for row in &rows {
        line(&row.each_ref().map(String::as_str));
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

/// The run history shared with the app.
pub fn shared() -> OpenRunHistory {
    OpenRunHistory::open(Folders::from_environment().history_file())
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
