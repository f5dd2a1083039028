//! Fuzz target `load_and_render`: any bytes go to `Template::from_json` and `Scenario::from_json`,
//! which must return `Ok` or `Err`, never panic or exhaust the stack. A template that loads is
//! saved and reloaded (the text must come back byte-identical), rendered in a fresh session, then
//! every section is expanded in turn and the prompt rendered again.

#![no_main]

use libfuzzer_sys::fuzz_target;
use unfold_documents::{Scenario, Template};
use unfold_engine::Session;

fuzz_target!(|bytes: &[u8]| {
    let _ = Scenario::from_json(bytes);
    let Ok(template) = Template::from_json(bytes) else {
        return;
    };
    let saved = template.to_json();
    match Template::from_json(saved.as_bytes()) {
        Ok(again) => assert!(again.to_json() == saved, "save → load → save differs"),
        Err(e) => panic!("a loaded template does not reload after saving: {e}"),
    }
    let Ok(mut session) = Session::new(&template, Default::default()) else {
        return;
    };
    let _ = session.render();
    let mut paths = Vec::new();
    template.walk(&mut |path, _| paths.push(path.to_owned()));
    for path in &paths {
        let _ = session.expand(path);
        let _ = session.render();
    }
});
