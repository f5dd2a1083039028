//! The relay never crashes on a request: arbitrary bodies (raw bytes, and JSON built from the
//! routes' own field names so that the generator reaches deep into them) sent over real sockets
//! to every route; every answer is a status with a JSON body, and the relay serves on afterwards.

use proptest::prelude::*;
use serde_json::{json, Map, Value};
use unfold_relay::{RelayLimits, RunningRelay};

use crate::client::Client;

const FIELDS: &[&str] = &[
    "tools",
    "availableTools",
    "toolUpdates",
    "added",
    "removed",
    "modified",
    "name",
    "description",
    "parameters",
    "inputSchema",
    "annotations",
    "readOnlyHint",
    "kind",
    "categories",
    "requires_permission",
    "id",
    "result",
    "error",
    "ttl",
    "reason",
    "pluginType",
    "type",
    "properties",
    "required",
    "tool",
    "args",
    "timeoutMs",
];

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(Value::from),
        "[a-z_ ]{0,12}".prop_map(Value::from),
        prop::sample::select(FIELDS).prop_map(Value::from),
    ];
    leaf.prop_recursive(5, 64, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((prop::sample::select(FIELDS), inner), 0..6).prop_map(|pairs| Value::Object(
                pairs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect::<Map<_, _>>()
            )),
        ]
    })
}

const ROUTES: &[&str] = &["register-tools", "update-tools", "response", "tool-calls"];

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn any_body_to_any_route_gets_an_answer_and_the_relay_serves_on(
        bodies in prop::collection::vec((prop::sample::select(ROUTES), prop_oneof![
            json_value().prop_map(|v| v.to_string().into_bytes()),
            prop::collection::vec(any::<u8>(), 0..64),
        ]), 1..6)
    ) {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(async {
            let relay = RunningRelay::start(0, RelayLimits { updates_per_minute: 1000, ..RelayLimits::default() }).await.unwrap();
            let client = Client::new(relay.address);
            let session = client.create_session().await;
            for (route, body) in bodies {
                let request = client
                    .http()
                    .post(client.url(&session, route))
                    .bearer_auth(&session.token)
                    .header("content-type", "application/json")
                    .body(body.clone())
                    // A tool call without a plugin stream fails at once; a bounded wait all the same.
                    .timeout(std::time::Duration::from_secs(10));
                let (status, answer, _) = client.send(request).await;
                assert!(status.as_u16() < 500, "{route} {}: {status} {answer}", String::from_utf8_lossy(&body));
                assert!(answer.is_object(), "{route}: a JSON answer, not {answer}");
            }
            let (status, metadata) = client.get(&session, "metadata").await;
            assert_eq!(status, reqwest::StatusCode::OK, "the relay serves on");
            assert!(metadata["toolCount"].as_u64().unwrap() <= 1000);
            assert_eq!(client.post(&session, "update-tools", json!({ "toolUpdates": {} })).await.0, reqwest::StatusCode::OK);
            relay.shutdown().await;
        });
    }
}
