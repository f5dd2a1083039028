//! A comparison as Markdown to paste into a pull request or a doc (`unfold compare --markdown`,
//! the app's Export): the verdict first, then each lane beside the all-FULL baseline in one table,
//! why each lane fared so, the first divergence and how the runs were priced. GitHub-flavoured: a
//! pipe table, figures right-aligned with thousands separators, one minus sign (−).

use std::fmt::Write;

use unfold_engine::costs::{money_text, priced_as_text};
use unfold_engine::verdict::{Difference, LaneVerdict, Standing, Verdict, BASELINE};
use unfold_engine::{ComparisonReport, RunReport};

/// `report` as Markdown.
pub fn comparison_markdown(report: &ComparisonReport) -> String {
    let mut out = format!("### Unfold: {} · {}\n\n", escape(&report.template), escape(&report.scenario));
    if let Some(verdict) = &report.verdict {
        let _ = writeln!(out, "**Verdict:** {}\n", escape(&verdict.headline));
        for note in &verdict.notes {
            let _ = writeln!(out, "> {}\n", escape(note));
        }
    }
    figures_table(&mut out, report);
    if let Some(verdict) = &report.verdict {
        out.push('\n');
        for lane in &verdict.lanes {
            let standing = standing_text(lane.standing);
            let _ = writeln!(out, "- **{}** {standing}: {}", escape(&lane.lane), escape(&lane.because));
        }
    }
    divergences(&mut out, report);
    if let Some(cost) = report.runs.iter().find_map(|run| run.cost.as_ref()) {
        let _ = writeln!(out, "\n_{}_", escape(&priced_as_text(cost)));
    }
    out
}

/// One column per run (the baseline first, when there is one), one row per figure.
fn figures_table(out: &mut String, report: &ComparisonReport) {
    let baseline = report.baseline.as_ref().map(|baseline| &baseline.run);
    let runs: Vec<(String, &RunReport)> = baseline
        .map(|run| (BASELINE.to_owned(), run))
        .into_iter()
        .chain(report.runs.iter().map(|run| (run.lane().to_string(), run)))
        .collect();
    let verdict_of = |name: &str| report.verdict.as_ref().and_then(|verdict| lane_of(verdict, name));
    let mut rows: Vec<(&str, Vec<String>)> = Vec::new();
    if report.verdict.is_some() {
        rows.push((
            "standing",
            runs.iter()
                .map(|(name, _)| verdict_of(name).map_or("baseline".into(), |l| standing_text(l.standing).to_owned()))
                .collect(),
        ));
    }
    rows.push(("status", runs.iter().map(|(_, run)| run.status.name().to_owned()).collect()));
    rows.push(("model calls", runs.iter().map(|(_, run)| grouped(run.counters.model_calls.into())).collect()));
    rows.push(("restarts", runs.iter().map(|(_, run)| grouped(run.counters.restarts.into())).collect()));
    rows.push(("tool calls", runs.iter().map(|(_, run)| grouped(run.counters.tool_calls.into())).collect()));
    rows.push(("prompt tokens", runs.iter().map(|(_, run)| grouped(run.counters.prompt_tokens)).collect()));
    if report.verdict.is_some() {
        rows.push((
            "vs all-FULL",
            runs.iter()
                .map(|(name, _)| verdict_of(name).map_or(String::new(), |l| tokens_change(&l.prompt_tokens)))
                .collect(),
        ));
    }
    if runs.iter().any(|(_, run)| run.cost.is_some()) {
        let money = |run: &RunReport, total: fn(&unfold_engine::costs::RunCost) -> f64| {
            run.cost.as_ref().map_or("-".to_owned(), |cost| money_text(total(cost), &cost.currency, false))
        };
        rows.push(("cost", runs.iter().map(|(_, run)| money(run, |cost| cost.total)).collect()));
        rows.push(("cost with cache", runs.iter().map(|(_, run)| money(run, |cost| cost.total_with_cache)).collect()));
        if let Some(currency) = report.verdict.as_ref().and_then(|verdict| verdict.currency.as_deref()) {
            let change =
                |lane: &LaneVerdict| lane.cost_with_cache.map_or(String::new(), |cost| money_change(&cost, currency));
            rows.push((
                "vs all-FULL with cache",
                runs.iter().map(|(name, _)| verdict_of(name).map_or(String::new(), change)).collect(),
            ));
        }
    }
    let header: Vec<String> = runs.iter().map(|(name, _)| escape(name)).collect();
    let _ = writeln!(out, "| | {} |", header.join(" | "));
    let _ = writeln!(out, "|---|{}", "---:|".repeat(runs.len()));
    for (label, cells) in rows {
        let cells: Vec<String> = cells.iter().map(|cell| escape(cell)).collect();
        let _ = writeln!(out, "| {label} | {} |", cells.join(" | "));
    }
}

fn lane_of<'v>(verdict: &'v Verdict, name: &str) -> Option<&'v LaneVerdict> {
    verdict.lanes.iter().find(|lane| lane.lane == name)
}

/// The first divergence of each later run from the first.
fn divergences(out: &mut String, report: &ComparisonReport) {
    for divergence in &report.divergences {
        let line = match &divergence.first {
            Some(first) => first.explanation.as_str(),
            None => "none (the same tool calls with the same results, the same ending)",
        };
        let _ = writeln!(
            out,
            "\n**First divergence**, {} against {}: {}",
            escape(divergence.right.name()),
            escape(divergence.left.name()),
            escape(line)
        );
    }
}

fn standing_text(standing: Standing) -> &'static str {
    match standing {
        Standing::Wins => "wins",
        Standing::BeatsBaseline => "beats all-FULL",
        Standing::LosesToBaseline => "loses to all-FULL",
        Standing::Failed => "fell short",
    }
}

/// "−533 (−80.3 %)", "0".
fn tokens_change(tokens: &Difference) -> String {
    let change = tokens.change.round() as i64;
    with_percent(format!("{}{}", sign(tokens.change), grouped(change.unsigned_abs())), tokens)
}

/// "+$0.001719 (+76.5 %)".
fn money_change(cost: &Difference, currency: &str) -> String {
    with_percent(format!("{}{}", sign(cost.change), money_text(cost.change.abs(), currency, false)), cost)
}

fn with_percent(text: String, difference: &Difference) -> String {
    match difference.percent {
        Some(percent) if difference.change != 0.0 => format!("{text} ({}{:.1} %)", sign(percent), percent.abs()),
        _ => text,
    }
}

fn sign(value: f64) -> &'static str {
    if value > 0.0 {
        "+"
    } else if value < 0.0 {
        "\u{2212}"
    } else {
        ""
    }
}

/// 18854 as "18,854".
fn grouped(value: u64) -> String {
    let digits = value.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// Text as it reads in Markdown: the characters Markdown would take as markup escaped, a line
/// break as a space (a table row is one line).
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '|' | '#' | '$' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' => out.push(' '),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_are_grouped_and_markup_is_escaped() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(18854), "18,854");
        assert_eq!(grouped(1_234_567), "1,234,567");
        assert_eq!(escape("a|b *c*\nd"), "a\\|b \\*c\\* d");
    }
}
