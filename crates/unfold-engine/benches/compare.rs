//! Benchmark of a scripted comparison: a 200-step scenario on `examples/task-executor.unfold.json`
//! (lookups with distinct ids, a `read_section` of `context` early, searches, a final `say`) under
//! both adapters, on a tokio current-thread runtime; the target is a median of at most 20 ms. Run
//! with `cargo bench -p unfold-engine --bench compare`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use serde_json::{json, Value};
use unfold_documents::{Scenario, Template};
use unfold_engine::{compare, AdapterKind, RunStatus};

const TEMPLATE: &str = include_str!("../../../examples/task-executor.unfold.json");
const STEPS: usize = 200;

/// Step 0 looks an issue up, step 1 reads `context` (whose tools the restart adapter can only offer
/// by restarting), then lookups and searches alternate with distinct arguments (so no loop is
/// detected), and the last step answers.
fn scenario() -> Scenario {
    let mut script: Vec<Value> = vec![
        json!({ "call": "lookup", "args": { "id": 0 } }),
        json!({ "call": "read_section", "args": { "section_key": "context" } }),
    ];
    for i in 2..STEPS - 1 {
        script.push(if i % 2 == 0 {
            json!({ "call": "lookup", "args": { "id": i } })
        } else {
            json!({ "call": "search", "args": { "query": format!("query {i}") } })
        });
    }
    script.push(json!({ "say": "Done." }));
    let document = json!({
        "schema_version": 1,
        "kind": "unfold.scenario",
        "name": "bench-200-steps",
        "user": "Refactor the authentication module.",
        "script": script,
        "limits": { "max_model_calls": 400 }
    });
    Scenario::from_json(document.to_string().as_bytes()).expect("the bench scenario is valid")
}

fn compare_both_adapters(c: &mut Criterion) {
    let template = Template::from_json(TEMPLATE.as_bytes()).expect("the example template loads");
    let scenario = scenario();
    assert_eq!(scenario.script.len(), STEPS);
    let adapters = [AdapterKind::Dynamic, AdapterKind::Restart];
    let runtime = tokio::runtime::Builder::new_current_thread().build().expect("a current-thread runtime");
    let report = runtime.block_on(compare(&template, &scenario, &adapters)).expect("the comparison runs");
    for run in &report.runs {
        assert_eq!(run.status, RunStatus::Completed, "{:?}", run.counters);
        eprintln!(
            "{}: {} model calls, {} restarts, {} tool calls, {} events",
            run.adapter.name(),
            run.counters.model_calls,
            run.counters.restarts,
            run.counters.tool_calls,
            run.events.len()
        );
    }
    c.bench_function(&format!("compare/task-executor/{STEPS}-steps/both"), |b| {
        b.iter(|| runtime.block_on(compare(black_box(&template), black_box(&scenario), black_box(&adapters))))
    });
}

criterion_group!(benches, compare_both_adapters);
criterion_main!(benches);
