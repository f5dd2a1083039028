//! The template as an MCP server, to the official Rust SDK's client (rmcp) in both lifecycles it
//! speaks: the `initialize` handshake, where `tools/list_changed` arrives unasked, and 2026-07-28's
//! `server/discover`, where it arrives on a `subscriptions/listen` stream; over a pipe (as stdio)
//! and over streamable HTTP.

use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{CallToolRequestParams, CallToolResult, ProtocolVersion, ServerNotification, SubscriptionFilter};
use rmcp::service::{NotificationContext, RoleClient, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::{ClientHandler, ClientLifecycleMode, ClientServiceExt};
use serde_json::{json, Value};
use tokio::sync::Notify;
use unfold_documents::Scenario;
use unfold_hostlab::template_http::RunningTemplateServer;
use unfold_hostlab::{ServerBounds, TemplateServer};
use unfold_test_support::{load_template, repo};

use crate::slow_clients::{closed_by_server, short_bounds, trickled};

/// A client that says when the server's tools changed.
#[derive(Clone, Default)]
struct Listening {
    changed: Arc<Notify>,
}

impl ClientHandler for Listening {
    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        self.changed.notify_one();
    }
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap()
}

/// The task executor served with the scenario that reads `context` then searches.
fn server() -> TemplateServer {
    let template = load_template("examples/task-executor.unfold.json");
    let scenario = Scenario::load(&repo("examples/read-context-then-search.scenario.json")).unwrap();
    TemplateServer::new(template, Some(&scenario)).unwrap()
}

/// How the client reaches the server.
#[derive(Clone, Copy)]
enum Over {
    /// A pipe, as stdio.
    Pipe,
    /// Streamable HTTP on loopback.
    Http,
}

/// A client connected to its own server, and that server when it listens on HTTP.
struct Connected {
    client: RunningService<RoleClient, Listening>,
    http: Option<RunningTemplateServer>,
}

impl Connected {
    async fn close(self) {
        self.client.cancel().await.unwrap();
        if let Some(http) = self.http {
            http.shutdown().await;
        }
    }
}

async fn connected(client: Listening, lifecycle: ClientLifecycleMode, over: Over) -> Connected {
    match over {
        Over::Pipe => {
            let (server_side, client_side) = tokio::io::duplex(64 * 1024);
            let (reader, writer) = tokio::io::split(server_side);
            tokio::spawn(server().serve(reader, writer));
            Connected { client: client.serve_with_lifecycle(client_side, lifecycle).await.unwrap(), http: None }
        }
        Over::Http => {
            let http = RunningTemplateServer::start(server(), 0, None, ServerBounds::default()).await.unwrap();
            let transport = StreamableHttpClientTransport::from_uri(http.url());
            let client = client.serve_with_lifecycle(transport, lifecycle).await.unwrap();
            Connected { client, http: Some(http) }
        }
    }
}

async fn names(client: &RunningService<RoleClient, Listening>) -> Vec<String> {
    client.list_all_tools().await.unwrap().into_iter().map(|tool| tool.name.into_owned()).collect()
}

async fn call(client: &RunningService<RoleClient, Listening>, name: &str, arguments: Value) -> CallToolResult {
    let Value::Object(arguments) = arguments else { panic!("arguments are an object") };
    client.call_tool(CallToolRequestParams::new(name.to_owned()).with_arguments(arguments)).await.unwrap()
}

fn text(result: &CallToolResult) -> String {
    result.content.iter().filter_map(|block| block.as_text().map(|t| t.text.clone())).collect()
}

/// Lists, calls the hidden `search` (unknown), reads `context` (the list changes), lists again
/// and searches: what every test below does, whichever way the change is heard.
async fn read_then_search(
    client: &RunningService<RoleClient, Listening>,
    heard: impl std::future::Future<Output = ()>,
) {
    assert_eq!(names(client).await, ["lookup", "read_section"]);
    let hidden = call(client, "search", json!({ "query": "tokens" })).await;
    assert_eq!((hidden.is_error, text(&hidden)), (Some(true), "Unknown tool: 'search'".to_owned()));
    let read = call(client, "read_section", json!({ "section_key": "context" })).await;
    let read: Value = serde_json::from_str(&text(&read)).unwrap();
    assert_eq!(read["expanded_tools"], json!(["search", "cite"]));
    tokio::time::timeout(Duration::from_secs(10), heard).await.expect("tools/list_changed arrives");
    assert_eq!(names(client).await, ["lookup", "search", "cite", "read_section"]);
    let searched = call(client, "search", json!({ "query": "tokens" })).await;
    assert_eq!(searched.is_error, Some(false));
    assert!(!text(&searched).is_empty(), "the mock answers");
}

async fn an_initialize_client_hears_the_list_change_a_read_makes(over: Over) {
    let listening = Listening::default();
    let changed = listening.changed.clone();
    let connected = connected(listening, ClientLifecycleMode::Initialize, over).await;
    read_then_search(&connected.client, changed.notified()).await;
    connected.close().await;
}

async fn a_2026_client_hears_it_on_its_subscription(over: Over) {
    let lifecycle = ClientLifecycleMode::Discover { preferred_versions: vec![ProtocolVersion::V_2026_07_28] };
    let connected = connected(Listening::default(), lifecycle, over).await;
    let client = &connected.client;
    let mut subscription = client.listen(SubscriptionFilter::builder().tools_list_changed().build()).await.unwrap();
    assert_eq!(subscription.acknowledged(), &SubscriptionFilter::builder().tools_list_changed().build());
    let heard = async {
        let notification = subscription.next().await.unwrap().expect("a notification");
        assert!(matches!(notification, ServerNotification::ToolListChangedNotification(_)));
    };
    read_then_search(client, heard).await;
    drop(subscription);
    connected.close().await;
}

#[test]
fn an_initialize_client_hears_the_list_change_a_read_makes_over_a_pipe() {
    runtime().block_on(an_initialize_client_hears_the_list_change_a_read_makes(Over::Pipe));
}

#[test]
fn an_initialize_client_hears_it_over_http_on_the_calls_own_stream() {
    runtime().block_on(an_initialize_client_hears_the_list_change_a_read_makes(Over::Http));
}

#[test]
fn a_2026_client_hears_it_on_its_subscription_over_a_pipe() {
    runtime().block_on(a_2026_client_hears_it_on_its_subscription(Over::Pipe));
}

#[test]
fn a_2026_client_hears_it_on_its_subscription_over_http() {
    runtime().block_on(a_2026_client_hears_it_on_its_subscription(Over::Http));
}

#[test]
fn over_http_a_trickled_body_is_refused_while_a_host_lists_and_half_sent_headers_are_closed() {
    use tokio::io::AsyncWriteExt;
    runtime().block_on(async {
        let http = RunningTemplateServer::start(server(), 0, None, short_bounds()).await.unwrap();
        let mut half = tokio::net::TcpStream::connect(http.address).await.unwrap();
        half.write_all(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n").await.unwrap();

        let initialize = json!({ "jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": { "name": "t", "version": "1" } } })
        .to_string();
        let trickling = trickled(http.address, "/mcp", &initialize);
        let host = async {
            let transport = StreamableHttpClientTransport::from_uri(http.url());
            let client = Listening::default().serve_with_lifecycle(transport, ClientLifecycleMode::Initialize).await;
            let client = client.unwrap();
            let listed = names(&client).await;
            client.cancel().await.unwrap();
            listed
        };
        let ((sent_whole, answer), listed) = tokio::join!(trickling, host);
        assert!(!sent_whole, "the server waited for a body sent slower than its bound");
        assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
        assert!(answer.contains(r#""jsonrpc":"2.0""#), "a JSON-RPC error: {answer}");
        assert_eq!(listed, ["lookup", "read_section"], "the host was answered meanwhile");
        assert!(closed_by_server(&mut half).await, "headers never finished are closed");
        http.shutdown().await;
    });
}
