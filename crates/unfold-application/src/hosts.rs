//! Host profiles as lanes are named (spec 12): `host:NAME` is one of the presets Unfold ships,
//! `host:FILE` a user's `*.host.json`; and the presets as `unfold hosts list` and the app show
//! them.

use std::path::Path;

use unfold_documents::host_profile::{host_reference, HostProfile};
use unfold_engine::{AdapterKind, LaneSpec};

use crate::error::{AppError, AppResult, ErrorCode};

/// The presets Unfold ships, in the order they are listed.
pub fn presets() -> &'static [HostProfile] {
    HostProfile::presets()
}

/// The profile `reference` names: a preset's name, or a host profile file's path (it holds a
/// `/` or ends with `.host.json`). An unknown name fails with the presets' names.
pub fn host_profile(reference: &str) -> AppResult<HostProfile> {
    if HostProfile::names_a_file(reference) {
        return load_profile(Path::new(reference));
    }
    HostProfile::known_preset(reference).cloned().map_err(|message| AppError::new(ErrorCode::InvalidRequest, message))
}

/// The host profile file at `path`; its problems name the file and their places.
pub fn load_profile(path: &Path) -> AppResult<HostProfile> {
    HostProfile::load(path).map_err(AppError::invalid_as(ErrorCode::InvalidRequest))
}

/// What each of `choices` runs: an adapter's name (`dynamic`, `restart`, `allowed_tools`,
/// `deferred`), or `host:` and a preset's name or a host profile file's path.
pub fn lane_specs(choices: &[String]) -> AppResult<Vec<LaneSpec>> {
    choices.iter().map(|choice| lane_spec(choice)).collect()
}

/// What `choice` runs (see [`lane_specs`]).
pub fn lane_spec(choice: &str) -> AppResult<LaneSpec> {
    if let Some(reference) = host_reference(choice) {
        return Ok(LaneSpec::Host(Box::new(host_profile(reference)?)));
    }
    AdapterKind::ALL.into_iter().find(|kind| kind.name() == choice).map(LaneSpec::Adapter).ok_or_else(|| {
        let adapters: Vec<&str> = AdapterKind::ALL.iter().map(|kind| kind.name()).collect();
        AppError::new(
            ErrorCode::InvalidRequest,
            format!(
                "'{choice}' is not a lane: an adapter ({}), host:NAME (`unfold hosts list`) or host:FILE",
                adapters.join(", ")
            ),
        )
    })
}
