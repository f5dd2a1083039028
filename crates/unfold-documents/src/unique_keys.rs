//! JSON objects whose keys are unique. serde_json keeps the last of a key given twice in one
//! object, so a second, hidden `"command"` would be the one that runs while a reviewer reads the
//! first; every document Unfold reads refuses it instead, at the key's JSON pointer.
//!
//! Two ways share one visitor: the JSON tree ([`tree`], what [`crate::document::parse_json`]
//! builds), which on a key given twice names its pointer; and the typed read of a template, whose
//! derived structs already refuse a known field given twice, and whose maps and free JSON values
//! (parameter schemas, mocks, `x-` fields, `params`, `env`) are read by [`value`], [`extensions`]
//! and [`string_map`]. Keys are compared as decoded (`"comm\u0061nd"` is `"command"`). The pointer
//! costs nothing while the text is sound: it is put together on the way out of a failed read.

use std::fmt;

use indexmap::IndexMap;
use serde::de::{DeserializeSeed, Deserializer, Error as _, MapAccess, SeqAccess, Visitor};
use serde_json::map::Entry;
use serde_json::{Map, Number, Value};

use crate::error::{pointer_segment, Problem};

/// A key given twice in one object, found by [`tree`]: the key, and the pointer's segments from
/// the key up to the root (in that order, as the read unwinds).
#[derive(Debug)]
struct Duplicate {
    key: String,
    segments: Vec<String>,
}

impl Duplicate {
    /// The problem at the second key's pointer.
    fn problem(self) -> Problem {
        let pointer: String = self.segments.iter().rev().map(|segment| format!("/{segment}")).collect();
        let key = self.key.escape_debug();
        Problem::at(pointer, format!("\"{key}\" is given twice in this object; JSON keys must be unique"))
    }
}

/// The JSON tree of what `deserializer` reads; a key given twice in an object is an error, and
/// then the second is the problem returned beside it.
pub(crate) fn tree<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Value, (D::Error, Option<Problem>)> {
    let mut found = None;
    UniqueValue { found: &mut found }.deserialize(deserializer).map_err(|e| (e, found.map(Duplicate::problem)))
}

/// A JSON value whose objects have unique keys, for `#[serde(deserialize_with)]`.
pub(crate) fn value<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Value, D::Error> {
    UniqueValue { found: &mut None }.deserialize(deserializer)
}

/// A struct's `x-` fields (`#[serde(flatten, deserialize_with)]`), each key once.
pub(crate) fn extensions<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Map<String, Value>, D::Error> {
    match value(deserializer)? {
        Value::Object(members) => Ok(members),
        _ => Err(D::Error::custom("expected an object")),
    }
}

/// A map of strings (`params`, `env`), each key once.
pub(crate) fn string_map<'de, D: Deserializer<'de>>(deserializer: D) -> Result<IndexMap<String, String>, D::Error> {
    /// Visits a map of strings.
    struct StringMap;
    impl<'de> Visitor<'de> for StringMap {
        type Value = IndexMap<String, String>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("an object of strings")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Self::Value, A::Error> {
            let mut map = IndexMap::with_capacity(access.size_hint().unwrap_or(0));
            while let Some(key) = access.next_key::<String>()? {
                match map.entry(key) {
                    indexmap::map::Entry::Occupied(entry) => return Err(twice(entry.key())),
                    indexmap::map::Entry::Vacant(entry) => {
                        entry.insert(access.next_value()?);
                    }
                }
            }
            Ok(map)
        }
    }
    deserializer.deserialize_map(StringMap)
}

/// The error of a key given twice.
fn twice<E: serde::de::Error>(key: &str) -> E {
    E::custom(format_args!("the key {key:?} is given twice in one object"))
}

/// Reads a JSON value, refusing a key given twice in any of its objects; `found` gets which.
struct UniqueValue<'a> {
    found: &'a mut Option<Duplicate>,
}

impl UniqueValue<'_> {
    /// Adds `segment` to the pointer of a key given twice below it, if that is why the read failed.
    fn below<T, E>(&mut self, result: Result<T, E>, segment: impl FnOnce() -> String) -> Result<T, E> {
        if result.is_err() {
            if let Some(duplicate) = self.found.as_mut() {
                duplicate.segments.push(segment());
            }
        }
        result
    }
}

impl<'de> DeserializeSeed<'de> for UniqueValue<'_> {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for UniqueValue<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, value: bool) -> Result<Value, E> {
        Ok(Value::Bool(value))
    }

    fn visit_i64<E>(self, value: i64) -> Result<Value, E> {
        Ok(Value::from(value))
    }

    fn visit_u64<E>(self, value: u64) -> Result<Value, E> {
        Ok(Value::from(value))
    }

    fn visit_f64<E>(self, value: f64) -> Result<Value, E> {
        Ok(Number::from_f64(value).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, value: &str) -> Result<Value, E> {
        Ok(Value::String(value.to_owned()))
    }

    fn visit_string<E>(self, value: String) -> Result<Value, E> {
        Ok(Value::String(value))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        self.deserialize(deserializer)
    }

    fn visit_seq<A: SeqAccess<'de>>(mut self, mut access: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(access.size_hint().unwrap_or(0));
        loop {
            let item = access.next_element_seed(UniqueValue { found: &mut *self.found });
            match self.below(item, || items.len().to_string())? {
                Some(item) => items.push(item),
                None => return Ok(Value::Array(items)),
            }
        }
    }

    fn visit_map<A: MapAccess<'de>>(mut self, mut access: A) -> Result<Value, A::Error> {
        let mut members = Map::new();
        while let Some(key) = access.next_key::<String>()? {
            // The key is checked before its value is read, so the first thing wrong in the text
            // is the one reported.
            match members.entry(key) {
                Entry::Occupied(entry) => {
                    let error = twice(entry.key());
                    *self.found =
                        Some(Duplicate { key: entry.key().clone(), segments: vec![pointer_segment(entry.key())] });
                    return Err(error);
                }
                Entry::Vacant(entry) => {
                    let member = access.next_value_seed(UniqueValue { found: &mut *self.found });
                    let member = self.below(member, || pointer_segment(entry.key()))?;
                    entry.insert(member);
                }
            }
        }
        Ok(Value::Object(members))
    }
}
