//! The human form of a study report: how it ran, a row per lane (each metric's mean ± sd, the
//! success rate with its interval), then each pair's verdict and the A/A control's.

use std::fmt::Write;

use unfold_engine::study::{CacheFairness, LaneSummary, StopReason, StudyReport};

use crate::columns::columns;
use crate::money::money;

/// `report` drawn as lines of text.
pub fn draw(report: &StudyReport) -> String {
    let fairness = match report.of.cache_fairness {
        CacheFairness::Nonce => "each conversation's prompts start with a nonce of their own",
        CacheFairness::Warmup => "a warm-up call before each repetition",
        CacheFairness::Scripted => "scripted: no cache to make fair",
    };
    let mut out = format!(
        "study of {} · {}: {} repetitions, lanes taking turns at running first; cache: {fairness}\n\n",
        report.of.template, report.of.scenario, report.of.repeat
    );
    let header =
        ["lane", "completed", "prompt tokens", "completion tokens", "model calls", "restarts", "cost", "a run"];
    let rows: Vec<[String; 8]> = report.lanes.iter().map(|lane| row(&lane.lane, &lane.summary)).collect();
    out.push_str(&columns(header, &rows));
    out.push_str("(mean ± standard deviation; completed with its 95 % Wilson interval)\n\n");
    for pair in &report.pairs {
        let _ = writeln!(out, "{} against {}: {}", pair.a, pair.b, pair.verdict);
    }
    if let Some(aa) = &report.aa {
        let _ = writeln!(out, "A/A control, {} run again: {}", aa.b, aa.verdict);
    }
    if let Some(stop) = &report.stopped {
        let spent = money(stop.spent_usd, "USD", false);
        let _ = write!(out, "\nstopped after {} of {} repetitions: they cost {spent}", stop.after, report.of.repeat);
        if let Some(left_out) = stop.left_out_usd {
            let _ = write!(out, " (and {} on repetitions left out)", money(left_out, "USD", false));
        }
        let _ = match (stop.reason, stop.next_usd, stop.max_cost_usd) {
            (StopReason::MaxCost, Some(next), Some(max)) => writeln!(
                out,
                ", and the next conversation, about {}, would pass --max-cost {}",
                money(next, "USD", false),
                money(max, "USD", false)
            ),
            _ => writeln!(out, "; it was cancelled"),
        };
    }
    out
}

fn row(lane: &str, summary: &LaneSummary) -> [String; 8] {
    let spread = |metric: &str, shown: &dyn Fn(f64) -> String| match summary.metrics.get(metric) {
        Some(m) => format!("{} ± {}", shown(m.mean), shown(m.sd)),
        None => "-".to_owned(),
    };
    let count = |value: f64| format!("{value:.1}");
    let tokens = |value: f64| format!("{value:.0}");
    let success = &summary.success;
    let completed = match success.wilson95 {
        Some([lo, hi]) => format!("{}/{} [{:.0}, {:.0}] %", success.count, success.n, lo * 100.0, hi * 100.0),
        None => "-".to_owned(),
    };
    [
        lane.to_owned(),
        completed,
        spread("prompt_tokens", &tokens),
        spread("completion_tokens", &tokens),
        spread("model_calls", &count),
        spread("restarts", &count),
        spread("cost_usd", &|value| money(value, "USD", false)),
        spread("wall_ms", &|value| format!("{:.2} s", value / 1000.0)),
    ]
}
