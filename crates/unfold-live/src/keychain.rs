//! API keys kept in the OS keychain: on Linux the Secret Service (GNOME Keyring, KWallet) over
//! D-Bus, chosen explicitly — keyring 3 without a store keeps keys in memory and "succeeds"
//! (`../shared/setup/PITFALLS.md`). There is no fallback: without a keychain, a profile that takes
//! its key from it fails with an error that says so, and no key is ever written to a file.

use keyring::secret_service::SsCredential;
use keyring::Entry;

use super::ApiKey;
use unfold_documents::error::{Error, Result};

/// The service name the keys are kept under; the account is the profile's name.
const SERVICE: &str = "dev.unfold.studio";

fn entry(profile: &str) -> Result<Entry> {
    let credential = SsCredential::new_with_target(None, SERVICE, profile).map_err(|e| failure(profile, &e))?;
    Ok(Entry::new_with_credential(Box::new(credential)))
}

/// The key kept for `profile`.
pub fn read_key(profile: &str) -> Result<ApiKey> {
    match entry(profile)?.get_password() {
        Ok(key) if !key.trim().is_empty() => Ok(ApiKey::new(key.trim())),
        Ok(_) | Err(keyring::Error::NoEntry) => Err(Error::Provider(format!(
            "the OS keychain holds no key for profile '{profile}': store one with `unfold key set {profile}`"
        ))),
        Err(e) => Err(failure(profile, &e)),
    }
}

/// Keeps `key` for `profile`, replacing any earlier one.
pub fn store_key(profile: &str, key: &ApiKey) -> Result<()> {
    if key.0.trim().is_empty() {
        return Err(Error::Provider("the key is empty".to_owned()));
    }
    entry(profile)?.set_password(key.0.trim()).map_err(|e| failure(profile, &e))
}

/// Forgets the key of `profile`; true when there was one.
pub fn delete_key(profile: &str) -> Result<bool> {
    match entry(profile)?.delete_credential() {
        Ok(()) => Ok(true),
        Err(keyring::Error::NoEntry) => Ok(false),
        Err(e) => Err(failure(profile, &e)),
    }
}

fn failure(profile: &str, error: &keyring::Error) -> Error {
    let cause = match error {
        keyring::Error::PlatformFailure(cause) | keyring::Error::NoStorageAccess(cause) => cause.to_string(),
        other => other.to_string(),
    };
    Error::Provider(format!(
        "the OS keychain is not available for profile '{profile}' (a Secret Service such as GNOME Keyring, over D-Bus): {cause}"
    ))
}
