//! Token counts with a real tokenizer (o200k_base, as OpenAI's current models use): of texts,
//! messages and tool definitions. A model call's prompt tokens are the sum over its system prompt,
//! its messages and its tools serialized as OpenAI JSON; no per-message framing is added, so counts
//! are comparable across providers and adapters.
//!
//! The editor counts its preview again on every keystroke: [`PromptTokenCache`] keeps the counts of
//! the last preview's pieces so that only the pieces an edit changed are tokenized again, with the
//! very same total as counting the whole text (see [`ChunkedCount`]).

use std::collections::HashMap;
use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock, PoisonError};

use crate::provider::{Message, ModelResponse, ToolCall};
use unfold_documents::tool::OfferedTool;

/// Tokens of a text; a long one is counted in parts on every core, and one counted lately on
/// this thread is not counted again.
pub fn count_text(text: &str) -> u64 {
    #[cfg(test)]
    counted::add(text.len());
    if text.len() < REMEMBERED_FROM {
        return unfold_tokenizer::count(text) as u64;
    }
    remembered(text, || {
        if text.len() < COUNTED_IN_PARTS_FROM {
            unfold_tokenizer::count(text) as u64
        } else {
            count_in_parts(text, text.len().div_ceil(PART_BYTES), cores())
        }
    })
}

/// Texts this long and longer are remembered with their counts: every conversation of a study, and
/// every attempt of a run, starts by counting the same system prompt and tool definitions, which
/// took half of a scripted study's time; a shorter text costs less to count than to look up.
const REMEMBERED_FROM: usize = 512;
/// The most texts a thread remembers; it forgets them all when full (a study needs a few dozen).
const MOST_REMEMBERED: usize = 4096;

/// The count of `text` as this thread last counted it, else `count()`, remembered by the text's
/// length and 64-bit SipHash (two texts of one length would have to share a hash to be confused).
fn remembered(text: &str, count: impl FnOnce() -> u64) -> u64 {
    use std::cell::RefCell;
    use std::hash::{Hash, Hasher};
    thread_local! {
        static COUNTS: RefCell<HashMap<(usize, u64), u64>> = RefCell::new(HashMap::new());
    }
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut hasher);
    let key = (text.len(), hasher.finish());
    if let Some(known) = COUNTS.with(|counts| counts.borrow().get(&key).copied()) {
        return known;
    }
    let tokens = count();
    COUNTS.with(|counts| {
        let mut counts = counts.borrow_mut();
        if counts.len() >= MOST_REMEMBERED {
            counts.clear();
        }
        counts.insert(key, tokens);
    });
    tokens
}

/// The cores a count may use, up to [`MOST_THREADS`]; asked once per process, since on Linux the
/// answer reads the cgroup's files.
fn cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |cores| cores.get().min(MOST_THREADS)))
}

/// Texts this long and longer are counted in parts on every core: the prompt of a 10,000-section
/// template (1.1 MB) takes about 9 ms to tokenize on one core; for a few kilobytes a thread's start
/// costs more than it saves.
const COUNTED_IN_PARTS_FROM: usize = 64 * 1024;
/// About the length of a part: short enough that the threads end together, long enough that
/// taking the next one costs nothing beside counting it.
const PART_BYTES: usize = 64 * 1024;
/// Beyond this many threads, memory bandwidth rather than cores bounds the count.
const MOST_THREADS: usize = 8;

/// Tokens of `text` counted in up to `parts` parts of about equal length, on up to `threads`
/// threads that each take the next part left until none is: a thread that starts late or runs
/// slower on a busy machine counts fewer parts, rather than the count waiting for a share fixed in
/// advance (a helper thread started up to 4 ms late on a 2-core machine). The same count as the
/// whole text's, since the parts are cut where [`ChunkedCount`] cuts its pieces (a cut the
/// tokenizer always makes).
pub fn count_in_parts(text: &str, parts: usize, threads: usize) -> u64 {
    let cuts = part_cuts(text, parts);
    let next = AtomicUsize::new(0);
    let take_parts = || {
        let mut tokens = 0;
        while let Some(part) = cuts.windows(2).nth(next.fetch_add(1, Ordering::Relaxed)) {
            tokens += unfold_tokenizer::count(&text[part[0]..part[1]]) as u64;
        }
        tokens
    };
    let helpers = threads.min(cuts.len() - 1).saturating_sub(1);
    if helpers == 0 {
        return take_parts();
    }
    let take_parts = &take_parts;
    std::thread::scope(|scope| {
        let others: Vec<_> = (0..helpers).map(|_| scope.spawn(take_parts)).collect();
        // A thread that panicked panicked in the tokenizer: let it panic here as counting on one
        // thread would.
        take_parts()
            + others
                .into_iter()
                .map(|helper| helper.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .sum::<u64>()
    })
}

/// Where `text` is cut into up to `parts` parts: 0, then the first piece boundary (see
/// [`piece_ranges`]) at or after each `k / parts` of its length, then its length.
fn part_cuts(text: &str, parts: usize) -> Vec<usize> {
    let bytes = text.as_bytes();
    let mut cuts = vec![0];
    for k in 1..parts.max(1) {
        // At least one past the last cut, and at most the text's length: a newline found from
        // `from - 1` on makes a cut at `from` or later.
        let from = (text.len() * k / parts).max(cuts[cuts.len() - 1] + 1);
        let mut newlines = memchr::memchr_iter(b'\n', &bytes[from - 1..]).map(|newline| from + newline);
        match newlines.find(|&cut| is_piece_cut(bytes, cut)) {
            Some(cut) => cuts.push(cut),
            None => break,
        }
    }
    cuts.push(text.len());
    cuts
}

/// Whether the tokenizer always starts a piece at byte `cut` of `bytes`: right after a `\n`, on
/// an ASCII character other than white space and `/` (see [`ChunkedCount`]).
fn is_piece_cut(bytes: &[u8], cut: usize) -> bool {
    cut > 0 && bytes[cut - 1] == b'\n' && bytes.get(cut).is_some_and(|&b| b.is_ascii_graphic() && b != b'/')
}

/// Tokens of a tool list, as the JSON array of OpenAI chat tool objects.
pub fn count_tools(tools: &[OfferedTool]) -> u64 {
    count_tools_text(&tools_json(tools))
}

/// [`count_tools`] of tools whose [`tools_json`] is `text`.
pub(crate) fn count_tools_text(text: &str) -> u64 {
    if text == "[]" {
        return 0;
    }
    count_text(text)
}

/// The text [`count_tools`] counts.
pub(crate) fn tools_json(tools: &[OfferedTool]) -> String {
    serde_json::to_string(tools).unwrap_or_default()
}

fn count_calls(calls: &[ToolCall]) -> u64 {
    calls.iter().map(|c| count_text(&c.name) + count_text(&c.arguments.to_string())).sum()
}

/// Tokens of one message.
pub fn count_message(message: &Message) -> u64 {
    match message {
        Message::User { content } | Message::Tool { content, .. } => count_text(content),
        Message::Assistant { content, tool_calls } => count_answer(content.as_deref(), tool_calls),
        // The definitions an addition shows are counted by the conversation, which has them.
        Message::System { added, removed } => count_text(&added.join(" ")) + count_text(&removed.join(" ")),
    }
}

/// Tokens of a model's answer: its text and its tool calls, as many as the assistant message it
/// becomes in the conversation.
pub fn count_response(response: &ModelResponse) -> u64 {
    count_answer(response.text.as_deref(), &response.tool_calls)
}

fn count_answer(text: Option<&str>, calls: &[ToolCall]) -> u64 {
    text.map_or(0, count_text) + count_calls(calls)
}

/// The count of a text that is counted again after small changes, tokenizing only the pieces that
/// changed since the last count.
///
/// The text is cut before every line that starts with an ASCII character other than white space
/// and `/` (a heading, a body line, the `---` of a summary). The o200k pre-tokenizer always splits
/// there, so the pieces' counts add up to exactly the count of the whole text. Its pattern is
/// `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+('s|..)?`, the same with the
/// letter classes swapped, `\p{N}{1,3}`, ` ?[^\s\p{L}\p{N}]+[\r\n/]*`, `\s*[\r\n]+`, `\s+(?!\S)` and
/// `\s+`, tried in that order at each position; every character matches one of them, so the
/// pieces tile the text, and tokens never span two pieces. Then:
/// - no piece holds a `\n` followed by anything but white space or `/`: the letter and number
///   pieces hold no `\n`, the punctuation piece ends with its run of `\r`, `\n` and `/`, and the
///   other three are white space only. So a piece ends at every cut;
/// - the pattern looks neither behind nor, but for `(?!\S)`, ahead: matching from a cut on sees
///   what it would see in the whole text. Matching up to a cut could differ only where `(?!\S)`
///   is tried at the cut, after white space that ends in the `\n` before it; there `\s*[\r\n]+`,
///   tried earlier, already matches the same white space up to the cut, in both texts.
///
/// `tests/properties.rs` checks the sum against counting the whole text, on prompts and on texts
/// made to break the argument, should the tokenizer's pattern ever change.
///
/// The last text's pieces are kept with their counts (so memory stays one text's worth). A new
/// text shares a start and an end with the last one, byte for byte: pieces found at the same place
/// there are not tokenized again, nor, past a few pieces, those in between whose text the last
/// text also had (a section moved elsewhere).
#[derive(Debug, Clone, Default)]
pub struct ChunkedCount {
    /// The text last counted.
    text: String,
    /// Its pieces in order, with their counts.
    pieces: Vec<(Range<usize>, u64)>,
    /// How many bytes the last count tokenized (the pieces it did not find).
    tokenized_bytes: usize,
}

/// Changed pieces up to this many are tokenized straight away; more are first looked up among
/// the last text's pieces in between.
const PIECES_WORTH_A_LOOKUP: usize = 8;

impl ChunkedCount {
    /// Tokens of `text`: always exactly [`count_text`] of it.
    pub fn count(&mut self, text: &str) -> u64 {
        let (old, new) = (self.text.as_bytes(), text.as_bytes());
        let ranges: Vec<Range<usize>> = piece_ranges(text).collect();
        let same_start = common_prefix_len(old, new);
        let same_end = common_suffix_len(&old[same_start..], &new[same_start..]);
        // A piece is the same where both texts have it at the same place in their common start,
        // or at the same distance from the end in their common end.
        let head =
            self.pieces.iter().zip(&ranges).take_while(|((was, _), is)| was == *is && is.end <= same_start).count();
        let tail = self.pieces[head..]
            .iter()
            .rev()
            .zip(ranges[head..].iter().rev())
            .take_while(|((was, _), is)| {
                old.len() - was.start == new.len() - is.start
                    && old.len() - was.end == new.len() - is.end
                    && was.start >= old.len() - same_end
            })
            .count();
        let (old_middle, new_middle) = (head..self.pieces.len() - tail, head..ranges.len() - tail);
        let known_middle: HashMap<&str, u64> = if new_middle.len() > PIECES_WORTH_A_LOOKUP {
            self.pieces[old_middle].iter().map(|(range, count)| (&self.text[range.clone()], *count)).collect()
        } else {
            HashMap::new()
        };
        let mut tokenized_bytes = 0;
        let mut pieces = Vec::with_capacity(ranges.len());
        for (i, range) in ranges.into_iter().enumerate() {
            let count = if i < head {
                self.pieces[i].1
            } else if i >= new_middle.end {
                self.pieces[i - new_middle.end + self.pieces.len() - tail].1
            } else if let Some(&count) = known_middle.get(&text[range.clone()]) {
                count
            } else {
                tokenized_bytes += range.len();
                count_text(&text[range.clone()])
            };
            pieces.push((range, count));
        }
        // It borrows the last text, which is replaced now.
        drop(known_middle);
        self.text.clear();
        self.text.push_str(text);
        self.pieces = pieces;
        self.tokenized_bytes = tokenized_bytes;
        self.pieces.iter().map(|(_, count)| count).sum()
    }

    /// How many bytes of its text the last count had to tokenize; the others were remembered.
    pub fn tokenized_bytes(&self) -> usize {
        self.tokenized_bytes
    }
}

/// Bytes compared at once before the byte-by-byte rest: slice equality is a `memcmp`, fast even
/// in debug builds.
const COMPARED_AT_ONCE: usize = 512;

/// How many bytes `a` and `b` start with in common.
fn common_prefix_len(a: &[u8], b: &[u8]) -> usize {
    let mut same = 0;
    while same + COMPARED_AT_ONCE <= a.len().min(b.len())
        && a[same..same + COMPARED_AT_ONCE] == b[same..same + COMPARED_AT_ONCE]
    {
        same += COMPARED_AT_ONCE;
    }
    same + a[same..].iter().zip(&b[same..]).take_while(|(x, y)| x == y).count()
}

/// How many bytes `a` and `b` end with in common.
fn common_suffix_len(a: &[u8], b: &[u8]) -> usize {
    let mut same = 0;
    let block = |s: &[u8], same: usize| s.len() - same - COMPARED_AT_ONCE..s.len() - same;
    while same + COMPARED_AT_ONCE <= a.len().min(b.len()) && a[block(a, same)] == b[block(b, same)] {
        same += COMPARED_AT_ONCE;
    }
    same + a[..a.len() - same].iter().rev().zip(b[..b.len() - same].iter().rev()).take_while(|(x, y)| x == y).count()
}

/// The pieces [`ChunkedCount`] counts apart: cut before each line that starts with an ASCII
/// character other than white space and `/`.
fn piece_ranges(text: &str) -> impl Iterator<Item = Range<usize>> + '_ {
    let bytes = text.as_bytes();
    let cuts = memchr::memchr_iter(b'\n', bytes).map(|newline| newline + 1).filter(|&cut| is_piece_cut(bytes, cut));
    let mut start = 0;
    cuts.chain(std::iter::once(text.len())).filter_map(move |end| {
        let range = start..end;
        start = end;
        (!range.is_empty()).then_some(range)
    })
}

/// The token counts of a document's previews, kept from one preview to the next so that a
/// keystroke tokenizes only what it changed: the system prompt by pieces, the tool definitions
/// whole (they change far less often). Behind a lock so that previewing stays a read of the
/// document; a copy starts with the same counts.
#[derive(Debug, Default)]
pub struct PromptTokenCache(Mutex<PromptCounts>);

#[derive(Debug, Clone, Default)]
struct PromptCounts {
    markdown: ChunkedCount,
    tools: ChunkedCount,
}

impl PromptTokenCache {
    /// Tokens of a system prompt and of its tool definitions: exactly `count_text(markdown)` and
    /// `count_tools(tools)`.
    pub fn count(&self, markdown: &str, tools: &[OfferedTool]) -> PromptTokens {
        let mut counts = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        // No tools count nothing, where their JSON (`[]`) would count 2 tokens.
        let tools_text = if tools.is_empty() { String::new() } else { tools_json(tools) };
        PromptTokens { text: counts.markdown.count(markdown), tools: counts.tools.count(&tools_text) }
    }
}

/// A request's prompt tokens apart: the system prompt's text, and the tool definitions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PromptTokens {
    /// Tokens of the system prompt's text.
    pub text: u64,
    /// Tokens of the tool definitions (the JSON array of OpenAI chat tool objects).
    pub tools: u64,
}

impl PromptTokens {
    /// Tokens of `markdown` and of `tools`, counted afresh.
    pub fn of(markdown: &str, tools: &[OfferedTool]) -> PromptTokens {
        PromptTokens { text: count_text(markdown), tools: count_tools(tools) }
    }

    /// Both together: what the request's prompt costs.
    pub fn total(self) -> u64 {
        self.text + self.tools
    }
}

impl Clone for PromptTokenCache {
    fn clone(&self) -> Self {
        PromptTokenCache(Mutex::new(self.0.lock().unwrap_or_else(PoisonError::into_inner).clone()))
    }
}

/// How many bytes of text this thread has counted: what a test reads to see that a run counts
/// nothing twice.
#[cfg(test)]
pub(crate) mod counted {
    use std::cell::Cell;

    thread_local! {
        static BYTES: Cell<usize> = const { Cell::new(0) };
    }

    pub(crate) fn add(bytes: usize) {
        BYTES.with(|counted| counted.set(counted.get() + bytes));
    }

    pub(crate) fn bytes() -> usize {
        BYTES.with(Cell::get)
    }
}

#[cfg(test)]
mod tests {
    use super::{
        common_prefix_len, common_suffix_len, count_in_parts, count_text, part_cuts, COMPARED_AT_ONCE, REMEMBERED_FROM,
    };

    #[test]
    fn a_remembered_count_is_the_texts_own_and_never_another_of_its_length() {
        let words = "alpha beta gamma ".repeat(REMEMBERED_FROM / 8);
        let digits = "1234567890123456 ".repeat(REMEMBERED_FROM / 8);
        assert_eq!(words.len(), digits.len());
        for _ in 0..2 {
            assert_eq!(count_text(&words), unfold_tokenizer::count(&words) as u64);
            assert_eq!(count_text(&digits), unfold_tokenizer::count(&digits) as u64);
        }
        assert_ne!(count_text(&words), count_text(&digits));
    }

    #[test]
    fn shared_starts_and_ends_are_measured_to_the_byte() {
        let base: Vec<u8> = (0..3 * COMPARED_AT_ONCE + 7).map(|i| (i % 251) as u8).collect();
        let naive_prefix = |a: &[u8], b: &[u8]| a.iter().zip(b).take_while(|(x, y)| x == y).count();
        let naive_suffix = |a: &[u8], b: &[u8]| a.iter().rev().zip(b.iter().rev()).take_while(|(x, y)| x == y).count();
        for changed in
            [0, 1, COMPARED_AT_ONCE - 1, COMPARED_AT_ONCE, COMPARED_AT_ONCE + 1, 2 * COMPARED_AT_ONCE, base.len() - 1]
        {
            for extra in [0, 1, COMPARED_AT_ONCE] {
                let mut other = base.clone();
                other[changed] ^= 0xff;
                other.splice(changed..changed, std::iter::repeat_n(b'x', extra));
                for (a, b) in [(&base, &other), (&other, &base), (&base, &base)] {
                    assert_eq!(common_prefix_len(a, b), naive_prefix(a, b), "changed at {changed}, {extra} inserted");
                    assert_eq!(common_suffix_len(a, b), naive_suffix(a, b), "changed at {changed}, {extra} inserted");
                }
            }
        }
        let shorter = &base[..base.len() - COMPARED_AT_ONCE];
        assert_eq!(common_prefix_len(&base, shorter), shorter.len());
        assert_eq!(common_suffix_len(&base, &base[COMPARED_AT_ONCE..]), base.len() - COMPARED_AT_ONCE);
    }

    #[test]
    fn a_long_text_is_cut_into_parts_of_about_equal_length_at_piece_boundaries() {
        let text = "## Heading\nA body line.\n\n".repeat(1000);
        let cuts = part_cuts(&text, 4);
        assert_eq!(cuts.len(), 5, "{cuts:?}");
        assert_eq!((cuts[0], cuts[4]), (0, text.len()));
        for (k, cut) in cuts[1..4].iter().enumerate() {
            assert!(text[*cut..].starts_with("## Heading") || text[*cut..].starts_with("A body"), "at {cut}");
            assert!(cut.abs_diff(text.len() * (k + 1) / 4) < 30, "{cut} is near a quarter");
        }
        assert_eq!(count_in_parts(&text, 4, 2), unfold_tokenizer::count(&text) as u64);
    }

    #[test]
    fn a_text_with_no_boundary_is_counted_whole() {
        let text = "word ".repeat(1000);
        assert_eq!(part_cuts(&text, 4), [0, text.len()]);
        assert_eq!(part_cuts("", 3), [0, 0]);
        assert_eq!(count_in_parts("", 3, 2), 0);
    }
}
