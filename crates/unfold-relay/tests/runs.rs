//! Runs attached to a session: a template's relay source takes the session's tools as tier 1, a
//! call to a plugin's tool reaches the plugin and comes back, and the plugin's update made before
//! it answered is applied before the next model call — injected by the dynamic adapter, a restart
//! for the restart adapter. A plugin task answers over the same real sockets a plugin would use.

use std::time::Duration;

use serde_json::{json, Value};
use unfold_documents::Template;
use unfold_engine::{
    adapter_for, run_with_host, AdapterKind, RunInput, ScriptedProvider, ScriptedToolResults, ToolSources,
};
use unfold_relay::attached::{RelaySession, RelaySources};
use unfold_relay::{RelayLimits, RunningRelay};

use crate::client::{Client, EventReader, Session};

fn tool(name: &str, description: &str) -> Value {
    json!({ "name": name, "description": description, "parameters": { "type": "object" } })
}

/// The example with a `codap` relay source on the template's own tools.
fn template() -> Template {
    let mut template = unfold_test_support::load_template("examples/task-executor.unfold.json");
    template.sources =
        serde_json::from_value(json!([{ "name": "codap", "section": null, "relay": { "plugin": "codap" } }])).unwrap();
    Template::from_json(template.to_json().as_bytes()).unwrap()
}

/// A plugin that registers `open_table` and, asked to open one, adds `plot` before it answers.
async fn plugin(client: Client, session: Session) {
    // Its stream first, so that once its tools are registered it hears every request.
    let mut requests = EventReader::open(&client, &session).await;
    let (status, _) = client
        .post(
            &session,
            "register-tools",
            json!({ "pluginType": "codap", "tools": [tool("open_table", "Open a table.")] }),
        )
        .await;
    assert_eq!(status, reqwest::StatusCode::CREATED);
    loop {
        let (name, request) = requests.next_events(1).await.remove(0);
        if name != "tool-request" {
            continue;
        }
        let result = match request["tool"].as_str() {
            Some("open_table") => {
                let update = json!({ "toolUpdates": { "added": [tool("plot", "Plot a column.")] }, "reason": "a table is open" });
                client.post(&session, "update-tools", update).await;
                json!("table 'mammals' is open")
            }
            _ => json!("plotted"),
        };
        client.post(&session, "response", json!({ "id": request["id"], "result": result })).await;
    }
}

async fn attached_run(relay: &RunningRelay, session: &Session, kind: AdapterKind) -> String {
    attached_run_waiting(relay, session, kind, Duration::from_secs(20)).await
}

/// [`attached_run`], a call waiting `call_timeout` for the plugin.
async fn attached_run_waiting(
    relay: &RunningRelay,
    session: &Session,
    kind: AdapterKind,
    call_timeout: Duration,
) -> String {
    let template = template();
    let scenario = unfold_test_support::scenario(json!({ "script": [
        { "call": "open_table", "args": {} },
        { "call": "plot", "args": {} },
        { "say": "Plotted." }
    ]}));
    let attachment = RelaySession {
        relay: format!("http://{}", relay.address),
        code: session.code.clone(),
        token: session.token.clone(),
        call_timeout,
    };
    let mut sources = RelaySources::new(attachment);
    let (discoveries, mut host) = sources.open(&template).await;
    let (seen, discoveries) = template.with_discovered(discoveries);
    let input = RunInput { discoveries: &discoveries, ..RunInput::of_scenario(&seen, &scenario) };
    let mut model = ScriptedProvider::new(&scenario, &seen);
    let mut results = ScriptedToolResults::new(&scenario);
    let report = run_with_host(&input, adapter_for(kind), &mut model, &mut results, Some(host.as_mut()), &mut |_| {})
        .await
        .unwrap();
    host.close().await;
    unfold_test_support::trace(&report)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_plugins_update_before_its_answer_is_injected_or_restarted_for_before_the_next_call() {
    let relay = RunningRelay::start(0, RelayLimits::default()).await.unwrap();
    let client = Client::new(relay.address);
    for (kind, expected) in [
        (AdapterKind::Dynamic, vec!["  injected [plot] from plugin", "  plot {} -> ok \"plotted\""]),
        (
            AdapterKind::Restart,
            vec!["RESTART tool_availability_changed [] -> attempt 2", "  plot {} -> ok \"plotted\""],
        ),
    ] {
        // A session of its own for each run: the plugin's tools change with the conversation.
        let session = client.create_session().await;
        let plugin = tokio::spawn(plugin(client.clone(), session.clone()));
        // Its tools registered means its stream is open: the run may start.
        let mut registered = false;
        for _ in 0..2000 {
            registered = client.get(&session, "metadata").await.1["toolCount"] == 1;
            if registered {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        assert!(registered, "the plugin registered its tools");
        let trace = attached_run(&relay, &session, kind).await;
        assert!(trace.starts_with("discovered codap live [open_table]"), "{trace}");
        assert!(trace.contains("  open_table {} -> ok \"table 'mammals' is open\""), "{trace}");
        assert!(trace.contains("tools changed before call 2 (codap): +[plot] -[]"), "{trace}");
        for line in expected {
            assert!(trace.contains(line), "{kind:?}: {line}\n{trace}");
        }
        assert!(trace.ends_with("completed \"Plotted.\""), "{trace}");
        plugin.abort();
    }
    relay.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_without_the_named_plugin_or_a_relay_that_is_gone_gives_the_snapshot_with_the_reason() {
    let relay = RunningRelay::start(0, RelayLimits::default()).await.unwrap();
    let client = Client::new(relay.address);
    let session = client.create_session().await;
    client.post(&session, "register-tools", json!({ "pluginType": "sheets", "tools": [tool("a", "A.")] })).await;
    let attachment = |relay: String| RelaySession {
        relay,
        code: session.code.clone(),
        token: session.token.clone(),
        call_timeout: Duration::from_secs(5),
    };
    let (discoveries, _) = RelaySources::new(attachment(format!("http://{}", relay.address))).open(&template()).await;
    assert_eq!(
        discoveries[0].error.as_deref(),
        Some(
            format!(
                "session {} holds sheets, not the plugin 'codap'; not started, and it has no snapshot",
                session.code
            )
            .as_str()
        )
    );
    let address = relay.address;
    relay.shutdown().await;
    let (discoveries, _) = RelaySources::new(attachment(format!("http://{address}"))).open(&template()).await;
    let why = discoveries[0].error.as_deref().unwrap_or_default();
    assert!(why.starts_with(&format!("the relay at http://{address} is not reachable")), "{why}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_plugin_that_stays_silent_or_vanished_is_a_failed_tool_result_and_the_run_goes_on() {
    let relay = RunningRelay::start(0, RelayLimits::default()).await.unwrap();
    let client = Client::new(relay.address);
    let session = client.create_session().await;
    // Registered, its stream open, and never an answer.
    let stream = EventReader::open(&client, &session).await;
    let registered = json!({ "pluginType": "codap", "tools": [tool("open_table", "Open a table.")] });
    assert_eq!(client.post(&session, "register-tools", registered).await.0, reqwest::StatusCode::CREATED);
    let silent = attached_run_waiting(&relay, &session, AdapterKind::Dynamic, Duration::from_millis(300)).await;
    assert!(
        silent.contains("  open_table {} -> failed \"The plugin failed: the plugin gave no answer within 0.3 s\""),
        "{silent}"
    );
    assert!(silent.ends_with("completed \"Plotted.\""), "{silent}");

    drop(stream);
    let open_streams = || relay.sessions.summaries()[0].streams;
    for _ in 0..2000 {
        if open_streams() == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(open_streams(), 0, "the relay saw the plugin go");
    let vanished = attached_run(&relay, &session, AdapterKind::Restart).await;
    assert!(
        vanished.contains("  open_table {} -> failed \"The plugin failed: the plugin is not connected"),
        "{vanished}"
    );
    assert!(vanished.ends_with("completed \"Plotted.\""), "{vanished}");
    relay.shutdown().await;
}
