//! A hash of bytes that stays the same across Rust releases and machines (unlike `DefaultHasher`),
//! for names and fingerprints kept on disk: a recovery entry's file name, a template's hash in the
//! run history. A newer Unfold must find what an older one wrote.

/// 64-bit FNV-1a of `bytes`.
pub fn stable_hash(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}
