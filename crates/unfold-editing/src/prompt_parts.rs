//! The editor's preview as a difference: the prompt cut into parts before each heading line, and
//! what changed between two such lists. A keystroke in a 5,000-section template changes one part of
//! a 0.6 MB prompt, so the app sends that part, not the prompt; the UI keeps the parts it has and
//! lays out only the new ones. [`PreviewHistory`] keeps the last few previews sent, so an answer
//! can be a difference against whichever of them the UI holds, and leaves out the offered tools
//! when that preview has the same (a keystroke's answer was 11 KB of tools in 12 KB).

use std::collections::VecDeque;
use std::sync::Arc;

use serde::Serialize;

/// The prompt cut before each line that starts with `#`: joined, the parts are the prompt exactly.
pub fn prompt_parts(markdown: &str) -> Vec<String> {
    PromptParts::of(markdown.to_owned()).parts().into_iter().map(str::to_owned).collect()
}

/// A prompt and where [`prompt_parts`] cuts it, held as one text: a keystroke's preview is cut,
/// compared and kept without a string per part.
#[derive(Debug, Clone)]
pub struct PromptParts {
    text: String,
    /// Where each part but the last ends.
    cuts: Vec<usize>,
}

impl PromptParts {
    /// `markdown`, cut.
    pub fn of(markdown: String) -> PromptParts {
        // memchr's SIMD search: `str::match_indices` took a sixth of a keystroke on 5,000 sections.
        let cuts = memchr::memmem::find_iter(markdown.as_bytes(), b"\n#").map(|newline| newline + 1).collect();
        PromptParts { text: markdown, cuts }
    }

    /// The parts, in order.
    pub fn parts(&self) -> Vec<&str> {
        let mut start = 0;
        let mut parts = Vec::with_capacity(self.cuts.len() + 1);
        for &end in &self.cuts {
            parts.push(&self.text[start..end]);
            start = end;
        }
        parts.push(&self.text[start..]);
        parts
    }
}

/// How to make the new list of parts from the one the UI holds (`base`): keep its first
/// `keep_start` and its last `keep_end` parts, with `parts` between them. With no `base`, `parts`
/// is the whole list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct PartsChange {
    /// The serial of the preview this change applies to; none when `parts` is the whole list.
    pub base: Option<u32>,
    /// Parts kept from the start of the base.
    pub keep_start: u32,
    /// Parts kept from the end of the base.
    pub keep_end: u32,
    /// The parts between them.
    pub parts: Vec<String>,
}

impl PartsChange {
    /// The whole list, for a UI that holds no preview (or one no longer kept).
    pub fn whole(parts: &[&str]) -> PartsChange {
        PartsChange { base: None, keep_start: 0, keep_end: 0, parts: owned(parts) }
    }

    /// What turns `old` (the preview `base`) into `new`.
    pub fn between(base: u32, old: &[&str], new: &[&str]) -> PartsChange {
        let start = old.iter().zip(new).take_while(|(a, b)| a == b).count();
        let most_end = old.len().min(new.len()) - start;
        let end = old.iter().rev().zip(new.iter().rev()).take(most_end).take_while(|(a, b)| a == b).count();
        PartsChange {
            base: Some(base),
            keep_start: count(start),
            keep_end: count(end),
            parts: owned(&new[start..new.len() - end]),
        }
    }

    /// Applies the change to `base`'s parts (what the UI does; here for the tests).
    pub fn apply(&self, base: &[String]) -> Vec<String> {
        let (start, end) = (self.keep_start as usize, self.keep_end as usize);
        let mut parts = base[..start].to_vec();
        parts.extend(self.parts.iter().cloned());
        parts.extend(base[base.len() - end..].iter().cloned());
        parts
    }
}

fn owned(parts: &[&str]) -> Vec<String> {
    parts.iter().map(|&part| part.to_owned()).collect()
}

/// A length as a change carries it (u32: a plain number in TypeScript).
fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// How many previews are kept to diff against: the UI has at most a few requests in flight, and
/// the one it holds is among the last ones answered.
const KEPT_PREVIEWS: usize = 4;

/// The last previews sent, by serial: each one's prompt and offered tools.
#[derive(Debug, Clone, Default)]
pub struct PreviewHistory {
    kept: VecDeque<KeptPreview>,
    last_serial: u32,
}

#[derive(Debug, Clone)]
struct KeptPreview {
    serial: u32,
    prompt: Arc<PromptParts>,
    tools: Vec<serde_json::Value>,
}

/// A preview as a change from the one the UI holds: its serial, the prompt's parts, and the
/// offered tools unless they are the base's.
#[derive(Debug, Clone, PartialEq)]
pub struct PreviewChange {
    /// The new preview's serial.
    pub serial: u32,
    /// Its prompt as a change from the base's parts.
    pub prompt: PartsChange,
    /// Its tools; none when the base has the same.
    pub tools: Option<Vec<serde_json::Value>>,
}

impl PreviewHistory {
    /// Records a new preview (`prompt`, `tools`) and returns it as a change from `base` (the
    /// preview the UI holds): whole when `base` is none or no longer kept.
    pub fn record(&mut self, prompt: PromptParts, tools: Vec<serde_json::Value>, base: Option<u32>) -> PreviewChange {
        let new = prompt.parts();
        let held = base.and_then(|b| self.kept.iter().find(|kept| kept.serial == b));
        let (change, tools_sent) = match held {
            Some(held) => (
                PartsChange::between(held.serial, &held.prompt.parts(), &new),
                (held.tools != tools).then(|| tools.clone()),
            ),
            None => (PartsChange::whole(&new), Some(tools.clone())),
        };
        drop(new);
        self.last_serial = self.last_serial.wrapping_add(1);
        if self.kept.len() == KEPT_PREVIEWS {
            self.kept.pop_front();
        }
        self.kept.push_back(KeptPreview { serial: self.last_serial, prompt: Arc::new(prompt), tools });
        PreviewChange { serial: self.last_serial, prompt: change, tools: tools_sent }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(texts: &[&str]) -> Vec<String> {
        texts.iter().map(|&t| t.to_owned()).collect()
    }

    /// A prompt whose parts are `texts` (each but the first starting with `#`).
    fn prompt(texts: &[&str]) -> PromptParts {
        let prompt = PromptParts::of(texts.concat());
        assert_eq!(prompt.parts(), texts.iter().filter(|t| !t.is_empty()).copied().collect::<Vec<_>>());
        prompt
    }

    #[test]
    fn the_prompt_is_cut_before_each_heading_line() {
        assert_eq!(prompt_parts("## 1 A\n\nx\n\n## 2 B\n\ny #z\n#"), ["## 1 A\n\nx\n\n", "## 2 B\n\ny #z\n", "#"]);
        assert_eq!(prompt_parts(""), [""]);
        assert_eq!(prompt_parts("no heading"), ["no heading"]);
    }

    #[test]
    fn a_change_keeps_what_both_ends_share() {
        let old = ["a", "b", "c", "d"];
        let check = |new: &[&str], expected: (u32, u32, &[&str])| {
            let change = PartsChange::between(7, &old, new);
            assert_eq!(
                (change.keep_start, change.keep_end, change.parts.clone()),
                (expected.0, expected.1, parts(expected.2))
            );
            assert_eq!(change.apply(&parts(&old)), parts(new));
        };
        check(&["a", "B", "c", "d"], (1, 2, &["B"]));
        check(&["a", "b", "c", "d"], (4, 0, &[]));
        check(&["a", "d"], (1, 1, &[]));
        check(&["a", "b", "x", "c", "d"], (2, 2, &["x"]));
        check(&["x"], (0, 0, &["x"]));
        check(&["d", "d", "d", "d", "d"], (0, 1, &["d", "d", "d", "d"]));
        check(&[], (0, 0, &[]));
    }

    #[test]
    fn history_diffs_against_the_preview_the_ui_holds_while_it_is_kept() {
        let mut history = PreviewHistory::default();
        let first = history.record(prompt(&["a\n", "#b"]), vec![], None);
        assert_eq!(first.prompt, PartsChange::whole(&["a\n", "#b"]));
        let second = history.record(prompt(&["a\n", "#c\n", "#b"]), vec![], Some(first.serial));
        assert_eq!(
            (second.prompt.base, second.prompt.keep_start, second.prompt.keep_end, second.prompt.parts),
            (Some(first.serial), 1, 1, parts(&["#c\n"]))
        );
        assert_ne!(first.serial, second.serial);
        for _ in 0..KEPT_PREVIEWS {
            history.record(prompt(&["a"]), vec![], Some(second.serial));
        }
        let change = history.record(prompt(&["a\n", "#d"]), vec![], Some(first.serial));
        assert_eq!(change.prompt.base, None, "the first preview is no longer kept: the whole list");
        let change = history.record(prompt(&["a"]), vec![], Some(12345));
        assert_eq!(change.prompt.base, None, "an unknown serial gets the whole list");
    }

    #[test]
    fn tools_are_sent_unless_the_base_preview_has_the_same() {
        let tool = |name: &str| serde_json::json!({"type": "function", "function": {"name": name}});
        let mut history = PreviewHistory::default();
        let first = history.record(prompt(&["a"]), vec![tool("x")], None);
        assert_eq!(first.tools, Some(vec![tool("x")]), "a whole preview has its tools");
        let same = history.record(prompt(&["b"]), vec![tool("x")], Some(first.serial));
        assert_eq!(same.tools, None, "the base's tools: the UI keeps them");
        let other = history.record(prompt(&["b"]), vec![tool("x"), tool("y")], Some(same.serial));
        assert_eq!(other.tools, Some(vec![tool("x"), tool("y")]));
        let back = history.record(prompt(&["b"]), vec![tool("x")], Some(same.serial));
        assert_eq!(back.tools, None, "compared with the base the UI names, not the last preview");
        let unknown = history.record(prompt(&["b"]), vec![tool("x")], Some(12345));
        assert_eq!(unknown.tools, Some(vec![tool("x")]), "no base kept: whole, tools too");
    }
}
