//! The first divergence of two runs of one scenario: their steps (tool calls, and restarts, which
//! throw calls away) aligned with a longest common subsequence, and the first place they differ
//! as a typed value with one line for a person, e.g. "restart at call 2 discarded lookup(7); it
//! was redone at call 3". Derived from the event logs alone, like the counters.

use std::collections::HashMap;
use std::hash::Hash;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::events::{AdapterKind, EventKind, RestartReason, RunReport, RunStatus};
use crate::lane::Lane;

/// How two runs of a comparison differ: the first run and a later one, in the order asked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Divergence {
    /// The first run's lane.
    pub left: Lane,
    /// The second run's lane.
    pub right: Lane,
    /// The first place they differ; `None` when they make the same tool calls with the same
    /// results, restart at the same places and end the same way.
    pub first: Option<FirstDivergence>,
}

/// The divergences of a report: a list, or the one object (or `null`) of a report written when
/// comparisons had two runs.
pub(crate) fn one_or_many<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Vec<Divergence>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany {
        Many(Vec<Divergence>),
        One(Box<Divergence>),
    }
    Ok(match Option::<OneOrMany>::deserialize(deserializer)? {
        Some(OneOrMany::Many(all)) => all,
        Some(OneOrMany::One(one)) => vec![*one],
        None => Vec::new(),
    })
}

/// The first place two runs differ.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct FirstDivergence {
    /// What differs there.
    #[serde(flatten)]
    pub kind: DivergenceKind,
    /// The left run's step there; `None` when only the right run has one.
    pub left_at: Option<RunPlace>,
    /// The right run's step there; `None` when only the left run has one.
    pub right_at: Option<RunPlace>,
    /// One line for a person.
    pub explanation: String,
}

/// What differs at the first divergence, tagged by `kind`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum DivergenceKind {
    /// One run restarts where the other goes on: the calls of the halted attempt that the run
    /// made again after it are `redone`.
    Restart {
        /// The run that restarts.
        run: Lane,
        /// Why it restarts.
        reason: RestartReason,
        /// The sections the restart expands.
        section_keys: Vec<String>,
        /// The discarded calls that were made again, in order.
        redone: Vec<RedoneCall>,
    },
    /// Only one run makes a call here.
    ExtraCall {
        /// The run that makes it.
        run: Lane,
    },
    /// The runs call different tools here.
    DifferentCall,
    /// The runs call the same tool with different arguments here.
    DifferentArguments,
    /// The same call succeeds in one run and fails in the other, or returns something else.
    DifferentResult,
    /// The runs make the same calls but end differently (status or final answer).
    DifferentOutcome,
}

/// A step of a run: the event, its attempt and the model call it belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct RunPlace {
    /// The event's `seq` in the run's log (a `tool_call`, `restart` or `run_completed`).
    pub seq: u32,
    /// The event's attempt; for a restart, the attempt it ends.
    pub attempt: u32,
    /// The model call it belongs to: the call that asked for a tool, or the last call before a
    /// restart or the end (0 before the first call).
    pub call_index: u32,
}

/// A call a restart discarded and the run made again.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct RedoneCall {
    /// The tool.
    pub name: String,
    /// Its arguments.
    #[cfg_attr(feature = "specta", specta(type = unfold_documents::json_type::JsonValue))]
    pub args: Value,
    /// The discarded call.
    pub discarded: RunPlace,
    /// The call that made it again.
    pub redone: RunPlace,
}

impl Divergence {
    /// How `right` differs from `left`.
    pub fn between(left: &RunReport, right: &RunReport) -> Divergence {
        Divergence { left: left.lane(), right: right.lane(), first: first_divergence(left, right) }
    }
}

/// The longest a text quoted in an explanation gets before it is cut.
const MAX_QUOTED: usize = 40;

/// Alignment tables up to this many cells (8 MiB) are exact; larger ones align greedily.
pub const MAX_ALIGNMENT_CELLS: usize = 1 << 22;

/// The pairs `(i, j)` with `a[i] == b[j]` of a longest common subsequence of `a` and `b`, in
/// order. Equal elements at the front always pair up, so the first unpaired element of either
/// side is the first place they differ; where two alignments are equally long, `b`'s element is
/// left unpaired first. When the part between the common prefix and suffix would need a table
/// of more than [`MAX_ALIGNMENT_CELLS`], that part pairs each element with its nearest next match
/// instead, so no run is too long to compare.
pub fn common_subsequence<T: Eq + Hash>(a: &[T], b: &[T]) -> Vec<(usize, usize)> {
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let (a_rest, b_rest) = (&a[prefix..], &b[prefix..]);
    let suffix = a_rest.iter().rev().zip(b_rest.iter().rev()).take_while(|(x, y)| x == y).count();
    let (a_mid, b_mid) = (&a_rest[..a_rest.len() - suffix], &b_rest[..b_rest.len() - suffix]);
    let middle = if (a_mid.len() + 1).saturating_mul(b_mid.len() + 1) <= MAX_ALIGNMENT_CELLS {
        exact_alignment(a_mid, b_mid)
    } else {
        nearest_alignment(a_mid, b_mid)
    };
    let (a_tail, b_tail) = (prefix + a_mid.len(), prefix + b_mid.len());
    (0..prefix)
        .map(|k| (k, k))
        .chain(middle.into_iter().map(|(i, j)| (prefix + i, prefix + j)))
        .chain((0..suffix).map(|k| (a_tail + k, b_tail + k)))
        .collect()
}

/// The classic table of LCS lengths of every pair of suffixes, walked from the front. Lengths fit
/// `u16`: the table is at most [`MAX_ALIGNMENT_CELLS`], so the shorter side is at most 2048 long.
fn exact_alignment<T: Eq>(a: &[T], b: &[T]) -> Vec<(usize, usize)> {
    let width = b.len() + 1;
    let mut table = vec![0u16; (a.len() + 1) * width];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            table[i * width + j] = if a[i] == b[j] {
                table[(i + 1) * width + j + 1] + 1
            } else {
                table[(i + 1) * width + j].max(table[i * width + j + 1])
            };
        }
    }
    let (mut i, mut j, mut pairs) = (0, 0, Vec::new());
    while i < a.len() && j < b.len() {
        if a[i] == b[j] {
            pairs.push((i, j));
            i += 1;
            j += 1;
        } else if table[i * width + j + 1] >= table[(i + 1) * width + j] {
            j += 1;
        } else {
            i += 1;
        }
    }
    pairs
}

/// From each pair on, the next pair is the nearest match (fewest elements skipped on both sides).
fn nearest_alignment<T: Eq + Hash>(a: &[T], b: &[T]) -> Vec<(usize, usize)> {
    let mut positions: HashMap<&T, Vec<usize>> = HashMap::new();
    for (j, element) in b.iter().enumerate() {
        positions.entry(element).or_default().push(j);
    }
    let (mut i, mut j, mut pairs) = (0, 0, Vec::new());
    loop {
        let mut best: Option<(usize, usize)> = None;
        for (candidate, element) in a.iter().enumerate().skip(i) {
            let skipped = |(ci, cj): (usize, usize)| (ci - i) + (cj - j);
            if best.is_some_and(|pair| candidate - i >= skipped(pair)) {
                break;
            }
            let next_in_b = positions.get(element).and_then(|list| list.get(list.partition_point(|&p| p < j)));
            if let Some(&cj) = next_in_b {
                if best.is_none_or(|pair| skipped((candidate, cj)) < skipped(pair)) {
                    best = Some((candidate, cj));
                }
            }
        }
        let Some((bi, bj)) = best else { return pairs };
        pairs.push((bi, bj));
        (i, j) = (bi + 1, bj + 1);
    }
}

/// What a step is, for the alignment: a call by its tool and arguments (keys sorted), a restart by
/// its reason and sections.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum StepKey {
    Call { name: String, args: String },
    Restart { reason: &'static str, section_keys: Vec<String> },
}

/// One step of a run, with what the explanation needs.
#[derive(Debug, Clone)]
struct Step<'r> {
    key: StepKey,
    at: RunPlace,
    action: Action<'r>,
}

#[derive(Debug, Clone, Copy)]
enum Action<'r> {
    Call { name: &'r str, args: &'r Value, success: bool, result: &'r Value },
    Restart { reason: RestartReason, section_keys: &'r [String] },
}

fn steps(run: &RunReport) -> Vec<Step<'_>> {
    let mut last_call = 0;
    let mut steps = Vec::new();
    for event in &run.events {
        let (key, action, call_index) = match &event.kind {
            EventKind::ModelCall { call_index, .. } => {
                last_call = *call_index;
                continue;
            }
            EventKind::ToolCall { call_index, name, args, success, result, .. } => (
                StepKey::Call { name: name.clone(), args: canonical(args) },
                Action::Call { name, args, success: *success, result },
                *call_index,
            ),
            EventKind::Restart { reason, section_keys, .. } => (
                StepKey::Restart { reason: reason_name(*reason), section_keys: section_keys.clone() },
                Action::Restart { reason: *reason, section_keys },
                last_call,
            ),
            _ => continue,
        };
        steps.push(Step { key, at: RunPlace { seq: event.seq, attempt: event.attempt, call_index }, action });
    }
    steps
}

/// JSON text with every object's keys sorted: arguments that differ only in key order are the same.
fn canonical(value: &Value) -> String {
    match value {
        Value::Object(fields) => {
            let mut fields: Vec<(&String, &Value)> = fields.iter().collect();
            fields.sort_by_key(|(key, _)| *key);
            let inner: Vec<String> = fields
                .iter()
                .map(|(key, value)| format!("{}:{}", Value::from(key.as_str()), canonical(value)))
                .collect();
            format!("{{{}}}", inner.join(","))
        }
        Value::Array(items) => format!("[{}]", items.iter().map(canonical).collect::<Vec<_>>().join(",")),
        other => other.to_string(),
    }
}

fn reason_name(reason: RestartReason) -> &'static str {
    match reason {
        RestartReason::VisibilityExpansion => "visibility_expansion",
        RestartReason::ToolsPicked => "tools_picked",
        RestartReason::ToolAvailabilityChanged => "tool_availability_changed",
    }
}

/// The two runs being compared, with their steps.
struct Sides<'r> {
    left: &'r RunReport,
    right: &'r RunReport,
    left_steps: Vec<Step<'r>>,
    right_steps: Vec<Step<'r>>,
}

fn first_divergence(left: &RunReport, right: &RunReport) -> Option<FirstDivergence> {
    let sides = Sides { left, right, left_steps: steps(left), right_steps: steps(right) };
    let (a, b) = (&sides.left_steps, &sides.right_steps);
    let common = a.iter().zip(b).take_while(|(x, y)| x.key == y.key).count();
    if let Some(k) = (0..common).find(|&k| !same_result(&a[k], &b[k])) {
        return Some(sides.different_result(k));
    }
    let keys = |steps: &[Step<'_>]| steps.iter().map(|s| s.key.clone()).collect::<Vec<_>>();
    let resync = common_subsequence(&keys(&a[common..]), &keys(&b[common..])).first().copied();
    let (left_gap, right_gap) = match resync {
        Some((i, j)) => (common..common + i, common..common + j),
        None => (common..a.len(), common..b.len()),
    };
    let next = resync.map(|(i, _)| &a[common + i]);
    let first_left = a.get(left_gap.clone()).and_then(<[Step<'_>]>::first);
    let first_right = b.get(right_gap.clone()).and_then(<[Step<'_>]>::first);
    if let (Some(step), Some((reason, keys))) = (first_left, first_left.and_then(as_restart)) {
        return Some(sides.restart(Side::Left, step, reason, keys));
    }
    if let (Some(step), Some((reason, keys))) = (first_right, first_right.and_then(as_restart)) {
        return Some(sides.restart(Side::Right, step, reason, keys));
    }
    match (first_left, first_right) {
        (Some(x), Some(y)) => Some(sides.different_call(x, y)),
        (Some(x), None) => Some(sides.extra_call(Side::Left, x, left_gap.len(), next)),
        (None, Some(y)) => Some(sides.extra_call(Side::Right, y, right_gap.len(), next)),
        (None, None) => sides.different_outcome(),
    }
}

fn as_restart<'r>(step: &Step<'r>) -> Option<(RestartReason, &'r [String])> {
    match step.action {
        Action::Restart { reason, section_keys } => Some((reason, section_keys)),
        Action::Call { .. } => None,
    }
}

fn same_result(a: &Step<'_>, b: &Step<'_>) -> bool {
    match (a.action, b.action) {
        (Action::Call { success: sa, result: ra, .. }, Action::Call { success: sb, result: rb, .. }) => {
            sa == sb && canonical(ra) == canonical(rb)
        }
        _ => true,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Side {
    Left,
    Right,
}

impl<'r> Sides<'r> {
    fn run(&self, side: Side) -> &'r RunReport {
        match side {
            Side::Left => self.left,
            Side::Right => self.right,
        }
    }

    fn steps(&self, side: Side) -> &[Step<'r>] {
        match side {
            Side::Left => &self.left_steps,
            Side::Right => &self.right_steps,
        }
    }

    fn name(&self, side: Side) -> String {
        self.run(side).lane().name().to_owned()
    }

    fn one_sided(&self, side: Side, kind: DivergenceKind, at: RunPlace, explanation: String) -> FirstDivergence {
        let (left_at, right_at) = match side {
            Side::Left => (Some(at), None),
            Side::Right => (None, Some(at)),
        };
        FirstDivergence { kind, left_at, right_at, explanation }
    }

    fn restart(&self, side: Side, step: &Step<'r>, reason: RestartReason, section_keys: &[String]) -> FirstDivergence {
        let redone = redone_calls(self.steps(side), step);
        let run = self.run(side).lane();
        let who = match run.adapter() {
            Some(AdapterKind::Restart) => "restart".to_owned(),
            _ => format!("restart in the {run} run"),
        };
        let when = match reason {
            RestartReason::ToolAvailabilityChanged => format!("before call {}", step.at.call_index + 1),
            _ => format!("at call {}", step.at.call_index),
        };
        let explanation = if redone.is_empty() {
            let what = match reason {
                RestartReason::VisibilityExpansion => format!("expanded {}", section_keys.join(", ")),
                RestartReason::ToolsPicked => "applied the picked tools".to_owned(),
                RestartReason::ToolAvailabilityChanged => "applied a change of the tool list".to_owned(),
            };
            format!("{who} {when} {what}; no call had to be redone")
        } else {
            let calls = listed(redone.iter().map(|r| call_text(&r.name, &r.args)).collect());
            let at = listed(redone.iter().map(|r| r.redone.call_index.to_string()).collect());
            match redone.len() {
                1 => format!("{who} {when} discarded {calls}; it was redone at call {at}"),
                _ => format!("{who} {when} discarded {calls}; they were redone at calls {at}"),
            }
        };
        let kind = DivergenceKind::Restart { run, reason, section_keys: section_keys.to_vec(), redone };
        self.one_sided(side, kind, step.at, explanation)
    }

    fn extra_call(&self, side: Side, step: &Step<'r>, gap: usize, next: Option<&Step<'r>>) -> FirstDivergence {
        let other = match side {
            Side::Left => Side::Right,
            Side::Right => Side::Left,
        };
        let more = match gap {
            0 | 1 => String::new(),
            n => format!(" and {} more", n - 1),
        };
        let then = match next.map(|s| s.action) {
            Some(Action::Call { name, args, .. }) => format!("then both call {}", call_text(name, args)),
            Some(Action::Restart { .. }) => "then both restart".to_owned(),
            None => format!("{} makes no more calls", self.name(other)),
        };
        let explanation =
            format!("only {} calls {} (call {}){more}; {then}", self.name(side), step_text(step), step.at.call_index);
        self.one_sided(side, DivergenceKind::ExtraCall { run: self.run(side).lane() }, step.at, explanation)
    }

    fn different_call(&self, left: &Step<'r>, right: &Step<'r>) -> FirstDivergence {
        let same_tool = matches!(
            (left.action, right.action),
            (Action::Call { name: a, .. }, Action::Call { name: b, .. }) if a == b
        );
        let kind = if same_tool { DivergenceKind::DifferentArguments } else { DivergenceKind::DifferentCall };
        let explanation = format!(
            "{} calls {} (call {}) where {} calls {} (call {})",
            self.name(Side::Left),
            step_text(left),
            left.at.call_index,
            self.name(Side::Right),
            step_text(right),
            right.at.call_index
        );
        FirstDivergence { kind, left_at: Some(left.at), right_at: Some(right.at), explanation }
    }

    fn different_result(&self, k: usize) -> FirstDivergence {
        let (left, right) = (&self.left_steps[k], &self.right_steps[k]);
        let explanation = format!(
            "{} returns different results: {} in {} (call {}), {} in {} (call {})",
            step_text(left),
            result_text(left),
            self.name(Side::Left),
            left.at.call_index,
            result_text(right),
            self.name(Side::Right),
            right.at.call_index
        );
        FirstDivergence {
            kind: DivergenceKind::DifferentResult,
            left_at: Some(left.at),
            right_at: Some(right.at),
            explanation,
        }
    }

    fn different_outcome(&self) -> Option<FirstDivergence> {
        let (left, right) = (self.left, self.right);
        if left.status == right.status && left.final_text == right.final_text {
            return None;
        }
        let explanation =
            format!("{} {} where {} {}", left.lane(), outcome_text(left), right.lane(), outcome_text(right));
        Some(FirstDivergence {
            kind: DivergenceKind::DifferentOutcome,
            left_at: end_place(left),
            right_at: end_place(right),
            explanation,
        })
    }
}

/// The calls of the attempt `restart` ends that the run made again after it, each matched with
/// the first later call of the same tool and arguments not matched yet.
fn redone_calls(steps: &[Step<'_>], restart: &Step<'_>) -> Vec<RedoneCall> {
    let Some(at) = steps.iter().position(|s| s.at.seq == restart.at.seq) else { return Vec::new() };
    let later = &steps[at + 1..];
    let mut used = vec![false; later.len()];
    let mut redone = Vec::new();
    for discarded in steps[..at].iter().filter(|s| s.at.attempt == restart.at.attempt) {
        let Action::Call { name, args, .. } = discarded.action else { continue };
        let again = later.iter().enumerate().position(|(i, s)| !used[i] && s.key == discarded.key);
        if let Some(i) = again {
            used[i] = true;
            redone.push(RedoneCall {
                name: name.to_owned(),
                args: args.clone(),
                discarded: discarded.at,
                redone: later[i].at,
            });
        }
    }
    redone
}

fn end_place(run: &RunReport) -> Option<RunPlace> {
    let end = run.events.iter().rfind(|e| matches!(e.kind, EventKind::RunCompleted { .. }))?;
    let call_index = run
        .events
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::ModelCall { call_index, .. } => Some(call_index),
            _ => None,
        })
        .next_back()
        .unwrap_or(0);
    Some(RunPlace { seq: end.seq, attempt: end.attempt, call_index })
}

/// `lookup(7)`, `search("login")`: the tool and its argument values, compact.
fn call_text(name: &str, args: &Value) -> String {
    let values: Vec<String> = match args {
        Value::Object(fields) => fields.values().map(|v| cut(&v.to_string())).collect(),
        other => vec![cut(&other.to_string())],
    };
    format!("{name}({})", values.join(", "))
}

fn step_text(step: &Step<'_>) -> String {
    match step.action {
        Action::Call { name, args, .. } => call_text(name, args),
        Action::Restart { reason, .. } => format!("restart ({})", reason_name(reason)),
    }
}

fn result_text(step: &Step<'_>) -> String {
    match step.action {
        Action::Call { success, result, .. } => {
            let shown = match result {
                Value::String(text) => cut(&format!("{text:?}")),
                other => cut(&other.to_string()),
            };
            if success {
                format!("ok {shown}")
            } else {
                format!("failed {shown}")
            }
        }
        Action::Restart { .. } => String::new(),
    }
}

fn outcome_text(run: &RunReport) -> String {
    match run.status {
        RunStatus::Completed => match &run.final_text {
            Some(text) => format!("completes with {}", cut(&format!("{text:?}"))),
            None => "completes without an answer".to_owned(),
        },
        RunStatus::TurnLimit => "stops at the model call limit".to_owned(),
        RunStatus::RestartLimit => "stops at the restart limit".to_owned(),
        RunStatus::LoopDetected => "stops on a repeated tool call".to_owned(),
        RunStatus::MaxTokens => "is cut at the output-token limit".to_owned(),
        RunStatus::Error => {
            let error = run.events.iter().rev().find_map(|e| match &e.kind {
                EventKind::RunCompleted { error, .. } => error.clone(),
                _ => None,
            });
            match error {
                Some(error) => format!("fails: {}", cut(&error)),
                None => "fails".to_owned(),
            }
        }
    }
}

/// "a", "a and b", "a, b and c".
fn listed(items: Vec<String>) -> String {
    match items.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => items.concat(),
    }
}

/// `text` up to [`MAX_QUOTED`] characters, with `…` where it was cut; never a line break.
fn cut(text: &str) -> String {
    let one_line = text.replace(['\n', '\r'], " ");
    match one_line.char_indices().nth(MAX_QUOTED) {
        Some((at, _)) => format!("{}…", &one_line[..at]),
        None => one_line,
    }
}
