//! The host lab's servers (spec 13), their files loaded and checked here and served by
//! `unfold_hostlab`: `unfold mcp serve`, a template served to an agent host over MCP (its tools,
//! revealed as the host reads sections, answered from the scenario or, when the user allowed
//! them, its sources), and `unfold model serve`, the
//! scripted model endpoint; each logs what the host sends if asked.

use std::path::Path;

use std::future::Future;
use std::net::SocketAddr;
use unfold_documents::discovery::Discovery;
use unfold_documents::{Scenario, Template};
use unfold_engine::ToolSources;

use unfold_hostlab::model_endpoint::RunningEndpoint;
use unfold_hostlab::served_sources::ServedSources;
use unfold_hostlab::template_http::RunningTemplateServer;
use unfold_hostlab::{MessageLog, ServerBounds, TemplateServer};

use crate::error::{AppError, AppResult, ErrorCode};
use crate::sources::SourceReach;

/// A template to serve: its file, the scenario whose parameters and tool results it answers
/// with, where what the host sends is logged, and what of its sources it may reach.
#[derive(Debug, Clone, Copy)]
pub struct ServedTemplate<'a> {
    /// The template file.
    pub template: &'a Path,
    /// The scenario file.
    pub scenario: Option<&'a Path>,
    /// Where every message the host sends is logged (JSON lines).
    pub log: Option<&'a Path>,
    /// What the user allowed of the template's sources: with none, the sources give their
    /// snapshots and their tools answer from the scenario like the others.
    pub reach: &'a SourceReach,
}

/// Serves `served` over stdin and stdout until the host closes them; `discovered` hears what
/// each source gave before the first message is answered.
pub async fn serve_template_over_stdio(
    served: ServedTemplate<'_>,
    discovered: impl FnOnce(&[Discovery]),
) -> AppResult<()> {
    let (server, log) = template_server(served, discovered).await?;
    let result = server.clone().serve_stdio(log.clone()).await.map_err(hostlab_error);
    finish(&server, log).await;
    result
}

/// Serves `served` over MCP's streamable HTTP at `http://127.0.0.1:PORT/mcp` (`port` 0: any
/// free port) until `stop`, as [`serve_template_over_stdio`] serves it; `listening` hears the
/// URL once it listens.
pub async fn serve_template_over_http(
    served: ServedTemplate<'_>,
    discovered: impl FnOnce(&[Discovery]),
    port: u16,
    listening: impl FnOnce(&str),
    stop: impl Future<Output = ()>,
) -> AppResult<()> {
    let (server, log) = template_server(served, discovered).await?;
    let running = match RunningTemplateServer::start(server.clone(), port, log.clone(), ServerBounds::default()).await {
        Ok(running) => running,
        Err(error) => {
            finish(&server, log).await;
            return Err(cannot_listen("the template server", port, &error));
        }
    };
    listening(&running.url());
    stop.await;
    running.shutdown().await;
    finish(&server, log).await;
    Ok(())
}

/// The server of `served`, its sources started when the user allowed them, and its log.
async fn template_server(
    served: ServedTemplate<'_>,
    discovered: impl FnOnce(&[Discovery]),
) -> AppResult<(TemplateServer, Option<MessageLog>)> {
    let template = Template::load(served.template).map_err(AppError::invalid_as(ErrorCode::InvalidTemplate))?;
    let scenario =
        served.scenario.map(Scenario::load).transpose().map_err(AppError::invalid_as(ErrorCode::InvalidScenario))?;
    let log = served.log.map(MessageLog::create).transpose().map_err(hostlab_error)?;
    if !served.reach.reaches(&template) {
        discovered(&template.offline_discoveries());
        let server = TemplateServer::new(template.offline_view().into_owned(), scenario.as_ref());
        return Ok((server.map_err(hostlab_error)?, log));
    }
    served.reach.check_relay().await?;
    let (discoveries, mut host) = served.reach.sources(Some(served.template)).open(&template).await;
    let (seen, applied) = template.with_discovered(discoveries);
    discovered(&applied);
    match TemplateServer::new(seen, scenario.as_ref()) {
        Ok(server) => Ok((server.with_sources(ServedSources::new(host, &applied)), log)),
        Err(error) => {
            host.close().await;
            Err(hostlab_error(error))
        }
    }
}

/// Closes the server's sources and its log.
async fn finish(server: &TemplateServer, log: Option<MessageLog>) {
    server.close_sources().await;
    if let Some(log) = log {
        log.finish();
    }
}

fn cannot_listen(server: &str, port: u16, error: &std::io::Error) -> AppError {
    AppError::new(ErrorCode::Unavailable, format!("{server} cannot listen on 127.0.0.1:{port}: {error}"))
}

/// Serves the scripted model endpoint of the scenario at `scenario` on 127.0.0.1:`port` (0: any
/// free port) until `stop`; `listening` hears where once it listens. Every request it answers is
/// logged to `log` (JSON lines), when given.
pub async fn serve_model_endpoint(
    scenario: &Path,
    port: u16,
    log: Option<&Path>,
    listening: impl FnOnce(SocketAddr),
    stop: impl Future<Output = ()>,
) -> AppResult<()> {
    let scenario = Scenario::load(scenario).map_err(AppError::invalid_as(ErrorCode::InvalidScenario))?;
    let log = log.map(MessageLog::create).transpose().map_err(hostlab_error)?;
    let endpoint = RunningEndpoint::start(&scenario, port, log.clone(), ServerBounds::default())
        .await
        .map_err(|error| cannot_listen("the model endpoint", port, &error))?;
    listening(endpoint.address);
    stop.await;
    endpoint.shutdown().await;
    if let Some(log) = log {
        log.finish();
    }
    Ok(())
}

/// The host lab's error as the fronts read it.
pub(crate) fn hostlab_error(error: unfold_hostlab::Error) -> AppError {
    match error {
        unfold_hostlab::Error::Launch { .. } => AppError::new(ErrorCode::Unavailable, error.to_string()),
        unfold_hostlab::Error::Document(error) => AppError::invalid_as(ErrorCode::InvalidTemplate)(error),
        unfold_hostlab::Error::Log { .. } => AppError::new(ErrorCode::UnreadableFile, error.to_string()),
        unfold_hostlab::Error::Session(_) => AppError::new(ErrorCode::Internal, error.to_string()),
    }
}
