//! Benchmark of the initial render of the 10,000-section bench template of `bench-shape.md`
//! (generated in Rust at start, see `unfold_test_support::bench_template`); the target is a median of at most
//! 5 ms for `plain` headings under `read_section` disclosure. Run with `cargo bench -p unfold-engine
//! --bench render`.

use unfold_test_support::bench_template;

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use unfold_documents::template::{Disclosure, HeadingStyle};
use unfold_engine::{render, SessionState};

const SECTIONS: usize = 10_000;

fn initial_render(c: &mut Criterion) {
    let state = SessionState::default();
    let shapes = [
        ("plain/read_section", HeadingStyle::Plain, Disclosure::ReadSection),
        ("keyed/mixed", HeadingStyle::Keyed, Disclosure::Mixed),
    ];
    for (name, heading, disclosure) in shapes {
        let template = bench_template::bench_template(SECTIONS, heading, disclosure);
        let prompt = render(&template, &state).expect("the bench template renders");
        eprintln!(
            "bench template {name}: {} bytes of markdown, {} tools offered, {} sections summarized",
            prompt.markdown.len(),
            prompt.tools.len(),
            prompt.summarized.len()
        );
        c.bench_function(&format!("render/initial/{SECTIONS}/{name}"), |b| {
            b.iter(|| render(black_box(&template), black_box(&state)))
        });
    }
}

criterion_group!(benches, initial_render);
criterion_main!(benches);
