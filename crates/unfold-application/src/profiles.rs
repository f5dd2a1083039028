//! The provider profiles as the command line and the app use them: the file they are kept in,
//! read as it is now on every use (the user may edit it beside the app), saved checked as loading
//! checks it, and whether each profile's key is set (never the key).

use std::path::PathBuf;

use unfold_documents::provider_profile::{ProviderProfile, ProviderProfiles};
use unfold_live::ApiKey;

use crate::error::{AppError, AppResult, ErrorCode};

/// The profile file (`None` without a home folder to keep it in).
#[derive(Debug, Clone)]
pub struct Profiles(pub Option<PathBuf>);

/// The provider profiles as the settings show them.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ProfilesView {
    /// The file they are kept in.
    pub path: Option<String>,
    /// The profiles.
    pub profiles: Vec<ProviderProfile>,
    /// For each profile, in order, whether its key can be found now (the environment variable is
    /// set, or the keychain holds it); always true for a profile without a key.
    pub keys_set: Vec<bool>,
}

impl Profiles {
    fn path(&self) -> AppResult<&PathBuf> {
        self.0.as_ref().ok_or_else(|| {
            AppError::new(ErrorCode::Unavailable, "there is no home folder to keep provider profiles in")
        })
    }

    /// The profiles kept now (none before the first is saved).
    pub fn view(&self) -> AppResult<ProfilesView> {
        let Some(path) = &self.0 else {
            return Ok(ProfilesView { path: None, profiles: Vec::new(), keys_set: Vec::new() });
        };
        let profiles = ProviderProfiles::load_or_empty(path).map_err(invalid)?.profiles;
        let keys_set = profiles.iter().map(|p| ApiKey::for_profile(p).is_ok()).collect();
        Ok(ProfilesView { path: Some(path.display().to_string()), profiles, keys_set })
    }

    /// Replaces the profiles, checked as loading them would be; a refused save changes nothing.
    pub fn save(&self, profiles: Vec<ProviderProfile>) -> AppResult<ProfilesView> {
        let file = ProviderProfiles { profiles, ..ProviderProfiles::empty() };
        file.save(self.path()?).map_err(invalid)?;
        self.view()
    }

    /// The profile named `name`, read from the file as it is now; a missing file holds none.
    pub fn get(&self, name: &str) -> AppResult<ProviderProfile> {
        let path = self.path()?;
        let profiles = ProviderProfiles::load_or_empty(path).map_err(invalid)?;
        named(&profiles, name, path)
    }

    /// The profile named `name` from a file that must exist (the command line names it, or
    /// looks where the app keeps it).
    pub fn get_from_file(&self, name: &str) -> AppResult<ProviderProfile> {
        let path = self.path()?;
        let profiles = ProviderProfiles::load(path).map_err(invalid)?;
        named(&profiles, name, path)
    }
}

/// The profile `name` of `profiles`, read from `path`; a name the file does not hold is not found.
fn named(profiles: &ProviderProfiles, name: &str, path: &std::path::Path) -> AppResult<ProviderProfile> {
    let profile = profiles.get(name).map_err(|e| e.in_file(path));
    profile.cloned().map_err(AppError::invalid_as(ErrorCode::NotFound))
}

fn invalid(error: unfold_documents::Error) -> AppError {
    AppError::invalid_as(ErrorCode::InvalidProfiles)(error)
}
