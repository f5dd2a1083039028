//! Host profiles (spec 12): the shipped presets, and the problems of a user's file at their places.

use serde_json::{json, Value};
use unfold_documents::host_profile::{Evidence, HostProfile, HostStrategy, ToolNames, ToolOrder};
use unfold_documents::refresh::Refresh;
use unfold_test_support::repo;

fn problems(profile: &Value) -> Vec<String> {
    match HostProfile::from_json(profile.to_string().as_bytes()) {
        Ok(_) => Vec::new(),
        Err(error) => error.problems().iter().map(|p| format!("{}: {}", p.location, p.message)).collect(),
    }
}

fn claude_code() -> Value {
    json!({
        "schema_version": 1, "kind": "unfold.host", "name": "my-host", "host": "My host",
        "api": "anthropic", "strategy": "inject", "refresh": { "late": 1 },
        "tool_order": "sorted", "tool_names": "mcp__{source}__{tool}",
        "evidence": [ { "measured": "unfold hosts probe", "runs": 3, "visible_at": { "late_1": 2, "next_call": 1 } } ]
    })
}

#[test]
fn every_preset_is_a_file_of_its_own_name_with_evidence() {
    let presets = HostProfile::presets();
    let files = std::fs::read_dir(repo("crates/unfold-documents/data/hosts")).unwrap().count();
    assert_eq!(presets.len(), files, "a preset file that is not shipped, or the other way round");
    let mut names: Vec<&str> = presets.iter().map(|profile| profile.name.as_str()).collect();
    for profile in presets {
        let file = repo(&format!("crates/unfold-documents/data/hosts/{}.host.json", profile.name));
        assert_eq!(&HostProfile::load(&file).unwrap(), profile, "{}", file.display());
        assert!(!profile.evidence.is_empty(), "{} says why", profile.name);
    }
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), presets.len(), "two presets of one name");
}

#[test]
fn the_presets_hold_what_the_hosts_were_seen_to_do() {
    let claude_code = HostProfile::preset("claude-code").unwrap();
    assert_eq!(claude_code.refresh, Refresh::Late(1));
    assert_eq!((claude_code.tool_order, claude_code.tool_names), (ToolOrder::Sorted, ToolNames::McpPrefixed));
    assert!(
        matches!(&claude_code.evidence[0], Evidence::Measured { runs: 10, visible_at, .. } if visible_at["late_1"] >= 5)
    );
    assert_eq!(HostProfile::preset("codex").unwrap().refresh, Refresh::Never);
    assert_eq!(HostProfile::preset("codex-list-changed").unwrap().refresh, Refresh::NextCall);
    assert_eq!(HostProfile::preset("gemini-cli").unwrap().tool_order, ToolOrder::SourcesLast);
    assert_eq!(HostProfile::preset("copilot-cli").unwrap().refresh, Refresh::NextTurn);
    assert!(HostProfile::preset("nobody").is_none());
}

/// The version `scripts/hosts.sh` pins in `variable` (`CLAUDE_CODE="2.1.197"`).
fn pinned(variable: &str) -> String {
    let script = std::fs::read_to_string(repo("scripts/hosts.sh")).unwrap();
    let line = script.lines().find(|line| line.starts_with(&format!("{variable}=\""))).unwrap();
    line.split('"').nth(1).unwrap().to_owned()
}

#[test]
fn the_presets_of_the_hosts_unfold_installs_are_probed_at_the_pinned_versions() {
    let hosts = [
        ("claude-code", "CLAUDE_CODE"),
        ("codex", "CODEX"),
        ("codex-list-changed", "CODEX"),
        ("gemini-cli", "GEMINI_CLI"),
        ("openai-agents", "OPENAI_AGENTS"),
        ("openai-agents-cached", "OPENAI_AGENTS"),
        ("pydantic-ai", "PYDANTIC_AI"),
        ("pydantic-ai-cached", "PYDANTIC_AI"),
    ];
    for (name, variable) in hosts {
        let preset = HostProfile::preset(name).unwrap();
        // A pinned version changed: run scripts/reprobe-presets.sh.
        assert_eq!(preset.version.as_deref(), Some(pinned(variable).as_str()), "{name}");
        let Evidence::Measured { measured, .. } = &preset.evidence[0] else { panic!("{name}: {:?}", preset.evidence) };
        assert!(measured.starts_with(&format!("unfold hosts probe of {name} ")), "{name}: {measured}");
    }
}

#[test]
fn a_profile_reads_with_its_refresh_in_either_form_and_defaults_for_order_and_names() {
    let mut profile = claude_code();
    assert_eq!(problems(&profile), Vec::<String>::new());
    profile["refresh"] = json!("next_turn");
    profile.as_object_mut().unwrap().remove("tool_order");
    profile.as_object_mut().unwrap().remove("tool_names");
    let read = HostProfile::from_json(profile.to_string().as_bytes()).unwrap();
    assert_eq!(
        (read.refresh, read.tool_order, read.tool_names),
        (Refresh::NextTurn, ToolOrder::Append, ToolNames::Plain)
    );
    assert_eq!(read.strategy, HostStrategy::Inject);
}

#[test]
fn a_bad_profile_is_refused_at_each_place() {
    let mut profile = claude_code();
    profile["evidence"][0]["visible_at"] = json!({ "late_1": 1, "late_0": 1, "soon": 0 });
    profile["refresh"] = json!("restart");
    assert_eq!(
        problems(&profile),
        [
            "/refresh: `\"restart\"` is the refresh of the `restart` strategy",
            "/evidence/0/visible_at/late_0: `late_0` is not a moment: next_call, late_1, late_2, …, next_turn or never",
            "/evidence/0/visible_at/soon: `soon` is not a moment: next_call, late_1, late_2, …, next_turn or never",
            "/evidence/0/visible_at: the counts add up to 2, not to the 3 runs",
        ]
    );
    let mut restarting = claude_code();
    restarting["strategy"] = json!("restart");
    assert_eq!(problems(&restarting), ["/refresh: a host that restarts refreshes by restarting: `\"restart\"`"]);
    let mut added_on_openai = claude_code();
    added_on_openai["strategy"] = json!("tool_addition");
    added_on_openai["api"] = json!("openai-responses");
    assert_eq!(
        problems(&added_on_openai),
        ["/api: the `tool_addition` strategy needs an API that has it: `\"anthropic\"`"]
    );
    added_on_openai["strategy"] = json!("deferred");
    assert_eq!(problems(&added_on_openai), Vec::<String>::new(), "OpenAI's Responses defer tools");
    added_on_openai["api"] = json!("openai-chat");
    assert_eq!(
        problems(&added_on_openai),
        ["/api: the `deferred` strategy needs an API that has it: `\"anthropic\"` or `\"openai-responses\"`"]
    );
    let mut misnamed = claude_code();
    misnamed["name"] = json!("My Host");
    misnamed["refresh"] = json!({ "late": "one" });
    misnamed["colour"] = json!("red");
    let found = problems(&misnamed);
    for place in ["/name: ", "/refresh: ", ": unknown field 'colour'"] {
        assert!(found.iter().any(|problem| problem.starts_with(place)), "{place} in {found:?}");
    }
}

#[test]
fn a_profile_file_with_problems_names_the_file() {
    let folder = tempfile::tempdir().unwrap();
    let path = folder.path().join("mine.host.json");
    let mut profile = claude_code();
    profile["api"] = json!("carrier-pigeon");
    std::fs::write(&path, profile.to_string()).unwrap();
    let error = HostProfile::load(&path).unwrap_err().to_string();
    assert!(error.contains("mine.host.json") && error.contains("/api"), "{error}");
}
