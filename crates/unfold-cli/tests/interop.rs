//! What Unfold writes for other tools, read by those tools themselves (installed by
//! `scripts/interop-tools.sh install`): a promptfoo export validated and evaluated by the real
//! promptfoo CLI against a real local model server (fakellm), and run through Unfold itself, and the OTLP traces of `compare`,
//! `test`, `run` and `replay` parsed with the OpenTelemetry protobuf definitions
//! (`tests/otlp/read_otlp.py`), then held against the runs' reports.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{json, Value};
use unfold_test_support::fakellm::FakeLlm;
use unfold_test_support::interop_tools::{otel_python, promptfoo};
use unfold_test_support::repo;

fn unfold(args: &[&str]) -> String {
    unfold_with(args, &[])
}

fn unfold_with(args: &[&str], env: &[(&str, &str)]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_unfold"))
        .current_dir(repo("."))
        .args(args)
        .env("UNFOLD_HISTORY", "off")
        .env_remove("UNFOLD_PROVIDERS")
        .envs(env.iter().copied())
        .output()
        .unwrap();
    assert!(output.status.success(), "unfold {args:?}: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap()
}

fn write_json(path: &Path, value: &Value) -> PathBuf {
    std::fs::write(path, serde_json::to_string_pretty(value).unwrap()).unwrap();
    path.to_path_buf()
}

fn text(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// The example, with text nunjucks would take for its own syntax in a section's body.
fn template_with_braces(folder: &Path) -> PathBuf {
    let mut template: Value =
        serde_json::from_str(&std::fs::read_to_string(repo("examples/task-executor.unfold.json")).unwrap()).unwrap();
    template["sections"][0]["template"] =
        json!("Complete the following: ${objective}. Keep {{placeholders}}, {% tags %} and {#notes#} as written.");
    write_json(&folder.join("braces.unfold.json"), &template)
}

/// A scenario that looks up two issues at once (fakellm answers "parallel please" so) and sets
/// the objective.
fn parallel_scenario(folder: &Path) -> PathBuf {
    let scenario = json!({
        "schema_version": 1, "kind": "unfold.scenario", "name": "two lookups at once",
        "params": { "objective": "Fix \"login\" and {{sessions}}" },
        "user": "Look up both issues, parallel please.",
        "script": [
            { "calls": [ { "call": "lookup", "args": { "id": 7 } }, { "call": "lookup", "args": { "id": 8 } } ] },
            { "say": "Both looked up." }
        ]
    });
    write_json(&folder.join("parallel.scenario.json"), &scenario)
}

/// The exported config passes `promptfoo validate`, and `promptfoo eval` sends each test's prompt
/// (exactly what `unfold render` shows for its parameters) and tools to a real server: the
/// assertions pass where the model's first answer is the scenario's first step, and fail where it
/// is not.
#[test]
fn promptfoo_validates_and_evaluates_the_export_against_a_real_server() {
    let folder = tempfile::tempdir().unwrap();
    let template = template_with_braces(folder.path());
    let parallel = parallel_scenario(folder.path());
    let config = folder.path().join("promptfooconfig.json");
    unfold(&[
        "export",
        text(&template),
        "--to",
        "promptfoo",
        "--scenario",
        "examples/lookup-first.scenario.json",
        "--scenario",
        "examples/read-context-then-search.scenario.json",
        "--scenario",
        text(&parallel),
        "--provider",
        "openai:chat:fake-model",
        "-o",
        text(&config),
    ]);
    let home = folder.path().join("home");
    std::fs::create_dir(&home).unwrap();

    let validate = promptfoo(&home).args(["validate", "config", "-c", text(&config)]).output().unwrap();
    let said = String::from_utf8_lossy(&validate.stdout);
    assert!(validate.status.success(), "{said}{}", String::from_utf8_lossy(&validate.stderr));
    assert!(said.contains("Configuration is valid."), "{said}");

    let server = FakeLlm::start();
    let results = folder.path().join("results.json");
    let eval = promptfoo(&home)
        .args(["eval", "-c", text(&config), "--no-cache", "--no-write", "--no-progress-bar", "-o", text(&results)])
        .env("OPENAI_BASE_URL", server.openai_base_url())
        .env("OPENAI_API_KEY", "not-a-real-key")
        .output()
        .unwrap();
    let results: Value = match std::fs::read_to_string(&results) {
        Ok(written) => serde_json::from_str(&written).unwrap(),
        Err(_) => panic!("promptfoo eval wrote no results: {}", String::from_utf8_lossy(&eval.stderr)),
    };
    let results = results["results"]["results"].as_array().unwrap();
    assert_eq!(results.len(), 3);
    let by_test = |name: &str| -> &Value {
        results.iter().find(|r| r["testCase"]["description"] == name).unwrap_or_else(|| panic!("no result for {name}"))
    };

    let lookup_first = by_test("lookup-first");
    assert_eq!(lookup_first["success"], true, "{lookup_first:#}");
    assert_eq!(lookup_first["error"], Value::Null);
    let parallel = by_test("two lookups at once");
    assert_eq!(parallel["success"], true, "{parallel:#}");
    // fakellm looks up first: the scenario that reads a section first is not what it did.
    let read_first = by_test("read-context-then-search");
    assert_eq!(read_first["success"], false);
    let failed: Vec<&Value> = read_first["gradingResult"]["componentResults"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["pass"] == false)
        .map(|c| &c["assertion"]["type"])
        .collect();
    assert_eq!(failed, [&json!("tool-call-f1")]);

    // What promptfoo sent is what Unfold renders, braces and quotes included.
    let system_prompt = |result: &Value| -> String {
        let messages: Value = serde_json::from_str(result["prompt"]["raw"].as_str().unwrap()).unwrap();
        assert_eq!(messages[1]["role"], "user");
        messages[0]["content"].as_str().unwrap().to_string()
    };
    assert_eq!(system_prompt(lookup_first), unfold(&["render", text(&template)]));
    let objective = "objective=Fix \"login\" and {{sessions}}";
    assert_eq!(system_prompt(parallel), unfold(&["render", text(&template), "--param", objective]));
}

/// `promptfoo eval` of the config at `config`, from `home` (another folder than the config's): its
/// exit code and the results it wrote.
fn promptfoo_eval(home: &Path, config: &Path) -> (Option<i32>, Vec<Value>) {
    let results = home.join("results.json");
    let eval = promptfoo(home)
        .current_dir(home)
        .args(["eval", "-c", text(config), "--no-cache", "--no-write", "--no-progress-bar", "-o", text(&results)])
        .output()
        .unwrap();
    let written = std::fs::read_to_string(&results)
        .unwrap_or_else(|_| panic!("promptfoo eval wrote no results: {}", String::from_utf8_lossy(&eval.stderr)));
    std::fs::remove_file(&results).unwrap();
    let written: Value = serde_json::from_str(&written).unwrap();
    (eval.status.code(), written["results"]["results"].as_array().unwrap().clone())
}

/// The result of test `test` in lane `lane`.
fn result_of<'r>(results: &'r [Value], test: &str, lane: &str) -> &'r Value {
    let label = format!("unfold:{lane}");
    results
        .iter()
        .find(|r| r["testCase"]["description"] == test && r["provider"]["label"] == label)
        .unwrap_or_else(|| panic!("no result for {test} in {lane}"))
}

/// Exported to run through Unfold (into a folder whose name has a space and both quotes), the
/// config passes `promptfoo validate`, and `promptfoo eval` runs each scenario's whole conversation
/// in each lane through this `unfold`: every test passes, the output is the final answer and the
/// trajectory is the provider's metadata. An expectation on the trajectory that does not hold
/// fails, and says what was called; a test the user adds runs as the exported ones do.
#[test]
fn promptfoo_runs_the_whole_loop_through_unfold_and_checks_the_trajectory() {
    let folder = tempfile::tempdir().unwrap();
    let exported = folder.path().join("it's a \"config\"");
    std::fs::create_dir(&exported).unwrap();
    let config = exported.join("promptfooconfig.json");
    unfold(&[
        "export",
        "examples/task-executor.unfold.json",
        "--to",
        "promptfoo",
        "--through-unfold",
        "--adapters",
        "dynamic,restart",
        "--scenario",
        "examples/read-context-then-search.scenario.json",
        "--scenario",
        "examples/lookup-first.scenario.json",
        "-o",
        text(&config),
    ]);
    assert!(exported.join("unfold-promptfoo-provider.mjs").is_file());
    let home = folder.path().join("home");
    std::fs::create_dir(&home).unwrap();
    let validate = promptfoo(&home).args(["validate", "config", "-c", text(&config)]).output().unwrap();
    let said = String::from_utf8_lossy(&validate.stdout);
    assert!(validate.status.success(), "{said}{}", String::from_utf8_lossy(&validate.stderr));

    let (code, results) = promptfoo_eval(&home, &config);
    assert_eq!(results.len(), 4, "{results:#?}");
    assert_eq!(code, Some(0), "{results:#?}");
    assert!(results.iter().all(|r| r["success"] == true && r["error"].is_null()), "{results:#?}");
    let restart = result_of(&results, "lookup-first", "restart");
    let response = &restart["response"];
    assert_eq!(response["output"], "Fixed the login flow.");
    let called: Vec<&Value> =
        response["metadata"]["tool_calls"].as_array().unwrap().iter().map(|c| &c["name"]).collect();
    // The restart lane looks up again after its restart: the whole loop reached promptfoo.
    assert_eq!(called, [&json!("lookup"), &json!("read_section"), &json!("lookup"), &json!("search")]);
    assert_eq!(response["metadata"]["sections_read"], json!(["context"]));
    assert_eq!(response["metadata"]["counters"]["restarts"], 1);
    assert!(response["tokenUsage"]["prompt"].as_u64().unwrap() > 0, "{response:#}");

    // The user's own expectation on the trajectory, wrong: search before reading the context; and
    // a test of their own, its scenario named from the config's folder.
    let mut edited: Value = serde_json::from_str(&std::fs::read_to_string(&config).unwrap()).unwrap();
    let tests = edited["tests"].as_array_mut().unwrap();
    let mut own = tests.iter().find(|t| t["description"] == "lookup-first").unwrap().clone();
    own["description"] = json!("mine");
    own["vars"]["unfold_scenario"] = json!("mine.scenario.json");
    std::fs::copy(repo("examples/lookup-first.scenario.json"), exported.join("mine.scenario.json")).unwrap();
    tests.push(own);
    let test = tests.iter_mut().find(|t| t["description"] == "read-context-then-search");
    let order = &mut test.unwrap()["assert"][2]["value"];
    *order = json!(order.as_str().unwrap().replace(r#"["read_section","search"]"#, r#"["search","read_section"]"#));
    write_json(&config, &edited);
    let (code, results) = promptfoo_eval(&home, &config);
    assert_eq!(code, Some(100), "promptfoo exits 100 when a test fails: {results:#?}");
    for lane in ["dynamic", "restart"] {
        assert_eq!(result_of(&results, "lookup-first", lane)["success"], true);
        assert_eq!(result_of(&results, "mine", lane)["success"], true);
        let failed = result_of(&results, "read-context-then-search", lane);
        assert_eq!(failed["success"], false);
        let reasons: Vec<&str> = failed["gradingResult"]["componentResults"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["pass"] == false)
            .map(|c| c["reason"].as_str().unwrap())
            .collect();
        assert_eq!(reasons, ["expected calls to search, read_section in order; called read_section, search"]);
    }
}

/// Through Unfold on a live profile, the conversations run against a real server (fakellm), with
/// the key promptfoo's environment gives Unfold: the config names the profile, never the key.
#[test]
fn promptfoo_runs_the_whole_loop_on_a_live_profile_with_the_key_it_is_given() {
    let server = FakeLlm::start();
    let folder = tempfile::tempdir().unwrap();
    let profiles = server.profiles(folder.path());
    let config = folder.path().join("promptfooconfig.json");
    let key = "not-a-real-key-5d1e";
    unfold(&[
        "export",
        "examples/task-executor.unfold.json",
        "--to",
        "promptfoo",
        "--through-unfold",
        "--provider",
        "openai",
        "--providers",
        text(&profiles),
        "--scenario",
        "examples/lookup-first.scenario.json",
        "-o",
        text(&config),
    ]);
    let written = std::fs::read_to_string(&config).unwrap();
    assert!(!written.contains(key) && written.contains(r#""profile": "openai""#), "{written}");
    let home = folder.path().join("home");
    std::fs::create_dir(&home).unwrap();

    let results = home.join("results.json");
    let eval = promptfoo(&home)
        .args(["eval", "-c", text(&config), "--no-cache", "--no-write", "--no-progress-bar", "-o", text(&results)])
        .env("UNFOLD_TEST_KEY", key)
        .output()
        .unwrap();
    let results: Value = serde_json::from_str(
        &std::fs::read_to_string(&results)
            .unwrap_or_else(|_| panic!("promptfoo eval wrote no results: {}", String::from_utf8_lossy(&eval.stderr))),
    )
    .unwrap();
    let results = results["results"]["results"].as_array().unwrap().clone();
    assert_eq!(eval.status.code(), Some(0), "{results:#?}");
    for lane in ["dynamic", "restart"] {
        let response = &result_of(&results, "lookup-first", lane)["response"];
        assert_eq!(response["output"], "Fixed the login flow.", "{response:#}");
        assert_eq!(response["metadata"]["status"], "completed");
        // fakellm's model, which has no price: no cost.
        assert_eq!(response["metadata"]["cost_usd"], Value::Null);
    }
}

/// The OTLP file at `path` as the protobuf definitions read it: per line, its spans.
fn read_otlp(path: &Path) -> Vec<Value> {
    let output =
        Command::new(otel_python()).arg(repo("crates/unfold-cli/tests/otlp/read_otlp.py")).arg(path).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).unwrap()
}

/// The attribute `key` of a span or event.
fn attribute<'v>(item: &'v Value, key: &str) -> &'v Value {
    &item["attributes"][key]
}

/// One run's trace held against its report: a run span, a `chat` span per model call with its
/// tokens, an `execute_tool` span per tool call, in order, all under the run span and inside it in
/// time; the run's other events as the run span's events.
fn assert_trace_of(line: &Value, run: &Value, model: &str) {
    let spans = line["spans"].as_array().unwrap();
    let root = &spans[0];
    assert_eq!(root["name"], "invoke_agent task-executor");
    assert_eq!(root["parent_span_id"], "");
    assert_eq!(attribute(root, "gen_ai.operation.name"), "invoke_agent");
    assert_eq!(attribute(root, "unfold.adapter"), &run["adapter"]);
    assert_eq!(attribute(root, "gen_ai.usage.input_tokens"), &run["counters"]["prompt_tokens"]);
    assert_eq!(attribute(root, "gen_ai.request.model"), model);
    let events = run["events"].as_array().unwrap();
    let expected: Vec<String> = events
        .iter()
        .filter_map(|e| match e["type"].as_str().unwrap() {
            "model_call" => Some(format!("chat {model}")),
            "tool_call" => Some(format!("execute_tool {}", e["name"].as_str().unwrap())),
            _ => None,
        })
        .collect();
    let names: Vec<&str> = spans[1..].iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(names, expected);
    let calls: Vec<&Value> = events.iter().filter(|e| e["type"] == "model_call").collect();
    let chat_spans: Vec<&Value> = spans.iter().filter(|s| s["kind"] == 3).collect();
    assert_eq!(chat_spans.len(), calls.len(), "a chat span, of kind CLIENT, per model call");
    for (span, call) in chat_spans.into_iter().zip(calls) {
        assert_eq!(attribute(span, "gen_ai.operation.name"), "chat");
        assert_eq!(attribute(span, "gen_ai.usage.input_tokens"), &call["prompt_tokens"]);
        assert_eq!(attribute(span, "gen_ai.usage.output_tokens"), &call["completion_tokens"]);
        assert_eq!(attribute(span, "unfold.call_index"), &call["call_index"]);
    }
    let mut previous_start = root["start"].as_u64().unwrap();
    for span in &spans[1..] {
        assert_eq!(span["trace_id"], root["trace_id"]);
        assert_eq!(span["parent_span_id"], root["span_id"]);
        let (start, end) = (span["start"].as_u64().unwrap(), span["end"].as_u64().unwrap());
        assert!(previous_start <= start && end <= root["end"].as_u64().unwrap(), "{span:#}");
        previous_start = start;
    }
    let other = events.iter().filter(|e| {
        !["model_call", "tool_call", "run_started", "run_completed"].contains(&e["type"].as_str().unwrap())
    });
    let span_events: Vec<&str> = root["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .filter(|name| *name != "unfold.section_read")
        .collect();
    let expected: Vec<String> = other.map(|e| format!("unfold.{}", e["type"].as_str().unwrap())).collect();
    assert_eq!(span_events, expected);
}

/// `unfold compare --otel`: a trace per run and the baseline, each what its report says; the
/// section read, the injection and the restart are events of the runs that had them.
#[test]
fn compare_writes_each_runs_trace_in_the_genai_conventions() {
    let folder = tempfile::tempdir().unwrap();
    let trace = folder.path().join("compare.otlp.jsonl");
    let report = unfold(&[
        "compare",
        "examples/task-executor.unfold.json",
        "examples/read-context-then-search.scenario.json",
        "--price-as",
        "claude-sonnet-4-5",
        "--json",
        "--otel",
        text(&trace),
    ]);
    let report: Value = serde_json::from_str(&report).unwrap();
    let lines = read_otlp(&trace);
    assert_eq!(lines.len(), 3);
    let runs = [&report["runs"][0], &report["runs"][1], &report["baseline"]];
    for ((line, run), lane) in lines.iter().zip(runs).zip(["dynamic", "restart", "baseline"]) {
        assert_eq!(line["resource"]["service.name"], "unfold");
        assert_trace_of(line, run, "claude-sonnet-4-5");
        let root = &line["spans"][0];
        assert_eq!(attribute(root, "unfold.lane"), lane);
        assert_eq!(attribute(root, "unfold.scenario"), "read-context-then-search");
        assert_eq!(attribute(root, "gen_ai.provider.name"), "unfold.scripted");
        assert_eq!(attribute(root, "unfold.timing"), "measured");
    }
    let trace_ids: std::collections::HashSet<&Value> = lines.iter().map(|l| &l["spans"][0]["trace_id"]).collect();
    assert_eq!(trace_ids.len(), 3, "each run is its own trace");
    let dynamic = &lines[0]["spans"][0]["events"];
    let read = dynamic.as_array().unwrap().iter().find(|e| e["name"] == "unfold.section_read").unwrap();
    assert_eq!(attribute(read, "unfold.section.key"), "context");
    let injected = dynamic.as_array().unwrap().iter().find(|e| e["name"] == "unfold.tools_injected").unwrap();
    assert_eq!(attribute(injected, "unfold.tool_names"), &json!(["search", "cite"]));
    let restart = &lines[1]["spans"][0]["events"];
    assert!(restart.as_array().unwrap().iter().any(|e| e["name"] == "unfold.restart"), "{restart:#}");
    // Priced runs carry the price analysis' cache estimate on each call.
    let first_call = &lines[0]["spans"][1];
    assert!(attribute(first_call, "unfold.cache.cacheable_prompt_tokens").is_i64(), "{first_call:#}");
}

/// `unfold test --otel`: every case's runs, each naming its suite and case.
#[test]
fn test_writes_every_cases_runs_with_the_suite_and_case() {
    let folder = tempfile::tempdir().unwrap();
    let trace = folder.path().join("suite.otlp.jsonl");
    unfold(&["test", "examples/regressions.suite.json", "--otel", text(&trace)]);
    let lines = read_otlp(&trace);
    // Two, two, three and three lanes, each case with its baseline; the repeated case, a study,
    // is not traced.
    assert_eq!(lines.len(), 3 + 3 + 4 + 4);
    let cases: std::collections::BTreeSet<&str> =
        lines.iter().map(|l| attribute(&l["spans"][0], "unfold.case").as_str().unwrap()).collect();
    assert_eq!(cases.len(), 4);
    assert!(lines.iter().all(|l| !attribute(&l["spans"][0], "unfold.suite").is_null()));
}

/// `unfold test --provider`: every case against a real model (fakellm), through the comparison and
/// study use cases; a repeated case is a live study, which runs no baseline.
#[test]
fn test_runs_a_suite_against_a_live_model() {
    let server = FakeLlm::start();
    let folder = tempfile::tempdir().unwrap();
    let profiles = server.profiles(folder.path());
    let case = |name: &str, repeat: Value, expect: Value| {
        json!({ "name": name, "template": repo("examples/task-executor.unfold.json"),
                "scenario": repo("examples/lookup-first.scenario.json"), "adapters": ["dynamic", "restart"],
                "repeat": repeat, "expect": expect })
    };
    let suite = write_json(
        &folder.path().join("live.suite.json"),
        &json!({ "schema_version": 1, "kind": "unfold.suite", "name": "live", "cases": [
            case("once", Value::Null, json!({ "dynamic": { "status": "completed" } })),
            case("three times", json!(3), json!({ "dynamic": { "status": "completed", "success_rate": { "min": 1 } },
                                                   "restart": { "success_rate": { "min": 1 } } })),
        ] }),
    );
    let args = ["test", text(&suite), "--providers", text(&profiles), "--provider", "openai"];
    let out = unfold_with(&args, &[("UNFOLD_TEST_KEY", "not-a-real-key")]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(lines[0].starts_with("ok    live › once  ("), "{out}");
    assert!(lines[1].starts_with("ok    live › three times  (") && lines[1].ends_with(" s, 3 repetitions)"), "{out}");
    assert_eq!(lines[2], "2 cases: 2 passed, 0 failed");

    // No baseline runs live: a saving against it fails, saying why.
    let suite = write_json(
        &folder.path().join("saving.suite.json"),
        &json!({ "schema_version": 1, "kind": "unfold.suite", "name": "live", "cases": [
            case("saving", json!(2), json!({ "dynamic": { "saved_percent": { "min": 10 } } })),
        ] }),
    );
    let output = Command::new(env!("CARGO_BIN_EXE_unfold"))
        .current_dir(repo("."))
        .args(["test", text(&suite), "--providers", text(&profiles), "--provider", "openai"])
        .env("UNFOLD_HISTORY", "off")
        .env("UNFOLD_TEST_KEY", "not-a-real-key")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains(
            "dynamic saved_percent: expected at least 10 % over the whole 95 % interval, \
             saw no baseline: a live study runs none"
        ),
        "{stdout}"
    );
}

/// `unfold run --otel` against a real server times each call as it happened; `unfold replay --otel`
/// of its cassette has the same spans, spread over the replay, and says so.
#[test]
fn a_live_run_and_its_replay_write_the_same_spans() {
    let server = FakeLlm::start();
    let folder = tempfile::tempdir().unwrap();
    let profiles = server.profiles(folder.path());
    let (run_trace, replay_trace) = (folder.path().join("run.jsonl"), folder.path().join("replay.jsonl"));
    let cassette = folder.path().join("run.cassette.json");
    let run = unfold_with(
        &[
            "run",
            "examples/task-executor.unfold.json",
            "--providers",
            text(&profiles),
            "--provider",
            "openai",
            "--user",
            "Refactor the authentication module.",
            "--json",
            "--record",
            text(&cassette),
            "--otel",
            text(&run_trace),
        ],
        &[("UNFOLD_TEST_KEY", "not-a-real-key")],
    );
    let run: Value = serde_json::from_str(&run).unwrap();
    let live = read_otlp(&run_trace);
    assert_eq!(live.len(), 1);
    assert_trace_of(&live[0], &run["run"], "fake-model");
    let root = &live[0]["spans"][0];
    assert_eq!(attribute(root, "gen_ai.provider.name"), "openai");
    assert_eq!(attribute(root, "unfold.timing"), "measured");

    unfold(&["replay", "examples/task-executor.unfold.json", text(&cassette), "--otel", text(&replay_trace)]);
    let replayed = read_otlp(&replay_trace);
    assert_trace_of(&replayed[0], &run["run"], "fake-model");
    assert_eq!(attribute(&replayed[0]["spans"][0], "unfold.timing"), "spread");
    assert_eq!(attribute(&replayed[0]["spans"][0], "unfold.replay"), "true");
}
