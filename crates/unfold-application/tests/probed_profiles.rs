//! Host profiles written from a probe's measurement (`unfold hosts probe --write DIR`): what the
//! probe saw replaces what the profile said, what it cannot see is kept, and a measurement that
//! measured nothing writes nothing.

use indexmap::IndexMap;
use unfold_application::host_probe::{HostProbe, ProbedHost};
use unfold_application::probed_profiles::{probed_profile, write_probed_profiles};
use unfold_documents::host_profile::{Evidence, HostApi, HostProfile, ToolNames, ToolOrder};
use unfold_documents::refresh::Refresh;

fn counts(pairs: &[(&str, u32)]) -> IndexMap<String, u32> {
    pairs.iter().map(|(moment, runs)| ((*moment).to_owned(), *runs)).collect()
}

/// `host` measured over runs shown at `visible_at`, all put where `order` says.
fn probed(host: &str, visible_at: &[(&str, u32)], order: &[(&str, u32)]) -> ProbedHost {
    let runs = visible_at.iter().map(|(_, runs)| runs).sum();
    ProbedHost {
        host: host.to_owned(),
        version: Some("9.9.9".to_owned()),
        runs,
        visible_at: counts(visible_at),
        relisted: runs,
        prefix_stable: runs,
        tool_order: counts(order),
        incomplete: 0,
        median_wall_ms: 4000,
        median_servers_ms: 5,
    }
}

fn preset(name: &str) -> HostProfile {
    HostProfile::preset(name).unwrap().clone()
}

#[test]
fn the_moment_most_runs_showed_the_tool_becomes_the_refresh_a_tie_going_to_the_later() {
    let base = preset("claude-code");
    let refresh = |visible: &[(&str, u32)]| probed_profile(&probed("claude-code", visible, &[]), &base).refresh;
    assert_eq!(refresh(&[("next_call", 4), ("late_1", 1)]), Refresh::NextCall);
    assert_eq!(refresh(&[("next_call", 3), ("late_1", 3)]), Refresh::Late(1));
    assert_eq!(refresh(&[("next_call", 1), ("late_1", 2), ("late_2", 2)]), Refresh::Late(2));
    assert_eq!(refresh(&[("never", 5)]), Refresh::Never);
}

#[test]
fn the_profile_takes_the_version_order_and_measurement_and_keeps_the_rest() {
    let base = preset("claude-code");
    let profile = probed_profile(&probed("claude-code", &[("next_call", 7), ("late_1", 3)], &[("end", 10)]), &base);
    assert_eq!(profile.version.as_deref(), Some("9.9.9"));
    assert_eq!(profile.tool_order, ToolOrder::Append);
    assert_eq!((profile.name.as_str(), profile.host.as_str()), ("claude-code", "Claude Code"));
    assert_eq!((profile.api, profile.strategy, profile.tool_names), (base.api, base.strategy, base.tool_names));
    // The new measurement first; the old one is gone; what others reported stays.
    let Evidence::Measured { measured, runs, visible_at } = &profile.evidence[0] else {
        panic!("{:?}", profile.evidence)
    };
    assert_eq!((measured.as_str(), *runs), ("unfold hosts probe of claude-code 9.9.9: 10 runs", 10));
    assert_eq!(visible_at, &counts(&[("next_call", 7), ("late_1", 3)]));
    let reported = |profile: &HostProfile| -> Vec<Evidence> {
        profile.evidence.iter().filter(|e| matches!(e, Evidence::Reported { .. })).cloned().collect()
    };
    assert!(!reported(&base).is_empty());
    assert_eq!(reported(&profile), reported(&base));
    assert_eq!(profile.evidence.len(), 1 + reported(&base).len());
    // A tool put where no lane puts it leaves the order as it was; at the end, a host that puts
    // the server's tools after its own keeps saying so.
    let elsewhere = probed_profile(&probed("claude-code", &[("next_call", 1)], &[("elsewhere", 1)]), &base);
    assert_eq!(elsewhere.tool_order, base.tool_order);
    let gemini = preset("gemini-cli");
    assert_eq!(gemini.tool_order, ToolOrder::SourcesLast);
    let at_end = probed_profile(&probed("gemini-cli", &[("late_1", 1)], &[("end", 1)]), &gemini);
    assert_eq!(at_end.tool_order, ToolOrder::SourcesLast);
}

#[test]
fn profiles_are_written_over_the_folders_own_and_read_back() {
    let folder = tempfile::tempdir().unwrap();
    // A user's own profile of codex: another API and names; the probe keeps them.
    let mut own = preset("codex");
    own.api = HostApi::OpenaiChat;
    own.tool_names = ToolNames::Plain;
    own.save(&folder.path().join("codex.host.json")).unwrap();
    let probe = HostProbe::of(vec![
        probed("codex", &[("never", 3)], &[]),
        probed("codex-list-changed", &[("next_call", 3)], &[("sorted", 3)]),
    ]);
    let written = write_probed_profiles(folder.path(), &probe).unwrap();
    assert_eq!(
        written,
        vec![folder.path().join("codex.host.json"), folder.path().join("codex-list-changed.host.json")]
    );
    let codex = HostProfile::load(&written[0]).unwrap();
    assert_eq!((codex.api, codex.tool_names, codex.refresh), (HostApi::OpenaiChat, ToolNames::Plain, Refresh::Never));
    let listing = HostProfile::load(&written[1]).unwrap();
    assert_eq!((listing.refresh, listing.tool_order), (Refresh::NextCall, ToolOrder::Sorted));
    assert_eq!(listing.version.as_deref(), Some("9.9.9"));
}

#[test]
fn a_probe_whose_runs_never_reached_the_section_writes_nothing() {
    let folder = tempfile::tempdir().unwrap();
    let mut failed = probed("gemini-cli", &[("never", 3)], &[]);
    failed.incomplete = 2;
    let probe = HostProbe::of(vec![probed("codex", &[("never", 3)], &[]), failed]);
    let error = write_probed_profiles(folder.path(), &probe).unwrap_err().to_string();
    assert!(error.contains("2 of the 3 runs of gemini-cli ended before the host read the section"), "{error}");
    assert_eq!(std::fs::read_dir(folder.path()).unwrap().count(), 0, "nothing written, codex neither");
}

#[test]
fn a_host_without_a_preset_or_a_profile_in_the_folder_is_refused_naming_the_file() {
    let folder = tempfile::tempdir().unwrap();
    let probe = HostProbe::of(vec![probed("my-agent", &[("next_call", 1)], &[])]);
    let error = write_probed_profiles(folder.path(), &probe).unwrap_err().to_string();
    let expected =
        format!("my-agent has no preset and {} does not exist", folder.path().join("my-agent.host.json").display());
    assert!(error.contains(&expected), "{error}");
}
