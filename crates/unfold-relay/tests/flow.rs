//! The whole flow of spec 9 over real sockets, and every refusal with its status.

use reqwest::StatusCode;
use serde_json::{json, Value};
use unfold_relay::{RelayLimits, RunningRelay};

use crate::client::{Client, EventReader};

fn tool(name: &str) -> Value {
    json!({ "name": name, "description": format!("The {name} tool."), "parameters": { "type": "object" } })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_plugin_registers_updates_and_answers_while_a_watcher_hears_each_update_in_order() {
    let relay = RunningRelay::start(0, RelayLimits::default()).await.unwrap();
    let client = Client::new(relay.address);
    let session = client.create_session().await;
    assert_eq!(session.code.len(), 8);
    assert!(session.code.bytes().all(|b| b.is_ascii_uppercase() || (b'2'..=b'7').contains(&b)), "{}", session.code);

    let mut watcher = EventReader::open(&client, &session).await;
    let (status, registered) = client
        .post(
            &session,
            "register-tools",
            json!({
                "pluginType": "codap", "pluginVersion": "3.0", "capabilities": ["tables"],
                "availableTools": [
                    tool("get_data"),
                    { "name": "create_table", "description": "Make a table.", "inputSchema": { "type": "object" },
                      "annotations": { "destructiveHint": true } },
                    { "name": "bad name", "inputSchema": { "type": "object" } }
                ],
                "environment": { "document": "mammals" }
            }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{registered}");
    assert_eq!(registered["registeredTools"], json!(["get_data", "create_table"]));
    assert_eq!(registered["failedTools"][0]["toolName"], "bad name");
    assert_eq!(registered["failedTools"][0]["recoverable"], true);
    assert_eq!(registered["sessionConfiguration"]["toolCount"], 2);

    for (i, reason) in ["a table was added", "a column was renamed"].iter().enumerate() {
        let added = tool(&format!("tool_{i}"));
        let update = json!({ "toolUpdates": { "added": [added], "removed": if i == 1 { json!(["tool_0"]) } else { json!([]) } }, "reason": reason });
        let (status, answer) = client.post(&session, "update-tools", update).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
    }
    let heard: Vec<(String, Value)> = watcher.next_events(3).await;
    assert!(heard.iter().all(|(name, _)| name == "tool-availability-update"), "{heard:?}");
    let added = |data: &Value| -> Vec<String> {
        data["updates"]["added"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap().to_owned()).collect()
    };
    assert_eq!(added(&heard[0].1), ["get_data", "create_table"]);
    assert_eq!(
        (added(&heard[1].1), heard[1].1["reason"].clone()),
        (vec!["tool_0".to_owned()], json!("a table was added"))
    );
    assert_eq!(
        (added(&heard[2].1), &heard[2].1["updates"]["removed"]),
        (vec!["tool_1".to_owned()], &json!(["tool_0"]))
    );
    assert_eq!(heard[2].1["sessionCode"], session.code.as_str());

    let (status, metadata) = client.get(&session, "metadata").await;
    assert_eq!(status, StatusCode::OK);
    let names: Vec<&str> = metadata["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["get_data", "create_table", "tool_1"]);
    assert_eq!(
        (&metadata["pluginType"], &metadata["toolCount"], &metadata["environment"]["document"]),
        (&json!("codap"), &json!(3), &json!("mammals"))
    );
    assert_eq!(metadata["tools"][1]["kind"], "edit", "MCP annotations give the kind");

    // A run's call reaches the plugin as a tool-request on its stream and comes back with its answer.
    let mut plugin = EventReader::open(&client, &session).await;
    let plugin_client = client.clone();
    let plugin_session = session.clone();
    let answering = tokio::spawn(async move {
        for _ in 0..2 {
            let (name, request) = plugin.next_events(1).await.remove(0);
            assert_eq!(name, "tool-request");
            let answer = match request["args"]["rows"].as_u64() {
                Some(rows) => json!({ "id": request["id"], "result": { "rows": rows, "tool": request["tool"] } }),
                None => json!({ "id": request["id"], "error": "rows is required" }),
            };
            let (status, _) = plugin_client.post(&plugin_session, "response", answer).await;
            assert_eq!(status, StatusCode::OK);
        }
    });
    let (_, answered) = client.post(&session, "tool-calls", json!({ "tool": "get_data", "args": { "rows": 3 } })).await;
    assert_eq!(answered, json!({ "result": { "rows": 3, "tool": "get_data" }, "updatesSeq": 3 }));
    let (_, refused) = client.post(&session, "tool-calls", json!({ "tool": "get_data", "args": {} })).await;
    assert_eq!(refused, json!({ "error": "rows is required", "updatesSeq": 3 }));
    answering.await.unwrap();
    // The watcher heard the requests too, and nothing from another session.
    relay.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn updates_made_while_no_stream_is_open_arrive_in_order_when_one_opens() {
    let relay = RunningRelay::start(0, RelayLimits::default()).await.unwrap();
    let client = Client::new(relay.address);
    let session = client.create_session().await;
    client.post(&session, "register-tools", json!({ "tools": [tool("a")] })).await;
    for name in ["b", "c"] {
        let (status, _) =
            client.post(&session, "update-tools", json!({ "toolUpdates": { "added": [tool(name)] } })).await;
        assert_eq!(status, StatusCode::OK);
    }
    let mut late = EventReader::open(&client, &session).await;
    let heard = late.next_events(3).await;
    let first_added: Vec<&str> =
        heard.iter().map(|(_, d)| d["updates"]["added"][0]["name"].as_str().unwrap()).collect();
    assert_eq!(first_added, ["a", "b", "c"]);
    relay.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_to_a_plugin_that_never_answers_or_is_not_connected_fails_in_time_whoever_watches() {
    let relay = RunningRelay::start(0, RelayLimits::default()).await.unwrap();
    let client = Client::new(relay.address);
    let session = client.create_session().await;
    client.post(&session, "register-tools", json!({ "tools": [tool("a")] })).await;
    let (_, unconnected) = client.post(&session, "tool-calls", json!({ "tool": "a", "timeoutMs": 60000 })).await;
    assert_eq!(unconnected["error"], "the plugin is not connected: it has no stream of its session open");
    // A watcher (a run, a viewer) hears the request but does not stand for the plugin.
    let mut watcher = EventReader::watch(&client, &session).await;
    let (_, watched) = client.post(&session, "tool-calls", json!({ "tool": "a", "timeoutMs": 60000 })).await;
    assert_eq!(watched["error"], unconnected["error"]);
    // First the registration, queued while no stream was open, then the request.
    let heard = watcher.next_events(2).await;
    assert_eq!((heard[1].0.as_str(), &heard[1].1["tool"]), ("tool-request", &json!("a")));
    let _silent_plugin = EventReader::open(&client, &session).await;
    let (_, silent) = client.post(&session, "tool-calls", json!({ "tool": "a", "timeoutMs": 200 })).await;
    assert_eq!(silent["error"], "the plugin gave no answer within 0.2 s");
    let (status, late) = client.post(&session, "response", json!({ "id": "NOSUCHID", "result": 1 })).await;
    assert_eq!((status, &late["error"]), (StatusCode::NOT_FOUND, &json!("unknown_request")));
    relay.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sessions_are_listed_newest_first_and_keep_their_place_as_their_plugins_update() {
    let relay = RunningRelay::start(0, RelayLimits::default()).await.unwrap();
    let client = Client::new(relay.address);
    let (older, newer) = (client.create_session().await, client.create_session().await);
    let codes = || relay.sessions.summaries().into_iter().map(|s| s.code).collect::<Vec<_>>();
    assert_eq!(codes(), [newer.code.clone(), older.code.clone()]);
    let (status, _) =
        client.post(&older, "register-tools", json!({ "pluginType": "codap", "tools": [tool("a")] })).await;
    assert_eq!(status, StatusCode::CREATED);
    let update = json!({ "toolUpdates": { "added": [tool("b")] }, "reason": "busy" });
    assert_eq!(client.post(&older, "update-tools", update).await.0, StatusCode::OK);
    assert_eq!(
        codes(),
        [newer.code.clone(), older.code.clone()],
        "a list that jumps as a plugin works is hard to read"
    );
    relay.shutdown().await;
}
