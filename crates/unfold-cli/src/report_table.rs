//! The human form of a comparison report: the runs' counters side by side, then their event logs
//! side by side, one event a line.

use std::fmt::Write;

use unfold_core::{ComparisonReport, Counters, Event, EventKind, RunReport};

/// Widest an event cell gets before it is cut.
const MAX_CELL: usize = 60;

pub fn draw(report: &ComparisonReport) -> String {
    let mut out = format!("template {} · scenario {}\n\n", report.template, report.scenario);
    let header: Vec<String> = report.runs.iter().map(|r| r.adapter.name().to_owned()).collect();
    let mut rows: Vec<(String, Vec<String>)> = vec![
        (
            "status".into(),
            column(report, |r| {
                serde_json::to_value(r.status).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default()
            }),
        ),
        ("final".into(), column(report, |r| r.final_text.as_deref().map_or("-".into(), |t| format!("{t:?}")))),
    ];
    type Counter = fn(&Counters) -> u64;
    let counters: [(&str, Counter); 8] = [
        ("model calls", |c| c.model_calls.into()),
        ("restarts", |c| c.restarts.into()),
        ("tool calls", |c| c.tool_calls.into()),
        ("failed tool calls", |c| c.failed_tool_calls.into()),
        ("tools injected", |c| c.tools_injected.into()),
        ("dynamic expansions", |c| c.dynamic_expansions.into()),
        ("prompt tokens", |c| c.prompt_tokens),
        ("completion tokens", |c| c.completion_tokens),
    ];
    for (name, value) in counters {
        rows.push((name.into(), column(report, |r| value(&r.counters).to_string())));
    }
    table(&mut out, "", &header, &rows);
    out.push_str("\nevents (attempt: event)\n");
    let longest = report.runs.iter().map(|r| r.events.len()).max().unwrap_or(0);
    let events: Vec<(String, Vec<String>)> = (0..longest)
        .map(|seq| {
            let cells = report.runs.iter().map(|r| r.events.get(seq).map(describe).unwrap_or_default()).collect();
            (seq.to_string(), cells)
        })
        .collect();
    table(&mut out, "#", &header, &events);
    out
}

fn column(report: &ComparisonReport, cell: impl Fn(&RunReport) -> String) -> Vec<String> {
    report.runs.iter().map(cell).collect()
}

fn table(out: &mut String, corner: &str, header: &[String], rows: &[(String, Vec<String>)]) {
    let label_width = rows.iter().map(|(l, _)| l.chars().count()).chain([corner.len()]).max().unwrap_or(0);
    let widths: Vec<usize> = (0..header.len())
        .map(|i| {
            let cells = rows.iter().map(|(_, cells)| cells[i].chars().count().min(MAX_CELL));
            cells.chain([header[i].len()]).max().unwrap_or(0)
        })
        .collect();
    let mut line = |label: &str, cells: &[String]| {
        let mut text = format!("{label:<label_width$}");
        for (cell, width) in cells.iter().zip(&widths) {
            let _ = write!(text, "  {:<width$}", cut(cell), width = *width);
        }
        out.push_str(text.trim_end());
        out.push('\n');
    };
    line(corner, header);
    for (label, cells) in rows {
        line(label, cells);
    }
}

fn cut(text: &str) -> String {
    match text.char_indices().nth(MAX_CELL - 1) {
        Some((at, _)) if text.chars().count() > MAX_CELL => format!("{}…", &text[..at]),
        _ => text.to_owned(),
    }
}

/// One line for an event.
fn describe(event: &Event) -> String {
    let what = match &event.kind {
        EventKind::RunStarted { adapter, .. } => format!("run started ({})", adapter.name()),
        EventKind::ModelCall { call_index, tools_offered, prompt_tokens, .. } => {
            format!("model call {call_index} ({} tools, {prompt_tokens} tokens)", tools_offered.len())
        }
        EventKind::ToolCall { name, args, success: true, .. } => format!("{name} {args} ok"),
        EventKind::ToolCall { name, args, result, .. } => {
            format!("{name} {args} failed: {}", result.as_str().unwrap_or_default())
        }
        EventKind::ToolsInjected { section_key, tool_names } => {
            format!("injected {} ({})", tool_names.join(", "), section_key.as_deref().unwrap_or("plugin"))
        }
        EventKind::ToolInjectionSkipped { tool_name, .. } => {
            format!("skipped {tool_name} (already offered)")
        }
        EventKind::ToolsRemoved { tool_names } => format!("removed {}", tool_names.join(", ")),
        EventKind::VisibilityChanged { section_keys } => {
            format!("expanded {}", section_keys.join(", "))
        }
        EventKind::Restart { reason, section_keys, .. } => {
            let reason =
                serde_json::to_value(reason).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default();
            format!("RESTART {reason} {}", section_keys.join(", ")).trim_end().to_owned()
        }
        EventKind::ToolAvailabilityChanged { at_model_call, added, removed } => {
            format!("tools changed before call {at_model_call}: +[{}] -[{}]", added.join(", "), removed.join(", "))
        }
        EventKind::LimitReached { limit, value } => {
            let limit =
                serde_json::to_value(limit).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default();
            format!("LIMIT {limit} ({value})")
        }
        EventKind::RunCompleted { status, .. } => {
            let status =
                serde_json::to_value(status).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default();
            format!("run {status}")
        }
    };
    format!("{}: {what}", event.attempt)
}
