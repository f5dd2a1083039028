//! The app's own relay: started, its sessions listed as a real plugin (the example, in Python)
//! registers, a comparison attached to a session sees the plugin change its tools mid-run, every
//! event reaches the app's live log, and stopping frees the port.

use std::io::BufRead;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;

use unfold_application::comparisons::{
    ComparisonContext, ComparisonRequest, Comparisons, DocumentRef, RelayAttachment,
};
use unfold_application::relay::RelayService;
use unfold_engine::EventKind;

/// The example plugin, started against `relay`, with the session code it printed once ready.
fn plugin(relay: &str) -> (Child, String) {
    let script = unfold_test_support::repo("examples/relay-plugin/table_plugin.py");
    let mut child = Command::new("python3").arg(script).arg(relay).stdout(Stdio::piped()).spawn().unwrap();
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.as_mut().unwrap()).read_line(&mut line).unwrap();
    let session: serde_json::Value = serde_json::from_str(&line).unwrap();
    (child, session["code"].as_str().unwrap().to_owned())
}

#[test]
fn the_apps_relay_lists_a_plugins_session_and_a_comparison_attached_to_it_sees_its_change() {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let service = Arc::new(RelayService::default());
    assert_eq!(service.status().listening, None);
    assert_eq!(service.attach("ANYCODE2").unwrap_err().message, "the relay is not running: start it first");
    let status = runtime.block_on(service.start(0)).unwrap();
    let relay = status.listening.expect("listening");
    assert!(relay.starts_with("http://127.0.0.1:"), "{relay}");

    let (mut child, code) = plugin(&relay);
    let listed = service.status();
    let session = listed.sessions.iter().find(|s| s.code == code).expect("the plugin's session");
    assert_eq!(session.plugin_type.as_deref(), Some("tables"));
    assert_eq!(session.tools.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), ["open_table"]);
    assert_eq!(session.streams, 1, "the plugin's stream");

    let mut log = service.observe().expect("a live log while running");
    let template_path = unfold_test_support::repo("examples/relay-plugin/tables.unfold.json");
    let scenario_path = unfold_test_support::repo("examples/relay-plugin/plot.scenario.json");
    let comparisons = Comparisons::new(ComparisonContext {
        relay: Some(Arc::clone(&service)),
        ..crate::comparisons::context(crate::comparisons::no_history())
    });
    let request = ComparisonRequest {
        relay_session: Some(RelayAttachment { code: code.clone(), relay: None, token: None }),
        ..ComparisonRequest::scripted(
            DocumentRef::File(template_path),
            DocumentRef::File(scenario_path),
            vec!["dynamic".to_owned()],
        )
    };
    let kept = runtime.block_on(comparisons.run(request, crate::comparisons::deaf())).unwrap();
    let dynamic = &kept.report.runs[0];
    let injected: Vec<&Vec<String>> = dynamic
        .events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::ToolsInjected { tool_names, .. } => Some(tool_names),
            _ => None,
        })
        .collect();
    assert_eq!(injected, [&vec!["plot_column".to_owned()]]);

    let logged: Vec<(String, unfold_relay::sessions::StreamEvent)> = std::iter::from_fn(|| log.try_recv()).collect();
    assert!(logged.iter().all(|(logged_code, _)| *logged_code == code));
    let names: Vec<&str> = logged.iter().map(|(_, event)| event.name).collect();
    assert_eq!(names[0], "tool-request", "the run's first call, as the plugin heard it: {names:?}");
    let update = logged.iter().find(|(_, e)| e.name == "tool-availability-update").expect("the plugin's update");
    assert_eq!(update.1.data["updates"]["added"][0]["name"], "plot_column");
    assert_eq!(service.attach("NOSUCHCD").unwrap_err().message, "the relay has no session 'NOSUCHCD'");

    child.kill().unwrap();
    child.wait().unwrap();
    let address = relay.trim_start_matches("http://").to_owned();
    assert_eq!(runtime.block_on(service.stop()).listening, None);
    assert!(std::net::TcpStream::connect(address).is_err(), "the port is free once stopped");
}
