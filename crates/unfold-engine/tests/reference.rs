//! `heading: keyed` + `disclosure: mixed` must reproduce what the weakincentives 0.27 library
//! renders, byte for byte. The references under `tests/reference/templates/` were made with the
//! library itself by `tests/reference/make_weakincentives_refs.py`; only its output is committed.
//! Tool parameter schemas are passed through as written (the library rewrites them from Python
//! dataclasses), so for tools the names and their order are compared.

use unfold_engine::Session;

use unfold_test_support::repo;

#[test]
fn keyed_mixed_renders_match_weakincentives() {
    let dir = repo("tests/reference/templates");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let Some(stem) = path.to_string_lossy().strip_suffix(".unfold.json").map(str::to_owned) else { continue };
        let template = unfold_documents::Template::load(&path).unwrap_or_else(|e| panic!("{e}"));
        let prompt = Session::new(&template, Default::default()).unwrap().render().unwrap();
        let expected = std::fs::read_to_string(format!("{stem}.md")).unwrap();
        assert_eq!(prompt.markdown, expected, "{stem}");
        let tools: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(format!("{stem}.tools.json")).unwrap()).unwrap();
        let expected_names: Vec<&str> =
            tools.as_array().unwrap().iter().map(|t| t["function"]["name"].as_str().unwrap()).collect();
        assert_eq!(prompt.tool_names(), expected_names, "{stem}");
        checked += 1;
    }
    assert!(checked >= 5, "only {checked} references found");
}
