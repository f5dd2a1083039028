//! The provider profiles' commands: the profiles (the same file `unfold run` reads) with whether
//! each key is set (never the key), and saving them; and the models runs can be priced as. Each
//! translates into `unfold_application::profiles` or `unfold_application::prices`.

use std::sync::Arc;

use tauri::State;
use unfold_application::folders::default_prices_file;
use unfold_application::prices::{PriceFile, PricedModels};
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

/// The models a scripted comparison can be priced as: every model the prices in force name (the
/// shipped ones and the user's file, which the command line reads too), and their default.
#[tauri::command]
#[specta::specta]
pub async fn priced_models() -> Result<PricedModels, CommandError> {
    Ok(PriceFile(default_prices_file()).priced_models()?)
}
