//! Property tests of the documents: save → load → save is byte-identical for templates and
//! scenarios; substitution never panics and never expands a substituted value again. Also checks
//! that the Rust port of the benchmark template (`unfold_test_support::bench_template`) builds
//! exactly what `bench_template.py` writes (`fixtures/bench-200.unfold.json`).
//!
//! Each property runs a moderate number of cases so the file stays fast in debug builds; set
//! `PROPTEST_CASES` to run more. The generators are `unfold_test_support::generators`.

use std::collections::HashSet;

use proptest::collection::vec;
use proptest::prelude::*;
use serde_json::Value;
use unfold_documents::substitution::{self, SubstitutionError};
use unfold_documents::template::{Disclosure, HeadingStyle};
use unfold_documents::{Scenario, Template};
use unfold_test_support::bench_template;
use unfold_test_support::generators::{config, scenario, template};

/// What a string parameter value makes of substitution.
#[derive(Debug, Clone)]
enum Part {
    Literal(String),
    Dollar,
    Param(usize),
}

// ---------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(config(48))]

    #[test]
    fn template_save_load_save_is_byte_identical(template in template()) {
        let saved = template.to_json();
        let loaded = Template::from_json(saved.as_bytes())
            .map_err(|e| TestCaseError::fail(format!("a saved valid template does not load: {e}\n{saved}")))?;
        prop_assert!(loaded.to_json() == saved, "saved again:\n{}\nfirst save:\n{}", loaded.to_json(), saved);
        prop_assert_eq!(loaded, template);
    }

    #[test]
    fn scenario_save_load_save_is_byte_identical(scenario in scenario()) {
        let saved = scenario.to_json();
        let loaded = Scenario::from_json(saved.as_bytes())
            .map_err(|e| TestCaseError::fail(format!("a saved valid scenario does not load: {e}\n{saved}")))?;
        prop_assert!(loaded.to_json() == saved, "saved again:\n{}\nfirst save:\n{}", loaded.to_json(), saved);
        prop_assert_eq!(loaded, scenario);
    }
}

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn substitution_never_panics_and_agrees_with_the_syntax_check(
        text in prop_oneof!["(?s).{0,40}", "[$a-z{}_ 0-9\n]{0,30}", "(\\$\\{?[a-zé_]{0,3}\\}?|\\$\\$|\\$|[ a-z\n]{0,3}){0,6}"],
        known in vec("[a-z_]{1,3}", 0..4),
    ) {
        let everything = substitution::substitute(&text, |_| Some("v"));
        prop_assert_eq!(everything.is_ok(), substitution::check_syntax(&text).is_ok());
        let known: HashSet<String> = known.into_iter().collect();
        match substitution::substitute(&text, |name| known.contains(name).then_some("v")) {
            Ok(_) => {
                for name in substitution::placeholders(&text) {
                    prop_assert!(known.contains(name), "{name} has no value but substituted");
                }
            }
            Err(SubstitutionError::Missing { name }) => prop_assert!(!known.contains(&name)),
            Err(SubstitutionError::InvalidPlaceholder { line, column }) => {
                prop_assert!(line >= 1 && column >= 1);
                prop_assert!(line <= text.split('\n').count());
            }
        }
    }

    #[test]
    fn substituted_values_are_never_expanded_again(
        parts in vec(prop_oneof![
            "(?s)[^$]{0,8}".prop_map(Part::Literal),
            Just(Part::Dollar),
            (0usize..3).prop_map(Part::Param),
        ], 0..8),
        values in vec("(\\$\\{?[a-z]{1,3}\\}?|\\$\\$|\\$|[a-z ]{0,3}){0,4}", 3),
    ) {
        let names = ["a", "bb", "c_1"];
        let mut text = String::new();
        let mut want = String::new();
        for part in &parts {
            match part {
                Part::Literal(s) => {
                    text.push_str(s);
                    want.push_str(s);
                }
                Part::Dollar => {
                    text.push_str("$$");
                    want.push('$');
                }
                Part::Param(i) => {
                    text.push_str(&format!("${{{}}}", names[*i]));
                    want.push_str(&values[*i]);
                }
            }
        }
        let lookup = |name: &str| names.iter().position(|n| *n == name).map(|i| values[i].as_str());
        prop_assert_eq!(substitution::substitute(&text, lookup), Ok(want));
    }
}

// ---------------------------------------------------------------------------------------------
// The benchmark template's generator against the Python script
// ---------------------------------------------------------------------------------------------

const PYTHON_200: &str = include_str!("fixtures/bench-200.unfold.json");

/// The Python script writes a section's `summary` after its `children` (it adds the key last);
/// the canonical save writes it after `template`. Moving it back gives the script's exact layout.
fn python_layout(template: &Template) -> String {
    fn move_summary_last(sections: &mut Value) {
        for section in sections.as_array_mut().into_iter().flatten() {
            let object = section.as_object_mut().expect("a section is an object");
            if let Some(summary) = object.shift_remove("summary") {
                object.insert("summary".to_owned(), summary);
            }
            move_summary_last(&mut object["children"]);
        }
    }
    let mut value = serde_json::to_value(template).expect("a template serializes");
    move_summary_last(&mut value["sections"]);
    serde_json::to_string_pretty(&value).expect("a value serializes") + "\n"
}

#[test]
fn generator_writes_what_the_python_script_writes() {
    let generated = bench_template::bench_template(200, HeadingStyle::Plain, Disclosure::ReadSection);
    assert!(
        python_layout(&generated) == PYTHON_200,
        "the generated N=200 template differs from fixtures/bench-200.unfold.json"
    );
    let loaded = Template::from_json(PYTHON_200.as_bytes()).expect("the fixture is valid");
    assert_eq!(loaded, generated);
    assert!(loaded.to_json() == generated.to_json());
}
