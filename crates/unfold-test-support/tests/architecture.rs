//! The Architecture Invariants of `ARCHITECTURE.md` that a machine can check, each by a test that
//! fails when it breaks: the crates' layers (read from `cargo metadata`), what the pure crates may
//! never reach, where output is printed, and that every module says what it owns.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// The workspace's crates by layer: a crate may depend only on crates of lower layers.
const LAYERS: &[(&str, u8)] = &[
    ("unfold-documents", 0),
    ("unfold-tokenizer", 0),
    ("unfold-statistics", 0),
    ("unfold-engine", 1),
    ("unfold-loopback", 1),
    ("unfold-process-groups", 1),
    ("unfold-live", 2),
    ("unfold-stores", 2),
    ("unfold-sources", 2),
    ("unfold-relay", 2),
    ("unfold-hostlab", 2),
    ("unfold-exports", 2),
    ("unfold-skills", 2),
    ("unfold-test-support", 2),
    ("unfold-editing", 3),
    ("unfold-application", 4),
    ("unfold-cli", 5),
    ("unfold-app", 5),
];

/// What the documents and the engine never reach, by any chain of normal dependencies: the
/// network, a database, the keychain, a UI.
const NEVER_IN_PURE_CRATES: &[&str] = &[
    "reqwest",
    "hyper",
    "native-tls",
    "rusqlite",
    "libsqlite3-sys",
    "keyring",
    "secret-service",
    "dbus",
    "tauri",
    "wry",
    "webkit2gtk",
];

/// The library crates: they log through `tracing` and never print.
const LIBRARIES: &[&str] = &[
    "unfold-documents",
    "unfold-tokenizer",
    "unfold-statistics",
    "unfold-engine",
    "unfold-loopback",
    "unfold-process-groups",
    "unfold-live",
    "unfold-stores",
    "unfold-sources",
    "unfold-relay",
    "unfold-hostlab",
    "unfold-exports",
    "unfold-skills",
    "unfold-editing",
    "unfold-application",
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `cargo metadata` of the workspace, resolved for this machine's platform. Not `--offline`: the
/// desktop shell's dependencies are not built by `cargo test --workspace --exclude unfold-app`, so
/// on a fresh machine cargo has yet to download their manifests (a warm cargo cache hid that).
fn metadata() -> Value {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let host = rustc_host();
    let output = Command::new(cargo)
        .current_dir(root())
        .args(["metadata", "--format-version", "1", "--filter-platform", &host])
        .output()
        .expect("cargo metadata runs");
    assert!(output.status.success(), "cargo metadata: {}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).expect("cargo metadata prints JSON")
}

fn rustc_host() -> String {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
    let output = Command::new(rustc).arg("-vV").output().expect("rustc runs");
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    text.lines().find_map(|l| l.strip_prefix("host: ")).expect("rustc names its host").to_owned()
}

/// Each package's name and its normal (not dev, not build) dependencies, by package id.
struct Graph {
    names: BTreeMap<String, String>,
    normal: BTreeMap<String, Vec<String>>,
}

impl Graph {
    fn of(metadata: &Value) -> Graph {
        let names = metadata["packages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| (p["id"].as_str().unwrap().to_owned(), p["name"].as_str().unwrap().to_owned()))
            .collect();
        let normal = metadata["resolve"]["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|node| {
                let deps = node["deps"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|dep| dep["dep_kinds"].as_array().unwrap().iter().any(|k| k["kind"].is_null()))
                    .map(|dep| dep["pkg"].as_str().unwrap().to_owned())
                    .collect();
                (node["id"].as_str().unwrap().to_owned(), deps)
            })
            .collect();
        Graph { names, normal }
    }

    fn id(&self, name: &str) -> &str {
        let found = self.names.iter().find(|(_, n)| *n == name).map(|(id, _)| id.as_str());
        found.unwrap_or_else(|| panic!("no package {name}"))
    }

    fn direct(&self, name: &str) -> BTreeSet<&str> {
        self.normal[self.id(name)].iter().map(|id| self.names[id].as_str()).collect()
    }

    fn reachable(&self, name: &str) -> BTreeSet<&str> {
        let mut seen = BTreeSet::new();
        let mut stack = vec![self.id(name).to_owned()];
        while let Some(id) = stack.pop() {
            for dep in &self.normal[&id] {
                if seen.insert(self.names[dep].as_str()) {
                    stack.push(dep.clone());
                }
            }
        }
        seen
    }
}

fn layer(name: &str) -> Option<u8> {
    LAYERS.iter().find(|(n, _)| *n == name).map(|(_, l)| *l)
}

#[test]
fn every_crate_depends_only_on_crates_of_lower_layers() {
    let graph = Graph::of(&metadata());
    let workspace: BTreeSet<&str> =
        graph.names.values().filter(|n| n.starts_with("unfold-")).map(String::as_str).collect();
    let listed: BTreeSet<&str> = LAYERS.iter().map(|(n, _)| *n).collect();
    assert_eq!(workspace, listed, "every crate of the workspace has a layer here and in ARCHITECTURE.md");
    let mut wrong = Vec::new();
    for (name, own) in LAYERS {
        for dep in graph.direct(name).into_iter().filter(|d| d.starts_with("unfold-")) {
            if layer(dep).is_none_or(|theirs| theirs >= *own) {
                wrong.push(format!("{name} -> {dep}"));
            }
        }
    }
    assert!(wrong.is_empty(), "dependencies that do not point down: {wrong:?}");
}

#[test]
fn the_documents_the_tokenizer_and_the_engine_never_reach_the_network_a_database_the_keychain_or_a_ui() {
    let graph = Graph::of(&metadata());
    for pure in ["unfold-documents", "unfold-tokenizer", "unfold-statistics", "unfold-engine"] {
        let reached = graph.reachable(pure);
        let forbidden: Vec<&&str> = NEVER_IN_PURE_CRATES.iter().filter(|f| reached.contains(**f)).collect();
        assert!(forbidden.is_empty(), "{pure} reaches {forbidden:?}");
    }
}

#[test]
fn no_crate_but_the_desktop_shell_reaches_tauri() {
    let graph = Graph::of(&metadata());
    for (name, _) in LAYERS.iter().filter(|(n, _)| *n != "unfold-app") {
        assert!(!graph.reachable(name).contains("tauri"), "{name} reaches tauri");
    }
}

/// The Rust sources under `folder`, recursively.
fn sources(folder: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(folder).unwrap().map(Result::unwrap) {
        let path = entry.path();
        if path.is_dir() {
            found.extend(sources(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path);
        }
    }
    found
}

#[test]
fn only_the_command_line_prints() {
    let mut printing = Vec::new();
    for library in LIBRARIES {
        for file in sources(&root().join("crates").join(library).join("src")) {
            let text = std::fs::read_to_string(&file).unwrap();
            for (n, line) in text.lines().enumerate() {
                let code = line.split("//").next().unwrap_or_default();
                if ["println!(", "print!(", "eprintln!(", "eprint!(", "dbg!("].iter().any(|m| code.contains(m)) {
                    printing.push(format!("{}:{}", file.display(), n + 1));
                }
            }
        }
    }
    assert!(printing.is_empty(), "libraries log through tracing, never print: {printing:?}");
}

#[test]
fn every_module_opens_with_what_it_owns() {
    let mut silent = Vec::new();
    let crates = std::fs::read_dir(root().join("crates")).unwrap().map(|e| e.unwrap().path().join("src"));
    for folder in crates.chain([root().join("src-tauri/src")]) {
        for file in sources(&folder) {
            let text = std::fs::read_to_string(&file).unwrap();
            if !text.trim_start().starts_with("//") {
                silent.push(file.display().to_string());
            }
        }
    }
    assert!(silent.is_empty(), "modules without an opening comment: {silent:?}");
}

/// The modules of the crate whose sources are in `src` (flat: one file a module) and, for each,
/// the sibling modules it names through `crate::`; the crate root's re-exports are left out.
fn module_imports(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let stem = |path: &Path| path.file_stem().unwrap().to_string_lossy().into_owned();
    let files: Vec<PathBuf> =
        sources(src).into_iter().filter(|f| !["lib", "main"].contains(&stem(f).as_str())).collect();
    let modules: BTreeSet<String> = files.iter().map(|f| stem(f)).collect();
    let mut imports = BTreeMap::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let mut named = BTreeSet::new();
        for line in text.lines().map(|l| l.split("//").next().unwrap_or_default()) {
            for (at, _) in line.match_indices("crate::") {
                let rest = &line[at + "crate::".len()..];
                let names: Vec<&str> = match rest.strip_prefix('{') {
                    Some(group) => group.split(['}', ',']).map(|n| n.trim().split("::").next().unwrap_or("")).collect(),
                    None => vec![rest.split(|c: char| !c.is_alphanumeric() && c != '_').next().unwrap_or("")],
                };
                named.extend(names.into_iter().filter(|n| modules.contains(*n) && *n != stem(file)).map(str::to_owned));
            }
        }
        imports.insert(stem(file), named);
    }
    imports
}

/// A cycle of `imports`, if there is one, as the modules along it.
fn a_cycle(imports: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        module: &str,
        imports: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(start) = path.iter().position(|m| m == module) {
            return Some(path[start..].to_vec());
        }
        if !done.insert(module.to_owned()) {
            return None;
        }
        path.push(module.to_owned());
        for next in &imports[module] {
            if let Some(cycle) = visit(next, imports, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        None
    }
    let mut done = BTreeSet::new();
    imports.keys().find_map(|module| visit(module, imports, &mut Vec::new(), &mut done))
}

#[test]
fn no_module_imports_one_that_imports_it_back() {
    let crates = std::fs::read_dir(root().join("crates")).unwrap().map(|e| e.unwrap().path().join("src"));
    for src in crates.chain([root().join("src-tauri/src")]) {
        let imports = module_imports(&src);
        assert_eq!(a_cycle(&imports), None, "an import cycle in {}", src.display());
    }
}

#[test]
fn the_cycle_check_finds_a_cycle() {
    let imports: BTreeMap<String, BTreeSet<String>> = [("a", "b"), ("b", "c"), ("c", "a"), ("d", "a")]
        .iter()
        .map(|(from, to)| ((*from).to_owned(), BTreeSet::from([(*to).to_owned()])))
        .collect();
    assert_eq!(a_cycle(&imports), Some(vec!["a".to_owned(), "b".to_owned(), "c".to_owned()]));
}
