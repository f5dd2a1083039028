//! Provider keys in the OS keychain (the Secret Service), as `unfold key` keeps and forgets them:
//! a key goes from the user to the keychain and nowhere else.

use unfold_live::{keychain, ApiKey};

use crate::error::AppResult;

/// Keeps `key` for the profile `profile`.
pub fn store_key(profile: &str, key: &str) -> AppResult<()> {
    Ok(keychain::store_key(profile, &ApiKey::new(key))?)
}

/// Forgets the key kept for `profile`; whether there was one.
pub fn delete_key(profile: &str) -> AppResult<bool> {
    Ok(keychain::delete_key(profile)?)
}
