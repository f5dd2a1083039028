//! The host lab's servers (spec 13), their files loaded and checked here and served by
//! `unfold_hostlab`: `unfold mcp serve`, a template served to an agent host over MCP (its tools,
//! revealed as the host reads sections, answered from the scenario), and `unfold model serve`, the
//! scripted model endpoint; each logs what the host sends if asked.

use std::path::Path;

use std::future::Future;
use std::net::SocketAddr;
use unfold_documents::{Scenario, Template};

use unfold_hostlab::model_endpoint::RunningEndpoint;
use unfold_hostlab::template_http::RunningTemplateServer;
use unfold_hostlab::{MessageLog, ServerBounds, TemplateServer};

use crate::error::{AppError, AppResult, ErrorCode};

/// Serves the template at `template` over stdin and stdout until the host closes them, with the
/// parameters and tool results of the scenario at `scenario`; every message the host sends is
/// logged to `log` (JSON lines), when given.
pub async fn serve_template_over_stdio(template: &Path, scenario: Option<&Path>, log: Option<&Path>) -> AppResult<()> {
    let (server, log) = template_server(template, scenario, log)?;
    let served = server.serve_stdio(log.clone()).await.map_err(hostlab_error);
    if let Some(log) = log {
        log.finish();
    }
    served
}

/// Serves the template at `template` over MCP's streamable HTTP at
/// `http://127.0.0.1:PORT/mcp` (`port` 0: any free port) until `stop`, as
/// [`serve_template_over_stdio`] serves it; `listening` hears the URL once it listens.
pub async fn serve_template_over_http(
    template: &Path,
    scenario: Option<&Path>,
    log: Option<&Path>,
    port: u16,
    listening: impl FnOnce(&str),
    stop: impl Future<Output = ()>,
) -> AppResult<()> {
    let (server, log) = template_server(template, scenario, log)?;
    let running = RunningTemplateServer::start(server, port, log.clone(), ServerBounds::default())
        .await
        .map_err(|error| cannot_listen("the template server", port, &error))?;
    listening(&running.url());
    stop.await;
    running.shutdown().await;
    if let Some(log) = log {
        log.finish();
    }
    Ok(())
}

/// The server of the template at `template`, with the scenario at `scenario`, and its log.
fn template_server(
    template: &Path,
    scenario: Option<&Path>,
    log: Option<&Path>,
) -> AppResult<(TemplateServer, Option<MessageLog>)> {
    let loaded = Template::load(template).map_err(AppError::invalid_as(ErrorCode::InvalidTemplate))?;
    let scenario =
        scenario.map(Scenario::load).transpose().map_err(AppError::invalid_as(ErrorCode::InvalidScenario))?;
    let log = log.map(MessageLog::create).transpose().map_err(hostlab_error)?;
    let server = TemplateServer::new(loaded, scenario.as_ref()).map_err(hostlab_error)?;
    Ok((server, log))
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
