//! Benchmark of a scripted comparison: a 200-step scenario on `examples/task-executor.unfold.json`
//! (lookups with distinct ids, a `read_section` of `context` early, searches, a final `say`) on a
//! tokio current-thread runtime, priced with the prompt cache analysis (Anthropic's rules, as the
//! shipped prices have them for Claude Sonnet 4.5): under the dynamic and restart adapters (target:
//! a median of at most 20 ms) and under all four (target: under 40 ms). Run with
//! `cargo bench -p unfold-engine --bench compare`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use serde_json::{json, Value};
use unfold_documents::prices::{Prices, Pricing};
use unfold_documents::{Scenario, Template};
use unfold_engine::{compare, AdapterKind, ComparisonReport, Drive, Lanes, RunStatus};

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

/// Compares and prices every run, the baseline too: what `unfold compare --price-as` does.
fn compare_and_price(
    template: &Template,
    scenario: &Scenario,
    adapters: &[AdapterKind],
    pricing: &Pricing,
) -> ComparisonReport {
    let runtime = tokio::runtime::Builder::new_current_thread().build().expect("a current-thread runtime");
    let mut report = runtime
        .block_on(compare(Lanes::new(template, scenario, adapters), Drive::default()))
        .map(|comparison| comparison.report)
        .expect("the comparison runs");
    report.price(pricing);
    report
}

fn compare_adapters(c: &mut Criterion) {
    let template = Template::from_json(TEMPLATE.as_bytes()).expect("the example template loads");
    let scenario = scenario();
    assert_eq!(scenario.script.len(), STEPS);
    let pricing = Prices::shipped().pricing("claude-sonnet-4-5").expect("the shipped prices have it");
    let both = [AdapterKind::Dynamic, AdapterKind::Restart];
    let report = compare_and_price(&template, &scenario, &AdapterKind::ALL, &pricing);
    for run in &report.runs {
        assert_eq!(run.status, RunStatus::Completed, "{:?}", run.counters);
        let cost = run.cost.as_ref().expect("priced");
        eprintln!(
            "{}: {} model calls, {} restarts, {} tool calls, {} events, {} prompt tokens, {} cacheable, ${:.4} (${:.4} with the cache)",
            run.adapter.name(),
            run.counters.model_calls,
            run.counters.restarts,
            run.counters.tool_calls,
            run.events.len(),
            run.counters.prompt_tokens,
            cost.cacheable_prompt_tokens,
            cost.total,
            cost.total_with_cache,
        );
    }
    for (name, adapters) in [("both", &both[..]), ("all-four", &AdapterKind::ALL[..])] {
        c.bench_function(&format!("compare/task-executor/{STEPS}-steps/{name}/priced"), |b| {
            b.iter(|| compare_and_price(black_box(&template), black_box(&scenario), black_box(adapters), &pricing))
        });
    }
}

criterion_group!(benches, compare_adapters);
criterion_main!(benches);
