//! The relay's request bodies: any bytes, read as the routes read them (JSON, then each route's
//! shape), given to a session's register, update and response in turn. Each must answer `Ok` or a
//! `RelayError`, never panic, and the session must still answer its metadata afterwards.
#![no_main]

use libfuzzer_sys::fuzz_target;
use unfold_relay::{RelayLimits, Sessions};

fuzz_target!(|bytes: &[u8]| {
    let Ok(body) = serde_json::from_slice::<serde_json::Value>(bytes) else { return };
    let sessions = Sessions::new(RelayLimits { updates_per_minute: usize::MAX, ..RelayLimits::default() });
    let session = sessions.create(None);
    let token = Some(session.token.as_str());
    let _ = sessions.register(&session.code, token, &body);
    let _ = sessions.update(&session.code, token, &body);
    let _ = sessions.respond(&session.code, token, &body);
    let metadata = sessions.metadata(&session.code, token).expect("the session answers on");
    assert!(metadata["toolCount"].as_u64().unwrap_or(0) <= 1000);
});
