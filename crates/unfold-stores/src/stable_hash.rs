//! A hash of bytes that stays the same across Rust releases and machines (unlike `DefaultHasher`),
//! for names kept on disk: a recovery entry's file name (a long id cut short), a template's hash in
//! the run history (runs of the same template grouped). A newer Unfold must find what an older one
//! wrote. Neither is a decision anyone could abuse by making two inputs collide, so 64-bit FNV-1a
//! serves; what must hold against a hostile file (a source the user allowed, `consent_store.rs`)
//! uses SHA-256 instead.

/// 64-bit FNV-1a of `bytes`: not for anything a collision could be used against.
pub fn stable_hash(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}
