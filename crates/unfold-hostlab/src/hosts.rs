//! The agent hosts the host lab runs (spec 13): which there are, where each is installed, and how
//! each is launched (its [`Launch`], which the user allows).
//!
//! `openai-agents` and `pydantic-ai` are Unfold's Python driver (`drivers/python_host.py`) run
//! with the host's library: from a virtual environment `UNFOLD_HOSTS_DIR/NAME` when there is
//! one, else the `python3` on `PATH` when it has the library. Their `-cached` variants have the
//! library cache the MCP tool list. `claude-code`, `codex` and `gemini-cli` are the coding-agent
//! CLIs from npm ([`cli_hosts`](crate::cli_hosts)): `codex` never lists tools again, as Codex does
//! by default, and `codex-list-changed` has its `mcp_tool_list_changed` feature on. `command` is
//! any program the user names.

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::path::Path;

use unfold_documents::host_profile::HostApi;

use crate::cli_hosts::Cli;
use crate::launch::on_path;
pub use crate::launch::{
    Installed, Launch, MCP_ARGS, MCP_COMMAND, MCP_PORT, MCP_PROGRAM, PORT, RUN_FOLDER, SYSTEM_PROMPT, USER_MESSAGE,
    USER_MESSAGES, USER_PATH,
};
use crate::template_http::MCP_PATH;

/// Unfold's driver of the Python hosts.
pub const PYTHON_DRIVER: &str = include_str!("drivers/python_host.py");
/// The driver's file name in a run's folder.
pub const PYTHON_DRIVER_FILE: &str = "python_host.py";

/// How a host is driven.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HostKind {
    /// Any program the user names, finding the endpoints in its environment.
    Command,
    /// OpenAI's Agents SDK (`openai-agents` on PyPI) through Unfold's driver.
    OpenaiAgents,
    /// Pydantic AI (`pydantic-ai-slim` on PyPI) through Unfold's driver.
    PydanticAi,
    /// A coding-agent CLI from npm.
    Cli(Cli),
}

/// One host Unfold can run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Host {
    /// Its name, as `unfold host run` and a lane (`real:NAME`) take it.
    pub name: &'static str,
    /// How it is driven.
    pub kind: HostKind,
    /// Whether it keeps the MCP tool list it first got (its library caches it, or it never
    /// lists tools again).
    pub caches_tools: bool,
}

/// Every host, in the order they are listed.
pub const HOSTS: [Host; 9] = [
    Host { name: "openai-agents", kind: HostKind::OpenaiAgents, caches_tools: false },
    Host { name: "openai-agents-cached", kind: HostKind::OpenaiAgents, caches_tools: true },
    Host { name: "pydantic-ai", kind: HostKind::PydanticAi, caches_tools: false },
    Host { name: "pydantic-ai-cached", kind: HostKind::PydanticAi, caches_tools: true },
    Host { name: "claude-code", kind: HostKind::Cli(Cli::ClaudeCode), caches_tools: false },
    Host { name: "codex", kind: HostKind::Cli(Cli::Codex), caches_tools: true },
    Host { name: "codex-list-changed", kind: HostKind::Cli(Cli::Codex), caches_tools: false },
    Host { name: "gemini-cli", kind: HostKind::Cli(Cli::GeminiCli), caches_tools: false },
    Host { name: "command", kind: HostKind::Command, caches_tools: false },
];

impl Host {
    /// The host called `name`; an unknown name fails with the hosts' names.
    pub fn named(name: &str) -> Result<Host, String> {
        HOSTS.into_iter().find(|host| host.name == name).ok_or_else(|| {
            let names: Vec<&str> = HOSTS.iter().map(|host| host.name).collect();
            format!("'{name}' is not a host Unfold runs: one of {}", names.join(", "))
        })
    }

    /// The package that is the host, for the hosts Unfold installs: a Python host's on PyPI, a
    /// CLI's on npm.
    pub fn package(self) -> Option<&'static str> {
        match self.kind {
            HostKind::Command => None,
            HostKind::OpenaiAgents => Some("openai-agents"),
            HostKind::PydanticAi => Some("pydantic-ai-slim"),
            HostKind::Cli(cli) => Some(cli.npm_package()),
        }
    }

    /// Whether it runs a program the user names (`command`).
    pub fn takes_a_program(self) -> bool {
        self.kind == HostKind::Command
    }

    /// Whether it is run by Unfold's Python driver.
    pub fn is_python(self) -> bool {
        matches!(self.kind, HostKind::OpenaiAgents | HostKind::PydanticAi)
    }

    /// Whether it takes only one user message (the CLIs: one non-interactive run).
    pub fn takes_one_message(self) -> bool {
        matches!(self.kind, HostKind::Cli(_))
    }

    /// What it is installed as, whichever variant: its driver's `UNFOLD_HOST` and its folder in
    /// `UNFOLD_HOSTS_DIR` (the name without `-cached` or `-list-changed`).
    pub fn library(self) -> &'static str {
        self.name.trim_end_matches("-cached").trim_end_matches("-list-changed")
    }

    /// The module the Python host's library imports as.
    fn module(self) -> Option<&'static str> {
        match self.kind {
            HostKind::OpenaiAgents => Some("agents"),
            HostKind::PydanticAi => Some("pydantic_ai"),
            _ => None,
        }
    }

    /// The wire format the host is told to speak (or speaks); none: any (a program chooses).
    pub fn api(self) -> Option<HostApi> {
        match self.kind {
            HostKind::Command => None,
            HostKind::OpenaiAgents | HostKind::PydanticAi => Some(HostApi::OpenaiResponses),
            HostKind::Cli(cli) => Some(cli.api()),
        }
    }

    /// Where the host is installed: for a Python host, the virtual environment
    /// `hosts_dir/FOLDER` (the host's name without `-cached`), else a `python3` on `path` that
    /// has its library; for `command`, `program` found as a shell would (on `path` unless it
    /// holds a `/`). None when it is not there.
    pub fn find(self, hosts_dir: Option<&Path>, path: Option<&OsStr>, program: Option<&str>) -> Option<Installed> {
        if let HostKind::Cli(cli) = self.kind {
            return cli.find(hosts_dir.map(|dir| dir.join(self.library())).as_deref(), path);
        }
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
            return Launch { program: installed.program.clone(), args: args.to_vec(), env, files: BTreeMap::new() };
        }
        if let HostKind::Cli(cli) = self.kind {
            return cli.launch(!self.caches_tools, installed, env);
        }
        env.insert("UNFOLD_HOST".into(), self.library().into());
        env.insert("UNFOLD_CACHE_TOOLS".into(), if self.caches_tools { "1" } else { "0" }.into());
        // Nothing written beside the driver, and no traces sent anywhere.
        env.insert("PYTHONDONTWRITEBYTECODE".into(), "1".into());
        env.insert("OPENAI_AGENTS_DISABLE_TRACING".into(), "1".into());
        let driver = format!("{RUN_FOLDER}/{PYTHON_DRIVER_FILE}");
        Launch { program: installed.program.clone(), args: vec![driver], env, files: BTreeMap::new() }
    }
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
