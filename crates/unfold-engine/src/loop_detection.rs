//! Loop detection as km_tools built it: a tool call (its name and arguments) made again and again
//! within a window of recent calls, or a sequence of two or three calls repeating. The first time
//! a loop is seen the model is warned in the tool result; if it goes on looping, the run ends
//! with `loop_detected`. A restart starts the count again: the calls it redoes are the replay a
//! comparison measures, not the model looping.

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::provider::ToolCall;

/// The same call this many times within [`EXACT_WINDOW`] calls is a loop.
pub const EXACT_REPEATS: usize = 3;
/// The calls the exact rule looks back over.
pub const EXACT_WINDOW: usize = 10;
/// The lengths of a repeating sequence of calls (A-B-A-B, A-B-C-A-B-C).
pub const PATTERN_LENGTHS: [usize; 2] = [2, 3];
/// The calls the pattern rule looks back over.
pub const PATTERN_WINDOW: usize = 20;

/// Which loop was seen.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum LoopFound {
    /// One call made [`EXACT_REPEATS`] times within [`EXACT_WINDOW`] calls.
    ExactRepeat {
        /// The tool.
        tool: String,
        /// How many times.
        times: u32,
    },
    /// A sequence of calls made twice within [`PATTERN_WINDOW`] calls.
    Pattern {
        /// The tools of the sequence, in order.
        tools: Vec<String>,
    },
}

impl LoopFound {
    /// The loop in a few words: "lookup 3 times in 10 calls", "lookup, cite repeated".
    pub fn summary(&self) -> String {
        match self {
            LoopFound::ExactRepeat { tool, times } => format!("{tool} {times} times in {EXACT_WINDOW} calls"),
            LoopFound::Pattern { tools } => format!("{} repeated", tools.join(", ")),
        }
    }

    /// What the model is told in the tool result that completed the loop.
    pub fn warning(&self) -> String {
        let what = match self {
            LoopFound::ExactRepeat { tool, times } => format!(
                "you have called `{tool}` with the same arguments {times} times in your last {EXACT_WINDOW} calls"
            ),
            LoopFound::Pattern { tools } => {
                let calls: Vec<String> = tools.iter().map(|t| format!("`{t}`")).collect();
                format!("your calls {} have repeated in the same order with the same arguments", calls.join(", "))
            }
        };
        format!(
            "Loop warning: {what}. Use the results you already have or try something different; repeating again ends the run."
        )
    }
}

/// What the detector says of one call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LoopVerdict {
    /// No loop.
    Fine,
    /// A loop, the first: run the call and warn the model.
    Warn(LoopFound),
    /// A loop after the model was warned: end the run without running the call.
    Stop(LoopFound),
}

/// The calls of one attempt, as the loop rules see them.
#[derive(Debug, Default)]
pub struct LoopDetector {
    recent: VecDeque<(String, Value)>,
    warned: bool,
}

impl LoopDetector {
    /// Notes `call` and says whether it completes a loop.
    pub fn observe(&mut self, call: &ToolCall) -> LoopVerdict {
        self.recent.push_back((call.name.clone(), call.arguments.clone()));
        if self.recent.len() > PATTERN_WINDOW.max(EXACT_WINDOW) {
            self.recent.pop_front();
        }
        let Some(found) = self.exact_repeat().or_else(|| self.pattern()) else {
            return LoopVerdict::Fine;
        };
        if std::mem::replace(&mut self.warned, true) {
            LoopVerdict::Stop(found)
        } else {
            LoopVerdict::Warn(found)
        }
    }

    /// Forgets the calls (a new attempt); a warning given stays given.
    pub fn restart(&mut self) {
        self.recent.clear();
    }

    fn exact_repeat(&self) -> Option<LoopFound> {
        let last = self.recent.back()?;
        let window = self.recent.iter().rev().take(EXACT_WINDOW);
        let times = window.filter(|call| *call == last).count();
        (times >= EXACT_REPEATS).then(|| LoopFound::ExactRepeat { tool: last.0.clone(), times: times as u32 })
    }

    fn pattern(&self) -> Option<LoopFound> {
        let window: Vec<&(String, Value)> = self.recent.iter().rev().take(PATTERN_WINDOW).rev().collect();
        PATTERN_LENGTHS.into_iter().find_map(|length| {
            let block = window.get(window.len().checked_sub(length)?..)?;
            // One call over and over is the exact rule's.
            if block.iter().all(|call| call == &block[0]) {
                return None;
            }
            let before = &window[..window.len() - length];
            let again = before.windows(length).any(|earlier| earlier == block);
            again.then(|| LoopFound::Pattern { tools: block.iter().map(|call| call.0.clone()).collect() })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn call(name: &str, n: i64) -> ToolCall {
        ToolCall { id: String::new(), name: name.into(), arguments: json!({ "n": n }) }
    }

    fn verdicts(calls: &[ToolCall]) -> Vec<&'static str> {
        let mut detector = LoopDetector::default();
        calls
            .iter()
            .map(|c| match detector.observe(c) {
                LoopVerdict::Fine => "-",
                LoopVerdict::Warn(_) => "warn",
                LoopVerdict::Stop(_) => "stop",
            })
            .collect()
    }

    #[test]
    fn the_third_same_call_within_ten_warns_and_the_next_stops() {
        let (a, b) = (call("a", 1), call("b", 1));
        let calls = [a.clone(), b.clone(), call("c", 1), a.clone(), call("d", 1), a.clone(), a.clone()];
        assert_eq!(verdicts(&calls), ["-", "-", "-", "-", "-", "warn", "stop"]);
        // Ten other calls apart, the same call is no loop.
        let mut spread = vec![a.clone()];
        spread.extend((0..9).map(|n| call("x", n)));
        spread.push(a.clone());
        spread.extend((10..19).map(|n| call("x", n)));
        spread.push(a);
        assert!(verdicts(&spread).iter().all(|v| *v == "-"));
    }

    #[test]
    fn other_arguments_are_another_call() {
        assert!(verdicts(&[call("a", 1), call("a", 2), call("a", 3), call("a", 4)]).iter().all(|v| *v == "-"));
    }

    #[test]
    fn a_pair_or_a_triple_made_again_is_a_pattern() {
        let (a, b, c) = (call("a", 1), call("b", 1), call("c", 1));
        assert_eq!(verdicts(&[a.clone(), b.clone(), a.clone(), b.clone()]), ["-", "-", "-", "warn"]);
        let triple = [a.clone(), b.clone(), c.clone(), a.clone(), b.clone(), c.clone()];
        // A-B-C-A-B is already a pair made twice.
        assert_eq!(verdicts(&triple), ["-", "-", "-", "-", "warn", "stop"]);
        let mut detector = LoopDetector::default();
        for step in [&a, &b, &a] {
            detector.observe(step);
        }
        assert_eq!(detector.observe(&b), LoopVerdict::Warn(LoopFound::Pattern { tools: vec!["a".into(), "b".into()] }));
    }

    #[test]
    fn a_restart_forgets_the_calls_but_not_the_warning() {
        let a = call("a", 1);
        let mut detector = LoopDetector::default();
        for _ in 0..2 {
            assert_eq!(detector.observe(&a), LoopVerdict::Fine);
        }
        detector.restart();
        assert_eq!(detector.observe(&a), LoopVerdict::Fine);
        assert_eq!(detector.observe(&a), LoopVerdict::Fine);
        assert!(matches!(detector.observe(&a), LoopVerdict::Warn(_)));
        detector.restart();
        for _ in 0..2 {
            detector.observe(&a);
        }
        assert!(matches!(detector.observe(&a), LoopVerdict::Stop(_)));
    }
}
