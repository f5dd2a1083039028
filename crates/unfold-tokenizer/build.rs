//! Lays out, at compile time, everything a count needs, so a process starts counting at once:
//! o200k_base's tokens (an open-addressing table from bytes to rank and length, the bytes in the
//! table's order, where each block of slots starts in them, and the few tokens too long for a slot),
//! and the character classes of its
//! pre-tokenizer's pattern. Both come from the libraries today's counts were made with (tiktoken-rs'
//! vocabulary, the regex-syntax that compiles its pattern), so the counts, and the Unicode version
//! behind them, are exactly theirs.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use regex_syntax::hir::{Class, HirKind};

#[path = "src/vocabulary_hash.rs"]
mod vocabulary_hash;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/vocabulary_hash.rs");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    write_vocabulary(&out);
    write_char_classes(&out);
}

fn write_vocabulary(out: &Path) {
    use vocabulary_hash::{slot_entry, slot_rank, BLOCK_BITS, LONGEST_IN_TABLE, SLOT_BYTES, TABLE_BITS, TOKENS};
    let tokenizer = tiktoken_rs::o200k_base().expect("tiktoken-rs loads o200k_base");
    let tokens: Vec<Vec<u8>> = (0..TOKENS as u32)
        .map(|rank| tokenizer.decode_bytes(&[rank]).expect("o200k_base's ranks are contiguous"))
        .collect();
    assert!(tokenizer.decode_bytes(&[TOKENS as u32]).is_err(), "o200k_base has more ordinary tokens than {TOKENS}");
    let mut table = vec![0u32; 1 << TABLE_BITS];
    let mask = table.len() - 1;
    // The tokens too long for a slot: rank (4 bytes), length (1 byte) and bytes, one after another.
    let mut long = Vec::new();
    for (rank, token) in tokens.iter().enumerate() {
        if token.len() > LONGEST_IN_TABLE {
            long.extend_from_slice(&(rank as u32).to_le_bytes());
            long.push(u8::try_from(token.len()).expect("a token is shorter than 256 bytes"));
            long.extend_from_slice(token);
            continue;
        }
        let mut slot = vocabulary_hash::first_slot(token);
        let mut probes = 0;
        while table[slot] != 0 {
            assert_ne!(&tokens[slot_rank(table[slot]) as usize], token, "duplicate token");
            slot = (slot + 1) & mask;
            probes += 1;
            assert!(probes < 256, "the vocabulary hash clusters: rank {rank} probes {probes} slots");
        }
        table[slot] = slot_entry(rank as u32, token.len());
    }
    // The bytes in slot order, and where each block of slots starts in them.
    let mut bytes = Vec::new();
    let mut blocks = Vec::new();
    for (slot, &entry) in table.iter().enumerate() {
        if slot % (1 << BLOCK_BITS) == 0 {
            blocks.push(u32::try_from(bytes.len()).expect("the vocabulary fits in 4 GB"));
        }
        if entry != 0 {
            bytes.extend_from_slice(&tokens[slot_rank(entry) as usize]);
        }
    }
    let mut slots: Vec<u8> = table.iter().flat_map(|entry| entry.to_le_bytes()[..SLOT_BYTES].to_vec()).collect();
    // A slot is read as a word: one byte of padding for the last one.
    slots.push(0);
    let words: Vec<u8> = blocks.iter().flat_map(|v| v.to_le_bytes()).collect();
    write(&out.join("vocabulary_bytes.bin"), &bytes);
    write(&out.join("vocabulary_table.bin"), &slots);
    write(&out.join("vocabulary_blocks.bin"), &words);
    write(&out.join("vocabulary_long.bin"), &long);
}

/// The pre-tokenizer's classes, from the pattern's own class syntax: each character is in at
/// most one (checked), and is `Other` when in none.
const CLASSES: [(&str, &str); 6] = [
    ("Upper", r"[\p{Lu}\p{Lt}]"),
    ("Lower", r"\p{Ll}"),
    ("LetterBoth", r"[\p{Lm}\p{Lo}]"),
    ("Mark", r"\p{M}"),
    ("Number", r"\p{N}"),
    ("Space", r"\s"),
];

/// The letters of the pattern's case-insensitive contractions (`'s`, `'t`, `'re`, `'ve`, `'m`,
/// `'ll`, `'d`).
const CONTRACTION_LETTERS: &str = "strevmld";

fn write_char_classes(out: &Path) {
    let mut ranges: Vec<(u32, u32, &str)> = Vec::new();
    for (name, pattern) in CLASSES {
        ranges.extend(class_ranges(pattern).into_iter().map(|(start, end)| (start, end, name)));
    }
    ranges.sort();
    let mut merged: Vec<(u32, u32, &str)> = Vec::new();
    for (start, end, name) in ranges {
        match merged.last_mut() {
            Some(last) if start <= last.1 => panic!("{name} overlaps {} at U+{start:04X}", last.2),
            Some(last) if start == last.1 + 1 && last.2 == name => last.1 = end,
            _ => merged.push((start, end, name)),
        }
    }
    let class_of = |c: u32| {
        merged.iter().find(|(start, end, _)| (*start..=*end).contains(&c)).map_or("Other", |(_, _, name)| name)
    };
    let mut source = String::new();
    writeln!(source, "static ASCII_CLASSES: [CharClass; 128] = [").unwrap();
    for c in 0..128 {
        writeln!(source, "    CharClass::{},", class_of(c)).unwrap();
    }
    writeln!(source, "];\n\nstatic CLASS_RANGES: [(u32, u32, CharClass); {}] = [", merged.len()).unwrap();
    for (start, end, name) in &merged {
        writeln!(source, "    (0x{start:X}, 0x{end:X}, CharClass::{name}),").unwrap();
    }
    writeln!(
        source,
        "];\n\n/// Whether `c` matches the ASCII `letter` case-insensitively, as the pattern's `(?i:…)` does."
    )
    .unwrap();
    writeln!(source, "pub(crate) fn matches_letter(c: char, letter: u8) -> bool {{\n    match letter {{").unwrap();
    for letter in CONTRACTION_LETTERS.chars() {
        let arms: Vec<String> = class_ranges(&format!("(?i:{letter})"))
            .into_iter()
            .map(|(start, end)| format!("0x{start:X}..=0x{end:X}"))
            .collect();
        writeln!(source, "        b'{letter}' => matches!(c as u32, {}),", arms.join(" | ")).unwrap();
    }
    writeln!(source, "        _ => false,\n    }}\n}}").unwrap();
    write(&out.join("char_classes.rs"), source.as_bytes());
}

fn class_ranges(pattern: &str) -> Vec<(u32, u32)> {
    let hir = regex_syntax::parse(pattern).unwrap_or_else(|error| panic!("{pattern}: {error}"));
    match hir.kind() {
        HirKind::Class(Class::Unicode(class)) => {
            class.ranges().iter().map(|range| (range.start() as u32, range.end() as u32)).collect()
        }
        HirKind::Literal(literal) => {
            let c = std::str::from_utf8(&literal.0).expect("a literal char").chars().next().expect("one char");
            vec![(c as u32, c as u32)]
        }
        other => panic!("{pattern} is not a class: {other:?}"),
    }
}

fn write(path: &Path, contents: &[u8]) {
    std::fs::write(path, contents).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
}
