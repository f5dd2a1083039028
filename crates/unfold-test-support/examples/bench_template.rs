//! Writes the benchmark template (`bench_template`) as a template file on stdout, for benchmarks
//! that run Unfold as a whole process: `bench_template N plain|keyed read_section|mixed|…`.

use std::str::FromStr;

use unfold_documents::template::{Disclosure, HeadingStyle};
use unfold_test_support::bench_template::bench_template;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [n, heading, disclosure] = args.as_slice() else {
        eprintln!("usage: bench_template N HEADING DISCLOSURE   (e.g. 10000 plain read_section)");
        std::process::exit(2);
    };
    let parsed = (usize::from_str(n), parse::<HeadingStyle>(heading), parse::<Disclosure>(disclosure));
    let (Ok(n), Some(heading), Some(disclosure)) = parsed else {
        eprintln!("bench_template: N is a number, HEADING plain|keyed, DISCLOSURE a disclosure of spec 1");
        std::process::exit(2);
    };
    print!("{}", bench_template(n, heading, disclosure).to_json());
}

/// A setting as its JSON string.
fn parse<T: serde::de::DeserializeOwned>(text: &str) -> Option<T> {
    serde_json::from_value(serde_json::Value::String(text.to_owned())).ok()
}
