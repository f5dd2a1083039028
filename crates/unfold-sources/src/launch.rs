//! How an MCP server's child process is started: its argument list as written (never a shell line),
//! its working folder relative to the template's, and a minimal environment — `PATH`, `HOME` and
//! `LANG` from the user's, plus the definition's `env`, where `${env:NAME}` is read from the user's
//! environment at start. So no secret is written into a template, and no key of the user's reaches
//! a server that did not ask for it.

use std::path::{Path, PathBuf};

use unfold_documents::source::McpServer;

use crate::error::SourceError;

/// The variables every child gets from the user's environment, when set.
const PASSED_THROUGH: [&str; 3] = ["PATH", "HOME", "LANG"];

/// A child process as it will be started.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Launch {
    /// The program, then its arguments.
    pub argv: Vec<String>,
    /// Its working folder.
    pub cwd: PathBuf,
    /// Its whole environment.
    pub env: Vec<(String, String)>,
}

impl Launch {
    /// The launch of `server`'s command for a template in `template_dir`, reading the user's
    /// environment through `user_env`.
    pub fn of(
        server: &McpServer,
        template_dir: &Path,
        user_env: &(dyn Fn(&str) -> Option<String> + Sync),
    ) -> Result<Launch, SourceError> {
        let argv = server.command.clone().unwrap_or_default();
        if argv.first().is_none_or(|program| program.is_empty()) {
            return Err(SourceError::Definition("the server has no command to start".to_owned()));
        }
        let cwd = match &server.cwd {
            Some(cwd) => template_dir.join(cwd),
            None => template_dir.to_owned(),
        };
        let mut env: Vec<(String, String)> =
            PASSED_THROUGH.iter().filter_map(|name| user_env(name).map(|value| ((*name).to_owned(), value))).collect();
        for (name, value) in &server.env {
            let value = match value.strip_prefix("${env:").and_then(|rest| rest.strip_suffix('}')) {
                Some(reference) => user_env(reference).ok_or_else(|| {
                    SourceError::Definition(format!("{name} takes ${{env:{reference}}}, and {reference} is not set"))
                })?,
                None => value.clone(),
            };
            env.retain(|(kept, _)| kept != name);
            env.push((name.clone(), value));
        }
        Ok(Launch { argv, cwd, env })
    }

    /// The command, its environment replaced by the launch's, killed if it is dropped running
    /// (what it starts is the process group's concern: `McpConnection`).
    pub fn command(&self) -> tokio::process::Command {
        let mut command = tokio::process::Command::new(&self.argv[0]);
        command.args(&self.argv[1..]).current_dir(&self.cwd).env_clear().envs(self.env.iter().cloned());
        command.kill_on_drop(true);
        command
    }
}
