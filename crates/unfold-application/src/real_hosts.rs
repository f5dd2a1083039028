//! Real agent hosts run against a template (spec 13's host lab), for `unfold host run`, `unfold
//! compare --hosts` and the compare page: which hosts are installed and their versions; what
//! starting one runs, which the user allows once per definition (the consent store that keeps
//! the sources' answers); and its runs, each in a folder of its own (kept where the user asked,
//! else thrown away), as `real:NAME` lanes.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;
use unfold_documents::{Scenario, Template};
use unfold_engine::compare::RunRequests;
use unfold_engine::{ComparisonReport, Lane, ModelResponse};
pub use unfold_hostlab::host_run::HostRun;
use unfold_hostlab::host_run::{run_host, HostRunPlan};
use unfold_hostlab::hosts::{Host, Installed, Launch, HOSTS};
use unfold_stores::consent_store::{ConsentStore, Trust};
use unfold_stores::run_history::ComparisonOrigin;

use crate::error::{AppError, AppResult, ErrorCode};
use crate::live_hosts::LiveModel;

/// How long a host may run unless told otherwise (spec 13).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(120);
/// The most runs one request may make of one host.
pub const MAX_REPEAT: u32 = 100;

/// One host as `unfold hosts list` and the compare page show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct HostView {
    /// Its name (`openai-agents`, …); its lane is `real:NAME`.
    pub name: String,
    /// Whether its library caches the MCP tool list.
    pub caches_tools: bool,
    /// Where it is installed; none: not installed (`command` always needs a program).
    pub program: Option<String>,
    /// Its version, when installed and it says.
    pub version: Option<String>,
}

/// A host found and ready to start: what starting it runs.
#[derive(Debug, Clone)]
pub struct PreparedHost {
    host: Host,
    installed: Installed,
    launch: Launch,
}

impl PreparedHost {
    /// The API the host speaks to its model, when it has one of its own.
    pub fn api(&self) -> Option<unfold_documents::host_profile::HostApi> {
        self.host.api()
    }

    /// The host's name.
    pub fn name(&self) -> &str {
        self.host.name
    }

    /// What the user is asked to allow: the program, its arguments, its whole environment and
    /// the files written for it, one per line (`{run}`, `{port}` and the other placeholders are
    /// filled for each run).
    pub fn question(&self) -> String {
        let mut lines = vec![format!("program: {}", self.launch.program.display())];
        lines.extend(self.launch.args.iter().map(|arg| format!("argument: {arg}")));
        lines.extend(self.launch.env.iter().map(|(name, value)| format!("env: {name}={value}")));
        lines.extend(self.launch.files.iter().map(|(path, content)| format!("file: {{run}}/{path}: {content}")));
        lines.join("\n")
    }

    /// The definition the user's answer is bound to: the launch as JSON.
    fn definition(&self) -> String {
        serde_json::to_string(&self.launch).unwrap_or_default()
    }
}

/// How a host runs.
#[derive(Debug, Clone)]
pub struct HostRunOptions {
    /// How many times, one after another.
    pub repeat: u32,
    /// Where each run's folder is kept (`DIR/run-N`); none: in a temporary folder, removed after.
    pub record: Option<PathBuf>,
    /// How long each run may take.
    pub timeout: Duration,
    /// Set to stop the host running and make no more runs.
    pub cancel: Option<Arc<AtomicBool>>,
    /// The real model the host's requests are forwarded to (a live host); none: the scenario's
    /// script answers.
    pub model: Option<LiveModel>,
    /// A fork's recorded answers (spec 15), given before the model answers; the scenario run
    /// carries the fork's results.
    pub recorded: Vec<ModelResponse>,
}

impl Default for HostRunOptions {
    fn default() -> HostRunOptions {
        HostRunOptions {
            repeat: 1,
            record: None,
            timeout: DEFAULT_TIMEOUT,
            cancel: None,
            model: None,
            recorded: Vec::new(),
        }
    }
}

/// The host lab of one front: how Unfold serves a template (its own program), where hosts are
/// installed, and the user's answers.
#[derive(Debug, Clone)]
pub struct HostLab {
    /// Unfold's program, and the arguments before `mcp serve …`.
    server: Vec<String>,
    /// `UNFOLD_HOSTS_DIR`: the Python hosts' virtual environments.
    hosts_dir: Option<PathBuf>,
    consents: Option<ConsentStore>,
}

impl HostLab {
    /// The lab whose hosts start `server` (Unfold's program, then its arguments before `mcp
    /// serve`) to serve the template, find their libraries in `UNFOLD_HOSTS_DIR` or on `PATH`,
    /// and are allowed in the consent file `consents` (none: never allowed but by the caller).
    pub fn new(server: Vec<String>, consents: Option<PathBuf>) -> HostLab {
        let hosts_dir = std::env::var_os("UNFOLD_HOSTS_DIR").filter(|dir| !dir.is_empty()).map(PathBuf::from);
        HostLab { server, hosts_dir, consents: consents.map(ConsentStore::at) }
    }

    /// Every host Unfold runs, installed or not, in order. A host and its `-cached` variant share
    /// their library: it is looked for once (asking a Python its library's version takes a
    /// tenth of a second).
    pub fn hosts(&self) -> Vec<HostView> {
        let mut found: HashMap<&str, Option<Installed>> = HashMap::new();
        HOSTS
            .iter()
            .map(|host| {
                let installed = found.entry(host.library()).or_insert_with(|| self.find(*host, None)).clone();
                HostView {
                    name: host.name.to_owned(),
                    caches_tools: host.caches_tools,
                    program: installed.as_ref().map(|found| found.program.display().to_string()),
                    version: installed.and_then(|found| found.version),
                }
            })
            .collect()
    }

    fn find(&self, host: Host, program: Option<&str>) -> Option<Installed> {
        host.find(self.hosts_dir.as_deref(), std::env::var_os("PATH").as_deref(), program)
    }

    /// The host `name`, found, with what starting it runs; `command` runs `program` (its first
    /// word is the program). Fails when the host is unknown or not installed.
    pub fn prepare(&self, name: &str, program: &[String]) -> AppResult<PreparedHost> {
        let host = Host::named(name).map_err(|message| AppError::new(ErrorCode::InvalidRequest, message))?;
        let (first, args) = match program.split_first() {
            Some((first, args)) => (Some(first.as_str()), args),
            None => (None, &[][..]),
        };
        let installed = match (host.takes_a_program(), first) {
            (true, None) => {
                let why =
                    "the command host runs a program: give it after `--` (unfold host run command T S -- PROGRAM ARGS)";
                return Err(AppError::new(ErrorCode::InvalidRequest, why));
            }
            (false, Some(_)) => {
                let why = format!("{name} takes no program: only the command host does");
                return Err(AppError::new(ErrorCode::InvalidRequest, why));
            }
            _ => self.find(host, first).ok_or_else(|| not_installed(host, first))?,
        };
        let launch = host.launch(&installed, args);
        Ok(PreparedHost { host, installed, launch })
    }

    /// Whether the user allowed starting `prepared` as it is defined now.
    pub fn allowed(&self, prepared: &PreparedHost) -> bool {
        self.consents
            .as_ref()
            .is_some_and(|store| store.trust_host(prepared.name(), &prepared.definition()) == Trust::Allowed)
    }

    /// Allows starting `prepared` as it is defined now (until its definition changes).
    pub fn allow(&self, prepared: &PreparedHost) -> AppResult<()> {
        let Some(store) = &self.consents else {
            return Err(AppError::new(ErrorCode::Unavailable, "no settings folder to keep the answer in"));
        };
        store
            .allow_host(prepared.name(), &prepared.definition())
            .map_err(|error| AppError::new(ErrorCode::UnreadableFile, error.to_string()))
    }

    /// The error of a host not allowed: what starting it runs, and how to allow it.
    pub fn not_allowed(prepared: &PreparedHost) -> AppError {
        let message = format!(
            "starting {} needs your consent; it runs:\n{}\nallow it (kept until this changes) with --allow-host, or in the app",
            prepared.name(),
            prepared.question()
        );
        AppError::new(ErrorCode::InvalidRequest, message)
    }

    /// Runs `prepared` against `template` and `scenario` as `options` say, one run after
    /// another, into its runs with their requests; `told` hears each run as it ends. Refuses a
    /// host the user has not allowed.
    pub async fn run(
        &self,
        prepared: &PreparedHost,
        template: &Template,
        scenario: &Scenario,
        options: &HostRunOptions,
        told: &mut (dyn FnMut(u32, &HostRun) + Send),
    ) -> AppResult<Vec<HostRun>> {
        if !self.allowed(prepared) {
            return Err(HostLab::not_allowed(prepared));
        }
        let turns = scenario.user_turns().len();
        if prepared.host.takes_one_message() && turns > 1 {
            let why = format!(
                "{} takes one user message (one non-interactive run); scenario '{}' has {turns}",
                prepared.host.name, scenario.name
            );
            return Err(AppError::new(ErrorCode::InvalidRequest, why));
        }
        if let Some(model) = &options.model {
            model.check_host(prepared.name(), prepared.api())?;
        }
        if options.repeat == 0 || options.repeat > MAX_REPEAT {
            let why = format!("--repeat is between 1 and {MAX_REPEAT}");
            return Err(AppError::new(ErrorCode::InvalidRequest, why));
        }
        let scratch = match &options.record {
            Some(_) => None,
            None => Some(tempfile::tempdir().map_err(|error| AppError::new(ErrorCode::Internal, error.to_string()))?),
        };
        let root =
            options.record.as_deref().or(scratch.as_ref().map(tempfile::TempDir::path)).unwrap_or(Path::new("."));
        let mut runs = Vec::new();
        for number in 1..=options.repeat {
            let folder = root.join(format!("run-{number}"));
            let plan = HostRunPlan {
                host: prepared.host,
                version: prepared.installed.version.clone(),
                launch: &prepared.launch,
                template,
                scenario,
                server: &self.server,
                folder: &folder,
                timeout: options.timeout,
                cancel: options.cancel.as_deref(),
                upstream: options.model.as_ref().map(LiveModel::upstream),
                recorded: &options.recorded,
            };
            let run = run_host(plan).await.map_err(crate::template_server::hostlab_error)?;
            if options.cancel.as_ref().is_some_and(|cancel| cancel.load(Ordering::Relaxed)) {
                return Err(AppError::new(ErrorCode::Cancelled, "the run was cancelled"));
            }
            told(number, &run);
            runs.push(run);
        }
        Ok(runs)
    }
}

/// A host's runs' requests as the call inspector reads them.
pub fn run_requests(name: &str, run: &HostRun) -> RunRequests {
    RunRequests { lane: Lane::real_host(name), calls: run.calls.clone() }
}

/// How to install the host `name` when it is missing: its package, from PyPI or npm, and the
/// script that installs every host pinned; none for `command` or a name that is not a host.
pub fn install_hint(name: &str) -> Option<String> {
    let host = Host::named(name).ok()?;
    let package = host.package()?;
    let tool = if host.is_python() { "pip install" } else { "npm install" };
    Some(format!("{tool} {package}, or scripts/hosts.sh install"))
}

fn not_installed(host: Host, program: Option<&str>) -> AppError {
    let message = match (host.package(), program) {
        (Some(package), _) if host.is_python() => format!(
            "{} is not installed: no Python with `{package}` in UNFOLD_HOSTS_DIR/{} or on PATH (scripts/hosts.sh install sets one up)",
            host.name,
            host.library()
        ),
        (Some(package), _) => format!(
            "{} is not installed: not in UNFOLD_HOSTS_DIR/{}/node_modules/.bin nor on PATH (npm install {package}, or scripts/hosts.sh install)",
            host.name,
            host.library()
        ),
        (None, Some(program)) => format!("the command host's program '{program}' is not found (on PATH, or as a path)"),
        (None, None) => format!("{} needs a program", host.name),
    };
    AppError::new(ErrorCode::NotFound, message)
}

/// Files a host run was asked for: the template and the scenario as read, and their paths.
#[derive(Debug, Clone, Copy)]
pub struct HostRunFiles<'a> {
    /// The template.
    pub template: &'a Template,
    /// Its file (none: the template is built in, as the probe's).
    pub template_path: Option<&'a Path>,
    /// The scenario.
    pub scenario: &'a Scenario,
    /// Its file (none: built in).
    pub scenario_path: Option<&'a Path>,
    /// The provider profile and model a live host's requests went to; none: the script answered.
    pub live: Option<(&'a str, &'a str)>,
}

/// A host's runs as a comparison report of their own (no baseline: the host is what is
/// measured), kept in `history` like any comparison's lanes; the ids the runs are kept under, or
/// why they were not kept. Nothing in them is secret: the host's model is the scripted one.
pub fn report_and_keep(
    files: HostRunFiles<'_>,
    runs: Vec<HostRun>,
    history: &crate::run_history::OpenRunHistory,
    started: (u64, std::time::Instant),
) -> (ComparisonReport, AppResult<Vec<i64>>) {
    let mut report = ComparisonReport::of(&files.template.key, &files.scenario.name, None);
    report.add_runs(runs.into_iter().map(|run| run.report).collect());
    let origin = ComparisonOrigin {
        template: files.template,
        template_path: files.template_path,
        scenario: files.scenario,
        scenario_path: files.scenario_path,
        live: files.live,
        started_at_ms: started.0,
        duration_ms: u64::try_from(started.1.elapsed().as_millis()).unwrap_or(u64::MAX),
        forked_from: None,
    };
    let kept = history.keep_ids(&origin.records(&report));
    (report, kept)
}

/// Writes the trace of a host's runs (`report_and_keep`'s report) to `path`, as a comparison's
/// (OTLP JSON, a line per run; the scripted model's context, each run's span naming its host).
pub fn write_trace(path: &Path, report: &ComparisonReport) -> AppResult<()> {
    // The recording keeps no event's time apart from the logs': the spans say what happened in
    // what order, not when.
    let lines =
        crate::traces::comparison_lines(report, &Default::default(), &crate::traces::TraceContext::scripted(None));
    crate::traces::write_trace_file(path, &lines, &unfold_live::Secrets::none())
}
