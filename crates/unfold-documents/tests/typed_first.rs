//! A template file read straight into its types (`Template::from_json`) gives exactly what the
//! JSON tree and the schema give (`document::parse_versioned`): the same template, or the same
//! problems at the same places. The texts are generated templates with changes the types or the
//! schema may refuse: a value replaced, a field removed or added, a member written twice.
//!
//! The property fails if `Template::passes_schema` lets through a value the schema refuses
//! (a section key, a tool name, an unknown field's name, ...).

use proptest::prelude::*;
use serde_json::{json, Map, Value};
use unfold_documents::document::{self, DocumentKind};
use unfold_documents::{Problem, Template};
use unfold_test_support::generators::{config, template};

/// Both ways of reading `text`, without the semantic checks (they run on the same typed value
/// either way): typed first, then through the tree and the schema.
fn both_ways(text: &str) -> (String, String) {
    let tag = DocumentKind::Template.tag();
    let no_checks = |_: &Template| Vec::<Problem>::new();
    let typed_first = document::parse_versioned_typed_first(
        text.as_bytes(),
        tag,
        Template::schema,
        Template::passes_schema,
        no_checks,
    );
    let through_tree = document::parse_versioned(text.as_bytes(), tag, Template::schema(), no_checks);
    (format!("{typed_first:?}"), format!("{through_tree:?}"))
}

/// A change to one object or array of a template's JSON, found by its place in a walk of the
/// tree (modulo the number of places).
#[derive(Debug, Clone)]
enum Change {
    /// A member's or item's value replaced.
    Replace { place: usize, member: usize, value: Value },
    /// A member or item removed.
    Remove { place: usize, member: usize },
    /// A member set in an object: added, or its value replaced.
    Set { place: usize, name: String, value: Value },
    /// An object's name changed: its `key`, or a tool's `name`; in other objects (such as the
    /// template's parameters) a member of that name added.
    Rename { place: usize, name: String },
    /// An object's first member written again, last, with another value (a text a tree cannot
    /// hold: serde_json keeps the last one).
    WriteTwice { place: usize, value: Value },
}

/// Values that break types and patterns: keys and names valid or not, `null`, numbers written as
/// floats, the enums' names and others.
fn odd_value() -> BoxedStrategy<Value> {
    let leaf = prop_oneof![
        6 => odd_name().prop_map(Value::String),
        1 => Just(Value::Null),
        1 => any::<bool>().prop_map(Value::Bool),
        1 => prop::sample::select(vec![json!(0), json!(1), json!(2), json!(1.0), json!(-1), json!(1e300)]),
    ];
    leaf.prop_recursive(2, 6, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
            prop::collection::vec((field_name(), inner), 0..3).prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
    .boxed()
}

/// Names and keys valid or not, and words the documents give a meaning to.
fn odd_name() -> BoxedStrategy<String> {
    let names = prop::sample::select(vec![
        "",
        "a",
        "ok-key_1",
        "Bad",
        "bad key",
        "x-a",
        "read_section",
        "full",
        "summary",
        "keyed",
        "mixed",
        "unfold.template",
        "unfold.scenario",
        "é",
        "0",
        "_p",
        "1p",
    ]);
    prop_oneof![2 => names.prop_map(str::to_owned), 1 => "[a-zA-Z0-9_ -]{0,70}"].boxed()
}

/// Field names: the documents' own, `x-` ones and others.
fn field_name() -> BoxedStrategy<String> {
    prop::sample::select(vec![
        "x-a",
        "x-",
        "X-a",
        "y",
        "key",
        "title",
        "template",
        "summary",
        "visibility",
        "tools",
        "children",
        "name",
        "description",
        "parameters",
        "brief",
        "kind",
        "mock",
        "result",
        "error",
        "schema_version",
        "params",
        "sections",
        "sources",
        "ns",
        "heading",
        "disclosure",
        "tool_disclosure",
        "categories",
        "requires_permission",
    ])
    .prop_map(str::to_owned)
    .boxed()
}

fn change() -> BoxedStrategy<Change> {
    // The template's own object a third of the time: its fields are few among many places.
    let place = prop_oneof![1 => Just(0usize), 2 => 0usize..10_000];
    prop_oneof![
        4 => (place.clone(), 0usize..16, odd_value()).prop_map(|(place, member, value)| Change::Replace { place, member, value }),
        2 => (place.clone(), field_name(), odd_value()).prop_map(|(place, name, value)| Change::Set { place, name, value }),
        1 => (place.clone(), 0usize..16).prop_map(|(place, member)| Change::Remove { place, member }),
        2 => (place.clone(), odd_name()).prop_map(|(place, name)| Change::Rename { place, name }),
        1 => (place, odd_value()).prop_map(|(place, value)| Change::WriteTwice { place, value }),
    ]
    .boxed()
}

/// The members whose objects and arrays changes go into: the document's own structure, not the
/// free-form JSON inside (a tool's `parameters`, extension fields), which the schema takes whole.
const STRUCTURE: [&str; 7] = ["params", "tools", "sections", "children", "sources", "categories", "mock"];

/// The objects and arrays of the document's structure right within `value`, in walk order, each
/// with its position among `value`'s members or items.
fn structure_children(value: &mut Value) -> Vec<(usize, &mut Value)> {
    let children: Vec<(usize, &mut Value)> = match value {
        Value::Array(items) => items.iter_mut().enumerate().collect(),
        Value::Object(members) => members
            .iter_mut()
            .enumerate()
            .filter(|(_, (name, _))| STRUCTURE.contains(&name.as_str()))
            .map(|(index, (_, member))| (index, member))
            .collect(),
        _ => Vec::new(),
    };
    children.into_iter().filter(|(_, child)| matches!(child, Value::Array(_) | Value::Object(_))).collect()
}

/// How many places [`pick`] chooses from in `value`, itself included.
fn count_places(value: &mut Value) -> usize {
    1 + structure_children(value).into_iter().map(|(_, child)| count_places(child)).sum::<usize>()
}

/// The template's text with `changes` made, each at the place it picks.
fn changed_text(template: &Template, changes: &[Change]) -> String {
    let mut value = serde_json::to_value(template).expect("a template serializes");
    let mut written_twice = None;
    for change in changes {
        let mut path = Vec::new();
        let target = pick(&mut value, change_place(change), &mut path);
        match (change, target) {
            (Change::Replace { member, value: new, .. }, Value::Object(members)) if !members.is_empty() => {
                let name = members.keys().nth(member % members.len()).expect("in range").clone();
                members.insert(name, new.clone());
            }
            (Change::Replace { member, value: new, .. }, Value::Array(items)) if !items.is_empty() => {
                let index = member % items.len();
                items[index] = new.clone();
            }
            (Change::Remove { member, .. }, Value::Object(members)) if !members.is_empty() => {
                let name = members.keys().nth(member % members.len()).expect("in range").clone();
                members.shift_remove(&name);
            }
            (Change::Remove { member, .. }, Value::Array(items)) if !items.is_empty() => {
                let index = member % items.len();
                items.remove(index);
            }
            (Change::Set { name, value: new, .. }, Value::Object(members)) => {
                members.insert(name.clone(), new.clone());
            }
            (Change::Rename { name, .. }, Value::Object(members)) => {
                let named = ["key", "name"].into_iter().find(|field| members.contains_key(*field));
                match named {
                    Some(field) => members.insert(field.to_owned(), Value::String(name.clone())),
                    None => members.insert(name.clone(), json!("v")),
                };
            }
            (Change::WriteTwice { value: new, .. }, Value::Object(members)) if !members.is_empty() => {
                written_twice = Some((path, new.clone()));
            }
            _ => {}
        }
    }
    let mut text = String::new();
    write_json(&value, &mut Vec::new(), written_twice.as_ref(), &mut text);
    text
}

fn change_place(change: &Change) -> usize {
    match change {
        Change::Replace { place, .. }
        | Change::Remove { place, .. }
        | Change::Set { place, .. }
        | Change::Rename { place, .. }
        | Change::WriteTwice { place, .. } => *place,
    }
}

/// The object or array at walk index `place` (modulo their number), and its path of member
/// indexes in `path`.
fn pick<'v>(value: &'v mut Value, place: usize, path: &mut Vec<usize>) -> &'v mut Value {
    let mut wanted = place % count_places(value);
    descend(value, &mut wanted, path).expect("the place is within the walk")
}

fn descend<'v>(value: &'v mut Value, wanted: &mut usize, path: &mut Vec<usize>) -> Option<&'v mut Value> {
    if *wanted == 0 {
        return Some(value);
    }
    *wanted -= 1;
    for (position, child) in structure_children(value) {
        path.push(position);
        if let Some(found) = descend(child, wanted, path) {
            return Some(found);
        }
        path.pop();
    }
    None
}

/// `value` as JSON text; the object at `twice`'s path gets its first member again, last, with
/// `twice`'s value.
fn write_json(value: &Value, path: &mut Vec<usize>, twice: Option<&(Vec<usize>, Value)>, out: &mut String) {
    match value {
        Value::Array(items) => {
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                path.push(index);
                write_json(item, path, twice, out);
                path.pop();
            }
            out.push(']');
        }
        Value::Object(members) => {
            out.push('{');
            let mut written: Vec<(&String, &Value)> = members.iter().collect();
            let again = twice.filter(|(at, _)| at == path).and_then(|(_, value)| Some((members.keys().next()?, value)));
            written.extend(again);
            for (index, (name, member)) in written.into_iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                out.push_str(&serde_json::to_string(name).expect("a name serializes"));
                out.push(':');
                path.push(index);
                write_json(member, path, twice, out);
                path.pop();
            }
            out.push('}');
        }
        scalar => out.push_str(&scalar.to_string()),
    }
}

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn typed_first_reads_what_the_tree_and_the_schema_read(
        template in template(),
        changes in prop::collection::vec(change(), 1..4),
    ) {
        let text = changed_text(&template, &changes);
        let (typed_first, through_tree) = both_ways(&text);
        prop_assert_eq!(typed_first, through_tree, "{}", text);
    }
}

/// Texts the property may rarely write, each either refused by the schema though the types take
/// it, or taken by both.
#[test]
fn typed_first_agrees_on_what_the_types_take_but_the_schema_may_not() {
    let section = |extra: Map<String, Value>| {
        let mut section = json!({ "key": "a", "title": "A", "template": "t" });
        section.as_object_mut().expect("an object").extend(extra);
        section
    };
    let template = |sections: Value, extra: Value| {
        let mut template = json!({ "schema_version": 1, "kind": "unfold.template", "key": "k", "sections": sections });
        template.as_object_mut().expect("an object").extend(extra.as_object().expect("an object").clone());
        template.to_string()
    };
    let texts = [
        template(json!([section(Map::new())]), json!({})),
        template(json!([section(Map::from_iter([("x-note".to_owned(), json!([1]))]))]), json!({})),
        template(json!([section(Map::from_iter([("note".to_owned(), json!(1))]))]), json!({})),
        template(json!([section(Map::from_iter([("key".to_owned(), json!("Bad Key"))]))]), json!({})),
        template(json!([section(Map::from_iter([("summary".to_owned(), Value::Null)]))]), json!({})),
        template(json!([]), json!({ "params": { "1p": "v" } })),
        template(json!([]), json!({ "key": "" })),
        template(json!([]), json!({ "schema_version": 1.0 })),
        template(json!([]), json!({ "schema_version": 2 })),
        template(json!([]), json!({ "kind": "unfold.scenario" })),
        template(json!([]), json!({ "tools": [{ "name": "bad name", "description": "d", "parameters": {} }] })),
        template(
            json!([]),
            json!({ "tools": [{ "name": "t", "description": "d", "parameters": {}, "mock": { "result": 1, "error": "e" } }] }),
        ),
        r#"{"schema_version":1,"kind":"unfold.template","key":"k","key":"j"}"#.to_owned(),
        r#"{"schema_version":1,"kind":"unfold.template","key":"k","x-a":1,"x-a":2}"#.to_owned(),
        "\u{feff}".to_owned() + &template(json!([]), json!({})),
        "[]".to_owned(),
        "{".to_owned(),
    ];
    for text in texts {
        let (typed_first, through_tree) = both_ways(&text);
        assert_eq!(typed_first, through_tree, "{text}");
    }
}
