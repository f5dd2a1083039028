//! The agent hosts the host lab runs (spec 13): which there are, where each is installed, and how
//! each is launched ([`Launch`]: the program, its arguments and the whole environment it gets,
//! with the parts that change from run to run written as placeholders, so that the user allows
//! one definition and a changed one is asked again).
//!
//! `openai-agents` and `pydantic-ai` are Unfold's Python driver (`drivers/python_host.py`) run
//! with the host's library: from a virtual environment `UNFOLD_HOSTS_DIR/NAME` when there is
//! one, else the `python3` on `PATH` when it has the library. Their `-cached` variants have the
//! library cache the MCP tool list. `command` is any program the user names.

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use serde::Serialize;
use unfold_documents::host_profile::HostApi;

use crate::template_http::MCP_PATH;

/// Unfold's driver of the Python hosts.
pub const PYTHON_DRIVER: &str = include_str!("drivers/python_host.py");
/// The driver's file name in a run's folder.
pub const PYTHON_DRIVER_FILE: &str = "python_host.py";

/// In a [`Launch`], the run's folder.
pub const RUN_FOLDER: &str = "{run}";
/// In a [`Launch`], the model endpoint's port.
pub const PORT: &str = "{port}";
/// In a [`Launch`], the `PATH` Unfold was started with.
pub const USER_PATH: &str = "{PATH}";
/// In a [`Launch`], the template's system prompt.
pub const SYSTEM_PROMPT: &str = "{system prompt}";
/// In a [`Launch`], the scenario's user messages as a JSON array.
pub const USER_MESSAGES: &str = "{user messages}";
/// In a [`Launch`], the command that serves the template over stdio, as a JSON array.
pub const MCP_COMMAND: &str = "{mcp command}";
/// In a [`Launch`], the port of the template served over streamable HTTP.
pub const MCP_PORT: &str = "{mcp port}";

/// How a host is driven.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HostKind {
    /// Any program the user names, finding the endpoints in its environment.
    Command,
    /// OpenAI's Agents SDK (`openai-agents` on PyPI) through Unfold's driver.
    OpenaiAgents,
    /// Pydantic AI (`pydantic-ai-slim` on PyPI) through Unfold's driver.
    PydanticAi,
}

/// One host Unfold can run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Host {
    /// Its name, as `unfold host run` and a lane (`real:NAME`) take it.
    pub name: &'static str,
    /// How it is driven.
    pub kind: HostKind,
    /// Whether its library caches the MCP tool list.
    pub caches_tools: bool,
}

/// Every host, in the order they are listed.
pub const HOSTS: [Host; 5] = [
    Host { name: "openai-agents", kind: HostKind::OpenaiAgents, caches_tools: false },
    Host { name: "openai-agents-cached", kind: HostKind::OpenaiAgents, caches_tools: true },
    Host { name: "pydantic-ai", kind: HostKind::PydanticAi, caches_tools: false },
    Host { name: "pydantic-ai-cached", kind: HostKind::PydanticAi, caches_tools: true },
    Host { name: "command", kind: HostKind::Command, caches_tools: false },
];

/// Where a host is installed, and its version when it says.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Installed {
    /// The program that runs it (a Python for the Python hosts).
    pub program: PathBuf,
    /// Its version.
    pub version: Option<String>,
}

/// What starting a host runs: the program, its arguments and its whole environment (nothing else
/// of Unfold's environment reaches it). Values may hold the placeholders of this module, filled
/// for each run; the user allows this, as written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Launch {
    /// The program.
    pub program: PathBuf,
    /// Its arguments.
    pub args: Vec<String>,
    /// Its environment, entire.
    pub env: BTreeMap<String, String>,
}

impl Host {
    /// The host called `name`; an unknown name fails with the hosts' names.
    pub fn named(name: &str) -> Result<Host, String> {
        HOSTS.into_iter().find(|host| host.name == name).ok_or_else(|| {
            let names: Vec<&str> = HOSTS.iter().map(|host| host.name).collect();
            format!("'{name}' is not a host Unfold runs: one of {}", names.join(", "))
        })
    }

    /// The Python package that is the host, for the Python hosts.
    pub fn package(self) -> Option<&'static str> {
        match self.kind {
            HostKind::Command => None,
            HostKind::OpenaiAgents => Some("openai-agents"),
            HostKind::PydanticAi => Some("pydantic-ai-slim"),
        }
    }

    /// The library it drives, without `-cached`: its driver's `UNFOLD_HOST` and its folder in
    /// `UNFOLD_HOSTS_DIR`.
    pub fn library(self) -> &'static str {
        self.name.trim_end_matches("-cached")
    }

    /// The module the Python host's library imports as.
    fn module(self) -> Option<&'static str> {
        match self.kind {
            HostKind::Command => None,
            HostKind::OpenaiAgents => Some("agents"),
            HostKind::PydanticAi => Some("pydantic_ai"),
        }
    }

    /// The wire format the host is told to speak; none: any (a program chooses).
    pub fn api(self) -> Option<HostApi> {
        match self.kind {
            HostKind::Command => None,
            HostKind::OpenaiAgents | HostKind::PydanticAi => Some(HostApi::OpenaiResponses),
        }
    }

    /// Where the host is installed: for a Python host, the virtual environment
    /// `hosts_dir/FOLDER` (the host's name without `-cached`), else a `python3` on `path` that
    /// has its library; for `command`, `program` found as a shell would (on `path` unless it
    /// holds a `/`). None when it is not there.
    pub fn find(self, hosts_dir: Option<&Path>, path: Option<&OsStr>, program: Option<&str>) -> Option<Installed> {
        let (Some(package), Some(module)) = (self.package(), self.module()) else {
            let program = program?;
            return on_path(program, path).map(|program| Installed { program, version: None });
        };
        let venv = hosts_dir.map(|dir| dir.join(self.library()).join("bin/python")).filter(|python| python.is_file());
        let candidates = venv.into_iter().chain(on_path("python3", path));
        candidates.into_iter().find_map(|python| {
            let version = python_package_version(&python, module, package)?;
            Some(Installed { program: python, version: Some(version) })
        })
    }

    /// How the host is started, installed at `installed`, with `args` after the program for
    /// `command`.
    pub fn launch(self, installed: &Installed, args: &[String]) -> Launch {
        let mut env = BTreeMap::from([
            ("HOME".to_owned(), format!("{RUN_FOLDER}/home")),
            ("PATH".to_owned(), USER_PATH.to_owned()),
            ("UNFOLD_MODEL_BASE_URL".to_owned(), format!("http://127.0.0.1:{PORT}/v1")),
            ("UNFOLD_MODEL_API".to_owned(), self.api().map(|api| api.name().to_owned()).unwrap_or_default()),
            ("UNFOLD_MCP_COMMAND".to_owned(), MCP_COMMAND.to_owned()),
            ("UNFOLD_MCP_URL".to_owned(), format!("http://127.0.0.1:{MCP_PORT}{MCP_PATH}")),
            ("UNFOLD_SYSTEM_PROMPT".to_owned(), SYSTEM_PROMPT.to_owned()),
            ("UNFOLD_USER_MESSAGES".to_owned(), USER_MESSAGES.to_owned()),
        ]);
        if self.kind == HostKind::Command {
            return Launch { program: installed.program.clone(), args: args.to_vec(), env };
        }
        env.insert("UNFOLD_HOST".into(), self.library().into());
        env.insert("UNFOLD_CACHE_TOOLS".into(), if self.caches_tools { "1" } else { "0" }.into());
        // Nothing written beside the driver, and no traces sent anywhere.
        env.insert("PYTHONDONTWRITEBYTECODE".into(), "1".into());
        env.insert("OPENAI_AGENTS_DISABLE_TRACING".into(), "1".into());
        let driver = format!("{RUN_FOLDER}/{PYTHON_DRIVER_FILE}");
        Launch { program: installed.program.clone(), args: vec![driver], env }
    }
}

impl Launch {
    /// The launch with its placeholders filled by `values` (placeholder, value).
    pub fn filled(&self, values: &[(&str, &str)]) -> Launch {
        let fill = |text: &str| values.iter().fold(text.to_owned(), |text, (from, to)| text.replace(from, to));
        Launch {
            program: PathBuf::from(fill(&self.program.to_string_lossy())),
            args: self.args.iter().map(|arg| fill(arg)).collect(),
            env: self.env.iter().map(|(name, value)| (name.clone(), fill(value))).collect(),
        }
    }
}

/// `program` as a shell finds it: itself when it holds a `/`, else the first executable of that
/// name in `path`.
fn on_path(program: &str, path: Option<&OsStr>) -> Option<PathBuf> {
    if program.contains('/') {
        return Some(PathBuf::from(program)).filter(|program| program.is_file());
    }
    std::env::split_paths(path?).map(|dir| dir.join(program)).find(|candidate| is_executable(candidate))
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata().is_ok_and(|meta| meta.is_file() && meta.permissions().mode() & 0o111 != 0)
}

/// The version of `package` that `python` has, when it has `module` (asked in a clean
/// environment, in isolated mode: nothing of the user's site or folder is imported).
fn python_package_version(python: &Path, module: &str, package: &str) -> Option<String> {
    let script = format!(
        "import importlib.util, importlib.metadata as m\n\
         print(m.version('{package}') if importlib.util.find_spec('{module}') else '')"
    );
    let output = std::process::Command::new(python)
        .args(["-I", "-c", &script])
        .env_clear()
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    let version = String::from_utf8_lossy(&output.stdout).trim().to_owned();
    (output.status.success() && !version.is_empty()).then_some(version)
}
