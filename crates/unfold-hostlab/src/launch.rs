//! How a host is started ([`Launch`]): the program, its arguments, the whole environment it gets
//! and the files written for it, with the parts that change from run to run written as
//! placeholders, so that the user allows one definition and a changed one is asked again; and
//! where a host is installed ([`Installed`]).

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use serde::Serialize;

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
/// In a [`Launch`], the program that serves the template over stdio, as a JSON string.
pub const MCP_PROGRAM: &str = "{mcp program}";
/// In a [`Launch`], that program's arguments, as a JSON array.
pub const MCP_ARGS: &str = "{mcp args}";
/// In a [`Launch`], the scenario's (first) user message.
pub const USER_MESSAGE: &str = "{user message}";

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
    /// The files written into the run's folder before it starts (its configuration), by their
    /// path in the folder.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub files: BTreeMap<String, String>,
}

impl Launch {
    /// The launch with its placeholders filled by `values` (placeholder, value), in one pass: a
    /// value is never read for placeholders (a system prompt may well hold `{port}`).
    pub fn filled(&self, values: &[(&str, &str)]) -> Launch {
        let fill = |text: &str| fill(text, values);
        Launch {
            program: PathBuf::from(fill(&self.program.to_string_lossy())),
            args: self.args.iter().map(|arg| fill(arg)).collect(),
            env: self.env.iter().map(|(name, value)| (name.clone(), fill(value))).collect(),
            files: self.files.iter().map(|(path, content)| (fill(path), fill(content))).collect(),
        }
    }
}

/// `text` with each placeholder of `values` replaced by its value, left to right.
fn fill(text: &str, values: &[(&str, &str)]) -> String {
    let mut filled = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('{') {
        filled.push_str(&rest[..at]);
        rest = &rest[at..];
        match values.iter().find(|(placeholder, _)| rest.starts_with(placeholder)) {
            Some((placeholder, value)) => {
                filled.push_str(value);
                rest = &rest[placeholder.len()..];
            }
            None => {
                filled.push('{');
                rest = &rest[1..];
            }
        }
    }
    filled.push_str(rest);
    filled
}

/// `program` as a shell finds it: itself when it holds a `/`, else the first executable of that
/// name in `path`.
pub(crate) fn on_path(program: &str, path: Option<&OsStr>) -> Option<PathBuf> {
    if program.contains('/') {
        return Some(PathBuf::from(program)).filter(|program| program.is_file());
    }
    std::env::split_paths(path?).map(|dir| dir.join(program)).find(|candidate| is_executable(candidate))
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata().is_ok_and(|meta| meta.is_file() && meta.permissions().mode() & 0o111 != 0)
}
