//! Counting speed against tiktoken-rs on prose and Markdown (the repository's own documents) and
//! on JSON (a tool list), in process; and of one long piece (a megabyte of tool arguments without
//! a break) alone, since tiktoken-rs takes time quadratic in a piece's length. The first count of
//! a process, tables included, is what `scripts/bench.sh` times from outside.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

const TEXTS: [(&str, &str); 3] = [
    ("markdown", include_str!("../../../ARCHITECTURE.md")),
    ("readme", include_str!("../../../README.md")),
    ("json", include_str!("../../../examples/coding-agent.unfold.json")),
];

fn counting(c: &mut Criterion) {
    let tiktoken = tiktoken_rs::o200k_base_singleton();
    for (name, text) in TEXTS {
        assert_eq!(unfold_tokenizer::count(text), tiktoken.encode_ordinary(text).len());
        let mut group = c.benchmark_group(name);
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_function("unfold-tokenizer", |b| b.iter(|| unfold_tokenizer::count(text)));
        group.bench_function("tiktoken-rs", |b| b.iter(|| tiktoken.encode_ordinary(text).len()));
        group.finish();
    }
}

fn counting_a_long_piece(c: &mut Criterion) {
    let piece = "x".repeat(1 << 20);
    let mut group = c.benchmark_group("long piece");
    group.throughput(Throughput::Bytes(piece.len() as u64)).sample_size(10);
    group.bench_function("unfold-tokenizer", |b| b.iter(|| unfold_tokenizer::count(&piece)));
    group.finish();
}

criterion_group!(benches, counting, counting_a_long_piece);
criterion_main!(benches);
