//! The shared examples: the initial render of `task-executor.unfold.json` is byte for byte the
//! text of `examples/README.md` upstream, and `compare` counts what `expected-counters.json` says.

use std::collections::BTreeMap;

use unfold_core::{compare, AdapterKind, Scenario, Session};

use crate::support::{load_template, repo};

const EXPECTED_RENDER: &str = "## 1 Task

Complete the following: Refactor the authentication module

## 2 Project Context

Documentation for Acme is available.

---
[This section is summarized. Call `read_section` with key \"context\" to view full content including subsections: examples, history.]

## 3 Style Guide

A style guide is available.

---
[This section is summarized. To view full content, call `read_section` with key \"style\".]
";

#[test]
fn the_example_renders_as_documented() {
    let template = load_template("examples/task-executor.unfold.json");
    let prompt = Session::new(&template, Default::default()).unwrap().render().unwrap();
    assert_eq!(prompt.markdown, EXPECTED_RENDER);
    assert_eq!(prompt.tool_names(), ["lookup", "read_section"]);
}

#[test]
fn compare_counts_what_expected_counters_says() {
    let template = load_template("examples/task-executor.unfold.json");
    let expected: BTreeMap<String, BTreeMap<String, BTreeMap<String, serde_json::Value>>> =
        serde_json::from_str(&std::fs::read_to_string(repo("examples/expected-counters.json")).unwrap()).unwrap();
    assert_eq!(expected.len(), 3);
    let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
    for (name, adapters) in &expected {
        let scenario = Scenario::load(&repo(&format!("examples/{name}.scenario.json"))).unwrap();
        let report =
            runtime.block_on(compare(&template, &scenario, &[AdapterKind::Dynamic, AdapterKind::Restart])).unwrap();
        for run in &report.runs {
            let mut actual = serde_json::to_value(run.counters).unwrap();
            actual["status"] = serde_json::to_value(run.status).unwrap();
            for (counter, value) in &adapters[run.adapter.name()] {
                assert_eq!(&actual[counter], value, "{name} / {} / {counter}", run.adapter.name());
            }
        }
    }
}
