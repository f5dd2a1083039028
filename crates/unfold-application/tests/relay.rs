//! The app's own relay: started, its sessions listed as a real plugin (the example, in Python)
//! registers, a comparison attached to a session sees the plugin change its tools mid-run, every
//! event reaches the app's live log, and stopping frees the port.

use std::io::BufRead;
use std::process::{Child, Command, Stdio};

use unfold_application::comparisons::{self, ComparedDocuments, ComparisonModel};
use unfold_application::prices::PriceFile;
use unfold_application::relay::RelayService;
use unfold_application::run_history::OpenRunHistory;
use unfold_application::sources::SourceAccess;
use unfold_documents::{Scenario, Template};
use unfold_engine::compare::CompareControl;
use unfold_engine::{AdapterKind, EventKind};

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
    let service = RelayService::default();
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
    let template = Template::load(&template_path).unwrap();
    let scenario = Scenario::load(&scenario_path).unwrap();
    let documents = ComparedDocuments {
        template: &template,
        template_path: Some(&template_path),
        scenario: &scenario,
        scenario_path: Some(&scenario_path),
    };
    let access = SourceAccess { relay: Some(service.attach(&code).unwrap()), ..SourceAccess::default() };
    let model = ComparisonModel::Scripted { adapters: vec![AdapterKind::Dynamic], price_as: None };
    let never = std::sync::atomic::AtomicBool::new(false);
    let history = OpenRunHistory::open(None);
    let kept = runtime
        .block_on(comparisons::compare_with_consent_and_keep(
            documents,
            model,
            &access,
            &PriceFile(None),
            CompareControl { observer: &mut |_| {}, cancel: &never, keep_requests: false },
            &history,
        ))
        .unwrap();
    let dynamic = &kept.comparison.report.runs[0];
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
