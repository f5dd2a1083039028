//! The benchmark template of `bench-shape.md`, built in Rust: a line-by-line port of
//! `bench_template.py` (breadth-first, fan-out 10, every 7th section summarized, every 50th with a
//! tool, the same texts). Shared by the render benchmark and by the test that checks it against
//! the Python script's output (`tests/properties.rs`).

use indexmap::IndexMap;
use serde_json::{json, Map};
use unfold_documents::template::{Disclosure, HeadingStyle, Section, ToolDisclosure};
use unfold_documents::{Template, Tool, Visibility};

const FAN: usize = 10;
const SUM: usize = 7;
const TOOL: usize = 50;

/// The bench template with `n` sections, as `bench_template.py N HEADING DISCLOSURE` writes it.
pub fn bench_template(n: usize, heading: HeadingStyle, disclosure: Disclosure) -> Template {
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut top = Vec::new();
    for i in 0..n {
        if i < FAN {
            top.push(i);
        } else {
            children[(i - FAN) / FAN].push(i);
        }
    }
    Template {
        schema_version: 1,
        kind: "unfold.template".to_owned(),
        ns: "bench".to_owned(),
        key: format!("n{n}"),
        name: format!("bench {n}"),
        disclosure,
        tool_disclosure: ToolDisclosure::Full,
        heading,
        params: IndexMap::from([("objective".to_owned(), "ship it".to_owned())]),
        tools: Vec::new(),
        sources: Vec::new(),
        sections: top.into_iter().map(|i| make(i, &children)).collect(),
        extensions: Map::new(),
    }
}

fn make(i: usize, children: &[Vec<usize>]) -> Section {
    let summarized = i % SUM == SUM - 1;
    let tools = if i % TOOL == TOOL - 1 {
        vec![Tool {
            name: format!("tool_{i}"),
            description: format!("Tool {i}."),
            brief: None,
            parameters: json!({
                "type": "object",
                "properties": { "q": { "type": "string" } },
                "additionalProperties": false,
                "required": ["q"]
            }),
            kind: None,
            categories: None,
            requires_permission: None,
            mock: None,
            extensions: Map::new(),
        }]
    } else {
        Vec::new()
    };
    Section {
        key: format!("s{i}"),
        title: format!("Section {i}"),
        template: format!("Body of section {i}. Objective: ${{objective}}. ") + &"lorem ipsum ".repeat(8),
        summary: summarized.then(|| format!("Summary of section {i} (${{objective}}).")),
        visibility: if summarized { Visibility::Summary } else { Visibility::Full },
        tools,
        children: children[i].iter().map(|&c| make(c, children)).collect(),
        extensions: Map::new(),
    }
}
