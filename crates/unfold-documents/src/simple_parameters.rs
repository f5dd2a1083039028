//! Tool parameter schemas of the shapes tools are written in (types, properties, required names,
//! enums, descriptions, bounds), told apart without JSON Schema's meta-schema. Checking a schema
//! against the meta-schema first builds jsonschema's validator of the meta-schema, 3-4 ms: most of
//! what `unfold render` or `unfold compare` of a small template takes. A schema of these shapes
//! passes the meta-schema and compiles by construction, so it needs neither; any other keyword or
//! value sends the schema the whole way, which finds and words every problem as before. This is to
//! tool schemas what `Template::passes_schema` is to template files; the property below holds the
//! two ways against each other.

use std::collections::HashSet;

use serde_json::Value;

/// The types JSON Schema names.
const TYPES: [&str; 7] = ["array", "boolean", "integer", "null", "number", "object", "string"];

/// Whether `schema` is made only of the keywords below, each with a value the meta-schema (draft
/// 2020-12, the one a schema without `$schema` is read in) accepts, so that it certainly compiles.
/// `false` is always safe: the caller then asks the meta-schema.
pub(crate) fn certainly_valid(schema: &Value) -> bool {
    match schema {
        Value::Bool(_) => true,
        Value::Object(keywords) => keywords.iter().all(|(keyword, value)| simple_keyword(keyword, value)),
        _ => false,
    }
}

fn simple_keyword(keyword: &str, value: &Value) -> bool {
    let schemas =
        |value: &Value| value.as_array().is_some_and(|all| !all.is_empty() && all.iter().all(certainly_valid));
    match keyword {
        "type" => match value {
            Value::String(name) => TYPES.contains(&name.as_str()),
            Value::Array(names) => {
                !names.is_empty()
                    && names.iter().all(|name| name.as_str().is_some_and(|name| TYPES.contains(&name)))
                    && distinct_strings(names)
            }
            _ => false,
        },
        "properties" => value.as_object().is_some_and(|properties| properties.values().all(certainly_valid)),
        "items" | "additionalProperties" | "not" => certainly_valid(value),
        "anyOf" | "oneOf" | "allOf" => schemas(value),
        "required" => value.as_array().is_some_and(|names| distinct_strings(names)),
        "enum" => value.as_array().is_some_and(|values| !values.is_empty()),
        "const" | "default" => true,
        "examples" => value.is_array(),
        "title" | "description" | "format" => value.is_string(),
        "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" => value.is_number(),
        "minLength" | "maxLength" | "minItems" | "maxItems" | "minProperties" | "maxProperties" => value.is_u64(),
        "uniqueItems" => value.is_boolean(),
        _ => false,
    }
}

/// Whether `values` are strings, no two the same.
fn distinct_strings(values: &[Value]) -> bool {
    let mut seen = HashSet::with_capacity(values.len());
    values.iter().all(|value| value.as_str().is_some_and(|name| seen.insert(name)))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::{json, Value};

    use super::certainly_valid;

    /// The keywords `certainly_valid` knows, and some it does not.
    const KEYWORDS: [&str; 31] = [
        "type",
        "properties",
        "items",
        "additionalProperties",
        "not",
        "anyOf",
        "oneOf",
        "allOf",
        "required",
        "enum",
        "const",
        "default",
        "examples",
        "title",
        "description",
        "format",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "minLength",
        "maxLength",
        "minItems",
        "maxItems",
        "minProperties",
        "maxProperties",
        "uniqueItems",
        "pattern",
        "multipleOf",
        "$ref",
        "$schema",
    ];

    /// The whole way: the meta-schema, then the compiler.
    fn passes_meta_schema_and_compiles(schema: &Value) -> bool {
        jsonschema::meta::is_valid(schema)
            && jsonschema::options().with_pattern_options(jsonschema::PatternOptions::regex()).build(schema).is_ok()
    }

    fn scalar() -> impl Strategy<Value = Value> {
        prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            (-2i64..4).prop_map(Value::from),
            Just(json!(1.5)),
            prop::sample::select(vec!["object", "string", "strin", "integer", "", "date-time", "a", "(", "#/x"])
                .prop_map(Value::from),
        ]
    }

    /// Schemas near the shapes tools are written in: known keywords with right and wrong values,
    /// and keywords `certainly_valid` leaves to the meta-schema.
    fn near_simple_schema() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![any::<bool>().prop_map(Value::from), Just(json!({})), scalar()];
        leaf.prop_recursive(4, 48, 4, |inner| {
            let value = prop_oneof![
                scalar(),
                inner.clone(),
                prop::collection::vec(prop_oneof![scalar(), inner.clone()], 0..4).prop_map(Value::from),
                prop::collection::btree_map("[a-c]", inner, 0..3).prop_map(|m| Value::Object(m.into_iter().collect())),
            ];
            prop::collection::vec((prop::sample::select(KEYWORDS.to_vec()), value), 0..4)
                .prop_map(|entries| Value::Object(entries.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()))
        })
    }

    /// Schemas made only of what `certainly_valid` accepts.
    fn simple_schema() -> impl Strategy<Value = Value> {
        let type_name = prop::sample::select(super::TYPES.to_vec()).prop_map(Value::from);
        let leaf = prop_oneof![
            any::<bool>().prop_map(Value::from),
            type_name.clone().prop_map(|name| json!({"type": name})),
            (type_name, "[a-z ]{0,8}").prop_map(|(name, text)| json!({"type": name, "description": text})),
            (0u64..5, 5u64..9).prop_map(|(min, max)| json!({"type": "string", "minLength": min, "maxLength": max})),
            prop::collection::vec(scalar(), 1..4).prop_map(|values| json!({"enum": values})),
            Just(json!({"type": ["string", "null"], "format": "date-time", "default": null})),
            Just(json!({"type": "number", "minimum": -1.5, "exclusiveMaximum": 10, "examples": [1]})),
        ];
        leaf.prop_recursive(4, 48, 4, |inner| {
            prop_oneof![
                prop::collection::btree_map("[a-d]", inner.clone(), 0..4).prop_map(|properties| {
                    let required: Vec<&String> = properties.keys().step_by(2).collect();
                    json!({"type": "object", "properties": properties, "required": required, "additionalProperties": false})
                }),
                inner.clone().prop_map(|items| json!({"type": "array", "items": items, "uniqueItems": true, "minItems": 1})),
                prop::collection::vec(inner.clone(), 1..3).prop_map(|options| json!({"anyOf": options})),
                inner.prop_map(|schema| json!({"not": schema, "title": "t"})),
            ]
        })
    }

    proptest! {
        #[test]
        fn a_schema_of_a_simple_shape_passes_the_meta_schema_and_compiles(schema in near_simple_schema()) {
            if certainly_valid(&schema) {
                prop_assert!(passes_meta_schema_and_compiles(&schema), "{schema}");
            }
        }

        #[test]
        fn the_shapes_tools_are_written_in_are_simple(schema in simple_schema()) {
            prop_assert!(certainly_valid(&schema), "{schema}");
            prop_assert!(passes_meta_schema_and_compiles(&schema), "{schema}");
        }
    }

    #[test]
    fn a_wrong_value_or_another_keyword_goes_the_whole_way() {
        for schema in [
            json!({"type": "strin"}),
            json!({"type": []}),
            json!({"type": ["string", "string"]}),
            json!({"required": ["a", "a"]}),
            json!({"required": "a"}),
            json!({"properties": {"a": {"type": 1}}}),
            json!({"items": [{"type": "string"}]}),
            json!({"anyOf": []}),
            json!({"minLength": -1}),
            json!({"minLength": 1.5}),
            json!({"pattern": "a"}),
            json!({"$ref": "#/x"}),
            json!({"$schema": "http://json-schema.org/draft-07/schema#"}),
            json!([]),
        ] {
            assert!(!certainly_valid(&schema), "{schema}");
        }
    }
}
