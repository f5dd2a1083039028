//! The JSON Schemas of Unfold's documents, generated from the Rust types (schemars) so that the
//! files under `schema/` and the validation of every loaded document can never disagree.

use std::sync::OnceLock;

use jsonschema::{PatternOptions, Validator};
use serde_json::Value;

use crate::scenario::Scenario;
use crate::template::Template;

/// The JSON Schema of `*.unfold.json` files, as checked in at `schema/unfold.template.schema.json`.
pub fn template_schema() -> &'static Value {
    static SCHEMA: OnceLock<Value> = OnceLock::new();
    SCHEMA.get_or_init(|| {
        document_schema(schemars::schema_for!(Template), "https://unfold.dev/schema/unfold.template.schema.json")
    })
}

/// The JSON Schema of `*.scenario.json` files, as checked in at `schema/unfold.scenario.schema.json`.
pub fn scenario_schema() -> &'static Value {
    static SCHEMA: OnceLock<Value> = OnceLock::new();
    SCHEMA.get_or_init(|| {
        document_schema(schemars::schema_for!(Scenario), "https://unfold.dev/schema/unfold.scenario.schema.json")
    })
}

/// The JSON Schema of provider profile files, as checked in at `schema/unfold.providers.schema.json`.
pub fn providers_schema() -> &'static Value {
    static SCHEMA: OnceLock<Value> = OnceLock::new();
    SCHEMA.get_or_init(|| {
        let schema = schemars::schema_for!(crate::live::ProviderProfiles);
        document_schema(schema, "https://unfold.dev/schema/unfold.providers.schema.json")
    })
}

fn document_schema(schema: schemars::Schema, id: &str) -> Value {
    let mut value = schema.to_value();
    if let Some(object) = value.as_object_mut() {
        object.insert("$id".to_owned(), Value::String(id.to_owned()));
    }
    value
}

/// Options shared by every validator Unfold builds: nothing is ever fetched (the crate is built
/// without its resolvers) and `pattern` uses the linear-time `regex` engine, so a hostile schema
/// cannot make validation backtrack for ever.
fn options() -> jsonschema::ValidationOptions<'static> {
    jsonschema::options().with_pattern_options(PatternOptions::regex())
}

pub(crate) fn template_validator() -> &'static Validator {
    static VALIDATOR: OnceLock<Validator> = OnceLock::new();
    VALIDATOR.get_or_init(|| build_own(template_schema()))
}

pub(crate) fn scenario_validator() -> &'static Validator {
    static VALIDATOR: OnceLock<Validator> = OnceLock::new();
    VALIDATOR.get_or_init(|| build_own(scenario_schema()))
}

pub(crate) fn providers_validator() -> &'static Validator {
    static VALIDATOR: OnceLock<Validator> = OnceLock::new();
    VALIDATOR.get_or_init(|| build_own(providers_schema()))
}

fn build_own(schema: &Value) -> Validator {
    match options().build(schema) {
        Ok(validator) => validator,
        // Our own generated schemas; the schema tests build them, so this is a programming error.
        Err(e) => unreachable!("Unfold's own document schema does not compile: {e}"),
    }
}

/// Compiles a tool's parameter schema, refusing an invalid schema.
pub(crate) fn tool_parameters_validator(parameters: &Value) -> Result<Validator, String> {
    // Building checks the schema against its meta-schema first.
    options().build(parameters).map_err(|e| e.to_string())
}
