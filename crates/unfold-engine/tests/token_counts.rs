//! Today's token counts of every fixture, kept in a snapshot: the text of each example, reference
//! and fixture file, and each template's first prompt and tools, as loaded and with every section
//! read. Reports, budgets and suites' expectations were written with these counts, so a faster
//! tokenizer must give every one of them again (issue 16).

use std::fmt::Write;
use std::path::{Path, PathBuf};

use unfold_documents::Template;
use unfold_engine::{tokens, Session};
use unfold_test_support::repo;

/// Every JSON file under `folder`, recursively, sorted.
fn json_files(folder: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(folder) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            json_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "json") {
            out.push(path);
        }
    }
}

/// The texts of a template a run counts: its first prompt and tools, then the same with every
/// section read.
fn prompt_texts(template: &Template) -> Vec<String> {
    let Ok(session) = Session::new(template, Default::default()) else { return Vec::new() };
    let mut paths = Vec::new();
    template.walk(&mut |path, _| paths.push(path.to_string()));
    let mut every = session.clone();
    for path in paths {
        let _ = every.expand(&path);
    }
    let mut texts = Vec::new();
    for prompt in [session.render(), every.render()].into_iter().flatten() {
        texts.push(prompt.markdown);
        texts.push(serde_json::to_string(&prompt.tools).unwrap());
    }
    texts
}

#[test]
fn every_fixture_counts_as_it_did() {
    let mut files = Vec::new();
    for folder in ["examples", "tests/fixtures", "tests/reference/templates"] {
        json_files(&repo(folder), &mut files);
    }
    files.sort();
    let mut counts = String::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let mut line = vec![tokens::count_text(&text)];
        if let Ok(template) = Template::load(file) {
            line.extend(prompt_texts(&template).iter().map(|t| tokens::count_text(t)));
        }
        let name = file.strip_prefix(repo(".")).unwrap_or(file).display().to_string();
        let name = name.trim_start_matches("crates/unfold-engine/../../");
        writeln!(counts, "{name}: {line:?}").unwrap();
    }
    assert!(files.len() >= 25, "{} files", files.len());
    insta::assert_snapshot!(counts);
}
