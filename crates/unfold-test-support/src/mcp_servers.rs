//! Where the real MCP servers the tool-source tests start are: the Python with the official SDK
//! and the npm reference server, both installed by `scripts/mcp-servers.sh install` (which
//! `scripts/test.sh` runs first) into `UNFOLD_CACHE` or `~/.cache/unfold`.

use std::path::{Path, PathBuf};

use crate::cache;

/// The Python that has the `mcp` package (`UNFOLD_MCP_PYTHON`, else the install script's venv).
pub fn python() -> String {
    let python = std::env::var("UNFOLD_MCP_PYTHON")
        .unwrap_or_else(|_| cache().join("mcp-venv/bin/python").display().to_string());
    assert!(Path::new(&python).exists(), "{python} is missing: run scripts/mcp-servers.sh install first");
    python
}

/// The `node_modules` of the npm servers and SDK (`UNFOLD_MCP_NPM`, else the install script's
/// folder).
pub fn npm_modules() -> PathBuf {
    let folder = std::env::var("UNFOLD_MCP_NPM").map(PathBuf::from).unwrap_or_else(|_| cache().join("mcp-npm"));
    folder.join("node_modules")
}

/// A program the npm servers installed.
pub fn npm_bin(name: &str) -> String {
    let bin = npm_modules().join(".bin").join(name);
    assert!(bin.exists(), "{} is missing: run scripts/mcp-servers.sh install first", bin.display());
    bin.display().to_string()
}

/// The Python SDK test server whose tool list changes when its `unlock` tool is called.
pub fn changing_tools_script() -> PathBuf {
    crate::repo("crates/unfold-sources/tests/servers/changing_tools.py")
}
