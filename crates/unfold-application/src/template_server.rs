//! `unfold mcp serve` (spec 13): a template served to an agent host over MCP, loaded and checked
//! here, served by `unfold_hostlab`: its tools, revealed as the host reads sections, answered from
//! the scenario, with every message the host sends logged if asked.

use std::path::Path;

use unfold_documents::{Scenario, Template};
use unfold_hostlab::{MessageLog, TemplateServer};

use crate::error::{AppError, AppResult, ErrorCode};

/// Serves the template at `template` over stdin and stdout until the host closes them, with the
/// parameters and tool results of the scenario at `scenario`; every message the host sends is
/// logged to `log` (JSON lines), when given.
pub async fn serve_template_over_stdio(template: &Path, scenario: Option<&Path>, log: Option<&Path>) -> AppResult<()> {
    let loaded = Template::load(template).map_err(AppError::invalid_as(ErrorCode::InvalidTemplate))?;
    let scenario =
        scenario.map(Scenario::load).transpose().map_err(AppError::invalid_as(ErrorCode::InvalidScenario))?;
    let log = log.map(MessageLog::create).transpose().map_err(hostlab_error)?;
    let server = TemplateServer::new(loaded, scenario.as_ref()).map_err(hostlab_error)?;
    let served = server.serve_stdio(log.clone()).await.map_err(hostlab_error);
    if let Some(log) = log {
        log.finish();
    }
    served
}

fn hostlab_error(error: unfold_hostlab::Error) -> AppError {
    match error {
        unfold_hostlab::Error::Document(error) => AppError::invalid_as(ErrorCode::InvalidTemplate)(error),
        unfold_hostlab::Error::Log { .. } => AppError::new(ErrorCode::UnreadableFile, error.to_string()),
        unfold_hostlab::Error::Session(_) => AppError::new(ErrorCode::Internal, error.to_string()),
    }
}
