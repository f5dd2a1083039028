//! The coding-agent CLIs as hosts (spec 13): Claude Code, Codex CLI and Gemini CLI, each from npm,
//! each launched with everything it needs to run offline against Unfold's servers, so that a user
//! only names the host (what each needed is in `shared/setup/HOSTS.md`):
//!
//! - the template's system prompt as the project instructions the CLI reads from its working
//!   folder (`CLAUDE.md`, `AGENTS.md`, `GEMINI.md`), as a team gives it to the CLI;
//! - the template's MCP server as the CLI's only MCP server, named `unfold`, in the CLI's own
//!   configuration, written into the run's folder (its home for Gemini CLI, `CODEX_HOME` for Codex);
//! - the scripted endpoint as its model, with any key, telemetry and other traffic off;
//! - the scenario's user message as the prompt of one non-interactive run (`claude -p`, `codex
//!   exec`, `gemini -p`): these CLIs take one message, so a scenario of several turns is refused.

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::path::Path;

use unfold_documents::host_profile::HostApi;

use crate::launch::{on_path, Installed, Launch, MCP_ARGS, MCP_PROGRAM, PORT, RUN_FOLDER, SYSTEM_PROMPT, USER_MESSAGE};

/// The key each CLI is given: the endpoint accepts any.
const KEY: &str = "unfold-scripted";

/// A coding-agent CLI.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cli {
    /// Claude Code (`@anthropic-ai/claude-code` on npm), `claude -p`.
    ClaudeCode,
    /// Codex CLI (`@openai/codex` on npm), `codex exec`.
    Codex,
    /// Gemini CLI (`@google/gemini-cli` on npm), `gemini -p`.
    GeminiCli,
}

impl Cli {
    /// The program it runs, as npm installs it (`node_modules/.bin/NAME`).
    pub fn program(self) -> &'static str {
        match self {
            Cli::ClaudeCode => "claude",
            Cli::Codex => "codex",
            Cli::GeminiCli => "gemini",
        }
    }

    /// Its npm package.
    pub fn npm_package(self) -> &'static str {
        match self {
            Cli::ClaudeCode => "@anthropic-ai/claude-code",
            Cli::Codex => "@openai/codex",
            Cli::GeminiCli => "@google/gemini-cli",
        }
    }

    /// The wire format it speaks to its model.
    pub fn api(self) -> HostApi {
        match self {
            Cli::ClaudeCode => HostApi::Anthropic,
            Cli::Codex => HostApi::OpenaiResponses,
            Cli::GeminiCli => HostApi::Gemini,
        }
    }

    /// The CLI installed in `folder/node_modules/.bin` (npm's `--prefix folder`), else on `path`;
    /// with the version it says.
    pub(crate) fn find(self, folder: Option<&Path>, path: Option<&OsStr>) -> Option<Installed> {
        let local = folder.map(|folder| folder.join("node_modules/.bin").join(self.program()));
        let program = local.filter(|program| program.is_file()).or_else(|| on_path(self.program(), path))?;
        let version = version_of(&program, path);
        Some(Installed { program, version })
    }

    /// How the CLI installed at `installed` is launched, with `env` (the endpoints, the data)
    /// beside what it needs itself; `lists_again`: Codex with its `mcp_tool_list_changed` on.
    pub(crate) fn launch(self, lists_again: bool, installed: &Installed, env: BTreeMap<String, String>) -> Launch {
        let mut launch = Launch { program: installed.program.clone(), args: Vec::new(), env, files: BTreeMap::new() };
        launch.env.insert("HOME".into(), format!("{RUN_FOLDER}/home"));
        let mcp_json = format!(r#"{{"mcpServers":{{"unfold":{{"command":{MCP_PROGRAM},"args":{MCP_ARGS}}}}}}}"#);
        match self {
            Cli::ClaudeCode => {
                launch.args = strings(&["-p", USER_MESSAGE, "--mcp-config", "mcp.json", "--strict-mcp-config"]);
                launch.args.extend(strings(&["--allowedTools", "mcp__unfold__*"]));
                launch.env.insert("ANTHROPIC_BASE_URL".into(), format!("http://127.0.0.1:{PORT}"));
                launch.env.insert("ANTHROPIC_API_KEY".into(), KEY.into());
                launch.env.insert("DISABLE_TELEMETRY".into(), "1".into());
                launch.env.insert("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC".into(), "1".into());
                launch.files.insert("mcp.json".into(), mcp_json);
                launch.files.insert("CLAUDE.md".into(), SYSTEM_PROMPT.into());
            }
            Cli::Codex => {
                launch.args = strings(&["exec", USER_MESSAGE, "--skip-git-repo-check", "--disable", "plugins"]);
                if lists_again {
                    launch.args.extend(strings(&["--enable", "mcp_tool_list_changed"]));
                }
                launch.env.insert("CODEX_HOME".into(), format!("{RUN_FOLDER}/codex"));
                launch.files.insert("codex/config.toml".into(), codex_config());
                launch.files.insert("AGENTS.md".into(), SYSTEM_PROMPT.into());
            }
            Cli::GeminiCli => {
                launch.args = strings(&["-p", USER_MESSAGE, "--yolo", "--skip-trust"]);
                launch.env.insert("GOOGLE_GEMINI_BASE_URL".into(), format!("http://127.0.0.1:{PORT}"));
                launch.env.insert("GEMINI_API_KEY".into(), KEY.into());
                let settings = format!(
                    r#"{{"security":{{"auth":{{"selectedType":"gemini-api-key"}}}},"privacy":{{"usageStatisticsEnabled":false}},"mcpServers":{{"unfold":{{"command":{MCP_PROGRAM},"args":{MCP_ARGS}}}}}}}"#
                );
                launch.files.insert("home/.gemini/settings.json".into(), settings);
                launch.files.insert("GEMINI.md".into(), SYSTEM_PROMPT.into());
            }
        }
        launch
    }
}

/// What `program --version` says its version is (the first word that starts with a digit and
/// holds a dot, after a `v` if any), asked in an empty home so that nothing of the user's is read.
fn version_of(program: &Path, path: Option<&OsStr>) -> Option<String> {
    let home = tempfile_home()?;
    let output = std::process::Command::new(program)
        .arg("--version")
        .env_clear()
        .env("PATH", path.unwrap_or_default())
        .env("HOME", &home)
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .output();
    let _ = std::fs::remove_dir_all(&home);
    let text = String::from_utf8_lossy(&output.ok()?.stdout).into_owned();
    let word = text
        .split_whitespace()
        .map(|word| word.trim_start_matches('v'))
        .find(|word| word.chars().next().is_some_and(|c| c.is_ascii_digit()) && word.contains('.'))?;
    Some(word.to_owned())
}

/// A new empty folder for a CLI's home while it says its version.
fn tempfile_home() -> Option<std::path::PathBuf> {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let home = std::env::temp_dir().join(format!("unfold-version-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&home).ok()?;
    Some(home)
}

/// Codex's configuration: the endpoint as a model provider on the Responses API (Codex refuses
/// Chat), the template's server required (else its first request may come before the server's
/// tools) and its calls approved (else each fails for want of an approval no one can give).
fn codex_config() -> String {
    // The program and arguments are JSON strings and arrays: TOML reads them alike.
    format!(
        "model = \"unfold-scripted\"\nmodel_provider = \"unfold\"\n\n\
         [model_providers.unfold]\nname = \"Unfold's scripted model\"\nbase_url = \"http://127.0.0.1:{PORT}/v1\"\n\
         wire_api = \"responses\"\n\n\
         [mcp_servers.unfold]\ncommand = {MCP_PROGRAM}\nargs = {MCP_ARGS}\nrequired = true\n\
         default_tools_approval_mode = \"approve\"\n"
    )
}

fn strings(words: &[&str]) -> Vec<String> {
    words.iter().map(|word| (*word).to_owned()).collect()
}
