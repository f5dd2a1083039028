//! o200k_base's vocabulary, read in place from tables the build script laid out: an
//! open-addressing table from bytes to rank and length, the tokens' bytes in the table's order, and
//! where each block of slots starts in them. Nothing is decoded or inserted when a process starts.

use crate::vocabulary_hash::{first_slot, slot_len, slot_rank, BLOCK_BITS, TABLE_BITS, TOKENS};

/// A token's rank (its id).
pub type Rank = u32;

static BYTES: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/vocabulary_bytes.bin"));
static TABLE: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/vocabulary_table.bin"));
static BLOCKS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/vocabulary_blocks.bin"));

fn word(words: &[u8], index: usize) -> u32 {
    let at = index * 4;
    u32::from_le_bytes([words[at], words[at + 1], words[at + 2], words[at + 3]])
}

/// Where the token in `slot` starts in the bytes: where its block starts, plus the lengths of the
/// slots before it in the block.
#[inline]
fn start(slot: usize) -> usize {
    let block = slot >> BLOCK_BITS;
    let before = (block << BLOCK_BITS..slot).map(|earlier| slot_len(word(TABLE, earlier)));
    word(BLOCKS, block) as usize + before.sum::<usize>()
}

/// Every token with its bytes, in the table's order (not by rank).
pub fn tokens() -> impl Iterator<Item = (Rank, &'static [u8])> {
    (0..1 << TABLE_BITS).filter_map(|slot| {
        let entry = word(TABLE, slot);
        let start = start(slot);
        (entry != 0).then(|| (slot_rank(entry), &BYTES[start..start + slot_len(entry)]))
    })
}

/// The number of tokens.
pub fn len() -> usize {
    TOKENS
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
        if slot_len(entry) == bytes.len() {
            let start = start(slot);
            // Byte by byte: tokens are a few bytes long, shorter than a call to `memcmp` takes.
            if BYTES[start..start + bytes.len()].iter().zip(bytes).all(|(stored, byte)| stored == byte) {
                return Some(slot_rank(entry));
            }
        }
        slot = (slot + 1) & mask;
    }
}
