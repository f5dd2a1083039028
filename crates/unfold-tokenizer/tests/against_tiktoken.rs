//! The hand-written pre-tokenizer and the compile-time vocabulary against what today's counts were
//! made with: tiktoken-rs' o200k_base and its pattern compiled by fancy-regex. Same pieces, same
//! ranks, on texts built to reach every branch of the pattern.

use proptest::prelude::*;
use tiktoken_rs::O200K_BASE_PAT_STR;
use unfold_tokenizer::{count, encode, vocabulary, Pieces};

fn regex_pieces(text: &str) -> Vec<String> {
    thread_local! {
        static PATTERN: fancy_regex::Regex = fancy_regex::Regex::new(O200K_BASE_PAT_STR).unwrap();
    }
    PATTERN.with(|pattern| pattern.find_iter(text).map(|m| m.unwrap().as_str().to_owned()).collect())
}

fn tiktoken_ranks(text: &str) -> Vec<u32> {
    tiktoken_rs::o200k_base_singleton().encode_ordinary(text)
}

fn assert_same(text: &str) {
    let pieces: Vec<&str> = Pieces::of(text).collect();
    assert_eq!(pieces, regex_pieces(text), "pieces of {text:?}");
    assert_eq!(encode(text), tiktoken_ranks(text), "ranks of {text:?}");
    assert_eq!(count(text), tiktoken_ranks(text).len(), "count of {text:?}");
}

/// Characters from every class the pattern tells apart, and the ones its alternatives name.
const ALPHABET: &[char] = &[
    'a',
    'z',
    'A',
    'Z',
    's',
    'S',
    't',
    'r',
    'e',
    'v',
    'm',
    'l',
    'L',
    'd',
    'D',
    '\'',
    'ſ',
    'K',
    'é',
    'É',
    'ǅ',
    'ʰ',
    'ー',
    '中',
    'ا',
    '\u{301}',
    '\u{93F}',
    '0',
    '9',
    '٣',
    '½',
    'Ⅻ',
    ' ',
    '\t',
    '\n',
    '\r',
    '\u{a0}',
    '\u{2028}',
    '\u{3000}',
    '\u{b}',
    '\u{c}',
    '\u{85}',
    '.',
    ',',
    '/',
    '-',
    '_',
    '#',
    '$',
    '{',
    '}',
    '"',
    '😀',
    '\u{200d}',
    '\u{fe0f}',
    '\u{0}',
    '\u{7f}',
    '\u{e000}',
    '\u{10ffff}',
    '\u{378}',
];

fn from_alphabet(max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(ALPHABET), 0..max).prop_map(|chars| chars.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn texts_of_the_pattern_s_classes_cut_and_count_as_tiktoken(text in from_alphabet(40)) {
        assert_same(&text);
    }

    #[test]
    fn any_text_cuts_and_counts_as_tiktoken(text in any::<String>()) {
        assert_same(&text);
    }

    #[test]
    fn long_runs_without_a_cut_merge_as_tiktoken(text in "[a-zA-Z0-9+/=_-]{100,600}") {
        assert_same(&text);
    }
}

/// The shapes a piece longer than the tokenizer's blocks (4 KB) takes: a short pattern repeated
/// (of any period, so that blocks start anywhere in it), a run of punctuation, of CJK, of white
/// space.
fn long_piece() -> impl Strategy<Value = String> {
    let pattern = "[a-z]{1,9}|[=*#~._-]{1,4}|[\\u{4e00}-\\u{4e40}]{1,5}|[ \t]{1,3}";
    (pattern, 4_000usize..12_000).prop_map(|(pattern, len)| pattern.repeat(len / pattern.len() + 1))
}

proptest! {
    // tiktoken-rs merges a piece in time quadratic in its length: few cases.
    #![proptest_config(ProptestConfig::with_cases(16))]

    #[test]
    fn pieces_longer_than_a_block_merge_as_tiktoken(text in long_piece()) {
        assert_same(&text);
    }

    #[test]
    fn random_letters_longer_than_a_block_merge_as_tiktoken(text in "[a-z]{4000,12000}") {
        assert_same(&text);
    }
}

#[test]
fn the_cases_the_pattern_s_order_decides() {
    for text in [
        "",
        "hello world",
        "  leading and trailing  ",
        "don't WON'T you'll I'M we'Re 'ſ",
        "HTTPServer XMLHttpRequest ǅemal ʰa Aʰ ʰA",
        "a\u{301}bc \u{301}x \u{301}X \u{301}",
        "1234567 ٣٣٣٣ ½½ 12a",
        " ... , /// ,\n\n/x \r\n\r\n",
        "line\n    indented\n\tTabbed  \n  \n",
        "   x  \u{a0}y \u{3000} ",
        "<|endoftext|> is ordinary text",
        "emoji 😀👍🏽 and ZWJ 👨‍👩‍👧",
    ] {
        assert_same(text);
    }
}

#[test]
fn a_long_run_of_one_character_merges_as_tiktoken() {
    for text in ["a".repeat(1000), "=".repeat(777), " ".repeat(500) + "x", "ab".repeat(300)] {
        assert_same(&text);
    }
}

#[test]
fn every_token_has_tiktoken_s_bytes_and_its_bytes_give_back_its_rank() {
    let tiktoken = tiktoken_rs::o200k_base_singleton();
    let mut seen = vec![false; vocabulary::len()];
    for (rank, bytes) in vocabulary::tokens() {
        assert!(!std::mem::replace(&mut seen[rank as usize], true), "rank {rank} twice");
        assert_eq!(bytes, tiktoken.decode_bytes(&[rank]).unwrap(), "rank {rank}");
        assert_eq!(vocabulary::rank(bytes), Some(rank), "rank {rank}");
    }
    assert_eq!(vocabulary::len(), 199_998);
    assert!(seen.iter().all(|&seen| seen), "every rank has a token");
}
