//! o200k_base's vocabulary, read in place from tables the build script laid out: an
//! open-addressing table from bytes to rank and length, the tokens' bytes in the table's order,
//! where each block of slots starts in them, and the few tokens too long for a slot. Nothing is
//! decoded or inserted when a process starts.

use crate::vocabulary_hash::{
    first_slot, slot_len, slot_rank, BLOCK_BITS, LONGEST_IN_TABLE, SLOT_BYTES, TABLE_BITS, TOKENS,
};

/// A token's rank (its id).
pub type Rank = u32;

static BYTES: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/vocabulary_bytes.bin"));
static TABLE: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/vocabulary_table.bin"));
static BLOCKS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/vocabulary_blocks.bin"));
static LONG: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/vocabulary_long.bin"));

fn word(words: &[u8], index: usize) -> u32 {
    word_at(words, index * 4)
}

fn word_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

/// The entry of slot `at` (its rank and length; 0 when empty): a word read where the slot starts,
/// its last byte (the next slot's first, or the table's padding) masked off.
#[inline]
fn slot(at: usize) -> u32 {
    word_at(TABLE, at * SLOT_BYTES) & ((1 << (8 * SLOT_BYTES)) - 1)
}

/// Where the token in slot `at` starts in the bytes: where its block starts, plus the lengths of
/// the slots before it in the block.
#[inline]
fn start(at: usize) -> usize {
    let block = at >> BLOCK_BITS;
    let before = (block << BLOCK_BITS..at).map(|earlier| slot_len(slot(earlier)));
    word(BLOCKS, block) as usize + before.sum::<usize>()
}

/// Every token with its bytes, in the table's order (not by rank), the long ones last.
pub fn tokens() -> impl Iterator<Item = (Rank, &'static [u8])> {
    let in_table = (0..1 << TABLE_BITS).filter_map(|at| {
        let entry = slot(at);
        let start = start(at);
        (entry != 0).then(|| (slot_rank(entry), &BYTES[start..start + slot_len(entry)]))
    });
    in_table.chain(long_tokens())
}

/// The tokens longer than [`LONGEST_IN_TABLE`], with their ranks.
fn long_tokens() -> impl Iterator<Item = (Rank, &'static [u8])> {
    let mut rest = LONG;
    std::iter::from_fn(move || {
        let (&[r0, r1, r2, r3, len], after) = rest.split_first_chunk::<5>()?;
        let (bytes, after) = after.split_at(len as usize);
        rest = after;
        Some((u32::from_le_bytes([r0, r1, r2, r3]), bytes))
    })
}

/// The number of tokens.
pub fn len() -> usize {
    TOKENS
}

/// The rank of the token whose bytes are `bytes`, if there is one.
#[inline]
pub fn rank(bytes: &[u8]) -> Option<Rank> {
    if bytes.len() > LONGEST_IN_TABLE {
        return long_tokens().find(|(_, token)| *token == bytes).map(|(rank, _)| rank);
    }
    let mask = (1 << TABLE_BITS) - 1;
    let mut at = first_slot(bytes);
    loop {
        let entry = slot(at);
        if entry == 0 {
            return None;
        }
        if slot_len(entry) == bytes.len() {
            let start = start(at);
            // Byte by byte: tokens are a few bytes long, shorter than a call to `memcmp` takes.
            if BYTES[start..start + bytes.len()].iter().zip(bytes).all(|(stored, byte)| stored == byte) {
                return Some(slot_rank(entry));
            }
        }
        at = (at + 1) & mask;
    }
}
