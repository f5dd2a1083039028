//! The tools' parameter schemas already known to compile. The editor checks every tool of a
//! template at every keystroke, and so does every load of a template file: compiling a schema
//! (against its meta-schema first) takes microseconds where looking its text up takes a tenth of
//! one, and a template's tools rarely change between two checks. Only schemas that compiled are
//! kept, so every problem is still found, and worded, by the compiler.

use std::collections::HashSet;
use std::sync::{Mutex, PoisonError};

use serde_json::Value;

/// More distinct schemas than a template holds; past it the set starts again, which costs only
/// compiling each again.
const KEPT: usize = 4096;

/// The JSON texts (members in their order) of the schemas that compiled.
static COMPILED: Mutex<Option<HashSet<String>>> = Mutex::new(None);

/// `compile(parameters)`'s outcome, without calling it when `parameters` compiled before.
pub(crate) fn compiled<P>(parameters: &Value, compile: impl FnOnce(&Value) -> Result<(), P>) -> Result<(), P> {
    let text = serde_json::to_string(parameters).unwrap_or_default();
    let known = |set: &Option<HashSet<String>>| set.as_ref().is_some_and(|set| set.contains(&text));
    if known(&COMPILED.lock().unwrap_or_else(PoisonError::into_inner)) {
        return Ok(());
    }
    compile(parameters)?;
    let mut compiled = COMPILED.lock().unwrap_or_else(PoisonError::into_inner);
    let set = compiled.get_or_insert_with(HashSet::new);
    if set.len() >= KEPT {
        set.clear();
    }
    set.insert(text);
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use serde_json::json;

    use super::compiled;

    #[test]
    fn a_schema_is_compiled_until_it_compiles_once() {
        let calls = Cell::new(0);
        let calls = &calls;
        let compile = |outcome: Result<(), &'static str>| {
            move |_: &serde_json::Value| {
                calls.set(calls.get() + 1);
                outcome
            }
        };
        // Its own text, so that no other test's schema is it.
        let schema = json!({"type": "object", "x-test": "a_schema_is_compiled_until_it_compiles_once"});
        assert_eq!(compiled(&schema, compile(Err("bad"))), Err("bad"));
        assert_eq!(compiled(&schema, compile(Err("bad"))), Err("bad"));
        assert_eq!(calls.get(), 2, "a failure is never kept");
        assert_eq!(compiled(&schema, compile(Ok(()))), Ok(()));
        assert_eq!(compiled(&schema, compile(Err("never asked"))), Ok(()));
        assert_eq!(calls.get(), 3, "kept once it compiled");
        let reordered = json!({"x-test": "a_schema_is_compiled_until_it_compiles_once", "type": "object"});
        assert_eq!(compiled(&reordered, compile(Err("other text"))), Err("other text"));
    }
}
