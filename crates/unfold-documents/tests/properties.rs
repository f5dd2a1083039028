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
use serde_json::{json, Value};
use unfold_documents::error::printable;
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
    #![proptest_config(config(48))]

    /// A template with a key of any of its objects given twice, with another value, before or
    /// after the first, spelled as it is or with escapes, is refused at that key.
    #[test]
    fn a_template_with_a_key_given_twice_is_refused_at_that_key(
        template in template(),
        twice in key_given_twice(),
    ) {
        let value = serde_json::to_value(&template).expect("a template serializes");
        let (text, pointer) = twice.written_into(&value);
        let report = Template::from_json(text.as_bytes()).map(|_| ()).map_err(|e| e.to_string());
        prop_assert_eq!(report, Err(twice.problem(&pointer)), "{}", text);
    }

    /// The same for a scenario.
    #[test]
    fn a_scenario_with_a_key_given_twice_is_refused_at_that_key(
        scenario in scenario(),
        twice in key_given_twice(),
    ) {
        let value = serde_json::to_value(&scenario).expect("a scenario serializes");
        let (text, pointer) = twice.written_into(&value);
        let report = Scenario::from_json(text.as_bytes()).map(|_| ()).map_err(|e| e.to_string());
        prop_assert_eq!(report, Err(twice.problem(&pointer)), "{}", text);
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

// ---------------------------------------------------------------------------------------------
// A key given twice
// ---------------------------------------------------------------------------------------------

/// Which key of a document's objects is given twice, and how.
#[derive(Debug, Clone)]
struct KeyGivenTwice {
    /// Which object, among those with keys, in document order.
    object: prop::sample::Index,
    /// Which of its keys.
    key: prop::sample::Index,
    /// Whether the other value comes first (and the document's own second).
    before: bool,
    /// Whether the second key is written with `\u` escapes (the same key, decoded).
    escaped: bool,
}

fn key_given_twice() -> impl Strategy<Value = KeyGivenTwice> {
    (any::<prop::sample::Index>(), any::<prop::sample::Index>(), any::<bool>(), any::<bool>())
        .prop_map(|(object, key, before, escaped)| KeyGivenTwice { object, key, before, escaped })
}

impl KeyGivenTwice {
    /// `document` as JSON text with the key given twice, and the pointer of that key.
    fn written_into(&self, document: &Value) -> (String, String) {
        let mut objects = Vec::new();
        objects_with_keys(document, String::new(), &mut objects);
        let (pointer, keys) = &objects[self.object.index(objects.len())];
        let key = keys[self.key.index(keys.len())].clone();
        let key_pointer = format!("{pointer}/{}", key.replace('~', "~0").replace('/', "~1"));
        let mut text = String::new();
        self.write(document, "", pointer, &key, &mut text);
        (text, key_pointer)
    }

    /// The problem the document is refused with, as printed.
    fn problem(&self, pointer: &str) -> String {
        let key = pointer.rsplit('/').next().unwrap_or_default().replace("~1", "/").replace("~0", "~");
        let message = format!("\"{}\" is given twice in this object; JSON keys must be unique", key.escape_debug());
        format!("{}: {}", printable(pointer), printable(&message))
    }

    /// Writes `value`, at `at`, giving `key` twice in the object at `target`.
    fn write(&self, value: &Value, at: &str, target: &str, key: &str, out: &mut String) {
        match value {
            Value::Object(members) => {
                out.push('{');
                let mut first = true;
                let mut member = |out: &mut String, name: String, write: &dyn Fn(&mut String)| {
                    if !std::mem::take(&mut first) {
                        out.push(',');
                    }
                    out.push_str(&name);
                    out.push(':');
                    write(out);
                };
                for (name, item) in members {
                    let item_at = format!("{at}/{}", name.replace('~', "~0").replace('/', "~1"));
                    let plain = serde_json::to_string(name).expect("a string");
                    let twice = at == target && name == key;
                    // The other value: one the document's own never equals.
                    let other = json!({ "another": ["value", item] });
                    if twice && self.before {
                        member(out, plain.clone(), &|out: &mut String| out.push_str(&other.to_string()));
                    }
                    let first_name = if twice && self.before && self.escaped { escaped(name) } else { plain.clone() };
                    member(out, first_name, &|out: &mut String| self.write(item, &item_at, target, key, out));
                    if twice && !self.before {
                        let name = if self.escaped { escaped(name) } else { plain };
                        member(out, name, &|out: &mut String| out.push_str(&other.to_string()));
                    }
                }
                out.push('}');
            }
            Value::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    self.write(item, &format!("{at}/{i}"), target, key, out);
                }
                out.push(']');
            }
            scalar => out.push_str(&scalar.to_string()),
        }
    }
}

/// `name` as a JSON string with every character escaped (`"\u0061"` for `"a"`).
fn escaped(name: &str) -> String {
    let units: String = name.encode_utf16().map(|unit| format!("\\u{unit:04x}")).collect();
    format!("\"{units}\"")
}

/// Every object of `value` that has keys, with its pointer and keys, in document order.
fn objects_with_keys(value: &Value, pointer: String, found: &mut Vec<(String, Vec<String>)>) {
    match value {
        Value::Object(members) => {
            if !members.is_empty() {
                found.push((pointer.clone(), members.keys().cloned().collect()));
            }
            for (name, member) in members {
                objects_with_keys(member, format!("{pointer}/{}", name.replace('~', "~0").replace('/', "~1")), found);
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                objects_with_keys(item, format!("{pointer}/{i}"), found);
            }
        }
        _ => {}
    }
}
