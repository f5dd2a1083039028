//! Token counts in OpenAI's o200k_base encoding, exactly as tiktoken gives them, with nothing to
//! build when a process starts: the vocabulary and the pre-tokenizer's character classes are laid
//! out by the build script and read in place, and the pre-tokenizer is written out by hand rather
//! than compiled from a regex. A command that counts once pays microseconds, not the tens of
//! milliseconds a tokenizer's tables take to build.
//!
//! - `pieces.rs` — the pre-tokenizer: the text cut as o200k's pattern cuts it.
//! - `char_class.rs` — the classes that pattern tells characters apart by.
//! - `vocabulary.rs` — token bytes ↔ rank, from the tables laid out at compile time.
//! - `vocabulary_hash.rs` — the table's layout and hash, shared with the build script.
//! - `merge.rs` — byte-pair merging of one piece.

mod char_class;
mod merge;
mod pieces;
pub mod vocabulary;
mod vocabulary_hash;

pub use pieces::Pieces;
pub use vocabulary::Rank;

/// The number of o200k_base tokens of `text` (special tokens are ordinary text).
pub fn count(text: &str) -> usize {
    Pieces::of(text).map(|piece| piece_count(piece.as_bytes())).sum()
}

/// The o200k_base tokens of `text`, as tiktoken's `encode_ordinary` gives them.
pub fn encode(text: &str) -> Vec<Rank> {
    let mut ranks = Vec::new();
    for piece in Pieces::of(text).map(str::as_bytes) {
        match vocabulary::rank(piece) {
            Some(rank) => ranks.push(rank),
            None => ranks.extend(
                merge::token_bounds(piece)
                    .windows(2)
                    .map(|bounds| vocabulary::rank(&piece[bounds[0]..bounds[1]]).expect("a merge ends on tokens")),
            ),
        }
    }
    ranks
}

fn piece_count(piece: &[u8]) -> usize {
    if vocabulary::rank(piece).is_some() {
        1
    } else {
        merge::token_count(piece)
    }
}
