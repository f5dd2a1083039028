//! The tools the interop tests check Unfold's output with, installed by
//! `scripts/interop-tools.sh install` (which `scripts/test.sh` runs first) into `UNFOLD_CACHE` or
//! `~/.cache/unfold`: the promptfoo CLI with the Node.js it needs, and a Python with the
//! OpenTelemetry protobuf definitions.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::cache;

/// The promptfoo version the script installs (kept in step with `scripts/interop-tools.sh`).
const PROMPTFOO: &str = "0.123.1";

/// `promptfoo ARGS…` on its own Node.js, with only the environment it needs: its home (config,
/// database, cache) in `home`, no telemetry and no update check.
pub fn promptfoo(home: &Path) -> Command {
    let bin = cache().join(format!("promptfoo-{PROMPTFOO}/node_modules/.bin"));
    assert!(
        bin.join("promptfoo").exists(),
        "{} has no promptfoo: run scripts/interop-tools.sh install first",
        bin.display()
    );
    let mut command = Command::new(bin.join("node"));
    command
        .arg(bin.join("../promptfoo/dist/src/main.js"))
        .env_clear()
        .env("PATH", format!("{}:/usr/bin:/bin", bin.display()))
        .env("HOME", home)
        .env("PROMPTFOO_CONFIG_DIR", home.join(".promptfoo"))
        .env("PROMPTFOO_DISABLE_TELEMETRY", "1")
        .env("PROMPTFOO_DISABLE_UPDATE", "1")
        .env("NODE_NO_WARNINGS", "1");
    command
}

/// The Python that has the `opentelemetry-proto` package.
pub fn otel_python() -> PathBuf {
    let python = cache().join("otel-venv/bin/python");
    assert!(python.exists(), "{} is missing: run scripts/interop-tools.sh install first", python.display());
    python
}
