//! o200k's pre-tokenizer: the text cut into the pieces its pattern matches, one after the other,
//! by hand instead of a regex engine that would be compiled at start. The pattern is
//!
//! ```text
//! [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//! |[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//! |\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+
//! ```
//!
//! with leftmost-first semantics: at each position the first alternative that matches wins, and
//! within it greedy repetitions give back characters only as far as the rest needs. Each function
//! below is one alternative, written out as that search would end. Every character starts a match
//! of one of them, so the pieces tile the text.

use crate::char_class::{is_word_prefix, matches_letter, CharClass};

/// The pieces of a text, in order.
pub struct Pieces<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Pieces<'a> {
    pub fn of(text: &'a str) -> Pieces<'a> {
        Pieces { text, at: 0 }
    }
}

impl<'a> Iterator for Pieces<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let (first, _) = char_at(self.text, self.at)?;
        let start = self.at;
        self.at = piece_end(self.text, start, first);
        Some(&self.text[start..self.at])
    }
}

fn char_at(text: &str, at: usize) -> Option<(char, CharClass)> {
    text[at..].chars().next().map(|c| (c, CharClass::of(c)))
}

/// Where the piece that starts at `start` (with `first`) ends.
fn piece_end(text: &str, start: usize, first: char) -> usize {
    let class = CharClass::of(first);
    let after_first = start + first.len_utf8();
    let word = |shape: fn(&str, usize) -> Option<usize>| {
        is_word_prefix(first, class).then(|| shape(text, after_first)).flatten().or_else(|| shape(text, start))
    };
    word(lower_ending_word)
        .or_else(|| word(upper_word))
        .or_else(|| (class == CharClass::Number).then(|| numbers(text, start)))
        .or_else(|| punctuation(text, start))
        .or_else(|| (class == CharClass::Space).then(|| spaces(text, start)))
        .unwrap_or(after_first)
}

/// The end of the run of characters from `at` whose class passes `keep`.
fn run_end(text: &str, at: usize, keep: impl Fn(char, CharClass) -> bool) -> usize {
    text[at..].char_indices().find(|&(_, c)| !keep(c, CharClass::of(c))).map_or(text.len(), |(offset, _)| at + offset)
}

/// `[upper set]*[lower set]+` and a contraction. The upper run gives back characters until a
/// lower-set one follows: the character after the run when it is lower (`Ll`), else the run's
/// last lower-set character (`Lm`, `Lo`, `M`), after which only `Lu`/`Lt` of the run come.
fn lower_ending_word(text: &str, at: usize) -> Option<usize> {
    let mut last_lower_end = None;
    for (offset, c) in text[at..].char_indices() {
        let class = CharClass::of(c);
        if class.is_upper_set() {
            if class.is_lower_set() {
                last_lower_end = Some(at + offset + c.len_utf8());
            }
            continue;
        }
        if class.is_lower_set() {
            return Some(contraction_end(text, run_end(text, at + offset, |_, class| class.is_lower_set())));
        }
        break;
    }
    last_lower_end.map(|end| contraction_end(text, end))
}

/// `[upper set]+[lower set]*` and a contraction.
fn upper_word(text: &str, at: usize) -> Option<usize> {
    let upper_end = run_end(text, at, |_, class| class.is_upper_set());
    (upper_end > at).then(|| contraction_end(text, run_end(text, upper_end, |_, class| class.is_lower_set())))
}

/// `(?i:'s|'t|'re|'ve|'m|'ll|'d)?` at `at`.
fn contraction_end(text: &str, at: usize) -> usize {
    let Some(rest) = text[at..].strip_prefix('\'') else { return at };
    let contraction_len = |letters: &[u8]| {
        let mut chars = rest.chars();
        letters.iter().try_fold(0, |len, &letter| {
            let c = chars.next().filter(|&c| matches_letter(c, letter))?;
            Some(len + c.len_utf8())
        })
    };
    [&b"s"[..], b"t", b"re", b"ve", b"m", b"ll", b"d"]
        .into_iter()
        .find_map(contraction_len)
        .map_or(at, |len| at + 1 + len)
}

/// `\p{N}{1,3}`.
fn numbers(text: &str, at: usize) -> usize {
    text[at..]
        .char_indices()
        .take(3)
        .take_while(|&(_, c)| CharClass::of(c) == CharClass::Number)
        .last()
        .map_or(at, |(offset, c)| at + offset + c.len_utf8())
}

/// ` ?[^\s\p{L}\p{N}]+[\r\n/]*`. Without the space, a match would have to start on it, which is
/// not in the class: so the space is taken whenever it is there.
fn punctuation(text: &str, at: usize) -> Option<usize> {
    let from = if text[at..].starts_with(' ') { at + 1 } else { at };
    let end = run_end(text, from, |_, class| class.is_punctuation_set());
    (end > from).then(|| run_end(text, end, |c, _| matches!(c, '\r' | '\n' | '/')))
}

/// `\s*[\r\n]+`, `\s+(?!\S)`, `\s+` on the white space at `at`: up to its last line break if it
/// has one; else all of it when the text ends there; else all but its last character, which
/// starts the next piece (as the space before a word), unless it is that one character.
fn spaces(text: &str, at: usize) -> usize {
    let end = run_end(text, at, |_, class| class == CharClass::Space);
    let run = &text[at..end];
    if let Some(line_break) = run.rfind(['\r', '\n']) {
        return at + line_break + 1;
    }
    if end == text.len() {
        return end;
    }
    match run.char_indices().last() {
        Some((last, _)) if last > 0 => at + last,
        _ => end,
    }
}
