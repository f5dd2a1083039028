//! Host profiles written from the probe (`unfold hosts probe --write DIR`, spec 13): a simulated
//! host lane is only ever as true as the last probe, so the profile takes from the measurement
//! what it measured — the version, when the revealed tool reached the model, where the host put
//! it — and keeps from the profile it replaces (the folder's, else the preset) what the probe
//! cannot see: the API, the strategy, the names, and the evidence other people reported.

use std::path::{Path, PathBuf};

use unfold_documents::host_profile::{Evidence, HostProfile, ToolOrder};
use unfold_documents::refresh::Refresh;

use crate::error::{AppError, AppResult, ErrorCode};
use crate::host_probe::{HostProbe, ProbedHost};

/// How the measured evidence says where it comes from.
pub const MEASURED_BY: &str = "unfold hosts probe";

/// The profile `probed` measures, over `base`: its version, refresh, tool order and measured
/// evidence are the probe's; the rest, and the evidence reported by others, stay `base`'s.
pub fn probed_profile(probed: &ProbedHost, base: &HostProfile) -> HostProfile {
    let version = probed.version.clone().or_else(|| base.version.clone());
    let measured = Evidence::Measured {
        measured: format!(
            "{MEASURED_BY} of {}{}: {} runs",
            probed.host,
            version.as_deref().map(|v| format!(" {v}")).unwrap_or_default(),
            probed.runs
        ),
        runs: probed.runs,
        visible_at: probed.visible_at.clone(),
    };
    let reported = base.evidence.iter().filter(|evidence| matches!(evidence, Evidence::Reported { .. })).cloned();
    HostProfile {
        version,
        refresh: most_runs_refresh(probed).unwrap_or(base.refresh),
        tool_order: most_runs_order(probed, base.tool_order),
        evidence: std::iter::once(measured).chain(reported).collect(),
        ..base.clone()
    }
}

/// Writes the profile of each host `probe` measured into `folder` as `NAME.host.json`, over the
/// profile already there (else the preset of that name); returns the files written. A host whose
/// runs did not all reach the section, or that has no profile to start from, is refused before
/// anything is written.
pub fn write_probed_profiles(folder: &Path, probe: &HostProbe) -> AppResult<Vec<PathBuf>> {
    let profiles = probe
        .hosts
        .iter()
        .map(|probed| {
            let path = folder.join(format!("{}.host.json", probed.host));
            Ok((probed_profile(probed, &profile_under(probed, &path)?), path))
        })
        .collect::<AppResult<Vec<_>>>()?;
    unfold_documents::document::create_folder(folder)?;
    for (profile, path) in &profiles {
        profile.save(path)?;
    }
    Ok(profiles.into_iter().map(|(_, path)| path).collect())
}

/// The profile the measurement of `probed` replaces: the file at `path`, else the preset.
fn profile_under(probed: &ProbedHost, path: &Path) -> AppResult<HostProfile> {
    if probed.incomplete > 0 {
        return Err(AppError::new(
            ErrorCode::InvalidRequest,
            format!(
                "{} of the {} runs of {} ended before the host read the section: no profile written \
                 (see why with `unfold host run`)",
                probed.incomplete, probed.runs, probed.host
            ),
        ));
    }
    if path.exists() {
        return crate::hosts::load_profile(path);
    }
    HostProfile::preset(&probed.host).cloned().ok_or_else(|| {
        AppError::new(
            ErrorCode::InvalidRequest,
            format!(
                "{} has no preset and {} does not exist: write its profile (api, strategy) there first",
                probed.host,
                path.display()
            ),
        )
    })
}

/// When most runs showed the tool (a tie goes to the later moment: a lane should not promise
/// more than the host keeps); none when nothing was measured.
fn most_runs_refresh(probed: &ProbedHost) -> Option<Refresh> {
    // `visible_at` runs from the earliest moment to `never`, and the last of equals wins.
    let (moment, _) = probed.visible_at.iter().max_by_key(|(_, runs)| **runs)?;
    match moment.as_str() {
        "next_call" => Some(Refresh::NextCall),
        "never" => Some(Refresh::Never),
        late => late.strip_prefix("late_")?.parse().ok().map(Refresh::Late),
    }
}

/// The order most runs put the tool in, over `was`. The probe's tools are all the server's, so
/// `end` is what `append` and `sources_last` both do (a host that puts its own tools first, the
/// server's after): either is kept; `elsewhere`, or nothing seen, keeps `was`.
fn most_runs_order(probed: &ProbedHost, was: ToolOrder) -> ToolOrder {
    let most = probed.tool_order.iter().max_by_key(|(_, runs)| **runs).map(|(order, _)| order.as_str());
    match (most, was) {
        (Some("end"), ToolOrder::Append | ToolOrder::SourcesLast) => was,
        (Some("end"), ToolOrder::Sorted) => ToolOrder::Append,
        (Some("sorted"), _) => ToolOrder::Sorted,
        _ => was,
    }
}
