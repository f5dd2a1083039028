//! One run of a real agent host against a template and a scenario (spec 13, `unfold host run`):
//! the run's folder (the template and the scenario as run, the host's throwaway home, the Python
//! driver), the scripted model endpoint on a free port, the host launched as allowed with the
//! endpoint and the MCP server in its environment, both as a command (the host starts the server
//! over stdio, which logs beside it) and as a URL (the same template served over streamable HTTP,
//! logging to a file of its own), the host's process run to its end ([`host_process`]), and the
//! logs told as a run ([`Recording`]).
//!
//! [`host_process`]: crate::host_process

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use unfold_documents::{Scenario, Template};
use unfold_engine::compare::CallRequest;
use unfold_engine::{ModelResponse, RealHost, RunReport, Session};

use crate::forwarding::Upstream;
use crate::host_process::run_to_end;
use crate::hosts::{self, Host, Launch};
use crate::message_log::busy_time;
use crate::model_endpoint::{Answering, RunningEndpoint};
use crate::recording::{HostOutcome, Recording};
use crate::template_http::RunningTemplateServer;
use crate::{Error, MessageLog, ServerBounds, TemplateServer};

/// The model endpoint's log in a run's folder.
pub const MODEL_LOG: &str = "model.jsonl";
/// The template server's log in a run's folder.
pub const MCP_LOG: &str = "mcp.jsonl";
/// The log of the template served over HTTP, in a run's folder.
pub const MCP_HTTP_LOG: &str = "mcp-http.jsonl";

/// What one host run needs.
#[derive(Debug, Clone)]
pub struct HostRunPlan<'a> {
    /// The host.
    pub host: Host,
    /// Its version, when known.
    pub version: Option<String>,
    /// How it is started, as the user allowed it.
    pub launch: &'a Launch,
    /// The template.
    pub template: &'a Template,
    /// The scenario.
    pub scenario: &'a Scenario,
    /// The program (and its first arguments) that takes `mcp serve TEMPLATE …`: Unfold's own.
    pub server: &'a [String],
    /// The run's folder: created, and left with the recording in it.
    pub folder: &'a Path,
    /// How long the host may run.
    pub timeout: Duration,
    /// Set to stop the host before it ends.
    pub cancel: Option<&'a AtomicBool>,
    /// The real model each request is forwarded to (a live host); none: the script answers.
    pub upstream: Option<Arc<dyn Upstream>>,
    /// The answers of a fork's recording (spec 15), given before the model answers; the fork's
    /// results are in `scenario`.
    pub recorded: &'a [ModelResponse],
}

/// A host's run: the run its recording tells, and each request it sent its model.
#[derive(Debug, Clone)]
pub struct HostRun {
    /// The run.
    pub report: RunReport,
    /// Each request of the conversation, verbatim, with its answer.
    pub calls: Vec<CallRequest>,
    /// How long the run took, from its folder made to its servers stopped.
    pub wall: Duration,
    /// How long Unfold's servers (the endpoint, the template server) worked on the host's
    /// requests, all told: Unfold's share of `wall`.
    pub servers_busy: Duration,
}

/// Runs `plan`'s host once, into the run its recording tells.
pub async fn run_host(plan: HostRunPlan<'_>) -> Result<HostRun, Error> {
    let started = Instant::now();
    let folder = plan.folder;
    let in_folder = |source: std::io::Error| Error::Log { path: folder.to_owned(), source };
    std::fs::create_dir_all(folder.join("home")).map_err(in_folder)?;
    let template_file = folder.join("template.unfold.json");
    let scenario_file = folder.join("scenario.scenario.json");
    std::fs::write(&template_file, plan.template.to_json()).map_err(in_folder)?;
    std::fs::write(&scenario_file, plan.scenario.to_json()).map_err(in_folder)?;
    if plan.host.is_python() {
        std::fs::write(folder.join(hosts::PYTHON_DRIVER_FILE), hosts::PYTHON_DRIVER).map_err(in_folder)?;
    }
    let system = Session::owning(plan.template.clone(), plan.scenario.params.clone())?.render()?.markdown;
    let user_turns = plan.scenario.user_turns();
    let user_messages = serde_json::to_string(&user_turns).unwrap_or_default();
    let mcp_log = folder.join(MCP_LOG);
    let command = serve_command(plan.server, &template_file, &scenario_file, &mcp_log);
    let (program, args) = command.split_first().map_or(("", &[][..]), |(program, args)| (program.as_str(), args));
    let mcp_command = serde_json::to_string(&command).unwrap_or_default();
    let (mcp_program, mcp_args) =
        (serde_json::Value::from(program).to_string(), serde_json::to_string(args).unwrap_or_default());
    let user_message = user_turns.first().cloned().unwrap_or_default();

    let model_log = MessageLog::create(&folder.join(MODEL_LOG))?;
    let model = match plan.upstream.clone() {
        Some(upstream) => Answering::forwarded(upstream),
        None => Answering::script(plan.scenario),
    };
    let answering = model.after(plan.recorded.to_vec());
    let endpoint = RunningEndpoint::serve(answering, 0, Some(model_log.clone()), ServerBounds::default())
        .await
        .map_err(in_folder)?;
    let port = endpoint.address.port().to_string();
    let http_log = MessageLog::create(&folder.join(MCP_HTTP_LOG))?;
    let server = TemplateServer::new(plan.template.clone(), Some(plan.scenario))?;
    let http = RunningTemplateServer::start(server, 0, Some(http_log.clone()), ServerBounds::default())
        .await
        .map_err(in_folder)?;
    let mcp_port = http.address.port().to_string();
    let path = std::env::var("PATH").unwrap_or_default();
    let folder_text = folder.display().to_string();
    let launch = plan.launch.filled(&[
        (hosts::RUN_FOLDER, &folder_text),
        (hosts::PORT, &port),
        (hosts::USER_PATH, &path),
        (hosts::SYSTEM_PROMPT, &system),
        (hosts::USER_MESSAGES, &user_messages),
        (hosts::USER_MESSAGE, &user_message),
        (hosts::MCP_COMMAND, &mcp_command),
        (hosts::MCP_PROGRAM, &mcp_program),
        (hosts::MCP_ARGS, &mcp_args),
        (hosts::MCP_PORT, &mcp_port),
    ]);
    for (relative, content) in &launch.files {
        let file = folder.join(relative);
        if let Some(parent) = file.parent() {
            std::fs::create_dir_all(parent).map_err(in_folder)?;
        }
        std::fs::write(&file, content).map_err(in_folder)?;
    }
    tracing::info!(host = plan.host.name, folder = %folder.display(), "host run started");
    let outcome = run_to_end(&launch, folder, plan.timeout, plan.cancel).await;
    endpoint.shutdown().await;
    http.shutdown().await;
    model_log.finish();
    http_log.finish();
    let outcome = outcome.map_err(|source| Error::Launch { program: launch.program.clone(), source })?;
    let wall = started.elapsed();

    let read = |file: PathBuf| Recording::entries(&std::fs::read_to_string(file).unwrap_or_default());
    let mut mcp = read(mcp_log);
    mcp.extend(read(folder.join(MCP_HTTP_LOG)));
    // A host uses one of the two servers; were it to use both, their messages interleave in time.
    mcp.sort_by_key(|entry| entry["at_unix_ms"].as_u64());
    let recording = Recording { model: read(folder.join(MODEL_LOG)), mcp };
    let servers_busy = busy_time(&recording.model) + busy_time(&recording.mcp);
    let succeeded = outcome.ended.succeeded();
    let failure = (!succeeded).then(|| {
        let why = format!("{} {}", plan.host.name, outcome.ended);
        match outcome.stderr_tail.is_empty() {
            true => why,
            false => format!("{why}: {}", outcome.stderr_tail),
        }
    });
    let host = RealHost {
        name: plan.host.name.to_owned(),
        version: plan.version.clone(),
        ended: outcome.ended.to_string(),
        side_requests: 0,
    };
    let report = recording.run_report(&plan.template.key, HostOutcome { host, succeeded, failure });
    Ok(HostRun { report, calls: recording.calls(), wall, servers_busy })
}

/// The command that serves the template over stdio and logs to `log`.
fn serve_command(server: &[String], template: &Path, scenario: &Path, log: &Path) -> Vec<String> {
    let path = |path: &Path| path.display().to_string();
    let mut command = server.to_vec();
    command.extend(["mcp".into(), "serve".into(), path(template), "--scenario".into(), path(scenario)]);
    command.extend(["--log".into(), path(log)]);
    command
}
