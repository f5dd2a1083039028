//! The provider profiles' commands: the profiles (the same file `unfold run` reads) with whether
//! each key is set (never the key), and saving them. Each translates into
//! `unfold_application::profiles`.

use std::sync::Arc;

use tauri::State;
use unfold_application::profiles::{Profiles, ProfilesView};
use unfold_documents::provider_profile::ProviderProfile;

use crate::command_error::CommandError;

/// The provider profiles, and whether their keys are set.
#[tauri::command]
#[specta::specta]
pub async fn provider_profiles(profiles: State<'_, Arc<Profiles>>) -> Result<ProfilesView, CommandError> {
    Ok(profiles.view()?)
}

/// Replaces the provider profiles (a key is never among them: only where to find it).
#[tauri::command]
#[specta::specta]
pub async fn save_provider_profiles(
    profiles: State<'_, Arc<Profiles>>,
    list: Vec<ProviderProfile>,
) -> Result<ProfilesView, CommandError> {
    Ok(profiles.save(list)?)
}
