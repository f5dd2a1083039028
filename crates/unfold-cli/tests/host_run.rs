//! `unfold host run`, `unfold compare --hosts` and `unfold fork --hosts` with real agent hosts
//! from PyPI (`openai-agents`, `pydantic-ai`, installed by `scripts/hosts.sh install`) and programs
//! as the `command` host: when a revealed tool reached the host's model, asked once for consent,
//! going on from a recording, and however the host ends, nothing of it left running.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;
use unfold_documents::host_profile::{Evidence, HostProfile};
use unfold_documents::refresh::Refresh;
use unfold_test_support::agent_hosts::hosts_dir;
use unfold_test_support::scripted_model::serve_model;
use unfold_test_support::{mcp_servers, process_running};

fn repo(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").join(path)
}

const TEMPLATE: &str = "examples/coding-agent.unfold.json";
/// Reads `editing` (revealing `apply_patch`, …), patches, reads `testing`, runs the tests.
const SCENARIO: &str = "examples/coding-agent-fix-test.scenario.json";

/// `unfold` with its settings, history and hosts in `home` alone.
fn unfold(home: &Path, args: &[&str]) -> Output {
    unfold_in(home).args(args).output().unwrap()
}

/// The `unfold` command with its settings, history and hosts in `home` alone, to add to.
fn unfold_in(home: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_unfold"));
    command
        .current_dir(repo("."))
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_DATA_HOME", home.join("data"))
        .env("UNFOLD_HOSTS_DIR", hosts_dir());
    command
}

fn report(output: &Output) -> Value {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| panic!("{e}: {stderr}"))
}

/// Whether a host's name for a tool (`tool`, or the MCP server `unfold`'s `tool` as Claude Code,
/// Codex and Gemini CLI name it) is `tool`.
fn names(offered: &str, tool: &str) -> bool {
    offered == tool
        || ["unfold__", "unfold.", "unfold_"].iter().any(|server| offered.ends_with(&format!("{server}{tool}")))
}

/// The first model call after the host read `section` that offered a tool named `tool`, counted
/// in model calls after that read; none: no later call did.
fn calls_until_offered(run: &Value, section: &str, tool: &str) -> Option<usize> {
    let events = run["events"].as_array().unwrap();
    let read = events
        .iter()
        .position(|e| e["type"] == "tool_call" && e["name"] == "read_section" && e["args"]["section_key"] == section)
        .unwrap_or_else(|| panic!("the host never read {section}: {run}"));
    let later = events[read..].iter().filter(|e| e["type"] == "model_call");
    later
        .enumerate()
        .find(|(_, call)| call["tools_offered"].as_array().unwrap().iter().any(|t| names(t.as_str().unwrap(), tool)))
        .map(|(n, _)| n + 1)
}

/// The sections `run` read, by key, in order.
fn sections_read(run: &Value) -> Vec<&Value> {
    let events = run["events"].as_array().unwrap();
    let reads = events.iter().filter(|e| e["type"] == "tool_call" && e["name"] == "read_section");
    reads.map(|e| &e["args"]["section_key"]).collect()
}

fn host_run(home: &Path, host: &str) -> Value {
    let output = unfold(home, &["host", "run", host, TEMPLATE, SCENARIO, "--allow-host", "--json"]);
    let report = report(&output);
    assert_eq!(report["runs"].as_array().unwrap().len(), 1, "{report}");
    report["runs"][0].clone()
}

#[test]
fn listing_tools_again_shows_a_revealed_tool_at_the_next_request_and_a_cached_list_never_does() {
    let home = tempfile::tempdir().unwrap();
    for host in ["openai-agents", "pydantic-ai"] {
        let run = host_run(home.path(), host);
        assert_eq!(run["status"], "completed", "{run}");
        assert_eq!(run["real_host"]["name"], host);
        assert!(run["real_host"]["version"].is_string(), "{run}");
        assert_eq!(calls_until_offered(&run, "editing", "apply_patch"), Some(1), "{host}: {run}");
        assert_eq!(calls_until_offered(&run, "testing", "run_tests"), Some(1), "{host}: {run}");
        assert!(run["counters"].get("calls_not_made").is_none(), "{host}: {run}");
        let listed = run["events"].as_array().unwrap().iter().filter(|e| e["type"] == "tools_listed").count();
        assert!(listed >= 2, "{host} lists tools again after a read: {run}");
        // Kept in the history with its version and how it ended.
        let newest = &report(&unfold(home.path(), &["history", "--json"]))[0];
        assert_eq!(newest["lane"], format!("real:{host}"));
        let shown = unfold(home.path(), &["history", "show", &newest["id"].to_string()]);
        let version = run["real_host"]["version"].as_str().unwrap();
        let line = format!("real host: {host} {version}, exited with status 0");
        assert!(String::from_utf8_lossy(&shown.stdout).lines().any(|l| l == line), "{line} in {shown:?}");
    }

    // With the tool list cached, neither lists again (they speak the 2026-07-28 protocol and open
    // no subscription, so no change notice reaches them): the revealed tools never reach the
    // model, and the script's calls to them are not made.
    for host in ["openai-agents-cached", "pydantic-ai-cached"] {
        let cached = host_run(home.path(), host);
        assert_eq!(calls_until_offered(&cached, "editing", "apply_patch"), None, "{cached}");
        let events = cached["events"].as_array().unwrap();
        let not_shown: Vec<&Value> =
            events.iter().filter(|e| e["type"] == "tool_not_shown").map(|e| &e["tool_name"]).collect();
        assert_eq!(not_shown, ["apply_patch", "run_tests", "format_files"], "{host}: {cached}");
        assert_eq!(cached["counters"]["calls_not_made"], 3);
        let never = events.iter().filter(|e| e["type"] == "tools_pending" && e["shows"] == "never").count();
        assert_eq!(never, 2, "each read's tools are pending for good: {cached}");
        assert_eq!(events.iter().filter(|e| e["type"] == "tools_listed").count(), 1, "{host}: {cached}");
    }
}

#[test]
fn the_coding_agent_clis_run_offline_and_show_a_revealed_tool_as_each_refreshes_its_list() {
    let home = tempfile::tempdir().unwrap();
    // Codex lists its MCP tools once unless its feature is on: the revealed tools never reach its
    // model, and the script's three calls to them are not made.
    let codex = host_run(home.path(), "codex");
    assert_eq!(codex["status"], "completed", "{codex}");
    assert_eq!(calls_until_offered(&codex, "editing", "apply_patch"), None, "{codex}");
    assert_eq!(codex["counters"]["calls_not_made"], 3, "{codex}");
    // With `mcp_tool_list_changed`, at the next request.
    let listing = host_run(home.path(), "codex-list-changed");
    assert_eq!(calls_until_offered(&listing, "editing", "apply_patch"), Some(1), "{listing}");
    assert_eq!(calls_until_offered(&listing, "testing", "run_tests"), Some(1), "{listing}");
    // Claude Code and Gemini CLI list again when told, a few milliseconds after the result that
    // revealed the tools; their next request has mostly gone out by then: at the next request
    // or the one after (`unfold hosts probe` measures how often each).
    for host in ["claude-code", "gemini-cli"] {
        let run = host_run(home.path(), host);
        assert_eq!(run["status"], "completed", "{host}: {run}");
        let at = calls_until_offered(&run, "editing", "apply_patch");
        assert!(matches!(at, Some(1 | 2)), "{host}: apply_patch first offered {at:?} requests after the read: {run}");
        assert!(run["real_host"]["version"].is_string(), "{run}");
    }
    // Nothing of theirs in the home Unfold was started with: each had a home of its own.
    let written: Vec<String> = std::fs::read_dir(home.path())
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into())
        .collect();
    assert_eq!(written.iter().filter(|name| !["config", "data"].contains(&name.as_str())).count(), 0, "{written:?}");
}

#[test]
fn a_cli_host_refuses_a_scenario_of_several_turns() {
    let home = tempfile::tempdir().unwrap();
    let two_turns = "examples/coding-agent-two-turns.scenario.json";
    let output = unfold(home.path(), &["host", "run", "claude-code", TEMPLATE, two_turns, "--allow-host"]);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("claude-code takes one user message"), "{stderr}");
}

#[test]
fn compare_sets_real_hosts_beside_the_adapters_and_names_where_a_cached_list_falls_short() {
    let home = tempfile::tempdir().unwrap();
    let hosts = "openai-agents,openai-agents-cached";
    let args =
        ["compare", TEMPLATE, SCENARIO, "--adapters", "dynamic,restart", "--hosts", hosts, "--allow-host", "--json"];
    let report = report(&unfold(home.path(), &args));
    let lanes: Vec<String> = report["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|run| match run["real_host"]["name"].as_str() {
            Some(name) => format!("real:{name}"),
            None => run["adapter"].as_str().unwrap().to_owned(),
        })
        .collect();
    assert_eq!(lanes, ["dynamic", "restart", "real:openai-agents", "real:openai-agents-cached"]);
    let divergences = report["divergences"].as_array().unwrap();
    assert_eq!(divergences[1]["right"], "real:openai-agents");
    assert!(divergences[1]["first"].is_null(), "the host made dynamic's calls: {}", divergences[1]);
    assert_eq!(divergences[2]["right"], "real:openai-agents-cached");
    let explanation = divergences[2]["first"]["explanation"].as_str().unwrap();
    assert!(explanation.starts_with("only dynamic calls apply_patch"), "{explanation}");
    let verdict = &report["verdict"];
    let cached = verdict["lanes"].as_array().unwrap().iter().find(|lane| lane["lane"] == "real:openai-agents-cached");
    let because = cached.unwrap()["because"].as_str().unwrap();
    assert!(because.contains("3 scripted tool calls could not be made"), "{verdict}");
    assert_ne!(verdict["winner"], "real:openai-agents-cached", "{verdict}");
}

#[test]
fn a_host_runs_only_once_allowed_and_a_changed_definition_is_asked_again() {
    let home = tempfile::tempdir().unwrap();
    let refused = unfold(home.path(), &["host", "run", "openai-agents", TEMPLATE, SCENARIO]);
    assert_eq!(refused.status.code(), Some(2));
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(said.contains("starting openai-agents needs your consent"), "{said}");
    assert!(said.contains(&format!("program: {}", hosts_dir().join("openai-agents/bin/python").display())), "{said}");
    assert!(said.contains("env: HOME={run}/home"), "a throwaway home, shown: {said}");
    assert!(!said.contains(&home.path().display().to_string()), "the user's home is not given: {said}");

    host_run(home.path(), "openai-agents");
    let again = unfold(home.path(), &["host", "run", "openai-agents", TEMPLATE, SCENARIO, "--json"]);
    assert!(again.status.success(), "allowed once is allowed: {}", String::from_utf8_lossy(&again.stderr));
    // The cached variant is another definition (its environment differs): asked on its own.
    let other = unfold(home.path(), &["host", "run", "openai-agents-cached", TEMPLATE, SCENARIO]);
    assert_eq!(other.status.code(), Some(2), "{}", String::from_utf8_lossy(&other.stderr));
}

/// `unfold host run command` with `program` as the host, a timeout of `timeout` seconds.
fn command_host(home: &Path, record: &Path, timeout: &str, program: &[&str]) -> (Value, String) {
    let record = record.display().to_string();
    let mut args = vec!["host", "run", "command", TEMPLATE, SCENARIO, "--allow-host", "--json", "--timeout", timeout];
    args.extend(["--record", &record, "--"]);
    args.extend(program);
    let output = unfold(home, &args);
    assert_eq!(output.status.code(), Some(1), "a failed run exits 1: {}", String::from_utf8_lossy(&output.stderr));
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    let error = report["runs"][0]["events"].as_array().unwrap().last().unwrap()["error"].as_str().unwrap().to_owned();
    (report["runs"][0].clone(), error)
}

#[test]
fn a_command_host_that_takes_the_mcp_url_sees_a_revealed_tool_at_its_next_request() {
    let home = tempfile::tempdir().unwrap();
    let record = tempfile::tempdir().unwrap();
    let python = mcp_servers::python();
    let host = repo("crates/unfold-cli/tests/host_run/http_host.py").display().to_string();
    let folder = record.path().display().to_string();
    let trace = record.path().join("trace.jsonl").display().to_string();
    let args =
        ["host", "run", "command", TEMPLATE, SCENARIO, "--allow-host", "--json", "--record", &folder, "--otel", &trace];
    let run = report(&unfold(home.path(), &[&args[..], &["--", &python, &host]].concat()))["runs"][0].clone();
    assert_eq!(run["status"], "completed", "{run}");
    assert_eq!(calls_until_offered(&run, "editing", "apply_patch"), Some(1), "{run}");
    assert_eq!(calls_until_offered(&run, "testing", "run_tests"), Some(1), "{run}");
    let listed = run["events"].as_array().unwrap().iter().filter(|e| e["type"] == "tools_listed").count();
    assert_eq!(listed, 6, "it lists before each of its six requests: {run}");
    let http_log = std::fs::read_to_string(record.path().join("run-1/mcp-http.jsonl")).unwrap();
    assert!(http_log.contains(r#""method":"initialize""#), "what it sent over HTTP is recorded: {http_log}");
    assert!(!record.path().join("run-1/mcp.jsonl").exists(), "and it never started the stdio server");
    // Traced like any run: a line, its span naming the lane.
    let traced = std::fs::read_to_string(&trace).unwrap();
    assert_eq!(traced.lines().count(), 1, "{traced}");
    assert!(traced.contains(r#"{"key":"unfold.lane","value":{"stringValue":"real:command"}}"#), "{traced}");
}

#[test]
fn a_host_that_hangs_exits_at_once_or_floods_ends_with_a_status_and_leaves_nothing_process_running() {
    let home = tempfile::tempdir().unwrap();
    let record = tempfile::tempdir().unwrap();

    let marker = "sleep 91731";
    let script = format!("{marker} & {marker}; true");
    let (run, error) = command_host(home.path(), &record.path().join("hangs"), "2", &["sh", "-c", &script]);
    assert_eq!(run["status"], "error");
    assert_eq!(error, "command was stopped after 2 s", "{run}");
    assert!(!process_running(marker), "the host's whole group is stopped");

    let (_, error) =
        command_host(home.path(), &record.path().join("exits"), "30", &["sh", "-c", "echo no key >&2; exit 3"]);
    assert_eq!(error, "command exited with status 3: no key");

    let (_, error) = command_host(home.path(), &record.path().join("quiet"), "30", &["true"]);
    assert_eq!(error, "command never called the model");

    let (_, error) = command_host(home.path(), &record.path().join("floods"), "2", &["sh", "-c", "yes unfold-flood"]);
    assert_eq!(error, "command was stopped after 2 s");
    let kept = std::fs::metadata(record.path().join("floods/run-1/stdout.txt")).unwrap().len();
    assert_eq!(kept, 1 << 20, "the output is kept up to 1 MiB and read away past it");
    assert!(!process_running("yes unfold-flood"));
}

#[test]
fn hosts_list_shows_each_installed_hosts_version_and_how_to_install_a_missing_one() {
    let home = tempfile::tempdir().unwrap();
    let listed = String::from_utf8(unfold(home.path(), &["hosts", "list"]).stdout).unwrap();
    // After the profiles, the real hosts.
    let listed = listed.split_once("\nreal hosts").unwrap().1;
    let version = |host: &str| {
        let line = listed.lines().find(|line| line.split_whitespace().next() == Some(host)).unwrap();
        line.split_whitespace().nth(1).unwrap().to_owned()
    };
    // The versions scripts/hosts.sh pins.
    let pinned =
        [("openai-agents", "0.24.0"), ("claude-code", "2.1.197"), ("codex", "0.171.0"), ("gemini-cli", "0.61.0")];
    for (host, pinned) in pinned {
        assert_eq!(version(host), pinned, "{listed}");
    }

    let nowhere = tempfile::tempdir().unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_unfold"))
        .args(["hosts", "list"])
        .env("HOME", home.path())
        .env("UNFOLD_HOSTS_DIR", nowhere.path())
        .env("PATH", nowhere.path())
        .output()
        .unwrap();
    let listed = String::from_utf8(output.stdout).unwrap();
    let listed = listed.split_once("\nreal hosts").unwrap().1;
    let claude = listed.lines().find(|line| line.starts_with("claude-code ")).unwrap();
    assert!(
        claude.ends_with("not installed (npm install @anthropic-ai/claude-code, or scripts/hosts.sh install)"),
        "{claude}"
    );
}

#[test]
fn the_probe_measures_when_each_host_shows_a_revealed_tool() {
    let home = tempfile::tempdir().unwrap();
    let hosts = ["openai-agents", "openai-agents-cached", "codex", "codex-list-changed", "claude-code", "gemini-cli"];
    let profiles = tempfile::tempdir().unwrap();
    let write = profiles.path().to_str().unwrap();
    let args =
        [&["hosts", "probe", "--repeat", "2", "--json", "--allow-host", "--write", write][..], &hosts[..]].concat();
    let probe = report(&unfold(home.path(), &args));
    assert_eq!(
        (&probe["schema_version"], &probe["kind"]),
        (&serde_json::json!(1), &serde_json::json!("unfold.host_probe"))
    );
    let row = |host: &str| probe["hosts"].as_array().unwrap().iter().find(|row| row["host"] == host).unwrap().clone();
    let visible = |host: &str| row(host)["visible_at"].clone();
    // Listing again at every request, or after list_changed at once: the next request.
    for host in ["openai-agents", "codex-list-changed"] {
        assert_eq!(visible(host), serde_json::json!({ "next_call": 2 }), "{host}: {probe}");
        assert_eq!(row(host)["relisted"], 2);
    }
    // A cached list, or Codex without its feature: never.
    for host in ["openai-agents-cached", "codex"] {
        assert_eq!(visible(host), serde_json::json!({ "never": 2 }), "{host}: {probe}");
        assert_eq!(row(host)["relisted"], 0);
    }
    // Claude Code and Gemini CLI list again after the notice, mostly after their next request
    // went out: the tool reaches the model then or later, never not at all.
    for host in ["claude-code", "gemini-cli"] {
        let at = visible(host);
        assert!(
            at.get("never").is_none()
                && at.as_object().unwrap().keys().all(|k| k == "next_call" || k.starts_with("late_")),
            "{host}: {at}"
        );
        assert_eq!(row(host)["relisted"], 2, "{host}: {probe}");
    }
    // Where each put the new tool: at the end of the server's (openai-agents keeps the server's
    // order), or among them sorted by name (Claude Code, Codex).
    assert_eq!(row("openai-agents")["tool_order"], serde_json::json!({ "end": 2 }));
    assert_eq!(row("claude-code")["tool_order"], serde_json::json!({ "sorted": 2 }));
    assert!(probe["hosts"].as_array().unwrap().iter().all(|row| row["prefix_stable"] == 2), "{probe}");
    // The median run's wall time, and the part of it Unfold's servers worked.
    for row in probe["hosts"].as_array().unwrap() {
        let (wall, servers) = (row["median_wall_ms"].as_u64().unwrap(), row["median_servers_ms"].as_u64().unwrap());
        assert!(wall > 0 && servers < wall, "{row}");
    }
    // The hosts ran in homes of their own: the user's home holds Unfold's own files and nothing
    // a host wrote (no .claude, .codex, .gemini, .npm, …).
    let written: Vec<PathBuf> = texts_under(home.path()).into_iter().map(|(path, _)| path).collect();
    let unfolds = [home.path().join("config/dev.unfold.studio"), home.path().join("data/dev.unfold.studio")];
    assert!(written.iter().all(|path| unfolds.iter().any(|own| path.starts_with(own))), "{written:?}");
    // Each run is kept in the history, as a lane of the probe's template, to open on a timeline.
    let kept = report(&unfold(home.path(), &["history", "--json"]));
    let lanes: Vec<&str> = kept.as_array().unwrap().iter().map(|run| run["lane"].as_str().unwrap()).collect();
    assert_eq!(lanes.len(), 2 * hosts.len(), "{kept}");
    assert!(
        hosts.iter().all(|host| lanes.iter().filter(|lane| **lane == format!("real:{host}")).count() == 2),
        "{lanes:?}"
    );
    // --write: each host's profile, its evidence this measurement, its refresh what most runs saw.
    for host in hosts {
        let profile = HostProfile::load(&profiles.path().join(format!("{host}.host.json"))).unwrap();
        assert_eq!(serde_json::json!(profile.version), row(host)["version"], "{host}");
        let Evidence::Measured { runs: 2, visible_at, .. } = &profile.evidence[0] else {
            panic!("{host}: {profile:?}")
        };
        assert_eq!(serde_json::json!(visible_at), visible(host), "{host}");
    }
    let refresh = |host: &str| HostProfile::load(&profiles.path().join(format!("{host}.host.json"))).unwrap().refresh;
    assert_eq!((refresh("openai-agents"), refresh("codex-list-changed")), (Refresh::NextCall, Refresh::NextCall));
    assert_eq!((refresh("openai-agents-cached"), refresh("codex")), (Refresh::Never, Refresh::Never));
}

/// Every file under `folder`, read as text.
fn texts_under(folder: &Path) -> Vec<(PathBuf, String)> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(folder).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            found.extend(texts_under(&path));
        } else {
            found.push((path.clone(), String::from_utf8_lossy(&std::fs::read(&path).unwrap_or_default()).into_owned()));
        }
    }
    found
}

#[test]
fn a_live_host_talks_to_a_real_model_through_unfold_which_records_both_sides_and_keeps_the_key() {
    const KEY: &str = "sk-live-host-canary-4d7e0b";
    let home = tempfile::tempdir().unwrap();
    let folder = tempfile::tempdir().unwrap();
    // The real model: a model server on this machine, in its own process (the scripted one: it
    // drives Claude Code through the coding agent's script, as a model that follows it would).
    let upstream_log = folder.path().join("upstream.jsonl");
    let upstream = serve_model(env!("CARGO_BIN_EXE_unfold"), &repo("."), SCENARIO, &upstream_log);
    let profiles = folder.path().join("providers.json");
    let base = format!("http://{}/v1", upstream.address);
    let file = serde_json::json!({ "schema_version": 1, "kind": "unfold.providers", "profiles": [
        { "name": "upstream", "kind": "anthropic", "base_url": base, "model": "real-model-7", "api_key_env": "UNFOLD_LIVE_KEY" },
        { "name": "chat", "kind": "openai", "base_url": base, "model": "m", "api_key_env": "UNFOLD_LIVE_KEY" } ] });
    std::fs::write(&profiles, file.to_string()).unwrap();
    let record = folder.path().join("record");
    let live = |provider: &str| {
        Command::new(env!("CARGO_BIN_EXE_unfold"))
            .current_dir(repo("."))
            .args(["host", "run", "claude-code", TEMPLATE, SCENARIO, "--allow-host", "--json", "--record"])
            .arg(&record)
            .args(["--provider", provider, "--providers"])
            .arg(&profiles)
            .env("HOME", home.path())
            .env("XDG_CONFIG_HOME", home.path().join("config"))
            .env("XDG_DATA_HOME", home.path().join("data"))
            .env("UNFOLD_HOSTS_DIR", hosts_dir())
            .env("UNFOLD_LIVE_KEY", KEY)
            .output()
            .unwrap()
    };

    // A profile of another API than the host's is refused before anything starts.
    let refused = live("chat");
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success());
    assert!(said.contains("claude-code speaks anthropic; provider profile 'chat' speaks openai-chat"), "{said}");

    let output = live("upstream");
    let run = report(&output)["runs"][0].clone();
    assert_eq!(run["status"], "completed", "{run}");
    // The model's calls reached the template through the host: it read both sections.
    assert_eq!(sections_read(&run), [&serde_json::json!("editing"), &serde_json::json!("testing")], "{run}");
    // The real model got the host's requests under the profile's model name.
    let upstream_requests = std::fs::read_to_string(&upstream_log).unwrap();
    let models: Vec<Value> = upstream_requests
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).unwrap()["request"]["model"].clone())
        .collect();
    assert!(!models.is_empty() && models.iter().all(|m| m == "real-model-7"), "{models:?}");
    // Unfold recorded both sides: each request as the host sent it and the answer as it came.
    let recorded = std::fs::read_to_string(record.join("run-1/model.jsonl")).unwrap();
    let entries: Vec<Value> = recorded.lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    let main: Vec<&Value> = entries.iter().filter(|e| e["side"] == false).collect();
    assert!(main.len() >= 4, "{recorded}");
    assert!(main.iter().all(|e| e["forwarded_to"] == format!("real-model-7 at {base}")), "{recorded}");
    assert!(
        main.iter().all(|e| e["response"].as_str().is_some_and(|r| r.contains("event: message_start"))),
        "{recorded}"
    );
    // The key went to the model in a header and nowhere else: not to the host, no file, no output.
    for (path, text) in texts_under(folder.path()).into_iter().chain(texts_under(home.path())) {
        assert!(!text.contains(KEY), "the key is in {}", path.display());
    }
    assert!(
        !String::from_utf8_lossy(&output.stdout).contains(KEY)
            && !String::from_utf8_lossy(&output.stderr).contains(KEY)
    );
    // Kept in the history with the profile and model it used.
    let newest = &report(&unfold(home.path(), &["history", "--json"]))[0];
    assert_eq!(
        (&newest["lane"], &newest["provider"], &newest["model"]),
        (&serde_json::json!("real:claude-code"), &serde_json::json!("upstream"), &serde_json::json!("real-model-7")),
        "{newest}"
    );
    drop(upstream);
}

#[test]
fn a_live_study_runs_a_real_host_lane_beside_an_adapter_in_every_repetition() {
    let home = tempfile::tempdir().unwrap();
    let folder = tempfile::tempdir().unwrap();
    // The live model: a model server in its own process that the host and the adapter both reach
    // over the Responses API (the scripted one: it answers each conversation as the script goes).
    let upstream_log = folder.path().join("upstream.jsonl");
    let upstream = serve_model(env!("CARGO_BIN_EXE_unfold"), &repo("."), SCENARIO, &upstream_log);
    let profiles = folder.path().join("providers.json");
    let base = format!("http://{}/v1", upstream.address);
    let profile = |name: &str, kind: &str| {
        serde_json::json!({ "name": name, "kind": kind, "base_url": base, "model": "real-model-7",
            "api_key_env": "UNFOLD_STUDY_KEY" })
    };
    let profiles_file = serde_json::json!({ "schema_version": 1, "kind": "unfold.providers",
        "profiles": [profile("responses", "openai-responses"), profile("chat", "openai")] });
    std::fs::write(&profiles, profiles_file.to_string()).unwrap();
    let study_of = |provider: &str| {
        unfold_in(home.path())
            .args(["compare", TEMPLATE, SCENARIO, "--provider", provider, "--providers"])
            .arg(&profiles)
            .args(["--adapters", "dynamic", "--hosts", "openai-agents", "--allow-host", "--repeat", "3", "--json"])
            .env("UNFOLD_STUDY_KEY", "sk-study-host-canary")
            .output()
            .unwrap()
    };
    // A profile of another API than the host's fails the study before its first repetition, and
    // leaves no study file to resume.
    let refused = study_of("chat");
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("openai-agents speaks openai-responses"));
    let studies = home.path().join("data/dev.unfold.studio/studies");
    assert_eq!(std::fs::read_dir(&studies).map(|d| d.count()).unwrap_or(0), 0, "a study file was left");

    let output = study_of("responses");
    let study = report(&output);
    let lanes: Vec<&Value> = study["lanes"].as_array().unwrap().iter().collect();
    assert_eq!(lanes.iter().map(|lane| &lane["lane"]).collect::<Vec<_>>(), ["dynamic", "real:openai-agents"]);
    // Every repetition ran both, the host first in the second; each lane read both sections.
    for lane in &lanes {
        let runs = lane["runs"].as_array().unwrap();
        assert_eq!(runs.iter().map(|run| run["repetition"].as_u64().unwrap()).collect::<Vec<_>>(), [1, 2, 3]);
        assert!(runs.iter().all(|run| run["status"] == "completed"), "{lane}");
        assert_eq!(lane["summary"]["success"]["count"], 3);
    }
    assert_eq!(study["order"][1], serde_json::json!(["real:openai-agents", "dynamic"]));
    let pair = &study["pairs"][0];
    assert_eq!((&pair["a"], &pair["b"]), (&serde_json::json!("real:openai-agents"), &serde_json::json!("dynamic")));
    assert!(pair["verdict"].as_str().is_some_and(|v| v.contains("both completed every run (3/3)")), "{pair}");
    // The host's requests reached the live model; the key reached no output and no file.
    let requests = std::fs::read_to_string(&upstream_log).unwrap();
    assert!(requests.lines().count() >= 6, "{requests}");
    let said = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(!said.contains("sk-study-host-canary"));
    for (path, text) in texts_under(home.path()) {
        assert!(!text.contains("sk-study-host-canary"), "the key is in {}", path.display());
    }
    drop(upstream);
}

/// The newest run of `lane` in `home`'s history: its id, and the run as `history show --json`
/// has it.
fn newest_run(home: &Path, lane: &str) -> (String, Value) {
    let kept = report(&unfold(home, &["history", "--json"]));
    let newest = kept.as_array().unwrap().iter().find(|run| run["lane"] == lane);
    let id = newest.unwrap_or_else(|| panic!("no {lane} run in {kept}"))["id"].to_string();
    let run = report(&unfold(home, &["history", "show", &id, "--json"]));
    (id, run["report"].clone())
}

/// Each tool call of `run` up to the event `seq` (not included): its name, arguments and result.
fn calls_before(run: &Value, seq: u64) -> Vec<(Value, Value, Value)> {
    let events = run["events"].as_array().unwrap();
    let calls = events.iter().filter(|e| e["type"] == "tool_call" && e["seq"].as_u64().unwrap() < seq);
    calls.map(|e| (e["name"].clone(), e["args"].clone(), e["result"].clone())).collect()
}

/// The event of `run` that calls `tool`: its number and the call's id.
fn call_of(run: &Value, tool: &str) -> (u64, String) {
    let events = run["events"].as_array().unwrap();
    let call = events.iter().find(|e| e["type"] == "tool_call" && e["name"] == tool).unwrap();
    (call["seq"].as_u64().unwrap(), call["call_id"].as_str().unwrap().to_owned())
}

#[test]
fn a_real_host_goes_on_from_a_fork_with_the_recording_before_it_and_the_changed_result() {
    let home = tempfile::tempdir().unwrap();
    let compared =
        ["compare", TEMPLATE, SCENARIO, "--adapters", "dynamic,restart", "--hosts", "openai-agents", "--allow-host"];
    report(&unfold(home.path(), &[&compared[..], &["--json"]].concat()));
    let (host_id, parent) = newest_run(home.path(), "real:openai-agents");
    assert_eq!(parent["real_host"]["name"], "openai-agents", "{parent}");
    let (seq, call_id) = call_of(&parent, "run_tests");
    let failing = r#"{"run_id":"tr-9","passed":11,"failed":1}"#;
    let changed = format!("{call_id}={failing}");

    // The host's own run, forked where it ran the tests: the host is answered as recorded up to
    // there (its model and its tools), then the changed result, then the script.
    let fork =
        report(&unfold(home.path(), &["fork", &host_id, "--at", &seq.to_string(), "--result", &changed, "--json"]));
    assert_eq!(fork["fork"]["parent"], format!("run {host_id}"));
    let run = &fork["runs"][0];
    assert_eq!(run["real_host"]["name"], "openai-agents", "{run}");
    assert_eq!(run["status"], "completed", "{run}");
    assert_eq!(calls_before(run, seq), calls_before(&parent, seq), "the recording before the event");
    let model_calls_before = |run: &Value| {
        run["events"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["type"] == "model_call" && e["seq"].as_u64() < Some(seq))
            .count()
    };
    assert_eq!(fork["fork"]["replayed_calls"].as_u64(), Some(model_calls_before(&parent) as u64));
    let (_, forked_call) = call_of(run, "run_tests");
    let given = run["events"].as_array().unwrap().iter().find(|e| e["call_id"] == forked_call.as_str()).unwrap();
    assert_eq!(given["result"], serde_json::from_str::<Value>(failing).unwrap(), "{run}");
    assert_eq!(run["counters"]["model_calls"], parent["counters"]["model_calls"], "the script goes on after it");
    // Kept as the host run's child.
    let (child, _) = newest_run(home.path(), "real:openai-agents");
    let shown = String::from_utf8_lossy(&unfold(home.path(), &["history", "show", &child]).stdout).into_owned();
    assert!(shown.contains(&format!("fork of run {host_id} at event {seq}")), "{shown}");

    // A section read at the event: the host is made to read it before its model's own answer.
    let first_call = parent["events"].as_array().unwrap().iter().find(|e| e["type"] == "model_call").unwrap();
    let at = first_call["seq"].to_string();
    let read = report(&unfold(home.path(), &["fork", &host_id, "--at", &at, "--expand", "testing", "--json"]));
    assert_eq!(sections_read(&read["runs"][0]).first(), Some(&&serde_json::json!("testing")), "{}", read["runs"][0]);
    assert_eq!(calls_until_offered(&read["runs"][0], "testing", "run_tests"), Some(1));

    // The adapter's run goes on in the host: it makes the same calls with the same results up to
    // the event, under the host's own names for the tools.
    let (dynamic_id, dynamic) = newest_run(home.path(), "dynamic");
    let (dynamic_seq, _) = call_of(&dynamic, "run_tests");
    let at = dynamic_seq.to_string();
    let across =
        report(&unfold(home.path(), &["fork", &dynamic_id, "--at", &at, "--hosts", "openai-agents", "--json"]));
    let lanes: Vec<&Value> = across["runs"].as_array().unwrap().iter().map(|run| &run["real_host"]["name"]).collect();
    assert_eq!(lanes, ["openai-agents"], "--hosts alone: the host's lane alone");
    let hosted = &across["runs"][0];
    let names = |run: &Value, seq: u64| {
        calls_before(run, seq).into_iter().map(|(name, args, _)| (name, args)).collect::<Vec<_>>()
    };
    assert_eq!(names(hosted, call_of(hosted, "run_tests").0), names(&dynamic, dynamic_seq), "{hosted}");

    // A host does not restart: it cannot go on after the restart lane's restart.
    let (restart_id, restart) = newest_run(home.path(), "restart");
    let (at, _) = call_of(&restart, "run_tests");
    let refused = unfold(home.path(), &["fork", &restart_id, "--at", &at.to_string(), "--hosts", "openai-agents"]);
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success());
    assert!(said.contains("and a real host does not: real:openai-agents cannot go on from it"), "{said}");
}

#[test]
fn forking_a_live_hosts_run_asks_the_model_only_for_the_answers_after_the_event() {
    let home = tempfile::tempdir().unwrap();
    let folder = tempfile::tempdir().unwrap();
    // The live model: a model server in its own process (the scripted one), a new one for each
    // run so that each counts its own requests.
    let live = |log: &str, args: &[&str]| {
        let log = folder.path().join(log);
        let upstream = serve_model(env!("CARGO_BIN_EXE_unfold"), &repo("."), SCENARIO, &log);
        let profiles = folder.path().join("providers.json");
        let file = serde_json::json!({ "schema_version": 1, "kind": "unfold.providers", "profiles": [
            { "name": "responses", "kind": "openai-responses", "base_url": format!("http://{}/v1", upstream.address),
              "model": "real-model-7", "api_key_env": "UNFOLD_FORK_KEY" } ] });
        std::fs::write(&profiles, file.to_string()).unwrap();
        let output = unfold_in(home.path())
            .args(args)
            .args(["--provider", "responses", "--providers"])
            .arg(&profiles)
            .env("UNFOLD_FORK_KEY", "sk-fork-host-canary")
            .output()
            .unwrap();
        upstream.stop();
        let asked = std::fs::read_to_string(&log).unwrap().lines().count();
        (report(&output), asked)
    };
    let (_, parent_asked) =
        live("parent.jsonl", &["host", "run", "openai-agents", TEMPLATE, SCENARIO, "--allow-host", "--json"]);
    let (id, parent) = newest_run(home.path(), "real:openai-agents");
    let (seq, _) = call_of(&parent, "run_tests");
    let (fork, fork_asked) = live("fork.jsonl", &["fork", &id, "--at", &seq.to_string(), "--json"]);
    let run = &fork["runs"][0];
    assert_eq!(run["status"], "completed", "{run}");
    let replayed = fork["fork"]["replayed_calls"].as_u64().unwrap() as usize;
    assert!(replayed >= 4, "{fork}");
    assert_eq!(parent_asked, parent["counters"]["model_calls"].as_u64().unwrap() as usize, "a request per call");
    assert_eq!(fork_asked, parent_asked - replayed, "the model was asked only after the event");
    assert_eq!(run["counters"]["model_calls"], parent["counters"]["model_calls"], "{run}");
}
