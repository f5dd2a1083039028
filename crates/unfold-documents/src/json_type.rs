//! The TypeScript shape of a `serde_json::Value` for the app's bindings (feature `specta`):
//! specta refuses `Value` itself because its numbers may be 64-bit integers, which JavaScript
//! cannot hold exactly. Never built: it only describes the type.

use std::collections::BTreeMap;

/// Any JSON value, as `JSON.parse` returns it.
#[derive(serde::Serialize, specta::Type)]
#[serde(untagged)]
#[allow(dead_code)]
pub enum JsonValue {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// Any JSON number.
    Number(f64),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<JsonValue>),
    /// An object.
    Object(BTreeMap<String, JsonValue>),
}
