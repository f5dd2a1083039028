//! o200k_base's vocabulary, read in place from tables the build script laid out: the tokens'
//! bytes in rank order, where each one starts, and an open-addressing table from bytes to rank.
//! Nothing is decoded or inserted when a process starts.

use crate::vocabulary_hash::{first_slot, LENGTH_SHIFT, TABLE_BITS};

/// A token's rank (its id).
pub type Rank = u32;

static BYTES: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/vocabulary_bytes.bin"));
static OFFSETS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/vocabulary_offsets.bin"));
static TABLE: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/vocabulary_table.bin"));

fn word(words: &[u8], index: usize) -> u32 {
    let at = index * 4;
    u32::from_le_bytes([words[at], words[at + 1], words[at + 2], words[at + 3]])
}

/// The bytes of the token of `rank`.
pub fn token(rank: Rank) -> &'static [u8] {
    let rank = rank as usize;
    &BYTES[word(OFFSETS, rank) as usize..word(OFFSETS, rank + 1) as usize]
}

/// The number of tokens.
pub fn len() -> usize {
    OFFSETS.len() / 4 - 1
}

/// The rank of the token whose bytes are `bytes`, if there is one.
#[inline]
pub fn rank(bytes: &[u8]) -> Option<Rank> {
    let mask = (1 << TABLE_BITS) - 1;
    let mut slot = first_slot(bytes);
    loop {
        let entry = word(TABLE, slot);
        if entry == 0 {
            return None;
        }
        let rank = entry & ((1 << LENGTH_SHIFT) - 1);
        if (entry >> LENGTH_SHIFT) as usize == bytes.len() && token(rank) == bytes {
            return Some(rank);
        }
        slot = (slot + 1) & mask;
    }
}
