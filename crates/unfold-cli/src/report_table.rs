//! The human form of a comparison report: its verdict in words, the runs' counters side by side
//! with their difference, the all-FULL baseline with what each run saved against it, the first
//! divergence, then the runs' event logs side by side, one event a line, and under them the
//! reasons events give for a fallback, in full.
//!
//! Every table fits the width it is given (the terminal's): the columns that do not fit beside
//! the others go on in a block below, row labels repeated, so no line is wider and no column is
//! split; a cell wider than a column may be is cut, never a reason.

use std::fmt::Write;
use std::ops::Range;

use unfold_engine::compare::BaselineReport;
use unfold_engine::costs::RunCost;
use unfold_engine::verdict::{Standing, Verdict, BASELINE};
use unfold_engine::{ComparisonReport, Counters, Event, EventKind, RunReport};

use crate::money::{money, priced_as};

/// Widest a cell gets before it is cut.
const MAX_CELL: usize = 60;
/// The narrowest a column is cut to, however narrow the width: below it nothing reads.
const MIN_CELL: usize = 16;
/// The space between two columns.
const GAP: usize = 2;

type Counter = fn(&Counters) -> u64;

/// The counters, in the order the table shows them.
const COUNTERS: [(&str, Counter); 8] = [
    ("model calls", |c| c.model_calls.into()),
    ("restarts", |c| c.restarts.into()),
    ("tool calls", |c| c.tool_calls.into()),
    ("failed tool calls", |c| c.failed_tool_calls.into()),
    ("tools injected", |c| c.tools_injected.into()),
    ("dynamic expansions", |c| c.dynamic_expansions.into()),
    ("prompt tokens", |c| c.prompt_tokens),
    ("completion tokens", |c| c.completion_tokens),
];

/// `report` drawn in tables at most `width` columns wide, its verdict first.
pub fn draw(report: &ComparisonReport, width: usize) -> String {
    let mut out = format!("template {} · scenario {}\n\n", report.template, report.scenario);
    if let Some(verdict) = &report.verdict {
        draw_verdict(&mut out, verdict, width);
    }
    draw_runs(&mut out, report, &run_names(report), width);
    out
}

/// The verdict in words wrapped to `width`: the answer, what else changes it, then each lane's
/// standing and why (its figures are in the tables below).
fn draw_verdict(out: &mut String, verdict: &Verdict, width: usize) {
    let mut paragraph = |text: &str, indent: &str| {
        let options = textwrap::Options::new(width.max(MIN_CELL)).subsequent_indent(indent);
        for line in textwrap::wrap(text, options) {
            let _ = writeln!(out, "{line}");
        }
    };
    paragraph(&format!("verdict: {}", verdict.headline), "  ");
    for note in &verdict.notes {
        paragraph(&format!("  {note}"), "  ");
    }
    for lane in &verdict.lanes {
        let standing = match lane.standing {
            Standing::Wins => "wins".to_owned(),
            Standing::BeatsBaseline => format!("beats {BASELINE}"),
            Standing::LosesToBaseline => format!("loses to {BASELINE}"),
            Standing::Failed => "fell short".to_owned(),
        };
        paragraph(&format!("  {} {standing}: {}", lane.lane, lane.because), "    ");
    }
    out.push('\n');
}

/// Two runs of the history side by side, named by their ids, in tables at most `width` wide.
pub fn draw_history_pair(
    comparison: &unfold_stores::run_history::RunComparison,
    runs: [RunReport; 2],
    width: usize,
) -> String {
    let [baseline, run] = [&comparison.baseline, &comparison.run];
    let mut out = String::new();
    for (label, summary) in [("baseline", baseline), ("run", run)] {
        let source = summary.model.as_ref().map_or(summary.provider.clone(), |m| format!("{} ({m})", summary.provider));
        let scenario = summary.scenario.as_ref().map(|s| format!(" · scenario {s}")).unwrap_or_default();
        let _ = writeln!(out, "{label} {}: template {}{scenario} · {source}", summary.id, summary.template);
    }
    out.push('\n');
    let report = ComparisonReport {
        schema_version: 1,
        kind: unfold_engine::compare::COMPARISON_KIND.to_owned(),
        template: run.template.clone(),
        scenario: String::new(),
        runs: runs.to_vec(),
        baseline: None,
        divergences: vec![comparison.divergence.clone()],
        verdict: None,
        fork: None,
    };
    let names = [format!("run {}", baseline.id), format!("run {}", run.id)];
    draw_runs(&mut out, &report, &names, width);
    out
}

fn draw_runs(out: &mut String, report: &ComparisonReport, names: &[String], width: usize) {
    counters_side_by_side(out, report, names, width);
    if let Some(baseline) = &report.baseline {
        out.push('\n');
        baseline_table(out, baseline, report, width);
    }
    if !report.divergences.is_empty() {
        out.push('\n');
    }
    for divergence in &report.divergences {
        let line = match &divergence.first {
            Some(first) => first.explanation.as_str(),
            None => "none (the same tool calls with the same results, the same ending)",
        };
        match report.divergences.len() {
            1 => writeln!(out, "first divergence: {line}"),
            _ => writeln!(
                out,
                "first divergence, {} against {}: {line}",
                divergence.right.name(),
                divergence.left.name()
            ),
        }
        .unwrap_or_default();
    }
    out.push_str("\nevents (attempt: event)\n");
    let header = names.to_vec();
    let longest = report.runs.iter().map(|r| r.events.len()).max().unwrap_or(0);
    let mut reasons = Reasons::default();
    let events: Vec<(String, Vec<String>)> = (0..longest)
        .map(|seq| {
            let cells = report
                .runs
                .iter()
                .map(|r| r.events.get(seq).map(|event| describe(event, &mut reasons)).unwrap_or_default())
                .collect();
            (seq.to_string(), cells)
        })
        .collect();
    table(out, width, Table { corner: "#", header: &header, rows: &events, parts: &[], side_by_side: 2 });
    reasons.list(out);
}

/// The reasons events give for a fallback (an adapter that runs instead of the one asked, a
/// source's tools that are not the live ones): too long for a cell, and the one thing a cut must
/// never hide, so a cell says "reason N" and the reason is listed whole below the table, each
/// text once.
#[derive(Default)]
struct Reasons(Vec<String>);

impl Reasons {
    /// The number of `reason` in the list.
    fn number(&mut self, reason: &str) -> usize {
        match self.0.iter().position(|known| known == reason) {
            Some(at) => at + 1,
            None => {
                self.0.push(reason.to_owned());
                self.0.len()
            }
        }
    }

    fn list(&self, out: &mut String) {
        if self.0.is_empty() {
            return;
        }
        out.push_str("\nreasons\n");
        for (i, reason) in self.0.iter().enumerate() {
            let _ = writeln!(out, "{}. {reason}", i + 1);
        }
    }
}

fn run_names(report: &ComparisonReport) -> Vec<String> {
    report.runs.iter().map(|r| r.lane().to_string()).collect()
}

/// Status, final answer and counters of every run, then a column for each run after the first
/// with its difference from the first.
fn counters_side_by_side(out: &mut String, report: &ComparisonReport, names: &[String], width: usize) {
    let mut header = names.to_vec();
    let pairs: Vec<(&RunReport, &RunReport)> = match report.runs.split_first() {
        Some((first, others)) => others.iter().map(|other| (first, other)).collect(),
        None => Vec::new(),
    };
    if let Some((first, others)) = names.split_first() {
        header.extend(others.iter().map(|other| format!("{other} - {first}")));
    }
    let with_delta = |mut cells: Vec<String>, delta: &dyn Fn(&RunReport, &RunReport) -> String| {
        cells.extend(pairs.iter().map(|(first, other)| delta(first, other)));
        cells
    };
    let differs = |same: bool| if same { String::new() } else { "differs".to_owned() };
    let mut rows: Vec<(String, Vec<String>)> = vec![
        ("status".into(), with_delta(column(report, status), &|a, b| differs(a.status == b.status))),
        ("final".into(), with_delta(column(report, final_text), &|a, b| differs(a.final_text == b.final_text))),
    ];
    for (name, value) in COUNTERS {
        let cells = column(report, |r| value(&r.counters).to_string());
        let delta =
            |a: &RunReport, b: &RunReport| signed(i128::from(value(&b.counters)) - i128::from(value(&a.counters)));
        rows.push((name.into(), with_delta(cells, &delta)));
    }
    if report.runs.iter().any(|run| run.cost.is_some()) {
        let money_delta = |amount: fn(&RunCost) -> f64| {
            move |a: &RunReport, b: &RunReport| match (&a.cost, &b.cost) {
                (Some(a), Some(b)) => money(amount(b) - amount(a), &b.currency, true),
                _ => String::new(),
            }
        };
        rows.push(("cost".into(), with_delta(column(report, cost), &money_delta(|c| c.total))));
        let cached = |run: &RunReport| run.cost.as_ref().map_or("-".into(), |c| c.cacheable_prompt_tokens.to_string());
        let cached_delta = |a: &RunReport, b: &RunReport| match (&a.cost, &b.cost) {
            (Some(a), Some(b)) => signed(i128::from(b.cacheable_prompt_tokens) - i128::from(a.cacheable_prompt_tokens)),
            _ => String::new(),
        };
        rows.push(("cached prompt tokens".into(), with_delta(column(report, cached), &cached_delta)));
        rows.push(("prefix breaks".into(), with_delta(column(report, prefix_breaks), &|_, _| String::new())));
        rows.push((
            "cost with cache".into(),
            with_delta(column(report, cost_with_cache), &money_delta(|c| c.total_with_cache)),
        ));
        if report.runs.iter().any(|run| run.cost.as_ref().is_some_and(|c| c.measured.is_some())) {
            let measured = |run: &RunReport| {
                run.cost.as_ref().and_then(|c| Some(money(c.measured?.cost, &c.currency, false))).unwrap_or("-".into())
            };
            rows.push(("cost as measured".into(), with_delta(column(report, measured), &|_, _| String::new())));
        }
    }
    table(out, width, Table { corner: "", header: &header, rows: &rows, parts: &[names.len()], side_by_side: 1 });
    if let Some(cost) = report.runs.iter().find_map(|run| run.cost.as_ref()) {
        let _ = writeln!(out, "{}", priced_as(cost));
    }
}

/// Where a run's shared prompt start broke: "2 (tools 1, restart 1)", "0".
fn prefix_breaks(run: &RunReport) -> String {
    let Some(cost) = &run.cost else { return "-".into() };
    let breaks = cost.prefix_breaks;
    let parts: Vec<String> =
        [("tools", breaks.tools_changed), ("system", breaks.system_changed), ("restart", breaks.restart)]
            .into_iter()
            .filter(|(_, n)| *n > 0)
            .map(|(why, n)| format!("{why} {n}"))
            .collect();
    let total = breaks.tools_changed + breaks.system_changed + breaks.restart;
    if parts.is_empty() {
        total.to_string()
    } else {
        format!("{total} ({})", parts.join(", "))
    }
}

fn cost_with_cache(run: &RunReport) -> String {
    run.cost.as_ref().map_or("-".into(), |cost| money(cost.total_with_cache, &cost.currency, false))
}

fn cost(run: &RunReport) -> String {
    run.cost.as_ref().map_or("-".into(), |cost| money(cost.total, &cost.currency, false))
}

/// The baseline next to every run: what each spent, and the prompt tokens each saved against it.
fn baseline_table(out: &mut String, baseline: &BaselineReport, report: &ComparisonReport, width: usize) {
    let _ = writeln!(
        out,
        "baseline: every section FULL and every tool described in full from the start ({} adapter)",
        baseline.run.adapter.name()
    );
    let mut header = vec!["baseline".to_owned()];
    header.extend(run_names(report));
    let runs: Vec<&RunReport> = std::iter::once(&baseline.run).chain(&report.runs).collect();
    let cells = |cell: &dyn Fn(&RunReport) -> String| runs.iter().map(|r| cell(r)).collect::<Vec<_>>();
    let mut rows = vec![("status".to_owned(), cells(&status))];
    for (name, value) in COUNTERS.iter().filter(|(name, _)| BASELINE_COUNTERS.contains(name)) {
        rows.push(((*name).to_owned(), cells(&|r: &RunReport| value(&r.counters).to_string())));
    }
    let mut saved = vec![String::new()];
    saved.extend(baseline.savings.iter().map(|s| match s.saved_percent {
        Some(percent) => format!("{} ({percent:.1}%)", s.saved_prompt_tokens),
        None => s.saved_prompt_tokens.to_string(),
    }));
    saved.resize(header.len(), String::new());
    rows.push(("prompt tokens saved".to_owned(), saved));
    if baseline.run.cost.is_some() {
        rows.push(("cost".to_owned(), cells(&cost)));
        rows.push(("cost with cache".to_owned(), cells(&cost_with_cache)));
    }
    table(out, width, Table { corner: "", header: &header, rows: &rows, parts: &[], side_by_side: 1 });
}

/// The counters the baseline table shows: what disclosure changes the cost of.
const BASELINE_COUNTERS: [&str; 4] = ["model calls", "tool calls", "prompt tokens", "completion tokens"];

fn status(run: &RunReport) -> String {
    run.status.name().to_owned()
}

fn final_text(run: &RunReport) -> String {
    run.final_text.as_deref().map_or("-".into(), |t| format!("{t:?}"))
}

fn signed(delta: i128) -> String {
    if delta > 0 {
        format!("+{delta}")
    } else {
        delta.to_string()
    }
}

fn column(report: &ComparisonReport, cell: impl Fn(&RunReport) -> String) -> Vec<String> {
    report.runs.iter().map(cell).collect()
}

/// A table: its corner, its header, and its rows (a label and a cell per column).
struct Table<'a> {
    corner: &'a str,
    header: &'a [String],
    rows: &'a [(String, Vec<String>)],
    /// Where a part of the columns starts besides the first (the runs' differences after the
    /// runs): a block of columns only spans parts that fit in it whole.
    parts: &'a [usize],
    /// How many columns a block shows at least, their cells cut to fit (the runs' events, two
    /// side by side); 1 for tables whose cells are better whole.
    side_by_side: usize,
}

/// Draws `table`, each column as wide as its widest cell, at most [`MAX_CELL`] and what `width`
/// leaves beside the labels. Columns that do not fit beside the others in `width` go on in a
/// block below, the labels repeated (and a block's last rows left out when it has nothing in
/// them).
fn table(out: &mut String, width: usize, table: Table<'_>) {
    let Table { corner, header, rows, parts, side_by_side } = table;
    let label_width = rows.iter().map(|(l, _)| l.chars().count()).chain([corner.chars().count()]).max().unwrap_or(0);
    let side_by_side = side_by_side.clamp(1, header.len().max(1));
    let room = (width.saturating_sub(label_width) / side_by_side).saturating_sub(GAP).clamp(MIN_CELL, MAX_CELL);
    let widths: Vec<usize> = (0..header.len())
        .map(|i| {
            let cells = rows.iter().map(|(_, cells)| cells[i].chars().count());
            cells.chain([header[i].chars().count()]).max().unwrap_or(0).min(room)
        })
        .collect();
    for (n, block) in blocks(&widths, width.saturating_sub(label_width), parts).into_iter().enumerate() {
        if n > 0 {
            out.push('\n');
        }
        let mut line = |label: &str, cells: &[String]| {
            let mut text = format!("{label:<label_width$}");
            for (cell, width) in cells[block.clone()].iter().zip(&widths[block.clone()]) {
                let _ = write!(text, "{:GAP$}{:<width$}", "", cut(cell, *width), width = *width);
            }
            out.push_str(text.trim_end());
            out.push('\n');
        };
        line(corner, header);
        let filled = rows.iter().rposition(|(_, cells)| cells[block.clone()].iter().any(|c| !c.is_empty()));
        for (label, cells) in &rows[..filled.map_or(0, |last| last + 1)] {
            line(label, cells);
        }
    }
}

/// The columns of each block, each block fitting in `room` (the width beside the labels) when a
/// column alone does: a part (see [`Table::parts`]) joins the block before it only when it fits
/// there whole, and a part that fits in no block is shared among as few blocks as it needs, as
/// evenly as they fit (two and two rather than three and one).
fn blocks(widths: &[usize], room: usize, parts: &[usize]) -> Vec<Range<usize>> {
    let needs = |columns: Range<usize>| widths[columns].iter().map(|w| GAP + w).sum::<usize>();
    let starts = std::iter::once(0).chain(parts.iter().copied().filter(|&at| 0 < at && at < widths.len()));
    let ends = starts.clone().skip(1).chain([widths.len()]);
    let mut blocks: Vec<Range<usize>> = Vec::new();
    for part in starts.zip(ends).map(|(start, end)| start..end) {
        match blocks.last_mut() {
            Some(last) if needs(last.clone()) + needs(part.clone()) <= room => last.end = part.end,
            _ => {
                let count = part.len();
                let fitting = (1..=count).map(|blocks| count.div_ceil(blocks)).find_map(|size| {
                    let chunks: Vec<Range<usize>> =
                        part.clone().step_by(size).map(|start| start..(start + size).min(part.end)).collect();
                    chunks.iter().all(|chunk| chunk.len() == 1 || needs(chunk.clone()) <= room).then_some(chunks)
                });
                blocks.extend(fitting.unwrap_or_default());
            }
        }
    }
    blocks
}

/// `text` in at most `width` characters: cut with "…" when longer.
fn cut(text: &str, width: usize) -> String {
    match text.char_indices().nth(width.saturating_sub(1)) {
        Some((at, _)) if text.chars().count() > width => format!("{}…", &text[..at]),
        _ => text.to_owned(),
    }
}

/// One line for an event; the reason of a fallback goes to `reasons`, and the line names it.
fn describe(event: &Event, reasons: &mut Reasons) -> String {
    let what = match &event.kind {
        EventKind::RunStarted { adapter, .. } => format!("run started ({})", adapter.name()),
        EventKind::AdapterSubstituted { adapter, reason, .. } => {
            format!("runs as {} (reason {})", adapter.name(), reasons.number(reason))
        }
        EventKind::ToolsDiscovered { source, tier, tools, error } => {
            let reason = error.as_ref().map(|error| format!("reason {}", reasons.number(error)));
            crate::event_lines::discovery_text(source, *tier, tools, reason.as_deref())
        }
        EventKind::ModelCall { call_index, tools_offered, prompt_tokens, .. } => {
            format!("model call {call_index} ({} tools, {prompt_tokens} tokens)", tools_offered.len())
        }
        EventKind::ToolCall { name, args, success: true, .. } => format!("{name} {args} ok"),
        EventKind::ToolCall { name, args, result, .. } => {
            format!("{name} {args} failed: {}", result.as_str().unwrap_or_default())
        }
        EventKind::ToolsInjected { section_key, tool_names, delivery } => {
            let from = section_key.as_deref().unwrap_or("plugin");
            format!("{} {} ({from})", delivery.verb(), tool_names.join(", "))
        }
        EventKind::ToolInjectionSkipped { tool_name, .. } => {
            format!("skipped {tool_name} (already offered)")
        }
        EventKind::LoopWarning { found, .. } => format!("loop warning: {}", found.summary()),
        EventKind::ToolsRemoved { tool_names } => format!("removed {}", tool_names.join(", ")),
        EventKind::ToolsListed { tool_names } => format!("listed {} tools", tool_names.len()),
        EventKind::ToolNotShown { tool_name, .. } => format!("{tool_name} not called: not shown"),
        EventKind::ToolsModified { tool_names } => format!("redefined {}", tool_names.join(", ")),
        EventKind::UserTurn { turn } => format!("user turn {turn}"),
        EventKind::ToolsPending { added, removed, modified, shows, .. } => {
            let shows = match shows {
                unfold_engine::PendingShows::AtModelCall(call) => format!("shows at call {call}"),
                unfold_engine::PendingShows::AtTurn(turn) => format!("shows at turn {turn}"),
                unfold_engine::PendingShows::Never => "never shown".to_owned(),
            };
            format!("pending {} ({shows})", tool_lists(added, removed, modified))
        }
        EventKind::VisibilityChanged { section_keys } => {
            format!("expanded {}", section_keys.join(", "))
        }
        EventKind::Restart { reason, section_keys, .. } => {
            let reason =
                serde_json::to_value(reason).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default();
            format!("RESTART {reason} {}", section_keys.join(", ")).trim_end().to_owned()
        }
        EventKind::ToolAvailabilityChanged { at_model_call, added, removed, source, modified } => {
            let from = source.as_deref().map(|s| format!(" ({s})")).unwrap_or_default();
            format!("tools changed before call {at_model_call}{from}: {}", tool_lists(added, removed, modified))
        }
        EventKind::LimitReached { limit, value } => {
            let limit =
                serde_json::to_value(limit).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default();
            format!("LIMIT {limit} ({value})")
        }
        EventKind::RunCompleted { status, .. } => {
            format!("run {}", status.name())
        }
    };
    format!("{}: {what}", event.attempt)
}

/// "+[deploy] -[grep] ~[lookup]": tools added, removed and (when any) given a new definition.
fn tool_lists(added: &[String], removed: &[String], modified: &[String]) -> String {
    let modified = if modified.is_empty() { String::new() } else { format!(" ~[{}]", modified.join(", ")) };
    format!("+[{}] -[{}]{modified}", added.join(", "), removed.join(", "))
}
