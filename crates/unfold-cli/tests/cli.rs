//! The `unfold` binary, run as a user runs it: outputs, exit codes, and one readable error line
//! (never a panic or a backtrace) for every class of bad input.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::json;
use unfold_test_support::hostile_stream::{assert_no_key_piece, hidden_key_streams, stream_server, KEY};

fn repo(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").join(path)
}

fn unfold() -> Command {
    let mut command = Command::cargo_bin("unfold").unwrap();
    // The user's run history is not the tests' to fill.
    command.current_dir(repo(".")).env("UNFOLD_HISTORY", "off");
    command
}

const EXAMPLE: &str = "examples/task-executor.unfold.json";

struct Outcome {
    code: i32,
    stdout: String,
    stderr: String,
}

fn run(args: &[&str]) -> Outcome {
    let output = unfold().args(args).output().unwrap();
    Outcome {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// Asserts a bad-input failure: exit 2, every stderr line an `error: FILE: ...` line, no panic.
fn assert_bad_input(outcome: &Outcome, file: &Path, expected: &str) {
    assert_eq!(outcome.code, 2, "stderr: {}", outcome.stderr);
    assert!(!outcome.stderr.contains("panicked") && !outcome.stderr.contains("backtrace"), "{}", outcome.stderr);
    let prefix = format!("error: {}: ", file.display());
    for line in outcome.stderr.lines() {
        assert!(line.starts_with(&prefix), "{line:?} should start with {prefix:?}");
    }
    assert!(outcome.stderr.contains(expected), "{:?} should contain {expected:?}", outcome.stderr);
}

#[test]
fn render_prints_the_prompt_exactly() {
    let outcome = run(&["render", EXAMPLE]);
    assert_eq!(outcome.code, 0, "{}", outcome.stderr);
    let readme = std::fs::read_to_string(repo("README.md")).unwrap();
    assert!(outcome.stdout.starts_with("## 1 Task\n\nComplete the following: Refactor the authentication module\n"));
    assert!(readme.contains(&outcome.stdout), "README shows the example's render as it is");
}

#[test]
fn render_json_carries_markdown_tools_and_tokens() {
    let outcome = run(&["render", EXAMPLE, "--json", "--expand", "context", "--param", "project_name=Globex"]);
    assert_eq!(outcome.code, 0, "{}", outcome.stderr);
    let preview: serde_json::Value = serde_json::from_str(&outcome.stdout).unwrap();
    assert!(preview["markdown"].as_str().unwrap().contains("Detailed documentation for Globex:"));
    let names: Vec<&str> =
        preview["tools"].as_array().unwrap().iter().map(|t| t["function"]["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["lookup", "search", "cite", "read_section"]);
    assert_eq!(preview["tools"][0]["type"], "function");
    let (prompt_tokens, tool_tokens) =
        (preview["prompt_tokens"].as_u64().unwrap(), preview["tool_tokens"].as_u64().unwrap());
    assert!(prompt_tokens > 100 && tool_tokens > 0 && tool_tokens < prompt_tokens, "{prompt_tokens}, {tool_tokens}");
}

/// `unfold render big.json | head -1`: the reader stops early and the command ends quietly.
#[test]
fn a_reader_that_stops_early_ends_the_command_quietly() {
    use std::io::BufRead;
    use unfold_documents::template::{Disclosure, HeadingStyle};
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.unfold.json");
    // Its output is far more than a pipe holds, so the reader is gone before the command is done
    // writing, whenever it goes.
    unfold_test_support::bench_template::bench_template(2_000, HeadingStyle::Plain, Disclosure::ReadSection)
        .save(&big)
        .unwrap();
    for json in [false, true] {
        let mut command = std::process::Command::new(assert_cmd::cargo::cargo_bin("unfold"));
        command.env("UNFOLD_HISTORY", "off").arg("render").arg(&big).args(json.then_some("--json"));
        let mut child =
            command.stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::piped()).spawn().unwrap();
        let mut first = String::new();
        std::io::BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
        assert!(!first.is_empty());
        let outcome = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&outcome.stderr);
        assert_eq!((outcome.status.code(), stderr.as_ref()), (Some(0), ""), "--json {json}");
    }
}

#[test]
fn render_overrides_disclosure_and_heading() {
    let outcome = run(&["render", EXAMPLE, "--disclosure", "open_sections", "--heading", "keyed"]);
    assert_eq!(outcome.code, 0, "{}", outcome.stderr);
    assert!(outcome.stdout.contains("## 2. Project Context (context)"));
    assert!(outcome.stdout.contains("call `open_sections` with key \"style\""));
}

#[test]
fn render_refuses_unknown_parameters_and_paths() {
    let example = Path::new(EXAMPLE);
    assert_bad_input(&run(&["render", EXAMPLE, "--param", "colour=red"]), example, "unknown parameter 'colour'");
    assert_bad_input(&run(&["render", EXAMPLE, "--param", "colour"]), example, "--param colour: expected NAME=VALUE");
    let unknown = run(&["render", EXAMPLE, "--expand", "examples"]);
    assert_bad_input(&unknown, example, "Did you mean 'context.examples'?");
    assert!(unknown.stderr.contains("--expand examples: Unknown section key"), "said of the flag: {}", unknown.stderr);
}

/// The cells of a table row after its label.
fn row<'a>(output: &'a str, label: &str) -> Vec<&'a str> {
    let line = output.lines().find(|l| l.starts_with(label)).unwrap_or_else(|| panic!("no {label} row in {output}"));
    line[label.len()..].split_whitespace().collect()
}

#[test]
fn compare_prints_both_runs_side_by_side() {
    let outcome = run(&["compare", EXAMPLE, "examples/lookup-first.scenario.json"]);
    assert_eq!(outcome.code, 0, "{}", outcome.stderr);
    assert_eq!(row(&outcome.stdout, "model calls"), ["4", "5", "+1"]);
    assert_eq!(row(&outcome.stdout, "restarts"), ["0", "1", "+1"]);
    assert_eq!(row(&outcome.stdout, "tools injected"), ["2", "0", "-2"]);
    assert!(outcome.stdout.contains("RESTART visibility_expansion context"));
}

/// The table a QA engineer reads: counters with the difference of the two runs, the baseline with
/// the savings, the first divergence, the events; the README shows it as it is.
#[test]
fn compare_table_shows_the_verdict_deltas_baseline_and_first_divergence() {
    let outcome = run(&["compare", EXAMPLE, "examples/lookup-first.scenario.json"]);
    assert_eq!(outcome.code, 0, "{}", outcome.stderr);
    insta::assert_snapshot!(outcome.stdout, @r#"
    template task-executor · scenario lookup-first

    verdict: No lane beats all-FULL: the closest, dynamic, used 80.3 % more prompt tokens than all-FULL
      (533 more) and cost $0.001719 (76.5 %) more with the prompt cache, because reading summarized
      sections took 1 more model call, each sending the prompt again.
      dynamic loses to all-FULL: reading summarized sections took 1 more model call, each sending the
        prompt again; the prompt cache broke 1 time because the tools changed
      restart loses to all-FULL: it re-ran 2 model calls after 1 restart; the prompt cache broke 1 time
        because it restarted

                          dynamic                  restart                  restart - dynamic
    status                completed                completed
    final                 "Fixed the login flow."  "Fixed the login flow."
    model calls           4                        5                        +1
    restarts              0                        1                        +1
    tool calls            3                        4                        +1
    failed tool calls     0                        0                        0
    tools injected        2                        0                        -2
    dynamic expansions    1                        0                        -1
    prompt tokens         1197                     1348                     +151
    completion tokens     25                       31                       +6
    cost                  $0.003966                $0.004509                +$0.000543
    cached prompt tokens  0                        0                        0
    prefix breaks         1 (tools 1)              1 (restart 1)
    cost with cache       $0.003966                $0.004509                +$0.000543
    priced as claude-sonnet-4-5: USD per million tokens, taken 2025-10-01

    baseline: every section FULL and every tool described in full from the start (dynamic adapter)
                         baseline   dynamic        restart
    status               completed  completed      completed
    model calls          3          4              5
    tool calls           2          3              4
    prompt tokens        664        1197           1348
    completion tokens    17         25             31
    prompt tokens saved             -533 (-80.3%)  -684 (-103.0%)
    cost                 $0.002247  $0.003966      $0.004509
    cost with cache      $0.002247  $0.003966      $0.004509

    first divergence: restart at call 2 discarded lookup(7); it was redone at call 3

    events (attempt: event)
    #   dynamic                                       restart
    0   1: run started (dynamic)                      1: run started (restart)
    1   1: model call 1 (2 tools, 205 tokens)         1: model call 1 (2 tools, 205 tokens)
    2   1: lookup {"id":7} ok                         1: lookup {"id":7} ok
    3   1: model call 2 (2 tools, 221 tokens)         1: model call 2 (2 tools, 221 tokens)
    4   1: read_section {"section_key":"context"} ok  1: read_section {"section_key":"context"} ok
    5   1: expanded context                           1: expanded context
    6   1: injected search, cite (context)            1: RESTART visibility_expansion context
    7   1: model call 3 (4 tools, 377 tokens)         2: model call 3 (4 tools, 291 tokens)
    8   1: search {"query":"login"} ok                2: lookup {"id":7} ok
    9   1: model call 4 (4 tools, 394 tokens)         2: model call 4 (4 tools, 307 tokens)
    10  1: run completed                              2: search {"query":"login"} ok
    11                                                2: model call 5 (4 tools, 324 tokens)
    12                                                2: run completed
    "#);
    let readme = std::fs::read_to_string(repo("README.md")).unwrap();
    assert!(readme.contains(&outcome.stdout), "README shows the compare table as it is");
}

/// The comparison to paste into a pull request: the verdict, each lane beside the baseline in
/// one table (thousands grouped, one minus sign, money escaped from GitHub's math), why, the first
/// divergence and the price; the README shows it as it is.
#[test]
fn compare_markdown_is_the_verdict_and_one_table_to_paste_into_a_pull_request() {
    let outcome = run(&["compare", EXAMPLE, "examples/lookup-first.scenario.json", "--markdown"]);
    assert_eq!(outcome.code, 0, "{}", outcome.stderr);
    insta::assert_snapshot!(outcome.stdout, @r#"
    ### Unfold: task-executor · lookup-first

    **Verdict:** No lane beats all-FULL: the closest, dynamic, used 80.3 % more prompt tokens than all-FULL (533 more) and cost \$0.001719 (76.5 %) more with the prompt cache, because reading summarized sections took 1 more model call, each sending the prompt again.

    | | all-FULL | dynamic | restart |
    |---|---:|---:|---:|
    | standing | baseline | loses to all-FULL | loses to all-FULL |
    | status | completed | completed | completed |
    | model calls | 3 | 4 | 5 |
    | restarts | 0 | 0 | 1 |
    | tool calls | 2 | 3 | 4 |
    | prompt tokens | 664 | 1,197 | 1,348 |
    | vs all-FULL |  | +533 (+80.3 %) | +684 (+103.0 %) |
    | cost | \$0.002247 | \$0.003966 | \$0.004509 |
    | cost with cache | \$0.002247 | \$0.003966 | \$0.004509 |
    | vs all-FULL with cache |  | +\$0.001719 (+76.5 %) | +\$0.002262 (+100.7 %) |

    - **dynamic** loses to all-FULL: reading summarized sections took 1 more model call, each sending the prompt again; the prompt cache broke 1 time because the tools changed
    - **restart** loses to all-FULL: it re-ran 2 model calls after 1 restart; the prompt cache broke 1 time because it restarted

    **First divergence**, restart against dynamic: restart at call 2 discarded lookup(7); it was redone at call 3

    _priced as claude-sonnet-4-5: USD per million tokens, taken 2025-10-01_
    "#);
    let readme = std::fs::read_to_string(repo("README.md")).unwrap();
    assert!(readme.contains(&outcome.stdout), "README shows the Markdown as it is");
    let both = run(&["compare", EXAMPLE, "examples/lookup-first.scenario.json", "--markdown", "--json"]);
    assert_eq!(both.code, 2, "one form at a time: {}", both.stderr);
}

/// Money (spec 10), worked by hand at claude-sonnet-4-5's $3 and $15 per million tokens:
/// dynamic 1197 × 3 + 25 × 15 = 3966 millionths of a dollar, restart 1348 × 3 + 31 × 15 = 4509,
/// the baseline 664 × 3 + 17 × 15 = 2247.
#[test]
fn compare_prices_every_run_as_the_model_named_and_refuses_one_with_no_price() {
    let priced = run(&["compare", EXAMPLE, "examples/lookup-first.scenario.json", "--price-as", "claude-sonnet-4-5"]);
    assert_eq!(priced.code, 0, "{}", priced.stderr);
    assert_eq!(row(&priced.stdout, "cost"), ["$0.003966", "$0.004509", "+$0.000543"]);
    // Where each lane's shared prompt start broke; the prompts are under the 1,024-token minimum.
    assert_eq!(row(&priced.stdout, "prefix breaks"), ["1", "(tools", "1)", "1", "(restart", "1)"]);
    assert_eq!(row(&priced.stdout, "cached prompt tokens"), ["0", "0", "0"]);
    assert_eq!(row(&priced.stdout, "cost with cache"), ["$0.003966", "$0.004509", "+$0.000543"]);
    assert!(priced.stdout.contains("priced as claude-sonnet-4-5: USD per million tokens, taken 2025-10-01"));
    let baseline = priced.stdout.split("baseline:").nth(1).unwrap();
    assert_eq!(row(baseline, "cost"), ["$0.002247", "$0.003966", "$0.004509"]);

    let args = [
        "compare",
        EXAMPLE,
        "examples/lookup-first.scenario.json",
        "--json",
        "--price-as",
        "claude-sonnet-4-5-20250929",
    ];
    let report: serde_json::Value = serde_json::from_str(&run(&args).stdout).unwrap();
    let cost = &report["runs"][0]["cost"];
    assert_eq!(
        (&cost["model"], &cost["priced_as"]),
        (&serde_json::json!("claude-sonnet-4-5-20250929"), &serde_json::json!("claude-sonnet-4-5"))
    );
    assert!((cost["total"].as_f64().unwrap() - 0.003966).abs() < 1e-12, "{cost}");
    let calls: Vec<f64> = cost["calls"].as_array().unwrap().iter().map(|c| c["cost"].as_f64().unwrap()).collect();
    assert_eq!(calls.len(), 4, "one per model call");
    assert!((calls.iter().sum::<f64>() - 0.003966).abs() < 1e-12);

    let unpriced = run(&["compare", EXAMPLE, "examples/lookup-first.scenario.json", "--price-as", "my-finetune"]);
    assert_eq!(unpriced.code, 2, "{}", unpriced.stderr);
    assert!(unpriced.stderr.contains("no price for model 'my-finetune' (priced: gpt-5,"), "{}", unpriced.stderr);
    assert!(unpriced.stdout.is_empty(), "nothing ran");
}

#[test]
fn a_users_prices_file_overrides_the_shipped_prices_and_a_bad_one_is_located() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("prices.json");
    let own = r#"{"schema_version": 1, "kind": "unfold.prices", "taken": "2026-11-20",
                  "models": {"claude-sonnet-4-5": {"input": 1, "output": 1}}}"#;
    std::fs::write(&file, own).unwrap();
    let args = ["compare", EXAMPLE, "examples/lookup-first.scenario.json", "--price-as", "claude-sonnet-4-5"];
    let outcome = unfold().args(args).env("UNFOLD_PRICES", &file).output().unwrap();
    let stdout = String::from_utf8_lossy(&outcome.stdout);
    // (1197 + 25) tokens at $1 per million.
    assert_eq!(row(&stdout, "cost")[0], "$0.001222", "{stdout}");
    assert!(stdout.contains("taken 2026-11-20"));

    std::fs::write(&file, own.replace("\"input\": 1", "\"input\": \"one\"")).unwrap();
    let outcome = unfold().args(args).env("UNFOLD_PRICES", &file).output().unwrap();
    let stderr = String::from_utf8_lossy(&outcome.stderr);
    assert_eq!(outcome.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!("{}", file.display())) && stderr.contains("/models/claude-sonnet-4-5/input"),
        "{stderr}"
    );
    // A suite with a priced case reads the prices before any case runs: bad input, exit 2.
    let suite =
        unfold().args(["test", "examples/regressions.suite.json"]).env("UNFOLD_PRICES", &file).output().unwrap();
    let stderr = String::from_utf8_lossy(&suite.stderr);
    assert_eq!(suite.status.code(), Some(2), "{stderr}");
    assert!(stderr.starts_with(&format!("error: {}: /models/claude-sonnet-4-5/input: ", file.display())), "{stderr}");
    assert!(suite.stdout.is_empty(), "no case ran");

    // A file the variable names that is not there is an error, never the shipped prices.
    let typo = dir.path().join("prcies.json");
    let expected = format!(
        "error: {}: cannot read: No such file or directory (os error 2) (the prices file $UNFOLD_PRICES names)\n",
        typo.display()
    );
    for args in [&args[..], &["test", "examples/regressions.suite.json"]] {
        let outcome = unfold().args(args).env("UNFOLD_PRICES", &typo).output().unwrap();
        assert_eq!(outcome.status.code(), Some(2), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&outcome.stderr), expected, "{args:?}");
    }
}

/// Without `--price-as` a comparison is priced as the prices' default model (the shipped one,
/// else the user's file's), so the verdict speaks in money from the first run; a default no file
/// prices is an error naming the file and the place.
#[test]
fn compare_prices_as_the_default_model_when_none_is_named() {
    let outcome = run(&["compare", EXAMPLE, "examples/lookup-first.scenario.json"]);
    assert_eq!(outcome.code, 0, "{}", outcome.stderr);
    assert!(outcome.stdout.contains("priced as claude-sonnet-4-5: USD per million tokens"), "{}", outcome.stdout);
    assert!(outcome.stdout.contains("and cost $0.001719 (76.5 %) more with the prompt cache"), "{}", outcome.stdout);

    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("prices.json");
    let own = r#"{"schema_version": 1, "kind": "unfold.prices", "taken": "2026-11-20", "default_model": "gpt-4o-mini",
                  "models": {}}"#;
    std::fs::write(&file, own).unwrap();
    let args = ["compare", EXAMPLE, "examples/lookup-first.scenario.json"];
    let chosen = unfold().args(args).env("UNFOLD_PRICES", &file).output().unwrap();
    let stdout = String::from_utf8_lossy(&chosen.stdout);
    assert_eq!(row(&stdout, "cost")[0], "$0.000195", "{stdout}");

    std::fs::write(&file, own.replace("gpt-4o-mini", "house-model")).unwrap();
    let unpriced = unfold().args(args).env("UNFOLD_PRICES", &file).output().unwrap();
    let stderr = String::from_utf8_lossy(&unpriced.stderr);
    assert_eq!(unpriced.status.code(), Some(2), "{stderr}");
    let expected = format!("{}: /default_model: no file prices the default model 'house-model'", file.display());
    assert!(stderr.contains(&expected), "{stderr}");
    assert!(unpriced.stdout.is_empty(), "nothing ran");
}

/// The shared example scenarios: the baseline, the savings and the first divergence, as the
/// table shows them and as the JSON report carries them.
#[test]
fn compare_reports_baseline_and_divergence_of_the_shared_examples() {
    let mut tables = Vec::new();
    let mut reports = Vec::new();
    for name in ["lookup-first", "read-context-then-search", "style-only"] {
        let scenario = format!("examples/{name}.scenario.json");
        let table = run(&["compare", EXAMPLE, &scenario]);
        assert_eq!(table.code, 0, "{}", table.stderr);
        let from_baseline = &table.stdout[table.stdout.find("baseline:").unwrap()..];
        let until_events = &from_baseline[..from_baseline.find("\nevents").unwrap()];
        tables.push(format!("[{name}]\n{until_events}"));
        let json = run(&["compare", EXAMPLE, &scenario, "--json"]);
        let mut report: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
        let baseline = report["baseline"].as_object_mut().unwrap();
        let events = baseline.remove("events").unwrap();
        assert_eq!(events[0]["type"], "run_started", "the baseline carries its events");
        // Its cost is another test's (priced by default).
        assert!(baseline.remove("cost").is_some(), "the baseline is priced");
        reports.push(serde_json::json!({
            "scenario": name,
            "baseline": report["baseline"],
            "divergences": report["divergences"],
        }));
    }
    insta::assert_snapshot!(tables.join("\n\n"), @"
    [lookup-first]
    baseline: every section FULL and every tool described in full from the start (dynamic adapter)
                         baseline   dynamic        restart
    status               completed  completed      completed
    model calls          3          4              5
    tool calls           2          3              4
    prompt tokens        664        1197           1348
    completion tokens    17         25             31
    prompt tokens saved             -533 (-80.3%)  -684 (-103.0%)
    cost                 $0.002247  $0.003966      $0.004509
    cost with cache      $0.002247  $0.003966      $0.004509

    first divergence: restart at call 2 discarded lookup(7); it was redone at call 3


    [read-context-then-search]
    baseline: every section FULL and every tool described in full from the start (dynamic adapter)
                         baseline   dynamic         restart
    status               completed  completed       completed
    model calls          2          3               3
    tool calls           1          2               2
    prompt tokens        428        945             805
    completion tokens    13         21              21
    prompt tokens saved             -517 (-120.8%)  -377 (-88.1%)
    cost                 $0.001479  $0.003150       $0.002730
    cost with cache      $0.001479  $0.003150       $0.002730

    first divergence: restart at call 1 expanded context; no call had to be redone


    [style-only]
    baseline: every section FULL and every tool described in full from the start (dynamic adapter)
                         baseline   dynamic         restart
    status               completed  completed       completed
    model calls          1          2               2
    tool calls           0          1               1
    prompt tokens        205        442             442
    completion tokens    6          14              14
    prompt tokens saved             -237 (-115.6%)  -237 (-115.6%)
    cost                 $0.000705  $0.001536       $0.001536
    cost with cache      $0.000705  $0.001536       $0.001536

    first divergence: none (the same tool calls with the same results, the same ending)
    ");
    insta::assert_snapshot!(serde_json::to_string_pretty(&reports).unwrap(), @r#"
    [
      {
        "scenario": "lookup-first",
        "baseline": {
          "adapter": "dynamic",
          "status": "completed",
          "final": "Fixed the login flow.",
          "counters": {
            "model_calls": 3,
            "restarts": 0,
            "tools_injected": 0,
            "dynamic_expansions": 0,
            "tool_calls": 2,
            "failed_tool_calls": 0,
            "prompt_tokens": 664,
            "completion_tokens": 17
          },
          "savings": [
            {
              "adapter": "dynamic",
              "prompt_tokens": 1197,
              "saved_prompt_tokens": -533,
              "saved_percent": -80.3
            },
            {
              "adapter": "restart",
              "prompt_tokens": 1348,
              "saved_prompt_tokens": -684,
              "saved_percent": -103.0
            }
          ]
        },
        "divergences": [
          {
            "left": "dynamic",
            "right": "restart",
            "first": {
              "kind": "restart",
              "run": "restart",
              "reason": "visibility_expansion",
              "section_keys": [
                "context"
              ],
              "redone": [
                {
                  "name": "lookup",
                  "args": {
                    "id": 7
                  },
                  "discarded": {
                    "seq": 2,
                    "attempt": 1,
                    "call_index": 1
                  },
                  "redone": {
                    "seq": 8,
                    "attempt": 2,
                    "call_index": 3
                  }
                }
              ],
              "left_at": null,
              "right_at": {
                "seq": 6,
                "attempt": 1,
                "call_index": 2
              },
              "explanation": "restart at call 2 discarded lookup(7); it was redone at call 3"
            }
          }
        ]
      },
      {
        "scenario": "read-context-then-search",
        "baseline": {
          "adapter": "dynamic",
          "status": "completed",
          "final": "Plan: rotate session tokens.",
          "counters": {
            "model_calls": 2,
            "restarts": 0,
            "tools_injected": 0,
            "dynamic_expansions": 0,
            "tool_calls": 1,
            "failed_tool_calls": 0,
            "prompt_tokens": 428,
            "completion_tokens": 13
          },
          "savings": [
            {
              "adapter": "dynamic",
              "prompt_tokens": 945,
              "saved_prompt_tokens": -517,
              "saved_percent": -120.8
            },
            {
              "adapter": "restart",
              "prompt_tokens": 805,
              "saved_prompt_tokens": -377,
              "saved_percent": -88.1
            }
          ]
        },
        "divergences": [
          {
            "left": "dynamic",
            "right": "restart",
            "first": {
              "kind": "restart",
              "run": "restart",
              "reason": "visibility_expansion",
              "section_keys": [
                "context"
              ],
              "redone": [],
              "left_at": null,
              "right_at": {
                "seq": 4,
                "attempt": 1,
                "call_index": 1
              },
              "explanation": "restart at call 1 expanded context; no call had to be redone"
            }
          }
        ]
      },
      {
        "scenario": "style-only",
        "baseline": {
          "adapter": "dynamic",
          "status": "completed",
          "final": "Will follow the style guide.",
          "counters": {
            "model_calls": 1,
            "restarts": 0,
            "tools_injected": 0,
            "dynamic_expansions": 0,
            "tool_calls": 0,
            "failed_tool_calls": 0,
            "prompt_tokens": 205,
            "completion_tokens": 6
          },
          "savings": [
            {
              "adapter": "dynamic",
              "prompt_tokens": 442,
              "saved_prompt_tokens": -237,
              "saved_percent": -115.6
            },
            {
              "adapter": "restart",
              "prompt_tokens": 442,
              "saved_prompt_tokens": -237,
              "saved_percent": -115.6
            }
          ]
        },
        "divergences": [
          {
            "left": "dynamic",
            "right": "restart",
            "first": null
          }
        ]
      }
    ]
    "#);
}

#[test]
fn compare_of_one_adapter_has_no_delta_and_no_divergence() {
    let outcome = run(&["compare", EXAMPLE, "examples/lookup-first.scenario.json", "--adapters", "restart"]);
    assert_eq!(outcome.code, 0, "{}", outcome.stderr);
    assert_eq!(row(&outcome.stdout, "model calls"), ["5"]);
    assert!(outcome.stdout.contains("baseline:"), "{}", outcome.stdout);
    assert!(!outcome.stdout.contains("first divergence"), "{}", outcome.stdout);
}

/// `compare --promptfoo`: the first lane's run as promptfoo's provider response, the same
/// counters as the report's, and no other form beside it.
#[test]
fn compare_promptfoo_prints_the_first_lanes_run_as_a_provider_response() {
    let scenario = "examples/lookup-first.scenario.json";
    let outcome = run(&["compare", EXAMPLE, scenario, "--adapters", "restart,dynamic", "--promptfoo"]);
    assert_eq!(outcome.code, 0, "{}", outcome.stderr);
    let response: serde_json::Value = serde_json::from_str(&outcome.stdout).unwrap();
    let report = run(&["compare", EXAMPLE, scenario, "--adapters", "restart,dynamic", "--json"]);
    let report: serde_json::Value = serde_json::from_str(&report.stdout).unwrap();
    assert_eq!(response["output"], "Fixed the login flow.");
    assert_eq!(response["metadata"]["lane"], "restart");
    assert_eq!(response["metadata"]["counters"], report["runs"][0]["counters"]);
    assert_eq!(response["cost"], report["runs"][0]["cost"]["total"]);
    let both = run(&["compare", EXAMPLE, scenario, "--promptfoo", "--json"]);
    assert_eq!(both.code, 2);
    assert!(both.stderr.contains("--promptfoo"), "{}", both.stderr);
}

#[test]
fn a_scripted_study_rotates_the_lanes_and_reports_what_one_comparison_shows() {
    let scenario = "examples/lookup-first.scenario.json";
    let studied =
        run(&["compare", EXAMPLE, scenario, "--adapters", "dynamic,restart", "--repeat", "3", "--aa", "--json"]);
    assert_eq!(studied.code, 0, "{}", studied.stderr);
    let study: serde_json::Value = serde_json::from_str(&studied.stdout).unwrap();
    assert_eq!(
        (&study["kind"], &study["repeat"], &study["cache_fairness"]),
        (&json!("unfold.study"), &json!(3), &json!("scripted"))
    );
    assert_eq!(study["order"], json!([["dynamic", "restart"], ["restart", "dynamic"], ["dynamic", "restart"]]));
    // The scripted model answers alike every time: each run is the one comparison's.
    let compared = run(&["compare", EXAMPLE, scenario, "--adapters", "dynamic,restart", "--json"]);
    let report: serde_json::Value = serde_json::from_str(&compared.stdout).unwrap();
    for (lane, run) in study["lanes"].as_array().unwrap().iter().zip(report["runs"].as_array().unwrap()) {
        let repetitions: Vec<&serde_json::Value> =
            lane["runs"].as_array().unwrap().iter().map(|r| &r["repetition"]).collect();
        assert_eq!(repetitions, [1, 2, 3]);
        assert!(lane["runs"].as_array().unwrap().iter().all(|r| r["counters"] == run["counters"]), "{lane}");
        assert_eq!(lane["summary"]["metrics"]["prompt_tokens"]["sd"], 0.0);
        assert_eq!(lane["summary"]["success"]["count"], 3);
    }
    let tokens = |i: usize| report["runs"][i]["counters"]["prompt_tokens"].as_f64().unwrap();
    let pair = &study["pairs"][0];
    assert_eq!((&pair["a"], &pair["b"]), (&json!("restart"), &json!("dynamic")));
    assert_eq!(pair["metrics"]["prompt_tokens"]["mean_diff"].as_f64().unwrap(), tokens(1) - tokens(0));
    assert_eq!(study["aa"]["metrics"]["prompt_tokens"]["mean_diff"], 0.0, "the control is the first lane again");

    let table = run(&["compare", EXAMPLE, scenario, "--adapters", "dynamic,restart", "--repeat", "2"]);
    assert_eq!(table.code, 0, "{}", table.stderr);
    assert!(
        table.stdout.contains("restart against dynamic: restart costs 13.7 % more than dynamic"),
        "{}",
        table.stdout
    );
    assert!(table.stdout.contains("both completed every run (2/2)"), "{}", table.stdout);
    for refused in [&["--repeat", "0"][..], &["--repeat", "10001"], &["--aa"], &["--repeat", "2", "--markdown"]] {
        let outcome = run(&[&["compare", EXAMPLE, scenario][..], refused].concat());
        assert_eq!(outcome.code, 2, "{refused:?}: {}", outcome.stderr);
    }
}

/// `value` without what timing decides: every `wall_ms` (a run's, a summary's, a difference's).
fn without_timings(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::Object(fields) => {
            fields.shift_remove("wall_ms");
            fields.values_mut().for_each(without_timings);
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(without_timings),
        _ => {}
    }
}

#[test]
fn three_shards_merged_are_the_study_one_machine_runs_byte_for_byte_but_timings() {
    let folder = tempfile::tempdir().unwrap();
    let study = [
        "compare",
        EXAMPLE,
        "examples/lookup-first.scenario.json",
        "--adapters",
        "dynamic,restart",
        "--repeat",
        "7",
        "--aa",
    ];
    let whole = run(&[&study[..], &["--json"]].concat());
    assert_eq!(whole.code, 0, "{}", whole.stderr);
    let shard_file = |i: usize| folder.path().join(format!("shard-{i}.study.jsonl"));
    for i in 1..=3 {
        let file = shard_file(i);
        let shard = format!("{i}/3");
        let ran = run(&[&study[..], &["--shard", &shard, "--study-file", file.to_str().unwrap()]].concat());
        assert_eq!(ran.code, 0, "{}", ran.stderr);
    }
    let files: Vec<String> = (1..=3).map(|i| shard_file(i).to_str().unwrap().to_owned()).collect();
    let merged =
        run(&[&["study", "merge"][..], &files.iter().map(String::as_str).collect::<Vec<_>>(), &["--json"]].concat());
    assert_eq!(merged.code, 0, "{}", merged.stderr);
    let (mut whole, mut merged): (serde_json::Value, serde_json::Value) =
        (serde_json::from_str(&whole.stdout).unwrap(), serde_json::from_str(&merged.stdout).unwrap());
    without_timings(&mut whole);
    without_timings(&mut merged);
    assert_eq!(merged.to_string(), whole.to_string());

    let missing = run(&["study", "merge", &files[0], &files[1]]);
    assert_eq!(missing.code, 2, "{}", missing.stderr);
    assert!(missing.stderr.contains("shard 3/3 is missing"), "{}", missing.stderr);
    let twice = run(&["study", "merge", &files[0], &files[0], &files[1]]);
    assert!(twice.stderr.contains("is shard 1/3 again"), "{}", twice.stderr);
    let other = folder.path().join("other.study.jsonl");
    let ran = run(&[
        &study[..3],
        &["--adapters", "dynamic", "--repeat", "7", "--aa", "--shard", "3/3", "--study-file", other.to_str().unwrap()],
    ]
    .concat());
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    let mixed = run(&["study", "merge", &files[0], &files[1], other.to_str().unwrap()]);
    assert!(mixed.stderr.contains("is not a shard of the study in"), "{}", mixed.stderr);
    assert!(mixed.stderr.contains("it ran the lanes dynamic,restart"), "{}", mixed.stderr);
    let at_once = run(&[&study[..], &["--jobs", "3", "--json"]].concat());
    let mut at_once: serde_json::Value = serde_json::from_str(&at_once.stdout).unwrap();
    without_timings(&mut at_once);
    assert_eq!(at_once.to_string(), whole.to_string(), "repetitions run at once report as run one by one");
    let no_file = run(&[&study[..], &["--shard", "1/3"]].concat());
    assert_eq!(no_file.code, 2, "{}", no_file.stderr);
    assert!(no_file.stderr.contains("--study-file"), "{}", no_file.stderr);
}

#[test]
fn compare_warns_of_calls_that_will_fail_and_still_runs_them() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = dir.path().join("failing.scenario.json");
    let mut doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(repo("examples/lookup-first.scenario.json")).unwrap()).unwrap();
    doc["script"][0]["args"] = serde_json::json!({ "id": "seven" });
    std::fs::write(&scenario, doc.to_string()).unwrap();
    let outcome = run(&["compare", EXAMPLE, scenario.to_str().unwrap(), "--json"]);
    assert_eq!(outcome.code, 0, "{}", outcome.stderr);
    let expected = format!(
        "warning: {}: /script/0/args/id: 'lookup' will refuse these arguments: \"seven\" is not of type \"integer\"\n",
        scenario.display()
    );
    assert_eq!(outcome.stderr, expected);
    let report: serde_json::Value = serde_json::from_str(&outcome.stdout).unwrap();
    assert_eq!(report["runs"][0]["counters"]["failed_tool_calls"], 1);
}

/// The names of the tools `unfold render --json` printed, in order.
fn offered_tool_names(render_json: &str) -> Vec<String> {
    let preview: serde_json::Value = serde_json::from_str(render_json).unwrap();
    preview["tools"].as_array().unwrap().iter().map(|t| t["function"]["name"].as_str().unwrap().to_owned()).collect()
}

/// The example with `sources`, written as `name` in `dir`.
fn example_with_sources(dir: &Path, name: &str, sources: serde_json::Value) -> PathBuf {
    let mut doc: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(repo(EXAMPLE)).unwrap()).unwrap();
    doc["sources"] = sources;
    let path = dir.join(name);
    std::fs::write(&path, doc.to_string()).unwrap();
    path
}

/// The example with a source on `context` whose command would leave `marker` behind if it ran.
fn example_with_source(dir: &Path, marker: &Path) -> PathBuf {
    let sources = serde_json::json!([{
        "name": "ide", "section": "context",
        "mcp": { "command": ["touch", marker.to_str().unwrap()] },
        "snapshot": [{ "name": "grep", "description": "Search the workspace.", "parameters": { "type": "object" } }]
    }]);
    example_with_sources(dir, "sourced.unfold.json", sources)
}

#[test]
fn a_sources_snapshot_is_offered_after_its_sections_tools_and_nothing_is_started() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("the-source-ran");
    let template = example_with_source(dir.path(), &marker);
    let template = template.to_str().unwrap();
    let summarized = run(&["render", template, "--json"]);
    assert_eq!(summarized.code, 0, "{}", summarized.stderr);
    assert_eq!(
        offered_tool_names(&summarized.stdout),
        ["lookup", "read_section"],
        "hidden while its section is summarized"
    );
    let read = run(&["render", template, "--json", "--expand", "context"]);
    assert_eq!(offered_tool_names(&read.stdout), ["lookup", "search", "cite", "grep", "read_section"]);
    assert_eq!(run(&["validate", template]).code, 0);
    let compared = run(&["compare", template, "examples/lookup-first.scenario.json", "--json"]);
    assert_eq!(compared.code, 0, "{}", compared.stderr);
    assert!(!marker.exists(), "opening, validating, rendering and comparing never start a source");
    // Every run says where its source's tools came from before its first model call.
    let report: serde_json::Value = serde_json::from_str(&compared.stdout).unwrap();
    for run in report["runs"].as_array().unwrap().iter().chain([&report["baseline"]]) {
        let discovered = &run["events"][1];
        assert_eq!(discovered["type"], "tools_discovered", "{discovered}");
        assert_eq!(
            (&discovered["source"], &discovered["tier"], &discovered["tools"]),
            (&"ide".into(), &"snapshot".into(), &serde_json::json!(["grep"]))
        );
    }
    let table = run(&["compare", template, "examples/lookup-first.scenario.json"]);
    assert!(table.stdout.contains("tools from ide (its snapshot): grep"), "{}", table.stdout);
}

/// A template whose `ide` source (on `context`) runs the Python SDK test server, and whose `docs`
/// source would leave `marker` behind if it ran; `ide` has a snapshot with `grep`.
fn template_with_servers(dir: &Path, marker: &Path) -> PathBuf {
    let python = unfold_test_support::mcp_servers::python();
    let server = unfold_test_support::mcp_servers::changing_tools_script();
    let sources = serde_json::json!([
        { "name": "ide", "section": "context", "mcp": { "command": [python, server.to_str().unwrap()] },
          "snapshot": [{ "name": "grep", "description": "Search the workspace.", "parameters": { "type": "object" },
                         "kind": "read", "categories": ["search"] }] },
        { "name": "docs", "section": null, "mcp": { "command": ["touch", marker.to_str().unwrap()] } }
    ]);
    example_with_sources(dir, "servers.unfold.json", sources)
}

#[test]
fn sources_list_shows_the_snapshots_and_starts_nothing_without_consent() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("the-source-ran");
    let template = template_with_servers(dir.path(), &marker);
    let template = template.to_str().unwrap();
    let listed = run(&["sources", "list", template]);
    assert_eq!(listed.code, 0, "{}", listed.stderr);
    insta::assert_snapshot!(listed.stdout, @r"
    source  tier      tool  kind  categories  permission
    ide     snapshot  grep  read  search      -
    ");
    assert_eq!(
        listed.stderr,
        format!("warning: {template}: source 'docs' (no tools): not started, and it has no snapshot\n")
    );
    assert_eq!(run(&["sources", "list", template, "--kind", "edit"]).stdout.lines().count(), 1, "only the header");
    let json: serde_json::Value = serde_json::from_str(&run(&["sources", "list", template, "--json"]).stdout).unwrap();
    assert_eq!(json[0]["tier"], "snapshot");
    assert_eq!(json[0]["section"], "context");

    // The catalog: the written tools too, filtered the same way.
    let catalog = run(&["sources", "list", template, "--written"]);
    insta::assert_snapshot!(catalog.stdout, @r"
    source  tier      tool    kind  categories  permission
    -       written   lookup  -     -           -
    -       written   search  -     -           -
    -       written   cite    -     -           -
    ide     snapshot  grep    read  search      -
    ");
    let read = run(&["sources", "list", template, "--written", "--kind", "read"]);
    assert_eq!(read.stdout.lines().skip(1).collect::<Vec<_>>(), ["ide     snapshot  grep  read  search      -"]);
    let json: serde_json::Value =
        serde_json::from_str(&run(&["sources", "list", template, "--written", "--json"]).stdout).unwrap();
    assert_eq!(
        (&json[1]["source"], &json[1]["tier"], &json[1]["section"]),
        (&serde_json::json!(null), &serde_json::json!(null), &serde_json::json!("context"))
    );

    let refused = run(&["sources", "snapshot", template]);
    assert_eq!(refused.code, 2);
    assert!(refused.stderr.contains("--allow-sources"), "{}", refused.stderr);
    assert!(!marker.exists(), "nothing was started without --allow-sources");
}

#[test]
fn sources_snapshot_writes_what_the_running_server_lists() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("the-source-ran");
    let path = template_with_servers(dir.path(), &marker);
    let template = path.to_str().unwrap();
    let live = run(&["sources", "list", template, "--allow-sources", "--source", "ide"]);
    assert_eq!(live.code, 0, "{}", live.stderr);
    insta::assert_snapshot!(live.stdout, @r"
    source  tier  tool    kind   categories  permission
    ide     live  lookup  read   -           -
    ide     live  unlock  edit   -           -
    ide     live  fail    other  -           -
    ide     live  crash   other  -           -
    ide     live  huge    other  -           -
    ");
    let snapshot = run(&["sources", "snapshot", template, "--allow-sources"]);
    assert_eq!(snapshot.code, 0, "{}", snapshot.stderr);
    assert_eq!(snapshot.stdout, "ide: 5 tools\n");
    // `docs` started too (the user allowed every source); the file gained only what was listed.
    assert!(marker.exists());
    assert!(snapshot.stderr.contains("source 'docs'"), "{}", snapshot.stderr);
    let saved = unfold_documents::Template::load(&path).unwrap();
    let names: Vec<&str> = saved.sources[0].snapshot.as_ref().unwrap().iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["lookup", "unlock", "fail", "crash", "huge"]);
    assert_eq!(saved.sources[1].snapshot, None);
    assert_eq!(
        run(&["sources", "list", template, "--kind", "edit"])
            .stdout
            .lines()
            .nth(1)
            .unwrap()
            .split_whitespace()
            .collect::<Vec<_>>(),
        ["ide", "snapshot", "unlock", "edit", "-", "-"]
    );
}

#[test]
fn render_with_allowed_sources_shows_what_the_server_lists_now() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("the-docs-source-ran");
    let template = template_with_servers(dir.path(), &marker);
    let template = template.to_str().unwrap();
    let snapshot = run(&["render", template, "--json", "--expand", "context"]);
    assert_eq!(offered_tool_names(&snapshot.stdout), ["lookup", "search", "cite", "grep", "read_section"]);
    let live = run(&["render", template, "--json", "--expand", "context", "--allow-sources"]);
    assert_eq!(live.code, 0, "{}", live.stderr);
    // The server's `lookup` gives way to the template's own, and the warning says so.
    assert_eq!(
        offered_tool_names(&live.stdout),
        ["lookup", "search", "cite", "unlock", "fail", "crash", "huge", "read_section"]
    );
    assert!(live.stderr.contains("source 'ide' (live): left out 'lookup'"), "{}", live.stderr);
}

#[test]
fn compare_with_allowed_sources_runs_each_lane_on_its_own_server() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("the-docs-source-ran");
    let template = template_with_servers(dir.path(), &marker);
    let scenario = dir.path().join("unlock.scenario.json");
    let script = serde_json::json!({
        "schema_version": 1, "kind": "unfold.scenario", "name": "unlock then deploy", "user": "Ship it.",
        "script": [
            { "call": "read_section", "args": { "section_key": "context" } },
            { "call": "unlock", "args": {} },
            { "call": "deploy", "args": { "target": "prod" } },
            { "say": "Shipped." }
        ]
    });
    std::fs::write(&scenario, script.to_string()).unwrap();
    let args = ["compare", template.to_str().unwrap(), scenario.to_str().unwrap(), "--json"];
    // Without consent the runs see the snapshot, and `unlock` is no tool of theirs.
    let offline: serde_json::Value = serde_json::from_str(&run(&args).stdout).unwrap();
    assert_eq!(offline["runs"][0]["events"][1]["tier"], "snapshot");
    assert!(!marker.exists());

    let allowed = run(&[&args[..], &["--allow-sources"]].concat());
    assert_eq!(allowed.code, 0, "{}", allowed.stderr);
    let report: serde_json::Value = serde_json::from_str(&allowed.stdout).unwrap();
    for (lane, run) in ["dynamic", "restart"].iter().zip(report["runs"].as_array().unwrap()) {
        let events = run["events"].as_array().unwrap();
        let of = |kind: &str| events.iter().filter(|e| e["type"] == kind).cloned().collect::<Vec<_>>();
        assert_eq!(of("tools_discovered")[0]["tier"], "live", "{lane}");
        let change = &of("tool_availability_changed")[0];
        assert_eq!((&change["source"], &change["added"]), (&"ide".into(), &serde_json::json!(["deploy"])), "{lane}");
        let deployed = of("tool_call").into_iter().find(|call| call["name"] == "deploy").unwrap();
        assert_eq!((&deployed["success"], &deployed["result"]), (&true.into(), &"deployed to prod".into()), "{lane}");
    }
    assert_eq!(report["runs"][1]["counters"]["restarts"], 2, "the restart lane restarted for the change too");
}

#[test]
fn a_template_named_by_its_bare_file_name_starts_its_sources_in_its_folder() {
    // The README's own form, run in the template's folder: its folder is `.`, not "".
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("the-docs-source-ran");
    template_with_servers(dir.path(), &marker);
    let bare = |args: &[&str]| {
        let output = unfold().current_dir(dir.path()).args(args).output().unwrap();
        (output.status.code(), String::from_utf8_lossy(&output.stdout).into_owned(), output.stderr)
    };
    let (code, stdout, stderr) =
        bare(&["sources", "list", "servers.unfold.json", "--allow-sources", "--source", "ide", "--json"]);
    assert_eq!(code, Some(0), "{}", String::from_utf8_lossy(&stderr));
    let listed: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(listed[0]["tier"], "live", "{}", String::from_utf8_lossy(&stderr));
    assert!(marker.exists(), "the other source ran too, in the template's folder");
}

#[test]
fn a_comparison_whose_allowed_source_gives_its_snapshot_says_why_on_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let sources = serde_json::json!([{
        "name": "ide", "section": "context", "mcp": { "command": ["unfold-no-such-server"] },
        "snapshot": [{ "name": "grep", "description": "Search the workspace.", "parameters": { "type": "object" } }]
    }]);
    let template = example_with_sources(dir.path(), "missing.unfold.json", sources);
    let template = template.to_str().unwrap();
    let compared = run(&["compare", template, "examples/lookup-first.scenario.json", "--allow-sources", "--json"]);
    assert_eq!(compared.code, 0, "a source never fails a run: {}", compared.stderr);
    // Every run tried and fell back alike: said once.
    assert_eq!(
        compared.stderr,
        format!(
            "warning: {template}: source 'ide' (snapshot): the live list failed: cannot start \
             'unfold-no-such-server': No such file or directory (os error 2)\n"
        )
    );
    let quiet = run(&["compare", template, "examples/lookup-first.scenario.json", "--json"]);
    assert_eq!(quiet.stderr, "", "a source nobody asked to start gives its snapshot without a word");
}

/// The processes whose command line holds `marker`.
fn processes_with(marker: &str) -> Vec<u32> {
    let pids = std::fs::read_dir("/proc").unwrap().filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok());
    pids.filter(|pid| {
        std::fs::read(format!("/proc/{pid}/cmdline")).is_ok_and(|line| String::from_utf8_lossy(&line).contains(marker))
    })
    .collect()
}

/// Whether `done` holds within a deadline far above any pause of a busy machine.
fn eventually(done: impl Fn() -> bool) -> bool {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while !done() {
        if std::time::Instant::now() > deadline {
            return false;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    true
}

#[test]
fn an_interrupted_comparison_leaves_no_process_its_sources_started() {
    // A source runs in a process group of its own, which the terminal's Ctrl+C does not reach:
    // the command must end it itself. This one starts a child and never answers.
    let dir = tempfile::tempdir().unwrap();
    let marker = "unfold-cli-test-child-of-an-interrupted-source";
    let python = unfold_test_support::mcp_servers::python();
    let line = format!("{python} -c 'import time; time.sleep(600)' {marker} & exec sleep 600");
    let sources = serde_json::json!([{ "name": "ide", "section": null, "mcp": { "command": ["sh", "-c", line] } }]);
    let template = example_with_sources(dir.path(), "silent.unfold.json", sources);
    let mut compare = Child(
        std::process::Command::new(env!("CARGO_BIN_EXE_unfold"))
            .args(["compare", template.to_str().unwrap(), "examples/lookup-first.scenario.json", "--allow-sources"])
            .current_dir(repo("."))
            .env("UNFOLD_HISTORY", "off")
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap(),
    );
    assert!(eventually(|| !processes_with(marker).is_empty()), "the source started its child");
    let interrupted = std::process::Command::new("kill").args(["-INT", &compare.0.id().to_string()]).status().unwrap();
    assert!(interrupted.success());
    let status = compare.0.wait().unwrap();
    let mut stderr = String::new();
    std::io::Read::read_to_string(compare.0.stderr.as_mut().unwrap(), &mut stderr).unwrap();
    assert_eq!(status.code(), Some(130), "{status:?} {stderr}");
    assert_eq!(stderr, "error: interrupted by Ctrl+C\n");
    assert!(eventually(|| processes_with(marker).is_empty()), "the source's child is gone");
}

#[test]
fn compare_json_is_the_report() {
    let outcome = run(&[
        "compare",
        EXAMPLE,
        "examples/read-context-then-search.scenario.json",
        "--json",
        "--adapters",
        "restart",
    ]);
    assert_eq!(outcome.code, 0, "{}", outcome.stderr);
    let report: serde_json::Value = serde_json::from_str(&outcome.stdout).unwrap();
    assert_eq!(report["kind"], "unfold.comparison");
    assert_eq!(report["template"], "task-executor");
    assert_eq!(report["scenario"], "read-context-then-search");
    assert_eq!(report["runs"].as_array().unwrap().len(), 1);
    assert_eq!(report["runs"][0]["adapter"], "restart");
    assert_eq!(report["runs"][0]["counters"]["restarts"], 1);
    assert_eq!(report["runs"][0]["events"][0]["type"], "run_started");
    assert_eq!(report["runs"][0]["events"][0]["seq"], 0);
    assert_eq!(report["baseline"]["adapter"], "dynamic");
    assert_eq!(report["baseline"]["counters"]["restarts"], 0);
    assert_eq!(report["baseline"]["savings"][0]["adapter"], "restart");
    assert!(report["divergence"].is_null(), "one run has nothing to diverge from");
}

#[test]
fn compare_writes_one_request_body_per_model_call() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("requests");
    let outcome = run(&[
        "compare",
        EXAMPLE,
        "examples/lookup-first.scenario.json",
        "--json",
        "--requests",
        folder.to_str().unwrap(),
    ]);
    assert_eq!(outcome.code, 0, "{}", outcome.stderr);
    let report: serde_json::Value = serde_json::from_str(&outcome.stdout).expect("stdout is only the report");
    let mut names: Vec<String> =
        std::fs::read_dir(&folder).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    let expected: Vec<String> =
        [("baseline", &report["baseline"]), ("dynamic", &report["runs"][0]), ("restart", &report["runs"][1])]
            .iter()
            .flat_map(|(label, run)| {
                let calls = run["counters"]["model_calls"].as_u64().unwrap();
                (1..=calls).map(move |call| format!("{label}-call-{call:03}.json"))
            })
            .collect();
    assert_eq!(names, expected);
    let body: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(folder.join("restart-call-003.json")).unwrap()).unwrap();
    let roles: Vec<&str> = body["messages"].as_array().unwrap().iter().map(|m| m["role"].as_str().unwrap()).collect();
    assert_eq!(roles, ["system", "user"], "the restart's new attempt starts again from the user's message");
    assert_eq!(body["tools"][1]["function"]["name"], "search");

    let table = run(&[
        "compare",
        EXAMPLE,
        "examples/style-only.scenario.json",
        "--requests",
        dir.path().join("t").to_str().unwrap(),
    ]);
    assert!(
        table.stdout.ends_with(&format!("\nwrote 5 request bodies to {}\n", dir.path().join("t").display())),
        "{}",
        table.stdout
    );
}

#[test]
fn compare_writes_request_bodies_only_into_a_new_or_empty_folder() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("notes.txt"), "mine").unwrap();
    let folder = dir.path().to_str().unwrap();
    let outcome = run(&["compare", EXAMPLE, "examples/style-only.scenario.json", "--requests", folder]);
    assert_eq!(outcome.code, 2);
    assert_eq!(
        outcome.stderr,
        format!(
            "error: --requests {folder}: the folder is not empty: give a new or empty folder, so no earlier file is mixed with these\n"
        )
    );
    assert_eq!(outcome.stdout, "");
    assert_eq!(std::fs::read_to_string(dir.path().join("notes.txt")).unwrap(), "mine");
    let file = dir.path().join("notes.txt");
    let outcome = run(&["compare", EXAMPLE, "examples/style-only.scenario.json", "--requests", file.to_str().unwrap()]);
    assert_eq!(outcome.code, 2);
    assert_eq!(
        outcome.stderr,
        format!("error: --requests {}: this is a file: give a new or empty folder\n", file.display())
    );
}

#[test]
fn validate_lists_every_problem_and_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.unfold.json");
    let text = std::fs::read_to_string(repo(EXAMPLE))
        .unwrap()
        .replace("\"key\": \"style\"", "\"key\": \"task\"")
        .replace("\"name\": \"cite\"", "\"name\": \"lookup\"");
    std::fs::write(&bad, text).unwrap();
    let outcome = run(&["validate", EXAMPLE, bad.to_str().unwrap(), "examples/style-only.scenario.json"]);
    assert_eq!(outcome.code, 1);
    assert!(outcome.stdout.contains("examples/task-executor.unfold.json: ok (unfold.template)"));
    assert!(outcome.stdout.contains("examples/style-only.scenario.json: ok (unfold.scenario)"));
    let bad = bad.display();
    assert_eq!(
        outcome.stderr,
        format!(
            "{bad}: /sections/1/tools/1/name: duplicate tool name 'lookup': /tools/0 has it too\n\
             {bad}: /sections/2/key: duplicate key 'task': /sections/0 has it too\n"
        )
    );
}

/// Every class of bad file, given to every command that reads one.
#[test]
fn bad_files_are_one_line_errors_never_panics() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, bytes: &[u8]| {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        path
    };
    let truncated = std::fs::read(repo(EXAMPLE)).unwrap()[..700].to_vec();
    let deep = format!("{{\"a\": {}{}}}", "[".repeat(5000), "]".repeat(5000));
    let cases: Vec<(PathBuf, &str)> = vec![
        (dir.path().join("missing.json"), "cannot read"),
        (dir.path().to_path_buf(), "cannot read"),
        (write("empty.json", b""), "the file is empty"),
        (write("binary.json", &[0x89, b'P', b'N', b'G', 0, 1, 2, 0xff]), "not UTF-8 JSON text"),
        (write("truncated.json", &truncated), "is the file truncated?"),
        (write("big.json", &vec![b' '; 50 * 1024 * 1024]), "Unfold reads documents up to"),
        (write("deep.json", deep.as_bytes()), "JSON nested deeper than 200 levels"),
        (repo("examples/style-only.scenario.json"), "this is a 'unfold.scenario' document; expected 'unfold.template'"),
        (write("array.json", b"[1, 2]"), "expected a JSON object"),
        (
            write(
                "twice.json",
                br#"{"schema_version": 1, "kind": "unfold.template", "key": "t",
                     "sources": [{"name": "docs", "mcp": {"command": ["docs-server"], "command": ["sh"]}}]}"#,
            ),
            "/sources/0/mcp/command: \"command\" is given twice in this object; JSON keys must be unique",
        ),
    ];
    for (path, expected) in &cases {
        let file = path.to_str().unwrap();
        assert_bad_input(&run(&["render", file]), path, expected);
        assert_bad_input(&run(&["compare", file, "examples/style-only.scenario.json"]), path, expected);
        if expected.contains("unfold.scenario") {
            continue; // a valid scenario: only bad where a template is expected
        }
        assert_bad_input(&run(&["compare", EXAMPLE, file]), path, expected);
        let validated = run(&["validate", file]);
        assert!(matches!(validated.code, 1 | 2), "{file}: {}", validated.stderr);
        assert!(validated.stderr.contains(expected) && !validated.stderr.contains("panicked"), "{}", validated.stderr);
    }
}

/// A FIFO, a device or a socket given as any input is refused at once, never read: opening a
/// FIFO waits for a writer, and a device may never end. (The bound only stops a test that would
/// otherwise wait forever; nothing here is close to it.)
#[test]
fn an_input_that_is_not_a_regular_file_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe.json");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let socket = dir.path().join("socket.json");
    let _listening = std::os::unix::net::UnixListener::bind(&socket).unwrap();
    let suite = dir.path().join("fifo.suite.json");
    let case = serde_json::json!({ "name": "a", "template": repo(EXAMPLE), "scenario": "pipe.json" });
    let document = serde_json::json!({ "schema_version": 1, "kind": "unfold.suite", "name": "s", "cases": [case] });
    std::fs::write(&suite, document.to_string()).unwrap();
    let bounded = |args: &[&str]| {
        let output = unfold().args(args).timeout(std::time::Duration::from_secs(120)).output().unwrap();
        (output.status.code(), String::from_utf8_lossy(&output.stderr).into_owned())
    };
    let (fifo, socket, suite) = (fifo.to_str().unwrap(), socket.to_str().unwrap(), suite.to_str().unwrap());
    for (args, expected) in [
        (
            vec!["render", fifo],
            format!("error: {fifo}: cannot read: this is a FIFO (named pipe), not a regular file\n"),
        ),
        (vec!["render", "/dev/zero"], "error: /dev/zero: cannot read: this is a device, not a regular file\n".into()),
        (vec!["render", socket], format!("error: {socket}: cannot read: this is a socket, not a regular file\n")),
        (
            vec!["compare", EXAMPLE, fifo],
            format!("error: {fifo}: cannot read: this is a FIFO (named pipe), not a regular file\n"),
        ),
        (
            vec!["test", suite],
            format!(
                "error: {suite}: /cases/0/scenario: cannot read 'pipe.json' ({fifo}): this is a FIFO (named pipe), \
                 not a regular file\n"
            ),
        ),
        (
            vec!["test", "examples/regressions.suite.json", "--junit", fifo],
            format!("error: {fifo}: --junit: this is a FIFO (named pipe), not a regular file: give a file\n"),
        ),
    ] {
        assert_eq!(bounded(&args), (Some(2), expected), "{args:?}");
    }
    let (code, stderr) = bounded(&["validate", fifo, "/dev/zero"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 2, "{stderr}");
}

/// What a path or a key holds is printed so that it cannot forge or clear a line of stderr: a
/// newline, a carriage return or an escape sequence in it is escaped; an ordinary path prints as
/// it is.
#[test]
fn control_characters_in_a_path_or_a_key_cannot_forge_an_error_line() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("ok\nerror: everything is fine\r\u{1b}[2K");
    std::fs::create_dir(&folder).unwrap();
    let twice = folder.join("t.unfold.json");
    let text = r#"{"schema_version": 1, "kind": "unfold.template", "key": "t", "x-a": {"b\nerror: c": 1, "b\u000aerror: c": 2}}"#;
    std::fs::write(&twice, text).unwrap();
    let shown = format!("{}/ok\\nerror: everything is fine\\r\\u{{1b}}[2K", dir.path().display());
    for args in [vec!["render", twice.to_str().unwrap()], vec!["validate", twice.to_str().unwrap()]] {
        let outcome = run(&args);
        let prefix = if args[0] == "validate" { "" } else { "error: " };
        assert_eq!(
            outcome.stderr,
            format!(
                "{prefix}{shown}/t.unfold.json: /x-a/b\\nerror: c: \"b\\nerror: c\" is given twice in this object; \
                 JSON keys must be unique\n"
            ),
            "{args:?}"
        );
    }
    let missing = folder.join("gone.unfold.json");
    let outcome = run(&["render", missing.to_str().unwrap()]);
    assert_eq!(
        outcome.stderr,
        format!("error: {shown}/gone.unfold.json: cannot read: No such file or directory (os error 2)\n")
    );
    let plain = run(&["render", "examples/no such – file.unfold.json"]);
    assert!(plain.stderr.starts_with("error: examples/no such – file.unfold.json: cannot read"), "{}", plain.stderr);
}

#[test]
fn a_scenario_that_does_not_fit_the_template_names_the_scenario() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = dir.path().join("s.scenario.json");
    std::fs::write(
        &scenario,
        r#"{"schema_version": 1, "kind": "unfold.scenario", "name": "s", "user": "u",
            "params": {"colour": "red"}, "script": [{"say": "ok"}]}"#,
    )
    .unwrap();
    let outcome = run(&["compare", EXAMPLE, scenario.to_str().unwrap()]);
    assert_bad_input(&outcome, &scenario, "/params/colour: unknown parameter 'colour'");
}

#[test]
fn bad_arguments_exit_2_with_usage() {
    let outcome = run(&["compare", EXAMPLE, "examples/style-only.scenario.json", "--adapters", "sideways"]);
    assert_eq!(outcome.code, 2);
    assert!(outcome.stderr.contains("unknown adapter 'sideways'"), "{}", outcome.stderr);
}

/// Every option that takes an adapter lists all of them in its help, from the adapters' own list.
#[test]
fn the_help_of_every_adapter_option_names_every_adapter() {
    let names: Vec<&str> = unfold_engine::AdapterKind::ALL.iter().map(|kind| kind.name()).collect();
    let listed = format!("[possible values: {}", names.join(", "));
    for (command, option) in
        [("compare", "--adapters <ADAPTERS>"), ("run", "--adapter <ADAPTER>"), ("history", "--adapter <ADAPTER>")]
    {
        let help = run(&[command, "--help"]).stdout;
        let at = help.find(option).unwrap_or_else(|| panic!("{command} has {option}: {help}"));
        let entry = help[at..].split("\n      -").next().unwrap_or_default();
        assert!(entry.contains(&listed), "unfold {command} {option}: {entry}");
    }
}

#[test]
fn logs_go_to_stderr_only_when_asked() {
    let output = unfold()
        .args(["compare", EXAMPLE, "examples/style-only.scenario.json", "--json"])
        .env("UNFOLD_LOG", "info")
        .output()
        .unwrap();
    assert!(output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("run completed") && stderr.contains("model_calls=2"), "{stderr}");
    assert!(!stderr.contains('\u{1b}'), "no colour codes when stderr is not a terminal");
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("stdout is only the report");
    assert_eq!(report["kind"], "unfold.comparison");
    let quiet = run(&["compare", EXAMPLE, "examples/style-only.scenario.json"]);
    assert_eq!(quiet.stderr, "");
}

#[test]
fn relay_serves_sessions_on_this_machine_until_interrupted() {
    use std::io::{Read, Write};
    let (mut relay, url) = start_relay();
    let address = url.strip_prefix("http://").unwrap_or_else(|| panic!("{url}")).to_owned();
    assert!(address.starts_with("127.0.0.1:"), "only this machine: {address}");
    let mut socket = std::net::TcpStream::connect(&address).unwrap();
    let request =
        format!("POST /api/sessions HTTP/1.1\r\nHost: {address}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
    socket.write_all(request.as_bytes()).unwrap();
    let mut answer = String::new();
    socket.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 201"), "{answer}");
    assert!(answer.contains("\"token\":"), "{answer}");
    let interrupted = std::process::Command::new("kill").args(["-INT", &relay.0.id().to_string()]).status().unwrap();
    assert!(interrupted.success());
    assert!(relay.0.wait().unwrap().success(), "Ctrl+C stops it cleanly");
    assert!(std::net::TcpStream::connect(&address).is_err(), "and the port is free");
}

#[test]
fn a_comparison_attached_to_a_relay_session_needs_its_token_and_a_session_the_relay_takes() {
    let dir = tempfile::tempdir().unwrap();
    let relayed = serde_json::json!([{ "name": "codap", "section": null, "relay": { "plugin": "codap" } }]);
    let template = example_with_sources(dir.path(), "relayed.unfold.json", relayed);
    let template = template.to_str().unwrap();
    let scenario = repo("examples/lookup-first.scenario.json");
    let args = ["compare", template, scenario.to_str().unwrap(), "--json", "--relay-session", "K7QX2MPA"];
    let no_token = unfold().args(args).env_remove("UNFOLD_RELAY_TOKEN").output().unwrap();
    assert_eq!(no_token.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&no_token.stderr);
    assert!(
        stderr.contains("--relay-session: the session's token goes in UNFOLD_RELAY_TOKEN, which is not set"),
        "{stderr}"
    );

    // A session asked for by name that cannot be attached is an error before any run: a relay
    // nothing listens on, a token it refuses, a session it does not hold. The error names the
    // relay and why, never the token.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
    let (_relay, running) = start_relay();
    let session = new_session(&running);
    let code = session["code"].as_str().unwrap();
    let refused = format!("the relay at {running} refused session {code} or its token (401 Unauthorized)");
    let cases = [
        (format!("http://{closed}"), "K7QX2MPA", format!("the relay at http://{closed} is not reachable")),
        (running.clone(), code, refused),
        (running.clone(), "K7QX2MPA", format!("the relay at {running} refused session K7QX2MPA or its token")),
    ];
    for (relay, code, why) in cases {
        let args = ["compare", template, scenario.to_str().unwrap(), "--relay-session", code, "--relay", &relay];
        let failed = unfold().args(args).env("UNFOLD_RELAY_TOKEN", "secret-token-value").output().unwrap();
        let stderr = String::from_utf8_lossy(&failed.stderr);
        assert_eq!(failed.status.code(), Some(2), "{stderr}");
        assert!(stderr.starts_with(&format!("error: {why}")), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(failed.stdout.is_empty(), "no run started");
        assert!(!stderr.contains("secret-token-value"), "the token is never printed");
    }
}

/// A new session of the relay at `url` (`http://127.0.0.1:PORT`): its code, token and time to live.
fn new_session(url: &str) -> serde_json::Value {
    use std::io::{Read, Write};
    let address = url.strip_prefix("http://").unwrap();
    let mut socket = std::net::TcpStream::connect(address).unwrap();
    let request =
        format!("POST /api/sessions HTTP/1.1\r\nHost: {address}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
    socket.write_all(request.as_bytes()).unwrap();
    let mut answer = String::new();
    socket.read_to_string(&mut answer).unwrap();
    let (head, body) = answer.split_once("\r\n\r\n").unwrap();
    assert!(head.starts_with("HTTP/1.1 201"), "{answer}");
    serde_json::from_str(body).unwrap()
}

/// A process of this test, killed when dropped (a test that fails leaves nothing running).
struct Child(std::process::Child);

impl Drop for Child {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The first line `child` prints.
fn first_line(child: &mut Child) -> String {
    use std::io::BufRead;
    let mut line = String::new();
    std::io::BufReader::new(child.0.stdout.as_mut().unwrap()).read_line(&mut line).unwrap();
    line
}

/// `unfold relay` on a free port, and where it listens (`http://127.0.0.1:PORT`).
fn start_relay() -> (Child, String) {
    let mut relay = Child(
        std::process::Command::new(env!("CARGO_BIN_EXE_unfold"))
            .args(["relay", "--port", "0"])
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap(),
    );
    let line = first_line(&mut relay);
    let url = line.trim().strip_prefix("relay listening on ").and_then(|rest| rest.split("/api").next());
    let url = url.unwrap_or_else(|| panic!("{line}")).to_owned();
    (relay, url)
}

#[test]
fn the_example_plugin_changes_its_tools_mid_comparison_through_a_real_relay() {
    let (_relay, relay_url) = start_relay();
    let template = repo("examples/relay-plugin/tables.unfold.json");
    let scenario = repo("examples/relay-plugin/plot.scenario.json");
    let mut plugin = Child(
        std::process::Command::new("python3")
            .arg(repo("examples/relay-plugin/table_plugin.py"))
            .arg(&relay_url)
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap(),
    );
    // The plugin prints its session once it is ready: stream open, tools registered.
    let session: serde_json::Value = serde_json::from_str(&first_line(&mut plugin)).unwrap();
    let code = session["code"].as_str().unwrap();
    // One comparison, both lanes attached to the one session: the plugin adds its tool once, when
    // the first lane opens a table, and each lane hears it.
    let outcome = unfold()
        .args(["compare", template.to_str().unwrap(), scenario.to_str().unwrap(), "--json"])
        .args(["--relay", &relay_url, "--relay-session", code])
        .env("UNFOLD_RELAY_TOKEN", session["token"].as_str().unwrap())
        .output()
        .unwrap();
    assert!(outcome.status.success(), "{}", String::from_utf8_lossy(&outcome.stderr));
    let report: serde_json::Value = serde_json::from_slice(&outcome.stdout).unwrap();
    let lanes = report["runs"].as_array().unwrap().clone();
    assert_eq!((lanes[0]["adapter"].as_str(), lanes[1]["adapter"].as_str()), (Some("dynamic"), Some("restart")));
    let of = |run: &serde_json::Value, kind: &str| -> Vec<serde_json::Value> {
        run["events"].as_array().unwrap().iter().filter(|e| e["type"] == kind).cloned().collect()
    };
    for run in &lanes {
        assert_eq!(of(run, "tools_discovered")[0]["tier"], "live", "{run}");
        let changed = &of(run, "tool_availability_changed")[0];
        assert_eq!(
            (&changed["source"], &changed["added"]),
            (&serde_json::json!("tables"), &serde_json::json!(["plot_column"]))
        );
        let plotted = of(run, "tool_call").into_iter().find(|c| c["name"] == "plot_column").unwrap();
        assert_eq!(plotted["result"], "plotted mass of mammals", "answered by the plugin");
        assert_eq!(run["final"], "Here is the plot of mass.");
    }
    assert_eq!(of(&lanes[0], "tools_injected")[0]["tool_names"], serde_json::json!(["plot_column"]));
    assert_eq!(of(&lanes[1], "restart")[0]["reason"], "tool_availability_changed");
    assert!(of(&lanes[0], "restart").is_empty() && of(&lanes[1], "tools_injected").is_empty());
}

/// The reason a run's tools are not what was asked (a source's snapshot, a tool left out) is
/// never cut: its cell names it, and it is listed whole under the events.
#[test]
fn compare_lists_the_reasons_of_fallbacks_whole_under_the_events() {
    let dir = tempfile::tempdir().unwrap();
    let template = example_with_sources(
        dir.path(),
        "remote.unfold.json",
        serde_json::json!([{
            "name": "ide", "section": "context", "mcp": { "url": "https://tools.example.com/mcp" },
            "snapshot": [
                { "name": "grep", "description": "Search the workspace.", "parameters": { "type": "object" } },
                { "name": "search", "description": "Shadowed.", "parameters": { "type": "object" } }
            ]
        }]),
    );
    let args = ["compare", template.to_str().unwrap(), "examples/lookup-first.scenario.json", "--allow-sources"];
    let out = run(&[&args[..], &["--adapters", "dynamic,restart,allowed_tools,deferred"]].concat());
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stdout.matches("1: tools from ide (its snapshot, reason 1): gr").count(), 4, "{}", out.stdout);
    let reasons = out.stdout.split("\nreasons\n").nth(1).unwrap_or_default();
    assert_eq!(
        reasons,
        "1. https://tools.example.com/mcp is not on this machine: allow source 'ide' by name to reach it; \
         left out 'search': the template already has a tool of that name\n"
    );
}

/// All four adapters: a column each, a difference column for each against the first, and a
/// divergence line for each against the first.
#[test]
fn compare_takes_any_set_of_adapters_and_sets_each_against_the_first() {
    let out = run(&[
        "compare",
        EXAMPLE,
        "examples/read-context-then-search.scenario.json",
        "--adapters",
        "dynamic,restart,allowed_tools,deferred",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    // Off a terminal the tables fit 100 columns: the runs two and two, then their differences,
    // each block with its row labels.
    let lines: Vec<&str> = out.stdout.lines().collect();
    let headers: Vec<Vec<&str>> = lines
        .windows(2)
        .take_while(|pair| !pair[0].starts_with("baseline:"))
        .filter(|pair| pair[1].starts_with("status"))
        .map(|pair| pair[0].split("  ").map(str::trim).filter(|c| !c.is_empty()).collect())
        .collect();
    assert_eq!(
        headers,
        [
            vec!["dynamic", "restart"],
            vec!["allowed_tools", "deferred"],
            vec!["restart - dynamic", "allowed_tools - dynamic", "deferred - dynamic"]
        ]
    );
    let wide: Vec<&&str> =
        lines.iter().filter(|l| l.chars().count() > 100 && !l.starts_with("first divergence")).collect();
    assert!(wide.is_empty(), "{wide:#?}");
    let divergences: Vec<&str> = out.stdout.lines().filter(|l| l.starts_with("first divergence")).collect();
    assert_eq!(divergences.len(), 3, "{}", out.stdout);
    assert!(
        divergences[0].starts_with("first divergence, restart against dynamic: restart at call 1"),
        "{divergences:?}"
    );
    assert!(divergences[1]
        .ends_with("allowed_tools against dynamic: none (the same tool calls with the same results, the same ending)"));
    assert!(out.stdout.contains("allowed search, cite (context)"), "{}", out.stdout);
    assert!(out.stdout.contains("loaded search, cite (context)"), "{}", out.stdout);
    // The history keeps every lane and finds a run by its adapter, the columns as wide as it.
    let folder = tempfile::tempdir().unwrap();
    let history = folder.path().join("history.sqlite3");
    let with_history = |args: &[&str]| unfold().env("UNFOLD_HISTORY", &history).args(args).output().unwrap();
    let kept = with_history(&[
        "compare",
        EXAMPLE,
        "examples/read-context-then-search.scenario.json",
        "--adapters",
        "allowed_tools,deferred",
    ]);
    assert!(kept.status.success(), "{}", String::from_utf8_lossy(&kept.stderr));
    let listed = String::from_utf8_lossy(&with_history(&["history", "--adapter", "allowed_tools"]).stdout).into_owned();
    let lines: Vec<&str> = listed.lines().collect();
    assert_eq!(lines.len(), 2, "{listed}");
    assert_eq!(lines[0].find("ADAPTER"), lines[1].find("allowed_tools  completed"), "{listed}");
    let refused = run(&["compare", EXAMPLE, "examples/style-only.scenario.json", "--adapters", "dynamic,sideways"]);
    assert_eq!(refused.code, 2);
    assert!(
        refused
            .stderr
            .contains("unknown adapter 'sideways' (dynamic, restart, allowed_tools, deferred or tool_addition)"),
        "{}",
        refused.stderr
    );
}

/// `unfold test` on the bundled suite: one line per case, the JUnit XML, exit 0.
#[test]
fn test_runs_a_suite_prints_a_line_per_case_and_writes_junit() {
    let folder = tempfile::tempdir().unwrap();
    let junit = folder.path().join("junit.xml");
    let out = run(&["test", "examples/regressions.suite.json", "--junit", junit.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines.len(), 6, "{}", out.stdout);
    assert!(lines[..5].iter().all(|line| line.starts_with("ok    disclosure regressions › ")), "{}", out.stdout);
    assert!(lines[4].ends_with(" s, 10 repetitions)"), "the repeated case says its study: {}", out.stdout);
    assert_eq!(lines[5], "5 cases: 5 passed, 0 failed");
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(xml.contains("<testsuites name=\"unfold\" tests=\"5\" failures=\"0\""), "{xml}");
    let cases = junit_cases(&xml);
    assert_eq!(cases.len(), 5, "{xml}");
    assert!(cases.iter().all(|(_, failure)| failure.is_none()), "{xml}");
}

/// A suite whose expectations do not hold: exit 1, each unmet expectation with the value seen,
/// and a JUnit failure for the case.
#[test]
fn test_names_every_expectation_that_did_not_hold_with_the_value_seen() {
    let folder = tempfile::tempdir().unwrap();
    let examples = repo("examples");
    let suite = folder.path().join("strict.suite.json");
    let document = serde_json::json!({
        "schema_version": 1, "kind": "unfold.suite", "name": "strict",
        "cases": [
            { "name": "too strict <&\"'>", "template": examples.join("task-executor.unfold.json"),
              "scenario": examples.join("read-context-then-search.scenario.json"),
              "expect": { "dynamic": { "model_calls": { "max": 1 }, "status": "turn_limit" },
                          "restart": { "prompt_tokens": { "min": 100000 } },
                          "divergence": "none" } },
            { "name": "holds", "template": examples.join("task-executor.unfold.json"),
              "scenario": examples.join("style-only.scenario.json"),
              "expect": { "dynamic": { "status": "completed" } } }
        ]
    });
    std::fs::write(&suite, document.to_string()).unwrap();
    let junit = folder.path().join("junit.xml");
    let out = run(&["test", suite.to_str().unwrap(), "--junit", junit.to_str().unwrap()]);
    assert_eq!(out.code, 1, "{}{}", out.stdout, out.stderr);
    let expected = [
        "FAIL  strict › too strict <&\"'>",
        "      dynamic status: expected turn_limit, saw completed",
        "      dynamic model_calls: expected at most 1, saw 3",
        "      restart prompt_tokens: expected at least 100000, saw ",
        "      divergence: expected none, saw restart",
        "ok    strict › holds",
        "2 cases: 1 passed, 1 failed",
    ];
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines.len(), expected.len(), "{}", out.stdout);
    for (line, start) in lines.iter().zip(expected) {
        assert!(line.starts_with(start), "{line:?} should start with {start:?}\n{}", out.stdout);
    }
    // The JUnit file parses as XML, the case's name whole, its failure listing every line.
    let xml = std::fs::read_to_string(&junit).unwrap();
    let cases = junit_cases(&xml);
    assert_eq!(cases.len(), 2, "{xml}");
    assert_eq!(cases[0].0, "too strict <&\"'>");
    let failure = cases[0].1.as_deref().unwrap();
    assert!(
        failure
            .starts_with("dynamic status: expected turn_limit, saw completed\ndynamic model_calls: expected at most 1"),
        "{failure}"
    );
    assert_eq!(failure.lines().count(), 4, "{failure}");
    assert_eq!(cases[1], ("holds".to_owned(), None));
}

/// Each `testcase` of a JUnit document: its name, and its failure's text if it failed.
fn junit_cases(xml: &str) -> Vec<(String, Option<String>)> {
    let document = roxmltree::Document::parse(xml).expect("well-formed XML");
    document
        .descendants()
        .filter(|node| node.has_tag_name("testcase"))
        .map(|case| {
            let failure = case.children().find(|node| node.has_tag_name("failure"));
            (case.attribute("name").unwrap().to_owned(), failure.and_then(|f| f.text()).map(str::to_owned))
        })
        .collect()
}

/// Bad input stops before anything runs: every problem of the suite and its cases' files, each
/// naming its file and place, exit 2, no JUnit file.
#[test]
fn test_refuses_a_bad_suite_naming_each_file_and_place() {
    let folder = tempfile::tempdir().unwrap();
    let suite = folder.path().join("bad.suite.json");
    let document = serde_json::json!({
        "schema_version": 1, "kind": "unfold.suite", "name": "bad",
        "cases": [
            { "name": "a", "template": repo(EXAMPLE), "scenario": "missing.scenario.json",
              "expect": { "sideways": { "status": "completed" } } },
            { "name": "a", "template": repo(EXAMPLE), "scenario": repo("examples/style-only.scenario.json"),
              "expect": { "dynamic": { "cost_usd": { "max": 1 } } } }
        ]
    });
    std::fs::write(&suite, document.to_string()).unwrap();
    let junit = folder.path().join("junit.xml");
    let out = run(&["test", suite.to_str().unwrap(), "--junit", junit.to_str().unwrap()]);
    assert_eq!(out.code, 2, "{}{}", out.stdout, out.stderr);
    let at = |pointer: &str| format!("{}: {pointer}", suite.display());
    assert!(
        out.stderr.contains(&at(
            "/cases/0/expect/sideways: the case has no run 'sideways' (its runs: dynamic, restart, baseline)"
        )),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains(&at("/cases/1/name: another case is named 'a'")), "{}", out.stderr);
    assert!(
        out.stderr
            .contains(&at("/cases/1/expect/dynamic: cost_usd and cacheable_prompt_tokens need the case's price_as")),
        "{}",
        out.stderr
    );
    assert!(out.stdout.is_empty() && !junit.exists(), "nothing ran: {}", out.stdout);
    // A suite that parses, with cases whose files are missing: each named at its place in the
    // suite, as written and as found from the suite's folder.
    let fixed = serde_json::json!({
        "schema_version": 1, "kind": "unfold.suite", "name": "missing",
        "cases": [{ "name": "a", "template": repo(EXAMPLE), "scenario": "missing.scenario.json" },
                  { "name": "b", "template": "gone.unfold.json", "scenario": "missing.scenario.json" }]
    });
    std::fs::write(&suite, fixed.to_string()).unwrap();
    let out = run(&["test", suite.to_str().unwrap()]);
    assert_eq!(out.code, 2);
    let missing = |pointer: &str, name: &str| {
        format!(
            "error: {}: {pointer}: cannot read '{name}' ({}): No such file or directory (os error 2)\n",
            suite.display(),
            folder.path().join(name).display()
        )
    };
    assert_eq!(
        out.stderr,
        missing("/cases/0/scenario", "missing.scenario.json") + &missing("/cases/1/template", "gone.unfold.json")
    );
    let shard = run(&["test", suite.to_str().unwrap(), "--shard", "3/2"]);
    assert_eq!(shard.code, 2);
    assert!(shard.stderr.contains("'3/2' is not a shard"), "{}", shard.stderr);
}

/// Shards of a CI matrix: every case once over all of them but a repeated one, which every shard
/// runs its share of; their JUnit files together hold every case.
#[test]
fn test_shards_run_every_case_once_between_them() {
    let folder = tempfile::tempdir().unwrap();
    let studies = folder.path().join("studies");
    let mut names = Vec::new();
    for shard in ["1/2", "2/2"] {
        let junit = folder.path().join(format!("junit-{}.xml", shard.replace('/', "-of-")));
        let (junit_path, studies) = (junit.to_str().unwrap(), studies.to_str().unwrap());
        let suite = "examples/regressions.suite.json";
        let out = run(&["test", suite, "--shard", shard, "--junit", junit_path, "--study-dir", studies]);
        assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
        assert!(out.stdout.contains(&format!("(shard {shard} of 5 cases)")), "{}", out.stdout);
        assert!(out.stdout.contains(" s, 5 of 10 repetitions)"), "{}", out.stdout);
        names.extend(junit_cases(&std::fs::read_to_string(&junit).unwrap()).into_iter().map(|(name, _)| name));
    }
    names.sort();
    let suite: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(repo("examples/regressions.suite.json")).unwrap()).unwrap();
    let cases = suite["cases"].as_array().unwrap();
    let mut all: Vec<String> = cases
        .iter()
        .flat_map(|case| {
            let shards = if case["repeat"].is_null() { 1 } else { 2 };
            std::iter::repeat_n(case["name"].as_str().unwrap().to_owned(), shards)
        })
        .collect();
    all.sort();
    assert_eq!(names, all);
}

/// The suites of `tests/repeated_suites/`, whose cases repeat.
const REPEATED: &str = "crates/unfold-cli/tests/repeated_suites";

/// A repeated case runs as a study and is held to it: every run's status and counters, the
/// success rate, the saving on its interval and the paired difference, each failure with its
/// numbers.
#[test]
fn a_repeated_case_is_held_to_its_study() {
    let holds = run(&["test", &format!("{REPEATED}/holds.suite.json")]);
    assert_eq!(holds.code, 0, "{}{}", holds.stdout, holds.stderr);
    assert!(
        holds.stdout.starts_with("ok    studies that hold › fixing a test, seven times over  ("),
        "{}",
        holds.stdout
    );
    assert!(holds.stdout.contains(" s, 7 repetitions)\n1 cases: 1 passed, 0 failed\n"), "{}", holds.stdout);

    let fails = run(&["test", &format!("{REPEATED}/fails.suite.json")]);
    assert_eq!(fails.code, 1, "{}{}", fails.stdout, fails.stderr);
    let failures: Vec<&str> =
        fails.stdout.lines().filter(|line| line.starts_with("      ")).map(str::trim_start).collect();
    assert_eq!(
        failures,
        [
            "dynamic model_calls: expected at most 2 in every run, saw 6 in repetition 1 (4 of 4 runs)",
            "dynamic saved_percent: expected at least 90 % over the whole 95 % interval, \
             saw 68.8 % [68.8 %, 68.8 %] of the baseline's prompt tokens saved",
            "allowed_tools cheaper_than: expected cheaper than dynamic: the paired difference's 95 % interval \
             below 0, saw +0.001216 USD per run [+0.001216, +0.001216]",
            "dynamic status: expected completed in every run, saw turn_limit in repetition 1 (3 of 3 runs)",
            "dynamic success_rate: expected at least 0.5, \
             saw 0.000 (0/3 runs completed; Wilson 95 % interval [0.000, 0.561])",
        ],
        "{}",
        fails.stdout
    );
    assert!(fails.stdout.ends_with("2 cases: 0 passed, 2 failed\n"), "{}", fails.stdout);
}

/// A repeat out of bounds, or an expectation a repeated case cannot check (or one only a study
/// can), is bad input at its file and place, before anything runs.
#[test]
fn a_bad_repeat_is_refused_at_its_file_and_place() {
    let folder = tempfile::tempdir().unwrap();
    let suite = folder.path().join("bad.suite.json");
    let case = |name: &str, repeat: serde_json::Value, expect: serde_json::Value| {
        serde_json::json!({ "name": name, "template": repo(EXAMPLE), "scenario": repo("examples/lookup-first.scenario.json"),
                            "adapters": ["dynamic"], "repeat": repeat, "expect": expect })
    };
    let write = |cases: Vec<serde_json::Value>| {
        let document =
            serde_json::json!({ "schema_version": 1, "kind": "unfold.suite", "name": "bad", "cases": cases });
        std::fs::write(&suite, document.to_string()).unwrap();
    };
    write(vec![case("none", json!(0), json!({})), case("too many", json!(10_001), json!({}))]);
    let out = run(&["test", suite.to_str().unwrap()]);
    assert_bad_input(&out, &suite, "/cases/0/repeat: value is less than the minimum of 1");
    assert!(out.stderr.contains("/cases/1/repeat: value is greater than the maximum of 10000"), "{}", out.stderr);

    write(vec![
        case("a", json!(3), json!({ "dynamic": { "success_rate": { "min": 90 } }, "divergence": "none" })),
        case("b", json!(null), json!({ "dynamic": { "success_rate": { "min": 0.9 } } })),
    ]);
    let out = run(&["test", suite.to_str().unwrap()]);
    assert_bad_input(&out, &suite, "/cases/0/expect/dynamic/success_rate: a success rate is from 0 to 1");
    for expected in [
        "/cases/0/expect/divergence: a repeated case keeps no events to diverge: expect divergence of a case run once",
        "/cases/1/expect/dynamic/success_rate: success_rate is of a study: give the case a repeat",
    ] {
        assert!(out.stderr.contains(expected), "{expected:?} in {}", out.stderr);
    }
}

/// Under `--shard K/N --study-dir DIR` every shard runs its share of a repeated case's
/// repetitions into a partial study; the N files merged are the study one machine runs.
#[test]
fn shards_split_a_repeated_cases_repetitions_and_merge_into_the_whole_study() {
    let folder = tempfile::tempdir().unwrap();
    let suite = format!("{REPEATED}/holds.suite.json");
    let (split, whole) = (folder.path().join("split"), folder.path().join("whole"));
    for shard in ["1/3", "2/3", "3/3"] {
        let out = run(&["test", &suite, "--shard", shard, "--study-dir", split.to_str().unwrap()]);
        assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
        let share = if shard == "1/3" { "3 of 7" } else { "2 of 7" };
        assert!(out.stdout.contains(&format!(" s, {share} repetitions)")), "{shard}: {}", out.stdout);
    }
    let out = run(&["test", &suite, "--shard", "1/1", "--study-dir", whole.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    let file = |folder: &Path, share: &str| {
        folder.join(format!("fixing-a-test--seven-times-over.{share}.study.jsonl")).to_str().unwrap().to_owned()
    };
    let shards: Vec<String> = (1..=3).map(|i| file(&split, &format!("shard-{i}-of-3"))).collect();
    let merged =
        run(&[&["study", "merge", "--json"][..], &shards.iter().map(String::as_str).collect::<Vec<_>>()].concat());
    assert_eq!(merged.code, 0, "{}", merged.stderr);
    let alone = run(&["study", "merge", "--json", &file(&whole, "shard-1-of-1")]);
    assert_eq!(alone.code, 0, "{}", alone.stderr);
    let (mut merged, mut alone): (serde_json::Value, serde_json::Value) =
        (serde_json::from_str(&merged.stdout).unwrap(), serde_json::from_str(&alone.stdout).unwrap());
    without_timings(&mut merged);
    without_timings(&mut alone);
    assert_eq!(merged.to_string(), alone.to_string());
    let lanes: Vec<&str> = merged["lanes"].as_array().unwrap().iter().map(|l| l["lane"].as_str().unwrap()).collect();
    assert_eq!(lanes, ["dynamic", "allowed_tools", "baseline"], "the baseline runs in every repetition");

    let no_dir = run(&["test", &suite, "--shard", "1/3"]);
    assert_eq!(no_dir.code, 2, "{}", no_dir.stderr);
    assert!(no_dir.stderr.contains("case 'fixing a test, seven times over' repeats"), "{}", no_dir.stderr);
    assert!(no_dir.stderr.contains("--study-dir"), "{}", no_dir.stderr);
}

/// `unfold validate` checks suites too, each problem at its place.
#[test]
fn validate_checks_suites() {
    let ok = run(&["validate", "examples/regressions.suite.json"]);
    assert_eq!(ok.code, 0, "{}", ok.stderr);
    assert_eq!(ok.stdout.trim(), "examples/regressions.suite.json: ok (unfold.suite)");
    let folder = tempfile::tempdir().unwrap();
    let suite = folder.path().join("bad.suite.json");
    let document = serde_json::json!({ "schema_version": 1, "kind": "unfold.suite", "name": "bad",
        "cases": [{ "name": "a", "template": "t.unfold.json", "scenario": "s.scenario.json",
                    "expect": { "dynamic": { "model_calls": { "min": 3, "max": 1 } } } }] });
    std::fs::write(&suite, document.to_string()).unwrap();
    let bad = run(&["validate", suite.to_str().unwrap()]);
    assert_eq!(bad.code, 1, "{}", bad.stderr);
    assert!(
        bad.stderr.contains(&format!("{}: /cases/0/expect/dynamic/model_calls: min is more than max", suite.display())),
        "{}",
        bad.stderr
    );
}

/// `unfold validate` checks every kind of file Unfold reads, by the `kind` it declares: profiles,
/// prices and cassettes too, each problem at its place.
#[test]
fn validate_checks_every_kind_of_file() {
    let folder = tempfile::tempdir().unwrap();
    let write = |name: &str, document: serde_json::Value| {
        let path = folder.path().join(name);
        std::fs::write(&path, document.to_string()).unwrap();
        path.to_str().unwrap().to_owned()
    };
    let profiles = write(
        "team-profiles.json",
        serde_json::json!({ "schema_version": 1, "kind": "unfold.providers", "profiles": [
            { "name": "local", "kind": "openai", "base_url": "http://127.0.0.1:8080/v1", "model": "m" }] }),
    );
    let prices = "crates/unfold-documents/data/default.prices.json";
    let bad_prices = write(
        "bad.json",
        serde_json::json!({ "schema_version": 1, "kind": "unfold.prices", "taken": "2026-11-01",
                            "models": { "m": { "input": -1, "output": 1 } } }),
    );
    let cassette = write(
        "run.cassette.json",
        serde_json::json!({ "schema_version": 1, "kind": "unfold.cassette", "template": "t", "adapter": "dynamic",
            "user": "u", "limits": { "max_model_calls": 3, "max_restarts": 1 },
            "provider": { "name": "p", "kind": "openai", "model": "m", "stream": true },
            "calls": [{ "request": {}, "framing": "smoke", "response": "" }] }),
    );
    let foreign = write("other.json", serde_json::json!({ "schema_version": 1, "kind": "unfold.report" }));
    let outcome = run(&["validate", &profiles, prices, &bad_prices, &cassette, &foreign]);
    assert_eq!(outcome.code, 1, "{}", outcome.stderr);
    assert_eq!(
        outcome.stdout,
        format!("{profiles}: ok (unfold.providers)\n{prices}: ok (unfold.prices)\n"),
        "{}",
        outcome.stderr
    );
    assert_eq!(
        outcome.stderr,
        format!(
            "{bad_prices}: /models/m/input: a price is a number of at least 0\n\
             {cassette}: /calls/0/framing: unknown variant `smoke`, expected `stream` or `whole`\n\
             {foreign}: /kind: 'unfold.report' is not a kind of file Unfold reads (unfold.template, unfold.scenario, \
             unfold.suite, unfold.providers, unfold.prices, unfold.host, unfold.cassette)\n"
        )
    );
}

/// `unfold export --to langfuse`: the chat prompt written where asked; bad requests are bad input.
#[test]
fn export_writes_a_langfuse_chat_prompt() {
    let folder = tempfile::tempdir().unwrap();
    let output = folder.path().join("prompt.json");
    let out = run(&["export", EXAMPLE, "--to", "langfuse", "-o", output.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let prompt: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&output).unwrap()).unwrap();
    assert_eq!(prompt["type"], "chat");
    assert_eq!(prompt["prompt"][0]["role"], "system");
    assert!(prompt["prompt"][0]["content"].as_str().unwrap().contains("{{objective}}"));
    let refused = run(&[
        "export",
        EXAMPLE,
        "--to",
        "langfuse",
        "--scenario",
        "examples/style-only.scenario.json",
        "-o",
        output.to_str().unwrap(),
    ]);
    assert_eq!(refused.code, 2);
    assert!(refused.stderr.contains("a Langfuse prompt has no tests"), "{}", refused.stderr);
    let nowhere = folder.path().join("missing/prompt.json");
    let refused = run(&["export", EXAMPLE, "--to", "langfuse", "-o", nowhere.to_str().unwrap()]);
    assert_eq!(refused.code, 2);
    assert!(refused.stderr.contains("-o: its folder does not exist"), "{}", refused.stderr);
    let unknown = run(&["export", EXAMPLE, "--to", "yaml", "-o", output.to_str().unwrap()]);
    assert_eq!(unknown.code, 2);
    assert!(unknown.stderr.contains("unknown format 'yaml' (promptfoo, langfuse, skills)"), "{}", unknown.stderr);
}

/// `unfold export --to promptfoo`: a scenario that does not fit the template, or is no scenario,
/// is refused by its file and place, and nothing is written.
#[test]
fn export_to_promptfoo_refuses_scenarios_that_do_not_fit() {
    let folder = tempfile::tempdir().unwrap();
    let output = folder.path().join("promptfooconfig.json");
    let unknown_param = folder.path().join("unknown.scenario.json");
    let scenario = serde_json::json!({ "schema_version": 1, "kind": "unfold.scenario", "name": "s",
        "params": { "colour": "blue" }, "user": "Go.", "script": [ { "say": "Done." } ] });
    std::fs::write(&unknown_param, scenario.to_string()).unwrap();
    let out = run(&[
        "export",
        EXAMPLE,
        "--to",
        "promptfoo",
        "--scenario",
        unknown_param.to_str().unwrap(),
        "--scenario",
        EXAMPLE,
        "-o",
        output.to_str().unwrap(),
    ]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("unknown.scenario.json") && out.stderr.contains("/params/colour"), "{}", out.stderr);
    assert!(out.stderr.contains("task-executor.unfold.json"), "the template given as a scenario: {}", out.stderr);
    assert!(!output.exists());
    let written = run(&["export", EXAMPLE, "--to", "promptfoo", "-o", output.to_str().unwrap()]);
    assert_eq!(written.code, 0, "{}", written.stderr);
    let config: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&output).unwrap()).unwrap();
    assert_eq!(config["tests"], serde_json::json!([]));
}

/// `unfold export --through-unfold`: only promptfoo runs through Unfold, its lanes are checked
/// before anything is written, and its lanes and profile file are said without it for nothing.
#[test]
fn export_through_unfold_refuses_what_could_not_run() {
    let folder = tempfile::tempdir().unwrap();
    let output = folder.path().join("promptfooconfig.json");
    let out = output.to_str().unwrap();
    let langfuse = run(&["export", EXAMPLE, "--to", "langfuse", "--through-unfold", "-o", out]);
    assert_eq!(langfuse.code, 2);
    assert!(
        langfuse.stderr.contains("--through-unfold: only a promptfoo config runs through Unfold"),
        "{}",
        langfuse.stderr
    );
    let no_host =
        run(&["export", EXAMPLE, "--to", "promptfoo", "--through-unfold", "--adapters", "host:nobody", "-o", out]);
    assert_eq!(no_host.code, 2);
    assert!(no_host.stderr.contains("nobody"), "{}", no_host.stderr);
    assert!(!output.exists() && !folder.path().join("unfold-promptfoo-provider.mjs").exists());
    let lanes_alone = run(&["export", EXAMPLE, "--to", "promptfoo", "--adapters", "restart", "-o", out]);
    assert_eq!(lanes_alone.code, 2);
    assert!(lanes_alone.stderr.contains("--through-unfold"), "{}", lanes_alone.stderr);
}

/// A trace file that could not be written is refused before anything runs, by every command
/// that writes one.
#[test]
fn an_otel_file_in_a_missing_folder_is_refused_before_running() {
    let folder = tempfile::tempdir().unwrap();
    let nowhere = folder.path().join("missing/trace.jsonl");
    let nowhere = nowhere.to_str().unwrap();
    let commands: [&[&str]; 3] = [
        &["compare", EXAMPLE, "examples/style-only.scenario.json", "--otel", nowhere],
        &["test", "examples/regressions.suite.json", "--otel", nowhere],
        &["replay", EXAMPLE, "no.cassette.json", "--otel", nowhere],
    ];
    for args in commands {
        let out = run(args);
        assert_eq!(out.code, 2, "{args:?}");
        assert!(out.stderr.contains("--otel: its folder does not exist"), "{args:?}: {}", out.stderr);
        assert!(out.stdout.is_empty(), "{args:?} ran: {}", out.stdout);
    }
    let a_folder =
        run(&["compare", EXAMPLE, "examples/style-only.scenario.json", "--otel", folder.path().to_str().unwrap()]);
    assert!(
        a_folder.stderr.contains("--otel: this is a folder, not a regular file: give a file"),
        "{}",
        a_folder.stderr
    );

    // A pipe (as a device would be), named or behind a link, is refused and left as it was.
    let pipe = folder.path().join("pipe");
    assert!(std::process::Command::new("mkfifo").arg(&pipe).status().unwrap().success());
    let link = folder.path().join("trace.jsonl");
    std::os::unix::fs::symlink(&pipe, &link).unwrap();
    for (file, problem) in [
        (&pipe, "this is a FIFO (named pipe), not a regular file: give a file".to_owned()),
        (&link, format!("it names {}, a FIFO (named pipe), not a regular file", pipe.display())),
    ] {
        let out = run(&["compare", EXAMPLE, "examples/style-only.scenario.json", "--otel", file.to_str().unwrap()]);
        assert_eq!(out.code, 2, "{}", out.stderr);
        assert!(out.stderr.contains(&format!("--otel: {problem}")), "{}", out.stderr);
        assert!(out.stdout.is_empty(), "it ran: {}", out.stdout);
    }
    assert!(std::os::unix::fs::FileTypeExt::is_fifo(&std::fs::symlink_metadata(&pipe).unwrap().file_type()));
}

/// `--api` writes the same calls in each API's shape, ready to send to the model they were priced
/// as: the Anthropic body of a deferred lane loads its tools by reference, a tool_addition lane's
/// by a system message, the Responses body of an allowed_tools lane names its subset.
#[test]
fn compare_writes_request_bodies_in_each_apis_shape() {
    let folder = tempfile::tempdir().unwrap();
    let body = |api: &str, file: &str| -> serde_json::Value {
        let out_dir = folder.path().join(api);
        let out = run(&[
            "compare",
            EXAMPLE,
            "examples/read-context-then-search.scenario.json",
            "--adapters",
            "allowed_tools,deferred,tool_addition",
            "--requests",
            out_dir.to_str().unwrap(),
            "--api",
            api,
            "--price-as",
            "claude-sonnet-4-5",
        ]);
        assert_eq!(out.code, 0, "{}", out.stderr);
        serde_json::from_str(&std::fs::read_to_string(out_dir.join(file)).unwrap()).unwrap()
    };
    let anthropic = body("anthropic", "deferred-call-002.json");
    assert!(anthropic["system"].as_str().unwrap().starts_with("## 1 Task"));
    let deferred: Vec<&str> = anthropic["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["defer_loading"] == true)
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(deferred, ["search", "cite"]);
    let result = &anthropic["messages"][2]["content"][0];
    assert_eq!(result["type"], "tool_result");
    assert_eq!(result["content"][1], serde_json::json!({ "type": "tool_reference", "tool_name": "search" }));
    assert_eq!((&anthropic["model"], &anthropic["max_tokens"]), (&"claude-sonnet-4-5".into(), &1024.into()));
    let added = std::fs::read_to_string(folder.path().join("anthropic/tool_addition-call-002.json")).unwrap();
    let added: serde_json::Value = serde_json::from_str(&added).unwrap();
    assert_eq!(added["messages"][3]["role"], "system");
    assert_eq!(added["messages"][3]["content"][0]["type"], "tool_addition");
    let responses = body("openai-responses", "allowed_tools-call-002.json");
    assert_eq!(responses["model"], "claude-sonnet-4-5");
    assert_eq!(responses.get("max_output_tokens"), None, "OpenAI needs none");
    assert!(responses["instructions"].as_str().unwrap().starts_with("## 1 Task"));
    assert_eq!(responses["input"][1]["type"], "function_call");
    assert_eq!(responses["input"][2]["type"], "function_call_output");
    let allowed: Vec<&str> =
        responses["tool_choice"]["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(allowed, ["lookup", "search", "cite", "read_section"]);
    let without = run(&["compare", EXAMPLE, "examples/style-only.scenario.json", "--api", "anthropic"]);
    assert_eq!(without.code, 2, "--api needs --requests");
}

/// Every file in `folder` and every text given, checked for any piece of the key.
fn assert_no_key_in(folder: &Path, texts: &[&str]) {
    let files = std::fs::read_dir(folder).unwrap().map(|entry| entry.unwrap().path()).filter(|p| p.is_file());
    let files: Vec<(String, String)> = files
        .map(|p| (p.display().to_string(), String::from_utf8_lossy(&std::fs::read(&p).unwrap()).into_owned()))
        .collect();
    let texts = texts.iter().map(|text| ("output".to_owned(), (*text).to_owned()));
    for (name, text) in files.into_iter().chain(texts) {
        assert_no_key_piece(&name, &text);
    }
}

#[test]
fn a_key_a_server_hides_in_a_stream_reaches_no_output_cassette_trace_history_or_scenario() {
    let folder = tempfile::tempdir().unwrap();
    let files = folder.path();
    let profiles = files.join("providers.json");
    let profile = serde_json::json!({ "name": "local", "kind": "openai", "base_url": stream_server(hidden_key_streams()),
                                      "model": "m", "api_key_env": "UNFOLD_TEST_KEY" });
    let profile_file = serde_json::json!({ "schema_version": 1, "kind": "unfold.providers", "profiles": [profile] });
    std::fs::write(&profiles, profile_file.to_string()).unwrap();
    let (cassette, trace, scenario) =
        (files.join("run.cassette.json"), files.join("run.otlp.jsonl"), files.join("run.scenario.json"));
    let live = |args: &[&str]| {
        let output = unfold()
            .args(args)
            .env("UNFOLD_TEST_KEY", KEY)
            .env("UNFOLD_PROVIDERS", &profiles)
            .env("UNFOLD_HISTORY", files.join("history.sqlite3"))
            .output()
            .unwrap();
        let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
        (output.status.code(), text(&output.stdout), text(&output.stderr))
    };
    let path = |p: &Path| p.to_str().unwrap().to_owned();
    let (code, stdout, stderr) = live(&[
        "run",
        EXAMPLE,
        "--provider",
        "local",
        "--user",
        "Find issue 7.",
        "--record",
        &path(&cassette),
        "--otel",
        &path(&trace),
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.contains("Your key is [redacted key] and again [redacted key]."), "{stdout}");
    let (code, replayed, stderr) = live(&["replay", EXAMPLE, &path(&cassette), "--json"]);
    assert_eq!(code, Some(0), "{stderr}");
    let (code, converted, stderr) = live(&["to-scenario", EXAMPLE, &path(&cassette)]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(converted.contains("\"note\": \"[redacted key]\""), "{converted}");
    assert_no_key_in(files, &[&stdout, &replayed, &converted]);

    // A cassette recorded before answers were redacted once assembled kept the stream as it came
    // (no piece of it is the whole key): a replay and a scenario of it are redacted with the key
    // of the profile it names.
    let mut old: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&cassette).unwrap()).unwrap();
    for (call, stream) in hidden_key_streams().into_iter().enumerate() {
        old["calls"][call]["framing"] = "stream".into();
        old["calls"][call]["response"] = stream.into();
    }
    let old_cassette = folder.path().join("old").join("run.cassette.json");
    std::fs::create_dir(old_cassette.parent().unwrap()).unwrap();
    std::fs::write(&old_cassette, old.to_string()).unwrap();
    let (code, replayed, stderr) = live(&["replay", EXAMPLE, &path(&old_cassette), "--json"]);
    assert_eq!(code, Some(0), "{stderr}");
    let (code, _, stderr) = live(&["to-scenario", EXAMPLE, &path(&old_cassette), "-o", &path(&scenario)]);
    assert_eq!(code, Some(0), "{stderr}");
    std::fs::remove_file(&old_cassette).unwrap();
    assert_no_key_in(files, &[&replayed, &stderr]);
}

#[test]
fn a_password_in_the_base_url_reaches_no_output_error_or_file() {
    const PASSWORD: &str = "pw-3e8d1c7b";
    let answer = format!(
        "data: {}\n\ndata: [DONE]\n\n",
        serde_json::json!({ "choices": [{ "index": 0, "delta": { "content": format!("It is {PASSWORD}.") } }] })
    );
    let folder = tempfile::tempdir().unwrap();
    let files = folder.path();
    let with_password = |base_url: String| base_url.replacen("http://", &format!("http://proxy:{PASSWORD}@"), 1);
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let profile = |name: &str, base_url: String| {
        serde_json::json!({ "name": name, "kind": "openai", "base_url": with_password(base_url), "model": "m",
                            "connect_timeout_ms": 500 })
    };
    let profiles = serde_json::json!({ "schema_version": 1, "kind": "unfold.providers", "profiles": [
        profile("proxy", stream_server(vec![answer])),
        profile("gone", format!("http://127.0.0.1:{closed}/v1")),
    ] });
    // The profile file holds the password (the user wrote it there): it is kept apart.
    let config = tempfile::tempdir().unwrap();
    let profiles_file = config.path().join("providers.json");
    std::fs::write(&profiles_file, profiles.to_string()).unwrap();
    let live = |provider: &str, extra: &[&str]| {
        let mut command = unfold();
        command.args(["run", EXAMPLE, "--providers", profiles_file.to_str().unwrap(), "--provider", provider]);
        let output =
            command.args(["--user", "Hi."]).args(extra).env("UNFOLD_HISTORY", files.join("history.sqlite3")).output();
        let output = output.unwrap();
        let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
        (output.status.code(), format!("{}{}", text(&output.stdout), text(&output.stderr)))
    };
    let (cassette, trace) = (files.join("run.cassette.json"), files.join("run.otlp.jsonl"));
    let (code, answered) =
        live("proxy", &["--record", cassette.to_str().unwrap(), "--otel", trace.to_str().unwrap(), "--json"]);
    assert_eq!(code, Some(0), "{answered}");
    assert!(answered.contains("It is [redacted password]."), "{answered}");
    let (code, failed) = live("gone", &[]);
    assert_eq!(code, Some(4), "{failed}");
    assert!(failed.contains(&format!("cannot reach http://***@127.0.0.1:{closed}/v1/chat/completions")), "{failed}");
    for entry in std::fs::read_dir(files).unwrap() {
        let path = entry.unwrap().path();
        let text = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
        assert!(!text.contains(PASSWORD), "{} holds the password: {text}", path.display());
    }
    assert!(!answered.contains(PASSWORD) && !failed.contains(PASSWORD), "{answered}{failed}");
}

#[test]
fn hosts_list_shows_each_preset_and_its_evidence() {
    let listed = run(&["hosts", "list"]);
    assert_eq!(listed.code, 0, "{}", listed.stderr);
    let claude_code = row(&listed.stdout, "claude-code");
    assert_eq!(claude_code, ["2.1.197", "anthropic", "inject", "late:1", "sorted", "mcp__{source}__{tool}"]);
    assert_eq!(row(&listed.stdout, "codex ")[3], "never");
    assert_eq!(row(&listed.stdout, "copilot-cli")[3], "next_turn");
    assert!(
        listed.stdout.contains(
            "claude-code (Claude Code):\n  - first visible, in 10 runs: late_1 10 (unfold hosts probe of claude-code 2.1.197: 10 runs)"
        ),
        "{}",
        listed.stdout
    );
    assert!(listed.stdout.contains("https://github.com/github/copilot-cli/issues/3125"), "{}", listed.stdout);

    let table: String = listed.stdout.split_inclusive('\n').take_while(|line| *line != "\n").collect();
    let readme = std::fs::read_to_string(repo("README.md")).unwrap();
    assert!(readme.contains(&table), "README shows the hosts as they are:\n{table}");

    let json = run(&["hosts", "list", "--json"]);
    let profiles: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(profiles[0]["refresh"], serde_json::json!({ "late": 1 }));
}

#[test]
fn a_host_profile_file_is_listed_and_validated_and_a_bad_one_named() {
    let folder = tempfile::tempdir().unwrap();
    let mine = folder.path().join("mine.host.json");
    let profile = serde_json::json!({
        "schema_version": 1, "kind": "unfold.host", "name": "mine", "host": "Our agent",
        "api": "openai-chat", "strategy": "inject", "refresh": "next_turn",
        "evidence": [{ "source": "our logs", "note": "new tools wait for the next message" }]
    });
    std::fs::write(&mine, profile.to_string()).unwrap();
    let listed = run(&["hosts", "list", mine.to_str().unwrap()]);
    assert_eq!(row(&listed.stdout, "mine"), ["-", "openai-chat", "inject", "next_turn", "append", "plain"]);
    assert_eq!(run(&["validate", mine.to_str().unwrap()]).code, 0);

    let mut bad = profile;
    bad["refresh"] = serde_json::json!({ "late": -1 });
    std::fs::write(&mine, bad.to_string()).unwrap();
    assert_bad_input(&run(&["hosts", "list", mine.to_str().unwrap()]), &mine, "/refresh");
    assert_eq!(run(&["validate", mine.to_str().unwrap()]).code, 1);
}

#[test]
fn compare_runs_host_lanes_from_presets_and_files() {
    let folder = tempfile::tempdir().unwrap();
    let mine = folder.path().join("next-turn.host.json");
    let profile = serde_json::json!({
        "schema_version": 1, "kind": "unfold.host", "name": "ours", "host": "Our agent",
        "api": "openai-chat", "strategy": "inject", "refresh": "next_turn"
    });
    std::fs::write(&mine, profile.to_string()).unwrap();
    let lanes = format!("dynamic,host:codex,host:{}", mine.display());
    let scenario = "examples/coding-agent-two-turns.scenario.json";
    let out = run(&["compare", "examples/coding-agent.unfold.json", scenario, "--adapters", &lanes, "--json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let report: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let hosts: Vec<&serde_json::Value> = report["runs"].as_array().unwrap().iter().map(|run| &run["host"]).collect();
    assert_eq!(hosts, [&serde_json::Value::Null, &serde_json::json!("codex"), &serde_json::json!("ours")]);
    assert_eq!(report["divergences"][1]["right"], "host:ours");
    assert_eq!(report["verdict"]["winner"], "dynamic", "a host that never shows the tools does not win by failing");
    let readme_lanes = "dynamic,host:claude-code,host:copilot-cli,host:codex";
    let table = run(&["compare", "examples/coding-agent.unfold.json", scenario, "--adapters", readme_lanes]);
    let codex = table.stdout.lines().skip_while(|line| !line.starts_with("  host:codex")).take(4).collect::<Vec<_>>();
    let readme = std::fs::read_to_string(repo("README.md")).unwrap();
    assert!(readme.contains(&codex.join("\n")), "README shows the codex lane's verdict as it is: {codex:?}");

    let unknown = run(&["compare", EXAMPLE, "examples/lookup-first.scenario.json", "--adapters", "host:vim"]);
    assert_eq!(unknown.code, 2);
    assert!(unknown.stderr.contains("'vim' is not a host Unfold knows (claude-code, codex,"), "{}", unknown.stderr);
    std::fs::write(&mine, "{ \"schema_version\": 1, \"kind\": \"unfold.host\" }").unwrap();
    let bad = run(&["compare", EXAMPLE, "examples/lookup-first.scenario.json", "--adapters", &lanes]);
    assert_bad_input(&bad, &mine, "missing");
}

const SKILLS: &str = "tests/fixtures/skills/anthropic";

/// Every file under `dir` by its path, with its bytes.
fn files_under(dir: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    let mut files = std::collections::BTreeMap::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else {
                let name = path.strip_prefix(dir).unwrap().to_string_lossy().into_owned();
                files.insert(name, std::fs::read(&path).unwrap());
            }
        }
    }
    files
}

/// The README's example: skills imported, one compared against all of them up front, and
/// exported back unchanged.
#[test]
fn skills_import_compare_and_export_back_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let template = dir.path().join("skills.unfold.json");
    let template_arg = template.to_str().unwrap();
    let imported = run(&["import", "skills", SKILLS, "-o", template_arg]);
    assert_eq!(imported.code, 0, "{}", imported.stderr);
    assert_eq!(imported.stdout, format!("wrote {template_arg}: 4 skills, 11 files they name, 3 scripts as tools\n"));
    let scenario = "tests/fixtures/skills/internal-comms.scenario.json";
    let compared = run(&["compare", template_arg, scenario, "--json"]);
    assert_eq!(compared.code, 0, "{}", compared.stderr);
    let report: serde_json::Value = serde_json::from_str(&compared.stdout).unwrap();
    let (baseline, dynamic) =
        (&report["baseline"]["counters"]["prompt_tokens"], &report["runs"][0]["counters"]["prompt_tokens"]);
    assert_eq!((baseline.as_u64(), dynamic.as_u64()), (Some(25506), Some(3320)), "one skill's body and file, not four");
    let reads: Vec<&serde_json::Value> = report["runs"][0]["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|event| event["type"] == "visibility_changed")
        .map(|event| &event["section_keys"])
        .collect();
    assert_eq!(
        reads,
        [
            &serde_json::json!(["internal-comms"]),
            &serde_json::json!(["internal-comms-files", "internal-comms-files.examples-3p-updates-md"])
        ],
        "level 2, the body alone; then level 3, the one file"
    );
    assert_eq!(report["verdict"]["winner"], "dynamic");
    let table = run(&["compare", template_arg, scenario, "--adapters", "dynamic"]);
    let readme = std::fs::read_to_string(repo("README.md")).unwrap();
    let verdict = &table.stdout[table.stdout.find("verdict:").unwrap()..table.stdout.find("\n\n ").unwrap()];
    assert!(readme.contains(verdict), "README shows the verdict as it is:\n{verdict}");
    let out = dir.path().join("out");
    let exported = run(&["export", template_arg, "--to", "skills", out.to_str().unwrap()]);
    assert_eq!(exported.code, 0, "{}", exported.stderr);
    assert!(exported.stdout.ends_with(": 24 files written, 0 unchanged\n"), "{}", exported.stdout);
    assert!(files_under(&repo(SKILLS)) == files_under(&out), "the same files, byte for byte");
}

#[test]
fn skills_are_written_over_a_users_files_only_with_force() {
    let dir = tempfile::tempdir().unwrap();
    let template = dir.path().join("skills.unfold.json");
    let template_arg = template.to_str().unwrap();
    assert_eq!(run(&["import", "skills", SKILLS, "-o", template_arg]).code, 0);
    let again = run(&["import", "skills", SKILLS, "-o", template_arg]);
    assert_bad_input(&again, &template, "the file exists: nothing was written (--force writes over it)");
    let out = dir.path().join("out");
    std::fs::create_dir(&out).unwrap();
    std::fs::write(out.join("mine.txt"), "keep me").unwrap();
    let refused = run(&["export", template_arg, "--to", "skills", out.to_str().unwrap()]);
    assert_bad_input(&refused, &out, "the folder is not empty: nothing was written (--force writes over the files");
    assert_eq!(files_under(&out).len(), 1);
    let forced = run(&["export", template_arg, "--to", "skills", out.to_str().unwrap(), "--force"]);
    assert_eq!(forced.code, 0, "{}", forced.stderr);
    assert_eq!(std::fs::read_to_string(out.join("mine.txt")).unwrap(), "keep me");
    assert_eq!(files_under(&out).len(), 25);
}

#[test]
fn a_skill_with_bad_front_matter_is_an_error_at_its_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let skill = dir.path().join("skills/broken");
    std::fs::create_dir_all(&skill).unwrap();
    std::fs::write(skill.join("SKILL.md"), "---\nname: broken\ndescription: a: b: c\n---\nBody\n").unwrap();
    let outcome = run(&["import", "skills", dir.path().join("skills").to_str().unwrap(), "-o", "x.unfold.json"]);
    assert_bad_input(
        &outcome,
        &skill.join("SKILL.md"),
        "line 3, column 15: the front matter is not YAML: mapping values are not allowed in this context",
    );
    assert!(!repo("x.unfold.json").exists());
}
