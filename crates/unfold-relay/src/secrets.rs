//! A session's code and token, from the operating system's secure random source (never a
//! seeded generator: the CODAP relay's `Math.random()` codes were guessable), and the
//! comparison of a presented token in constant time.

use base64::Engine;
use subtle::ConstantTimeEq;

/// The code's alphabet: RFC 4648 base32, no padding (no 0/O or 1/I to misread).
const CODE_ALPHABET: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/// How many characters a session code has (40 bits).
pub const CODE_LEN: usize = 8;

/// Bytes of randomness in a token.
const TOKEN_BYTES: usize = 32;

/// `N` bytes from the OS's secure random source.
fn random<const N: usize>() -> [u8; N] {
    let mut bytes = [0u8; N];
    // The OS source failing leaves no safe way to go on: a session without secrets must not exist.
    getrandom::fill(&mut bytes).expect("the operating system's random source is unavailable");
    bytes
}

/// A new session code: 8 characters of `A-Z2-7`.
pub fn new_code() -> String {
    // 32 divides 256: taking each byte modulo 32 is uniform.
    random::<CODE_LEN>().iter().map(|b| CODE_ALPHABET[usize::from(b % 32)] as char).collect()
}

/// A new token: 32 random bytes, base64url without padding.
pub fn new_token() -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(random::<TOKEN_BYTES>())
}

/// Whether `presented` is `expected`, in time that does not depend on where they differ.
pub fn token_matches(expected: &str, presented: &str) -> bool {
    expected.as_bytes().ct_eq(presented.as_bytes()).into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_and_tokens_have_their_shape_and_do_not_repeat() {
        let codes: std::collections::HashSet<String> = (0..1000).map(|_| new_code()).collect();
        assert_eq!(codes.len(), 1000);
        assert!(codes.iter().all(|c| c.len() == CODE_LEN && c.bytes().all(|b| CODE_ALPHABET.contains(&b))));
        let token = new_token();
        assert_eq!(token.len(), 43, "32 bytes in unpadded base64url");
        assert!(token.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'));
        assert!(token_matches(&token, &token.clone()));
        assert!(!token_matches(&token, &new_token()));
        assert!(!token_matches(&token, ""));
    }
}
