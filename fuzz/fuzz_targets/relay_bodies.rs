//! The relay's request bodies: any bytes, worked out as the routes work them out (a registration,
//! an update, each against the session's tools) and taken by a session, then given as a response.
//! Each must answer `Ok` or a `RelayError`, never panic, and the session must still answer its
//! metadata afterwards, as JSON within the bounds.
#![no_main]

use libfuzzer_sys::fuzz_target;
use unfold_relay::tool_changes::{registration, update};
use unfold_relay::{RelayLimits, Sessions};

fuzz_target!(|bytes: &[u8]| {
    let sessions = Sessions::new(RelayLimits { updates_per_minute: usize::MAX, ..RelayLimits::default() });
    let created = sessions.create(None).expect("a first session");
    let session = sessions.authorize(&created.code, Some(&created.token)).expect("its own token");
    let max_tools = sessions.limits().max_tools;
    for prepare in [registration, update] {
        if let Ok(prepared) = prepare(bytes, &sessions.tools(&session), max_tools) {
            let _ = sessions.install(&session, prepared);
        }
    }
    if let Ok(body) = serde_json::from_slice::<serde_json::Value>(bytes) {
        let _ = sessions.respond(&session, &body);
    }
    let metadata: Vec<u8> = sessions.metadata(&session).concat();
    let metadata: serde_json::Value = serde_json::from_slice(&metadata).expect("the metadata is JSON");
    assert!(metadata["toolCount"].as_u64().unwrap_or(0) <= 1000);
    assert!(sessions.kept_bytes() <= sessions.limits().session_bytes);
});
