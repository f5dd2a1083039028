//! `unfold run` against a real rule-based LLM server (fakellm, started by `scripts/fakellm.sh` on
//! `tests/fixtures/fakellm.yaml`): deterministic tool-call loops of the example template under both
//! adapters and both wire formats, parallel calls, the errors a user can make, and a canary key
//! that must never be printed.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{json, Value};
use unfold_test_support::fakellm::FakeLlm;

const EXAMPLE: &str = "examples/task-executor.unfold.json";
const USER: &str = "Refactor the authentication module.";
const CANARY: &str = "sk-canary-7d3f0a9b21e4";

fn repo(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").join(path)
}

struct Outcome {
    code: i32,
    stdout: String,
    stderr: String,
}

fn unfold(args: &[&str], env: &[(&str, &str)]) -> Outcome {
    let mut command = Command::new(env!("CARGO_BIN_EXE_unfold"));
    command.current_dir(repo(".")).args(args).env_remove("UNFOLD_PROVIDERS").env_remove("UNFOLD_LOG");
    // The user's run history is not the tests' to fill; a test that reads it names its own.
    command.env("UNFOLD_HISTORY", "off");
    for (name, value) in env {
        command.env(name, value);
    }
    let output = command.output().unwrap();
    Outcome {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// `unfold run --json` of the example with `profile`; the run's report.
fn live_run(profiles: &Path, profile: &str, adapter: &str, user: &str) -> Value {
    let args = [
        "run",
        EXAMPLE,
        "--providers",
        path(profiles),
        "--provider",
        profile,
        "--adapter",
        adapter,
        "--user",
        user,
        "--json",
    ];
    let outcome = unfold(&args, &[("UNFOLD_TEST_KEY", CANARY)]);
    assert_eq!(outcome.code, 0, "stderr: {}", outcome.stderr);
    let report: Value = serde_json::from_str(&outcome.stdout).unwrap();
    assert_eq!(report["kind"], "unfold.run");
    assert_eq!(
        report["provider"],
        json!({ "name": profile, "kind": report["provider"]["kind"], "model": "fake-model" })
    );
    report["run"].clone()
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The tool calls of a run, as `name args`.
fn tool_calls(run: &Value) -> Vec<String> {
    events(run, "tool_call").map(|e| format!("{} {}", e["name"].as_str().unwrap(), e["args"])).collect()
}

fn events<'a>(run: &'a Value, kind: &'a str) -> impl Iterator<Item = &'a Value> {
    run["events"].as_array().unwrap().iter().filter(move |e| e["type"] == kind)
}

#[test]
fn the_example_runs_live_under_both_adapters_and_both_apis() {
    let server = FakeLlm::start();
    let folder = tempfile::tempdir().unwrap();
    let profiles = server.profiles(folder.path());
    let lookup = r#"lookup {"id":7}"#;
    let read = r#"read_section {"section_key":"context"}"#;
    let search = r#"search {"query":"login"}"#;
    for profile in ["openai", "openai-whole", "anthropic", "anthropic-whole"] {
        let dynamic = live_run(&profiles, profile, "dynamic", USER);
        assert_eq!(dynamic["status"], "completed", "{profile}");
        assert_eq!(dynamic["final"], "Fixed the login flow.", "{profile}");
        assert_eq!(tool_calls(&dynamic), [lookup, read, search], "{profile}");
        let injected: Vec<&Value> = events(&dynamic, "tools_injected").map(|e| &e["tool_names"]).collect();
        assert_eq!(injected, [&json!(["search", "cite"])], "{profile}");
        assert_eq!(dynamic["counters"]["model_calls"], 4, "{profile}");
        assert_eq!(dynamic["counters"]["restarts"], 0, "{profile}");

        let restart = live_run(&profiles, profile, "restart", USER);
        assert_eq!(restart["status"], "completed", "{profile}");
        assert_eq!(restart["final"], "Fixed the login flow.", "{profile}");
        assert_eq!(tool_calls(&restart), [lookup, read, lookup, read, search], "{profile}");
        assert_eq!(restart["counters"]["model_calls"], 6, "{profile}");
        assert_eq!(restart["counters"]["restarts"], 1, "{profile}");
        let restarted = events(&restart, "restart").next().unwrap();
        assert_eq!(restarted["section_keys"], json!(["context"]), "{profile}");
    }
}

#[test]
fn a_provider_that_takes_its_tools_once_runs_the_restart_adapter_when_dynamic_is_asked() {
    let server = FakeLlm::start();
    let folder = tempfile::tempdir().unwrap();
    let mut file: Value = serde_json::from_slice(&std::fs::read(server.profiles(folder.path())).unwrap()).unwrap();
    let mut fixed = file["profiles"][0].clone();
    fixed["name"] = json!("harness");
    fixed["dynamic_tools"] = json!(false);
    file["profiles"] = json!([fixed]);
    let profiles = folder.path().join("fixed.providers.json");
    std::fs::write(&profiles, file.to_string()).unwrap();

    let run = live_run(&profiles, "harness", "dynamic", USER);
    assert_eq!(run["adapter"], "dynamic", "the run keeps the name it was asked for");
    let substituted: Vec<&Value> = events(&run, "adapter_substituted").collect();
    let reason = "provider 'harness' takes its tools once per conversation (\"dynamic_tools\": false)";
    assert_eq!(
        substituted,
        [&json!({ "type": "adapter_substituted", "requested": "dynamic", "adapter": "restart", "reason": reason,
                  "seq": 1, "attempt": 1 })]
    );
    let (lookup, read, search) =
        (r#"lookup {"id":7}"#, r#"read_section {"section_key":"context"}"#, r#"search {"query":"login"}"#);
    assert_eq!(tool_calls(&run), [lookup, read, lookup, read, search], "it ran as the restart adapter");
    assert_eq!(run["counters"]["restarts"], 1);
    assert_eq!(events(&run, "tools_injected").count(), 0);

    let args = ["run", EXAMPLE, "--providers", path(&profiles), "--provider", "harness", "--user", USER];
    let printed = unfold(&args, &[("UNFOLD_TEST_KEY", CANARY)]);
    assert_eq!(printed.code, 0, "{}", printed.stderr);
    assert!(printed.stdout.contains(&format!("the restart adapter runs instead: {reason}")), "{}", printed.stdout);
}

#[test]
fn a_live_run_with_allowed_sources_calls_the_server_and_takes_its_new_tools() {
    let server = FakeLlm::start();
    let dir = tempfile::tempdir().unwrap();
    let profiles = server.profiles(dir.path());
    let python = unfold_test_support::mcp_servers::python();
    let script = unfold_test_support::mcp_servers::changing_tools_script();
    let mut doc: Value = serde_json::from_str(&std::fs::read_to_string(repo(EXAMPLE)).unwrap()).unwrap();
    doc["sources"] = json!([{ "name": "ide", "section": null, "mcp": { "command": [python, script] } }]);
    let template = dir.path().join("ide.unfold.json");
    std::fs::write(&template, doc.to_string()).unwrap();
    let args = [
        "run",
        path(&template),
        "--providers",
        path(&profiles),
        "--provider",
        "openai",
        "--user",
        "Ship with the ide please.",
        "--allow-sources",
        "--json",
        "--record",
    ];
    let cassette = dir.path().join("ide.cassette.json");
    let outcome = unfold(&[&args[..], &[path(&cassette)]].concat(), &[("UNFOLD_TEST_KEY", CANARY)]);
    assert_eq!(outcome.code, 0, "stderr: {}", outcome.stderr);
    let run = serde_json::from_str::<Value>(&outcome.stdout).unwrap()["run"].clone();
    assert_eq!(tool_calls(&run), [r#"unlock {}"#, r#"deploy {"target":"prod"}"#]);
    let changed = events(&run, "tool_availability_changed").next().expect("the list change");
    assert_eq!((&changed["source"], &changed["added"]), (&json!("ide"), &json!(["deploy"])));
    let deployed = events(&run, "tool_call").last().unwrap();
    assert_eq!(deployed["result"], "deployed to prod", "answered by the server");
    assert_eq!(run["final"], "Shipped with the ide.");

    // The cassette keeps what the source did: the replay needs neither the model nor the server.
    drop(server);
    let mut gone = doc.clone();
    gone["sources"][0]["mcp"]["command"] = json!(["/nonexistent/ide-server"]);
    let gone_template = dir.path().join("gone.unfold.json");
    std::fs::write(&gone_template, gone.to_string()).unwrap();
    let replayed = unfold(&["replay", path(&gone_template), path(&cassette), "--json"], &[]);
    assert_eq!(replayed.code, 0, "stderr: {}", replayed.stderr);
    let replayed_run = serde_json::from_str::<Value>(&replayed.stdout).unwrap()["run"].clone();
    assert_eq!(replayed_run["events"], run["events"], "the same run, answered from the cassette");
    // With --allow-sources the server answers again, live, and must answer as it did.
    let live_sources = unfold(&["replay", path(&template), path(&cassette), "--json", "--allow-sources"], &[]);
    assert_eq!(live_sources.code, 0, "stderr: {}", live_sources.stderr);
    let rerun = serde_json::from_str::<Value>(&live_sources.stdout).unwrap()["run"].clone();
    assert_eq!(tool_calls(&rerun), tool_calls(&run));
    let not_the_server = unfold(&["replay", path(&gone_template), path(&cassette), "--allow-sources"], &[]);
    assert_ne!(not_the_server.code, 0, "a source that cannot start lists nothing: the requests differ");

    // A scenario replays offline from the snapshot, so the live list must be the snapshot first.
    let to_scenario = |template: &Path| unfold(&["to-scenario", path(template), path(&cassette)], &[]);
    let refused = to_scenario(&template);
    assert_ne!(refused.code, 0);
    assert!(
        refused.stderr.contains(
            "source 'ide' listed other tools live [unlock, fail, crash, huge] than the template's snapshot of it []"
        ),
        "{}",
        refused.stderr
    );
    let snapshot = unfold(&["sources", "snapshot", path(&template), "--allow-sources"], &[]);
    assert_eq!(snapshot.code, 0, "{}", snapshot.stderr);
    let made = to_scenario(&template);
    assert_eq!(made.code, 0, "{}", made.stderr);
    let scenario: Value = serde_json::from_str(&made.stdout).unwrap();
    let changes = &scenario["tool_changes"];
    assert_eq!(changes.as_array().unwrap().len(), 1, "{changes}");
    assert_eq!(
        (&changes[0]["at_model_call"], &changes[0]["add"][0]["name"], &changes[0]["remove"]),
        (&json!(2), &json!("deploy"), &json!([]))
    );
    assert_eq!(scenario["tool_results"]["deploy"], json!([{ "result": "deployed to prod" }]));
    assert!(scenario["tool_results"]["unlock"].is_array(), "{}", scenario["tool_results"]);

    // Compared offline, the list change is an injection under one adapter and a restart under the other.
    let scenario_path = dir.path().join("ide.scenario.json");
    std::fs::write(&scenario_path, &made.stdout).unwrap();
    let compared = unfold(&["compare", path(&template), path(&scenario_path), "--json"], &[]);
    assert_eq!(compared.code, 0, "{}", compared.stderr);
    let report: Value = serde_json::from_str(&compared.stdout).unwrap();
    let (dynamic, restart) = (&report["runs"][0], &report["runs"][1]);
    assert_eq!(tool_calls(dynamic), [r#"unlock {}"#, r#"deploy {"target":"prod"}"#]);
    assert_eq!(events(dynamic, "tools_injected").next().unwrap()["tool_names"], json!(["deploy"]));
    assert_eq!(events(restart, "restart").next().unwrap()["reason"], "tool_availability_changed");
    assert_eq!(dynamic["final"], "Shipped with the ide.");
    assert_eq!(restart["final"], "Shipped with the ide.");
}

#[test]
fn parallel_tool_calls_are_answered_in_one_turn() {
    let server = FakeLlm::start();
    let folder = tempfile::tempdir().unwrap();
    let profiles = server.profiles(folder.path());
    for profile in ["openai", "anthropic"] {
        let run = live_run(&profiles, profile, "dynamic", "Look up both, parallel please.");
        assert_eq!(run["final"], "Both looked up.", "{profile}");
        assert_eq!(tool_calls(&run), [r#"lookup {"id":7}"#, r#"lookup {"id":8}"#], "{profile}");
        let turns: Vec<&Value> = events(&run, "tool_call").map(|e| &e["call_index"]).collect();
        assert_eq!(turns, [1, 1], "{profile}: both calls come from model call 1");
        assert_eq!(run["counters"]["model_calls"], 2, "{profile}");
    }
}

#[test]
fn arguments_that_break_the_schema_fail_the_call_and_the_run_goes_on() {
    let server = FakeLlm::start();
    let folder = tempfile::tempdir().unwrap();
    let profiles = server.profiles(folder.path());
    let outcome = unfold(
        &[
            "run",
            EXAMPLE,
            "--providers",
            path(&profiles),
            "--provider",
            "openai",
            "--user",
            "trigger-wrong-type",
            "--max-model-calls",
            "5",
        ],
        &[("UNFOLD_TEST_KEY", CANARY)],
    );
    // The model repeats its bad call: the third time it is warned, the fourth ends the run; not
    // a crash or a hang.
    assert_eq!(outcome.code, 0, "{}", outcome.stderr);
    assert!(
        outcome.stdout.contains(r#"lookup {"id":"seven"} -> failed: Invalid arguments for 'lookup'"#),
        "{}",
        outcome.stdout
    );
    assert!(outcome.stdout.contains("loop warning: lookup 3 times in 10 calls"), "{}", outcome.stdout);
    assert!(outcome.stdout.contains("limit reached: repeated_tool_call = 4"), "{}", outcome.stdout);
}

#[test]
fn a_provider_error_ends_the_run_with_exit_4_and_says_why() {
    let server = FakeLlm::start();
    let folder = tempfile::tempdir().unwrap();
    let profiles = server.profiles(folder.path());
    let outcome = unfold(
        &["run", EXAMPLE, "--providers", path(&profiles), "--provider", "openai-whole", "--user", "trigger-429"],
        &[("UNFOLD_TEST_KEY", CANARY)],
    );
    assert_eq!(outcome.code, 4, "{}", outcome.stderr);
    assert!(outcome.stdout.contains("answered 429 Too Many Requests"), "{}", outcome.stdout);
    assert!(outcome.stdout.contains("gave up after 3 attempts"), "{}", outcome.stdout);
}

#[test]
fn a_relay_session_that_cannot_be_attached_stops_a_live_run_before_it_is_paid_for() {
    let server = FakeLlm::start();
    let folder = tempfile::tempdir().unwrap();
    let profiles = server.profiles(folder.path());
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
    let relay = format!("http://{closed}");
    let args = ["run", EXAMPLE, "--providers", path(&profiles), "--provider", "openai-whole", "--user", "Go."];
    let session = ["--relay-session", "K7QX2MPA", "--relay", &relay];
    let outcome =
        unfold(&[&args[..], &session].concat(), &[("UNFOLD_TEST_KEY", CANARY), ("UNFOLD_RELAY_TOKEN", "t0k3n")]);
    assert_eq!(outcome.code, 2, "{}", outcome.stderr);
    assert!(outcome.stderr.starts_with(&format!("error: the relay at {relay} is not reachable")), "{}", outcome.stderr);
    assert!(!outcome.stderr.contains("t0k3n"), "{}", outcome.stderr);
    assert_eq!(outcome.stdout, "", "no model call was made");
}

#[test]
fn bad_profiles_and_missing_keys_are_clear_errors() {
    let server = FakeLlm::start();
    let folder = tempfile::tempdir().unwrap();
    let profiles = server.profiles(folder.path());
    let run_with = |profiles: &Path, provider: &str, env: &[(&str, &str)]| {
        unfold(&["run", EXAMPLE, "--providers", path(profiles), "--provider", provider, "--user", USER], env)
    };

    let missing_key = run_with(&profiles, "openai", &[]);
    assert_eq!(missing_key.code, 2);
    assert_eq!(
        missing_key.stderr.trim(),
        "error: provider: profile 'openai' takes its API key from the environment variable UNFOLD_TEST_KEY, which is not set"
    );

    let unknown = run_with(&profiles, "nope", &[("UNFOLD_TEST_KEY", CANARY)]);
    assert_eq!(unknown.code, 2);
    let expected = format!(
        "error: {}: --provider: no profile named 'nope' (profiles: openai, openai-whole, anthropic, anthropic-whole)",
        profiles.display()
    );
    assert_eq!(unknown.stderr.trim(), expected);

    let with_key = folder.path().join("with-key.json");
    let text = json!({ "schema_version": 1, "kind": "unfold.providers", "profiles": [
        { "name": "x", "kind": "openai", "base_url": "http://127.0.0.1:1/v1", "model": "m", "api_key": CANARY } ] });
    std::fs::write(&with_key, text.to_string()).unwrap();
    let refused = run_with(&with_key, "x", &[]);
    assert_eq!(refused.code, 2);
    assert!(refused
        .stderr
        .contains(&format!("{}: /profiles/0/api_key: a profile file never holds a key", with_key.display())));
    assert!(!refused.stderr.contains(CANARY));

    let broken = folder.path().join("broken.json");
    let text = json!({ "schema_version": 1, "kind": "unfold.providers", "profiles": [
        { "name": "x", "kind": "gemini", "base_url": "ftp://x", "model": "m" } ] });
    std::fs::write(&broken, text.to_string()).unwrap();
    let refused = run_with(&broken, "x", &[]);
    assert_eq!(refused.code, 2);
    assert!(refused.stderr.contains("/profiles/0/kind: \"gemini\" is not one of"), "{}", refused.stderr);

    let absent = folder.path().join("absent.json");
    let refused = run_with(&absent, "x", &[]);
    assert_eq!(refused.code, 2);
    assert!(refused.stderr.starts_with(&format!("error: {}: cannot read", absent.display())), "{}", refused.stderr);
}

#[test]
fn the_key_is_never_printed_not_even_in_trace_logs() {
    let server = FakeLlm::start();
    let folder = tempfile::tempdir().unwrap();
    let profiles = server.profiles(folder.path());
    for (profile, user) in [("openai", USER), ("anthropic", USER), ("openai-whole", "trigger-429")] {
        for json in [false, true] {
            let mut args = vec!["run", EXAMPLE, "--providers", path(&profiles), "--provider", profile, "--user", user];
            if json {
                args.push("--json");
            }
            let outcome = unfold(&args, &[("UNFOLD_TEST_KEY", CANARY), ("UNFOLD_LOG", "trace")]);
            assert!(outcome.stderr.contains("provider_call"), "the trace log is on: {}", outcome.stderr);
            assert!(!outcome.stdout.contains(CANARY), "{profile}: stdout carries the key");
            assert!(!outcome.stderr.contains(CANARY), "{profile}: the log carries the key");
        }
    }
}

#[test]
fn a_recorded_live_run_replays_offline_and_becomes_a_scenario_for_both_adapters() {
    let server = FakeLlm::start();
    let folder = tempfile::tempdir().unwrap();
    let profiles = server.profiles(folder.path());
    let cassette = folder.path().join("live.cassette.json");
    let recorded = unfold(
        &[
            "run",
            EXAMPLE,
            "--providers",
            path(&profiles),
            "--provider",
            "anthropic",
            "--user",
            USER,
            "--record",
            path(&cassette),
            "--json",
        ],
        &[("UNFOLD_TEST_KEY", CANARY)],
    );
    assert_eq!(recorded.code, 0, "{}", recorded.stderr);
    let live: Value = serde_json::from_str(&recorded.stdout).unwrap();
    let text = std::fs::read_to_string(&cassette).unwrap();
    assert!(!text.contains(CANARY), "the cassette holds no key");
    assert!(!text.contains(&format!("127.0.0.1:{}", server.port)), "nor the base URL");
    drop(server);
    let validated = unfold(&["validate", path(&cassette)], &[]);
    assert_eq!(validated.stdout, format!("{}: ok (unfold.cassette)\n", cassette.display()), "{}", validated.stderr);

    // The server is gone: the replay answers from the cassette alone.
    let replayed = unfold(&["replay", EXAMPLE, path(&cassette), "--json"], &[]);
    assert_eq!(replayed.code, 0, "{}", replayed.stderr);
    let replay: Value = serde_json::from_str(&replayed.stdout).unwrap();
    assert_eq!(replay["run"]["events"], live["run"]["events"]);

    let changed = folder.path().join("changed.unfold.json");
    let example = std::fs::read_to_string(repo(EXAMPLE)).unwrap();
    std::fs::write(&changed, example.replace("Complete the following:", "Do this:")).unwrap();
    let refused = unfold(&["replay", path(&changed), path(&cassette)], &[]);
    assert_eq!(refused.code, 2, "{}", refused.stderr);
    let expected = format!(
        "error: {}: /calls/0/request/system: model call 1 differs from the recording: \
         recorded \"## 1 Task\\n\\nComplete the following: Refactor the authenticatio…\", \
         sent \"## 1 Task\\n\\nDo this: Refactor the authentication module\\n\\n## 2 …\"",
        cassette.display()
    );
    assert!(refused.stderr.starts_with(&expected), "{}", refused.stderr);

    let scenario = folder.path().join("live.scenario.json");
    let converted = unfold(&["to-scenario", EXAMPLE, path(&cassette), "--output", path(&scenario)], &[]);
    assert_eq!(converted.code, 0, "{}", converted.stderr);
    let compared = unfold(&["compare", EXAMPLE, path(&scenario), "--json"], &[]);
    assert_eq!(compared.code, 0, "{}", compared.stderr);
    let report: Value = serde_json::from_str(&compared.stdout).unwrap();
    let dynamic = &report["runs"][0];
    assert_eq!(dynamic["adapter"], "dynamic");
    assert_eq!(tool_calls(dynamic), tool_calls(&live["run"]), "the scripted model does what the live one did");
    assert_eq!(dynamic["final"], "Fixed the login flow.");
    let restart = &report["runs"][1];
    assert_eq!(restart["counters"]["restarts"], 1);
    assert_eq!(restart["final"], "Fixed the login flow.");
}

#[test]
fn every_run_is_kept_in_the_history_to_list_show_and_compare() {
    let server = FakeLlm::start();
    let folder = tempfile::tempdir().unwrap();
    let profiles = server.profiles(folder.path());
    let history = folder.path().join("history.sqlite3");
    // The fake server's model at $2 per million prompt tokens and $10 per million completion ones.
    let prices = folder.path().join("prices.json");
    let own = json!({ "schema_version": 1, "kind": "unfold.prices", "taken": "2026-11-24",
                      "models": { "fake-model": { "input": 2, "output": 10 } } });
    std::fs::write(&prices, own.to_string()).unwrap();
    let env = [("UNFOLD_TEST_KEY", CANARY), ("UNFOLD_HISTORY", path(&history)), ("UNFOLD_PRICES", path(&prices))];
    for adapter in ["dynamic", "restart"] {
        let args = [
            "run",
            EXAMPLE,
            "--providers",
            path(&profiles),
            "--provider",
            "openai",
            "--adapter",
            adapter,
            "--user",
            USER,
        ];
        assert_eq!(unfold(&args, &env).code, 0);
    }
    let compared = unfold(&["compare", EXAMPLE, "examples/lookup-first.scenario.json"], &env);
    assert_eq!(compared.code, 0, "{}", compared.stderr);

    let listed = unfold(&["history", "--json"], &env);
    assert_eq!(listed.code, 0, "{}", listed.stderr);
    let runs: Value = serde_json::from_str(&listed.stdout).unwrap();
    let rows: Vec<String> = runs
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            format!(
                "{} {} {} {}",
                r["source"],
                r["provider"].as_str().unwrap(),
                r["adapter"].as_str().unwrap(),
                r["lane"]
            )
        })
        .collect();
    // Newest first; a comparison keeps its lanes and its all-FULL baseline.
    assert_eq!(
        rows,
        [
            "\"scripted\" scripted dynamic \"baseline\"",
            "\"scripted\" scripted restart \"restart\"",
            "\"scripted\" scripted dynamic \"dynamic\"",
            "\"live\" openai restart null",
            "\"live\" openai dynamic null",
        ]
    );
    assert!(runs
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r["template"] == "task-executor" && r["template_hash"] == runs[0]["template_hash"]));

    let live_only = unfold(&["history", "--provider", "openai", "--adapter", "restart", "--json"], &env);
    let live_only: Value = serde_json::from_str(&live_only.stdout).unwrap();
    assert_eq!(live_only.as_array().unwrap().len(), 1);
    let restart_id = live_only[0]["id"].as_i64().unwrap().to_string();
    assert_eq!(live_only[0]["model"], "fake-model");
    assert_eq!(live_only[0]["counters"]["restarts"], 1);
    // A live run is priced as its model: its counters' tokens at the file's prices.
    let counters = &live_only[0]["counters"];
    let expected =
        counters["prompt_tokens"].as_f64().unwrap() * 2e-6 + counters["completion_tokens"].as_f64().unwrap() * 1e-5;
    assert!((live_only[0]["cost"]["total"].as_f64().unwrap() - expected).abs() < 1e-12, "{}", live_only[0]);
    assert_eq!(runs[0]["cost"]["model"], "claude-sonnet-4-5", "a scripted comparison is priced as the default model");

    let shown = unfold(&["history", "show", &restart_id, "--json"], &env);
    let shown: Value = serde_json::from_str(&shown.stdout).unwrap();
    assert_eq!(shown["user"], USER);
    assert_eq!(shown["report"]["final"], "Fixed the login flow.");
    assert_eq!(tool_calls(&shown["report"]).len(), 5);

    let dynamic_id = runs[4]["id"].as_i64().unwrap().to_string();
    let compared = unfold(&["history", "compare", &dynamic_id, &restart_id], &env);
    assert_eq!(compared.code, 0, "{}", compared.stderr);
    assert!(
        compared.stdout.contains(&format!("run {dynamic_id}"))
            && compared.stdout.contains(&format!("run {restart_id}"))
    );
    assert!(compared.stdout.contains("first divergence: restart at call 2"), "{}", compared.stdout);

    let text = unfold(&["history", "--template", "task-executor", "--limit", "5"], &env).stdout;
    assert_eq!(text.lines().count(), 6, "a header and five runs: {text}");
    assert!(text.lines().nth(1).unwrap().contains("lookup-first [baseline]"), "{text}");
    assert!(text.lines().next().unwrap().ends_with("COST"), "{text}");
    assert!(text.lines().nth(1).unwrap().ends_with(" $0.002247"), "the default model's price: {text}");
    assert!(text.lines().nth(4).unwrap().trim_end().rsplit(' ').next().unwrap().starts_with("$0.0"), "{text}");

    let missing = unfold(&["history", "show", "9999"], &env);
    assert_eq!(missing.code, 2);
    assert_eq!(missing.stderr.trim(), "error: run 9999: no run in the history has this id");

    let bytes = std::fs::read(&history).unwrap();
    assert!(!String::from_utf8_lossy(&bytes).contains(CANARY), "the history holds no key");
}

/// A profile file with one profile on `server` taking its key from the OS keychain.
fn keychain_profiles(server: &FakeLlm, folder: &Path) -> PathBuf {
    let base = format!("http://127.0.0.1:{}/v1", server.port);
    let file = json!({ "schema_version": 1, "kind": "unfold.providers", "profiles": [
        { "name": "kept", "kind": "openai", "base_url": base, "model": "fake-model", "api_key_keychain": true } ] });
    let path = folder.join("keychain.json");
    std::fs::write(&path, file.to_string()).unwrap();
    path
}

fn unfold_with_stdin(args: &[&str], stdin: &str, env: &[(&str, &str)]) -> Outcome {
    use std::io::Write;
    let mut command = Command::new(env!("CARGO_BIN_EXE_unfold"));
    command.current_dir(repo(".")).args(args).env("UNFOLD_HISTORY", "off");
    for (name, value) in env {
        command.env(name, value);
    }
    let mut child = command
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    Outcome {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

const KEPT_KEY: &str = "sk-keychain-test-91c2";

#[test]
fn without_a_keychain_a_kept_key_is_a_clear_error_never_a_fallback() {
    let server = FakeLlm::start();
    let folder = tempfile::tempdir().unwrap();
    let profiles = keychain_profiles(&server, folder.path());
    let no_bus = [("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/unfold-test-bus")];
    let set = unfold_with_stdin(&["key", "set", "kept"], &format!("{KEPT_KEY}\n"), &no_bus);
    assert_eq!(set.code, 2, "{}", set.stderr);
    assert!(
        set.stderr.starts_with("error: provider: the OS keychain is not available for profile 'kept'"),
        "{}",
        set.stderr
    );
    let run = unfold(&["run", EXAMPLE, "--providers", path(&profiles), "--provider", "kept", "--user", USER], &no_bus);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("the OS keychain is not available for profile 'kept'"), "{}", run.stderr);
    assert!(!format!("{}{}{}", set.stdout, set.stderr, run.stdout).contains(KEPT_KEY));
}

#[test]
#[ignore = "needs a Secret Service: scripts/test.sh runs it inside scripts/keyring-session.sh"]
fn a_key_kept_in_the_keychain_is_sent_and_can_be_forgotten() {
    let server = FakeLlm::start();
    let folder = tempfile::tempdir().unwrap();
    let profiles = keychain_profiles(&server, folder.path());
    let run = || {
        unfold(&["run", EXAMPLE, "--providers", path(&profiles), "--provider", "kept", "--user", USER, "--json"], &[])
    };

    let set = unfold_with_stdin(&["key", "set", "kept"], &format!("{KEPT_KEY}\n"), &[]);
    assert_eq!(set.code, 0, "{}", set.stderr);
    assert_eq!(set.stderr.trim(), "kept the key of profile 'kept' in the OS keychain");
    let sent = run();
    assert_eq!(sent.code, 0, "{}", sent.stderr);
    let report: Value = serde_json::from_str(&sent.stdout).unwrap();
    assert_eq!(report["run"]["final"], "The keychain key arrived.", "the server got the kept key");
    assert!(!sent.stdout.contains(KEPT_KEY) && !sent.stderr.contains(KEPT_KEY));

    let deleted = unfold(&["key", "delete", "kept"], &[]);
    assert_eq!(deleted.stderr.trim(), "forgot the key of profile 'kept'");
    let refused = run();
    assert_eq!(refused.code, 2);
    assert!(
        refused
            .stderr
            .contains("the OS keychain holds no key for profile 'kept': store one with `unfold key set kept`"),
        "{}",
        refused.stderr
    );
    assert_eq!(unfold(&["key", "delete", "kept"], &[]).stderr.trim(), "the keychain held no key for profile 'kept'");
}

/// The two adapters that keep the prompt start, live: `allowed_tools` on the OpenAI API,
/// `deferred` on Anthropic's, the same calls as the dynamic adapter; and each refused, before
/// anything is sent, on the API that cannot send it.
#[test]
fn allowed_tools_runs_live_on_openai_and_deferred_on_anthropic_and_each_is_refused_on_the_other() {
    let server = FakeLlm::start();
    let folder = tempfile::tempdir().unwrap();
    let profiles = server.profiles(folder.path());
    let expected = [r#"lookup {"id":7}"#, r#"read_section {"section_key":"context"}"#, r#"search {"query":"login"}"#];
    for (profile, adapter, delivery) in [
        ("openai", "allowed_tools", "allowed"),
        ("openai-whole", "allowed_tools", "allowed"),
        ("anthropic", "deferred", "referenced"),
        ("anthropic-whole", "deferred", "referenced"),
    ] {
        let run = live_run(&profiles, profile, adapter, USER);
        assert_eq!(run["status"], "completed", "{profile} {adapter}: {run}");
        assert_eq!(tool_calls(&run), expected, "{profile} {adapter}");
        let injected: Vec<(&Value, &Value)> =
            events(&run, "tools_injected").map(|e| (&e["tool_names"], &e["delivery"])).collect();
        assert_eq!(injected, [(&json!(["search", "cite"]), &json!(delivery))], "{profile} {adapter}");
        assert_eq!(run["counters"]["restarts"], 0, "{profile} {adapter}");
    }
    for (profile, adapter, needs) in [
        ("openai", "deferred", "it needs an anthropic or openai-responses profile"),
        ("anthropic", "allowed_tools", "it needs an openai or openai-responses profile"),
    ] {
        let refused = unfold(
            &[
                "run",
                EXAMPLE,
                "--providers",
                path(&profiles),
                "--provider",
                profile,
                "--adapter",
                adapter,
                "--user",
                USER,
            ],
            &[("UNFOLD_TEST_KEY", CANARY)],
        );
        assert_eq!(refused.code, 2, "{}", refused.stderr);
        assert!(refused.stderr.contains(&format!("the {adapter} adapter cannot run on it")), "{}", refused.stderr);
        assert!(refused.stderr.contains(needs), "{}", refused.stderr);
    }
}

/// `unfold run` with `--user` twice: the second message is sent after the model's answer to the
/// first, with the whole history; the cassette keeps both turns and replays them offline.
#[test]
fn a_live_run_of_two_turns_sends_the_second_after_the_first_answer_and_replays() {
    let server = FakeLlm::start();
    let folder = tempfile::tempdir().unwrap();
    let profiles = server.profiles(folder.path());
    let cassette = folder.path().join("two.cassette.json");
    let later = "Now summarize what you changed.";
    let args =
        ["run", EXAMPLE, "--providers", path(&profiles), "--provider", "anthropic", "--user", USER, "--user", later];
    let history = folder.path().join("history.sqlite3");
    let env = [("UNFOLD_TEST_KEY", CANARY), ("UNFOLD_HISTORY", path(&history))];
    let recorded = unfold(&[&args[..], &["--record", path(&cassette), "--json"]].concat(), &env);
    assert_eq!(recorded.code, 0, "{}", recorded.stderr);
    let live: Value = serde_json::from_str(&recorded.stdout).unwrap();
    let turns: Vec<&Value> = events(&live["run"], "user_turn").collect();
    assert_eq!(turns.len(), 1, "one later turn: {}", live["run"]);
    assert_eq!(turns[0]["turn"], 2);
    assert_eq!(live["run"]["status"], "completed");
    // The history keeps every user message of the run.
    let listed: Value = serde_json::from_str(&unfold(&["history", "--json"], &env).stdout).unwrap();
    let id = listed[0]["id"].as_i64().unwrap().to_string();
    let shown: Value = serde_json::from_str(&unfold(&["history", "show", &id, "--json"], &env).stdout).unwrap();
    assert_eq!((&shown["user"], &shown["later_user_turns"]), (&json!(USER), &json!([later])));
    let shown = unfold(&["history", "show", &id], &env).stdout;
    assert!(shown.contains(&format!("user, turn 2: {later}")), "{shown}");

    let kept: Value = serde_json::from_str(&std::fs::read_to_string(&cassette).unwrap()).unwrap();
    assert_eq!(kept["later_user_turns"], json!([later]));
    // The last request holds the first message, the model's answer to it, then the second.
    let last = &kept["calls"].as_array().unwrap().last().unwrap()["request"];
    let messages = last["messages"].as_array().unwrap();
    let users: Vec<&Value> = messages.iter().filter(|m| m["role"] == "user" && m["content"].is_string()).collect();
    assert_eq!(users.first().unwrap()["content"], USER);
    assert_eq!(users.last().unwrap()["content"], later);
    let answered = messages.iter().rposition(|m| m["role"] == "assistant").unwrap();
    assert!(answered < messages.len() - 1, "the answer to the first turn comes before the second");

    drop(server);
    let replayed = unfold(&["replay", EXAMPLE, path(&cassette), "--json"], &[]);
    assert_eq!(replayed.code, 0, "{}", replayed.stderr);
    let replay: Value = serde_json::from_str(&replayed.stdout).unwrap();
    assert_eq!(replay["run"]["events"], live["run"]["events"]);
    // As a scenario: a turn per user message, each with what the model did and said in it.
    let converted = unfold(&["to-scenario", EXAMPLE, path(&cassette)], &[]);
    assert_eq!(converted.code, 0, "{}", converted.stderr);
    let scenario: Value = serde_json::from_str(&converted.stdout).unwrap();
    let users: Vec<&Value> = scenario["turns"].as_array().unwrap().iter().map(|turn| &turn["user"]).collect();
    assert_eq!(users, [USER, later]);
    let scenario_path = folder.path().join("two.scenario.json");
    std::fs::write(&scenario_path, &converted.stdout).unwrap();
    let compared = unfold(&["compare", EXAMPLE, path(&scenario_path), "--json"], &[]);
    assert_eq!(compared.code, 0, "{}", compared.stderr);
    let report: Value = serde_json::from_str(&compared.stdout).unwrap();
    let dynamic = &report["runs"][0];
    assert_eq!(tool_calls(dynamic), tool_calls(&live["run"]), "the script makes the live run's calls");
    assert_eq!(events(dynamic, "user_turn").count(), 1);
}

#[test]
fn a_live_comparison_runs_each_lane_against_the_model_and_keeps_every_lane() {
    let server = FakeLlm::start();
    let folder = tempfile::tempdir().unwrap();
    let profiles = server.profiles(folder.path());
    let history = folder.path().join("history.sqlite3");
    let env = [("UNFOLD_TEST_KEY", CANARY), ("UNFOLD_HISTORY", path(&history))];
    let scenario = "examples/read-context-then-search.scenario.json";
    let live = ["compare", EXAMPLE, scenario, "--providers", path(&profiles), "--provider", "anthropic"];
    let compared = unfold(&[&live[..], &["--adapters", "dynamic,restart", "--json"]].concat(), &env);
    assert_eq!(compared.code, 0, "{}", compared.stderr);
    let report: Value = serde_json::from_str(&compared.stdout).unwrap();
    let runs = report["runs"].as_array().unwrap();
    let lanes: Vec<&Value> = runs.iter().map(|run| &run["adapter"]).collect();
    assert_eq!(lanes, ["dynamic", "restart"], "no all-FULL baseline is paid for");
    // The model's calls, not the scenario's script (which searches "session tokens").
    let (lookup, read, search) =
        (r#"lookup {"id":7}"#, r#"read_section {"section_key":"context"}"#, r#"search {"query":"login"}"#);
    assert_eq!(tool_calls(&runs[0]), [lookup, read, search]);
    assert_eq!(tool_calls(&runs[1]), [lookup, read, lookup, read, search]);
    assert!(runs.iter().all(|run| run["status"] == "completed" && run["final"] == "Fixed the login flow."));
    let listed: Value = serde_json::from_str(&unfold(&["history", "--json"], &env).stdout).unwrap();
    let kept: Vec<(&Value, &Value)> =
        listed.as_array().unwrap().iter().map(|run| (&run["lane"], &run["source"])).collect();
    assert_eq!(kept.len(), 2, "each lane is kept: {listed}");
    assert!(kept.iter().all(|(_, source)| *source == "live"), "{listed}");

    let table = unfold(&live, &env);
    assert_eq!(table.code, 0, "{}", table.stderr);
    assert!(table.stdout.contains("restart"), "{}", table.stdout);
    for said in [&compared.stdout, &compared.stderr, &table.stdout, &table.stderr] {
        assert!(!said.contains(CANARY), "the key was printed");
    }

    let unknown = unfold(&["compare", EXAMPLE, scenario, "--providers", path(&profiles), "--provider", "nope"], &env);
    assert_eq!(unknown.code, 2, "{}", unknown.stderr);
    assert!(unknown.stderr.contains("--provider"), "{}", unknown.stderr);
    let priced = unfold(&[&live[..], &["--price-as", "gpt-4o"]].concat(), &env);
    assert_eq!(priced.code, 2, "a live comparison is priced as its model: {}", priced.stderr);
}

/// The two-sided exact binomial test at ½ of `low` against `high` discordant pairs, summed term
/// by term: the study's McNemar p-value computed apart from the statistics it uses.
fn exact_two_sided(a_only: u64, b_only: u64) -> f64 {
    let n = a_only + b_only;
    let choose = |k: u64| (0..k).fold(1u128, |c, i| c * u128::from(n - i) / u128::from(i + 1));
    let tail: u128 = (0..=a_only.min(b_only)).map(choose).sum();
    (2.0 * tail as f64 / 2f64.powi(n as i32)).min(1.0)
}

/// A profile file in `folder` with the profile `random` of the random model, named `model`.
fn random_profiles(folder: &Path, base_url: &str, model: &str) -> PathBuf {
    let profiles = folder.join("providers.json");
    let profile = json!({ "name": "random", "kind": "openai", "base_url": base_url, "model": model,
                          "stream": false, "api_key_env": "UNFOLD_TEST_KEY" });
    let file = json!({ "schema_version": 1, "kind": "unfold.providers", "profiles": [profile] });
    std::fs::write(&profiles, file.to_string()).unwrap();
    profiles
}

#[test]
fn a_live_study_of_a_random_model_counts_every_run_and_gives_each_conversation_its_nonce() {
    let model = unfold_test_support::random_model::start(11);
    let folder = tempfile::tempdir().unwrap();
    let profiles = random_profiles(folder.path(), &model.base_url, "random-model");
    let history = folder.path().join("history.sqlite3");
    // A live study is kept in the data folder: this test's own.
    let env = [("UNFOLD_TEST_KEY", CANARY), ("UNFOLD_HISTORY", path(&history)), ("XDG_DATA_HOME", path(folder.path()))];
    let args = ["compare", EXAMPLE, "examples/read-context-then-search.scenario.json", "--providers", path(&profiles)];
    let asked = ["--provider", "random", "--adapters", "dynamic,restart", "--repeat", "30", "--aa", "--json"];
    let studied = unfold(&[&args[..], &asked].concat(), &env);
    assert_eq!(studied.code, 0, "{}", studied.stderr);
    let study: Value = serde_json::from_str(&studied.stdout).unwrap();
    assert_eq!(study["cache_fairness"], "nonce");

    let statuses = |lane: &Value| -> Vec<bool> {
        lane["runs"].as_array().unwrap().iter().map(|run| run["status"] == "completed").collect()
    };
    let lanes = study["lanes"].as_array().unwrap();
    for lane in lanes {
        let completed = statuses(lane);
        assert_eq!(completed.len(), 30);
        assert!(completed.contains(&true) && completed.contains(&false), "a random model succeeds and fails: {lane}");
        let count = completed.iter().filter(|c| **c).count();
        assert_eq!(lane["summary"]["success"]["count"], count, "{}", lane["lane"]);
        let cut = lane["runs"].as_array().unwrap().iter().filter(|run| run["status"] == "max_tokens").count();
        assert_eq!(count + cut, 30, "every run either completes or is cut: {lane}");
    }
    // Repetition by repetition (each lane's runs are in repetition order).
    let (dynamic, restart) = (statuses(&lanes[0]), statuses(&lanes[1]));
    let only = |x: &[bool], y: &[bool]| x.iter().zip(y).filter(|(a, b)| **a && !**b).count() as u64;
    let pair = &study["pairs"][0];
    let discordant = [only(&restart, &dynamic), only(&dynamic, &restart)];
    assert_eq!(pair["success"]["discordant"], json!(discordant));
    let p = pair["success"]["mcnemar_p"].as_f64().unwrap();
    assert!((p - exact_two_sided(discordant[0], discordant[1])).abs() < 1e-12, "{p}");

    // Every conversation started with a nonce of its own: 30 repetitions of two lanes and the
    // control (a restart starts its conversation again under the same one).
    let first_lines = model.first_lines.lock().unwrap().clone();
    // Twelve digits each, so no conversation's prompt is longer than another's for its nonce.
    let nonce = |line: &String| line.strip_prefix("[study nonce ")?.strip_suffix(']').map(str::to_owned);
    let digits: Vec<String> = first_lines.iter().filter_map(nonce).collect();
    assert_eq!(digits.len(), first_lines.len(), "{first_lines:?}");
    assert!(digits.iter().all(|d| d.len() == 12 && d.bytes().all(|b| b.is_ascii_digit())), "{digits:?}");
    let distinct: std::collections::BTreeSet<&String> = first_lines.iter().collect();
    assert_eq!(distinct.len(), 90);
    let listed: Value = serde_json::from_str(&unfold(&["history", "--json", "--limit", "500"], &env).stdout).unwrap();
    assert_eq!(listed.as_array().unwrap().len(), 90, "every conversation is kept");
    assert!(!studied.stdout.contains(CANARY) && !studied.stderr.contains(CANARY));
}

#[test]
fn a_live_study_stops_before_a_repetition_would_spend_past_max_cost() {
    let model = unfold_test_support::random_model::start(5);
    let folder = tempfile::tempdir().unwrap();
    let history = folder.path().join("history.sqlite3");
    let env = [("UNFOLD_TEST_KEY", CANARY), ("UNFOLD_HISTORY", path(&history)), ("XDG_DATA_HOME", path(folder.path()))];
    let study = |profiles: &Path, max_cost: &str| {
        let args =
            ["compare", EXAMPLE, "examples/read-context-then-search.scenario.json", "--providers", path(profiles)];
        let asked = ["--provider", "random", "--adapters", "dynamic,restart", "--repeat", "50", "--max-cost", max_cost];
        unfold(&[&args[..], &asked, &["--json"]].concat(), &env)
    };
    let priced = random_profiles(folder.path(), &model.base_url, "gpt-4o-mini");
    let stopped = study(&priced, "0.002");
    assert_eq!(stopped.code, 0, "{}", stopped.stderr);
    let report: Value = serde_json::from_str(&stopped.stdout).unwrap();
    let stop = &report["stopped"];
    let (after, spent, next) =
        (stop["after"].as_u64().unwrap(), stop["spent_usd"].as_f64().unwrap(), stop["next_usd"].as_f64().unwrap());
    // A repetition the budget stopped before one of its conversations is left out, paid for.
    let left_out = stop["left_out_usd"].as_f64().unwrap_or(0.0);
    assert!((1..50).contains(&after), "{stop}");
    assert!(spent + left_out <= 0.002 && spent + left_out + next > 0.002, "{stop}");
    let costs: f64 = report["lanes"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|lane| lane["runs"].as_array().unwrap())
        .map(|run| run["cost_usd"].as_f64().unwrap())
        .sum();
    assert!((costs - spent).abs() < 1e-12, "what it spent is what its runs cost");
    assert!(report["lanes"]
        .as_array()
        .unwrap()
        .iter()
        .all(|lane| lane["runs"].as_array().unwrap().len() as u64 == after));
    let listed: Value = serde_json::from_str(&unfold(&["history", "--json", "--limit", "500"], &env).stdout).unwrap();
    assert_eq!(listed.as_array().unwrap().len() as u64, 2 * after, "nothing ran past the budget");

    let unpriced = random_profiles(folder.path(), &model.base_url, "random-model");
    let refused = study(&unpriced, "1");
    assert_eq!(refused.code, 2, "{}", refused.stderr);
    assert!(refused.stderr.contains("random-model"), "the model with no price is named: {}", refused.stderr);
}

#[test]
fn a_study_stopped_by_ctrl_c_resumes_where_it_was_and_a_resumed_study_must_be_the_same() {
    let model = unfold_test_support::random_model::start(3);
    let folder = tempfile::tempdir().unwrap();
    let profiles = random_profiles(folder.path(), &model.base_url, "random-model");
    let kept = folder.path().join("kept.study.jsonl");
    let history = folder.path().join("history.sqlite3");
    let env = [("UNFOLD_TEST_KEY", CANARY), ("UNFOLD_HISTORY", path(&history))];
    let args = ["compare", EXAMPLE, "examples/read-context-then-search.scenario.json", "--providers", path(&profiles)];
    // Three repetitions at once: stopped, some that began after others may have ended first.
    let study = ["--provider", "random", "--adapters", "dynamic,restart", "--repeat", "60", "--jobs", "3", "--json"];
    let asked = [&args[..], &study].concat();

    let mut started = Command::new(env!("CARGO_BIN_EXE_unfold"));
    started.current_dir(repo(".")).args(&asked).args(["--study-file", path(&kept)]);
    started.envs(env).stdout(std::process::Stdio::null()).stderr(std::process::Stdio::null());
    let mut child = started.spawn().unwrap();
    // Ctrl+C once a few repetitions are kept (or the study ended first: then nothing is left).
    while std::fs::read_to_string(&kept).map_or(0, |text| text.lines().count()) < 4 {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    child.wait().unwrap();
    let kept_before = std::fs::read_to_string(&kept).unwrap().lines().count() - 1;

    let other_seed = unfold(&[&asked[..], &["--resume", path(&kept), "--seed", "9"]].concat(), &env);
    assert_eq!(other_seed.code, 2, "{}", other_seed.stderr);
    assert!(other_seed.stderr.contains("is another study: its seed was 1"), "{}", other_seed.stderr);

    let resumed = unfold(&[&asked[..], &["--resume", path(&kept)]].concat(), &env);
    assert_eq!(resumed.code, 0, "{}", resumed.stderr);
    let study: Value = serde_json::from_str(&resumed.stdout).unwrap();
    for lane in study["lanes"].as_array().unwrap() {
        let repetitions: Vec<u64> =
            lane["runs"].as_array().unwrap().iter().map(|r| r["repetition"].as_u64().unwrap()).collect();
        assert_eq!(repetitions, (1..=60).collect::<Vec<u64>>(), "each repetition once: {}", lane["lane"]);
    }
    assert_eq!(study["order"].as_array().unwrap().len(), 60);
    assert_eq!(std::fs::read_to_string(&kept).unwrap().lines().count(), 61, "{kept_before} were kept before");
}

#[test]
fn a_live_study_leaves_out_a_repetition_whose_next_conversation_would_pass_max_cost() {
    // Seed 5's draws make one repetition's first conversation cost more than its lane's mean so
    // far: the next, checked as it was about to start, no longer fits with the control to come.
    let folder = tempfile::tempdir().unwrap();
    let history = folder.path().join("history.sqlite3");
    let env = [("UNFOLD_TEST_KEY", CANARY), ("UNFOLD_HISTORY", path(&history)), ("XDG_DATA_HOME", path(folder.path()))];
    let study = |output: &[&str]| {
        let model = unfold_test_support::random_model::start(5);
        let priced = random_profiles(folder.path(), &model.base_url, "gpt-4o-mini");
        let args =
            ["compare", EXAMPLE, "examples/read-context-then-search.scenario.json", "--providers", path(&priced)];
        let asked = ["--provider", "random", "--adapters", "dynamic,restart", "--repeat", "20", "--aa"];
        unfold(&[&args[..], &asked, &["--max-cost", "0.0033"], output].concat(), &env)
    };
    let studied = study(&["--json"]);
    assert_eq!(studied.code, 0, "{}", studied.stderr);
    let report: Value = serde_json::from_str(&studied.stdout).unwrap();
    let stop = &report["stopped"];
    let after = stop["after"].as_u64().unwrap();
    let (spent, left_out) = (stop["spent_usd"].as_f64().unwrap(), stop["left_out_usd"].as_f64().unwrap());
    assert!((1..20).contains(&after) && left_out > 0.0, "{stop}");
    assert!(spent + left_out <= 0.0033 && stop["next_usd"].as_f64().unwrap() > 0.0, "{stop}");
    // The repetition left out is in no lane.
    let lanes = report["lanes"].as_array().unwrap();
    assert!(lanes.iter().all(|lane| lane["runs"].as_array().unwrap().len() as u64 == after), "{lanes:?}");
    let table = study(&[]);
    assert!(table.stdout.contains("on repetitions left out"), "{}", table.stdout);
    assert!(table.stdout.contains("the next conversation, about"), "{}", table.stdout);
}

/// The kept runs, newest first, as `history --json` lists them.
fn kept_runs(env: &[(&str, &str)]) -> Vec<Value> {
    let listed = unfold(&["history", "--json", "--limit", "500"], env);
    serde_json::from_str::<Value>(&listed.stdout).unwrap().as_array().unwrap().clone()
}

#[test]
fn a_fork_changes_one_result_of_a_kept_run_goes_on_in_each_lane_and_is_kept_as_its_child() {
    let folder = tempfile::tempdir().unwrap();
    let history = folder.path().join("history.sqlite3");
    let env = [("UNFOLD_HISTORY", path(&history))];
    let compared =
        unfold(&["compare", EXAMPLE, "examples/lookup-first.scenario.json", "--adapters", "restart,deferred"], &env);
    assert_eq!(compared.code, 0, "{}", compared.stderr);
    let restart = kept_runs(&env).into_iter().find(|run| run["lane"] == "restart").unwrap()["id"].to_string();
    // `history show` numbers the events and names each tool call: what a fork names.
    let shown = unfold(&["history", "show", &restart], &env).stdout;
    assert!(
        shown.contains(" 10   search {\"query\":\"login\"} -> ok: 3 hits: auth.md, session.md, tokens.md [call_2_0]"),
        "{shown}"
    );

    let hits = json!({ "hits": (0..40).map(|i| json!({ "file": format!("docs/auth/{i:02}.md"), "text": "The login flow refreshes the session token first." })).collect::<Vec<_>>() });
    let result = format!("call_2_0={hits}");
    let forked = unfold(
        &["fork", &restart, "--at", "10", "--result", &result, "--adapters", "restart,deferred", "--json"],
        &env,
    );
    assert_eq!(forked.code, 0, "{}", forked.stderr);
    let report: Value = serde_json::from_str(&forked.stdout).unwrap();
    let origin = &report["fork"];
    assert_eq!(
        (origin["parent"].as_str(), origin["lane"].as_str(), origin["at_seq"].as_u64()),
        (Some(format!("run {restart}").as_str()), Some("restart"), Some(10))
    );
    assert_eq!((origin["replayed_calls"].as_u64(), &origin["changed_results"]), (Some(4), &json!(["call_2_0"])));
    for run in report["runs"].as_array().unwrap() {
        let search = events(run, "tool_call").find(|call| call["name"] == "search").unwrap();
        assert_eq!(search["result"], hits, "{}", run["adapter"]);
    }
    // Kept as the parent's children; their fork of a fork is kept as its child in turn.
    let children: Vec<Value> = kept_runs(&env)
        .into_iter()
        .filter(|run| run["forked_from"]["run"].as_i64().map(|id| id.to_string()) == Some(restart.clone()))
        .collect();
    assert_eq!(children.len(), 2);
    assert!(children.iter().all(|run| run["forked_from"]["at_seq"] == 10));
    let child = children.iter().find(|run| run["lane"] == "restart").unwrap()["id"].to_string();
    assert!(unfold(&["history", "show", &child], &env).stdout.contains(&format!("fork of run {restart} at event 10")));
    let again = unfold(&["fork", &child, "--at", "12", "--json"], &env);
    assert_eq!(again.code, 0, "{}", again.stderr);
    let again: Value = serde_json::from_str(&again.stdout).unwrap();
    let restart_fork = report["runs"].as_array().unwrap().iter().find(|run| run["adapter"] == "restart").unwrap();
    assert_eq!(again["runs"][0]["events"], restart_fork["events"], "a fork of a fork with no change is that fork");
}

#[test]
fn a_fork_of_a_report_file_names_its_lane_and_documents_and_bad_asking_is_refused_in_words() {
    let folder = tempfile::tempdir().unwrap();
    let report = folder.path().join("compared.json");
    let compared = unfold(&["compare", EXAMPLE, "examples/lookup-first.scenario.json", "--json"], &[]);
    std::fs::write(&report, compared.stdout).unwrap();
    let fork = |extra: &[&str]| unfold(&[&["fork", path(&report), "--at", "3"], extra].concat(), &[]);
    let several = fork(&[]);
    assert_eq!(several.code, 2);
    assert!(
        several.stderr.contains("has several lanes: name one with --lane (dynamic, restart, baseline)"),
        "{}",
        several.stderr
    );
    let no_template = fork(&["--lane", "restart"]);
    assert!(no_template.stderr.contains("names no template file: give it with --template"), "{}", no_template.stderr);
    let documents = ["--template", EXAMPLE, "--scenario", "examples/lookup-first.scenario.json"];
    let forked = fork(&[&["--lane", "restart", "--expand", "context"], &documents[..]].concat());
    assert_eq!(forked.code, 0, "{}", forked.stderr);
    assert!(
        forked
            .stdout
            .starts_with(&format!("fork of {} (restart) at event 3: 1 model answers replayed", report.display())),
        "{}",
        forked.stdout
    );
    let refused = [
        (&["--lane", "restart", "--at", "99"][..], "the run has no event 99: its events are 0 to 12"),
        (
            &["--lane", "restart", "--at", "3", "--result", "call_0_0"][..],
            "--result call_0_0: expected CALL_ID=JSON or CALL_ID=@FILE",
        ),
        // Restart looks issue 7 up at event 2 and again after its restart, at event 8.
        (
            &["--lane", "restart", "--at", "9", "--result", "call_0_0=1"][..],
            "call_0_0 is not a tool call of the run at or after event 9 (those are: call_2_0)",
        ),
        (&["--lane", "restart", "--at", "3", "--expand", "nowhere"][..], "has no section nowhere to read"),
        (&["--lane", "sideways", "--at", "3"][..], "has no lane sideways: its lanes are dynamic, restart, baseline"),
    ];
    for (asked, said) in refused {
        let outcome = unfold(&[&["fork", path(&report)], &documents[..], asked].concat(), &[]);
        assert_eq!(outcome.code, 2, "{asked:?}: {}", outcome.stderr);
        assert!(outcome.stderr.contains(said), "{asked:?}: {}", outcome.stderr);
    }
}

#[test]
fn forking_a_live_run_never_asks_the_model_for_the_calls_before_the_event() {
    let model = unfold_test_support::random_model::start(7);
    let folder = tempfile::tempdir().unwrap();
    let profiles = random_profiles(folder.path(), &model.base_url, "random-model");
    let history = folder.path().join("history.sqlite3");
    let env = [("UNFOLD_TEST_KEY", CANARY), ("UNFOLD_HISTORY", path(&history))];
    let live = ["--provider", "random", "--providers", path(&profiles)];
    let args = ["compare", EXAMPLE, "examples/read-context-then-search.scenario.json", "--adapters", "dynamic"];
    // A run of at least three calls to fork after its second (seed 7 draws one within ten).
    let parent = (0..10)
        .find_map(|_| {
            let ran = unfold(&[&args[..], &live].concat(), &env);
            assert_eq!(ran.code, 0, "{}", ran.stderr);
            let newest = kept_runs(&env).remove(0);
            (newest["counters"]["model_calls"].as_u64().unwrap() >= 3).then(|| newest["id"].to_string())
        })
        .expect("a run of three calls");
    let run: Value = serde_json::from_str(&unfold(&["history", "show", &parent, "--json"], &env).stdout).unwrap();
    let third_call = events(&run["report"], "model_call").nth(2).unwrap()["seq"].as_u64().unwrap().to_string();
    let asked_before = model.first_lines.lock().unwrap().len();
    let forked = unfold(&[&["fork", &parent, "--at", &third_call, "--json"][..], &live].concat(), &env);
    assert_eq!(forked.code, 0, "{}", forked.stderr);
    let report: Value = serde_json::from_str(&forked.stdout).unwrap();
    assert_eq!(report["fork"]["replayed_calls"], 2);
    let calls = events(&report["runs"][0], "model_call").count();
    let asked = model.first_lines.lock().unwrap().len() - asked_before;
    assert_eq!(asked, calls - 2, "the model answered only the calls from the event on");
    // The two calls before it are the parent's, as recorded.
    let recorded: Vec<&Value> = run["report"]["events"]
        .as_array()
        .unwrap()
        .iter()
        .take_while(|e| e["seq"].as_u64().map(|seq| seq.to_string()) != Some(third_call.clone()))
        .collect();
    let replayed: Vec<&Value> = report["runs"][0]["events"].as_array().unwrap().iter().take(recorded.len()).collect();
    assert_eq!(replayed, recorded);
    assert!(!forked.stdout.contains(CANARY) && !forked.stderr.contains(CANARY));
}

#[test]
fn readmes_fork_a_longer_issue_makes_deferred_cheapest_with_the_prompt_cache() {
    let folder = tempfile::tempdir().unwrap();
    let history = folder.path().join("history.sqlite3");
    let env = [("UNFOLD_HISTORY", path(&history))];
    let args = ["compare", EXAMPLE, "examples/lookup-first.scenario.json", "--adapters", "dynamic,deferred", "--json"];
    let parent: Value = serde_json::from_str(&unfold(&args, &env).stdout).unwrap();
    let with_cache = |report: &Value, adapter: &str| {
        let run = report["runs"].as_array().unwrap().iter().find(|run| run["adapter"] == adapter).unwrap();
        run["cost"]["total_with_cache"].as_f64().unwrap()
    };
    assert!(with_cache(&parent, "dynamic") < with_cache(&parent, "deferred"));
    let dynamic = kept_runs(&env).into_iter().find(|run| run["lane"] == "dynamic").unwrap()["id"].to_string();
    let issue = "call_0_0=@tests/fixtures/fork/issue-7-thirty-comments.json";
    let fork = ["fork", &dynamic, "--at", "2", "--result", issue, "--adapters", "dynamic,deferred"];
    let forked: Value = serde_json::from_str(&unfold(&[&fork[..], &["--json"]].concat(), &env).stdout).unwrap();
    let (dynamic_usd, deferred_usd) = (with_cache(&forked, "dynamic"), with_cache(&forked, "deferred"));
    assert!(deferred_usd < dynamic_usd * 0.7, "{deferred_usd} against {dynamic_usd}");
    let table = unfold(&fork, &env).stdout;
    assert!(table.contains("with the prompt cache, deferred is cheapest, 36.9 % less than dynamic"), "{table}");
    let missing = unfold(&["fork", &dynamic, "--at", "2", "--result", "call_0_0=@nowhere.json"], &env);
    assert_eq!(missing.code, 2);
    assert!(missing.stderr.contains("nowhere.json"), "{}", missing.stderr);
}

#[test]
fn a_fork_goes_on_in_host_lanes_as_each_host_shows_new_tools() {
    let folder = tempfile::tempdir().unwrap();
    let history = folder.path().join("history.sqlite3");
    let env = [("UNFOLD_HISTORY", path(&history))];
    let args = ["compare", "examples/coding-agent.unfold.json", "examples/coding-agent-fix-test.scenario.json"];
    assert_eq!(unfold(&[&args[..], &["--adapters", "dynamic"]].concat(), &env).code, 0);
    let parent = kept_runs(&env).into_iter().find(|run| run["lane"] == "dynamic").unwrap()["id"].to_string();
    let forked = unfold(&["fork", &parent, "--at", "8", "--adapters", "dynamic,host:codex", "--json"], &env);
    assert_eq!(forked.code, 0, "{}", forked.stderr);
    let report: Value = serde_json::from_str(&forked.stdout).unwrap();
    let runs = report["runs"].as_array().unwrap();
    assert_eq!(runs.iter().map(|run| run["host"].as_str()).collect::<Vec<_>>(), [None, Some("codex")]);
    // Codex's lane shows the section's new tools as Codex does: after the event it is not dynamic's.
    assert_ne!(runs[0]["events"], runs[1]["events"]);
    let kept: Vec<Value> = kept_runs(&env).into_iter().filter(|run| run["forked_from"]["at_seq"] == 8).collect();
    assert_eq!(kept.len(), 2);
}
