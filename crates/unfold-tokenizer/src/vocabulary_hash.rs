//! The vocabulary table's layout: how many tokens it holds, what a slot keeps and the hash that
//! places a token's bytes. The build script lays the table out with it and [`crate::vocabulary`]
//! reads it, so both include this one file.

/// o200k_base's ordinary tokens: ranks 0 to 199,997 (its special tokens come after a gap).
pub const TOKENS: usize = 199_998;

/// Bits of the table's index: 2^18 slots for o200k's 199,998 tokens. At 76 % full a miss (most
/// lookups, during merges) walks a few slots of one cache line, and each slot holds its token's
/// length, so only a slot of the same length is compared.
pub const TABLE_BITS: u32 = 18;

/// Bytes of a slot: the rank in the low 18 bits, the length in the 6 above (768 KB in all).
pub const SLOT_BYTES: usize = 3;

/// Where a slot keeps its token's length; the rank takes the bits below.
pub const LENGTH_SHIFT: u32 = 18;

/// The longest token the table holds, the most a slot's 6 bits of length say. The 93 longer ones
/// (up to 128 bytes: runs of one character, mostly) are kept apart, since pieces that long are rare.
pub const LONGEST_IN_TABLE: usize = 63;

/// The tokens' bytes are laid out in slot order, and where each block of 2^4 slots starts is kept:
/// a token starts where its block does plus the lengths of the slots before it in the block (one
/// cache line), so no table of offsets (0.8 MB) is needed.
pub const BLOCK_BITS: u32 = 4;

/// A slot: the token's rank and length (never 0, since a token has bytes; 0 is an empty slot).
#[allow(dead_code, reason = "the build script writes the slots; the crate only reads them")]
pub fn slot_entry(rank: u32, len: usize) -> u32 {
    assert!(rank < 1 << LENGTH_SHIFT && (1..=LONGEST_IN_TABLE).contains(&len), "rank {rank}, length {len}");
    rank | ((len as u32) << LENGTH_SHIFT)
}

/// The rank a slot holds.
#[inline]
pub fn slot_rank(entry: u32) -> u32 {
    entry & ((1 << LENGTH_SHIFT) - 1)
}

/// The length of the token a slot holds (0 for an empty slot).
#[inline]
#[allow(dead_code, reason = "the crate reads lengths; the build script only writes them")]
pub fn slot_len(entry: u32) -> usize {
    (entry >> LENGTH_SHIFT) as usize
}

/// The slot a token's bytes start probing at.
#[inline]
pub fn first_slot(bytes: &[u8]) -> usize {
    let mut hash = (bytes.len() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        hash = (hash.rotate_left(23) ^ u64::from_le_bytes(word)).wrapping_mul(0x517C_C1B7_2722_0A95);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        hash = (hash.rotate_left(23) ^ padded_word(bytes, rest.len())).wrapping_mul(0x517C_C1B7_2722_0A95);
    }
    (hash >> (64 - TABLE_BITS)) as usize
}

/// The last `len` (1 to 7) bytes of `bytes` as a little-endian word, zero above them, read with
/// loads that overlap rather than copied into a zeroed buffer: reading a word that byte-sized
/// stores just wrote stalls the processor, and most tokens are shorter than a word.
#[inline]
fn padded_word(bytes: &[u8], len: usize) -> u64 {
    let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
    let half = |at: usize| u64::from(u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes")));
    let byte = |at: usize| u64::from(bytes[at]);
    let start = bytes.len() - len;
    if bytes.len() >= 8 {
        // The word that ends with the text, its bytes before the last `len` shifted out.
        word(bytes.len() - 8) >> (8 * (8 - len))
    } else if len >= 4 {
        // Two halves that overlap where `len` < 8: the bytes they share are equal.
        half(start) | half(bytes.len() - 4) << (8 * (len - 4))
    } else {
        byte(start) | byte(start + len / 2) << (8 * (len / 2)) | byte(start + len - 1) << (8 * (len - 1))
    }
}
