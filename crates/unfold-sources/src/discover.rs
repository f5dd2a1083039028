//! Discovery (spec 8): each allowed MCP source started and listed (tier 1), falling back to its
//! snapshot (tier 2) or nothing (tier 3) with the reason, so a source never fails a run. The
//! connections stay open for the run's calls and list changes; the caller shuts them down.

use std::path::Path;
use std::time::Duration;

use unfold_documents::discovery::{Discovery, Tier};
use unfold_documents::Template;

use crate::consent::Consent;
use crate::mcp::McpConnection;

/// How long a source has to start and to answer a list.
pub const DISCOVERY_TIMEOUT: Duration = Duration::from_secs(30);

/// The discoveries of `template`'s sources, in their order, with the connections of those that
/// started (by source name). Only what `consent` allows is started.
pub async fn discover(
    template: &Template,
    template_dir: &Path,
    consent: &Consent,
    user_env: &(dyn Fn(&str) -> Option<String> + Sync),
    timeout: Duration,
) -> (Vec<Discovery>, Vec<(String, McpConnection)>) {
    let mut discoveries = Vec::with_capacity(template.sources.len());
    let mut connections = Vec::new();
    for source in &template.sources {
        let Some(server) = &source.mcp else {
            discoveries.push(Discovery::offline(source));
            continue;
        };
        if let Some(refusal) = consent.refusal(source) {
            let mut offline = Discovery::offline(source);
            // Not being asked to start is the usual case: its offline reason says enough.
            if consent.start {
                offline.error = Some(refusal);
            }
            discoveries.push(offline);
            continue;
        }
        let listed = async {
            let connection = McpConnection::start(server, template_dir, user_env, timeout).await?;
            match connection.list_tools(timeout).await {
                Ok(tools) => Ok((connection, tools)),
                Err(error) => {
                    connection.shutdown().await;
                    Err(error)
                }
            }
        };
        match listed.await {
            Ok((connection, tools)) => {
                discoveries.push(Discovery { source: source.name.clone(), tier: Tier::Live, tools, error: None });
                connections.push((source.name.clone(), connection));
            }
            Err(error) => {
                tracing::warn!(source = source.name, %error, "a tool source was not listed");
                let mut fallback = Discovery::offline(source);
                fallback.error = Some(format!("the live list failed: {error}"));
                discoveries.push(fallback);
            }
        }
    }
    (discoveries, connections)
}
